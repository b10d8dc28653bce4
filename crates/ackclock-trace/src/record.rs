//! Trace records: what happened to a packet on a link, and changes of
//! traced TCP variables.

use ackclock_core::Instant;
use ackclock_net::{ChannelId, NodeId, Packet};

/// ns-2's four link events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketEvent {
    /// `+`: the packet reached the link and entered its queue.
    Enqueue,
    /// `-`: its transmission started.
    Dequeue,
    /// `r`: it arrived at the far node.
    Receive,
    /// `d`: the queue or the error model dropped it.
    Drop,
}

impl PacketEvent {
    pub fn symbol(self) -> char {
        match self {
            PacketEvent::Enqueue => '+',
            PacketEvent::Dequeue => '-',
            PacketEvent::Receive => 'r',
            PacketEvent::Drop => 'd',
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PacketRecord {
    pub time: Instant,
    pub event: PacketEvent,
    pub channel: ChannelId,
    pub from: NodeId,
    pub to: NodeId,
    pub packet: Packet,
    /// ns-2's `A` flag: the first packet its sender sent after cutting its
    /// window (set by the tracer from `Tracer::mark_congestion_action`).
    pub congestion_action: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VarValue {
    Real(f64),
    Int(i64),
}

/// A traced variable's new value, with the agent's and its peer's address
/// (none yet for the initial value, which ns-2 prints as `-1 -1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VarRecord {
    pub time: Instant,
    pub flow: u32,
    pub agent: (NodeId, u16),
    pub peer: Option<(NodeId, u16)>,
    pub name: &'static str,
    pub value: VarValue,
}

/// A link direction went down or came back up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkRecord {
    pub time: Instant,
    pub channel: ChannelId,
    pub from: NodeId,
    pub to: NodeId,
    pub up: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TraceRecord {
    Packet(PacketRecord),
    Var(VarRecord),
    Link(LinkRecord),
}

impl TraceRecord {
    pub fn time(&self) -> Instant {
        match self {
            TraceRecord::Packet(p) => p.time,
            TraceRecord::Var(v) => v.time,
            TraceRecord::Link(l) => l.time,
        }
    }
}

/// What a trace needs to know about a flow to print its packets as ns-2
/// does: packet numbers instead of byte sequence numbers, a type name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowView {
    Udp { type_name: &'static str, fid: u32 },
    Tcp { client: NodeId, client_iss: u32, server_iss: u32, mss: u32, fid: u32 },
}
