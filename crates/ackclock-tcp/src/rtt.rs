//! RFC 6298 round-trip estimation and retransmission timeout, or ns-2's
//! tick-counting version of it.

use ackclock_core::{Duration, Instant};

/// ns-2's estimator: a sample counts the ticks a clock with a random phase
/// (`boot_time_`) crosses between send and ACK; srtt and rttvar are tick
/// counts in fixed point with 3 and 2 fractional bits, and the RTO is
/// srtt + 4 rttvar truncated to whole ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ns2Clock {
    phase: Duration,
    state: Ns2Rtt,
    /// `t_rtxcur_` in ticks: the last sample's srtt + 4 rttvar, unbounded.
    rtxcur_ticks: Option<i64>,
}

/// ns-2's estimator variables: `t_rtt_`, the last sample in ticks, and
/// `t_srtt_` and `t_rttvar_`, ticks in fixed point with 3 and 2 fractional
/// bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ns2Rtt {
    pub rtt: i64,
    pub srtt8: i64,
    pub rttvar4: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RttEstimator {
    srtt: Option<Duration>,
    rttvar: Duration,
    /// The RTO before backoff and before `min_rto` applies.
    base_rto: Duration,
    backoff: u32,
    min_rto: Duration,
    /// RFC 6298 (and ns-2's `rfc2988_` true): `min_rto` bounds the RTO
    /// before backoff doubles it. Otherwise it bounds the doubled RTO
    /// (ns-2's `rfc2988_` false).
    min_before_backoff: bool,
    max_rto: Duration,
    granularity: Duration,
    ns2: Option<Ns2Clock>,
}

impl RttEstimator {
    pub fn new(initial_rto: Duration, min_rto: Duration, max_rto: Duration, granularity: Duration) -> Self {
        RttEstimator {
            srtt: None,
            rttvar: Duration::ZERO,
            base_rto: initial_rto,
            backoff: 0,
            min_rto,
            min_before_backoff: true,
            max_rto,
            granularity: granularity.max(Duration::from_ps(1)),
            ns2: None,
        }
    }

    /// Whether `min_rto` bounds the RTO before backoff doubles it (the
    /// default) or the doubled RTO.
    pub fn set_min_before_backoff(&mut self, before: bool) {
        self.min_before_backoff = before;
    }

    /// Estimates as ns-2 does, with the tick clock's phase in [0, granularity).
    /// Before the first sample rttvar is ns-2's `rttvar_init_`, 12 s (it
    /// shows only in `rttvar_`: the first sample replaces it).
    pub fn use_ns2_clock(&mut self, phase: Duration) {
        let rttvar4 = ((12 * Duration::from_secs(1).as_ps() / self.granularity.as_ps()) as i64) << 2;
        self.ns2 = Some(Ns2Clock { phase, state: Ns2Rtt { rtt: 0, srtt8: 0, rttvar4 }, rtxcur_ticks: None });
    }

    /// ns-2's `t_rtxcur_` in seconds, as ns-2 computes it (ticks times the
    /// tick as a double): the RTO of the last sample before backoff and any
    /// bound, or before the first sample the initial RTO.
    pub fn ns2_rtxcur(&self) -> f64 {
        match self.ns2 {
            Some(Ns2Clock { rtxcur_ticks: Some(ticks), .. }) => ticks as f64 * (self.granularity.as_ps() as f64 / 1e12),
            _ => self.base_rto.as_ps() as f64 / 1e12,
        }
    }

    /// ns-2's variables, with ns-2's clock.
    pub fn ns2_state(&self) -> Option<Ns2Rtt> {
        self.ns2.map(|c| c.state)
    }

    /// What the RTO is multiplied by now (ns-2's `t_backoff_`).
    pub fn backoff_factor(&self) -> u64 {
        1 << self.backoff.min(30)
    }

    pub fn srtt(&self) -> Option<Duration> {
        self.srtt
    }

    pub fn rttvar(&self) -> Duration {
        self.rttvar
    }

    /// The current timeout, with exponential backoff, at most `max_rto`.
    #[inline]
    pub fn rto(&self) -> Duration {
        let factor = 1u64 << self.backoff.min(30);
        let rto = if self.min_before_backoff {
            self.base_rto.max(self.min_rto) * factor
        } else {
            (self.base_rto * factor).max(self.min_rto)
        };
        rto.min(self.max_rto)
    }

    /// The timeout before backoff and before `min_rto` applies (ns-2's
    /// `t_rtxcur_`).
    pub fn base_rto(&self) -> Duration {
        self.base_rto
    }

    /// RFC 6298 (5.5): the timer expired; double the timeout.
    pub fn back_off(&mut self) {
        if self.rto() < self.max_rto {
            self.backoff += 1;
        }
        // ns-2's `rtt_backoff`: backed off beyond 8 times, srtt is no longer
        // trusted; it moves into rttvar, and the next sample starts afresh.
        if let Some(c) = self.ns2.as_mut().filter(|_| self.backoff > 3) {
            c.state.rttvar4 += c.state.srtt8 >> 3;
            c.state.srtt8 = 0;
        }
    }

    /// How many times the timer is backed off, and setting it back to
    /// that (ns-2 keeps a backoff through some samples, ecn.rs).
    pub fn backoff_count(&self) -> u32 {
        self.backoff
    }

    pub fn restore_backoff(&mut self, count: u32) {
        self.backoff = count;
    }

    /// A measurement that acknowledged new data ends any backoff (5.7 note).
    pub fn clear_backoff(&mut self) {
        self.backoff = 0;
    }

    /// Feeds a sample taken under Karn's rule (never from a retransmission):
    /// `rtt` for a segment sent at `sent`.
    pub fn sample(&mut self, sent: Instant, rtt: Duration) {
        match self.ns2 {
            Some(clock) => self.ns2_sample(clock, sent, rtt),
            None => self.rfc_sample(rtt),
        }
        self.backoff = 0;
    }

    /// RFC 6298, with the sample first rounded down to whole clock ticks, as
    /// a coarse-grained TCP clock would measure it.
    fn rfc_sample(&mut self, rtt: Duration) {
        let g = self.granularity.as_ps();
        let r = Duration::from_ps(rtt.as_ps() / g * g);
        match self.srtt {
            None => {
                // RFC 6298 (2.2)
                self.srtt = Some(r);
                self.rttvar = Duration::from_ps(r.as_ps() / 2);
            }
            Some(srtt) => {
                // RFC 6298 (2.3): beta = 1/4, alpha = 1/8.
                let err = srtt.as_ps().abs_diff(r.as_ps());
                self.rttvar = Duration::from_ps((3 * self.rttvar.as_ps() + err) / 4);
                self.srtt = Some(Duration::from_ps((7 * srtt.as_ps() + r.as_ps()) / 8));
            }
        }
        let srtt = self.srtt.expect("just set");
        let spread = self.granularity.max(self.rttvar * 4);
        // RFC 6298 (2.4), (2.5)
        self.base_rto = (srtt + spread).min(self.max_rto);
    }

    /// ns-2's `rtt_update` (tcp.cc) with `rttvar_exp_` 2.
    fn ns2_sample(&mut self, mut c: Ns2Clock, sent: Instant, rtt: Duration) {
        let tick = self.granularity.as_ps();
        let offset = (sent.as_ps() + c.phase.as_ps()) % tick;
        let ticks = (((rtt.as_ps() + offset) / tick) as i64).max(1);
        let s = &mut c.state;
        s.rtt = ticks;
        if s.srtt8 == 0 {
            s.srtt8 = ticks << 3;
            s.rttvar4 = ticks << 1;
        } else {
            let delta = ticks - (s.srtt8 >> 3);
            s.srtt8 = (s.srtt8 + delta).max(1);
            let delta = delta.abs() - (s.rttvar4 >> 2);
            s.rttvar4 = (s.rttvar4 + delta).max(1);
        }
        let s = c.state;
        self.ns2 = Some(c);
        self.srtt = Some(Duration::from_ps(s.srtt8 as u64 * tick / 8));
        self.rttvar = Duration::from_ps(s.rttvar4 as u64 * tick / 4);
        let rto_ticks = ((s.rttvar4 << 3) + s.srtt8) >> 3;
        if let Some(c) = self.ns2.as_mut() {
            c.rtxcur_ticks = Some(rto_ticks);
        }
        let rto = Duration::from_ps(rto_ticks as u64 * tick);
        self.base_rto = rto.max(self.granularity * 2).min(self.max_rto);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est() -> RttEstimator {
        RttEstimator::new(
            Duration::from_secs(1),
            Duration::from_millis(200),
            Duration::from_secs(60),
            Duration::from_millis(1),
        )
    }

    #[test]
    fn first_sample_sets_srtt_and_half_variance() {
        let mut e = est();
        e.sample(Instant::ZERO, Duration::from_millis(100));
        assert_eq!(e.srtt(), Some(Duration::from_millis(100)));
        assert_eq!(e.rttvar(), Duration::from_millis(50));
        assert_eq!(e.rto(), Duration::from_millis(300));
    }

    #[test]
    fn later_samples_use_the_rfc_gains() {
        let mut e = est();
        e.sample(Instant::ZERO, Duration::from_millis(100));
        e.sample(Instant::ZERO, Duration::from_millis(200));
        // rttvar = 3/4 * 50 + 1/4 * 100 = 62.5; srtt = 7/8 * 100 + 1/8 * 200 = 112.5
        assert_eq!(e.rttvar(), Duration::from_ps(62_500_000_000));
        assert_eq!(e.srtt(), Some(Duration::from_ps(112_500_000_000)));
        assert_eq!(e.rto(), Duration::from_ps(362_500_000_000));
    }

    #[test]
    fn rto_is_clamped_to_the_minimum() {
        let mut e = est();
        e.sample(Instant::ZERO, Duration::from_millis(10));
        assert_eq!(e.rto(), Duration::from_millis(200));
    }

    #[test]
    fn backoff_doubles_up_to_the_maximum() {
        let mut e = est();
        let seen: Vec<u64> = (0..8)
            .map(|_| {
                let r = e.rto().as_ps() / 1_000_000_000_000;
                e.back_off();
                r
            })
            .collect();
        assert_eq!(seen, vec![1, 2, 4, 8, 16, 32, 60, 60]);
    }

    #[test]
    fn the_minimum_bounds_the_rto_before_backoff_or_after_it() {
        // RTO 100 ms, minimum 200 ms. RFC 6298 (ns-2's rfc2988_ true):
        // 200, 400, 800 ms; ns-2's old rule: max(100 x 2^n, 200) = 200,
        // 200, 400 ms.
        let ms = |n| Duration::from_millis(n);
        for (before, expected) in [(true, [200, 400, 800]), (false, [200, 200, 400])] {
            let mut e = RttEstimator::new(ms(100), ms(200), Duration::from_secs(60), ms(1));
            e.set_min_before_backoff(before);
            let seen: Vec<Duration> = (0..3)
                .map(|_| {
                    let r = e.rto();
                    e.back_off();
                    r
                })
                .collect();
            assert_eq!(seen, expected.map(ms).to_vec(), "min before backoff: {before}");
        }
    }

    #[test]
    fn samples_are_rounded_down_to_clock_ticks() {
        let mut e = RttEstimator::new(
            Duration::from_secs(3),
            Duration::from_millis(200),
            Duration::from_secs(60),
            Duration::from_millis(10),
        );
        e.sample(Instant::ZERO, Duration::from_millis(239));
        assert_eq!(e.srtt(), Some(Duration::from_millis(230)));
    }

    fn ns2_est(phase_ms: u64) -> RttEstimator {
        let mut e = RttEstimator::new(
            Duration::from_secs(3),
            Duration::from_millis(200),
            Duration::from_secs(60),
            Duration::from_millis(10),
        );
        e.use_ns2_clock(Duration::from_millis(phase_ms));
        e
    }

    #[test]
    fn ns2_samples_count_the_ticks_crossed_by_a_phased_clock() {
        // Sent at 0.121 s with phase 5 ms: the clock reads 0.126, 4 ms past a
        // tick, so 237 ms later it has crossed 24 ticks (rather than 23).
        let mut e = ns2_est(5);
        e.sample(Instant::from_ps(121_000_000_000), Duration::from_millis(237));
        assert_eq!(e.srtt(), Some(Duration::from_millis(240)));
        // rttvar = 12 ticks; RTO = 24 + 4 * 12 = 72 ticks.
        assert_eq!(e.rto(), Duration::from_millis(720));
    }

    #[test]
    fn ns2_fixed_point_updates_truncate_like_tcp_cc() {
        let mut e = ns2_est(0);
        e.sample(Instant::ZERO, Duration::from_millis(100)); // srtt8 80, rttvar4 20
        e.sample(Instant::ZERO, Duration::from_millis(200)); // delta 10: srtt8 90; |10| - 5: rttvar4 25
        assert_eq!(e.srtt(), Some(Duration::from_ps(112_500_000_000)));
        assert_eq!(e.rttvar(), Duration::from_ps(62_500_000_000));
        // ((25 << 3) + 90) >> 3 = 36 ticks
        assert_eq!(e.rto(), Duration::from_millis(360));
    }

    #[test]
    fn ns2_backoff_beyond_eight_restarts_the_estimate_at_the_next_sample() {
        let mut e = ns2_est(0);
        assert_eq!(e.ns2_state().map(|s| (s.srtt8, s.rttvar4)), Some((0, 4800)), "rttvar_init_ 12 s");
        e.sample(Instant::ZERO, Duration::from_millis(250)); // srtt8 200, rttvar4 50: RTO 75 ticks
        for _ in 0..3 {
            e.back_off();
        }
        assert_eq!((e.backoff_factor(), e.ns2_state().map(|s| (s.srtt8, s.rttvar4))), (8, Some((200, 50))));
        e.back_off();
        // 16 times: srtt (25 ticks) moves into rttvar, srtt is cleared; the
        // RTO keeps its base until the next sample.
        assert_eq!((e.backoff_factor(), e.ns2_state().map(|s| (s.srtt8, s.rttvar4))), (16, Some((0, 75))));
        assert_eq!(e.rto(), Duration::from_millis(750 * 16));
        // Afresh: srtt 20 ticks, rttvar 10, RTO 60 ticks (updated, it would be 67).
        e.sample(Instant::ZERO, Duration::from_millis(200));
        assert_eq!(e.ns2_state(), Some(Ns2Rtt { rtt: 20, srtt8: 160, rttvar4: 40 }));
        assert_eq!(e.rto(), Duration::from_millis(600));
    }
}
