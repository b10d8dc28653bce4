//! Deficit round robin as ns-2.35's `Queue/DRR` does it (queue/drr.cc;
//! Shreedhar & Varghese, SIGCOMM 1995), to give ns-2's numbers.
//!
//! Packets are sorted into `buckets` queues by a hash of their source node
//! alone (ns-2's `saddr`; with `mask` its low four bits are cleared first),
//! so all flows from one node share a queue. Busy queues form a ring, a
//! queue that becomes busy joining just behind the one being served. The
//! served queue gets `quantum` bytes of credit once per visit and sends
//! while its head fits in the credit; a queue that empties loses its credit.
//! While more than `blimit` bytes wait, the head of the queue holding the
//! most bytes is dropped (the first such from the served queue on, round
//! the ring), which may be the packet that just arrived.
//!
//! ns-2's quirks kept: a bucket emptied by such a drop keeps its "credit
//! given this visit" flag, so when it next becomes busy it first waits a
//! visit without credit; hash collisions share a queue (ns-2 only warns).
//!
//! ```text
//!  arrival ──▶ bucket = hash(src) mod buckets ──▶ was empty? join the ring behind the served one, credit 0
//!              while waiting bytes > blimit: drop the head of the fattest bucket
//!  dequeue: served bucket: first look this visit? credit += quantum
//!     head fits in credit ─▶ credit -= size, send it (an emptied bucket leaves the ring, credit 0)
//!     otherwise           ─▶ serve the next bucket of the ring
//! ```
//!
//! | parameter | default | range | source |
//! |-----------|---------|-------|--------|
//! | `buckets` | 10      | ≥ 1   | ns-2.35 tcl/lib/ns-default.tcl `buckets_` (the C++ constructor's 16 is overridden) |
//! | `blimit`  | 25000 B | ≥ 0   | ns-default.tcl `blimit_`: bytes waiting, the packet in transmission not counted |
//! | `quantum` | 250 B   | ≥ 1   | ns-default.tcl `quantum_` |
//! | `mask`    | off     |       | ns-default.tcl `mask_` (hash the node address with its low 4 bits cleared) |

use crate::codel::Dequeued;
use crate::held::{Fifo, Held};
use crate::packet::NodeId;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrrParams {
    pub buckets: u32,
    /// Bytes waiting in all buckets together.
    pub blimit: u64,
    pub quantum: u32,
    pub mask: bool,
}

impl Default for DrrParams {
    fn default() -> Self {
        DrrParams { buckets: 10, blimit: 25000, quantum: 250, mask: false }
    }
}

#[derive(Clone, Debug, Default)]
struct Bucket {
    queue: Fifo,
    credit: i64,
    /// Credit was given on the current visit.
    turn: bool,
    next: usize,
    prev: usize,
}

/// A ring of bucket indices, linked through the buckets, as ns-2 keeps it.
#[derive(Clone, Debug)]
pub struct Drr {
    pub params: DrrParams,
    buckets: Vec<Bucket>,
    /// The bucket being served.
    current: Option<usize>,
    busy: usize,
    bytes: u64,
}

/// ns-2's bucket hash of a node address (C `int` arithmetic).
pub(crate) fn ns2_hash(address: i32, prime: i32) -> i32 {
    address.wrapping_add(address >> 8).wrapping_add(!(address >> 4)) % prime
}

impl Drr {
    pub fn new(params: DrrParams) -> Self {
        Drr {
            buckets: vec![Bucket::default(); params.buckets.max(1) as usize],
            params,
            current: None,
            busy: 0,
            bytes: 0,
        }
    }

    fn bucket_of(&self, src: NodeId) -> usize {
        let address = src as i32;
        let address = if self.params.mask { address & 0xfff0 } else { address };
        let h = ns2_hash(address, (2 << 23) - 1) + 1;
        h.rem_euclid(self.buckets.len() as i32) as usize
    }

    /// Links bucket `i` into the ring just behind the served bucket.
    fn activate(&mut self, i: usize) {
        match self.current {
            Some(c) => {
                let last = self.buckets[c].prev;
                self.buckets[i].prev = last;
                self.buckets[i].next = c;
                self.buckets[last].next = i;
                self.buckets[c].prev = i;
            }
            None => {
                self.buckets[i].prev = i;
                self.buckets[i].next = i;
                self.current = Some(i);
            }
        }
        self.busy += 1;
    }

    /// Unlinks bucket `i` from the ring; service moves on if it was served.
    fn idle(&mut self, i: usize) {
        let Bucket { next, prev, .. } = self.buckets[i];
        self.buckets[next].prev = prev;
        self.buckets[prev].next = next;
        if self.current == Some(i) {
            self.current = (next != i).then_some(next);
        }
        self.busy -= 1;
    }

    /// Queues `p`; while too many bytes wait, drops into `dropped`.
    pub fn hold(&mut self, p: Held, dropped: &mut Vec<Held>) {
        let i = self.bucket_of(p.src);
        self.buckets[i].queue.push(p);
        self.bytes += u64::from(p.size);
        if self.buckets[i].queue.len() == 1 {
            self.activate(i);
            self.buckets[i].credit = 0;
        }
        while self.bytes > self.params.blimit {
            let fattest = self.fattest();
            let victim = self.buckets[fattest].queue.pop().expect("a busy bucket holds a packet");
            self.bytes -= u64::from(victim.size);
            dropped.push(victim);
            if self.buckets[fattest].queue.is_empty() {
                self.idle(fattest);
            }
        }
    }

    /// The busy bucket holding the most bytes, the first from the served one.
    fn fattest(&self) -> usize {
        let start = self.current.expect("bytes wait, so a bucket is busy");
        let (mut best, mut at) = (start, start);
        for _ in 0..self.busy {
            if self.buckets[at].queue.bytes() > self.buckets[best].queue.bytes() {
                best = at;
            }
            at = self.buckets[at].next;
        }
        best
    }

    pub fn dequeue(&mut self) -> Option<Dequeued> {
        loop {
            let i = self.current?;
            let quantum = i64::from(self.params.quantum);
            let b = &mut self.buckets[i];
            if !b.turn {
                b.credit += quantum;
                b.turn = true;
            }
            let size = i64::from(b.queue.front_size().expect("a busy bucket holds a packet"));
            if b.credit < size {
                b.turn = false;
                self.current = Some(b.next);
                continue;
            }
            b.credit -= size;
            let held = b.queue.pop().expect("a busy bucket holds a packet");
            self.bytes -= u64::from(held.size);
            if b.queue.is_empty() {
                b.turn = false;
                b.credit = 0;
                self.idle(i);
            }
            return Some(Dequeued { held, ce_marked: false });
        }
    }

    /// Everything held, bucket by bucket, leaving the discipline empty.
    pub fn drain(&mut self) -> Vec<Held> {
        self.current = None;
        self.busy = 0;
        self.bytes = 0;
        self.buckets.iter_mut().flat_map(|b| b.queue.drain().collect::<Vec<_>>()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::PacketId;
    use ackclock_core::Instant;

    fn packet(n: u32, src: NodeId, size: u32) -> Held {
        Held { packet: PacketId::new(n), size, flow: src, src, dst: 9, ecn_capable: false, enqueued: Instant::ZERO }
    }

    fn sources(q: &mut Drr, n: usize) -> Vec<NodeId> {
        (0..n).map_while(|_| q.dequeue()).map(|d| d.held.src).collect()
    }

    #[test]
    fn ns2_hash_puts_small_node_addresses_in_their_own_bucket() {
        // (i + (i>>8) + ~(i>>4)) mod (2^24 - 1) + 1 is i for i < 16; 16 -> 15, 32 -> 30.
        let q = Drr::new(DrrParams { buckets: 100, ..DrrParams::default() });
        let got: Vec<usize> = [0, 1, 5, 15, 16, 17, 32].iter().map(|&s| q.bucket_of(s)).collect();
        assert_eq!(got, vec![0, 1, 5, 15, 15, 16, 30]);
        let masked = Drr::new(DrrParams { buckets: 100, mask: true, ..DrrParams::default() });
        assert_eq!(masked.bucket_of(5), 0, "mask clears the low four bits");
    }

    #[test]
    fn credit_of_one_quantum_per_visit_sends_in_byte_proportion() {
        // quantum 500: source 1 (500 B) sends one per visit, source 2
        // (250 B) two; source 3 (1000 B) gathers credit over two visits.
        let mut q = Drr::new(DrrParams { quantum: 500, blimit: 100_000, ..DrrParams::default() });
        let mut dropped = vec![];
        for n in 0..4 {
            q.hold(packet(n, 1, 500), &mut dropped);
            q.hold(packet(10 + n, 2, 250), &mut dropped);
            q.hold(packet(20 + n, 3, 1000), &mut dropped);
        }
        assert_eq!(sources(&mut q, 9), vec![1, 2, 2, 1, 2, 2, 3, 1, 1]);
        assert!(dropped.is_empty());
    }

    #[test]
    fn past_the_byte_limit_the_fattest_bucket_loses_its_head() {
        let mut q = Drr::new(DrrParams { blimit: 3000, ..DrrParams::default() });
        let mut dropped = vec![];
        q.hold(packet(0, 1, 1000), &mut dropped);
        q.hold(packet(1, 1, 1000), &mut dropped);
        q.hold(packet(2, 2, 1000), &mut dropped);
        assert!(dropped.is_empty(), "3000 bytes is not above the limit");
        q.hold(packet(3, 2, 500), &mut dropped);
        assert_eq!(dropped, vec![packet(0, 1, 1000)], "bucket 1 holds 2000 B, bucket 2 1500 B");
        q.hold(packet(4, 3, 1500), &mut dropped);
        assert_eq!(dropped[1..], [packet(2, 2, 1000)], "a tie goes to the first from the served bucket: 2 before 3");
        assert_eq!(q.drain().len(), 3);
    }

    #[test]
    fn a_bucket_emptied_by_a_drop_waits_one_visit_without_credit() {
        let mut q = Drr::new(DrrParams { blimit: 1400, quantum: 1000, ..DrrParams::default() });
        let mut dropped = vec![];
        q.hold(packet(0, 1, 400), &mut dropped);
        q.hold(packet(1, 1, 1000), &mut dropped);
        assert_eq!(sources(&mut q, 1), vec![1], "bucket 1 got its credit this visit");
        q.hold(packet(2, 2, 500), &mut dropped);
        assert_eq!(dropped, vec![packet(1, 1, 1000)], "bucket 1 (1000 B) was the fattest");
        q.hold(packet(3, 1, 200), &mut dropped);
        q.hold(packet(4, 3, 200), &mut dropped);
        // The ring is 2, 1, 3; bucket 1 still has its flag from the visit
        // cut short, so its first visit gives no credit and 3 goes first.
        assert_eq!(sources(&mut q, 4), vec![2, 3, 1]);
    }
}
