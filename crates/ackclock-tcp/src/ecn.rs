//! ECN (RFC 3168): negotiation in the handshake, ECT(0) on new data, the
//! receiver's echo of CE and the sender's window reduction, once per window.
//!
//! The receiver echoes CE the classic way (ECE on every ACK until a segment
//! with CWR arrives, §6.1.3) or, with `ecn_per_packet_echo`, per packet as
//! DCTCP needs (RFC 8257 §3.2): ECE says whether the latest data was
//! CE-marked, and when that changes while an ACK is delayed, the data before
//! the change is acknowledged at once with the old state.

use crate::cc::{CongestionOps, Conn, CwndEvent};
use crate::endpoint::{Endpoint, Phase};
use ackclock_core::Instant;
use ackclock_wire::{Ecn, TcpFlags, TcpRepr};

/// The receiver's ECN state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct EcnReceiver {
    /// The CE state ACKs echo (classic: set by CE, cleared by CWR).
    pub echo: bool,
    /// `ns2_ecn`: the sink's `ecn_unacked_` as the last ACK left it and
    /// as the segments since make it, and the marks of the segments the
    /// next ACK answers (a DelAck sink's held segment and the newest).
    pub unacked_before: bool,
    pub unacked: bool,
    pub marks: Ns2Marks,
}

/// What ns-2's sink reads in a data packet's flags for its ACK.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ns2Marks {
    cwr: bool,
    ce: bool,
    ect: bool,
    /// ECN-Echo on a packet that is not ECN-capable: packet 0 asking for ECN.
    asks: bool,
}

/// ns-2's `last_cwnd_action_`, as far as its ECN reaction reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum LastCut {
    #[default]
    None,
    Ecn,
    Dupack,
    Timeout,
}

/// ns-2's `ecn_backoff_`: set by an ECN-Echo that finds the window at one
/// packet, it backs the timer off at the next such echo and keeps a new
/// ACK's RTT sample from ending the backoff; a new ACK without the echo
/// clears it. Kept without work on other ACKs: valid while every new ACK
/// since it was set carried the echo (a run of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct EcnBackoff {
    /// snd_una when it was set.
    set_at: Option<u64>,
    /// snd_una before the current run of new ACKs with the echo (since it
    /// was set), and the last of them.
    run_start: u64,
    run_end: u64,
    /// The last new ACK with the echo (`ecn_burst_`: it was the previous).
    echo_ack: u64,
    /// The timer's backoff to keep through this ACK's RTT sample.
    pub keep: Option<u32>,
}

impl EcnBackoff {
    fn on(&self, snd_una: u64) -> bool {
        self.set_at.is_some_and(|at| at >= self.run_start && self.run_end == snd_una)
    }
}

impl Endpoint {
    /// The ECN flags of our SYN or SYN-ACK: ECE and CWR offer ECN, ECE alone
    /// accepts it (RFC 3168 §6.1.1).
    pub(crate) fn syn_ecn_flags(&self, flags: &mut TcpFlags) {
        let answering = self.rcv_nxt > 0;
        flags.ece = if answering { self.ecn_ok } else { self.cfg.ecn };
        // ns-2's SYN, its packet 0, asks with ECN-Echo alone.
        flags.cwr = !answering && self.cfg.ecn && !self.cfg.ns2_ecn;
    }

    /// Records whether the peer's SYN offered, or its SYN-ACK accepted, ECN.
    /// ns-2's agents use it whenever they are configured to.
    pub(crate) fn negotiate_ecn(&mut self, syn: &TcpRepr) {
        let f = syn.flags;
        let offered_or_accepted = if f.ack { f.ece && !f.cwr } else { f.ece && f.cwr };
        self.ecn_ok = self.cfg.ecn && (offered_or_accepted || self.cfg.ns2_ecn);
    }

    /// Receiver: a data segment that starts at the next expected offset
    /// arrived with this ECN codepoint (before its data is taken).
    pub(crate) fn on_data_ecn(&mut self, now: Instant, seg: &TcpRepr, ecn: Ecn) {
        if !self.ecn_ok {
            return;
        }
        if self.cfg.ns2_ecn {
            self.ns2_data_ecn(seg, ecn);
            return;
        }
        let ce = ecn == Ecn::Ce;
        let was = self.ecn_rx.echo;
        if self.cfg.ecn_per_packet_echo {
            if ce != was && self.unacked_bytes > 0 {
                // The state ACK takes what came before; this segment starts
                // a new delayed ACK.
                self.lone_ack = Some((self.rcv_nxt, was));
                self.unacked_bytes = 0;
            }
            self.ecn_rx.echo = ce;
        } else {
            // §6.1.3: CWR ends the echo; CE (on this segment too) starts it,
            // and is acknowledged at once: the sender's cwnd may be small.
            if seg.flags.cwr {
                self.ecn_rx.echo = false;
            }
            if ce && !self.ecn_rx.echo {
                self.ecn_rx.echo = true;
                self.ack_now = true;
            }
        }
        if self.ecn_rx.echo != was {
            let event = if self.ecn_rx.echo { CwndEvent::EcnCe } else { CwndEvent::EcnNoCe };
            self.cwnd_event(now, event);
        }
    }

    /// ns-2's sink (`TcpSink::ack`): a CWR in the packets an ACK answers
    /// clears `ecn_unacked_`, then a CE sets it; the ACK echoes it if one
    /// of them is ECN-capable, and always answers packet 0's request. A
    /// DelAck sink answers the packet it held back and the newest together.
    fn ns2_data_ecn(&mut self, seg: &TcpRepr, ecn: Ecn) {
        let ect = ecn.is_capable();
        let this = Ns2Marks { cwr: seg.flags.cwr, ce: ect && ecn == Ecn::Ce, ect, asks: !ect && seg.flags.ece };
        let rx = &mut self.ecn_rx;
        if self.delack_deadline.is_some() {
            let held = rx.marks;
            rx.marks = Ns2Marks {
                cwr: held.cwr || this.cwr,
                ce: held.ce || this.ce,
                ect: held.ect || this.ect,
                asks: held.asks || this.asks,
            };
        } else {
            rx.unacked_before = rx.unacked;
            rx.marks = this;
        }
        let m = rx.marks;
        rx.unacked = (rx.unacked_before && !m.cwr) || m.ce;
        rx.echo = (m.ect && rx.unacked) || m.asks;
    }

    /// ns-2's `TcpAgent::ecn`, before the ACK is taken: an ECN-Echo that
    /// acknowledges beyond `recover_` (which starts at packet 0), or the
    /// first after a timeout, halves cwnd_ and ssthresh_ and sets
    /// `recover_`; the next packet says so with CWR.
    pub(crate) fn ns2_ecn_echo(&mut self, now: Instant, ack: u64) {
        if !self.cfg.ns2_ecn || !self.ecn_ok {
            return;
        }
        let packet0_end = if self.cfg.handshake { 1 } else { 1 + u64::from(self.send_mss) };
        if ack > self.recover.max(packet0_end) || self.last_cut == LastCut::Timeout {
            self.ns2_ecn_cut(now);
        }
        let una = self.snd_una;
        if ack <= una {
            return;
        }
        // A new ACK (`recv_newack_helper`): the echo may hold the window.
        let b = &mut self.ecn_backoff;
        let burst = std::mem::replace(&mut b.echo_ack, ack) == una;
        if b.run_end != una {
            b.run_start = una;
        }
        b.run_end = ack;
        // newack: the sample of a timed packet ends no backoff now.
        if b.on(ack) && self.phase != Phase::FastRecovery {
            b.keep = Some(self.rtt.backoff_count());
        }
        self.cwnd_event(now, CwndEvent::Ns2Echo { burst });
    }

    /// ns-2 takes the ACK of its packet 0 (here our SYN's) as any other:
    /// the ECN-Echo that packet 0 asked for sets `ect_` (later echoes hold
    /// the window) and, after a timeout, cuts ssthresh_ (`ecn()`); cwnd_
    /// then starts at the initial window whatever the cut left
    /// (`delay_growth_`).
    pub(crate) fn ns2_packet0_echo(&mut self, now: Instant) {
        if !self.cfg.ns2_ecn {
            return;
        }
        let initial = self.win.cwnd;
        self.ns2_ecn_echo(now, 1);
        self.ns2_echo_done(now);
        self.cwnd_event(now, CwndEvent::SetCwnd { cwnd: initial });
    }

    /// `ecn()`'s response: at one packet a second echo backs the timer
    /// off; cwnd_ and ssthresh_ halve; the next packet carries CWR.
    fn ns2_ecn_cut(&mut self, now: Instant) {
        let una = self.snd_una;
        if self.win.cwnd > self.send_mss {
            self.ecn_backoff.set_at = None;
        } else if self.ecn_backoff.on(una) {
            self.rtt.back_off();
        } else {
            let b = &mut self.ecn_backoff;
            (b.set_at, b.run_start, b.run_end) = (Some(una), una, una);
        }
        self.recover = self.snd_max;
        self.last_cut = LastCut::Ecn;
        self.stats.ecn_reductions += 1;
        let mss = self.send_mss;
        let inflation = if self.inflating() { self.inflated_cwnd.saturating_sub(self.win.cwnd) / mss } else { 0 };
        let c = self.conn(now);
        self.win.ssthresh = self.cc.ssthresh(&self.win, &c);
        if !self.cc.owns_window() {
            self.win.cwnd = self.win.ssthresh;
        }
        self.cwnd_event(now, CwndEvent::Ns2EcnCut { inflation });
        if inflation > 0 {
            self.inflated_cwnd = self.win.cwnd + inflation * mss;
        }
        self.send_cwr = true;
    }

    /// After the ACK: the window opens again on the next, and the backoff
    /// its RTT sample would have ended stays.
    fn ns2_echo_done(&mut self, now: Instant) {
        self.cwnd_event(now, CwndEvent::Ns2EchoDone);
        if let Some(n) = self.ecn_backoff.keep.take() {
            self.rtt.restore_backoff(n);
            if self.rto_deadline.is_some() {
                self.restart_rto(now);
            }
        }
    }

    /// The ECN marks of a data segment once ECN is agreed: RFC 3168's
    /// ECT(0) on new data and CWR on the first new segment after a
    /// reduction; or ns-2's: ECT on all but packet 0 (the SYN or, without
    /// one, the first data packet), which asks with ECN-Echo, and CWR on
    /// the first after a window cut, resent or not.
    pub(crate) fn ecn_marks(&mut self, offset: u64, new_data: bool, seg: &mut TcpRepr) {
        if self.cfg.ns2_ecn {
            let packet0 = !self.cfg.handshake && offset == 1;
            self.ect_out = !packet0;
            seg.flags.ece |= packet0;
            seg.flags.cwr = std::mem::take(&mut self.send_cwr);
        } else {
            self.ect_out = new_data;
            seg.flags.cwr = new_data && std::mem::take(&mut self.send_cwr);
        }
    }

    /// Whether ns-2's window is below one packet (an ECN cut from one
    /// packet), when it cannot send.
    pub(crate) fn below_one_packet(&self) -> bool {
        self.cfg.ns2_ecn && self.win.cwnd < self.send_mss
    }

    /// ns-2's timeout with nothing outstanding and the window below one
    /// packet: one packet again (`slowdown(CLOSE_CWND_ONE)`, ssthresh_
    /// kept, no backoff), and CWR on the next.
    pub(crate) fn ns2_idle_timeout(&mut self, now: Instant) {
        let mss = self.send_mss;
        self.cwnd_event(now, CwndEvent::SetCwnd { cwnd: mss });
        self.last_cut = LastCut::Timeout;
        self.send_cwr = true;
        self.restart_rto(now);
    }

    /// Whether ns-2's last window cut was for an ECN-Echo: the duplicate
    /// ACKs and the timeout that follow it within the window cut no further.
    pub(crate) fn after_ns2_ecn_cut(&self) -> bool {
        self.cfg.ns2_ecn && self.last_cut == LastCut::Ecn
    }

    /// Sender: an ACK carried ECE. RFC 3168 §6.1.2: reduce the window as for
    /// a loss, at most once per window of data, and say so with CWR on the
    /// next new segment. With PRR the window falls over a round trip (the
    /// CWR state, Linux `tcp_enter_cwr`).
    /// `prior_in_flight`: the flight when the echo was sent, before this ACK;
    /// the window it halves is at most cwnd (§6.1.2: "halves the congestion
    /// window"): after a timeout the flight still counts data sent long ago.
    pub(crate) fn on_ece(&mut self, now: Instant, prior_in_flight: u32) {
        let reduced = self.cwr_end.is_some_and(|end| self.snd_una <= end);
        if self.cfg.ns2_ecn {
            self.ns2_echo_done(now);
            return;
        }
        if !self.ecn_ok || self.phase != Phase::Open || reduced {
            return;
        }
        self.stats.ecn_reductions += 1;
        self.forget_undo();
        let prior_cwnd = self.win.cwnd;
        let c = Conn { bytes_in_flight: prior_in_flight.min(prior_cwnd), ..self.conn(now) };
        self.win.ssthresh = self.cc.ssthresh(&self.win, &c);
        if !self.cc.owns_window() && !self.cfg.prr {
            self.win.cwnd = self.win.ssthresh;
        }
        self.start_prr(prior_cwnd);
        self.cwr_end = Some(self.snd_max);
        self.send_cwr = true;
        self.cwnd_event(now, CwndEvent::CwrStart);
    }

    /// The CWR state ends once data sent after the reduction is acknowledged.
    pub(crate) fn maybe_end_cwr(&mut self, now: Instant) {
        if self.cwr_end.is_some_and(|end| self.snd_una > end) {
            self.cwr_end = None;
            if self.phase == Phase::Open {
                self.leave_recovery(now);
            }
        }
    }

    /// Whether the window is being reduced for an ECN echo.
    pub(crate) fn in_cwr(&self) -> bool {
        self.cwr_end.is_some()
    }
}
