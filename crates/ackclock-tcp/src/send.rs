//! The sending half: ACK processing, loss recovery, timers and output.

use crate::cc::{CaState, CongestionOps, Conn, CwndEvent, LossCheck, RateSample, RecoveryStyle};
use crate::ecn::LastCut;
use crate::endpoint::{Endpoint, Phase, State};
use crate::flight::Delivery;
use crate::ns2_sack1::Resend;
use crate::scoreboard::{self, NextSeg};
use ackclock_core::{Duration, Instant};
use ackclock_wire::TcpRepr;

impl Endpoint {
    /// RFC 5681's FlightSize: bytes sent and not cumulatively acknowledged.
    pub(crate) fn flight_size(&self) -> u32 {
        (self.snd_max - self.snd_una).min(u64::from(u32::MAX)) as u32
    }

    /// Whether RFC 5681 §3.2's inflated window is in force.
    pub(crate) fn inflating(&self) -> bool {
        self.phase == Phase::FastRecovery && !self.sack_ok
    }

    fn ca_state(&self) -> CaState {
        match self.phase {
            Phase::FastRecovery => CaState::Recovery,
            Phase::Loss => CaState::Loss,
            Phase::Open if self.in_cwr() => CaState::Cwr,
            Phase::Open if self.dupacks > 0 || self.flight.sacked_bytes() > 0 => CaState::Disorder,
            Phase::Open => CaState::Open,
        }
    }

    /// Linux `tcp_is_cwnd_limited`: the window limited sending in this
    /// round, or, in slow start, cwnd is under twice the largest flight.
    fn is_cwnd_limited(&self) -> bool {
        self.cwnd_limited || (self.win.cwnd < self.win.ssthresh && u64::from(self.win.cwnd) < 2 * self.max_flight)
    }

    /// What the congestion-control hooks see at `now`.
    pub(crate) fn conn(&self, now: Instant) -> Conn {
        Conn {
            now,
            mss: self.send_mss,
            bytes_in_flight: self.flight_size(),
            sacked: self.flight.sacked_bytes().min(u64::from(u32::MAX)) as u32,
            srtt: self.rtt.srtt(),
            min_rtt: self.flight.min_rtt(),
            state: self.ca_state(),
            cwnd_limited: self.is_cwnd_limited(),
            delivered: self.flight.delivered(),
        }
    }

    pub(crate) fn cwnd_event(&mut self, now: Instant, event: CwndEvent) {
        let c = self.conn(now);
        self.cc.cwnd_event(&mut self.win, &c, event);
    }

    pub(crate) fn take_rtt_sample(&mut self, now: Instant, rtt: Duration) {
        self.rtt.sample(Instant::from_ps(now.as_ps().saturating_sub(rtt.as_ps())), rtt);
        self.stats.record_rtt(rtt);
        self.flight.note_rtt(rtt);
    }

    /// RFC 9293 §3.10.7.4: take the peer's window from the newest segment.
    pub(crate) fn update_window(&mut self, seg: &TcpRepr, seq: u64, ack: u64) {
        if self.snd_wl1 < seq || (self.snd_wl1 == seq && self.snd_wl2 <= ack) {
            // RFC 7323 §2.2: windows in SYN segments are not scaled.
            let shift = if seg.flags.syn { 0 } else { self.snd_wscale };
            self.snd_wnd = u64::from(seg.window) << shift;
            self.snd_wl1 = seq;
            self.snd_wl2 = ack;
            self.max_snd_wnd = self.max_snd_wnd.max(self.snd_wnd);
        }
    }

    /// Processes the ACK field of an acceptable segment.
    pub(crate) fn process_ack(&mut self, now: Instant, seg: &TcpRepr, seq: u64, ack: u64) {
        let old_wnd = self.snd_wnd;
        self.limited_transmit_due = false;
        self.update_window(seg, seq, ack);
        if self.snd_wnd >= u64::from(self.send_mss) {
            self.persist_deadline = None;
            self.persist_backoff = 0;
        }
        let mut rs = RateSample { prior_in_flight: self.flight_size(), ece: seg.flags.ece, ..RateSample::default() };
        let mut delivery = self.flight.delivery();
        delivery.echo_end = self.echo_end(seg);
        let dsack = self.sack_ok && self.process_sack_blocks(now, seg, ack, &mut delivery);
        let sacked = delivery.bytes() > 0;
        if dsack && self.undo.armed() {
            self.undo_if_all_dsacked(now);
        }
        if self.is_ns2_sack1() {
            self.sack1_scoreboard(seg, ack);
        }
        if seg.flags.ece {
            self.ns2_ecn_echo(now, ack);
        }
        if ack > self.snd_una {
            rs.acked = (ack - self.snd_una).min(u64::from(u32::MAX)) as u32;
            self.flight.on_ack(now, ack, seg.flags.ece, &mut delivery);
            self.flight.sample(now, &delivery, &mut rs);
            if self.undo.armed() && self.phase != Phase::Open {
                self.detect_spurious(now, seg, ack, &delivery, sacked);
            }
            self.rack_after_ack(now, &delivery, dsack);
            self.tlp_after_ack(now, ack, dsack, false);
            self.on_new_ack(now, seg, ack, &rs);
            if seg.flags.ece {
                self.on_ece(now, rs.prior_in_flight);
            }
        } else if ack == self.snd_una
            && seg.payload_len == 0
            && !seg.flags.fin
            && self.snd_wnd == old_wnd
            && (self.snd_max > self.snd_una || self.cc.recovery_rules().ns2_dupacks)
        {
            // RFC 5681 §2: a duplicate ACK (see RecoveryRules::ns2_dupacks).
            self.stats.dupacks_received += 1;
            self.flight.sample(now, &delivery, &mut rs);
            if self.undo.armed() && self.phase != Phase::Open {
                self.detect_spurious(now, seg, ack, &delivery, sacked);
            }
            self.rack_after_ack(now, &delivery, dsack);
            self.tlp_after_ack(now, ack, dsack, seg.options.sack.is_empty());
            self.on_dupack(now, &rs);
            if seg.flags.ece {
                self.on_ece(now, rs.prior_in_flight);
            }
        } else if ack < self.snd_una && self.cfg.ns2_full_tcp {
            self.dupacks = 0; // ns-2's FullTcp's `oldack`
        }
    }

    /// Feeds SACK blocks to the send records and returns whether the first
    /// is a D-SACK: below the ACK or inside the second (RFC 2883 §4).
    fn process_sack_blocks(&mut self, now: Instant, seg: &TcpRepr, ack: u64, delivery: &mut Delivery) -> bool {
        let wire = seg.options.sack.as_slice();
        let mut blocks = [(0, 0); 4];
        for (b, &(l, r)) in blocks.iter_mut().zip(wire) {
            *b = (self.snd_offset(l), self.snd_offset(r));
        }
        let blocks = &blocks[..wire.len()];
        let dsack = blocks.first().is_some_and(|&(start, end)| {
            let inside_second = blocks.get(1).is_some_and(|&(s, e)| s <= start && end <= e);
            end <= ack || inside_second
        });
        if dsack {
            self.stats.dsacks += 1;
            if blocks[0].0 < self.scoreboard.high_rxt {
                self.stats.spurious_retransmits += 1;
                self.undo_note_dsack(blocks[0].0, blocks[0].1);
            }
        }
        let una = ack.max(self.snd_una);
        for &(start, end) in blocks {
            self.flight.on_sack(now, start.max(una), end.min(self.snd_max), seg.flags.ece, delivery);
        }
        if !self.rack_on() {
            scoreboard::mark_lost(&mut self.flight, self.cfg.dupack_threshold, self.send_mss);
        }
        dsack
    }

    fn on_new_ack(&mut self, now: Instant, seg: &TcpRepr, ack: u64, rs: &RateSample) {
        let acked = ack - self.snd_una;
        self.snd_una = ack;
        self.snd_nxt = self.snd_nxt.max(ack);
        self.snd_max = self.snd_max.max(ack); // a window probe's byte was taken
        self.dupacks = 0;
        self.rto_count = 0;
        // ns-2's FullTcp (and a one-way agent with timerfix_ false) restarts
        // its timer before it takes the sample; in FullTcp any new ACK ends
        // the backoff (its newack).
        let rto_before_sample = self.cfg.restart_rto_before_sample.then(|| self.rtt.rto());
        if rto_before_sample.is_some() && self.cfg.ns2_full_tcp {
            self.rtt.clear_backoff();
        }
        // ns-2's Sack1 takes a partial ACK in recovery without its newack:
        // no RTT sample (the timed packet stays timed), and its own recovery.
        let sack1_partial =
            self.phase == Phase::FastRecovery && ack < self.recover && self.sack_ok && self.is_ns2_sack1();
        let rtt = match self.rtt_probe {
            _ if sack1_partial => None,
            _ if self.ts_ok => self.timestamp_rtt(now, seg),
            Some((end, sent)) if ack >= end => {
                self.rtt_probe = None;
                Some(now - sent)
            }
            _ => None,
        };
        if let Some(r) = rtt {
            self.take_rtt_sample(now, r);
        }
        let mut c = self.conn(now);
        self.cc.pkts_acked(&c, rs);
        let owns_window = self.cc.owns_window();
        if owns_window {
            self.cc.cong_control(&mut self.win, &c, rs);
        }
        if self.rack_on() {
            self.maybe_enter_recovery(now);
        }
        match self.phase {
            Phase::FastRecovery if sack1_partial => {
                self.sack1_ack_in_recovery(now, true);
                return;
            }
            Phase::FastRecovery if ack < self.recover && self.sack_ok => {
                // RFC 6675: stay in recovery; the scoreboard paces sending.
                self.prr_update(u64::from(rs.acked_sacked), true, rs.losses > 0);
                self.restart_rto(now);
                return;
            }
            Phase::FastRecovery if ack < self.recover && self.cc.recovery_rules().style == RecoveryStyle::NewReno => {
                // RFC 6582 §3.2 (5): a partial ACK retransmits the next hole,
                // deflates cwnd by what it acknowledged and adds back one MSS.
                self.retransmit_at = Some(ack);
                if self.cc.recovery_rules().partial_deflation {
                    let back = if acked >= u64::from(self.send_mss) { self.send_mss } else { 0 };
                    let excess = rs.acked.saturating_sub(self.inflated_cwnd.saturating_sub(self.win.cwnd));
                    let deflated = self.inflated_cwnd.saturating_sub(rs.acked).saturating_add(back);
                    self.inflated_cwnd = deflated.max(self.send_mss);
                    self.cwnd_event(now, CwndEvent::PartialAck { excess });
                } else {
                    self.inflated_cwnd = self.win.cwnd;
                }
                if !std::mem::replace(&mut self.partial_acked, true) || !self.cc.recovery_rules().impatient {
                    self.restart_rto(now);
                }
                return;
            }
            Phase::FastRecovery => {
                // Full ACK (or any new ACK in Reno): the inflation ends and
                // cwnd is what recovery set (RFC 5681 §3.2 (6)).
                self.leave_recovery(now);
            }
            Phase::Loss | Phase::Open => {
                if self.phase == Phase::Loss && ack >= self.recover {
                    self.phase = Phase::Open;
                }
                if self.in_cwr() && self.cfg.prr {
                    self.prr_update(u64::from(rs.acked_sacked), true, rs.losses > 0);
                } else if !owns_window && (self.state == State::Established || !self.cfg.ns2_full_tcp) {
                    // ns-2's FullTcp opens cwnd_ only while established.
                    c.state = self.ca_state();
                    self.cc.cong_avoid(&mut self.win, &c, rs);
                }
                self.maybe_end_cwr(now);
            }
        }
        if self.algorithm_loss_check(now, None) == LossCheck::Lost {
            // Another hole of the window: resent at once, and recovery goes
            // on from the window as it is (no new cut): duplicate ACKs for
            // it inflate rather than count towards a fast retransmit.
            self.retransmit_at = Some(self.snd_una);
            self.rtt_probe = None;
            self.phase = Phase::FastRecovery;
            self.recover = self.snd_max;
            self.inflated_cwnd = self.win.cwnd;
        }
        // RFC 6298 (5.2), (5.3); ns-2 keeps the timer for a window an ECN
        // cut left below one packet (newtimer).
        if self.snd_una >= self.snd_max && !self.below_one_packet() {
            self.rto_deadline = None;
        } else if let Some(rto) = rto_before_sample {
            self.rto_deadline = Some(now + rto);
        } else {
            self.restart_rto(now);
        }
        self.arm_loss_probe(now);
    }

    /// The algorithm's own verdict on the first unacknowledged segment, if
    /// it detects losses itself (`dupacks`: the count on a duplicate ACK).
    fn algorithm_loss_check(&mut self, now: Instant, dupacks: Option<u32>) -> LossCheck {
        if !self.cc_detects_loss {
            return LossCheck::Endpoint;
        }
        let Some(oldest) = self.flight.oldest() else { return LossCheck::Endpoint };
        let c = self.conn(now);
        self.cc.check_loss(&c, dupacks, oldest)
    }

    fn on_dupack(&mut self, now: Instant, rs: &RateSample) {
        let c = self.conn(now);
        if rs.acked_sacked > 0 {
            self.cc.pkts_acked(&c, rs);
        }
        if self.cc.owns_window() {
            self.cc.cong_control(&mut self.win, &c, rs);
        }
        if self.phase == Phase::FastRecovery {
            if self.sack_ok && self.is_ns2_sack1() {
                self.sack1_ack_in_recovery(now, false);
            } else if self.sack_ok {
                self.prr_update(u64::from(rs.acked_sacked), false, rs.losses > 0);
            } else {
                // RFC 5681 §3.2 (4): each further dupack means a segment left.
                self.inflated_cwnd = self.inflated_cwnd.saturating_add(self.send_mss);
            }
            return;
        }
        if self.is_ns2_sack1() && !self.sack1.news {
            return;
        }
        self.dupacks += 1;
        if self.dupacks == self.cfg.dupack_threshold && self.quiescence.is_some() {
            self.quiescence_dupacks();
        }
        // RFC 3042: each of the first two duplicate ACKs lets one new segment out.
        self.limited_transmit_due = self.cfg.limited_transmit && self.dupacks < self.cfg.dupack_threshold;
        if self.in_cwr() {
            self.prr_update(u64::from(rs.acked_sacked), false, rs.losses > 0);
        }
        if self.snd_max == self.snd_una {
            // Counted as ns-2 counts (RecoveryRules::ns2_dupacks), but with
            // nothing outstanding there is nothing to recover: a recovery
            // would hold back the FIN of a side that never sent data.
            return;
        }
        if self.rack_on() {
            self.maybe_enter_recovery(now);
            if self.phase == Phase::FastRecovery {
                self.prr_update(u64::from(rs.acked_sacked), false, rs.losses > 0);
            }
            return;
        }
        let rules = self.cc.recovery_rules();
        let sack_recovery = self.sack_ok && rules.style != RecoveryStyle::Tahoe;
        // RFC 6675 §5: enter recovery on DupThresh dupacks, or as soon as
        // the scoreboard deems the first unacknowledged segment lost.
        let lost = sack_recovery && !rules.ns2_sack1 && self.flight.len() > 0 && self.flight.get(0).lost;
        match self.algorithm_loss_check(now, Some(self.dupacks)) {
            LossCheck::NotYet => return,
            LossCheck::Lost => {}
            LossCheck::Endpoint => {
                if self.dupacks != self.cfg.dupack_threshold && !lost {
                    return;
                }
                // RFC 6582 §3.2 (2), RFC 6675 §5 (RecoveryPoint): no second
                // fast retransmit for the same window.
                // ns-2's FullTcp: only after a timeout (its dupack_action
                // retransmits whenever its last window cut was one).
                let guarded = (rules.guard_recover || sack_recovery) && (self.recover_by_rto || !self.cfg.ns2_full_tcp);
                let recovering = self.snd_una <= self.recover && self.recover > 0;
                if recovering && self.after_ns2_ecn_cut() {
                    // ns-2's dupack_action: the ECN cut stands; Tahoe goes
                    // back to one packet, the others fast-retransmit.
                    self.enter_recovery(now, false);
                    return;
                }
                if guarded && (recovering || self.snd_una <= self.first_packet_end) {
                    if self.cfg.ns2_full_tcp && !sack_recovery {
                        // ns-2's FullTcp enters fast recovery all the same,
                        // without a retransmission or a cut: later duplicate
                        // ACKs inflate the window (dupack_action, extra_ack).
                        self.phase = Phase::FastRecovery;
                        self.inflated_cwnd = self.win.cwnd;
                    }
                    return;
                }
            }
        }
        self.enter_recovery(now, true);
    }

    pub(crate) fn restart_rto(&mut self, now: Instant) {
        self.rto_deadline = Some(now + self.rtt.rto());
    }

    /// RFC 6298 §5 (5.4)-(5.7) with RFC 5681 §3.1's loss window.
    pub(crate) fn on_retransmission_timeout(&mut self, now: Instant) {
        if self.snd_una >= self.snd_max {
            if self.below_one_packet() {
                self.ns2_idle_timeout(now);
            }
            return;
        }
        self.rto_count += 1;
        let limit = if self.snd_una == 0 { self.cfg.syn_retries } else { self.cfg.max_retransmits };
        if self.rto_count > limit {
            self.reset = true;
            self.enter_closed();
            return;
        }
        self.stats.timeouts += 1;
        self.rtt.back_off();
        self.rtt_probe = None;
        self.retransmit_at = None;
        if !self.cc.recovery_rules().dupacks_survive_rto {
            self.dupacks = 0;
        }
        if self.snd_una > 0 {
            let was_open = self.phase == Phase::Open;
            let episode_over = was_open || self.snd_una >= self.recover;
            if episode_over {
                self.begin_undo_episode();
            }
            if self.cfg.ns2_full_tcp && self.phase == Phase::FastRecovery && !self.sack_ok {
                self.cwnd_event(now, CwndEvent::SetCwnd { cwnd: self.inflated_cwnd });
            }
            // ns-2: a timeout soon after an ECN cut keeps ssthresh_.
            let after_ecn = self.after_ns2_ecn_cut();
            self.stats.timeouts_after_ecn += u64::from(after_ecn);
            if (episode_over || self.cc.recovery_rules().ssthresh_on_every_rto) && !after_ecn {
                let c = self.conn(now);
                self.win.ssthresh = self.cc.ssthresh(&self.win, &c);
            }
            self.win.cwnd = self.send_mss;
            self.recover = self.snd_max;
            self.recover_by_rto = true;
            self.phase = Phase::Loss;
            self.undo_on_timeout(was_open);
            self.cwnd_event(now, CwndEvent::Rto);
        } else if self.cc.recovery_rules().ssthresh_on_every_rto {
            // ns-2's slowdown answers a lost SYN (its packet 0) like any
            // timeout: ssthresh_ from the window of one packet, so 2.
            let c = self.conn(now);
            self.win.ssthresh = self.cc.ssthresh(&self.win, &c);
        }
        // With ns-2's ECN the next packet, data or the SYN, says the window
        // was cut.
        self.last_cut = LastCut::Timeout;
        self.send_cwr |= self.cfg.ns2_ecn;
        if self.is_ns2_sack1() {
            self.sack1_on_timeout();
        }
        self.rack.pto = None;
        self.rack.tlp_end = None;
        self.tlp_due = false;
        self.snd_nxt = self.snd_una; // go back N
                                     // RFC 6675 §5.1: keep what was SACKed; all else is lost and resent.
        self.flight.all_lost();
        self.scoreboard.restart(self.snd_una);
        self.restart_rto(now);
    }

    /// How far past snd_una we may send: min(cwnd, peer window, cap), plus
    /// RFC 3042's allowance of one segment per early duplicate ACK, for the
    /// one segment that duplicate ACK lets out. While F-RTO sends new data
    /// after a timeout, cwnd counts from where that data starts: what was
    /// sent before is deemed lost (Linux counts it out of the pipe).
    pub(crate) fn send_limit(&self) -> u64 {
        let mut cwnd = u64::from(self.cwnd());
        let allowed = match self.phase {
            Phase::Open => true,
            Phase::Loss => self.cc.recovery_rules().limited_transmit_after_rto,
            Phase::FastRecovery => false,
        };
        if self.limited_transmit_due && allowed {
            cwnd += u64::from(self.dupacks * self.send_mss);
        }
        let base = match self.undo.frto_base() {
            Some(start) if self.phase == Phase::Loss => start,
            _ => self.snd_una,
        };
        let mut limit = base + cwnd;
        if self.cfg.flow_control {
            limit = limit.min(self.snd_una + self.snd_wnd);
        }
        if let Some(cap) = self.cfg.max_window {
            limit = limit.min(self.snd_una + u64::from(cap));
        }
        limit
    }

    fn can_send_data(&self) -> bool {
        matches!(self.state, State::Established | State::CloseWait | State::FinWait1 | State::Closing | State::LastAck)
    }

    /// The next data or FIN segment the windows allow, if any.
    pub(crate) fn data_segment(&mut self, now: Instant, seg: &mut TcpRepr) -> bool {
        if !self.can_send_data() {
            return false;
        }
        if self.win.pacing_rate.is_some() && self.pacing_deadline > now {
            self.paced_wait = true;
            return false;
        }
        if std::mem::take(&mut self.tlp_due) && self.loss_probe_segment(now, seg) {
            return true;
        }
        if let Some(at) = self.retransmit_at.take() {
            let len = self.segment_len_at(at);
            self.emit(now, at, len, seg);
            return true;
        }
        if self.phase == Phase::FastRecovery && self.sack_ok {
            if self.is_ns2_sack1() {
                return self.sack1_recovery_segment(now, seg);
            }
            return self.sack_recovery_segment(now, seg);
        }
        if self.is_ns2_sack1() {
            match self.sack1_resend(now, seg) {
                Resend::Sent => return true,
                Resend::Hold => return false,
                Resend::NewData => {}
            }
        } else if self.sack_ok && self.snd_nxt < self.snd_max {
            // Going back after a timeout: skip what the peer already holds.
            self.snd_nxt = self.flight.next_unsacked(self.snd_nxt).min(self.snd_max);
        }
        let end = self.data_end;
        let nxt = self.snd_nxt;
        if nxt >= end {
            if self.close_requested && nxt == end {
                self.emit(now, nxt, 0, seg); // the FIN
                return true;
            }
            if end > 1 {
                self.out_of_data();
            }
            return false;
        }
        let room = self.send_limit().saturating_sub(nxt);
        let len = (end - nxt).min(u64::from(self.send_mss)).min(room);
        // Sender SWS avoidance holds back new data only: going back after a
        // timeout resends what the peer's window allows.
        let resend_into_small_window = nxt < self.snd_max && self.cfg.flow_control && len < u64::from(self.send_mss);
        if len == 0 || (!resend_into_small_window && !self.sws_allows(len, nxt + len == end)) {
            self.arm_persist(now);
            self.end_burst();
            return false;
        }
        let limited = std::mem::take(&mut self.limited_transmit_due);
        if !self.data_allowed(now, nxt + len, limited) {
            return false;
        }
        self.emit(now, nxt, len, seg);
        true
    }

    /// `overhead_allows` for data ending at `end` (`limited`: ns-2's
    /// `send_one` packet, which the gates let through), then `QOption_`'s
    /// bookkeeping. One inlined test when none is set.
    #[inline(always)]
    fn data_allowed(&mut self, now: Instant, end: u64, limited: bool) -> bool {
        !self.send_gated || self.data_gates_allow(now, end, limited)
    }

    #[cold]
    #[inline(never)]
    fn data_gates_allow(&mut self, now: Instant, end: u64, limited: bool) -> bool {
        if !limited && !self.gates_allow() {
            return false;
        }
        self.quiescence_after_send(now, end);
        true
    }

    /// Everything written is sent: if the window had room, the application
    /// limits the flow (delivery-rate samples note it).
    fn out_of_data(&mut self) {
        let flight = self.snd_max - self.snd_una;
        if flight < u64::from(self.cwnd()) && self.snd_nxt == self.snd_max {
            self.flight.note_app_limited(flight);
        }
        self.end_burst();
    }

    /// Linux `tcp_cwnd_validate` at the end of a burst: remembers whether
    /// the window limited sending in this round, else the largest flight.
    fn end_burst(&mut self) {
        let flight = self.snd_max - self.snd_una;
        // Linux counts whole packets; in bytes the window limits sending
        // when it has no room for another full segment.
        let cwnd = u64::from(self.cwnd()).saturating_sub(u64::from(self.send_mss) - 1);
        let limited = flight >= cwnd && self.flight.pipe(flight) >= cwnd;
        if !std::mem::take(&mut self.burst_sent) && !limited {
            return;
        }
        let round_over = self.snd_una >= self.cwnd_round_end;
        if round_over || limited || (!self.cwnd_limited && flight > self.max_flight) {
            self.cwnd_limited = limited;
            self.max_flight = flight;
            self.cwnd_round_end = self.snd_nxt;
        }
    }

    /// The gates of ns-2's `send_much`, for a segment about to go out:
    /// `overhead_`, then `maxburst_`. One inlined test when neither is set.
    #[inline(always)]
    pub(crate) fn overhead_allows(&mut self) -> bool {
        !self.send_gated || self.gates_allow()
    }

    #[cold]
    #[inline(never)]
    fn gates_allow(&mut self) -> bool {
        self.delay_allows() && self.burst_allows()
    }

    /// ns-2's `overhead_`: sending waits for a random delay, asked of the
    /// host when data first becomes sendable, and then sends what the window
    /// allows.
    pub(crate) fn delay_allows(&mut self) -> bool {
        if self.cfg.send_overhead == Duration::ZERO || self.overhead_released {
            return true;
        }
        self.send_delay_wanted |= self.overhead_deadline.is_none();
        false
    }

    /// ns-2's `maxburst_`: counts the segment unless this event sent its
    /// share.
    pub(crate) fn burst_allows(&mut self) -> bool {
        let event = self.stats.segments_received + self.wakes;
        if event != self.burst_event {
            self.burst_event = event;
            self.burst = 0;
        }
        match self.cfg.max_burst {
            Some(max) if self.burst >= max => false,
            Some(_) => {
                self.burst += 1;
                true
            }
            None => true,
        }
    }

    /// Length of a retransmission at `at`: up to one MSS, stopping at the
    /// end of the data and at the next SACKed block.
    pub(crate) fn segment_len_at(&self, at: u64) -> u64 {
        let end = self.data_end.min(at + u64::from(self.send_mss));
        if self.sack_ok {
            self.flight.hole_end(at, end) - at
        } else {
            end.saturating_sub(at)
        }
    }

    /// RFC 6675 §5 (C): while cwnd - pipe >= 1 MSS, send what NextSeg says.
    fn sack_recovery_segment(&mut self, now: Instant, seg: &mut TcpRepr) -> bool {
        let mss = self.send_mss;
        let pipe = self.flight.pipe(self.snd_max - self.snd_una);
        if u64::from(self.cwnd()) < pipe + u64::from(mss) {
            return false;
        }
        let rwnd_room = !self.cfg.flow_control || self.snd_nxt < self.snd_una + self.snd_wnd;
        let new_data = self.snd_nxt < self.data_end && rwnd_room;
        let Some(next) = self.scoreboard.next_seg(&self.flight, new_data) else { return false };
        let at = match next {
            NextSeg::NewData => {
                let len = (self.data_end - self.snd_nxt).min(u64::from(mss));
                self.emit(now, self.snd_nxt, len, seg);
                return true;
            }
            NextSeg::Retransmit(at) => at,
            NextSeg::Rescue(at) => {
                self.scoreboard.rescue_rxt = Some(self.recover);
                at
            }
        };
        // At the end of the data this resends just the FIN.
        let len = self.segment_len_at(at);
        if len == 0 && at != self.data_end {
            return false;
        }
        self.emit(now, at, len, seg);
        true
    }

    /// RFC 1122 §4.2.3.4 sender SWS avoidance with Nagle's algorithm.
    fn sws_allows(&self, len: u64, empties_buffer: bool) -> bool {
        let idle = self.snd_nxt == self.snd_una;
        len >= u64::from(self.send_mss)
            || (empties_buffer && (!self.cfg.nagle || idle))
            || (self.max_snd_wnd > 0 && len >= self.max_snd_wnd / 2)
    }

    /// ns-2's FullTcp's `idle_restart`: the time since data last went out,
    /// in whole ticks of the RTT clock crossed, exceeds the RTO before backoff.
    fn idle_beyond_rto(&self, now: Instant) -> bool {
        let Some(last) = self.last_data_sent else { return false };
        let tick = self.cfg.clock_granularity.as_ps().max(1);
        let phase = self.cfg.clock_phase.map_or(0, Duration::as_ps);
        let idle = now.saturating_since(last).as_ps() + (last.as_ps() + phase) % tick;
        idle / tick * tick > self.rtt.base_rto().as_ps()
    }

    /// Writes into `seg` `len` data bytes from `offset`, with a FIN if they
    /// end the stream and the application closed.
    pub(crate) fn emit(&mut self, now: Instant, offset: u64, len: u64, seg: &mut TcpRepr) {
        self.header(now, offset, seg);
        seg.payload_len = len as u32;
        let end = self.data_end;
        seg.flags.psh = len > 0 && offset + len == end;
        seg.flags.fin = self.close_requested && offset + len == end;
        let seq_end = offset + len + u64::from(seg.flags.fin);
        let new_data = offset >= self.snd_max;
        if self.ecn_ok && len > 0 {
            self.ecn_marks(offset, new_data, seg);
        }
        if self.phase == Phase::FastRecovery || self.in_cwr() {
            self.prr.out += len; // PRR's prr_out, in recovery and in CWR alike
        }
        if offset < self.snd_max {
            self.stats.retransmits += 1;
            self.stats.retransmitted_bytes += len;
            self.scoreboard.high_rxt = self.scoreboard.high_rxt.max(seq_end);
            self.undo_note_retransmit(now, seq_end - offset);
        } else if self.rtt_probe.is_none() {
            self.rtt_probe = Some((seq_end, now));
        }
        if offset == self.snd_nxt {
            self.snd_nxt = seq_end;
        }
        if self.snd_max == self.snd_una {
            if self.cfg.ns2_full_tcp && len > 0 && self.idle_beyond_rto(now) {
                self.stats.idle_restarts += 1;
                self.cwnd_event(now, CwndEvent::IdleRestart);
            }
            self.cwnd_event(now, CwndEvent::TxStart);
        }
        if len > 0 {
            self.last_data_sent = Some(now);
        }
        self.flight.on_transmit(now, offset, seq_end);
        self.burst_sent = true;
        if let Some(rate) = self.win.pacing_rate {
            // The rate is of payload, as delivery rates are measured: Linux
            // spaces a segment by its payload (tcp_update_skb_after_send,
            // skb->len without headers).
            self.pacing_deadline = self.pacing_deadline.max(now) + rate.tx_time(seg.payload_len);
        }
        self.snd_max = self.snd_max.max(seq_end);
        if seg.flags.fin {
            self.state = match self.state {
                State::Established => State::FinWait1,
                State::CloseWait => State::LastAck,
                s => s,
            };
        }
        // RFC 6298 (5.1)
        if self.rto_deadline.is_none() {
            self.restart_rto(now);
        }
        if new_data {
            self.arm_loss_probe(now);
        }
    }

    /// RFC 9293 §3.8.6.1, RFC 1122 §4.2.2.17 and §4.2.3.4: with data
    /// waiting, nothing in flight and less than a segment of usable window
    /// (zero, or a small window SWS avoidance will not use), send on a
    /// backed-off timer (BSD: RTO x 2^k, clamped to [persist_min,
    /// persist_max]) so that a lost window update cannot stall the
    /// connection.
    fn arm_persist(&mut self, now: Instant) {
        let small_window = self.cfg.flow_control && self.snd_wnd < u64::from(self.send_mss);
        if !small_window || self.snd_una < self.snd_max || self.persist_deadline.is_some() {
            return;
        }
        let base = self.rtt.rto() * (1u64 << self.persist_backoff.min(30));
        let timeout = base.max(self.cfg.persist_min).min(self.cfg.persist_max);
        self.persist_deadline = Some(now + timeout);
    }

    /// When the persist timer expired: what a small window allows (Linux
    /// `tcp_write_wakeup`), or a one-byte probe beyond a closed window that
    /// does not advance snd_nxt.
    pub(crate) fn probe_segment(&mut self, now: Instant, seg: &mut TcpRepr) -> bool {
        if !std::mem::take(&mut self.probe_due) || self.snd_nxt >= self.data_end {
            return false;
        }
        let usable = (self.snd_una + self.snd_wnd).saturating_sub(self.snd_nxt);
        if usable > 0 {
            let len = usable.min(u64::from(self.send_mss)).min(self.data_end - self.snd_nxt);
            self.emit(now, self.snd_nxt, len, seg);
            return true;
        }
        self.header(now, self.snd_nxt, seg);
        seg.payload_len = 1;
        self.probe_high = self.snd_nxt + 1;
        self.arm_persist(now);
        true
    }
}
