//! A log-linear histogram of picosecond values for delay percentiles.
//!
//! Values below 128 ps are exact; above, each power of two is split into
//! 128 buckets, so a reported percentile is within 0.4% of a true sample.
//! Memory grows with the range of values seen, never with their number.

const SUB_BITS: u32 = 7;
const SUB: u64 = 1 << SUB_BITS;

#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    counts: Vec<u64>,
    total: u64,
    sum: u128,
    /// u64::MAX while empty.
    min: u64,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram { counts: Vec::new(), total: 0, sum: 0, min: u64::MAX, max: 0 }
    }
}

#[inline]
fn bucket_of(v: u64) -> usize {
    if v < SUB {
        return v as usize;
    }
    let msb = 63 - v.leading_zeros();
    let shift = msb - SUB_BITS;
    let sub = (v >> shift) - SUB;
    (SUB + u64::from(shift) * SUB + sub) as usize
}

/// The [low, high] range of values in bucket `i`.
fn bucket_range(i: usize) -> (u64, u64) {
    let i = i as u64;
    if i < SUB {
        return (i, i);
    }
    let shift = (i - SUB) / SUB;
    let sub = (i - SUB) % SUB;
    let low = (SUB + sub) << shift;
    (low, low + ((1u64 << shift) - 1))
}

impl Histogram {
    /// Inlined: the engine records every delivered packet's delay.
    #[inline]
    pub fn record(&mut self, v: u64) {
        let b = bucket_of(v);
        match self.counts.get_mut(b) {
            Some(count) => *count += 1,
            None => self.grow_to(b),
        }
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        self.total += 1;
        self.sum += u128::from(v);
    }

    #[cold]
    fn grow_to(&mut self, bucket: usize) {
        self.counts.resize(bucket + 1, 0);
        self.counts[bucket] = 1;
    }

    pub fn mean(&self) -> Option<f64> {
        (self.total > 0).then(|| self.sum as f64 / self.total as f64)
    }

    pub fn max(&self) -> Option<u64> {
        (self.total > 0).then_some(self.max)
    }

    /// The value below which a fraction `q` (0..=1) of samples lie: the
    /// middle of the bucket holding the ceil(q n)-th smallest sample,
    /// clamped to the observed range.
    pub fn quantile(&self, q: f64) -> Option<u64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                let (low, high) = bucket_range(i);
                return Some((low + (high - low) / 2).clamp(self.min, self.max));
            }
        }
        Some(self.max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn small_values_are_exact() {
        let mut h = Histogram::default();
        for v in 1..=100 {
            h.record(v);
        }
        assert_eq!(h.quantile(0.5), Some(50));
        assert_eq!(h.quantile(0.99), Some(99));
        assert_eq!(h.quantile(1.0), Some(100));
        assert_eq!(h.mean(), Some(50.5));
    }

    proptest! {
        #[test]
        fn every_value_lies_in_its_bucket(v in any::<u64>()) {
            let (low, high) = bucket_range(bucket_of(v));
            prop_assert!(low <= v && v <= high);
        }

        #[test]
        fn quantiles_are_within_half_a_percent(values in prop::collection::vec(1u64..1_000_000_000_000, 1..300), q in 0.0f64..1.0) {
            let mut h = Histogram::default();
            for &v in &values { h.record(v); }
            let mut sorted = values.clone();
            sorted.sort();
            let rank = ((q * values.len() as f64).ceil() as usize).max(1);
            let truth = sorted[rank - 1] as f64;
            let got = h.quantile(q).unwrap() as f64;
            prop_assert!((got - truth).abs() <= truth * 0.004 + 1.0, "q {} got {} truth {}", q, got, truth);
        }
    }
}
