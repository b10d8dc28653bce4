//! A test harness for routing protocols on radios: nodes with one radio
//! each (NIC id = node id) whose messages reach, at once, the nodes the
//! test puts in range of the sender.

use super::{Adjacency, AfterFailure, ControlMessage, NextHop, RouterOutput, RoutingProtocol, BROADCAST};
use crate::packet::NodeId;
use ackclock_core::{Instant, RngStreams, SimRng};
use std::collections::VecDeque;

pub fn at(s: f64) -> Instant {
    Instant::from_secs_f64(s)
}

pub fn chain(n: NodeId) -> Vec<(NodeId, NodeId)> {
    (0..n - 1).map(|i| (i, i + 1)).collect()
}

pub struct Net<P> {
    pub nodes: Vec<P>,
    hears: Vec<Vec<bool>>,
    pub now: Instant,
    inbox: VecDeque<(NodeId, NextHop, ControlMessage)>,
    /// Every message sent: (time, sender, message).
    pub sent: Vec<(Instant, NodeId, ControlMessage)>,
    pub fib: Vec<Vec<Option<NextHop>>>,
    /// Destinations given up on: (time, node, destination).
    pub gave_up: Vec<(Instant, NodeId, NodeId)>,
}

impl<P: RoutingProtocol> Net<P> {
    /// `n` nodes made by `make(node, rng)`, started at time zero.
    pub fn new(n: usize, links: &[(NodeId, NodeId)], make: impl Fn(NodeId, SimRng) -> P) -> Self {
        let streams = RngStreams::new(1, 0);
        let mut net = Net {
            nodes: (0..n as NodeId).map(|i| make(i, streams.stream(&format!("routing/{i}")))).collect(),
            hears: vec![vec![false; n]; n],
            now: Instant::ZERO,
            inbox: VecDeque::new(),
            sent: Vec::new(),
            fib: vec![vec![None; n]; n],
            gave_up: Vec::new(),
        };
        net.set_links(links);
        for i in 0..n as NodeId {
            let radio = Adjacency {
                via: NextHop::Nic { nic: i, neighbor: BROADCAST },
                neighbor: BROADCAST,
                cost: 1,
                up: true,
                peer: true,
            };
            let mut out = RouterOutput::default();
            net.nodes[i as usize].start(Instant::ZERO, &[radio], &mut out);
            net.apply(i, out);
        }
        net
    }

    /// Who is in range of whom from now on (both ways).
    pub fn set_links(&mut self, links: &[(NodeId, NodeId)]) {
        self.hears.iter_mut().for_each(|row| row.fill(false));
        for &(a, b) in links {
            self.hears[a as usize][b as usize] = true;
            self.hears[b as usize][a as usize] = true;
        }
    }

    fn apply(&mut self, node: NodeId, out: RouterOutput) {
        for (dst, hop) in out.routes {
            self.fib[node as usize][dst as usize] = hop;
        }
        self.gave_up.extend(out.give_up.iter().map(|&dst| (self.now, node, dst)));
        for (via, message, _) in out.messages {
            self.sent.push((self.now, node, message.clone()));
            let NextHop::Nic { neighbor, .. } = via else { panic!("a radio protocol sends over its radio") };
            for r in 0..self.nodes.len() as NodeId {
                if self.hears[node as usize][r as usize] && (neighbor == BROADCAST || neighbor == r) {
                    self.inbox.push_back((r, NextHop::Nic { nic: r, neighbor: node }, message.clone()));
                }
            }
        }
    }

    /// Delivers the messages in flight and runs the timers up to `t` seconds.
    pub fn run_until(&mut self, t: f64) {
        let t = at(t);
        loop {
            while let Some((r, from, message)) = self.inbox.pop_front() {
                let mut out = RouterOutput::default();
                self.nodes[r as usize].on_message(self.now, from, &message, &mut out);
                self.apply(r, out);
            }
            let next = self.nodes.iter().enumerate().filter_map(|(i, n)| n.poll_at().map(|p| (p, i))).min();
            match next {
                Some((when, i)) if when <= t => {
                    self.now = when;
                    let mut out = RouterOutput::default();
                    self.nodes[i].on_timer(when, &mut out);
                    self.apply(i as NodeId, out);
                }
                _ => break,
            }
        }
        self.now = t;
    }

    /// `node` has a packet from `src` for `dst` and no route; whether it waits.
    pub fn no_route(&mut self, node: NodeId, src: NodeId, dst: NodeId) -> bool {
        let mut out = RouterOutput::default();
        let waits = self.nodes[node as usize].on_no_route(self.now, src, dst, &mut out);
        self.apply(node, out);
        waits
    }

    /// The MAC of `node` gave up on a packet for `dst` sent on its route.
    pub fn link_failure(&mut self, node: NodeId, dst: NodeId, forwarded: u32) -> AfterFailure {
        let via = self.fib[node as usize][dst as usize].expect("a route to fail");
        let mut out = RouterOutput::default();
        let after = self.nodes[node as usize].on_link_failure(self.now, via, dst, forwarded, &mut out);
        self.apply(node, out);
        after
    }

    /// The neighbour `node` sends `dst`'s packets to.
    pub fn next(&self, node: NodeId, dst: NodeId) -> Option<NodeId> {
        self.fib[node as usize][dst as usize].map(|via| match via {
            NextHop::Nic { neighbor, .. } => neighbor,
            NextHop::Link(_) => panic!("radio routes"),
        })
    }
}
