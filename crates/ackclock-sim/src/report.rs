//! Run results per link direction and per flow, in SI units.

use ackclock_net::NodeId;

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
    pub ecn_marks: u64,
    /// Busy time over elapsed time.
    pub utilization: f64,
    /// Time averages of the packets and bytes waiting (not in service).
    pub mean_queue_packets: f64,
    pub mean_queue_bytes: f64,
}

impl LinkReport {
    pub fn drops(&self) -> u64 {
        self.queue_drops + self.loss_drops
    }
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
}
