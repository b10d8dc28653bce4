//! Run results per link direction and per flow, in SI units.

use crate::tcp_flow::TcpFlow;
use ackclock_core::{Duration, Instant};
use ackclock_net::{NextHop, NodeId};

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

#[derive(Clone, Debug, PartialEq)]
pub struct FlowReport {
    pub id: u32,
    pub name: String,
    pub src: NodeId,
    pub dst: NodeId,
    pub kind: &'static str,
    pub tx_packets: u64,
    pub tx_bytes: u64,
    pub rx_packets: u64,
    pub rx_bytes: u64,
    pub mean_delay_s: Option<f64>,
    pub delay_p50_s: Option<f64>,
    pub delay_p95_s: Option<f64>,
    pub delay_p99_s: Option<f64>,
    pub max_delay_s: Option<f64>,
    /// Present for TCP flows.
    pub tcp: Option<TcpReport>,
}

/// What a TCP flow achieved, seen from the client (sender) side.
#[derive(Clone, Debug, PartialEq)]
pub struct TcpReport {
    pub cc: &'static str,
    /// Payload bytes the client put on the wire, retransmissions included.
    pub bytes_sent: u64,
    /// Bytes received in order by the server (readable by its application).
    pub bytes_delivered: u64,
    /// bytes_delivered over the time from start to completion (or now).
    pub goodput_bps: f64,
    pub retransmits: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    pub sack_recoveries: u64,
    pub dsacks: u64,
    pub spurious_retransmits: u64,
    pub rtt_min_s: Option<f64>,
    pub rtt_mean_s: Option<f64>,
    pub rtt_max_s: Option<f64>,
    /// From start until the transfer (or the last exchange) completed.
    pub completion_time_s: Option<f64>,
    /// The client's send MSS after negotiation.
    pub mss: u32,
    pub cwnd_bytes: u32,
    pub ssthresh_bytes: u32,
    pub client_state: String,
    pub server_state: String,
}

impl TcpReport {
    pub fn new(t: &TcpFlow, now: Instant) -> Self {
        let s = t.client.stats();
        let start = t.config.start;
        let end = t.completed_at.unwrap_or(now);
        let elapsed = end.saturating_since(start).as_secs_f64();
        let secs = |d: Option<Duration>| d.map(|d| d.as_secs_f64());
        TcpReport {
            cc: t.client.cc_name(),
            bytes_sent: s.bytes_sent,
            bytes_delivered: t.server.bytes_received(),
            goodput_bps: if elapsed > 0.0 { t.server.bytes_received() as f64 * 8.0 / elapsed } else { 0.0 },
            retransmits: s.retransmits,
            fast_retransmits: s.fast_retransmits,
            timeouts: s.timeouts,
            sack_recoveries: s.sack_recoveries,
            dsacks: s.dsacks,
            spurious_retransmits: s.spurious_retransmits,
            rtt_min_s: secs(s.rtt_min),
            rtt_mean_s: secs(s.rtt_mean()),
            rtt_max_s: secs(s.rtt_max),
            completion_time_s: t.completed_at.map(|c| c.saturating_since(start).as_secs_f64()),
            mss: t.client.mss(),
            cwnd_bytes: t.client.cwnd(),
            ssthresh_bytes: t.client.ssthresh(),
            client_state: format!("{:?}", t.client.state()),
            server_state: format!("{:?}", t.server.state()),
        }
    }
}
