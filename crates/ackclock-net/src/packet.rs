//! Packets as value types: real IPv4 and transport header fields, a virtual
//! payload (only its length matters), and simulator bookkeeping.

use ackclock_core::Instant;
use ackclock_wire::TcpRepr;

pub type NodeId = u32;
pub type FlowId = u32;

/// Bytes of an IPv4 header without options.
pub const IPV4_HEADER_BYTES: u32 = 20;
/// Bytes of IPv4 (20) plus UDP (8) header.
pub const UDP_HEADER_BYTES: u32 = 28;
/// The largest IPv4 datagram.
pub const MAX_DATAGRAM_BYTES: u32 = 65_535;

pub use ackclock_wire::Ecn;

/// The IPv4 header fields the simulator acts on; addresses are node ids and
/// map to 10.x.y.z only when bytes are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ipv4Header {
    pub src: NodeId,
    pub dst: NodeId,
    pub ttl: u8,
    pub ecn: Ecn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UdpHeader {
    pub src_port: u16,
    pub dst_port: u16,
}

/// The transport header a packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Udp(UdpHeader),
    Tcp(TcpRepr),
}

/// The flow of routing messages: UDP datagrams on their protocol's port
/// that belong to no flow. Their `seq` names the message, which the
/// simulation keeps while the packet travels (messages are not `Copy`).
pub const CONTROL_FLOW: FlowId = FlowId::MAX;

/// The flow of ARP packets on radio NICs (see `arp.rs`): link-layer
/// packets that never leave their hop. Their source and destination are
/// the ARP sender and target, their `seq` the operation (`ARP_REQUEST`,
/// `ARP_REPLY`).
pub const ARP_FLOW: FlowId = FlowId::MAX - 1;
pub const ARP_REQUEST: u64 = 1;
pub const ARP_REPLY: u64 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Unique per run, in creation order (ns-2's packet id).
    pub uid: u64,
    pub ip: Ipv4Header,
    pub transport: Transport,
    /// Bytes on the wire: IP total length.
    pub size: u32,
    /// The flow the packet belongs to, for statistics and traces.
    pub flow: FlowId,
    /// Application sequence number within the flow (0, 1, ...).
    pub seq: u64,
    /// When the application created it, for end-to-end delay.
    pub created: Instant,
}
