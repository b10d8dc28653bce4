//! TCP sequence numbers: 32-bit values compared modulo 2^32 (RFC 9293 §3.4).
//!
//! `SeqNum` deliberately has no `Ord`: "a < b" only means something for
//! numbers less than 2^31 apart, so comparisons are explicit methods.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SeqNum(pub u32);

impl SeqNum {
    /// Signed distance from `other` to `self`.
    pub fn diff(self, other: SeqNum) -> i32 {
        self.0.wrapping_sub(other.0) as i32
    }
    pub fn lt(self, other: SeqNum) -> bool {
        self.diff(other) < 0
    }
    pub fn le(self, other: SeqNum) -> bool {
        self.diff(other) <= 0
    }
    pub fn gt(self, other: SeqNum) -> bool {
        self.diff(other) > 0
    }
    pub fn ge(self, other: SeqNum) -> bool {
        self.diff(other) >= 0
    }
    pub fn max(self, other: SeqNum) -> SeqNum {
        if self.ge(other) {
            self
        } else {
            other
        }
    }
    pub fn min(self, other: SeqNum) -> SeqNum {
        if self.le(other) {
            self
        } else {
            other
        }
    }
}

impl Add<u32> for SeqNum {
    type Output = SeqNum;
    fn add(self, n: u32) -> SeqNum {
        SeqNum(self.0.wrapping_add(n))
    }
}

impl AddAssign<u32> for SeqNum {
    fn add_assign(&mut self, n: u32) {
        self.0 = self.0.wrapping_add(n);
    }
}

impl Sub for SeqNum {
    type Output = u32;
    /// The number of sequence numbers from `earlier` up to `self`; callers
    /// must know that `earlier` is not after `self`.
    fn sub(self, earlier: SeqNum) -> u32 {
        debug_assert!(earlier.le(self), "sequence subtraction underflow: {self:?} - {earlier:?}");
        self.0.wrapping_sub(earlier.0)
    }
}

impl fmt::Debug for SeqNum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for SeqNum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn comparisons_work_across_wraparound() {
        let a = SeqNum(u32::MAX - 10);
        let b = a + 20;
        assert_eq!(b, SeqNum(9));
        assert!(a.lt(b) && b.gt(a));
        assert_eq!(b - a, 20);
        assert_eq!(a.max(b), b);
    }

    proptest! {
        #[test]
        fn adding_then_subtracting_roundtrips(base in any::<u32>(), n in 0u32..(1 << 31)) {
            let a = SeqNum(base);
            prop_assert_eq!((a + n) - a, n);
            prop_assert!((a + n).ge(a));
        }
    }
}
