//! Links that change during a run: one-off changes at given times (ns-2's
//! `rtmodel-at`, ns-3's `SetDown`/`SetUp`) and links that fail and recover
//! over and over (ns-2's `rtmodel Deterministic` and `Exponential`).

use ackclock_core::{Bandwidth, Duration, Instant, SimRng};
use rand_distr::{Distribution, Exp1};

/// What happens to a link direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkChange {
    /// Everything queued or on the wire is lost and packets offered are
    /// dropped until the link comes back up.
    Down,
    Up,
    /// The rate changes; the packet being sent finishes at the old rate.
    Bandwidth(Bandwidth),
}

/// How long a failing link stays up and down (ns-2's `upInterval_` and
/// `downInterval_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureTiming {
    Deterministic {
        up: Duration,
        down: Duration,
    },
    /// Exponentially distributed periods with these means.
    Exponential {
        up_mean: Duration,
        down_mean: Duration,
    },
}

/// A link that fails and recovers over and over (ns-2's `rtmodel`): up
/// from `start` for an up period, then down for a down period, and so on.
/// Nothing happens after `finish`, except that a link down then is
/// brought back up at `finish`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailureModel {
    pub timing: FailureTiming,
    pub start: Instant,
    pub finish: Option<Instant>,
}

impl FailureModel {
    /// ns-2's defaults: start 0.5 s, up 10 s and down 1 s on average
    /// (Exponential) or exactly up 2 s and down 1 s (Deterministic).
    pub fn ns2(exponential: bool) -> Self {
        let s = Duration::from_millis;
        let timing = if exponential {
            FailureTiming::Exponential { up_mean: s(10_000), down_mean: s(1000) }
        } else {
            FailureTiming::Deterministic { up: s(2000), down: s(1000) }
        };
        FailureModel { timing, start: Instant::from_ps(500_000_000_000), finish: None }
    }

    /// The first change: the link goes down after its first up period.
    pub fn first(&self, rng: &mut SimRng) -> Option<(Instant, LinkChange)> {
        self.limited(self.start + self.period(LinkChange::Up, rng), LinkChange::Down)
    }

    /// The change that follows `applied`, made at `now`.
    pub fn next(&self, now: Instant, applied: LinkChange, rng: &mut SimRng) -> Option<(Instant, LinkChange)> {
        let following = if applied == LinkChange::Down { LinkChange::Up } else { LinkChange::Down };
        self.limited(now + self.period(applied, rng), following)
    }

    /// How long the link stays in the state `entered`.
    fn period(&self, entered: LinkChange, rng: &mut SimRng) -> Duration {
        let (up, down, exponential) = match self.timing {
            FailureTiming::Deterministic { up, down } => (up, down, false),
            FailureTiming::Exponential { up_mean, down_mean } => (up_mean, down_mean, true),
        };
        let length = if entered == LinkChange::Down { down } else { up };
        if exponential {
            let draw: f64 = Exp1.sample(rng);
            Duration::from_secs_f64(length.as_secs_f64() * draw)
        } else {
            length
        }
    }

    fn limited(&self, at: Instant, change: LinkChange) -> Option<(Instant, LinkChange)> {
        match self.finish {
            Some(finish) if at > finish => (change == LinkChange::Up).then_some((finish, LinkChange::Up)),
            _ => Some((at, change)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::RngStreams;

    fn changes(model: FailureModel, limit: usize) -> Vec<(f64, LinkChange)> {
        let mut rng = RngStreams::new(1, 0).stream("test");
        let mut out = Vec::new();
        let mut next = model.first(&mut rng);
        while let Some((at, change)) = next.filter(|_| out.len() < limit) {
            out.push((at.as_secs_f64(), change));
            next = model.next(at, change, &mut rng);
        }
        out
    }

    #[test]
    fn deterministic_failures_alternate_from_start_plus_one_up_period() {
        use LinkChange::{Down, Up};
        let got = changes(FailureModel::ns2(false), 4);
        assert_eq!(got, vec![(2.5, Down), (3.5, Up), (5.5, Down), (6.5, Up)]);
    }

    #[test]
    fn a_link_down_at_finish_comes_back_up_then() {
        use LinkChange::{Down, Up};
        let model = FailureModel { finish: Some(Instant::from_secs_f64(6.0)), ..FailureModel::ns2(false) };
        assert_eq!(changes(model, 10), vec![(2.5, Down), (3.5, Up), (5.5, Down), (6.0, Up)]);
        let model = FailureModel { finish: Some(Instant::from_secs_f64(5.0)), ..FailureModel::ns2(false) };
        assert_eq!(changes(model, 10), vec![(2.5, Down), (3.5, Up)], "up at finish: nothing more");
    }

    #[test]
    fn exponential_periods_have_the_given_means() {
        let model = FailureModel { start: Instant::ZERO, ..FailureModel::ns2(true) };
        let got = changes(model, 20_000);
        let (mut up, mut down) = (Vec::new(), Vec::new());
        let mut last = 0.0;
        for &(t, change) in &got {
            if change == LinkChange::Down {
                up.push(t - last)
            } else {
                down.push(t - last)
            }
            last = t;
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        // 10 000 samples each: the standard error of the mean is 1% of it.
        assert!((mean(&up) - 10.0).abs() < 0.4, "{}", mean(&up));
        assert!((mean(&down) - 1.0).abs() < 0.04, "{}", mean(&down));
    }
}
