//! Simulated time as integer picoseconds.
//!
//! `Instant` is a point on the simulated clock, `Duration` a span; they are
//! distinct types so that adding two instants does not compile. A `u64` of
//! picoseconds covers about 213 days.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Sub};

pub const PS_PER_SEC: u64 = 1_000_000_000_000;

/// A span of simulated time in picoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(u64);

/// A point in simulated time: picoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant(u64);

impl Duration {
    pub const ZERO: Duration = Duration(0);
    pub const MAX: Duration = Duration(u64::MAX);

    pub const fn from_ps(ps: u64) -> Self {
        Duration(ps)
    }
    pub const fn from_nanos(ns: u64) -> Self {
        Duration(ns * 1_000)
    }
    pub const fn from_micros(us: u64) -> Self {
        Duration(us * 1_000_000)
    }
    pub const fn from_millis(ms: u64) -> Self {
        Duration(ms * 1_000_000_000)
    }
    pub const fn from_secs(s: u64) -> Self {
        Duration(s * PS_PER_SEC)
    }
    /// Rounds to the nearest picosecond; negative and NaN inputs give zero.
    pub fn from_secs_f64(s: f64) -> Self {
        Duration((s * PS_PER_SEC as f64).round().max(0.0) as u64)
    }
    pub const fn as_ps(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_SEC as f64
    }
    pub fn saturating_sub(self, other: Duration) -> Duration {
        Duration(self.0.saturating_sub(other.0))
    }
}

impl Instant {
    pub const ZERO: Instant = Instant(0);
    pub const MAX: Instant = Instant(u64::MAX);

    pub const fn from_ps(ps: u64) -> Self {
        Instant(ps)
    }
    pub fn from_secs_f64(s: f64) -> Self {
        Instant(Duration::from_secs_f64(s).0)
    }
    pub const fn as_ps(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_SEC as f64
    }
    /// The span from `earlier` to `self`, or zero if `earlier` is later.
    pub fn saturating_since(self, earlier: Instant) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }
}

impl Add<Duration> for Instant {
    type Output = Instant;
    /// Saturates at `Instant::MAX`, which the engine treats as "never".
    fn add(self, d: Duration) -> Instant {
        Instant(self.0.saturating_add(d.0))
    }
}

impl AddAssign<Duration> for Instant {
    fn add_assign(&mut self, d: Duration) {
        *self = *self + d;
    }
}

impl Sub for Instant {
    type Output = Duration;
    fn sub(self, earlier: Instant) -> Duration {
        debug_assert!(earlier <= self, "time went backwards: {earlier:?} > {self:?}");
        Duration(self.0 - earlier.0)
    }
}

impl Add for Duration {
    type Output = Duration;
    fn add(self, o: Duration) -> Duration {
        Duration(self.0.saturating_add(o.0))
    }
}

impl AddAssign for Duration {
    fn add_assign(&mut self, o: Duration) {
        *self = *self + o;
    }
}

impl Sub for Duration {
    type Output = Duration;
    fn sub(self, o: Duration) -> Duration {
        Duration(self.0 - o.0)
    }
}

impl Mul<u64> for Duration {
    type Output = Duration;
    fn mul(self, k: u64) -> Duration {
        Duration(self.0.saturating_mul(k))
    }
}

impl fmt::Display for Instant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.9}s", self.as_secs_f64())
    }
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.9}s", self.as_secs_f64())
    }
}

/// A link rate in bits per second (decimal units, as ns-2: 1 Mb = 1e6 bit/s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bandwidth(u64);

impl Bandwidth {
    /// `None` for zero: a link must move bits.
    pub const fn from_bps(bps: u64) -> Option<Self> {
        if bps == 0 {
            None
        } else {
            Some(Bandwidth(bps))
        }
    }
    pub const fn bps(self) -> u64 {
        self.0
    }
    /// Time to serialize `bytes` onto the wire, rounded to the nearest
    /// picosecond (exact whenever the rate divides 8e12 * bytes).
    pub fn tx_time(self, bytes: u32) -> Duration {
        // 64-bit division is several times cheaper than 128-bit, and the
        // numerator fits in 64 bits for any packet under about 2 MB.
        match (u64::from(bytes) * 8).checked_mul(PS_PER_SEC).and_then(|n| n.checked_add(self.0 / 2)) {
            Some(num) => Duration(num / self.0),
            None => {
                let num = u128::from(bytes) * 8 * u128::from(PS_PER_SEC) + u128::from(self.0 / 2);
                Duration((num / u128::from(self.0)) as u64)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialization_time_is_exact_to_the_picosecond() {
        let r = Bandwidth::from_bps(800_000).unwrap();
        assert_eq!(r.tx_time(1000), Duration::from_millis(10));
        let r = Bandwidth::from_bps(10_000_000).unwrap();
        assert_eq!(r.tx_time(1040), Duration::from_ps(832_000_000));
        // 28.8 kbit/s: 40 bytes = 320 bits = 11.111... ms, rounded to nearest ps.
        let r = Bandwidth::from_bps(28_800).unwrap();
        assert_eq!(r.tx_time(40), Duration::from_ps(11_111_111_111));
    }

    #[test]
    fn zero_bandwidth_is_refused() {
        assert!(Bandwidth::from_bps(0).is_none());
    }

    #[test]
    fn instant_arithmetic_saturates_at_never() {
        assert_eq!(Instant::MAX + Duration::from_secs(1), Instant::MAX);
        assert_eq!(Instant::from_ps(5) - Instant::from_ps(2), Duration::from_ps(3));
        assert_eq!(Instant::from_ps(2).saturating_since(Instant::from_ps(5)), Duration::ZERO);
    }
}
