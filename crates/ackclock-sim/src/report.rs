//! Run results per link direction and per flow, in SI units.

use crate::monitor::FlowMonitor;
use crate::tcp_flow::TcpFlow;
use ackclock_core::{Duration, Instant, PS_PER_SEC};
use ackclock_net::{ChannelId, NextHop, NodeId};

#[derive(Clone, Debug, PartialEq)]
pub struct LinkReport {
    pub id: u32,
    pub src: NodeId,
    pub dst: NodeId,
    pub bandwidth_bps: u64,
    pub delay_s: f64,
    /// Packets that started transmission.
    pub tx_packets: u64,
    pub tx_bytes: u64,
    pub queue_drops: u64,
    pub loss_drops: u64,
    /// Packets lost because the link was down.
    pub down_drops: u64,
    /// Whether the link is up now.
    pub up: bool,
    pub ecn_marks: u64,
    /// Busy time over elapsed time.
    pub utilization: f64,
    /// From the start of the first transmission to the end of the last
    /// (or now, while one is under way): the time the link carried traffic.
    pub active_s: f64,
    /// Busy time over active_s: a link saturated for a while and then idle
    /// shows 1, where `utilization` counts the idle tail too.
    pub active_utilization: f64,
    /// Time averages of the packets and bytes waiting (not in service).
    pub mean_queue_packets: f64,
    pub mean_queue_bytes: f64,
}

impl LinkReport {
    pub fn drops(&self) -> u64 {
        self.queue_drops + self.loss_drops + self.down_drops
    }
}

/// What happened at a node, beyond its links.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeReport {
    pub id: NodeId,
    pub name: String,
    /// `static`, `session` or the protocol's name.
    pub routing: &'static str,
    /// Packets dropped for want of a route (none on arrival and no room to
    /// wait, or none before their wait ran out).
    pub no_route_drops: u64,
    /// Packets dropped because their time to live ran out.
    pub ttl_drops: u64,
    /// Packets waiting for a route now.
    pub waiting: usize,
    /// Present when the node has a processor.
    pub processor: Option<ProcessorReport>,
}

/// What a node's processor did.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcessorReport {
    /// Packets handled.
    pub packets: u64,
    /// Arrivals refused by the full queue.
    pub drops: u64,
    /// Busy time over elapsed time.
    pub utilization: f64,
    /// Mean time an accepted packet waited before its handling began.
    pub mean_wait_s: Option<f64>,
    /// The most packets an arrival found waiting.
    pub max_waiting: u32,
    /// Packets waiting now.
    pub waiting: u32,
}

/// A NIC on a shared medium.
#[derive(Clone, Debug, PartialEq)]
pub struct NicReport {
    pub id: u32,
    pub node: NodeId,
    pub medium: u32,
    pub tx_packets: u64,
    pub tx_bytes: u64,
    /// Packets received for this node (or broadcast).
    pub rx_packets: u64,
    /// Packets refused by the full interface queue.
    pub queue_drops: u64,
    /// Frames that arrived spoilt.
    pub rx_errors: u64,
    /// Packets the MAC gave up on (no link-layer acknowledgement).
    pub link_failures: u64,
    /// Packets dropped while their neighbour's address was resolved
    /// (ns-2's `IFQ ARP`).
    pub arp_drops: u64,
    /// Packets in the interface queue now.
    pub queued: usize,
    /// Time spent sending over elapsed time.
    pub utilization: f64,
}

/// A node's route to a destination changed (recorded on request).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteChange {
    pub time: Instant,
    pub node: NodeId,
    pub dst: NodeId,
    /// The new way out; `None` when the route was withdrawn.
    pub via: Option<NextHop>,
}

/// A flow's packets from its source to its destination node (for TCP: the
/// data direction, retransmissions included), as ns-3's FlowMonitor
/// reports them; see [`FlowMonitor`].
#[derive(Clone, Debug, PartialEq)]
pub struct FlowReport {
    pub id: u32,
    pub name: String,
    pub src: NodeId,
    pub dst: NodeId,
    pub kind: &'static str,
    pub tx_packets: u64,
    /// IP bytes, headers included.
    pub tx_bytes: u64,
    pub rx_packets: u64,
    pub rx_bytes: u64,
    /// Packets dropped on the way (queues, error models, no route).
    pub lost_packets: u64,
    /// lost_packets / tx_packets (0 before anything was sent).
    pub loss_rate: f64,
    /// Drops by link, in the order of each link's first drop.
    pub link_drops: Vec<(ChannelId, u64)>,
    pub mean_delay_s: Option<f64>,
    pub delay_p50_s: Option<f64>,
    pub delay_p95_s: Option<f64>,
    pub delay_p99_s: Option<f64>,
    pub max_delay_s: Option<f64>,
    /// The mean delay variation of consecutive deliveries (RFC 3393).
    pub mean_jitter_s: Option<f64>,
    /// From the first packet sent to the last delivered.
    pub active_s: Option<f64>,
    /// rx_bytes over active_s (0 without one).
    pub throughput_bps: f64,
    /// Application bytes delivered over the application's active time: for
    /// UDP the payload over active_s, for TCP the bytes received in order
    /// from the client's start until the transfer completed (or now).
    pub goodput_bps: f64,
    /// Present for TCP flows.
    pub tcp: Option<TcpReport>,
}

impl FlowReport {
    pub fn new(
        id: u32,
        name: &str,
        (src, dst): (NodeId, NodeId),
        kind: &'static str,
        m: &FlowMonitor,
        goodput_bps: f64,
        tcp: Option<TcpReport>,
    ) -> Self {
        let secs = |ps: u64| ps as f64 / PS_PER_SEC as f64;
        let active_s = m.active().map(Duration::as_secs_f64);
        FlowReport {
            id,
            name: name.to_string(),
            src,
            dst,
            kind,
            tx_packets: m.tx_packets,
            tx_bytes: m.tx_bytes,
            rx_packets: m.rx_packets,
            rx_bytes: m.rx_bytes,
            lost_packets: m.drops,
            loss_rate: if m.tx_packets > 0 { m.drops as f64 / m.tx_packets as f64 } else { 0.0 },
            link_drops: m.link_drops.clone(),
            mean_delay_s: m.delay.mean().map(|mean| mean / PS_PER_SEC as f64),
            delay_p50_s: m.delay.quantile(0.5).map(secs),
            delay_p95_s: m.delay.quantile(0.95).map(secs),
            delay_p99_s: m.delay.quantile(0.99).map(secs),
            max_delay_s: m.delay.max().map(secs),
            mean_jitter_s: m.mean_jitter().map(|mean| mean / PS_PER_SEC as f64),
            active_s,
            throughput_bps: active_s.map_or(0.0, |active| m.rx_bytes as f64 * 8.0 / active),
            goodput_bps,
            tcp,
        }
    }
}

/// What a TCP flow achieved, seen from the client (sender) side.
#[derive(Clone, Debug, PartialEq)]
pub struct TcpReport {
    pub cc: &'static str,
    /// Payload bytes the client put on the wire, retransmissions included.
    pub bytes_sent: u64,
    /// Bytes received in order by the server (readable by its application).
    pub bytes_delivered: u64,
    pub retransmits: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    pub timeouts_after_ecn: u64,
    pub loss_probes: u64,
    pub ecn_reductions: u64,
    pub sack_recoveries: u64,
    pub dsacks: u64,
    /// Segments the client received (for a one-way sender: its ACKs).
    pub segments_received: u64,
    pub spurious_retransmits: u64,
    pub undos: u64,
    pub rtt_min_s: Option<f64>,
    pub rtt_mean_s: Option<f64>,
    pub rtt_max_s: Option<f64>,
    /// From start until the transfer (or the last exchange) completed.
    pub completion_time_s: Option<f64>,
    /// The client's send MSS after negotiation.
    pub mss: u32,
    pub cwnd_bytes: u32,
    /// The client's cwnd averaged over time, from its start until the
    /// transfer completed (or now).
    pub mean_cwnd_bytes: Option<f64>,
    pub ssthresh_bytes: u32,
    pub client_state: String,
    pub server_state: String,
}

impl TcpReport {
    pub fn new(t: &TcpFlow, now: Instant) -> Self {
        let s = t.client.stats();
        let start = t.config.start;
        let secs = |d: Option<Duration>| d.map(|d| d.as_secs_f64());
        TcpReport {
            cc: t.client.cc_name(),
            bytes_sent: s.bytes_sent,
            bytes_delivered: t.server.bytes_received(),
            retransmits: s.retransmits,
            fast_retransmits: s.fast_retransmits,
            timeouts: s.timeouts,
            timeouts_after_ecn: s.timeouts_after_ecn,
            loss_probes: s.loss_probes,
            ecn_reductions: s.ecn_reductions,
            sack_recoveries: s.sack_recoveries,
            dsacks: s.dsacks,
            segments_received: s.segments_received,
            spurious_retransmits: s.spurious_retransmits,
            undos: s.undos,
            rtt_min_s: secs(s.rtt_min),
            rtt_mean_s: secs(s.rtt_mean()),
            rtt_max_s: secs(s.rtt_max),
            completion_time_s: t.completed_at.map(|c| c.saturating_since(start).as_secs_f64()),
            mss: t.client.mss(),
            cwnd_bytes: t.client.cwnd(),
            mean_cwnd_bytes: t.mean_cwnd(now),
            ssthresh_bytes: t.client.ssthresh(),
            client_state: format!("{:?}", t.client.state()),
            server_state: format!("{:?}", t.server.state()),
        }
    }
}
