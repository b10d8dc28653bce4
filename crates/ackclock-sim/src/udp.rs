//! A UDP flow: a traffic source on one node and a counting sink on another
//! (what arrives is counted by the flow's monitor).

use crate::source::{Traffic, UdpSource};

pub struct UdpFlow {
    pub ports: (u16, u16),
    pub source: UdpSource,
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
