//! Routing: where a node sends a packet next.
//!
//! The data plane is one forwarding table ([`Fib`]) with a row per node,
//! read on every hop. How a row is filled is the control plane's business:
//! shortest paths over the whole topology, routes the user gives, or a
//! [`RoutingProtocol`] on each node that exchanges messages with its
//! neighbours and changes routes during the run. Packets for a destination
//! without a route may wait in the node's [`RouteQueue`] meanwhile.

pub mod aodv;
pub mod dsdv;
pub mod dv;
#[cfg(test)]
mod scripted;
mod shortest;
mod waiting;

pub use shortest::shortest_paths;
pub use waiting::RouteQueue;

use crate::channel::ChannelId;
use crate::medium::NicId;
use crate::packet::NodeId;
use ackclock_core::{Duration, Instant, SimRng};

/// The node id that addresses every node in range (a broadcast on a radio NIC).
pub const BROADCAST: NodeId = NodeId::MAX;

/// What becomes of a data packet the MAC could not deliver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterFailure {
    /// Drop the packet.
    Drop,
    /// Drop it and every packet in the interface queue for the same neighbour (ns-2 AODV).
    DropAllToNeighbour,
    /// Keep it waiting for a route (AODV local repair).
    Wait,
}

/// How a node reaches a neighbour: the interface a packet leaves on (and,
/// on a shared medium, the neighbour it is addressed to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NextHop {
    /// A point-to-point link direction.
    Link(ChannelId),
    Nic {
        nic: NicId,
        neighbor: NodeId,
    },
}

/// How a node's routes are made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Router {
    /// Shortest paths over the whole topology, computed before the run
    /// (ns-2's default, `Static`), with the routes the user gives on top.
    /// Links going down or up later leave them as they are.
    #[default]
    Static,
    /// Shortest paths over the links that are up, recomputed whenever a
    /// link goes down or comes up (ns-2's `Session` routing): routes
    /// change at once, without messages.
    Session,
    /// Distance vector (ns-2's `rtproto DV`).
    Dv(dv::DvConfig),
    /// Ad hoc on-demand distance vector (ns-2's `-adhocRouting AODV`).
    Aodv(aodv::AodvConfig),
    /// Destination-sequenced distance vector (ns-2's `-adhocRouting DSDV`).
    Dsdv(dsdv::DsdvConfig),
}

impl Router {
    /// Its name in scenario files and results.
    pub fn name(&self) -> &'static str {
        match self {
            Router::Static => "static",
            Router::Session => "session",
            Router::Dv(_) => "dv",
            Router::Aodv(_) => "aodv",
            Router::Dsdv(_) => "dsdv",
        }
    }

    /// Whether the node adds a 20-byte IP header to the packets it sends
    /// (ns-2's ad hoc routing agents do; its agents' sizes leave it out).
    pub fn adds_ip_header(&self) -> bool {
        matches!(self, Router::Aodv(_) | Router::Dsdv(_))
    }

    /// Whether the routes come from the whole topology rather than from
    /// messages.
    pub fn is_central(&self) -> bool {
        matches!(self, Router::Static | Router::Session)
    }

    /// The running protocol on `node` (of `nodes`), for routers that have
    /// one; DV draws from `shared` when given (see `dv`).
    pub fn protocol(
        &self,
        node: NodeId,
        nodes: usize,
        rng: SimRng,
        shared: Option<&dv::SharedRng>,
    ) -> Option<Protocol> {
        match self {
            Router::Static | Router::Session => None,
            Router::Dv(config) => {
                let dv = dv::Dv::new(node, nodes, *config, rng);
                Some(Protocol::Dv(Box::new(match shared {
                    Some(g) => dv.with_shared(g.clone()),
                    None => dv,
                })))
            }
            Router::Aodv(config) => Some(Protocol::Aodv(Box::new(aodv::Aodv::new(node, nodes, *config, rng)))),
            Router::Dsdv(config) => Some(Protocol::Dsdv(Box::new(dsdv::Dsdv::new(node, nodes, *config, rng)))),
        }
    }

    /// Whether two routers speak the same protocol (exchange messages).
    pub fn speaks_with(&self, other: &Router) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other) && !self.is_central()
    }

    /// The queue where the protocol keeps packets without a route
    /// (capacity, longest wait), for protocols that keep one.
    pub fn route_queue(&self) -> Option<(usize, Duration)> {
        match self {
            Router::Aodv(c) => Some((c.queue_len, c.queue_timeout)),
            Router::Dsdv(c) => Some((c.queue_len, Duration::MAX)),
            _ => None,
        }
    }
}

/// One of a node's neighbours as routing sees it: how to reach it, at what
/// cost, whether the way there is up, and whether the neighbour runs the
/// same routing protocol (a peer to exchange messages with).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjacency {
    pub via: NextHop,
    pub neighbor: NodeId,
    pub cost: u32,
    pub up: bool,
    pub peer: bool,
}

/// Where a broadcast goes: every peer in range, one message per broadcast
/// adjacency of a radio and per neighbour on a link or LAN.
fn broadcast_vias(adjacencies: &[Adjacency]) -> impl Iterator<Item = NextHop> + '_ {
    adjacencies.iter().filter(|a| a.up && a.peer).map(|a| a.via)
}

/// The neighbour a message came from over `via`.
fn neighbor_of(adjacencies: &[Adjacency], via: NextHop) -> Option<NodeId> {
    match via {
        NextHop::Nic { neighbor, .. } => Some(neighbor),
        NextHop::Link(_) => adjacencies.iter().find(|a| a.via == via).map(|a| a.neighbor),
    }
}

/// Which protocol a control packet belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlKind {
    Dv,
    Aodv,
    Dsdv,
}

impl ControlKind {
    /// The packet type ns-2's traces print.
    pub fn ns2_name(self) -> &'static str {
        match self {
            ControlKind::Dv => "rtProtoDV",
            ControlKind::Aodv => "AODV",
            // ns-2's DSDV agent sends packets of the generic type PT_MESSAGE.
            ControlKind::Dsdv => "message",
        }
    }

    /// The UDP port the protocol uses on the wire: RIP's for DV (RFC 2453),
    /// AODV's (RFC 3561), and for DSDV, which has none, ns-2's ROUTER_PORT.
    pub fn udp_port(self) -> u16 {
        match self {
            ControlKind::Dv => 520,
            ControlKind::Aodv => 654,
            ControlKind::Dsdv => 255,
        }
    }

    /// The protocol whose messages use `port`.
    pub fn from_port(port: u16) -> Option<Self> {
        [ControlKind::Dv, ControlKind::Aodv, ControlKind::Dsdv].into_iter().find(|k| k.udp_port() == port)
    }
}

/// A routing protocol's message. The simulation keeps it while the packet
/// carrying it travels; the packet names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ControlMessage {
    Dv(dv::Update),
    Aodv(aodv::Message),
    Dsdv(dsdv::Update),
}

impl ControlMessage {
    pub fn kind(&self) -> ControlKind {
        match self {
            ControlMessage::Dv(_) => ControlKind::Dv,
            ControlMessage::Aodv(_) => ControlKind::Aodv,
            ControlMessage::Dsdv(_) => ControlKind::Dsdv,
        }
    }
}

/// What a routing protocol asks of its node.
#[derive(Debug, Default, PartialEq)]
pub struct RouterOutput {
    /// Messages to send to neighbours, with their size in bytes on the
    /// wire (IP header included).
    pub messages: Vec<(NextHop, ControlMessage, u32)>,
    /// Routes to install (`None` withdraws one).
    pub routes: Vec<(NodeId, Option<NextHop>)>,
    /// Destinations given up on: the packets waiting for them are dropped.
    pub give_up: Vec<NodeId>,
}

/// A routing protocol on one node. Sans-I/O like everything in this crate:
/// each call is told the time and what happened, and answers through
/// `out`; `poll_at` says when it next wants `on_timer`. A protocol sends
/// only to neighbours, over the interface it names; what it learns it
/// installs as routes.
pub trait RoutingProtocol {
    /// The run starts; `adjacencies` are the node's neighbours.
    fn start(&mut self, now: Instant, adjacencies: &[Adjacency], out: &mut RouterOutput);
    /// A link of the node went down or came up, or its cost changed.
    fn on_adjacencies(&mut self, now: Instant, adjacencies: &[Adjacency], out: &mut RouterOutput);
    /// A neighbour's message arrived; `from` is how this node reaches that
    /// neighbour.
    fn on_message(&mut self, now: Instant, from: NextHop, message: &ControlMessage, out: &mut RouterOutput);
    fn on_timer(&mut self, now: Instant, out: &mut RouterOutput);
    fn poll_at(&self) -> Option<Instant>;
    /// A packet from `src` for `dst` found no route: a reactive protocol
    /// starts looking. Returns whether the packet waits in the node's
    /// `RouteQueue` (if there is room) rather than being dropped.
    fn on_no_route(&mut self, _now: Instant, _src: NodeId, _dst: NodeId, _out: &mut RouterOutput) -> bool {
        true
    }
    /// The MAC gave up on a data packet for `dst` sent via `via` (no link-layer ACK);
    /// `forwarded` says how many hops it had travelled.
    fn on_link_failure(
        &mut self,
        _now: Instant,
        _via: NextHop,
        _dst: NodeId,
        _forwarded: u32,
        _out: &mut RouterOutput,
    ) -> AfterFailure {
        AfterFailure::Drop
    }
    /// This node sends or forwards a data packet from `src` to `dst` via
    /// `via` (AODV refreshes the route's lifetime).
    fn on_data(&mut self, _now: Instant, _src: NodeId, _dst: NodeId, _via: NextHop) {}
}

/// The running protocols, dispatched by `match`.
#[derive(Debug)]
pub enum Protocol {
    Dv(Box<dv::Dv>),
    Aodv(Box<aodv::Aodv>),
    Dsdv(Box<dsdv::Dsdv>),
}

impl Protocol {
    fn inner(&mut self) -> &mut dyn RoutingProtocol {
        match self {
            Protocol::Dv(p) => p.as_mut(),
            Protocol::Aodv(p) => p.as_mut(),
            Protocol::Dsdv(p) => p.as_mut(),
        }
    }
}

impl RoutingProtocol for Protocol {
    fn start(&mut self, now: Instant, adjacencies: &[Adjacency], out: &mut RouterOutput) {
        self.inner().start(now, adjacencies, out)
    }
    fn on_adjacencies(&mut self, now: Instant, adjacencies: &[Adjacency], out: &mut RouterOutput) {
        self.inner().on_adjacencies(now, adjacencies, out)
    }
    fn on_message(&mut self, now: Instant, from: NextHop, message: &ControlMessage, out: &mut RouterOutput) {
        self.inner().on_message(now, from, message, out)
    }
    fn on_timer(&mut self, now: Instant, out: &mut RouterOutput) {
        self.inner().on_timer(now, out)
    }
    fn poll_at(&self) -> Option<Instant> {
        match self {
            Protocol::Dv(p) => p.poll_at(),
            Protocol::Aodv(p) => p.poll_at(),
            Protocol::Dsdv(p) => p.poll_at(),
        }
    }
    fn on_no_route(&mut self, now: Instant, src: NodeId, dst: NodeId, out: &mut RouterOutput) -> bool {
        self.inner().on_no_route(now, src, dst, out)
    }
    fn on_link_failure(
        &mut self,
        now: Instant,
        via: NextHop,
        dst: NodeId,
        forwarded: u32,
        out: &mut RouterOutput,
    ) -> AfterFailure {
        self.inner().on_link_failure(now, via, dst, forwarded, out)
    }
    fn on_data(&mut self, now: Instant, src: NodeId, dst: NodeId, via: NextHop) {
        self.inner().on_data(now, src, dst, via)
    }
}

/// The forwarding table of every node: entry `at * nodes + dst` is where
/// `at` sends packets for `dst`. Entries below `NIC_HOPS` are a link's
/// channel id, so a lookup on the point-to-point fast path is one load and
/// one compare; the others name a (NIC, neighbour) pair in `nic_hops`.
#[derive(Clone, Debug, Default)]
pub struct Fib {
    nodes: usize,
    hops: Vec<u32>,
    nic_hops: Vec<(NicId, NodeId)>,
}

const NIC_HOPS: u32 = 1 << 31;
const NO_ROUTE: u32 = u32::MAX;

impl Fib {
    /// A table without routes for `nodes` nodes.
    pub fn new(nodes: usize) -> Self {
        Fib { nodes, hops: vec![NO_ROUTE; nodes * nodes], nic_hops: Vec::new() }
    }

    /// Where `at` sends a packet for `dst` (both nodes of the table);
    /// `None` when it has no route (or `dst` is `at` itself).
    #[inline]
    pub fn next_hop(&self, at: NodeId, dst: NodeId) -> Option<NextHop> {
        debug_assert!((at as usize) < self.nodes && (dst as usize) < self.nodes, "nodes outside the table");
        match self.hops[at as usize * self.nodes + dst as usize] {
            channel if channel < NIC_HOPS => Some(NextHop::Link(channel)),
            code => self.other_hop(code),
        }
    }

    #[cold]
    fn other_hop(&self, code: u32) -> Option<NextHop> {
        (code != NO_ROUTE).then(|| {
            let (nic, neighbor) = self.nic_hops[(code - NIC_HOPS) as usize];
            NextHop::Nic { nic, neighbor }
        })
    }

    /// Replaces `at`'s whole row.
    pub fn set_row(&mut self, at: NodeId, row: &[Option<NextHop>]) {
        for (dst, hop) in row.iter().enumerate() {
            self.set(at, dst as NodeId, *hop);
        }
    }

    /// The table for `nodes` nodes with the routes this one has among them.
    pub fn resized(&self, nodes: usize) -> Fib {
        let mut fib = Fib { nic_hops: self.nic_hops.clone(), ..Fib::new(nodes) };
        let keep = self.nodes.min(nodes);
        for at in 0..keep {
            let old = &self.hops[at * self.nodes..at * self.nodes + keep];
            fib.hops[at * nodes..at * nodes + keep].copy_from_slice(old);
        }
        fib
    }

    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Sets one route.
    pub fn set(&mut self, at: NodeId, dst: NodeId, hop: Option<NextHop>) {
        let code = match hop {
            None => NO_ROUTE,
            Some(NextHop::Link(channel)) => channel,
            Some(NextHop::Nic { nic, neighbor }) => {
                let pair = (nic, neighbor);
                let index = self.nic_hops.iter().position(|&p| p == pair).unwrap_or_else(|| {
                    self.nic_hops.push(pair);
                    self.nic_hops.len() - 1
                });
                NIC_HOPS + index as u32
            }
        };
        self.hops[at as usize * self.nodes + dst as usize] = code;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_keeps_link_and_nic_routes_apart() {
        let mut fib = Fib::new(3);
        let nic = NextHop::Nic { nic: 4, neighbor: 2 };
        fib.set(0, 1, Some(NextHop::Link(7)));
        fib.set(0, 2, Some(nic));
        fib.set(1, 2, Some(nic));
        assert_eq!(fib.next_hop(0, 1), Some(NextHop::Link(7)));
        assert_eq!(fib.next_hop(0, 2), Some(nic));
        assert_eq!(fib.next_hop(1, 0), None);
        assert_eq!(fib.nic_hops.len(), 1, "one entry per (NIC, neighbour)");
        let grown = fib.resized(4);
        assert_eq!((grown.next_hop(0, 2), grown.next_hop(0, 3)), (Some(nic), None));
        fib.set(0, 2, None);
        assert_eq!(fib.next_hop(0, 2), None);
    }
}
