//! A UDP flow: a traffic source on one node and a counting sink on another
//! (what arrives is counted by the flow's monitor), an echo pair (ns-2's
//! Agent/Ping): requests sent on demand, answered by the far end, or a
//! message sender (ns-2's `$udp send`): packets sent on demand, each
//! arrival told to the front end.

use crate::shaper::TokenBucket;
use crate::source::{Traffic, UdpSource};
use ackclock_net::PacketId;
use std::collections::VecDeque;

pub struct UdpFlow {
    pub ports: (u16, u16),
    pub source: UdpSource,
    pub role: UdpRole,
    /// A token bucket between the source and its node (ns-2's TBF).
    pub shaper: Option<TokenBucket<PacketId>>,
}

/// What a UDP flow's ends do besides carrying packets.
pub enum UdpRole {
    /// The source sends what its traffic model generates.
    Source,
    /// The sink answers each request with a reply to the source, which
    /// reports it as a [`crate::simulation::Notice`].
    Echo,
    /// The source sends the packets the front end asks for (their sizes,
    /// oldest first, wait in `pending`); each arrival at the sink is a
    /// notice carrying the packet's sequence number.
    Messages { pending: VecDeque<u32> },
}

impl UdpFlow {
    pub fn kind(&self) -> &'static str {
        match self.role {
            UdpRole::Echo => return "ping",
            UdpRole::Messages { .. } => return "udp",
            UdpRole::Source => {}
        }
        match self.source.config.traffic {
            Traffic::Cbr { .. } => "cbr",
            Traffic::Poisson { .. } => "poisson",
            Traffic::OnOff { .. } => "on_off",
        }
    }
}
