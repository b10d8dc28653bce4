//! Trace records: what happened to a packet on a link, and changes of
//! traced TCP variables.

use ackclock_core::Instant;
use ackclock_net::{ChannelId, LinkAddress, MacHeader, MediumId, NicId, NodeId, Packet};

/// ns-2's four link events, and the hop onto a LAN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketEvent {
    /// `h`: the packet left its node for a LAN, before the LAN's link
    /// layer (ns-2 writes it at a LanIface's entry).
    Hop,
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
            PacketEvent::Hop => 'h',
            PacketEvent::Enqueue => '+',
            PacketEvent::Dequeue => '-',
            PacketEvent::Receive => 'r',
            PacketEvent::Drop => 'd',
        }
    }
}

/// An event of a TCP sender as ns-2's event trace names it (`$ns
/// eventtrace-all`): TIMEOUT, SLOW_START, a fast retransmit; with the next
/// packet it would send (t_seqno_) and its whole cwnd_ then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpEventRecord {
    pub time: Instant,
    pub src: NodeId,
    pub dst: NodeId,
    pub event: &'static str,
    pub fid: u32,
    pub seqno: i64,
    pub cwnd: i64,
}

/// What a RED queue saw at an arrival: the queue it found (packets, or
/// bytes when it counts bytes) and its average after the arrival.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedQueueRecord {
    pub time: Instant,
    pub channel: ChannelId,
    pub queue: f64,
    pub average: f64,
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
    /// A drop by RED's random early test (ns-2's edrop), not a forced one.
    pub early_drop: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VarValue {
    Real(f64),
    Int(i64),
    /// An integer ns-2 keeps in clock ticks (rtt_) or fixed-point ticks
    /// (srtt_, rttvar_), which its trace prints in seconds.
    Ticks {
        raw: i64,
        secs: f64,
    },
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

/// A packet's event at a node's interface to a wired LAN: ns-2 writes
/// these between the node and the LAN's own node id, the receive from the
/// LAN to the node, the others from the node to the LAN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LanRecord {
    pub time: Instant,
    pub event: PacketEvent,
    pub medium: MediumId,
    pub node: NodeId,
    pub packet: Packet,
    /// As `PacketRecord`'s (set by the tracer).
    pub congestion_action: bool,
}

impl LanRecord {
    /// The record as a link's, between the node and the LAN named `lan`
    /// (its node id in ns-2): the receive comes from the LAN, the other
    /// events go to it.
    pub fn between(&self, lan: NodeId) -> PacketRecord {
        let (from, to) = if self.event == PacketEvent::Receive { (lan, self.node) } else { (self.node, lan) };
        PacketRecord {
            time: self.time,
            event: self.event,
            channel: 0, // no channel: the formats do not print it
            from,
            to,
            packet: self.packet,
            congestion_action: self.congestion_action,
            early_drop: false,
        }
    }
}

/// ns-2's wireless trace levels: the agent, the routing agent, the
/// interface queue and the 802.11 MAC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WirelessLayer {
    Agent,
    Router,
    Ifq,
    Mac,
}

impl WirelessLayer {
    pub fn name(self) -> &'static str {
        match self {
            WirelessLayer::Agent => "AGT",
            WirelessLayer::Router => "RTR",
            WirelessLayer::Ifq => "IFQ",
            WirelessLayer::Mac => "MAC",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WirelessEvent {
    Send,
    Receive,
    /// A routing agent sends a packet it did not originate.
    Forward,
    Drop,
}

/// The 802.11 header fields ns-2 prints (zero before the MAC): the
/// duration in microseconds, destination (-1 broadcast), source, ether type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MacFields {
    pub duration_us: i64,
    pub dst: i64,
    pub src: i64,
    pub ether_type: i64,
}

/// An AODV message's fields as ns-2's trace shows them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AodvFields {
    Request { hops: u32, id: u32, dst: u32, dst_seq: u32, src: u32, src_seq: u32 },
    Reply { hops: u32, dst: u32, dst_seq: u32, lifetime: f64 },
    Error { count: u32, dst: u32, dst_seq: u32 },
}

/// One packet event at one layer of a wireless node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WirelessRecord {
    pub time: Instant,
    pub event: WirelessEvent,
    pub node: NodeId,
    /// Where the node is, in metres.
    pub position: (f64, f64, f64),
    pub layer: WirelessLayer,
    /// ns-2's reason for a drop ("CBK", "IFQ", "NRTE"...), "---" otherwise.
    pub reason: &'static str,
    pub packet: Packet,
    /// The next hop in the packet's header (ns-2's -2 until routing sets
    /// it, -1 for a broadcast).
    pub next_hop: i64,
    pub mac: MacFields,
    /// How many nodes forwarded the packet so far.
    pub forwards: u32,
    /// The fields of the AODV message the packet carries.
    pub aodv: Option<AodvFields>,
}

/// An 802.11 control frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlKind {
    Rts,
    Cts,
    Ack,
}

impl ControlKind {
    pub fn name(self) -> &'static str {
        match self {
            ControlKind::Rts => "RTS",
            ControlKind::Cts => "CTS",
            ControlKind::Ack => "ACK",
        }
    }
}

/// A control frame a radio node's MAC sent, received or dropped (ns-2's
/// MAC-level records of frames that carry no packet).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ControlFrameRecord {
    pub time: Instant,
    pub event: WirelessEvent,
    pub node: NodeId,
    pub position: (f64, f64, f64),
    /// ns-2's reason for a drop ("COL", "RET"...), "---" otherwise.
    pub reason: &'static str,
    pub kind: ControlKind,
    /// Bytes on the air.
    pub bytes: u32,
    /// Duration, receiver and (RTS only) transmitter; no ether type.
    pub mac: MacFields,
}

/// A node starts a straight move (ns-2's setdest).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovementRecord {
    pub time: Instant,
    pub node: NodeId,
    pub from: (f64, f64, f64),
    pub to: (f64, f64),
    /// Metres per second.
    pub speed: f64,
}

/// A MAC frame as one radio NIC sees it: one it starts sending, or one
/// whose first bit reaches it (whether or not its MAC then receives it
/// intact).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameRecord {
    pub time: Instant,
    /// The NIC that sends or hears it.
    pub nic: NicId,
    /// The sending node (802.11's transmitter address).
    pub from: NodeId,
    pub to: LinkAddress,
    pub header: MacHeader,
    /// The packet a data frame carries.
    pub packet: Option<Packet>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TraceRecord {
    Packet(PacketRecord),
    RedQueue(RedQueueRecord),
    TcpEvent(TcpEventRecord),
    Var(VarRecord),
    Link(LinkRecord),
    /// Boxed: wireless records are rare next to link records and larger.
    Wireless(Box<WirelessRecord>),
    ControlFrame(Box<ControlFrameRecord>),
    Movement(MovementRecord),
    /// Boxed, like wireless records.
    Frame(Box<FrameRecord>),
    Lan(Box<LanRecord>),
}

impl TraceRecord {
    pub fn time(&self) -> Instant {
        match self {
            TraceRecord::Packet(p) => p.time,
            TraceRecord::RedQueue(r) => r.time,
            TraceRecord::TcpEvent(e) => e.time,
            TraceRecord::Var(v) => v.time,
            TraceRecord::Link(l) => l.time,
            TraceRecord::Wireless(w) => w.time,
            TraceRecord::ControlFrame(c) => c.time,
            TraceRecord::Movement(m) => m.time,
            TraceRecord::Frame(f) => f.time,
            TraceRecord::Lan(l) => l.time,
        }
    }
}

/// What a trace needs to know about a flow to print its packets as ns-2
/// does: packet numbers instead of byte sequence numbers, a type name.
/// `full_tcp`: ns-2's FullTcp, which numbers bytes and types every packet
/// of the listening side `ack`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowView {
    Udp {
        type_name: &'static str,
        fid: u32,
    },
    /// `syn`: the connection opened with a SYN, ns-2's packet 0; without
    /// one (ns-2's `syn_` false) packet 0 is the first data segment.
    Tcp {
        client: NodeId,
        client_iss: u32,
        server_iss: u32,
        mss: u32,
        syn: bool,
        fid: u32,
        full_tcp: bool,
    },
}
