//! A node: a name, the interfaces through which packets leave it, and its
//! routing.

use crate::channel::ChannelId;
use crate::medium::NicId;
use crate::processor::Processor;
use crate::routing::{Protocol, RouteQueue, Router};

/// One of a node's network interfaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    /// A point-to-point link direction leaving the node. Its departures are
    /// known when a packet is queued: the fast path.
    Link(ChannelId),
    /// A NIC on a shared medium, whose MAC decides when it sends.
    Nic(NicId),
}

#[derive(Debug)]
pub struct Node {
    pub name: String,
    /// In the order they were created; routing breaks ties by this order.
    pub interfaces: Vec<Interface>,
    pub router: Router,
    /// The running routing protocol, once the run started, for routers
    /// that have one.
    pub protocol: Option<Protocol>,
    /// Packets waiting for a route.
    pub waiting: RouteQueue,
    /// Its processor, when packet handling takes time.
    pub processor: Option<Processor>,
    pub stats: NodeStats,
}

/// What happened to packets at a node, beyond its links.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeStats {
    /// Packets dropped for want of a route: none when they arrived and no
    /// room to wait, or none before their wait ran out.
    pub no_route_drops: u64,
    /// Packets dropped because their time to live ran out (a routing loop).
    pub ttl_drops: u64,
}

impl Node {
    pub fn new(name: &str) -> Self {
        Node {
            name: name.to_string(),
            interfaces: Vec::new(),
            router: Router::Static,
            protocol: None,
            waiting: RouteQueue::default(),
            processor: None,
            stats: NodeStats::default(),
        }
    }
}
