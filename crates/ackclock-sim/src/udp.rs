//! A UDP flow: a traffic source on one node and a counting sink on another
//! (what arrives is counted by the flow's monitor), or an echo pair (ns-2's
//! Agent/Ping): requests sent on demand, answered by the far end.

use crate::shaper::TokenBucket;
use crate::source::{Traffic, UdpSource};
use ackclock_net::PacketId;

pub struct UdpFlow {
    pub ports: (u16, u16),
    pub source: UdpSource,
    /// An echo flow: its sink answers each request with a reply to the
    /// source, which reports it as a [`crate::simulation::Notice`].
    pub echo: bool,
    /// A token bucket between the source and its node (ns-2's TBF).
    pub shaper: Option<TokenBucket<PacketId>>,
}

impl UdpFlow {
    pub fn kind(&self) -> &'static str {
        if self.echo {
            return "ping";
        }
        match self.source.config.traffic {
            Traffic::Cbr { .. } => "cbr",
            Traffic::Poisson { .. } => "poisson",
            Traffic::OnOff { .. } => "on_off",
        }
    }
}
