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

/// The cubic's state since the last congestion event, in whole segments
/// as Linux counts them.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Epoch {
    /// W_max: the window at the last congestion event (after fast
    /// convergence); 0 after a timeout, so the next epoch starts at K = 0.
    w_max: u32,
    /// The window just before the last reduction (cwnd_prior, §4.3).
    cwnd_prior: u32,
    /// When the current epoch (congestion avoidance since the last event)
    /// began, with K and the window the cubic is centred on; `None` until
    /// the first ACK of it.
    start: Option<Instant>,
    k: f64,
    origin: u32,
    /// W_est, the Reno-friendly window (§4.3), and the bytes acknowledged
    /// towards its next segment.
    w_est: u32,
    est_acked: u64,
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
    /// Bytes acknowledged since cwnd last grew by a segment.
    grow_acked: u64,
    /// When a hook last saw the connection (to shift the epoch over idle
    /// periods, as Linux does on CA_EVENT_TX_START).
    last_seen: Instant,
}

impl Cubic {
    pub fn new(ctx: &CcContext, params: &CcParams) -> Self {
        let epoch = Epoch { w_max: 0, cwnd_prior: 0, start: None, k: 0.0, origin: 0, w_est: 0, est_acked: 0 };
        Cubic {
            c: params.value(&PARAMS[0]),
            beta: params.value(&PARAMS[1]),
            fast_convergence: params.value(&PARAMS[2]) != 0.0,
            reno_friendly: params.value(&PARAMS[3]) != 0.0,
            epoch,
            before_event: epoch,
            slow_start: RenoGrowth::new(ctx.abc),
            hystart: (params.value(&PARAMS[4]) != 0.0).then(HyStart::default),
            grow_acked: 0,
            last_seen: Instant::ZERO,
        }
    }

    /// W_cubic(t), RFC 9438 eq. (1), in whole segments: like Linux's
    /// bictcp_update, the distance C |t - K|^3 from the plateau is
    /// truncated, so the cubic sits at W_max while it is under a segment.
    fn w_cubic(&self, t: f64) -> u32 {
        let offset = (self.c * (t - self.epoch.k).abs().powi(3)).min(f64::from(u32::MAX / 4)) as u32;
        if t < self.epoch.k {
            self.epoch.origin.saturating_sub(offset)
        } else {
            self.epoch.origin.saturating_add(offset)
        }
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

    /// Congestion avoidance for `acked` bytes, RFC 9438 §4.2-4.5: cwnd
    /// grows a segment per `cnt` segments acknowledged, cnt = cwnd /
    /// (target - cwnd) with the target W_cubic one RTT ahead (or W_est if
    /// higher), at most half a segment per segment (1.5 cwnd per RTT).
    fn avoid(&mut self, w: &mut Window, c: &Conn, acked: u32) {
        let mss = u64::from(c.mss);
        let cwnd = (w.cwnd / c.mss).max(1);
        let e = &mut self.epoch;
        if e.start.is_none() {
            // §4.2: K from the window at the epoch's start; after a timeout
            // (W_max 0) or above the old maximum, the epoch starts at its
            // plateau.
            e.start = Some(c.now);
            (e.k, e.origin) =
                if cwnd < e.w_max { ((f64::from(e.w_max - cwnd) / self.c).cbrt(), e.w_max) } else { (0.0, cwnd) };
            e.w_est = cwnd;
            e.est_acked = 0;
        }
        let start = e.start.unwrap_or(c.now);
        e.est_acked += u64::from(acked);
        let t = c.now.saturating_since(start) + c.srtt.unwrap_or(Duration::ZERO);
        let target = self.w_cubic(t.as_secs_f64());
        let mut cnt = if target > cwnd { cwnd / (target - cwnd) } else { 100 * cwnd };
        if self.reno_friendly {
            // §4.3: W_est gains alpha_cubic segments per window acknowledged.
            let per_segment = (f64::from(cwnd) / self.alpha() * mss as f64) as u64;
            let e = &mut self.epoch;
            while e.est_acked > per_segment.max(1) {
                e.est_acked -= per_segment.max(1);
                e.w_est += 1;
            }
            if e.w_est > cwnd {
                cnt = cnt.min(cwnd / (e.w_est - cwnd));
            }
        }
        let step = u64::from(cnt.max(2)) * mss;
        // Credit earned while cnt was larger is spent gently: at most one
        // segment (Linux tcp_cong_avoid_ai).
        let mut grown = 0;
        if self.grow_acked >= step {
            self.grow_acked = 0;
            grown = 1;
        }
        self.grow_acked += u64::from(acked);
        grown += self.grow_acked / step;
        self.grow_acked %= step;
        w.cwnd = (u64::from(cwnd) + grown).saturating_mul(mss).min(u64::from(u32::MAX / 2)) as u32;
    }
}

impl CongestionOps for Cubic {
    fn name(&self) -> &'static str {
        "cubic"
    }

    /// §4.6 and §4.7: a congestion event remembers W_max and keeps beta
    /// of the window, in whole segments.
    fn ssthresh(&mut self, w: &Window, c: &Conn) -> u32 {
        let cwnd = w.cwnd / c.mss;
        self.before_event = self.epoch;
        let fast = self.fast_convergence && cwnd < self.epoch.w_max;
        self.epoch.w_max = if fast { (f64::from(cwnd) * (1.0 + self.beta) / 2.0) as u32 } else { cwnd };
        self.epoch.cwnd_prior = cwnd;
        self.epoch.start = None;
        self.hystart = None; // RFC 9406 §4.3: the initial slow start only
        ((f64::from(cwnd) * self.beta) as u32).max(2) * c.mss
    }

    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        let acked = rs.acked;
        self.last_seen = c.now;
        if !c.cwnd_limited {
            return;
        }
        if w.cwnd < w.ssthresh {
            let grown = self.slow_start.grow(w, c.mss, acked);
            w.cwnd = match &mut self.hystart {
                Some(h) => h.grow(w, c.mss, grown),
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
            CwndEvent::Rto => self.epoch.w_max = 0,
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
    fn grow(&mut self, w: &mut Window, mss: u32, grown: u32) -> u32 {
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
            // On to congestion avoidance, which counts whole segments.
            w.ssthresh = w.cwnd - w.cwnd % mss;
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

    /// The epoch after a loss at W_max = 100 segments: it began at t = 1 s
    /// from 70 segments, K = cbrt(30 / 0.4) = 4.2172 s.
    fn after_loss_at_100() -> Epoch {
        Epoch {
            w_max: 100,
            cwnd_prior: 100,
            start: Some(Instant::from_ps(1_000_000_000_000)),
            k: (30.0f64 / 0.4).cbrt(),
            origin: 100,
            w_est: 70,
            est_acked: 0,
        }
    }

    #[test]
    fn w_cubic_follows_rfc_9438_equation_1_in_whole_segments() {
        let mut cc = cubic();
        let mut w = window(100 * MSS, u32::MAX / 2);
        w.ssthresh = cc.ssthresh(&w, &at(0, 100));
        assert_eq!(w.ssthresh, 70 * MSS);
        w.cwnd = w.ssthresh;
        cc.cong_avoid(&mut w, &at(1000, 100), &RateSample { acked: MSS, ..RateSample::default() });
        assert!((cc.epoch.k - 4.217_163).abs() < 1e-6, "K = {}", cc.epoch.k);
        // t = 0: 100 - 0.4 x 4.2172^3 = 100 - 30 = 70; t = 2 s: 100 - 0.4 x 2.2172^3 = 100 - 4.36 -> 96; t = 6 s: 100 +
        // 0.4 x 1.7828^3 = 100 + 2.27 -> 102; within a segment of W_max
        // (|t - K| < cbrt(1/0.4) = 1.357 s) it is W_max.
        assert_eq!([0.0, 2.0, 6.0, 3.0, 5.5].map(|t| cc.w_cubic(t)), [70, 96, 102, 100, 100]);
    }

    #[test]
    fn cwnd_grows_a_segment_per_cwnd_over_target_minus_cwnd_segments_acked() {
        // At t = 1.5 s one RTT (100 ms) ahead, t = 0.6 s into the epoch:
        // W_cubic = 100 - floor(0.4 x 3.6172^3 = 18.93) = 82, so cnt =
        // 70 / (82 - 70) = 5: the fifth segment acknowledged adds one.
        let mut cc = cubic();
        cc.reno_friendly = false;
        cc.epoch = after_loss_at_100();
        let mut w = window(70 * MSS, 70 * MSS);
        for _ in 0..4 {
            cc.cong_avoid(&mut w, &at(1500, 100), &RateSample { acked: MSS, ..RateSample::default() });
        }
        assert_eq!(w.cwnd, 70 * MSS);
        cc.cong_avoid(&mut w, &at(1500, 100), &RateSample { acked: MSS, ..RateSample::default() });
        assert_eq!(w.cwnd, 71 * MSS);
    }

    #[test]
    fn growth_is_at_most_half_a_segment_per_segment_acknowledged() {
        // 100 s on, W_cubic is far above: cnt is held at 2 (1.5 cwnd per RTT).
        let mut cc = cubic();
        cc.reno_friendly = false;
        cc.epoch = after_loss_at_100();
        let mut w = window(70 * MSS, 70 * MSS);
        cc.cong_avoid(&mut w, &at(100_000, 100), &RateSample { acked: 2 * MSS, ..RateSample::default() });
        assert_eq!(w.cwnd, 71 * MSS);
    }

    #[test]
    fn in_the_reno_friendly_region_cwnd_chases_w_est() {
        // W_est 75 above cwnd 70 with W_cubic at 82 (cnt 5): cnt =
        // min(5, 70 / (75 - 70) = 14) stays 5. With W_est 90: 70 / 20 = 3.
        let mut cc = cubic();
        cc.epoch = Epoch { w_est: 90, ..after_loss_at_100() };
        let mut w = window(70 * MSS, 70 * MSS);
        for _ in 0..2 {
            cc.cong_avoid(&mut w, &at(1500, 100), &RateSample { acked: MSS, ..RateSample::default() });
        }
        assert_eq!(w.cwnd, 70 * MSS);
        cc.cong_avoid(&mut w, &at(1500, 100), &RateSample { acked: MSS, ..RateSample::default() });
        assert_eq!(w.cwnd, 71 * MSS);
        // W_est itself gains a segment per cwnd / alpha_cubic = 70 / 0.5294
        // = 132.2 segments acknowledged.
        let mut cc = cubic();
        cc.epoch = after_loss_at_100();
        let mut w = window(70 * MSS, 70 * MSS);
        for _ in 0..133 {
            cc.cong_avoid(&mut w, &at(1000, 1), &RateSample { acked: MSS, ..RateSample::default() });
            w.cwnd = 70 * MSS;
        }
        assert_eq!(cc.epoch.w_est, 71);
    }

    #[test]
    fn fast_convergence_remembers_a_smaller_w_max() {
        let mut cc = cubic();
        cc.epoch.w_max = 100;
        cc.ssthresh(&window(80 * MSS, 0), &conn(MSS, 0));
        assert_eq!(cc.epoch.w_max, 68, "W_max = cwnd (1 + beta) / 2 = 80 x 0.85");
        cc.ssthresh(&window(68 * MSS + 999, 0), &conn(MSS, 0));
        assert_eq!(cc.epoch.w_max, 68, "a part of a segment is not below W_max");
        let mut p = CcParams::default();
        p.set(CcKind::Cubic, "fast_convergence", 0.0).unwrap();
        let mut plain = Cubic::new(&context(10), &p);
        plain.epoch.w_max = 100;
        plain.ssthresh(&window(80 * MSS, 0), &conn(MSS, 0));
        assert_eq!(plain.epoch.w_max, 80);
    }

    #[test]
    fn after_a_timeout_the_epoch_starts_on_its_plateau() {
        let mut cc = cubic();
        let mut w = window(100 * MSS, u32::MAX / 2);
        w.ssthresh = cc.ssthresh(&w, &at(0, 100));
        w.cwnd = MSS;
        cc.cwnd_event(&mut w, &at(0, 100), CwndEvent::Rto);
        w.cwnd = 70 * MSS; // slow start reached ssthresh
        cc.cong_avoid(&mut w, &at(5000, 100), &RateSample { acked: MSS, ..RateSample::default() });
        assert_eq!((cc.epoch.k, cc.epoch.origin), (0.0, 70));
    }

    #[test]
    fn undo_restores_the_epoch_before_the_event() {
        let mut cc = cubic();
        let mut w = window(100 * MSS, u32::MAX / 2);
        cc.cong_avoid(&mut w, &at(0, 100), &RateSample { acked: MSS, ..RateSample::default() });
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
        cc.cong_avoid(
            &mut w,
            &Conn { cwnd_limited: false, ..at(0, 100) },
            &RateSample { acked: MSS, ..RateSample::default() },
        );
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
            cc.cong_avoid(w, &c, &RateSample { acked: MSS, ..RateSample::default() });
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
        // round's first ACK ends slow start at 47 whole segments.
        assert_eq!(w.ssthresh, 47_000);
        // The rest of the round is avoidance, from a cubic on its plateau
        // (no W_max yet: K = 0), flat while C t^3 is under a segment.
        assert_eq!(w.cwnd, 47_000);
    }
}
