//! Out-of-order data held by the receiver, as disjoint byte ranges.
//!
//! Payloads are virtual, so reassembly only tracks which offsets arrived.

/// Sorted, disjoint, non-adjacent [start, end) ranges of stream offsets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ranges {
    ranges: Vec<(u64, u64)>,
    /// Bytes covered, kept so that asking costs nothing.
    bytes: u64,
}

impl Ranges {
    /// Adds [start, end), merging with overlapping or adjacent ranges.
    pub fn insert(&mut self, start: u64, end: u64) {
        if start >= end {
            return;
        }
        let first = self.ranges.partition_point(|&(_, e)| e < start);
        let mut merged = (start, end);
        let mut last = first;
        while last < self.ranges.len() && self.ranges[last].0 <= end {
            let (s, e) = self.ranges[last];
            self.bytes -= e - s;
            merged.0 = merged.0.min(s);
            merged.1 = merged.1.max(e);
            last += 1;
        }
        self.bytes += merged.1 - merged.0;
        self.ranges.splice(first..last, std::iter::once(merged));
    }

    /// Removes and returns the end of the range touching `offset`, if the
    /// first range starts at or before it (the next in-order data).
    pub fn take_contiguous(&mut self, offset: u64) -> Option<u64> {
        match self.ranges.first() {
            Some(&(s, e)) if s <= offset => {
                self.ranges.remove(0);
                self.bytes -= e - s;
                Some(e.max(offset))
            }
            _ => None,
        }
    }

    /// Drops everything below `offset`.
    pub fn discard_below(&mut self, offset: u64) {
        let bytes = &mut self.bytes;
        self.ranges.retain_mut(|r| {
            let start = r.0.max(offset);
            *bytes -= start.min(r.1) - r.0;
            r.0 = start;
            r.0 < r.1
        });
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    pub fn as_slice(&self) -> &[(u64, u64)] {
        &self.ranges
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn overlapping_and_adjacent_ranges_merge() {
        let mut r = Ranges::default();
        r.insert(10, 20);
        r.insert(30, 40);
        r.insert(20, 25);
        assert_eq!(r.as_slice(), &[(10, 25), (30, 40)]);
        r.insert(5, 35);
        assert_eq!(r.as_slice(), &[(5, 40)]);
        assert_eq!(r.bytes(), 35);
    }

    #[test]
    fn take_contiguous_only_returns_the_touching_range() {
        let mut r = Ranges::default();
        r.insert(10, 20);
        assert_eq!(r.take_contiguous(5), None);
        assert_eq!(r.take_contiguous(10), Some(20));
        assert!(r.is_empty());
    }

    proptest! {
        #[test]
        fn ranges_cover_exactly_the_inserted_bytes(inserts in prop::collection::vec((0u64..200, 1u64..30), 0..40)) {
            let mut r = Ranges::default();
            let mut covered = [false; 240];
            for &(s, len) in &inserts {
                r.insert(s, s + len);
                for c in covered.iter_mut().skip(s as usize).take(len as usize) { *c = true; }
            }
            prop_assert_eq!(r.bytes(), covered.iter().filter(|&&c| c).count() as u64);
            prop_assert_eq!(r.bytes(), r.as_slice().iter().map(|&(s, e)| e - s).sum::<u64>());
            r.discard_below(100);
            prop_assert_eq!(r.bytes(), covered.iter().skip(100).filter(|&&c| c).count() as u64);
            for w in r.as_slice().windows(2) {
                prop_assert!(w[0].1 < w[1].0, "ranges must be disjoint and non-adjacent");
            }
        }
    }
}
