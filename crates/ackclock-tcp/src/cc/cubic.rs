//! CUBIC (RFC 9438) with HyStart++ (RFC 9406).
//!
//! After a congestion event at window W_max, the window follows a cubic
//! function of the time t since congestion avoidance resumed:
//!
//! ```text
//! W_cubic(t) = C (t - K)^3 + W_max,   K = cbrt((W_max - cwnd_epoch) / C)
//! ```
//!
//! concave up to W_max (fast at first, then a plateau around the last
//! loss), convex beyond it (probing ever faster). Growth is independent of
//! the RTT. Where Reno would grow faster (short RTTs, small windows) CUBIC
//! grows as a Reno with the same average window, W_est, instead (the
//! "Reno-friendly region", §4.3). A congestion event keeps beta of the
//! window (0.7, not 0.5); with fast convergence (§4.7) a flow whose
//! window fell short of the last W_max releases bandwidth by remembering
//! a smaller W_max.
//!
//! Slow start is RFC 5681's with HyStart++ (RFC 9406), in the initial slow
//! start only: a round whose minimum RTT rises by a threshold moves to
//! Conservative Slow Start (growth divided by 4) for up to 5 rounds, back
//! to slow start if the RTT falls again, else on to congestion avoidance.
//!
//! ```text
//!  slow start --RTT rise--> CSS --5 rounds--> congestion avoidance
//!      ^  |                  |                   (cubic / Reno-friendly)
//!      |  +----RTT falls-----+                        ^    |
//!      |          loss / ECN: ssthresh = beta cwnd ---+    | loss, ECN
//!      +--- timeout: cwnd = 1, W_max = cwnd at next epoch, K = 0
//! ```
//!
//! | parameter | default | range | source |
//! |-----------|---------|-------|--------|
//! | `c` | 0.4 | 0.01-10 | RFC 9438 §5.1: C, segments/s^3 |
//! | `beta` | 0.7 | 0.1-0.99 | RFC 9438 §4.6: beta_cubic, window kept after a congestion event |
//! | `fast_convergence` | 1 | 0/1 | RFC 9438 §4.7 |
//! | `reno_friendly` | 1 | 0/1 | RFC 9438 §4.3: W_est region |
//! | `hystart` | 1 | 0/1 | RFC 9406 HyStart++ in the initial slow start |
//!
//! Like Linux, ssthresh is beta times cwnd (RFC 9438 §4.6 allows cwnd in
//! place of the flight), and the window grows only while cwnd limits
//! sending (RFC 7661).

use super::{
    CcContext, CcParams, CongestionOps, Conn, CwndEvent, ParamInfo, ParamKind, RateSample, RenoGrowth, Rounds, Window,
};
use ackclock_core::{Duration, Instant};

pub(super) const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "c",
        kind: ParamKind::Real,
        default: 0.4,
        min: 0.01,
        max: 10.0,
        help: "C, the cubic's scale in segments per second cubed (RFC 9438 §5.1)",
    },
    ParamInfo {
        name: "beta",
        kind: ParamKind::Real,
        default: 0.7,
        min: 0.1,
        max: 0.99,
        help: "the share of the window kept after a congestion event (RFC 9438 §4.6)",
    },
    ParamInfo {
        name: "fast_convergence",
        kind: ParamKind::Flag,
        default: 1.0,
        min: 0.0,
        max: 1.0,
        help: "remember a smaller W_max when the window did not reach the last one (RFC 9438 §4.7)",
    },
    ParamInfo {
        name: "reno_friendly",
        kind: ParamKind::Flag,
        default: 1.0,
        min: 0.0,
        max: 1.0,
        help: "grow at least as fast as Reno would with the same average window (RFC 9438 §4.3)",
    },
    ParamInfo {
        name: "hystart",
        kind: ParamKind::Flag,
        default: 1.0,
        min: 0.0,
        max: 1.0,
        help: "HyStart++ in the initial slow start (RFC 9406)",
    },
];

/// The cubic's state since the last congestion event, in segments.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Epoch {
    /// W_max: the window at the last congestion event (after fast
    /// convergence); 0 after a timeout, so the next epoch starts at K = 0.
    w_max: f64,
    /// The window just before the last reduction (cwnd_prior, §4.3).
    cwnd_prior: f64,
    /// When the current epoch (congestion avoidance since the last event)
    /// began, with K and cwnd_epoch then; `None` until the first ACK of it.
    start: Option<Instant>,
    k: f64,
    /// W_est, the Reno-friendly window (§4.3).
    w_est: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Cubic {
    c: f64,
    beta: f64,
    fast_convergence: bool,
    reno_friendly: bool,
    epoch: Epoch,
    /// The epoch before the last congestion event, for undo (§4.9).
    before_event: Epoch,
    slow_start: RenoGrowth,
    hystart: Option<HyStart>,
    /// Fractional bytes of growth carried between ACKs.
    carry: f64,
    /// When a hook last saw the connection (to shift the epoch over idle
    /// periods, as Linux does on CA_EVENT_TX_START).
    last_seen: Instant,
}

impl Cubic {
    pub fn new(ctx: &CcContext, params: &CcParams) -> Self {
        let epoch = Epoch { w_max: 0.0, cwnd_prior: 0.0, start: None, k: 0.0, w_est: 0.0 };
        Cubic {
            c: params.value(&PARAMS[0]),
            beta: params.value(&PARAMS[1]),
            fast_convergence: params.value(&PARAMS[2]) != 0.0,
            reno_friendly: params.value(&PARAMS[3]) != 0.0,
            epoch,
            before_event: epoch,
            slow_start: RenoGrowth::new(ctx.abc),
            hystart: (params.value(&PARAMS[4]) != 0.0).then(HyStart::default),
            carry: 0.0,
            last_seen: Instant::ZERO,
        }
    }

    /// W_cubic(t), RFC 9438 eq. (1), in segments.
    fn w_cubic(&self, t: f64) -> f64 {
        self.c * (t - self.epoch.k).powi(3) + self.epoch.w_max
    }

    /// alpha_cubic (§4.3): the Reno-friendly additive increase, until W_est
    /// reaches the window before the last reduction, then Reno's 1.
    fn alpha(&self) -> f64 {
        if self.epoch.w_est >= self.epoch.cwnd_prior {
            1.0
        } else {
            3.0 * (1.0 - self.beta) / (1.0 + self.beta)
        }
    }

    /// Congestion avoidance for `acked` bytes, RFC 9438 §4.2-4.5.
    fn avoid(&mut self, w: &mut Window, c: &Conn, acked: u32) {
        let mss = f64::from(c.mss);
        let cwnd = f64::from(w.cwnd) / mss;
        let start = *self.epoch.start.get_or_insert_with(|| {
            // §4.2: K from the window at the epoch's start; after a timeout
            // (W_max 0) or above the old maximum, the epoch starts at its
            // plateau.
            self.epoch.k = if cwnd < self.epoch.w_max { ((self.epoch.w_max - cwnd) / self.c).cbrt() } else { 0.0 };
            self.epoch.w_max = self.epoch.w_max.max(cwnd);
            self.epoch.w_est = cwnd;
            c.now
        });
        let t = c.now.saturating_since(start).as_secs_f64();
        let rtt = c.srtt.unwrap_or(Duration::ZERO).as_secs_f64();
        let segments = f64::from(acked) / mss;
        self.epoch.w_est += self.alpha() * segments / cwnd;
        let next = if self.reno_friendly && self.w_cubic(t) < self.epoch.w_est {
            // §4.3: the Reno-friendly region.
            self.epoch.w_est.max(cwnd)
        } else {
            // §4.4, §4.5: towards W_cubic one RTT ahead, at most 1.5 cwnd.
            let target = self.w_cubic(t + rtt).clamp(cwnd, 1.5 * cwnd);
            cwnd + (target - cwnd) / cwnd * segments
        };
        self.carry += (next - cwnd) * mss;
        let whole = self.carry.floor();
        self.carry -= whole;
        w.cwnd = (f64::from(w.cwnd) + whole).min(f64::from(u32::MAX / 2)) as u32;
    }
}

impl CongestionOps for Cubic {
    fn name(&self) -> &'static str {
        "cubic"
    }

    /// §4.6 and §4.7: a congestion event remembers W_max and keeps beta
    /// of the window.
    fn ssthresh(&mut self, w: &Window, c: &Conn) -> u32 {
        let cwnd = f64::from(w.cwnd) / f64::from(c.mss);
        self.before_event = self.epoch;
        let fast = self.fast_convergence && cwnd < self.epoch.w_max;
        self.epoch.w_max = if fast { cwnd * (1.0 + self.beta) / 2.0 } else { cwnd };
        self.epoch.cwnd_prior = cwnd;
        self.epoch.start = None;
        self.hystart = None; // RFC 9406 §4.3: the initial slow start only
        ((f64::from(w.cwnd) * self.beta) as u32).max(2 * c.mss)
    }

    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, acked: u32) {
        self.last_seen = c.now;
        if !c.cwnd_limited {
            return;
        }
        if w.cwnd < w.ssthresh {
            let grown = self.slow_start.grow(w, c.mss, acked);
            w.cwnd = match &mut self.hystart {
                Some(h) => h.grow(w, grown),
                None => grown,
            };
        } else {
            self.avoid(w, c, acked);
        }
    }

    fn pkts_acked(&mut self, c: &Conn, rs: &RateSample) {
        if let Some(h) = &mut self.hystart {
            h.on_ack(c, rs);
        }
    }

    fn cwnd_event(&mut self, _w: &mut Window, c: &Conn, event: CwndEvent) {
        match event {
            // §4.8: after a timeout the next epoch starts at K = 0 with W_max
            // the window it starts from.
            CwndEvent::Rto => self.epoch.w_max = 0.0,
            // Linux bictcp_cwnd_event: an idle period does not count as
            // time in the epoch.
            CwndEvent::TxStart => {
                if let Some(start) = &mut self.epoch.start {
                    *start += c.now.saturating_since(self.last_seen);
                }
            }
            _ => {}
        }
        self.last_seen = c.now;
    }

    /// §4.9: a spurious congestion event restores the cubic's state too.
    fn undo(&mut self, w: &mut Window, _c: &Conn, before: &Window) {
        self.epoch = self.before_event;
        w.cwnd = w.cwnd.max(before.cwnd);
        w.ssthresh = w.ssthresh.max(before.ssthresh);
    }
}

/// HyStart++ (RFC 9406 §4.2) constants.
const MIN_RTT_THRESH: Duration = Duration::from_millis(4);
const MAX_RTT_THRESH: Duration = Duration::from_millis(16);
const MIN_RTT_DIVISOR: u64 = 8;
const N_RTT_SAMPLE: u32 = 8;
const CSS_GROWTH_DIVISOR: u32 = 4;
const CSS_ROUNDS: u32 = 5;

/// HyStart++: leaves slow start when the RTT rises, before a loss does.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct HyStart {
    rounds: Rounds,
    last_round_min_rtt: Option<Duration>,
    current_round_min_rtt: Option<Duration>,
    rtt_sample_count: u32,
    /// In Conservative Slow Start: the minimum RTT that started it and the
    /// rounds spent in it.
    css_baseline: Option<Duration>,
    css_rounds: u32,
}

impl HyStart {
    /// Per ACK: a new round, then the RTT sample (§4.3).
    fn on_ack(&mut self, c: &Conn, rs: &RateSample) {
        if self.rounds.on_ack(c, rs) {
            self.last_round_min_rtt = self.current_round_min_rtt.take();
            self.rtt_sample_count = 0;
            if self.css_baseline.is_some() {
                self.css_rounds += 1;
            }
        }
        if let Some(rtt) = rs.rtt {
            self.current_round_min_rtt = Some(self.current_round_min_rtt.map_or(rtt, |m| m.min(rtt)));
            self.rtt_sample_count += 1;
        }
    }

    /// The slow-start window `grown` as HyStart++ lets it grow from `w`;
    /// sets ssthresh when it ends slow start.
    fn grow(&mut self, w: &mut Window, grown: u32) -> u32 {
        let enough = self.rtt_sample_count >= N_RTT_SAMPLE;
        match (self.css_baseline, self.current_round_min_rtt, self.last_round_min_rtt) {
            (None, Some(current), Some(last)) if enough => {
                let thresh = Duration::from_ps(last.as_ps() / MIN_RTT_DIVISOR).clamp(MIN_RTT_THRESH, MAX_RTT_THRESH);
                if current >= last + thresh {
                    self.css_baseline = Some(current);
                    self.css_rounds = 0;
                }
            }
            (Some(baseline), Some(current), _) if enough && current < baseline => {
                // The rise was spurious: back to slow start.
                self.css_baseline = None;
            }
            _ => {}
        }
        if self.css_baseline.is_none() {
            return grown;
        }
        if self.css_rounds >= CSS_ROUNDS {
            w.ssthresh = w.cwnd; // on to congestion avoidance
            return w.cwnd;
        }
        w.cwnd + (grown - w.cwnd) / CSS_GROWTH_DIVISOR
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{conn, context, window};
    use super::super::CcKind;
    use super::*;

    const MSS: u32 = 1000;

    fn cubic() -> Cubic {
        Cubic::new(&context(10), &CcParams::default())
    }

    fn at(ms: u64, srtt_ms: u64) -> Conn {
        Conn { now: Instant::from_ps(ms * 1_000_000_000), srtt: Some(Duration::from_millis(srtt_ms)), ..conn(MSS, 0) }
    }

    #[test]
    fn w_cubic_follows_rfc_9438_equation_1() {
        // W_max 100 segments, beta 0.7: the epoch starts at 70 segments and
        // K = cbrt(30 / 0.4) = 4.2172 s.
        let mut cc = cubic();
        let mut w = window(100 * MSS, u32::MAX / 2);
        w.ssthresh = cc.ssthresh(&w, &at(0, 100));
        assert_eq!(w.ssthresh, 70 * MSS);
        w.cwnd = w.ssthresh;
        cc.cong_avoid(&mut w, &at(1000, 100), MSS);
        assert!((cc.epoch.k - 4.217_163).abs() < 1e-6, "K = {}", cc.epoch.k);
        // At t = 0: 70; at t = K: W_max; at t = 6 s: 0.4 (1.7828)^3 + 100.
        assert!((cc.w_cubic(0.0) - 70.0).abs() < 1e-9);
        assert!((cc.w_cubic(cc.epoch.k) - 100.0).abs() < 1e-9);
        assert!((cc.w_cubic(6.0) - 102.266_5).abs() < 1e-3, "{}", cc.w_cubic(6.0));
        assert!((cc.w_cubic(2.0) - 95.6403).abs() < 1e-3, "{}", cc.w_cubic(2.0));
    }

    #[test]
    fn each_ack_moves_cwnd_a_cwnd_th_of_the_way_to_the_target_one_rtt_ahead() {
        // The epoch after a loss at W_max = 100 began at t = 1 s from 70
        // segments (K = 4.2172 s). An ACK at t = 3 s with srtt 100 ms aims at
        // W_cubic(2.1) = 0.4 (2.1 - 4.2172)^3 + 100 = 96.2034 segments and
        // moves (96.2034 - 70) / 70 = 0.37433 of a segment.
        let mut cc = cubic();
        cc.reno_friendly = false;
        cc.epoch = Epoch {
            w_max: 100.0,
            cwnd_prior: 100.0,
            start: Some(Instant::from_ps(1_000_000_000_000)),
            k: 4.217_163_326_508_746,
            w_est: 70.0,
        };
        let mut w = window(70 * MSS, 70 * MSS);
        cc.cong_avoid(&mut w, &at(3000, 100), MSS);
        assert_eq!(w.cwnd, 70 * MSS + 374);
    }

    #[test]
    fn the_target_is_at_most_one_and_a_half_cwnd() {
        let mut cc = cubic();
        let mut w = window(10 * MSS, 0);
        cc.epoch.w_max = 10.0;
        cc.reno_friendly = false;
        cc.cong_avoid(&mut w, &at(0, 100), MSS);
        // 100 s later W_cubic is far above: growth is (15 - 10) / 10 segment.
        cc.cong_avoid(&mut w, &at(100_000, 100), MSS);
        assert_eq!(w.cwnd, 10 * MSS + 500);
    }

    #[test]
    fn in_the_reno_friendly_region_cwnd_follows_w_est() {
        // Right after a loss at 100 segments W_cubic barely moves (70.0 at
        // t = 0); W_est grows by alpha_cubic = 3 (0.3) / 1.7 = 0.5294
        // segment per window of ACKs, and cwnd with it.
        let mut cc = cubic();
        let mut w = window(100 * MSS, u32::MAX / 2);
        w.ssthresh = cc.ssthresh(&w, &at(0, 1));
        w.cwnd = w.ssthresh;
        for _ in 0..70 {
            cc.cong_avoid(&mut w, &at(1, 1), MSS);
        }
        // Each ACK adds 0.5294 / cwnd with cwnd rising from 70 to 70.53.
        assert!((cc.epoch.w_est - 70.5275).abs() < 5e-4, "{}", cc.epoch.w_est);
        assert!(w.cwnd.abs_diff((cc.epoch.w_est * 1000.0) as u32) <= 1, "{} {}", w.cwnd, cc.epoch.w_est);
    }

    #[test]
    fn fast_convergence_remembers_a_smaller_w_max() {
        let mut cc = cubic();
        cc.epoch.w_max = 100.0;
        cc.ssthresh(&window(80 * MSS, 0), &conn(MSS, 0));
        assert!((cc.epoch.w_max - 80.0 * 1.7 / 2.0).abs() < 1e-9, "W_max = cwnd (1 + beta) / 2");
        let mut p = CcParams::default();
        p.set(CcKind::Cubic, "fast_convergence", 0.0).unwrap();
        let mut plain = Cubic::new(&context(10), &p);
        plain.epoch.w_max = 100.0;
        plain.ssthresh(&window(80 * MSS, 0), &conn(MSS, 0));
        assert_eq!(plain.epoch.w_max, 80.0);
    }

    #[test]
    fn after_a_timeout_the_epoch_starts_on_its_plateau() {
        let mut cc = cubic();
        let mut w = window(100 * MSS, u32::MAX / 2);
        w.ssthresh = cc.ssthresh(&w, &at(0, 100));
        w.cwnd = MSS;
        cc.cwnd_event(&mut w, &at(0, 100), CwndEvent::Rto);
        w.cwnd = 70 * MSS; // slow start reached ssthresh
        cc.cong_avoid(&mut w, &at(5000, 100), MSS);
        assert_eq!((cc.epoch.k, cc.epoch.w_max), (0.0, 70.0));
    }

    #[test]
    fn undo_restores_the_epoch_before_the_event() {
        let mut cc = cubic();
        let mut w = window(100 * MSS, u32::MAX / 2);
        cc.cong_avoid(&mut w, &at(0, 100), MSS);
        let epoch = cc.epoch;
        let before = w;
        w.ssthresh = cc.ssthresh(&w, &at(10, 100));
        w.cwnd = w.ssthresh;
        cc.undo(&mut w, &at(20, 100), &before);
        assert_eq!((cc.epoch, w.cwnd, w.ssthresh), (epoch, before.cwnd, before.ssthresh));
    }

    #[test]
    fn no_growth_when_the_window_does_not_limit_sending() {
        let mut cc = cubic();
        let mut w = window(10 * MSS, u32::MAX / 2);
        cc.cong_avoid(&mut w, &Conn { cwnd_limited: false, ..at(0, 100) }, MSS);
        assert_eq!(w.cwnd, 10 * MSS);
    }

    fn sample(delivered_before: u64, rtt_ms: u64) -> RateSample {
        RateSample {
            prior_delivered: Some(delivered_before),
            rtt: Some(Duration::from_millis(rtt_ms)),
            acked_sacked: MSS,
            ..RateSample::default()
        }
    }

    /// One slow-start round of `n` ACKs with RTT `rtt_ms`, each acknowledging
    /// a segment sent in the previous round.
    fn round(cc: &mut Cubic, w: &mut Window, delivered: &mut u64, n: u64, rtt_ms: u64) {
        let round_start = *delivered;
        for _ in 0..n {
            *delivered += u64::from(MSS);
            let c = Conn { delivered: *delivered, ..at(0, rtt_ms) };
            cc.pkts_acked(&c, &sample(round_start, rtt_ms));
            cc.cong_avoid(w, &c, MSS);
        }
    }

    /// Slow start from 10 segments: rounds of 10 and 20 ACKs at 100 ms,
    /// then one of 40 at `rtt_ms`.
    fn rising(rtt_ms: u64) -> (Cubic, Window, u64) {
        let (mut cc, mut w, mut delivered) = (cubic(), window(10 * MSS, u32::MAX / 2), 0);
        round(&mut cc, &mut w, &mut delivered, 10, 100);
        round(&mut cc, &mut w, &mut delivered, 20, 100);
        round(&mut cc, &mut w, &mut delivered, 40, rtt_ms);
        (cc, w, delivered)
    }

    #[test]
    fn hystart_moves_to_conservative_slow_start_when_the_round_rtt_rises_by_the_threshold() {
        // The threshold is clamp(100 ms / 8, 4 ms, 16 ms) = 12.5 ms.
        let (cc, w, _) = rising(112);
        assert!(cc.hystart.unwrap().css_baseline.is_none());
        assert_eq!(w.cwnd, 80 * MSS, "slow start: a segment per ACK");
        // At 113 ms the 8th sample of the round starts CSS: 7 ACKs grow by
        // a segment, the other 33 by a quarter.
        let (mut cc, mut w, mut delivered) = rising(113);
        assert_eq!(cc.hystart.unwrap().css_baseline, Some(Duration::from_millis(113)));
        assert_eq!(w.cwnd, 55_250, "10 + 10 + 20 + 7 + 33 / 4 segments");
        let grown = w.cwnd;
        round(&mut cc, &mut w, &mut delivered, 8, 113);
        assert_eq!(w.cwnd - grown, 8 * MSS / 4);
    }

    #[test]
    fn hystart_ends_slow_start_after_five_css_rounds() {
        let mut cc = cubic();
        let mut w = window(10 * MSS, u32::MAX / 2);
        let mut delivered = 0;
        round(&mut cc, &mut w, &mut delivered, 10, 100);
        round(&mut cc, &mut w, &mut delivered, 10, 100);
        for _ in 0..6 {
            round(&mut cc, &mut w, &mut delivered, 10, 120);
        }
        // 10 -> 20 -> 30, then at 120 ms 7 ACKs of slow start (37) and 3 of
        // CSS (37.75), four CSS rounds of 10 quarters (47.75), and the fifth
        // round's first ACK ends slow start there.
        assert_eq!(w.ssthresh, 47_750);
        assert!(w.cwnd > w.ssthresh, "the rest of the round grew in avoidance");
    }
}
