//! Per-flow counters kept by the source and the receiving sink.

use crate::histogram::Histogram;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlowStats {
    pub tx_packets: u64,
    pub tx_bytes: u64,
    pub rx_packets: u64,
    pub rx_bytes: u64,
    /// One-way delays in picoseconds, creation to arrival at the sink.
    pub delay: Histogram,
}
