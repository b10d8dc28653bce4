//! RFC 6298 round-trip estimation and retransmission timeout.

use ackclock_core::Duration;

#[derive(Clone, Debug, PartialEq)]
pub struct RttEstimator {
    srtt: Option<Duration>,
    rttvar: Duration,
    /// The RTO before backoff.
    base_rto: Duration,
    backoff: u32,
    min_rto: Duration,
    max_rto: Duration,
    granularity: Duration,
}

impl RttEstimator {
    pub fn new(initial_rto: Duration, min_rto: Duration, max_rto: Duration, granularity: Duration) -> Self {
        RttEstimator {
            srtt: None,
            rttvar: Duration::ZERO,
            base_rto: initial_rto,
            backoff: 0,
            min_rto,
            max_rto,
            granularity: granularity.max(Duration::from_ps(1)),
        }
    }

    pub fn srtt(&self) -> Option<Duration> {
        self.srtt
    }

    pub fn rttvar(&self) -> Duration {
        self.rttvar
    }

    /// The current timeout, with exponential backoff, at most `max_rto`.
    pub fn rto(&self) -> Duration {
        let factor = 1u64 << self.backoff.min(30);
        (self.base_rto * factor).min(self.max_rto)
    }

    /// RFC 6298 (5.5): the timer expired; double the timeout.
    pub fn back_off(&mut self) {
        if self.rto() < self.max_rto {
            self.backoff += 1;
        }
    }

    /// A measurement that acknowledged new data ends any backoff (5.7 note).
    pub fn clear_backoff(&mut self) {
        self.backoff = 0;
    }

    /// Feeds a sample taken under Karn's rule (never from a retransmission).
    /// The sample is first rounded down to whole clock ticks, as a
    /// coarse-grained TCP clock would measure it.
    pub fn sample(&mut self, rtt: Duration) {
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
        self.base_rto = (srtt + spread).max(self.min_rto).min(self.max_rto);
        self.backoff = 0;
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
        e.sample(Duration::from_millis(100));
        assert_eq!(e.srtt(), Some(Duration::from_millis(100)));
        assert_eq!(e.rttvar(), Duration::from_millis(50));
        assert_eq!(e.rto(), Duration::from_millis(300));
    }

    #[test]
    fn later_samples_use_the_rfc_gains() {
        let mut e = est();
        e.sample(Duration::from_millis(100));
        e.sample(Duration::from_millis(200));
        // rttvar = 3/4 * 50 + 1/4 * 100 = 62.5; srtt = 7/8 * 100 + 1/8 * 200 = 112.5
        assert_eq!(e.rttvar(), Duration::from_ps(62_500_000_000));
        assert_eq!(e.srtt(), Some(Duration::from_ps(112_500_000_000)));
        assert_eq!(e.rto(), Duration::from_ps(362_500_000_000));
    }

    #[test]
    fn rto_is_clamped_to_the_minimum() {
        let mut e = est();
        e.sample(Duration::from_millis(10));
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
    fn samples_are_rounded_down_to_clock_ticks() {
        let mut e = RttEstimator::new(
            Duration::from_secs(3),
            Duration::from_millis(200),
            Duration::from_secs(60),
            Duration::from_millis(10),
        );
        e.sample(Duration::from_millis(239));
        assert_eq!(e.srtt(), Some(Duration::from_millis(230)));
    }
}
