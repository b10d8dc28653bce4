//! Packets in the network, stored once and named by a small handle.
//!
//! A packet is written into the pool when it is sent and freed when it is
//! delivered or dropped; channels and the engine pass only its `PacketId`.
//! Moving a 4-byte handle through every queue instead of the whole packet
//! (with its TCP options, over a hundred bytes) is what keeps a hop cheap,
//! and freed slots are reused last-in first-out, so the packets being
//! handled stay in cache.

use crate::packet::Packet;
use std::ops::{Index, IndexMut};

/// Names a packet in a [`PacketPool`] until it is freed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacketId(u32);

/// Channel tests name their packets by number, without a pool.
#[cfg(test)]
impl PacketId {
    pub(crate) fn new(raw: u32) -> Self {
        PacketId(raw)
    }

    pub(crate) fn raw(self) -> u32 {
        self.0
    }
}

#[derive(Default)]
pub struct PacketPool {
    slots: Vec<Packet>,
    free: Vec<PacketId>,
}

impl PacketPool {
    pub fn insert(&mut self, packet: Packet) -> PacketId {
        match self.free.pop() {
            Some(id) => {
                self.slots[id.0 as usize] = packet;
                id
            }
            None => {
                self.slots.push(packet);
                PacketId((self.slots.len() - 1) as u32)
            }
        }
    }

    /// Frees the packet's slot; its id must not be used again.
    pub fn free(&mut self, id: PacketId) {
        debug_assert!((id.0 as usize) < self.slots.len(), "freeing an id the pool never gave out");
        self.free.push(id);
    }

    /// Packets inserted and not yet freed.
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

impl Index<PacketId> for PacketPool {
    type Output = Packet;
    fn index(&self, id: PacketId) -> &Packet {
        &self.slots[id.0 as usize]
    }
}

impl IndexMut<PacketId> for PacketPool {
    fn index_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.slots[id.0 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{Ecn, Ipv4Header, Transport, UdpHeader};
    use ackclock_core::Instant;

    fn packet(uid: u64) -> Packet {
        Packet {
            uid,
            ip: Ipv4Header { src: 0, dst: 1, ttl: 64, ecn: Ecn::NotEct },
            transport: Transport::Udp(UdpHeader { src_port: 1, dst_port: 2 }),
            size: 100,
            flow: 0,
            seq: uid,
            created: Instant::ZERO,
        }
    }

    #[test]
    fn freed_slots_are_reused_last_in_first_out() {
        let mut pool = PacketPool::default();
        let ids: Vec<_> = (0..3).map(|uid| pool.insert(packet(uid))).collect();
        pool.free(ids[0]);
        pool.free(ids[2]);
        assert_eq!(pool.live(), 1);
        assert_eq!(pool.insert(packet(7)), ids[2], "the most recently freed slot first");
        assert_eq!(pool.insert(packet(8)), ids[0]);
        assert_eq!(pool.live(), 3);
        assert_eq!((pool[ids[0]].uid, pool[ids[1]].uid, pool[ids[2]].uid), (8, 1, 7));
    }
}
