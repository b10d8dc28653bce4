//! Entering and leaving loss recovery, and what the sender does inside it:
//! RACK-TLP loss detection (RFC 8985, rack.rs) and its probes, proportional
//! rate reduction (RFC 6937), and the recovery window of each style.

use crate::cc::{CongestionOps, CwndEvent, RecoveryStyle};
use crate::ecn::LastCut;
use crate::endpoint::{Endpoint, Phase};
use crate::flight::Delivery;
use crate::rack::RackView;
use ackclock_core::Instant;
use ackclock_wire::TcpRepr;

/// RFC 6937 proportional rate reduction, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Prr {
    /// Delivered and sent since recovery began.
    delivered: u64,
    pub out: u64,
    /// The window recovery started from (RecoverFS; Linux's prior_cwnd).
    recover_fs: u64,
}

impl Endpoint {
    /// Whether RACK-TLP detects losses on this connection (it needs SACK).
    pub(crate) fn rack_on(&self) -> bool {
        self.cfg.rack && self.sack_ok
    }

    /// RACK's part of an ACK (RFC 8985 §6.2): learn from what it delivered
    /// and deem lost what a later delivery and time say is lost.
    pub(crate) fn rack_after_ack(&mut self, now: Instant, d: &Delivery, dsack: bool) {
        if !self.rack_on() {
            return;
        }
        self.rack.update(d);
        self.rack.note_dsack(dsack, self.snd_una, self.snd_nxt);
        let view = self.rack_view(now);
        self.rack.detect_loss(&mut self.flight, &view);
    }

    fn rack_view(&self, now: Instant) -> RackView {
        let sacked = u64::from(self.cfg.dupack_threshold) * u64::from(self.send_mss);
        RackView {
            now,
            srtt: self.rtt.srtt(),
            min_rtt: self.flight.min_rtt(),
            in_recovery: self.phase != Phase::Open,
            sacked_enough: self.flight.sacked_bytes() >= sacked,
        }
    }

    /// RFC 8985 §6.3: the reordering timer expired. A recovery it starts
    /// counts one segment delivered for PRR (Linux `tcp_rack_reo_timeout`).
    pub(crate) fn on_rack_timer(&mut self, now: Instant) {
        let view = self.rack_view(now);
        if self.rack.detect_loss(&mut self.flight, &view) && self.phase == Phase::Open {
            self.maybe_enter_recovery(now);
            if self.phase == Phase::FastRecovery {
                self.prr_update(u64::from(self.send_mss), false, false);
            }
        }
    }

    /// With RACK, recovery starts as soon as a segment is deemed lost
    /// (Linux `tcp_time_to_recover`).
    pub(crate) fn maybe_enter_recovery(&mut self, now: Instant) {
        let guarded = self.snd_una <= self.recover && self.recover > 0;
        if self.phase == Phase::Open && self.flight.lost_bytes() > 0 && !guarded {
            self.enter_recovery(now, true);
        }
    }

    /// Fast retransmit: ssthresh from the algorithm, then the window of the
    /// recovery style (RFC 5681 §3.2, RFC 6582, RFC 6675 §5, RFC 6937).
    /// Without `cut` (ns-2, soon after an ECN cut) ssthresh, `recover` and
    /// the window stay, but for Tahoe's one packet.
    pub(crate) fn enter_recovery(&mut self, now: Instant, cut: bool) {
        let style = self.cc.recovery_rules().style;
        let sack_recovery = self.sack_ok && style != RecoveryStyle::Tahoe;
        self.stats.fast_retransmits += 1;
        self.begin_undo_episode();
        let prior_cwnd = self.win.cwnd;
        let keep = if cut { None } else { Some(self.win) };
        if cut {
            let c = self.conn(now);
            self.win.ssthresh = self.cc.ssthresh(&self.win, &c);
            self.recover = self.snd_max;
        }
        self.last_cut = LastCut::Dupack;
        if self.cfg.ns2_ecn {
            // ns-2's slowdown marks the next packet.
            self.send_cwr |= cut || style == RecoveryStyle::Tahoe;
        }
        self.recover_by_rto = false;
        // Karn: the timed segment may be resent.
        self.rtt_probe = None;
        // Restart the timer with the retransmission, as BSD and Linux do:
        // otherwise a timer set one RTT ago expires before its ACK returns.
        // Now, even if a send delay holds the retransmission (as ns-2's
        // reset_rtx_timer in dupack_action).
        self.restart_rto(now);
        self.rack.pto = None;
        let owns_window = self.cc.owns_window();
        match style {
            RecoveryStyle::Tahoe => {
                if !owns_window {
                    self.win.cwnd = self.send_mss;
                }
                self.snd_nxt = self.snd_una; // go back N from the hole
                self.phase = Phase::Loss;
            }
            _ if sack_recovery => {
                // RFC 6675 §5 (4.2): cwnd = ssthresh, then the pipe paces
                // sending; with PRR the window falls towards ssthresh as
                // data is delivered instead.
                self.stats.sack_recoveries += 1;
                if !owns_window && !self.cfg.prr {
                    self.win.cwnd = self.win.ssthresh;
                }
                self.start_prr(prior_cwnd);
                self.scoreboard.restart(self.snd_una);
                // (4.3): resend the first segment deemed lost at once.
                if self.is_ns2_sack1() {
                    self.sack1_enter_recovery();
                } else if !self.cfg.prr {
                    self.retransmit_at = Some(self.flight.first_lost().unwrap_or(self.snd_una));
                }
                self.phase = Phase::FastRecovery;
            }
            RecoveryStyle::Reno | RecoveryStyle::NewReno => {
                if !owns_window {
                    self.win.cwnd = self.win.ssthresh;
                }
                self.retransmit_at = Some(self.snd_una);
                self.phase = Phase::FastRecovery;
            }
        }
        match keep {
            Some(w) if style != RecoveryStyle::Tahoe => self.win = w,
            _ => self.cwnd_event(now, CwndEvent::RecoveryStart),
        }
        self.partial_acked = false;
        // RFC 5681 §3.2 (3): inflate by the segments that left the network
        // (DupThresh, or fewer if the algorithm saw the loss earlier).
        self.inflated_cwnd = self.win.cwnd + self.dupacks.min(self.cfg.dupack_threshold) * self.send_mss;
    }

    /// PRR starts counting from the window before the reduction.
    pub(crate) fn start_prr(&mut self, prior_cwnd: u32) {
        self.prr = Prr { recover_fs: u64::from(prior_cwnd), ..Prr::default() };
    }

    /// RFC 6937 §3 for one ACK in SACK recovery or CWR (Linux `tcp_cwnd_reduction`):
    /// while the pipe exceeds ssthresh, send in proportion to what is
    /// delivered; below it, slow start back up to ssthresh (PRR-SSRB).
    /// Counts are whole segments as in Linux: the proportional share is
    /// rounded up to one.
    pub(crate) fn prr_update(&mut self, delivered: u64, una_advanced: bool, newly_lost: bool) {
        if !self.cfg.prr || self.cc.owns_window() || delivered == 0 {
            return;
        }
        let mss = u64::from(self.send_mss);
        let p = &mut self.prr;
        p.delivered += delivered;
        let pipe = self.flight.pipe(self.snd_max - self.snd_una);
        let ssthresh = u64::from(self.win.ssthresh);
        let mut sndcnt = if pipe > ssthresh {
            let share = (ssthresh * p.delivered).div_ceil(p.recover_fs.max(1));
            (share.div_ceil(mss) * mss).saturating_sub(p.out)
        } else {
            let limit = p.delivered.saturating_sub(p.out).max(delivered);
            let bonus = if una_advanced && !newly_lost { mss } else { 0 };
            (limit + bonus).min(ssthresh - pipe)
        };
        if p.out == 0 {
            sndcnt = sndcnt.max(mss); // the fast retransmit goes out at once
        }
        self.win.cwnd = (pipe + sndcnt).min(u64::from(u32::MAX / 2)) as u32;
    }

    /// Recovery or CWR ended on this ACK: with PRR cwnd is now ssthresh
    /// (RFC 6937; Linux `tcp_end_cwnd_reduction`), as it already is in RFC
    /// 6675 and RFC 5681 recovery.
    pub(crate) fn leave_recovery(&mut self, now: Instant) {
        if self.inflating() && self.inflated_cwnd > self.win.cwnd && self.cc.recovery_rules().exit_with_flight {
            // `RecoveryRules::exit_with_flight`: no burst of what the
            // inflation let out.
            let cwnd = self.win.ssthresh.min(self.flight_size().saturating_add(self.send_mss));
            self.cwnd_event(now, CwndEvent::SetCwnd { cwnd });
        }
        self.phase = Phase::Open;
        if self.is_ns2_sack1() {
            self.sack1_leave_recovery();
        }
        if self.cfg.prr && !self.cc.owns_window() {
            self.win.cwnd = self.win.ssthresh;
        }
        if self.rack_on() {
            self.rack.recovery_ended();
        }
        if self.cfg.ns2_full_tcp && !self.sack_ok {
            // ns-2's FullTcp's pack_action: the inflated cwnd_, at most ssthresh_.
            let cwnd = self.inflated_cwnd.min(self.win.ssthresh);
            self.cwnd_event(now, CwndEvent::SetCwnd { cwnd });
        }
        self.cwnd_event(now, CwndEvent::RecoveryEnd);
    }

    // --- tail loss probes (RFC 8985 §7) ---

    /// Arms the probe timeout when nothing signals loss yet: RACK on, the
    /// Open state, data in flight (Linux `tcp_schedule_loss_probe`).
    pub(crate) fn arm_loss_probe(&mut self, now: Instant) {
        let open = self.phase == Phase::Open && self.dupacks == 0 && self.flight.sacked_bytes() == 0;
        let Some(rto_at) = self.rto_deadline.filter(|_| self.rack_on() && open && self.snd_max > self.snd_una) else {
            self.rack.pto = None;
            return;
        };
        let one_segment = self.snd_max - self.snd_una <= u64::from(self.send_mss);
        self.rack.arm_pto(now, self.rtt.srtt(), one_segment, rto_at);
    }

    /// The probe timeout expired: a probe goes out on the next poll unless
    /// one is outstanding, and the RTO counts from it.
    pub(crate) fn on_pto(&mut self, now: Instant) {
        self.rack.pto = None;
        if self.rack.tlp_end.is_none() {
            self.tlp_due = true;
            self.restart_rto(now);
        }
    }

    /// RFC 8985 §7.3: one new segment if the windows of the peer allows,
    /// else the last segment sent again.
    pub(crate) fn loss_probe_segment(&mut self, now: Instant, seg: &mut TcpRepr) -> bool {
        let nxt = self.snd_nxt;
        let rwnd_room = !self.cfg.flow_control || nxt < self.snd_una + self.snd_wnd;
        let (at, len, retransmission) = if nxt < self.data_end && rwnd_room {
            (nxt, (self.data_end - nxt).min(u64::from(self.send_mss)), false)
        } else {
            let Some(last) = self.flight.last_unsacked() else { return false };
            (last, self.segment_len_at(last), true)
        };
        self.stats.loss_probes += 1;
        self.emit(now, at, len, seg);
        self.rack.tlp_end = Some(self.snd_nxt);
        self.rack.tlp_retransmitted = retransmission;
        true
    }

    /// RFC 8985 §7.4: a retransmitted probe whose ACK shows it repaired a
    /// loss calls for a window reduction (Linux `tcp_process_tlp_ack`).
    pub(crate) fn tlp_after_ack(&mut self, now: Instant, ack: u64, dsack: bool, dupack_without_sack: bool) {
        if self.rack.tlp_acked(ack, dsack, dupack_without_sack) && !self.cc.owns_window() {
            self.forget_undo();
            let c = self.conn(now);
            self.win.ssthresh = self.cc.ssthresh(&self.win, &c);
            self.win.cwnd = self.win.ssthresh;
            self.cwnd_event(now, CwndEvent::CwrStart);
        }
    }
}
