//! Routing: where a node sends a packet next.
//!
//! The data plane is one forwarding table ([`Fib`]) with a row per node,
//! read on every hop. How a row is filled is the control plane's business:
//! shortest paths over the whole topology, routes the user gives, or a
//! protocol that exchanges messages and changes routes during the run.

mod shortest;

pub use shortest::shortest_paths;

use crate::channel::ChannelId;
use crate::packet::NodeId;

/// How a node reaches a neighbour: the interface a packet leaves on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NextHop {
    /// A point-to-point link direction.
    Link(ChannelId),
}

/// One of a node's neighbours as routing sees it: how to reach it, at what
/// cost, and whether the way there is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjacency {
    pub via: NextHop,
    pub neighbor: NodeId,
    pub cost: u32,
    pub up: bool,
}

/// The forwarding table of every node: entry `at * nodes + dst` is where
/// `at` sends packets for `dst`. Entries are a link's channel id or
/// `NO_ROUTE`, so a lookup on the point-to-point fast path is one load and
/// one compare.
#[derive(Clone, Debug, Default)]
pub struct Fib {
    nodes: usize,
    hops: Vec<u32>,
}

const NO_ROUTE: u32 = u32::MAX;

impl Fib {
    /// A table without routes for `nodes` nodes.
    pub fn new(nodes: usize) -> Self {
        Fib { nodes, hops: vec![NO_ROUTE; nodes * nodes] }
    }

    /// Where `at` sends a packet for `dst`; `None` when it has no route
    /// (or `dst` is `at` itself).
    #[inline]
    pub fn next_hop(&self, at: NodeId, dst: NodeId) -> Option<NextHop> {
        let (at, dst) = (at as usize, dst as usize);
        if at >= self.nodes || dst >= self.nodes {
            return None;
        }
        match self.hops[at * self.nodes + dst] {
            NO_ROUTE => None,
            channel => Some(NextHop::Link(channel)),
        }
    }

    /// Replaces `at`'s whole row.
    pub fn set_row(&mut self, at: NodeId, row: &[Option<NextHop>]) {
        for (dst, hop) in row.iter().enumerate() {
            self.set(at, dst as NodeId, *hop);
        }
    }

    /// Sets one route.
    pub fn set(&mut self, at: NodeId, dst: NodeId, hop: Option<NextHop>) {
        self.hops[at as usize * self.nodes + dst as usize] = match hop {
            None => NO_ROUTE,
            Some(NextHop::Link(channel)) => channel,
        };
    }
}
