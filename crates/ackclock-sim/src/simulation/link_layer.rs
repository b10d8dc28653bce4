//! ns-2's link layer on radio NICs (mac/ll.cc, mac/arp.cc): packets go
//! down to the interface queue and up to the node after the LL's delay,
//! and a unicast packet to a neighbour not yet resolved waits for ARP (see
//! `ackclock_net::link_layer`). Only NICs with a link layer come here.

use super::wireless_trace::RadioEvent;
use super::{Event, Simulation};
use ackclock_core::{Duration, Instant};
use ackclock_net::{
    Ecn, Frame, LinkAddress, NicId, NodeId, PacketId, Queued, Resolution, Transport, UdpHeader, ARP_DELAY, ARP_FLOW,
    ARP_PACKET_BYTES, ARP_REPLY, ARP_REQUEST, CONTROL_FLOW,
};
use ackclock_trace::WirelessLayer;

/// A packet on its way through a link layer.
#[derive(Clone, Copy, Debug)]
pub(super) enum Crossing {
    /// To the NIC's interface queue, for `to`.
    Down { nic: NicId, to: LinkAddress, packet: PacketId },
    /// Up to the NIC's node, from the frame that brought it.
    Up { nic: NicId, packet: PacketId, frame: Frame },
}

impl Simulation {
    /// ns-2's `LL::sendDown`: resolves a unicast neighbour, then queues the
    /// packet after the LL's delay.
    pub(super) fn link_layer_down(&mut self, now: Instant, nic: NicId, to: LinkAddress, id: PacketId) {
        let n = &mut self.nics[nic as usize];
        let ll = n.link_layer.as_mut().expect("a NIC with a link layer");
        let delay = ll.delay;
        let (LinkAddress::Node(neighbor), Some(arp)) = (to, ll.arp.as_mut()) else {
            self.cross_later(now, delay, Crossing::Down { nic, to, packet: id });
            return;
        };
        match arp.resolve(neighbor, id) {
            Resolution::Send => self.cross_later(now, delay, Crossing::Down { nic, to, packet: id }),
            Resolution::Request { replaced } => {
                if let Some(old) = replaced {
                    self.arp_drop(now, nic, to, old);
                }
                let node = self.nics[nic as usize].node;
                let request = self.arp_packet(now, node, neighbor, ARP_REQUEST);
                let down = Crossing::Down { nic, to: LinkAddress::Broadcast, packet: request };
                self.cross_later(now, ARP_DELAY, down);
            }
            Resolution::GiveUp { held } => {
                for packet in held.into_iter().chain([id]) {
                    self.arp_give_up(now, nic, to, packet);
                }
            }
        }
    }

    /// A packet the MAC hands up: ARP packets are the link layer's own,
    /// others go up after its delay.
    pub(super) fn link_layer_up(&mut self, now: Instant, nic: NicId, packet: PacketId, frame: Frame) {
        if self.packets[packet].flow == ARP_FLOW {
            self.arp_input(now, nic, packet);
            return;
        }
        let delay = self.nics[nic as usize].link_layer.as_ref().map_or(Duration::ZERO, |ll| ll.delay);
        self.cross_later(now, delay, Crossing::Up { nic, packet, frame });
    }

    fn cross_later(&mut self, now: Instant, delay: Duration, crossing: Crossing) {
        if delay == Duration::ZERO {
            self.cross(now, crossing);
            return;
        }
        let slot = match self.ll_free.pop() {
            Some(slot) => {
                self.ll_pending[slot as usize] = Some(crossing);
                slot
            }
            None => {
                self.ll_pending.push(Some(crossing));
                (self.ll_pending.len() - 1) as u32
            }
        };
        self.schedule_after(now, delay, Event::LinkLayer(slot));
    }

    pub(super) fn on_link_layer(&mut self, now: Instant, slot: u32) {
        let crossing = self.ll_pending[slot as usize].take().expect("a packet in the link layer");
        self.ll_free.push(slot);
        self.cross(now, crossing);
    }

    fn cross(&mut self, now: Instant, crossing: Crossing) {
        match crossing {
            Crossing::Down { nic, to, packet } => self.enqueue_on_nic(now, nic, to, packet),
            Crossing::Up { nic, packet, frame } => self.deliver_up(now, nic, packet, &frame),
        }
    }

    /// ns-2's `arpinput`: the sender is resolved and gets what was held for
    /// it; a request for this node is answered.
    fn arp_input(&mut self, now: Instant, nic: NicId, packet: PacketId) {
        let p = &self.packets[packet];
        let (sender, target, op) = (p.ip.src, p.ip.dst, p.seq);
        self.discard_packet(packet);
        let node = self.nics[nic as usize].node;
        let to = LinkAddress::Node(sender);
        let arp = self.nics[nic as usize].link_layer.as_mut().and_then(|ll| ll.arp.as_mut());
        let Some(arp) = arp else { return }; // ARP off here: not understood
        if let Some(held) = arp.learn(sender) {
            self.cross_later(now, ARP_DELAY, Crossing::Down { nic, to, packet: held });
        }
        if op == ARP_REQUEST && target == node {
            let reply = self.arp_packet(now, node, sender, ARP_REPLY);
            self.cross_later(now, ARP_DELAY, Crossing::Down { nic, to, packet: reply });
        }
    }

    fn arp_packet(&mut self, now: Instant, sender: NodeId, target: NodeId, op: u64) -> PacketId {
        let transport = Transport::Udp(UdpHeader { src_port: 0, dst_port: 0 });
        self.new_packet(now, ARP_FLOW, (sender, target), Ecn::NotEct, transport, ARP_PACKET_BYTES, op)
    }

    /// ns-2's `IFQ ARP` drop of a packet waiting for its neighbour. The
    /// link layer has not written the frame's destination yet.
    fn arp_drop(&mut self, now: Instant, nic: NicId, to: LinkAddress, packet: PacketId) {
        let n = &mut self.nics[nic as usize];
        n.stats.arp_drops += 1;
        let node = n.node;
        let mut e = RadioEvent::drop(WirelessLayer::Ifq, "ARP", node, to);
        e.mac.dst = 0;
        self.trace_radio(now, node, packet, e);
        self.drop_packet(packet, None);
    }

    /// After `ARP_MAX_REQUEST_COUNT` unanswered requests ns-2 calls the
    /// packet's failure callback, which ad hoc routing sets on data
    /// packets; others are dropped.
    fn arp_give_up(&mut self, now: Instant, nic: NicId, to: LinkAddress, packet: PacketId) {
        let node = self.nics[nic as usize].node;
        if self.packets[packet].flow != CONTROL_FLOW && self.has_failure_callback(node, packet) {
            let bytes = self.packets[packet].size;
            self.link_failed(now, nic, Queued { packet, bytes, to });
        } else {
            self.arp_drop(now, nic, to, packet);
        }
    }
}
