//! Puts records produced out of time order back in order.
//!
//! A channel knows when a packet will start transmission the moment it is
//! queued, so its `-` record is produced early. Records wait here until
//! the simulation clock passes their time; ties keep production order.

use ackclock_core::Instant;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

struct Entry<T> {
    key: Reverse<(Instant, u64)>,
    item: T,
}

impl<T> PartialEq for Entry<T> {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl<T> Eq for Entry<T> {}
impl<T> PartialOrd for Entry<T> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for Entry<T> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.key.cmp(&o.key)
    }
}

pub struct TimeOrdered<T> {
    heap: BinaryHeap<Entry<T>>,
    seq: u64,
}

impl<T> Default for TimeOrdered<T> {
    fn default() -> Self {
        TimeOrdered { heap: BinaryHeap::new(), seq: 0 }
    }
}

impl<T> TimeOrdered<T> {
    pub fn push(&mut self, time: Instant, item: T) {
        self.heap.push(Entry { key: Reverse((time, self.seq)), item });
        self.seq += 1;
    }

    /// Keeps only the items `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        self.heap.retain(|e| keep(&e.item));
    }

    /// Removes the earliest item if it is due by `now`.
    pub fn pop_due(&mut self, now: Instant) -> Option<T> {
        if self.heap.peek()?.key.0 .0 <= now {
            self.heap.pop().map(|e| e.item)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_come_out_by_time_then_arrival() {
        let mut q = TimeOrdered::default();
        q.push(Instant::from_ps(5), 'a');
        q.push(Instant::from_ps(2), 'b');
        q.push(Instant::from_ps(5), 'c');
        assert_eq!(q.pop_due(Instant::from_ps(1)), None);
        let out: Vec<char> = std::iter::from_fn(|| q.pop_due(Instant::from_ps(10))).collect();
        assert_eq!(out, vec!['b', 'a', 'c']);
    }
}
