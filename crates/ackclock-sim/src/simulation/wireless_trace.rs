//! ns-2's wireless trace records (cmu-trace) of radio nodes: what the agent
//! (AGT), the routing layer (RTR) and the interface queue (IFQ) do with each
//! packet, and the start of each move. Built only when a tracer is on; the
//! trace crate lays them out (ns2_wireless.rs).

use super::{Simulation, INITIAL_TTL};
use ackclock_core::Instant;
use ackclock_net::{
    aodv, ControlMessage, Frame, LinkAddress, NicId, NodeId, PacketId, Position, BROADCAST, CONTROL_FLOW,
};
use ackclock_trace::{
    AodvFields, MacFields, MovementRecord, TraceRecord, WirelessEvent, WirelessLayer, WirelessRecord,
};

/// ns-2's next hop before routing chose one.
pub(super) const NO_NEXT_HOP: i64 = -2;

/// ns-2's ether type of IP, in the MAC header of a data frame.
const ETHERTYPE_IP: i64 = 0x800;

/// A packet event to trace at a radio node.
pub(super) struct RadioEvent {
    pub event: WirelessEvent,
    pub layer: WirelessLayer,
    pub reason: &'static str,
    pub next_hop: i64,
    pub mac: MacFields,
}

impl RadioEvent {
    /// A send or receive above the MAC, with no MAC header yet.
    pub fn above_mac(event: WirelessEvent, layer: WirelessLayer, next_hop: i64) -> Self {
        RadioEvent { event, layer, reason: "---", next_hop, mac: MacFields::default() }
    }

    /// A drop at `layer` of a packet queued for `to`.
    pub fn drop(layer: WirelessLayer, reason: &'static str, from: NodeId, to: LinkAddress) -> Self {
        let (dst, next_hop) = match to {
            LinkAddress::Node(n) => (i64::from(n), i64::from(n)),
            LinkAddress::Broadcast => (-1, NO_NEXT_HOP),
        };
        let mac = MacFields { duration_us: 0, dst, src: i64::from(from), ether_type: ETHERTYPE_IP };
        RadioEvent { event: WirelessEvent::Drop, layer, reason, next_hop, mac }
    }
}

/// The MAC header of a received data frame as ns-2 prints it.
pub(super) fn mac_fields(frame: &Frame) -> MacFields {
    let dst = match frame.to {
        LinkAddress::Node(n) => i64::from(n),
        LinkAddress::Broadcast => -1,
    };
    let duration_us = (frame.header.nav.as_ps() / 1_000_000) as i64;
    MacFields { duration_us, dst, src: i64::from(frame.from), ether_type: ETHERTYPE_IP }
}

/// ns-2's next hop for a link-layer address.
pub(super) fn next_hop(neighbor: NodeId) -> i64 {
    if neighbor == BROADCAST {
        NO_NEXT_HOP
    } else {
        i64::from(neighbor)
    }
}

fn aodv_fields(message: &aodv::Message) -> AodvFields {
    match message {
        aodv::Message::Request(r) => AodvFields::Request {
            hops: r.hop_count,
            id: r.id,
            dst: r.dst,
            dst_seq: r.dst_seqno,
            src: r.src,
            src_seq: r.src_seqno,
        },
        aodv::Message::Reply(r) => AodvFields::Reply {
            hops: r.hop_count,
            dst: r.dst,
            dst_seq: r.dst_seqno,
            lifetime: r.lifetime.as_secs_f64(),
        },
        aodv::Message::Error(lost) => {
            let (dst, dst_seq) = lost.first().copied().unwrap_or((0, 0));
            AodvFields::Error { count: lost.len() as u32, dst, dst_seq }
        }
    }
}

impl Simulation {
    /// `node`'s radio NIC, if a tracer wants its records.
    fn traced_radio(&self, node: NodeId) -> Option<NicId> {
        self.tracer.as_ref()?;
        self.radio_nic(node)
    }

    /// Traces `e` of packet `id` at `node`, if `node` is a radio node and a
    /// tracer is on.
    pub(super) fn trace_radio(&mut self, now: Instant, node: NodeId, id: PacketId, e: RadioEvent) {
        let Some(nic) = self.traced_radio(node) else { return };
        let Position { x, y, z } = self.radio_of(nic).position(nic, now);
        let packet = self.packets[id];
        let aodv = match self.messages.get(packet.seq as usize) {
            Some(Some((ControlMessage::Aodv(m), _))) if packet.flow == CONTROL_FLOW => Some(aodv_fields(m)),
            _ => None,
        };
        // ns-2 counts a hop when a node receives the packet from the air.
        let received = e.event == WirelessEvent::Receive && node != packet.ip.src;
        let hops = INITIAL_TTL.saturating_sub(packet.ip.ttl) + u8::from(received);
        let record = WirelessRecord {
            time: now,
            event: e.event,
            node,
            position: (x, y, z),
            layer: e.layer,
            reason: e.reason,
            packet,
            next_hop: e.next_hop,
            mac: e.mac,
            forwards: u32::from(hops),
            aodv,
        };
        if let Some(tracer) = self.tracer.as_mut() {
            tracer.record(TraceRecord::Wireless(Box::new(record)));
        }
    }

    /// A packet of `node`'s agent enters its routing layer: ns-2's AGT send
    /// and RTR receive records (once, when the agent sends it).
    pub(super) fn trace_radio_origin(&mut self, now: Instant, node: NodeId, id: PacketId) {
        let p = &self.packets[id];
        if p.ip.src != node || p.created != now || p.flow == CONTROL_FLOW {
            return;
        }
        for (event, layer) in
            [(WirelessEvent::Send, WirelessLayer::Agent), (WirelessEvent::Receive, WirelessLayer::Router)]
        {
            self.trace_radio(now, node, id, RadioEvent::above_mac(event, layer, NO_NEXT_HOP));
        }
    }

    /// A radio node starts a move (ns-2's `M` record).
    pub(super) fn trace_move(&mut self, now: Instant, nic: NicId, to: (f64, f64), speed: f64) {
        if self.tracer.is_none() {
            return;
        }
        let Position { x, y, z } = self.radio_of(nic).position(nic, now);
        let node = self.nics[nic as usize].node;
        let record = MovementRecord { time: now, node, from: (x, y, z), to, speed };
        if let Some(tracer) = self.tracer.as_mut() {
            tracer.record(TraceRecord::Movement(record));
        }
    }
}
