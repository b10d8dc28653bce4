//! Stochastic fair queueing as ns-2.35's `Queue/SFQ` does it (queue/sfq.cc;
//! McKenney, INFOCOM 1990), to give ns-2's numbers.
//!
//! Packets are sorted into `buckets` queues by a hash of the sum of their
//! source and destination node addresses (ns-2's `saddr + daddr`; there is
//! no perturbation). Busy queues form a ring, a queue that becomes busy
//! joining just behind the one to be served next, and each dequeue takes one
//! packet from the next queue of the ring: packet-by-packet round robin,
//! whatever the sizes. An arrival is dropped when its queue already holds
//! at least half of the room left (`maxqueue` less what waits), or when
//! fewer than `buckets` places are left and its queue holds more than the
//! fair share `maxqueue / buckets` (integer division), or when no room is
//! left.
//!
//! ```text
//!  arrival ──▶ bucket = hash(src + dst) mod buckets; left = maxqueue - waiting
//!     used >= left / 2  or  (left < buckets and used > maxqueue / buckets)  or  left <= 0 ─▶ drop it
//!     otherwise queue it; was empty? join the ring behind the next to serve
//!  dequeue: one packet from the next bucket of the ring, which then moves on
//! ```
//!
//! | parameter  | default    | range | source |
//! |------------|------------|-------|--------|
//! | `maxqueue` | 40 packets | ≥ 1   | ns-2.35 tcl/lib/ns-default.tcl `maxqueue_` (waiting packets; the one in transmission is not counted) |
//! | `buckets`  | 16         | ≥ 1   | ns-default.tcl `buckets_` |

use crate::codel::Dequeued;
use crate::drr::ns2_hash;
use crate::held::{Fifo, Held};
use crate::packet::NodeId;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SfqParams {
    /// Packets waiting in all buckets together.
    pub maxqueue: u32,
    pub buckets: u32,
}

impl Default for SfqParams {
    fn default() -> Self {
        SfqParams { maxqueue: 40, buckets: 16 }
    }
}

#[derive(Clone, Debug, Default)]
struct Bucket {
    queue: Fifo,
    next: usize,
    prev: usize,
}

#[derive(Clone, Debug)]
pub struct Sfq {
    pub params: SfqParams,
    buckets: Vec<Bucket>,
    /// The bucket to serve next.
    active: Option<usize>,
    waiting: i64,
}

impl Sfq {
    pub fn new(params: SfqParams) -> Self {
        Sfq { buckets: vec![Bucket::default(); params.buckets.max(1) as usize], params, active: None, waiting: 0 }
    }

    /// ns-2 indexes its buckets with C's `%`, which is negative (out of its
    /// array) only for src + dst = 0; that case takes the last bucket here.
    fn bucket_of(&self, src: NodeId, dst: NodeId) -> usize {
        let sum = (src as i32).wrapping_add(dst as i32);
        ns2_hash(sum, (2 << 19) - 1).rem_euclid(self.buckets.len() as i32) as usize
    }

    /// Queues `p`, or drops it into `dropped` when its bucket has had its share.
    pub fn hold(&mut self, p: Held, dropped: &mut Vec<Held>) {
        let i = self.bucket_of(p.src, p.dst);
        let used = self.buckets[i].queue.len() as i64;
        let left = i64::from(self.params.maxqueue) - self.waiting;
        let buckets = self.buckets.len() as i64;
        let fair_share = i64::from(self.params.maxqueue) / buckets;
        if used >= left >> 1 || (left < buckets && used > fair_share) || left <= 0 {
            dropped.push(p);
            return;
        }
        self.buckets[i].queue.push(p);
        self.waiting += 1;
        if used == 0 {
            self.activate(i);
        }
    }

    /// Links bucket `i` into the ring just behind the one to serve next.
    fn activate(&mut self, i: usize) {
        match self.active {
            Some(a) => {
                let last = self.buckets[a].prev;
                self.buckets[i].prev = last;
                self.buckets[i].next = a;
                self.buckets[last].next = i;
                self.buckets[a].prev = i;
            }
            None => {
                self.buckets[i].prev = i;
                self.buckets[i].next = i;
                self.active = Some(i);
            }
        }
    }

    pub fn dequeue(&mut self) -> Option<Dequeued> {
        let i = self.active?;
        let held = self.buckets[i].queue.pop().expect("a bucket in the ring holds a packet");
        self.waiting -= 1;
        let Bucket { queue, next, prev } = &self.buckets[i];
        let (next, prev) = (*next, *prev);
        if queue.is_empty() {
            self.buckets[next].prev = prev;
            self.buckets[prev].next = next;
            self.active = (next != i).then_some(next);
        } else {
            self.active = Some(next);
        }
        Some(Dequeued { held, ce_marked: false })
    }

    /// Everything held, bucket by bucket, leaving the discipline empty.
    pub fn drain(&mut self) -> Vec<Held> {
        self.active = None;
        self.waiting = 0;
        self.buckets.iter_mut().flat_map(|b| b.queue.drain().collect::<Vec<_>>()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::PacketId;
    use ackclock_core::Instant;

    fn packet(n: u32, src: NodeId, size: u32) -> Held {
        Held { packet: PacketId::new(n), size, flow: src, src, dst: 0, ecn_capable: false, enqueued: Instant::ZERO }
    }

    #[test]
    fn ns2_hash_of_the_address_sum_picks_the_bucket() {
        // (k + (k>>8) + ~(k>>4)) mod (2^20 - 1) is k - 1 for 0 < k < 16; 16 -> 14.
        let q = Sfq::new(SfqParams { buckets: 100, ..SfqParams::default() });
        let got: Vec<usize> =
            [(1, 0), (2, 3), (15, 0), (8, 8), (17, 0), (0, 0)].iter().map(|&(s, d)| q.bucket_of(s, d)).collect();
        assert_eq!(got, vec![0, 4, 14, 14, 15, 99]);
    }

    #[test]
    fn one_packet_per_bucket_per_round_whatever_the_size() {
        let mut q = Sfq::new(SfqParams { maxqueue: 100, buckets: 16 });
        let mut dropped = vec![];
        (0..3).for_each(|n| q.hold(packet(n, 1, 1500), &mut dropped));
        (3..6).for_each(|n| q.hold(packet(n, 2, 40), &mut dropped));
        q.dequeue();
        q.hold(packet(6, 3, 500), &mut dropped);
        let order: Vec<NodeId> = std::iter::from_fn(|| q.dequeue()).map(|d| d.held.src).collect();
        // After 1 is served, 2 is next; 3 joins behind 2, i.e. after 1.
        assert_eq!(order, vec![2, 1, 3, 2, 1, 2]);
        assert!(dropped.is_empty());
    }

    #[test]
    fn a_bucket_may_take_less_than_half_the_room_left() {
        // maxqueue 10, 2 buckets: from one source the 4th arrival finds
        // used 3 >= (10 - 3) / 2 = 3 and is dropped.
        let mut q = Sfq::new(SfqParams { maxqueue: 10, buckets: 2 });
        let mut dropped = vec![];
        (0..4).for_each(|n| q.hold(packet(n, 1, 1000), &mut dropped));
        assert_eq!(dropped, vec![packet(3, 1, 1000)]);
        // Another source still gets in: used 0 < 7 / 2.
        q.hold(packet(4, 2, 1000), &mut dropped);
        assert_eq!(dropped.len(), 1);
    }

    #[test]
    fn near_full_a_bucket_above_its_fair_share_is_refused() {
        // ns-2's defaults: maxqueue 40, 16 buckets, fair share 2. Source 1
        // queues 3, sources 2..=10 (buckets of their own) 3 each: 30 wait.
        let mut q = Sfq::new(SfqParams::default());
        let mut dropped = vec![];
        for (n, src) in (1..=10).flat_map(|s| [s; 3]).enumerate() {
            q.hold(packet(n as u32, src, 100), &mut dropped);
        }
        assert!(dropped.is_empty());
        // Source 1 again: used 3 < left 10 / 2, but left < 16 and 3 > 2.
        q.hold(packet(30, 1, 100), &mut dropped);
        assert_eq!(dropped, vec![packet(30, 1, 100)]);
        // Source 11's empty bucket still gets in.
        q.hold(packet(31, 11, 100), &mut dropped);
        assert_eq!(dropped.len(), 1);
    }
}
