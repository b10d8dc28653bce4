//! Fair queueing as ns-2.35's `duplex-link ... FQ` builds it (queue/fq.cc
//! behind the FQLink of tcl/lib/ns-queue.tcl), to give ns-2's numbers.
//!
//! Each flow id (ns-2's `fid_`) gets its own DropTail queue of `limit`
//! packets, ns-2's way: at most `limit - 1` wait behind the flow's
//! head-of-line packet, which the scheduler holds (as the packet in
//! transmission for a plain DropTail link).
//! The scheduler keeps one head per flow, with a finish time: when a packet
//! becomes its flow's head at time `t`, the flow's finish time becomes
//! `max(t, finish)` and its increment `size * secs_per_byte`. A free link
//! takes the head with the smallest `finish + increment * active`, where
//! `active` counts the flows with a head (ties: the lowest flow id), and
//! that flow's finish time becomes the value it won with. This is ns-2's
//! approximation of Demers, Keshav & Shenker's fair queueing (SIGCOMM
//! 1989): no virtual clock, the number of active flows scales increments.
//!
//! ```text
//!  arrival of flow f ─▶ f has no head?  it becomes f's head: finish = max(now, finish), inc = size * spb
//!                       otherwise       f's queue, unless limit - 1 already wait there (drop)
//!  dequeue: n = flows with a head; send the head minimising finish + inc * n (lowest id on ties);
//!           its finish = that value; the next of f's queue becomes its head at once
//! ```
//!
//! | parameter        | default       | range | source |
//! |------------------|---------------|-------|--------|
//! | `limit`          | 50 packets    | ≥ 1   | ns-2.35 tcl/lib/ns-default.tcl `Queue set limit_` (the per-flow DropTail queues FQLink makes; the FQ's own limit_ is unused) |
//! | `secs_per_byte`  | 8 / link rate |  > 0  | FQLink sets `secsPerByte_` from the link's bandwidth |
//!
//! ns-2 keys its heads by `fid_` alone (at most 32; two flows with one fid
//! abort it when both have a head); here a flow id's packets share one
//! queue, whichever flows carry it, and any id is accepted.

use crate::codel::Dequeued;
use crate::held::{Fifo, Held};
use ackclock_core::{Bandwidth, Instant};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FqParams {
    /// Packets per flow, its head included.
    pub limit: u32,
    /// Seconds a byte takes; `None`: the link's rate's.
    pub secs_per_byte: Option<f64>,
}

impl Default for FqParams {
    fn default() -> Self {
        FqParams { limit: 50, secs_per_byte: None }
    }
}

#[derive(Clone, Debug, Default)]
struct Slot {
    fid: u32,
    head: Option<Held>,
    queue: Fifo,
    /// Seconds, as ns-2 keeps them.
    finish: f64,
    increment: f64,
}

#[derive(Clone, Debug)]
pub struct Fq {
    pub params: FqParams,
    /// One slot per flow id seen, ordered by id.
    slots: Vec<Slot>,
    /// The flow id of each of the simulation's flows (by index); a flow
    /// not listed is its own id.
    fids: Vec<u32>,
}

impl Fq {
    pub fn new(params: FqParams) -> Self {
        Fq { params, slots: Vec::new(), fids: Vec::new() }
    }

    /// Takes the link's rate when no `secs_per_byte` was given.
    pub fn fit_link(&mut self, bandwidth: Bandwidth) {
        self.params.secs_per_byte.get_or_insert(8.0 / bandwidth.bps() as f64);
    }

    /// The flow id of each simulation flow, by index.
    pub fn set_flow_ids(&mut self, fids: &[u32]) {
        self.fids = fids.to_vec();
    }

    fn slot_of(&mut self, flow: u32) -> usize {
        let fid = self.fids.get(flow as usize).copied().unwrap_or(flow);
        match self.slots.binary_search_by_key(&fid, |s| s.fid) {
            Ok(i) => i,
            Err(i) => {
                self.slots.insert(i, Slot { fid, ..Slot::default() });
                i
            }
        }
    }

    /// `p` becomes its flow's head at `now`.
    fn make_head(&mut self, i: usize, p: Held, now: Instant) {
        let spb = self.params.secs_per_byte.unwrap_or(0.0);
        let s = &mut self.slots[i];
        s.finish = s.finish.max(now.as_secs_f64());
        s.increment = f64::from(p.size) * spb;
        s.head = Some(p);
    }

    /// Queues `p` in its flow's queue, or drops it into `dropped` when full.
    pub fn hold(&mut self, p: Held, dropped: &mut Vec<Held>) {
        let i = self.slot_of(p.flow);
        // ns-2's DropTail: full when the arrival would make `limit`.
        if self.slots[i].queue.len() + 1 >= self.params.limit as usize {
            dropped.push(p);
        } else if self.slots[i].head.is_none() {
            self.make_head(i, p, p.enqueued);
        } else {
            self.slots[i].queue.push(p);
        }
    }

    pub fn dequeue(&mut self, now: Instant) -> Option<Dequeued> {
        let active = self.slots.iter().filter(|s| s.head.is_some()).count() as f64;
        let mut best: Option<(usize, f64)> = None;
        for (i, s) in self.slots.iter().enumerate().filter(|(_, s)| s.head.is_some()) {
            let finish = s.finish + s.increment * active;
            if best.is_none_or(|(_, b)| finish < b) {
                best = Some((i, finish));
            }
        }
        let (i, finish) = best?;
        let s = &mut self.slots[i];
        let held = s.head.take().expect("the chosen flow has a head");
        s.finish = finish;
        if let Some(next) = s.queue.pop() {
            self.make_head(i, next, now);
        }
        Some(Dequeued { held, ce_marked: false })
    }

    /// Everything held, flow by flow, leaving the discipline empty.
    pub fn drain(&mut self) -> Vec<Held> {
        self.slots
            .iter_mut()
            .flat_map(|s| s.head.take().into_iter().chain(s.queue.drain().collect::<Vec<_>>()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::PacketId;

    fn packet(n: u32, flow: u32, size: u32) -> Held {
        Held { packet: PacketId::new(n), size, flow, src: 0, dst: 1, ecn_capable: false, enqueued: Instant::ZERO }
    }

    fn fq(limit: u32) -> Fq {
        // 1 byte a second: increments are the sizes.
        Fq::new(FqParams { limit, secs_per_byte: Some(1.0) })
    }

    fn flows(q: &mut Fq) -> Vec<u32> {
        std::iter::from_fn(|| q.dequeue(Instant::ZERO)).map(|d| d.held.flow).collect()
    }

    #[test]
    fn smaller_packets_finish_first_in_byte_proportion() {
        // Flow 1 sends 200 B packets, flow 2 100 B ones: two of flow 2's
        // per one of flow 1's while both are busy.
        let mut q = fq(50);
        let mut dropped = vec![];
        for n in 0..3 {
            q.hold(packet(n, 1, 200), &mut dropped);
            q.hold(packet(10 + n, 2, 100), &mut dropped);
        }
        assert_eq!(flows(&mut q), vec![2, 1, 2, 2, 1, 1]);
        assert!(dropped.is_empty());
    }

    #[test]
    fn ties_go_to_the_lowest_flow_id() {
        let mut q = fq(50);
        let mut dropped = vec![];
        q.hold(packet(0, 7, 100), &mut dropped);
        q.hold(packet(1, 3, 100), &mut dropped);
        assert_eq!(flows(&mut q), vec![3, 7]);
        q.set_flow_ids(&[9, 4]);
        q.hold(packet(2, 0, 100), &mut dropped);
        q.hold(packet(3, 1, 100), &mut dropped);
        assert_eq!(flows(&mut q), vec![1, 0], "flow 1 carries id 4, flow 0 id 9");
    }

    #[test]
    fn a_flow_holds_its_head_and_limit_minus_one_behind_it() {
        // limit 3: the head and two waiting packets; the fourth is dropped
        // while another flow still gets in.
        let mut q = fq(3);
        let mut dropped = vec![];
        (0..4).for_each(|n| q.hold(packet(n, 1, 100), &mut dropped));
        assert_eq!(dropped, vec![packet(3, 1, 100)]);
        q.hold(packet(4, 2, 100), &mut dropped);
        assert_eq!(dropped.len(), 1);
        assert_eq!(q.drain().len(), 4);
    }

    #[test]
    fn a_late_flow_starts_from_the_present_not_from_zero() {
        // Flow 1 has sent 10 packets of 100 B (finish 1000); flow 2's first
        // packet arrives at t = 500: its finish starts at 500, so it goes
        // before flow 1's next (1000 + 100 * 2 against 500 + 100 * 2).
        let mut q = fq(50);
        let mut dropped = vec![];
        (0..12).for_each(|n| q.hold(packet(n, 1, 100), &mut dropped));
        (0..10).for_each(|_| assert_eq!(q.dequeue(Instant::ZERO).unwrap().held.flow, 1));
        let late = Instant::from_secs_f64(500.0);
        q.hold(Held { enqueued: late, ..packet(20, 2, 100) }, &mut dropped);
        assert_eq!(q.dequeue(late).unwrap().held.flow, 2);
    }
}
