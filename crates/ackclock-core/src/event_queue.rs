//! The pending-event set: a binary heap of (time, sequence) keys.
//!
//! Ties at the same instant break by insertion order, so a run is a pure
//! function of its inputs. The queue refuses to schedule into the past and
//! its clock never goes backwards.

use crate::time::Instant;
use std::collections::HashSet;

/// Names a scheduled event so that it can be cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventId(u64);

#[derive(Clone, Copy)]
struct Entry<E> {
    /// Time in the high half, sequence in the low half: one integer
    /// comparison orders by time, then by insertion.
    key: u128,
    event: E,
}

impl<E> Entry<E> {
    fn new(at: Instant, seq: u64, event: E) -> Self {
        Entry { key: u128::from(at.as_ps()) << 64 | u128::from(seq), event }
    }
    fn at(&self) -> Instant {
        Instant::from_ps((self.key >> 64) as u64)
    }
    fn seq(&self) -> u64 {
        self.key as u64
    }
    fn before(&self, other: &Self) -> bool {
        self.key < other.key
    }
}

/// Events are small `Copy` values (ids into the simulation's tables), which
/// lets the heap move entries into a hole instead of swapping them.
pub struct EventQueue<E> {
    /// A binary min-heap on (time, sequence), hand-written: `BinaryHeap`
    /// sifts every popped replacement to the bottom and back up, which
    /// costs more than it saves with the handful of events (about six in
    /// the dumbbell) that a network keeps pending.
    heap: Vec<Entry<E>>,
    /// The root was popped but its slot not yet refilled. A handler nearly
    /// always schedules something (a channel its next arrival), and that
    /// entry then sifts down from the root: one sift per event, not two.
    root_vacant: bool,
    next_seq: u64,
    now: Instant,
    /// Sequence numbers of cancelled events still in the heap. Cancelling is
    /// rare (user callbacks); hot-path timers are lazy instead.
    cancelled: HashSet<u64>,
    popped: u64,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            heap: Vec::new(),
            root_vacant: false,
            next_seq: 0,
            now: Instant::ZERO,
            cancelled: HashSet::new(),
            popped: 0,
        }
    }

    /// The time of the last event popped (the simulation clock).
    pub fn now(&self) -> Instant {
        self.now
    }

    /// Number of events delivered so far.
    pub fn delivered(&self) -> u64 {
        self.popped
    }

    /// Schedules `event` at `at`; an instant in the past is clamped to now
    /// (debug builds assert, as that is a caller bug).
    pub fn schedule(&mut self, at: Instant, event: E) -> EventId {
        debug_assert!(at >= self.now, "scheduling into the past: {at:?} < {:?}", self.now);
        let at = at.max(self.now);
        let seq = self.next_seq;
        self.next_seq += 1;
        let entry = Entry::new(at, seq, event);
        if std::mem::take(&mut self.root_vacant) {
            self.sift_down(entry);
        } else {
            self.sift_up(entry);
        }
        EventId(seq)
    }

    /// Cancels a pending event. Returns false if it already ran or was
    /// cancelled before.
    pub fn cancel(&mut self, id: EventId) -> bool {
        self.settle();
        if id.0 >= self.next_seq || !self.heap.iter().any(|e| e.seq() == id.0) {
            return false;
        }
        self.cancelled.insert(id.0)
    }

    /// The time of the next live event, if any.
    pub fn peek_time(&mut self) -> Option<Instant> {
        self.settle();
        self.heap.first().map(Entry::at)
    }

    /// Removes the earliest event and advances the clock to its time.
    pub fn pop(&mut self) -> Option<(Instant, E)> {
        self.settle();
        let first = *self.heap.first()?;
        self.root_vacant = true;
        let (at, event) = (first.at(), first.event);
        assert!(at >= self.now, "event queue went backwards");
        self.now = at;
        self.popped += 1;
        Some((at, event))
    }

    /// Moves the clock forward to `t` without an event (end of a bounded run).
    pub fn advance_to(&mut self, t: Instant) {
        if t > self.now {
            self.now = t;
        }
    }

    pub fn len(&self) -> usize {
        self.heap.len() - usize::from(self.root_vacant) - self.cancelled.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Makes the root the next live event. Inlined for the common case, in
    /// which there is nothing to do: the run loop calls it twice per event.
    #[inline]
    fn settle(&mut self) {
        if self.root_vacant || !self.cancelled.is_empty() {
            self.fill_root();
            self.skip_cancelled();
        }
    }

    fn skip_cancelled(&mut self) {
        while !self.cancelled.is_empty() {
            match self.heap.first() {
                Some(e) if self.cancelled.contains(&e.seq()) => {
                    let seq = e.seq();
                    self.root_vacant = true;
                    self.fill_root();
                    self.cancelled.remove(&seq);
                }
                _ => break,
            }
        }
    }

    /// Adds `entry`, moving the parents it precedes down into its hole.
    fn sift_up(&mut self, entry: Entry<E>) {
        let mut hole = self.heap.len();
        self.heap.push(entry);
        while hole > 0 {
            let parent = (hole - 1) / 2;
            if !entry.before(&self.heap[parent]) {
                break;
            }
            self.heap[hole] = self.heap[parent];
            hole = parent;
        }
        self.heap[hole] = entry;
    }

    /// Refills a vacant root with the last entry.
    fn fill_root(&mut self) {
        if std::mem::take(&mut self.root_vacant) {
            let last = self.heap.pop().expect("a vacant root is a slot");
            if !self.heap.is_empty() {
                self.sift_down(last);
            }
        }
    }

    /// Puts `entry` into the (vacant) root, moving the children that
    /// precede it up into its hole.
    fn sift_down(&mut self, entry: Entry<E>) {
        let len = self.heap.len();
        let mut hole = 0;
        loop {
            let left = 2 * hole + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && self.heap[right].before(&self.heap[left]) { right } else { left };
            if !self.heap[child].before(&entry) {
                break;
            }
            self.heap[hole] = self.heap[child];
            hole = child;
        }
        self.heap[hole] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ties_break_by_insertion_order() {
        let mut q = EventQueue::new();
        let t = Instant::from_ps(10);
        for i in 0..5 {
            q.schedule(t, i);
        }
        q.schedule(Instant::from_ps(5), 99);
        let order: Vec<i32> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec![99, 0, 1, 2, 3, 4]);
    }

    #[test]
    fn cancelled_events_never_fire() {
        let mut q = EventQueue::new();
        let a = q.schedule(Instant::from_ps(1), 'a');
        q.schedule(Instant::from_ps(2), 'b');
        assert!(q.cancel(a));
        assert!(!q.cancel(a), "second cancel reports nothing to cancel");
        assert_eq!(q.len(), 1);
        assert_eq!(q.pop(), Some((Instant::from_ps(2), 'b')));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn cancelling_a_delivered_event_is_refused() {
        let mut q = EventQueue::new();
        let a = q.schedule(Instant::from_ps(1), ());
        q.pop();
        assert!(!q.cancel(a));
        assert!(q.is_empty());
    }

    proptest! {
        #[test]
        fn pops_are_sorted_by_time_then_insertion(times in prop::collection::vec(0u64..50, 0..200)) {
            let mut q = EventQueue::new();
            for (i, t) in times.iter().enumerate() {
                q.schedule(Instant::from_ps(*t), i);
            }
            let mut expected: Vec<(u64, usize)> = times.iter().copied().zip(0..).collect();
            expected.sort();
            let got: Vec<(u64, usize)> = std::iter::from_fn(|| q.pop().map(|(t, i)| (t.as_ps(), i))).collect();
            prop_assert_eq!(got, expected);
        }

        /// Pops interleaved with schedules (which fill the popped root's
        /// slot) deliver what a sorted list would.
        #[test]
        fn interleaved_pops_and_schedules_stay_in_order(ops in prop::collection::vec((any::<bool>(), 0u64..50), 0..300)) {
            let mut q = EventQueue::new();
            let mut reference: Vec<(u64, usize)> = Vec::new();
            for (i, (pop, dt)) in ops.into_iter().enumerate() {
                if pop {
                    reference.sort();
                    let expected = (!reference.is_empty()).then(|| reference.remove(0));
                    prop_assert_eq!(q.pop().map(|(t, e)| (t.as_ps(), e)), expected);
                } else {
                    let t = q.now().as_ps() + dt;
                    q.schedule(Instant::from_ps(t), i);
                    reference.push((t, i));
                }
                prop_assert_eq!(q.len(), reference.len());
            }
        }
    }
}
