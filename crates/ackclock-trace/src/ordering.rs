//! Puts records produced out of time order back in order.
//!
//! A channel knows when a packet will start transmission the moment it is
//! queued, so its `-` record is produced early. Records wait here until
//! the simulation clock passes their time. Ties at one instant go by the
//! order key of the event that writes the record in ns-2 (all equal when
//! the simulation does not run in ns-2's order), then by production order.

use ackclock_core::{Instant, OrderKey};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

struct Entry<T> {
    key: Reverse<(Instant, OrderKey, u64)>,
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
    /// Adds `item`, due at `time` in the place `place` of that instant.
    pub fn push(&mut self, time: Instant, place: OrderKey, item: T) {
        self.heap.push(Entry { key: Reverse((time, place, self.seq)), item });
        self.seq += 1;
    }

    /// Keeps only the items `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        self.heap.retain(|e| keep(&e.item));
    }

    /// Removes the earliest item if it is due by `now` at the place `place`
    /// (inclusive).
    pub fn pop_due(&mut self, now: Instant, place: OrderKey) -> Option<T> {
        let (time, at, _) = self.heap.peek()?.key.0;
        if (time, at) <= (now, place) {
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
        let place = OrderKey::ns2(0.0, 0.0, 0);
        q.push(Instant::from_ps(5), place, 'a');
        q.push(Instant::from_ps(2), place, 'b');
        q.push(Instant::from_ps(5), place, 'c');
        assert_eq!(q.pop_due(Instant::from_ps(1), OrderKey::LAST), None);
        let out: Vec<char> = std::iter::from_fn(|| q.pop_due(Instant::from_ps(10), place)).collect();
        assert_eq!(out, vec!['b', 'a', 'c']);
    }

    #[test]
    fn ties_at_an_instant_wait_for_their_place() {
        let mut q = TimeOrdered::default();
        let (t, at) = (Instant::from_ps(5), |seq| OrderKey::ns2(5e-12, 0.0, seq));
        q.push(t, at(3), "written by a later event");
        q.push(t, at(1), "written now");
        assert_eq!(q.pop_due(t, at(1)), Some("written now"));
        assert_eq!(q.pop_due(t, at(2)), None, "its event has not run yet");
        assert_eq!(q.pop_due(t, at(3)), Some("written by a later event"));
    }
}
