//! Packets waiting at a node for a route to their destination (ns-2's
//! AODV keeps such a queue, `rqueue`: 64 packets for at most 30 s).

use crate::packet::NodeId;
use crate::pool::PacketId;
use ackclock_core::{Duration, Instant};
use std::collections::VecDeque;

/// A bounded FIFO of packets without a route. When it is full the oldest
/// packet makes room; a packet that waited `timeout` is dropped.
#[derive(Clone, Debug, Default)]
pub struct RouteQueue {
    capacity: usize,
    timeout: Duration,
    /// (deadline, destination, packet), oldest first.
    packets: VecDeque<(Instant, NodeId, PacketId)>,
}

impl RouteQueue {
    /// A queue of `capacity` packets (0: packets without a route are
    /// dropped at once).
    pub fn new(capacity: usize, timeout: Duration) -> Self {
        RouteQueue { capacity, timeout, packets: VecDeque::new() }
    }

    /// Puts a packet for `dst` in the queue; returns the packet dropped to
    /// make room (the oldest, or this one when the capacity is zero).
    pub fn push(&mut self, now: Instant, dst: NodeId, packet: PacketId) -> Option<PacketId> {
        if self.capacity == 0 {
            return Some(packet);
        }
        let displaced = (self.packets.len() == self.capacity).then(|| self.packets.pop_front()).flatten();
        self.packets.push_back((now + self.timeout, dst, packet));
        displaced.map(|(_, _, p)| p)
    }

    /// Takes the packets for `dst`, oldest first.
    pub fn take_for(&mut self, dst: NodeId) -> Vec<PacketId> {
        let mut taken = Vec::new();
        self.packets.retain(|&(_, d, p)| {
            let keep = d != dst;
            if !keep {
                taken.push(p);
            }
            keep
        });
        taken
    }

    /// Takes the packets whose time is up by `now`.
    pub fn expire(&mut self, now: Instant) -> Vec<PacketId> {
        let mut expired = Vec::new();
        while let Some(&(_, _, p)) = self.packets.front().filter(|e| e.0 <= now) {
            self.packets.pop_front();
            expired.push(p);
        }
        expired
    }

    /// When the oldest packet's time is up.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.packets.front().map(|e| e.0)
    }

    pub fn len(&self) -> usize {
        self.packets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u32) -> PacketId {
        PacketId::new(n)
    }

    #[test]
    fn a_full_queue_drops_its_oldest_packet() {
        let mut q = RouteQueue::new(2, Duration::from_millis(100));
        assert_eq!(q.push(Instant::ZERO, 5, id(0)), None);
        assert_eq!(q.push(Instant::ZERO, 6, id(1)), None);
        assert_eq!(q.push(Instant::ZERO, 5, id(2)), Some(id(0)));
        assert_eq!(q.take_for(5), vec![id(2)]);
        assert_eq!(q.len(), 1);
    }

    #[test]
    fn without_capacity_nothing_waits() {
        let mut q = RouteQueue::new(0, Duration::from_millis(100));
        assert_eq!(q.push(Instant::ZERO, 5, id(0)), Some(id(0)));
        assert!(q.is_empty());
    }

    #[test]
    fn packets_leave_when_their_time_is_up() {
        let mut q = RouteQueue::new(10, Duration::from_millis(100));
        q.push(Instant::ZERO, 5, id(0));
        q.push(Instant::ZERO + Duration::from_millis(50), 5, id(1));
        assert_eq!(q.next_deadline(), Some(Instant::ZERO + Duration::from_millis(100)));
        assert_eq!(q.expire(Instant::ZERO + Duration::from_millis(99)), vec![]);
        assert_eq!(q.expire(Instant::ZERO + Duration::from_millis(100)), vec![id(0)]);
        assert_eq!(q.next_deadline(), Some(Instant::ZERO + Duration::from_millis(150)));
    }
}
