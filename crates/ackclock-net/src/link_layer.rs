//! ns-2 2.35's link layer between a radio node and its interface queue
//! (mac/ll.cc, mac/arp.cc): a fixed delay each way and ARP. Before the
//! first unicast frame to a neighbour the link layer holds the packet and
//! broadcasts a request; any ARP packet heard from a node (its request or
//! its reply) makes it resolved for good, and the packet held for it goes
//! down. Entries never expire. Sans-I/O: the engine makes, delays and
//! sends the packets this asks for.

use crate::packet::NodeId;
use crate::pool::PacketId;
use ackclock_core::Duration;

/// ns-2's `LL set delay_`: a packet enters the interface queue this long
/// after routing sends it, and goes up this long after the MAC hands it up.
pub const NS2_LL_DELAY: Duration = Duration::from_micros(25);

/// ns-2's `ARPTable set delay_`: ARP packets, and a held packet once its
/// neighbour is resolved, enter the queue this long after they are made.
pub const ARP_DELAY: Duration = Duration::from_micros(5);

/// How a radio channel's NICs' link layers work; the default is ns-2's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkLayerConfig {
    pub delay: Duration,
    pub arp: bool,
}

impl Default for LinkLayerConfig {
    fn default() -> Self {
        LinkLayerConfig { delay: NS2_LL_DELAY, arp: true }
    }
}

/// A radio NIC's link layer.
#[derive(Clone, Debug)]
pub struct LinkLayer {
    pub delay: Duration,
    /// `None` when ARP is off: every neighbour counts as resolved.
    pub arp: Option<ArpTable>,
}

impl LinkLayer {
    /// `None` when there is nothing to model: no delay, no ARP.
    pub fn new(config: LinkLayerConfig) -> Option<Self> {
        let arp = config.arp.then(ArpTable::default);
        (config.delay > Duration::ZERO || arp.is_some()).then_some(LinkLayer { delay: config.delay, arp })
    }
}

/// An ARP packet's size (ns-2's `ARP_HDR_LEN`); the MAC adds its header.
pub const ARP_PACKET_BYTES: u32 = 28;

/// ns-2's `ARP_MAX_REQUEST_COUNT`: the request count at which the next
/// packet gives up on the destination (and resets the count).
const MAX_REQUESTS: u32 = 3;

/// What to do with a unicast packet for a neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The neighbour is resolved: send the packet.
    Send,
    /// The packet is held; broadcast a request. `replaced` is the packet
    /// held before, dropped (ns-2's `IFQ ARP` drop).
    Request { replaced: Option<PacketId> },
    /// Too many requests went unanswered: the packet and the one held are
    /// both given up on (ns-2 calls routing's failure callback, or drops
    /// them as `IFQ ARP`); no request is sent.
    GiveUp { held: Option<PacketId> },
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    neighbor: NodeId,
    resolved: bool,
    requests: u32,
    held: Option<PacketId>,
}

#[derive(Clone, Debug, Default)]
pub struct ArpTable {
    /// Few neighbours per node: a list, searched as ns-2 does.
    entries: Vec<Entry>,
}

impl ArpTable {
    fn entry(&mut self, neighbor: NodeId) -> &mut Entry {
        let i = match self.entries.iter().position(|e| e.neighbor == neighbor) {
            Some(i) => i,
            None => {
                self.entries.push(Entry { neighbor, resolved: false, requests: 0, held: None });
                self.entries.len() - 1
            }
        };
        &mut self.entries[i]
    }

    /// `packet` is to go to `neighbor` (ns-2's `arpresolve`).
    pub fn resolve(&mut self, neighbor: NodeId, packet: PacketId) -> Resolution {
        let e = self.entry(neighbor);
        if e.resolved {
            return Resolution::Send;
        }
        if e.requests >= MAX_REQUESTS {
            e.requests = 0;
            return Resolution::GiveUp { held: e.held.take() };
        }
        e.requests += 1;
        Resolution::Request { replaced: e.held.replace(packet) }
    }

    /// An ARP packet from `sender` arrived (ns-2's `arpinput`): `sender` is
    /// resolved; returns the packet held for it, to send now.
    pub fn learn(&mut self, sender: NodeId) -> Option<PacketId> {
        let e = self.entry(sender);
        e.resolved = true;
        e.held.take()
    }

    pub fn is_resolved(&self, neighbor: NodeId) -> bool {
        self.entries.iter().any(|e| e.neighbor == neighbor && e.resolved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_packet_replaces_the_held_one_and_the_fourth_gives_up_on_both() {
        let mut t = ArpTable::default();
        let p = PacketId::new;
        assert_eq!(t.resolve(1, p(0)), Resolution::Request { replaced: None });
        assert_eq!(t.resolve(1, p(1)), Resolution::Request { replaced: Some(p(0)) });
        assert_eq!(t.resolve(1, p(2)), Resolution::Request { replaced: Some(p(1)) });
        assert_eq!(t.resolve(1, p(3)), Resolution::GiveUp { held: Some(p(2)) });
        // The count starts over.
        assert_eq!(t.resolve(1, p(4)), Resolution::Request { replaced: None });
        assert!(!t.is_resolved(1));
        assert_eq!(t.learn(1), Some(p(4)));
        assert_eq!(t.resolve(1, p(5)), Resolution::Send);
        assert_eq!(t.learn(1), None, "nothing held once resolved");
    }

    #[test]
    fn hearing_a_node_resolves_it_without_a_request_of_ones_own() {
        let mut t = ArpTable::default();
        assert_eq!(t.learn(7), None);
        assert!(t.is_resolved(7));
        assert_eq!(t.resolve(7, PacketId::new(0)), Resolution::Send);
        assert!(!t.is_resolved(8));
    }
}
