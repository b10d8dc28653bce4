//! Packets a dequeue-time discipline holds until the transmitter takes
//! them (CoDel, FQ-CoDel, PIE): such a discipline decides a packet's fate
//! when it leaves, so the channel cannot book its departure on arrival.

use crate::packet::NodeId;
use crate::pool::PacketId;
use ackclock_core::Instant;
use std::collections::VecDeque;

/// A waiting packet, stamped with when it joined the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    pub packet: PacketId,
    pub size: u32,
    pub flow: u32,
    /// Source and destination nodes (ns-2's DRR and SFQ hash them).
    pub src: NodeId,
    pub dst: NodeId,
    pub ecn_capable: bool,
    pub enqueued: Instant,
}

/// A first-in first-out queue of held packets that counts its bytes.
#[derive(Clone, Debug, Default)]
pub struct Fifo {
    packets: VecDeque<Held>,
    bytes: u64,
}

impl Fifo {
    pub fn push(&mut self, p: Held) {
        self.bytes += u64::from(p.size);
        self.packets.push_back(p);
    }

    pub fn pop(&mut self) -> Option<Held> {
        let p = self.packets.pop_front()?;
        self.bytes -= u64::from(p.size);
        Some(p)
    }

    /// The size of the packet at the head.
    pub fn front_size(&self) -> Option<u32> {
        self.packets.front().map(|p| p.size)
    }

    pub fn len(&self) -> usize {
        self.packets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Everything held, in queue order, leaving the queue empty.
    pub fn drain(&mut self) -> impl Iterator<Item = Held> + '_ {
        self.bytes = 0;
        self.packets.drain(..)
    }
}
