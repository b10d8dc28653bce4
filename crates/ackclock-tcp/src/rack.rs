//! RACK-TLP (RFC 8985): time-based loss detection over the send records.
//!
//! RACK deems a segment lost when a segment sent after it was delivered and
//! a round trip plus a reordering window has passed since it was sent; a
//! timer catches segments whose window has not passed yet. TLP sends a probe
//! when the ACKs stop in the Open state (a tail loss), so that RACK gets an
//! ACK to detect the loss from instead of waiting for the RTO.

use crate::flight::{sent_after, Delivery, Flight};
use ackclock_core::{Duration, Instant};

/// RFC 8985 §7.2: the worst-case delayed ACK added to the PTO when one
/// segment is in flight (Linux `TCP_RTO_MIN`), and the slack otherwise
/// (Linux `TCP_TIMEOUT_MIN`).
const WORST_CASE_DELACK: Duration = Duration::from_millis(200);
const PTO_SLACK: Duration = Duration::from_millis(2);
/// RFC 8985 §6.2: DSACK-free recoveries before the reordering window
/// returns to its base.
const REO_WND_PERSIST: u32 = 16;

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Rack {
    /// RACK.xmit_ts and RACK.end_seq: the most recently sent segment
    /// delivered, and RACK.rtt, its round trip.
    xmit_ts: Instant,
    end_seq: u64,
    rtt: Duration,
    reordering_seen: bool,
    /// RACK.reo_wnd_mult - 1: the steps D-SACKs added to the window.
    reo_wnd_steps: u32,
    reo_wnd_persist: u32,
    dsack_round: Option<u64>,
    /// When the reordering timer expires.
    pub timer: Option<Instant>,
    /// TLP.end_seq: snd_nxt after the outstanding probe, and whether the
    /// probe was a retransmission.
    pub tlp_end: Option<u64>,
    pub tlp_retransmitted: bool,
    /// When the probe timeout expires.
    pub pto: Option<Instant>,
}

/// What the reordering window and loss detection read from the connection.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RackView {
    pub now: Instant,
    pub srtt: Option<Duration>,
    pub min_rtt: Option<Duration>,
    pub in_recovery: bool,
    /// RACK.segs_sacked >= DupThresh.
    pub sacked_enough: bool,
}

impl Rack {
    /// RFC 8985 §6.2 steps 1-3: learn from the segments an ACK delivered.
    pub fn update(&mut self, d: &Delivery) {
        if let Some((t, end, rtt)) = d.rack {
            self.rtt = rtt;
            if sent_after(t, end, self.xmit_ts, self.end_seq) {
                self.xmit_ts = t;
                self.end_seq = end;
            }
        }
        self.reordering_seen |= d.reordered;
    }

    /// RFC 8985 §6.2 step 4 (RACK_update_reo_wnd): a D-SACK widens the
    /// window by min_RTT / 4 once per round; 16 recoveries without one
    /// narrow it back.
    pub fn note_dsack(&mut self, dsack: bool, snd_una: u64, snd_nxt: u64) {
        if self.dsack_round.is_some_and(|r| snd_una >= r) {
            self.dsack_round = None;
        }
        if dsack && self.dsack_round.is_none() {
            self.dsack_round = Some(snd_nxt);
            self.reo_wnd_steps += 1;
            self.reo_wnd_persist = REO_WND_PERSIST;
        }
    }

    /// A recovery ended without a D-SACK widening the window.
    pub fn recovery_ended(&mut self) {
        self.reo_wnd_persist = self.reo_wnd_persist.saturating_sub(1);
        if self.reo_wnd_persist == 0 {
            self.reo_wnd_steps = 0;
        }
    }

    /// RACK.reo_wnd: zero while no reordering was seen and recovery is on
    /// or DupThresh segments are SACKed, else a quarter of the minimum RTT
    /// per step, at most srtt.
    fn reo_wnd(&self, v: &RackView) -> Duration {
        if !self.reordering_seen && (v.in_recovery || v.sacked_enough) {
            return Duration::ZERO;
        }
        let min_rtt = v.min_rtt.unwrap_or(Duration::ZERO);
        let wnd = Duration::from_ps(min_rtt.as_ps() / 4) * u64::from(1 + self.reo_wnd_steps);
        v.srtt.map_or(wnd, |s| wnd.min(s))
    }

    /// RFC 8985 §6.2 step 5 (RACK_detect_loss): deems lost every segment sent
    /// before RACK's whose round trip and reordering window have passed, and
    /// sets the timer for the earliest of the others. Returns whether any
    /// segment was newly deemed lost.
    pub fn detect_loss(&mut self, flight: &mut Flight, v: &RackView) -> bool {
        let reo_wnd = self.reo_wnd(v);
        let mut wait = Duration::ZERO;
        let mut found = false;
        for i in 0..flight.len() {
            let s = *flight.get(i);
            if !sent_after(self.xmit_ts, self.end_seq, s.sent_at, s.end) {
                if !s.retransmitted {
                    break; // everything after it was sent later still
                }
                continue;
            }
            if s.sacked || (s.lost && !s.rtx_out) {
                continue;
            }
            let deadline = s.sent_at + self.rtt + reo_wnd;
            if deadline <= v.now {
                flight.set_lost(i, true);
                found = true;
            } else {
                wait = wait.max(deadline - v.now);
            }
        }
        self.timer = (wait > Duration::ZERO).then(|| v.now + wait);
        found
    }

    /// RFC 8985 §7.2: the probe timeout, at most until the RTO.
    pub fn arm_pto(&mut self, now: Instant, srtt: Option<Duration>, one_segment: bool, rto_at: Instant) {
        let pto = match srtt {
            Some(srtt) => srtt * 2 + if one_segment { WORST_CASE_DELACK } else { PTO_SLACK },
            None => Duration::from_secs(1),
        };
        self.pto = Some((now + pto).min(rto_at));
    }

    /// RFC 8985 §7.4: what the ACK of a probe says. Returns true when the
    /// probe repaired a loss, which calls for a congestion response.
    pub fn tlp_acked(&mut self, ack: u64, dsack: bool, dupack_without_sack: bool) -> bool {
        let Some(end) = self.tlp_end else { return false };
        if ack < end {
            return false;
        }
        let repaired = self.tlp_retransmitted && !dsack && (ack > end || dupack_without_sack);
        if !self.tlp_retransmitted || dsack || repaired || dupack_without_sack {
            self.tlp_end = None;
        }
        repaired
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Instant {
        Instant::from_ps(x * 1_000_000_000)
    }

    /// Four 100-byte segments sent 1 ms apart from t = 0.
    fn flight() -> Flight {
        let mut f = Flight::default();
        for k in 0..4 {
            f.on_transmit(ms(k), 1 + k * 100, 101 + k * 100);
        }
        f
    }

    fn view(now: Instant, sacked_enough: bool) -> RackView {
        RackView {
            now,
            srtt: Some(Duration::from_millis(100)),
            min_rtt: Some(Duration::from_millis(100)),
            in_recovery: false,
            sacked_enough,
        }
    }

    fn lost(f: &Flight) -> Vec<u64> {
        (0..f.len()).filter(|&i| f.get(i).lost).map(|i| f.get(i).start).collect()
    }

    #[test]
    fn a_segment_sent_before_a_delivered_one_is_lost_after_rtt_plus_the_reordering_window() {
        let mut f = flight();
        let mut rack = Rack::default();
        // Segment 3 (sent at 3 ms) is SACKed at 103 ms: RTT 100 ms.
        let mut d = f.delivery();
        f.on_sack(ms(103), 301, 401, false, &mut d);
        rack.update(&d);
        // Segments 0-2 wait for 100 ms + min_RTT / 4 = 125 ms after their
        // sending; the timer is set for the last of them.
        assert!(!rack.detect_loss(&mut f, &view(ms(103), false)));
        assert_eq!(rack.timer, Some(ms(127)));
        assert!(rack.detect_loss(&mut f, &view(ms(126), false)));
        assert_eq!(lost(&f), vec![1, 101]);
        assert_eq!(rack.timer, Some(ms(127)));
    }

    #[test]
    fn with_dupthresh_segments_sacked_and_no_reordering_the_window_is_zero() {
        let mut f = flight();
        let mut rack = Rack::default();
        let mut d = f.delivery();
        f.on_sack(ms(103), 301, 401, false, &mut d);
        rack.update(&d);
        assert!(rack.detect_loss(&mut f, &view(ms(103), true)));
        assert_eq!(lost(&f), vec![1, 101, 201]);
    }

    #[test]
    fn reordering_restores_the_window_and_a_dsack_widens_it() {
        let mut f = flight();
        let mut rack = Rack::default();
        let mut d = f.delivery();
        f.on_sack(ms(103), 301, 401, false, &mut d);
        rack.update(&d);
        // Segment 1 arrives late, never resent: reordering.
        let mut d = f.delivery();
        f.on_sack(ms(104), 101, 201, false, &mut d);
        rack.update(&d);
        assert!(!rack.detect_loss(&mut f, &view(ms(104), true)), "reo_wnd is 25 ms again");
        rack.note_dsack(true, 1, 401);
        rack.detect_loss(&mut f, &view(ms(104), true));
        // RACK.rtt is now segment 1's, 103 ms: segment 2 waits until 2 + 103 + 2 x 25.
        assert_eq!(rack.timer, Some(ms(155)));
    }

    #[test]
    fn the_probe_timeout_is_two_srtt_plus_a_delayed_ack_for_one_segment() {
        let mut rack = Rack::default();
        rack.arm_pto(ms(0), Some(Duration::from_millis(40)), false, ms(1000));
        assert_eq!(rack.pto, Some(ms(82)));
        rack.arm_pto(ms(0), Some(Duration::from_millis(40)), true, ms(1000));
        assert_eq!(rack.pto, Some(ms(280)));
        rack.arm_pto(ms(0), Some(Duration::from_millis(40)), true, ms(250));
        assert_eq!(rack.pto, Some(ms(250)), "never after the RTO");
    }

    #[test]
    fn a_retransmitted_probe_acked_beyond_it_repaired_a_loss_unless_dsacked() {
        let mut rack = Rack { tlp_end: Some(500), tlp_retransmitted: true, ..Rack::default() };
        assert!(!rack.tlp_acked(400, false, false), "not yet");
        assert!(rack.tlp_acked(600, false, false));
        assert_eq!(rack.tlp_end, None);
        let mut rack = Rack { tlp_end: Some(500), tlp_retransmitted: true, ..Rack::default() };
        assert!(!rack.tlp_acked(500, true, false), "the original arrived too");
        assert_eq!(rack.tlp_end, None);
    }
}
