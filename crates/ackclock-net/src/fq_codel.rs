//! FQ-CoDel (RFC 8290; Linux's `fq_codel`): flow queueing with CoDel on
//! each queue.
//!
//! Packets are sorted into `flows` queues by flow (the simulation's flow
//! number modulo `flows`, where Linux hashes the 5-tuple); a deficit round
//! robin serves the queues `quantum` bytes per round, and a queue that
//! becomes active joins a list of new flows served before the old ones,
//! so sparse flows (ACKs, DNS, a game) pass a standing queue of bulk
//! traffic. Each queue runs its own CoDel control loop; its "more than an
//! MTU waiting" test counts the whole discipline's backlog, as Linux does.
//! When `limit` packets wait, the head of the queue holding the most bytes
//! is dropped (RFC 8290 §4.1; Linux drops up to 64 at once).
//!
//! ```text
//!  arrival ──▶ queue (flow mod flows) ──▶ empty? join new_flows, deficit = quantum
//!  dequeue: head of new_flows, else of old_flows
//!     deficit <= 0      ─▶ deficit += quantum, move to the tail of old_flows
//!     CoDel gives none  ─▶ a new flow moves to old_flows (if any), an old one leaves
//!     CoDel gives p     ─▶ deficit -= size(p), send p
//! ```
//!
//! | parameter  | default | range | source |
//! |------------|---------|-------|--------|
//! | `target`   | 5 ms    | > 0   | RFC 8290 §5.2.1 |
//! | `interval` | 100 ms  | > 0   | RFC 8290 §5.2.2 |
//! | `quantum`  | 1514 B  | ≥ 1   | RFC 8290 §5.1 (Linux: the interface MTU with its Ethernet header) |
//! | `flows`    | 1024    | ≥ 1   | RFC 8290 §5.4 |
//! | `limit`    | 10240 packets | ≥ 1 | RFC 8290 §5.3 |
//! | `ecn`      | on      |       | RFC 8290 §5.2.3 (Linux default) |
//! | `mtu`      | 1500 B  | ≥ 1   | CoDel's MAXPACKET |

use crate::codel::{CoDelParams, CoDelState, Dequeued};
use crate::held::{Fifo, Held};
use ackclock_core::Instant;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FqCoDelParams {
    pub codel: CoDelParams,
    pub quantum: u32,
    pub flows: u32,
    /// Packets waiting in all queues together.
    pub limit: u32,
}

impl Default for FqCoDelParams {
    fn default() -> Self {
        FqCoDelParams {
            codel: CoDelParams { ecn: true, ..CoDelParams::default() },
            quantum: 1514,
            flows: 1024,
            limit: 10240,
        }
    }
}

#[derive(Clone, Debug, Default)]
struct FlowQueue {
    queue: Fifo,
    codel: CoDelState,
    deficit: i64,
    /// On new_flows or old_flows.
    listed: bool,
}

#[derive(Clone, Debug)]
pub struct FqCoDel {
    pub params: FqCoDelParams,
    queues: Vec<FlowQueue>,
    new_flows: VecDeque<usize>,
    old_flows: VecDeque<usize>,
    packets: u32,
    bytes: u64,
}

impl FqCoDel {
    pub fn new(params: FqCoDelParams) -> Self {
        FqCoDel {
            queues: vec![FlowQueue::default(); params.flows.max(1) as usize],
            params,
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            packets: 0,
            bytes: 0,
        }
    }

    /// Queues `p`; past the limit drops the head of the fattest queue
    /// into `dropped`.
    pub fn hold(&mut self, p: Held, dropped: &mut Vec<Held>) {
        let i = (p.flow % self.params.flows.max(1)) as usize;
        let q = &mut self.queues[i];
        q.queue.push(p);
        if !q.listed {
            q.listed = true;
            q.deficit = i64::from(self.params.quantum);
            self.new_flows.push_back(i);
        }
        self.packets += 1;
        self.bytes += u64::from(p.size);
        if self.packets > self.params.limit {
            let fattest = (0..self.queues.len()).max_by_key(|&j| (self.queues[j].queue.bytes(), std::cmp::Reverse(j)));
            if let Some(victim) = fattest.and_then(|j| self.queues[j].queue.pop()) {
                self.packets -= 1;
                self.bytes -= u64::from(victim.size);
                dropped.push(victim);
            }
        }
    }

    pub fn dequeue(&mut self, now: Instant, dropped: &mut Vec<Held>) -> Option<Dequeued> {
        loop {
            let (i, from_new) = match (self.new_flows.front(), self.old_flows.front()) {
                (Some(&i), _) => (i, true),
                (None, Some(&i)) => (i, false),
                (None, None) => return None,
            };
            let q = &mut self.queues[i];
            if q.deficit <= 0 {
                q.deficit += i64::from(self.params.quantum);
                self.unlist_head(from_new);
                self.old_flows.push_back(i);
                continue;
            }
            let elsewhere = self.bytes - q.queue.bytes();
            let first_drop = dropped.len();
            let next = q.codel.dequeue(now, &self.params.codel, &mut q.queue, elsewhere, dropped);
            let left = dropped[first_drop..].iter().chain(next.as_ref().map(|d| &d.held));
            let (packets, bytes) = left.fold((0, 0), |(n, b), h| (n + 1, b + u64::from(h.size)));
            self.packets -= packets;
            self.bytes -= bytes;
            if let Some(d) = next {
                self.queues[i].deficit -= i64::from(d.held.size);
                return Some(d);
            }
            // An emptied new flow goes behind the old ones once, so that a
            // flow cannot stay "new" by draining just in time.
            self.unlist_head(from_new);
            if from_new && !self.old_flows.is_empty() {
                self.old_flows.push_back(i);
            } else {
                self.queues[i].listed = false;
            }
        }
    }

    fn unlist_head(&mut self, from_new: bool) {
        if from_new {
            self.new_flows.pop_front();
        } else {
            self.old_flows.pop_front();
        }
    }

    /// Everything held, queue by queue, leaving the discipline empty.
    pub fn drain(&mut self) -> Vec<Held> {
        self.new_flows.clear();
        self.old_flows.clear();
        self.packets = 0;
        self.bytes = 0;
        self.queues
            .iter_mut()
            .flat_map(|q| {
                q.listed = false;
                q.queue.drain().collect::<Vec<_>>()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::PacketId;

    fn packet(n: u32, flow: u32, size: u32) -> Held {
        Held { packet: PacketId::new(n), size, flow, src: 0, dst: 0, ecn_capable: false, enqueued: Instant::ZERO }
    }

    fn flow_of(d: Option<Dequeued>) -> u32 {
        d.expect("a packet").held.flow
    }

    #[test]
    fn a_sparse_flow_overtakes_a_bulk_backlog() {
        let mut q = FqCoDel::new(FqCoDelParams::default());
        let mut dropped = vec![];
        (0..100).for_each(|n| q.hold(packet(n, 0, 1000), &mut dropped));
        for _ in 0..3 {
            assert_eq!(flow_of(q.dequeue(Instant::ZERO, &mut dropped)), 0);
        }
        q.hold(packet(100, 1, 64), &mut dropped);
        assert_eq!(flow_of(q.dequeue(Instant::ZERO, &mut dropped)), 1, "the new flow goes first");
        assert_eq!(flow_of(q.dequeue(Instant::ZERO, &mut dropped)), 0);
    }

    #[test]
    fn deficit_round_robin_shares_bytes_not_packets() {
        let mut q = FqCoDel::new(FqCoDelParams::default());
        let mut dropped = vec![];
        (0..300).for_each(|n| q.hold(packet(n, 0, 1500), &mut dropped));
        (300..1200).for_each(|n| q.hold(packet(n, 1, 500), &mut dropped));
        let mut bytes = [0u64; 2];
        for _ in 0..400 {
            let d = q.dequeue(Instant::ZERO, &mut dropped).expect("a packet");
            bytes[d.held.flow as usize] += u64::from(d.held.size);
        }
        let share = bytes[0] as f64 / (bytes[0] + bytes[1]) as f64;
        assert!((share - 0.5).abs() < 0.01, "{bytes:?}");
    }

    #[test]
    fn past_the_limit_the_head_of_the_fattest_queue_is_dropped() {
        let params = FqCoDelParams { limit: 4, ..FqCoDelParams::default() };
        let mut q = FqCoDel::new(params);
        let mut dropped = vec![];
        (0..3).for_each(|n| q.hold(packet(n, 0, 1000), &mut dropped));
        q.hold(packet(3, 1, 1000), &mut dropped);
        assert!(dropped.is_empty());
        q.hold(packet(4, 1, 1000), &mut dropped);
        assert_eq!(dropped, vec![packet(0, 0, 1000)]);
        assert_eq!(q.drain().len(), 4);
    }

    #[test]
    fn each_queue_runs_its_own_codel() {
        // Flow 0 has stood above target for over an interval; flow 1's
        // packets are fresh. Only flow 0 loses packets.
        let mut q = FqCoDel::new(FqCoDelParams { codel: CoDelParams::default(), ..FqCoDelParams::default() });
        let mut dropped = vec![];
        (0..400).for_each(|n| q.hold(packet(n, 0, 1000), &mut dropped));
        let ms = |m: u64| Instant::from_ps(m * 1_000_000_000);
        for m in 10..300 {
            if m % 4 == 0 {
                q.hold(Held { enqueued: ms(m), ..packet(1000 + m as u32, 1, 1000) }, &mut dropped);
            }
            q.dequeue(ms(m), &mut dropped);
        }
        assert!(!dropped.is_empty());
        assert!(dropped.iter().all(|h| h.flow == 0), "{dropped:?}");
    }
}
