//! TCP Vegas (Brakmo and Peterson, IEEE JSAC 13(8), 1995): congestion
//! avoidance by delay. Once per round trip the sender compares the rate it
//! would get with an empty queue to the rate it gets:
//!
//! ```text
//! Expected = cwnd / BaseRTT          BaseRTT: the smallest RTT seen
//! Actual   = cwnd / RTT              RTT: the mean of this round's samples
//! Diff     = (Expected - Actual) BaseRTT   segments queued in the network
//! ```
//!
//! and keeps Diff between alpha and beta segments: below alpha cwnd grows
//! by one segment, above beta it shrinks by one, in between it holds.
//! Vegas slow start doubles cwnd only every other round, so that the
//! rounds between measure an RTT unaffected by the growth, and leaves
//! slow start once Diff exceeds gamma, with cwnd cut to what the path
//! holds without queueing plus one segment.
//!
//! ```text
//!   slow start (grow, hold, grow, ...) --Diff > gamma--> avoidance
//!        ^                                   Diff < alpha: +1 segment / round
//!        |                                   Diff > beta:  -1 segment / round
//!        +-- timeout ------------------------ loss: cwnd x 3/4
//! ```
//!
//! | parameter | default | range | source |
//! |-----------|---------|-------|--------|
//! | `alpha` | 1 | 0-1000 | Brakmo & Peterson §3.2: fewest extra segments in the network |
//! | `beta` | 3 | 0-1000 | Brakmo & Peterson §3.2: most extra segments |
//! | `gamma` | 1 | 0-1000 | Brakmo & Peterson §3.3: extra segments that end slow start |
//!
//! Losses (§3.1): Vegas times every segment with the exact clock and keeps
//! a fine-grained timeout (Jacobson's estimator on those RTTs, as BSD Vegas
//! and ns-2 compute it). On a duplicate ACK it retransmits at once if the
//! oldest segment has outlived that timeout, without waiting for the third
//! one; on the first two new ACKs after a retransmission it checks again, to
//! catch a second loss in the window. The window is cut only if the lost
//! segment was sent after the last cut, and then by a quarter, not a half.
//! A timeout restarts slow start as in RFC 5681. ns-2's `Agent/TCP/Vegas`
//! (its arithmetic in packets, its own rules) is the `ns2-vegas` module.

use super::{
    CcContext, CcParams, CongestionOps, Conn, CwndEvent, LossCheck, Oldest, ParamInfo, ParamKind, RateSample,
    RenoGrowth, RoundRtts, Window,
};
use ackclock_core::{Duration, Instant};

pub(super) const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "alpha",
        kind: ParamKind::Real,
        default: 1.0,
        min: 0.0,
        max: 1000.0,
        help: "below this many segments queued, cwnd grows by one per RTT",
    },
    ParamInfo {
        name: "beta",
        kind: ParamKind::Real,
        default: 3.0,
        min: 0.0,
        max: 1000.0,
        help: "above this many segments queued, cwnd shrinks by one per RTT",
    },
    ParamInfo {
        name: "gamma",
        kind: ParamKind::Real,
        default: 1.0,
        min: 0.0,
        max: 1000.0,
        help: "slow start ends when more than this many segments are queued",
    },
];

/// What one round's measurement says to do with cwnd.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    /// Slow start continues.
    SlowStart,
    /// Slow start ends at this many segments.
    LeaveSlowStart(f64),
    Grow,
    Shrink,
    Hold,
}

/// Vegas's thresholds and its Diff test, shared with the ns-2 module.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Thresholds {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
}

impl Thresholds {
    pub fn new(params: &CcParams) -> Self {
        Thresholds { alpha: params.value(&PARAMS[0]), beta: params.value(&PARAMS[1]), gamma: params.value(&PARAMS[2]) }
    }
}

/// Diff in segments: (Expected - Actual) x BaseRTT for a window of `cwnd`
/// segments.
pub(super) fn diff(cwnd: f64, base_rtt: Duration, rtt: Duration) -> f64 {
    let (base, rtt) = (base_rtt.as_secs_f64(), rtt.as_secs_f64());
    (cwnd / base - cwnd / rtt) * base
}

/// The fine-grained retransmission timeout of BSD Vegas (and ns-2's
/// `v_timeout_`): Jacobson's estimator on exact RTTs, 8 x srtt and
/// 4 x mean deviation kept as in 4.3BSD, plus a sixteenth.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct FineTimer {
    /// 8 x srtt and 4 x mean deviation, in seconds.
    sa: f64,
    sd: f64,
    timeout: Option<f64>,
}

impl FineTimer {
    /// Starts the estimator from a first round-trip time.
    pub fn start(&mut self, rtt: f64) {
        (self.sa, self.sd) = (rtt * 8.0, rtt);
        self.timeout = Some((self.sa / 4.0 + self.sd) / 2.0);
    }

    pub fn sample(&mut self, rtt: f64) {
        if self.timeout.is_none() {
            self.start(rtt);
        }
        let n = rtt - self.sa / 8.0;
        self.sa += n;
        self.sd += n.abs() - self.sd / 4.0;
        let timeout = (self.sa / 4.0 + self.sd) / 2.0;
        self.timeout = Some(timeout + timeout / 16.0);
    }

    /// Whether a segment sent at `sent_at` has outlived the timeout.
    pub fn expired(&self, now: Instant, sent_at: Instant) -> bool {
        self.timeout.is_some_and(|t| now.saturating_since(sent_at).as_secs_f64() >= t)
    }

    /// After a retransmission: doubled if the segment was sent more than
    /// once, else an eighth longer.
    pub fn back_off(&mut self, retransmitted: bool) {
        if let Some(t) = &mut self.timeout {
            *t += if retransmitted { *t } else { *t / 8.0 };
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Vegas {
    thresholds: Thresholds,
    rtts: RoundRtts,
    /// The mean RTT of the round that just ended, until the window is
    /// judged by it.
    round_rtt: Option<Duration>,
    /// Whether this slow-start round grows cwnd (every other one does).
    growing_round: bool,
    slow_start: RenoGrowth,
    timer: FineTimer,
    /// New ACKs after a retransmission still to check (§3.1: two).
    worried: u32,
    /// When the window was last cut, and the segment the last loss check
    /// looked at: a loss of a segment sent before the cut cuts no more.
    last_cut: Option<Instant>,
    checked: Option<Oldest>,
}

impl Vegas {
    pub fn new(ctx: &CcContext, params: &CcParams) -> Self {
        Vegas {
            thresholds: Thresholds::new(params),
            rtts: RoundRtts::default(),
            round_rtt: None,
            growing_round: true,
            slow_start: RenoGrowth::new(ctx.abc),
            timer: FineTimer::default(),
            worried: 0,
            last_cut: None,
            checked: None,
        }
    }

    /// The verdict on a round of `cwnd` segments whose mean RTT was `rtt`.
    fn judge(&self, cwnd: f64, slow_start: bool, rtt: Duration) -> Verdict {
        let Some(base) = self.rtts.base() else { return Verdict::Hold };
        let diff = diff(cwnd, base, rtt);
        let t = &self.thresholds;
        match () {
            _ if slow_start && diff > t.gamma => {
                // What the path holds at the base RTT, plus one segment.
                let target = cwnd * base.as_secs_f64() / rtt.as_secs_f64();
                Verdict::LeaveSlowStart(cwnd.min(target + 1.0).max(2.0))
            }
            _ if slow_start => Verdict::SlowStart,
            _ if diff > t.beta => Verdict::Shrink,
            _ if diff < t.alpha => Verdict::Grow,
            _ => Verdict::Hold,
        }
    }
}

impl CongestionOps for Vegas {
    fn name(&self) -> &'static str {
        "vegas"
    }

    /// §3.1: a quarter off, not a half, and only for a segment sent after
    /// the last cut.
    fn ssthresh(&mut self, w: &Window, c: &Conn) -> u32 {
        let lost = self.checked.take();
        if let (Some(cut), Some(lost)) = (self.last_cut, lost) {
            if lost.sent_at <= cut {
                return w.cwnd;
            }
        }
        self.last_cut = Some(c.now);
        (w.cwnd / 4 * 3).max(2 * c.mss)
    }

    fn pkts_acked(&mut self, c: &Conn, rs: &RateSample) {
        if let Some(round) = self.rtts.on_ack(c, rs) {
            self.round_rtt = Some(round.mean);
        }
        if let Some(rtt) = rs.rtt {
            self.timer.sample(rtt.as_secs_f64());
        }
    }

    fn detects_loss(&self) -> bool {
        true
    }

    /// §3.1: a duplicate ACK, or one of the two new ACKs after a
    /// retransmission, finds the oldest segment past the fine-grained
    /// timeout: it is lost.
    fn check_loss(&mut self, c: &Conn, dupacks: Option<u32>, oldest: Oldest) -> LossCheck {
        self.checked = Some(oldest);
        if dupacks.is_none() {
            if self.worried == 0 {
                return LossCheck::Endpoint;
            }
            self.worried -= 1;
        }
        if self.timer.expired(c.now, oldest.sent_at) {
            self.timer.back_off(oldest.retransmitted);
            self.worried = 2;
            return LossCheck::Lost;
        }
        if dupacks.is_none() {
            self.worried = 0;
        }
        LossCheck::Endpoint
    }

    fn cwnd_event(&mut self, _w: &mut Window, _c: &Conn, event: CwndEvent) {
        if event == CwndEvent::RecoveryStart {
            self.worried = 2;
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        let acked = rs.acked;
        let slow_start = w.cwnd < w.ssthresh;
        if let Some(rtt) = self.round_rtt.take() {
            let mss = c.mss;
            match self.judge(f64::from(w.cwnd) / f64::from(mss), slow_start, rtt) {
                Verdict::SlowStart => self.growing_round = !self.growing_round,
                Verdict::LeaveSlowStart(segments) => {
                    w.cwnd = (segments * f64::from(mss)) as u32;
                    w.ssthresh = w.cwnd;
                }
                Verdict::Grow if c.cwnd_limited => w.cwnd += mss,
                Verdict::Shrink => {
                    w.cwnd = w.cwnd.saturating_sub(mss).max(2 * mss);
                    w.ssthresh = w.ssthresh.min(w.cwnd);
                }
                Verdict::Grow | Verdict::Hold => {}
            }
            return;
        }
        if slow_start && self.growing_round && c.cwnd_limited {
            w.cwnd = self.slow_start.grow(w, c.mss, acked);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{conn, context, window};
    use super::super::CcKind;
    use super::*;

    const MSS: u32 = 1000;

    /// Vegas whose BaseRTT is 100 ms.
    fn vegas(alpha: f64, beta: f64) -> Vegas {
        let mut p = CcParams::default();
        p.set(CcKind::Vegas, "alpha", alpha).unwrap();
        p.set(CcKind::Vegas, "beta", beta).unwrap();
        let mut cc = Vegas::new(&context(2), &p);
        let first = RateSample { rtt: Some(ms(100)), ..RateSample::default() };
        cc.pkts_acked(&conn(MSS, 0), &first);
        cc
    }

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn diff_counts_the_segments_queued_beyond_the_base_rtt() {
        // 20 segments, 100 ms base, 125 ms now: Expected 200/s, Actual
        // 160/s, (200 - 160) x 0.1 s = 4 segments.
        assert!((diff(20.0, ms(100), ms(125)) - 4.0).abs() < 1e-12);
        assert_eq!(diff(20.0, ms(100), ms(100)), 0.0);
    }

    /// Vegas with base RTT 100 ms judging a round of `cwnd` segments in
    /// congestion avoidance whose mean RTT was `rtt_ms`.
    fn avoid(cwnd: u32, rtt_ms: u64) -> u32 {
        let mut cc = vegas(1.0, 3.0);
        cc.round_rtt = Some(ms(rtt_ms));
        let mut w = window(cwnd * MSS, MSS);
        cc.cong_avoid(&mut w, &conn(MSS, 0), &RateSample { acked: MSS, ..RateSample::default() });
        w.cwnd / MSS
    }

    #[test]
    fn avoidance_keeps_diff_between_alpha_and_beta() {
        // 20 segments: RTT 104 ms -> Diff 0.77 < alpha = 1, grow;
        // 110 ms -> 1.82, hold; 117 ms -> 2.91, hold; 118 ms -> 3.05 > beta = 3, shrink.
        assert_eq!(avoid(20, 104), 21);
        assert_eq!(avoid(20, 110), 20);
        assert_eq!(avoid(20, 117), 20);
        assert_eq!(avoid(20, 118), 19);
    }

    #[test]
    fn slow_start_grows_every_other_round_and_ends_above_gamma() {
        let mut cc = vegas(1.0, 3.0);
        let mut w = window(4 * MSS, u32::MAX / 2);
        let c = conn(MSS, 0);
        cc.cong_avoid(&mut w, &c, &RateSample { acked: MSS, ..RateSample::default() });
        assert_eq!(w.cwnd, 5 * MSS, "the first round grows");
        // End of round at 102 ms: Diff = 5 (1 - 100/102) = 0.098 <= gamma.
        cc.round_rtt = Some(ms(102));
        cc.cong_avoid(&mut w, &c, &RateSample { acked: MSS, ..RateSample::default() });
        cc.cong_avoid(&mut w, &c, &RateSample { acked: MSS, ..RateSample::default() });
        assert_eq!(w.cwnd, 5 * MSS, "this round holds");
        cc.round_rtt = Some(ms(102));
        cc.cong_avoid(&mut w, &c, &RateSample { acked: MSS, ..RateSample::default() });
        cc.cong_avoid(&mut w, &c, &RateSample { acked: MSS, ..RateSample::default() });
        assert_eq!(w.cwnd, 6 * MSS, "and the next grows");
        // 6 segments at 140 ms: Diff = 6 (1 - 100/140) = 1.71 > gamma: cwnd
        // falls to what 100 ms holds, 6 x 100/140 = 4.29, plus one.
        cc.round_rtt = Some(ms(140));
        cc.cong_avoid(&mut w, &c, &RateSample { acked: MSS, ..RateSample::default() });
        assert_eq!((w.cwnd, w.ssthresh), (5285, 5285));
    }

    #[test]
    fn the_round_rtt_is_the_mean_of_its_samples() {
        let mut cc = Vegas::new(&context(2), &CcParams::default());
        let sample =
            |prior, rtt| RateSample { prior_delivered: Some(prior), rtt: Some(ms(rtt)), ..RateSample::default() };
        let c = |delivered| Conn { delivered, ..conn(MSS, 0) };
        cc.pkts_acked(&c(1000), &sample(0, 120));
        cc.pkts_acked(&c(2000), &sample(0, 100));
        cc.pkts_acked(&c(3000), &sample(0, 110));
        assert_eq!(cc.round_rtt, None);
        cc.pkts_acked(&c(4000), &sample(1000, 130));
        assert_eq!(cc.round_rtt, Some(ms(110)));
    }

    #[test]
    fn a_loss_keeps_three_quarters_of_the_window() {
        assert_eq!(vegas(1.0, 3.0).ssthresh(&window(20 * MSS, 0), &conn(MSS, 0)), 15 * MSS);
    }

    #[test]
    fn the_fine_grained_timeout_is_srtt_plus_two_deviations_and_a_sixteenth() {
        let mut t = FineTimer::default();
        // The first sample starts it (sa = 8 x 0.1, sd = 0.1) and is then
        // taken: n = 0, sd = 0.1 - 0.025 = 0.075; (0.2 + 0.075) / 2 = 0.1375,
        // plus a sixteenth: 0.14609.
        t.sample(0.1);
        assert!((t.timeout.unwrap() - 0.146_093_75).abs() < 1e-12);
        // Then 0.2: n = 0.1, sa = 0.9, sd = 0.075 + 0.1 - 0.01875 = 0.15625;
        // (0.225 + 0.15625) / 2 x 17/16 = 0.20254.
        t.sample(0.2);
        assert!((t.timeout.unwrap() - 0.202_539_062_5).abs() < 1e-12);
        t.back_off(false);
        assert!((t.timeout.unwrap() - 0.202_539_062_5 * 1.125).abs() < 1e-12);
        t.back_off(true);
        assert!((t.timeout.unwrap() - 0.202_539_062_5 * 2.25).abs() < 1e-12);
    }

    fn at(t_ms: u64) -> Conn {
        Conn { now: Instant::from_ps(t_ms * 1_000_000_000), ..conn(MSS, 0) }
    }

    fn sent(t_ms: u64) -> Oldest {
        Oldest { sent_at: Instant::from_ps(t_ms * 1_000_000_000), retransmitted: false }
    }

    #[test]
    fn a_duplicate_ack_after_the_fine_grained_timeout_is_a_loss_and_two_new_acks_look_again() {
        let mut cc = vegas(1.0, 3.0); // timeout 146 ms after a 100 ms sample
        assert_eq!(cc.check_loss(&at(1140), Some(1), sent(1000)), LossCheck::Endpoint, "140 ms");
        assert_eq!(cc.check_loss(&at(1150), Some(2), sent(1000)), LossCheck::Lost, "150 ms");
        assert!((cc.timer.timeout.unwrap() - 0.146_093_75 * 1.125).abs() < 1e-12, "backed off");
        // The next new ACK finds the new oldest segment expired too: lost.
        assert_eq!(cc.check_loss(&at(1300), None, sent(1010)), LossCheck::Lost);
        // Two more new ACKs are checked; the first finds none, and that ends it.
        assert_eq!(cc.check_loss(&at(1310), None, sent(1300)), LossCheck::Endpoint);
        assert_eq!(cc.worried, 0);
        assert_eq!(cc.check_loss(&at(2000), None, sent(1300)), LossCheck::Endpoint, "no longer worried");
    }

    #[test]
    fn a_loss_of_a_segment_sent_before_the_last_cut_cuts_no_more() {
        let mut cc = vegas(1.0, 3.0);
        let w = window(20 * MSS, 0);
        cc.check_loss(&at(1150), Some(3), sent(1000));
        assert_eq!(cc.ssthresh(&w, &at(1150)), 15 * MSS);
        cc.check_loss(&at(1200), Some(3), sent(1100));
        assert_eq!(cc.ssthresh(&w, &at(1200)), 20 * MSS, "sent at 1.1 s, before the cut at 1.15 s");
        cc.check_loss(&at(1400), Some(3), sent(1160));
        assert_eq!(cc.ssthresh(&w, &at(1400)), 15 * MSS);
    }
}
