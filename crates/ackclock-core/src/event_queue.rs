//! The pending-event set: a binary heap of order keys.
//!
//! Events run in time order, and ties at the same instant break by insertion
//! order, so a run is a pure function of its inputs. The queue refuses to
//! schedule into the past and its clock never goes backwards.
//!
//! A queue made with [`EventQueue::ns2_order`] orders events as ns-2's
//! scheduler does instead: by their time as ns-2 computes it, a double that
//! each event inherits from the one that scheduled it plus a delay (so two
//! events of the same exact instant can differ in the last bits), then by
//! insertion. ns-2 inserts an event while it runs the event that schedules
//! it (its parent), so insertion order is first the parents' order; the key
//! keeps the parent's double time for that, then ackclock's own insertion
//! order. See docs/tcl.md, "Same-instant order".

use crate::time::{Instant, PS_PER_SEC};
use std::collections::HashSet;

/// Names a scheduled event so that it can be cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventId(u64);

/// An event's place in ns-2's order: smaller runs first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OrderKey {
    /// The event's double time, then its parent's, as bit patterns (which
    /// order as the values for non-negative doubles), then the sequence.
    time: u64,
    parent: u64,
    seq: u64,
}

impl OrderKey {
    /// After every event's key: a bound that admits all of an instant.
    pub const LAST: OrderKey = OrderKey { time: u64::MAX, parent: u64::MAX, seq: u64::MAX };

    /// The key of an event at double time `time` scheduled while an event
    /// at double time `parent` ran; `seq` from [`EventQueue::reserve_seq`].
    pub fn ns2(time: f64, parent: f64, seq: u64) -> Self {
        debug_assert!(time >= 0.0 && parent >= 0.0, "times are not negative");
        OrderKey { time: time.to_bits(), parent: parent.to_bits(), seq }
    }

    /// The event's time as ns-2's double.
    pub fn ns2_time(self) -> f64 {
        f64::from_bits(self.time)
    }

    pub fn seq(self) -> u64 {
        self.seq
    }

    /// The same place, for another event that ns-2 would run right after
    /// this one, as part of it (an action of zero delay).
    pub fn then(self, seq: u64) -> Self {
        OrderKey { seq, ..self }
    }
}

/// What a heap orders its entries by.
trait HeapKey: Copy {
    fn at(&self) -> Instant;
    fn seq(&self) -> u64;
    /// Whether this runs first; written out, as derived orderings compile
    /// to a chain of `Ordering` values that costs the ns-2 heap a third.
    fn before(&self, other: &Self) -> bool;
}

/// Plain order: time in the high half, sequence in the low half, so that
/// one integer comparison orders by time, then by insertion.
#[derive(Clone, Copy)]
struct TimeKey(u128);

impl TimeKey {
    fn new(at: Instant, seq: u64) -> Self {
        TimeKey(u128::from(at.as_ps()) << 64 | u128::from(seq))
    }
}

impl HeapKey for TimeKey {
    fn at(&self) -> Instant {
        Instant::from_ps((self.0 >> 64) as u64)
    }
    fn seq(&self) -> u64 {
        self.0 as u64
    }
    #[inline(always)]
    fn before(&self, other: &Self) -> bool {
        self.0 < other.0
    }
}

/// ns-2's order, and the picosecond time to run at.
impl HeapKey for (OrderKey, Instant) {
    fn at(&self) -> Instant {
        self.1
    }
    fn seq(&self) -> u64 {
        self.0.seq
    }
    #[inline(always)]
    fn before(&self, other: &Self) -> bool {
        let (a, b) = (&self.0, &other.0);
        a.time < b.time || (a.time == b.time && (a.parent, a.seq) < (b.parent, b.seq))
    }
}

#[derive(Clone, Copy)]
struct Entry<K, E> {
    key: K,
    event: E,
}

/// A binary min-heap, hand-written: `BinaryHeap` sifts every popped
/// replacement to the bottom and back up, which costs more than it saves
/// with the handful of events (about six in the dumbbell) that a network
/// keeps pending. Events are small `Copy` values (ids into the
/// simulation's tables), which lets the heap move entries into a hole
/// instead of swapping them.
struct Heap<K, E> {
    entries: Vec<Entry<K, E>>,
    /// The root was popped but its slot not yet refilled. A handler nearly
    /// always schedules something (a channel its next arrival), and that
    /// entry then sifts down from the root: one sift per event, not two.
    root_vacant: bool,
    /// Sequence numbers of cancelled events still in the heap. Cancelling is
    /// rare (user callbacks); hot-path timers are lazy instead.
    cancelled: HashSet<u64>,
}

impl<K: HeapKey, E: Copy> Heap<K, E> {
    fn new() -> Self {
        Heap { entries: Vec::new(), root_vacant: false, cancelled: HashSet::new() }
    }

    #[inline]
    fn push(&mut self, entry: Entry<K, E>) {
        if std::mem::take(&mut self.root_vacant) {
            self.sift_down(entry);
        } else {
            self.sift_up(entry);
        }
    }

    fn cancel(&mut self, seq: u64) -> bool {
        self.settle();
        self.entries.iter().any(|e| e.key.seq() == seq) && self.cancelled.insert(seq)
    }

    #[inline(always)]
    fn peek(&mut self) -> Option<&Entry<K, E>> {
        self.settle();
        self.entries.first()
    }

    /// The root, left in place (vacant) until the next push or settle.
    #[inline]
    fn pop(&mut self) -> Option<Entry<K, E>> {
        let first = *self.peek()?;
        self.root_vacant = true;
        Some(first)
    }

    fn len(&self) -> usize {
        self.entries.len() - usize::from(self.root_vacant) - self.cancelled.len()
    }

    /// Makes the root the next live event. Inlined for the common case, in
    /// which there is nothing to do: the run loop calls it twice per event.
    #[inline(always)]
    fn settle(&mut self) {
        if self.root_vacant || !self.cancelled.is_empty() {
            self.fill_root();
            self.skip_cancelled();
        }
    }

    fn skip_cancelled(&mut self) {
        while !self.cancelled.is_empty() {
            match self.entries.first() {
                Some(e) if self.cancelled.contains(&e.key.seq()) => {
                    let seq = e.key.seq();
                    self.root_vacant = true;
                    self.fill_root();
                    self.cancelled.remove(&seq);
                }
                _ => break,
            }
        }
    }

    /// Adds `entry`, moving the parents it precedes down into its hole.
    fn sift_up(&mut self, entry: Entry<K, E>) {
        let mut hole = self.entries.len();
        self.entries.push(entry);
        while hole > 0 {
            let parent = (hole - 1) / 2;
            if !entry.key.before(&self.entries[parent].key) {
                break;
            }
            self.entries[hole] = self.entries[parent];
            hole = parent;
        }
        self.entries[hole] = entry;
    }

    /// Refills a vacant root with the last entry.
    fn fill_root(&mut self) {
        if std::mem::take(&mut self.root_vacant) {
            let last = self.entries.pop().expect("a vacant root is a slot");
            if !self.entries.is_empty() {
                self.sift_down(last);
            }
        }
    }

    /// Puts `entry` into the (vacant) root, moving the children that
    /// precede it up into its hole.
    fn sift_down(&mut self, entry: Entry<K, E>) {
        let len = self.entries.len();
        let mut hole = 0;
        loop {
            let left = 2 * hole + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child =
                if right < len && self.entries[right].key.before(&self.entries[left].key) { right } else { left };
            if !self.entries[child].key.before(&entry.key) {
                break;
            }
            self.entries[hole] = self.entries[child];
            hole = child;
        }
        self.entries[hole] = entry;
    }
}

enum Order<E> {
    Plain(Heap<TimeKey, E>),
    Ns2(Heap<(OrderKey, Instant), E>),
}

/// The pending events and the clock.
pub struct EventQueue<E> {
    order: Order<E>,
    next_seq: u64,
    now: Instant,
    popped: u64,
    /// ns-2's order: the key of the event popped last.
    current: OrderKey,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            order: Order::Plain(Heap::new()),
            next_seq: 0,
            now: Instant::ZERO,
            popped: 0,
            current: OrderKey::ns2(0.0, 0.0, 0),
        }
    }

    /// A queue that orders events as ns-2's scheduler does (see the module
    /// documentation); `schedule` then places an event by its picosecond
    /// time converted to a double, `schedule_keyed` by ns-2's own.
    pub fn ns2_order() -> Self {
        EventQueue { order: Order::Ns2(Heap::new()), ..Self::new() }
    }

    pub fn is_ns2_order(&self) -> bool {
        matches!(self.order, Order::Ns2(_))
    }

    /// ns-2's order: the key of the event popped last (before any: time zero).
    pub fn current_key(&self) -> OrderKey {
        self.current
    }

    /// A sequence number for a key made outside the queue.
    pub fn reserve_seq(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq - 1
    }

    /// ns-2's key for an event at double time `time` scheduled now.
    pub fn ns2_key(&mut self, time: f64) -> OrderKey {
        OrderKey::ns2(time, self.current.ns2_time(), self.reserve_seq())
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
        match &mut self.order {
            Order::Plain(heap) => {
                let seq = self.next_seq;
                self.next_seq += 1;
                heap.push(Entry { key: TimeKey::new(at, seq), event });
                EventId(seq)
            }
            Order::Ns2(_) => {
                let key = self.ns2_key(at.as_ps() as f64 / PS_PER_SEC as f64);
                self.schedule_keyed(at, key, event)
            }
        }
    }

    /// ns-2's order: schedules `event` to run at `at` in the place `key`
    /// gives it.
    pub fn schedule_keyed(&mut self, at: Instant, key: OrderKey, event: E) -> EventId {
        debug_assert!(at >= self.now, "scheduling into the past: {at:?} < {:?}", self.now);
        let Order::Ns2(heap) = &mut self.order else { panic!("an ns-2 key for a queue in plain order") };
        heap.push(Entry { key: (key, at.max(self.now)), event });
        EventId(key.seq)
    }

    /// Cancels a pending event. Returns false if it already ran or was
    /// cancelled before.
    pub fn cancel(&mut self, id: EventId) -> bool {
        id.0 < self.next_seq
            && match &mut self.order {
                Order::Plain(heap) => heap.cancel(id.0),
                Order::Ns2(heap) => heap.cancel(id.0),
            }
    }

    /// The time of the next live event, if any.
    pub fn peek_time(&mut self) -> Option<Instant> {
        match &mut self.order {
            Order::Plain(heap) => heap.peek().map(|e| e.key.at()),
            Order::Ns2(heap) => heap.peek().map(|e| e.key.at()),
        }
    }

    /// Removes the earliest event and advances the clock to its time.
    pub fn pop(&mut self) -> Option<(Instant, E)> {
        let (at, event) = match &mut self.order {
            Order::Plain(heap) => heap.pop().map(|e| (e.key.at(), e.event))?,
            Order::Ns2(heap) => {
                let e = heap.pop()?;
                self.current = e.key.0;
                // ns-2's order can put an event a picosecond before the last
                // one (its doubles round); the clock then stays put.
                (e.key.1.max(self.now), e.event)
            }
        };
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
        match &self.order {
            Order::Plain(heap) => heap.len(),
            Order::Ns2(heap) => heap.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
    fn ns2_order_runs_by_double_time_then_parent_then_insertion() {
        let mut q = EventQueue::ns2_order();
        let t = Instant::from_ps(10);
        // Two doubles of "the same" instant, 0.1 + 0.2 and 0.3, differ: the
        // smaller runs first, whatever was scheduled first.
        q.schedule_keyed(t, OrderKey::ns2(0.1 + 0.2, 0.0, 1), 'c');
        q.schedule_keyed(t, OrderKey::ns2(0.3, 0.2, 2), 'b');
        q.schedule_keyed(t, OrderKey::ns2(0.3, 0.1, 3), 'a');
        q.schedule_keyed(t, OrderKey::ns2(0.3, 0.2, 0), 'B');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['a', 'B', 'b', 'c']);
        assert_eq!(q.current_key(), OrderKey::ns2(0.1 + 0.2, 0.0, 1));
    }

    #[test]
    fn ns2_order_places_plain_schedules_by_their_picoseconds_as_a_double() {
        let mut q = EventQueue::ns2_order();
        q.schedule_keyed(Instant::from_ps(5), OrderKey::ns2(5e-12, 0.0, 100), "first");
        q.pop();
        // Scheduled while the event at 5 ps runs: its parent is 5 ps.
        q.schedule(Instant::from_ps(300_000_000_000), "plain");
        let key = q.ns2_key(0.3);
        q.schedule_keyed(Instant::from_ps(300_000_000_000), key, "keyed");
        let popped: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(popped, vec!["plain", "keyed"], "same double and parent: insertion order");
        assert_eq!(q.current_key().ns2_time(), 0.3);
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
