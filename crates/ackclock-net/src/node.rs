//! A node: a name and the interfaces through which packets leave it.

use crate::channel::ChannelId;

/// One of a node's network interfaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    /// A point-to-point link direction leaving the node. Its departures are
    /// known when a packet is queued: the fast path.
    Link(ChannelId),
}

#[derive(Clone, Debug)]
pub struct Node {
    pub name: String,
    /// In the order they were created; routing breaks ties by this order.
    pub interfaces: Vec<Interface>,
}

impl Node {
    pub fn new(name: &str) -> Self {
        Node { name: name.to_string(), interfaces: Vec::new() }
    }
}
