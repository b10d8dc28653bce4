//! Extra random delay added to a link direction's propagation delay.

use ackclock_core::{Duration, SimRng};
use rand::RngExt;
use rand_distr::{Distribution, Exp};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JitterDistribution {
    Exponential { mean: Duration },
    Uniform { low: Duration, high: Duration },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Jitter {
    pub distribution: JitterDistribution,
    /// Whether a packet may overtake an earlier one. When false, a packet
    /// that would arrive before its predecessor waits for it (FIFO link).
    pub reorder: bool,
}

impl Jitter {
    pub fn sample(&self, rng: &mut SimRng) -> Duration {
        match self.distribution {
            JitterDistribution::Exponential { mean } if mean == Duration::ZERO => Duration::ZERO,
            JitterDistribution::Exponential { mean } => {
                let exp = Exp::new(1.0).expect("rate 1 is valid");
                let x: f64 = exp.sample(rng);
                Duration::from_ps((x * mean.as_ps() as f64).round() as u64)
            }
            JitterDistribution::Uniform { low, high } => {
                Duration::from_ps(rng.random_range(low.as_ps()..=high.as_ps().max(low.as_ps())))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::RngStreams;

    #[test]
    fn exponential_jitter_has_the_requested_mean() {
        let j =
            Jitter { distribution: JitterDistribution::Exponential { mean: Duration::from_millis(5) }, reorder: true };
        let mut rng = RngStreams::new(9, 0).stream("jitter");
        let n = 100_000u64;
        let total: f64 = (0..n).map(|_| j.sample(&mut rng).as_secs_f64()).sum();
        let mean = total / n as f64;
        // sd of the sample mean = 5 ms / sqrt(n) ~ 0.016 ms.
        assert!((mean - 0.005).abs() < 0.0001, "mean {mean}");
    }

    #[test]
    fn uniform_jitter_stays_in_range() {
        let (low, high) = (Duration::from_millis(1), Duration::from_millis(3));
        let j = Jitter { distribution: JitterDistribution::Uniform { low, high }, reorder: false };
        let mut rng = RngStreams::new(9, 0).stream("jitter");
        assert!((0..10_000).map(|_| j.sample(&mut rng)).all(|d| d >= low && d <= high));
    }
}
