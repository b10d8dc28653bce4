//! A UDP flow: a traffic source on one node and a counting sink on another.

use crate::histogram::Histogram;
use crate::source::{Traffic, UdpSource};

/// Counters kept by the source and the receiving sink.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UdpStats {
    pub tx_packets: u64,
    pub tx_bytes: u64,
    pub rx_packets: u64,
    pub rx_bytes: u64,
    /// One-way delays in picoseconds, creation to arrival at the sink.
    pub delay: Histogram,
}

pub struct UdpFlow {
    pub ports: (u16, u16),
    pub source: UdpSource,
    pub stats: UdpStats,
}

impl UdpFlow {
    pub fn kind(&self) -> &'static str {
        match self.source.config.traffic {
            Traffic::Cbr { .. } => "cbr",
            Traffic::Poisson { .. } => "poisson",
            Traffic::OnOff { .. } => "on_off",
        }
    }
}
