//! ns-2's wireless trace records (cmu-trace) of radio nodes: what the agent
//! (AGT), the routing layer (RTR), the interface queue (IFQ) and the 802.11
//! MAC (MAC, only while a trace wants it) do with each packet and frame, and
//! the start of each move. Built only when a tracer is on; the trace crate
//! lays them out (ns2_wireless.rs).

use super::{Simulation, INITIAL_TTL};
use ackclock_core::Instant;
use ackclock_net::{
    aodv, ControlMessage, Frame, FrameKind, LinkAddress, MacDrop, MacEvent, NicId, NodeId, PacketId, Position,
    ARP_FLOW, BROADCAST, CONTROL_FLOW,
};
use ackclock_trace::{
    AodvFields, ControlFrameRecord, ControlKind, MacFields, MovementRecord, TraceRecord, WirelessEvent, WirelessLayer,
    WirelessRecord,
};

/// ns-2's next hop before routing chose one.
pub(super) const NO_NEXT_HOP: i64 = -2;

/// ns-2's ether types of IP and ARP, in the MAC header of a data frame.
const ETHERTYPE_IP: i64 = 0x800;
const ETHERTYPE_ARP: i64 = 0x806;

/// A packet event to trace at a radio node.
pub(super) struct RadioEvent {
    pub event: WirelessEvent,
    pub layer: WirelessLayer,
    pub reason: &'static str,
    pub next_hop: i64,
    pub mac: MacFields,
    /// Whether this node has counted the packet's hop over the air (ns-2
    /// counts it when its MAC takes the frame).
    pub hop_counted: bool,
    /// The size to show instead of the packet's (a frame's, MAC header
    /// included).
    pub size: Option<u32>,
}

impl RadioEvent {
    /// A send or receive above the MAC, with no MAC header yet.
    pub fn above_mac(event: WirelessEvent, layer: WirelessLayer, next_hop: i64) -> Self {
        let hop_counted = event == WirelessEvent::Receive;
        RadioEvent { event, layer, reason: "---", next_hop, mac: MacFields::default(), hop_counted, size: None }
    }

    /// A data frame carrying the packet, at the MAC.
    fn at_mac(event: WirelessEvent, frame: &Frame) -> Self {
        RadioEvent { mac: mac_fields(frame), ..RadioEvent::above_mac(event, WirelessLayer::Mac, frame_next_hop(frame)) }
    }

    /// A drop at `layer` of a packet queued for `to`.
    pub fn drop(layer: WirelessLayer, reason: &'static str, from: NodeId, to: LinkAddress) -> Self {
        let (dst, next_hop) = match to {
            LinkAddress::Node(n) => (i64::from(n), i64::from(n)),
            LinkAddress::Broadcast => (-1, NO_NEXT_HOP),
        };
        let mac = MacFields { duration_us: 0, dst, src: i64::from(from), ether_type: ETHERTYPE_IP };
        RadioEvent { mac, reason, ..RadioEvent::above_mac(WirelessEvent::Drop, layer, next_hop) }
    }
}

/// A frame's MAC header as ns-2 prints it: a control frame has no ether
/// type, and of the control frames only an RTS names its transmitter.
pub(super) fn mac_fields(frame: &Frame) -> MacFields {
    let dst = match frame.to {
        LinkAddress::Node(n) => i64::from(n),
        LinkAddress::Broadcast => -1,
    };
    let duration_us = (frame.header.nav.as_ps() / 1_000_000) as i64;
    let src = i64::from(frame.from);
    match frame.header.kind {
        FrameKind::Data => MacFields { duration_us, dst, src, ether_type: ETHERTYPE_IP },
        FrameKind::Rts => MacFields { duration_us, dst, src, ether_type: 0 },
        FrameKind::Cts | FrameKind::Ack => MacFields { duration_us, dst, src: 0, ether_type: 0 },
    }
}

/// The next hop a frame's packet carries: its receiver, or ns-2's unset
/// -2 for a broadcast.
pub(super) fn frame_next_hop(frame: &Frame) -> i64 {
    match frame.to {
        LinkAddress::Node(n) => i64::from(n),
        LinkAddress::Broadcast => NO_NEXT_HOP,
    }
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
        // ns-2's trace reads an RERR as if it were a reply: the field it
        // prints as the sequence number holds the second unreachable
        // destination (0 when there is one).
        aodv::Message::Error(lost) => AodvFields::Error {
            count: lost.len() as u32,
            dst: lost.first().map_or(0, |&(dst, _)| dst),
            dst_seq: lost.get(1).map_or(0, |&(dst, _)| dst),
        },
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
        if let Some(record) = self.radio_record(now, node, id, e) {
            self.record_radio(record);
        }
    }

    pub(super) fn record_radio(&mut self, record: WirelessRecord) {
        let place = self.queue.current_key();
        if let Some(tracer) = self.tracer.as_mut() {
            tracer.record(TraceRecord::Wireless(Box::new(record)), place);
        }
    }

    /// The record of `e` of packet `id` at `node`, if `node` is a radio
    /// node and a tracer is on.
    fn radio_record(&mut self, now: Instant, node: NodeId, id: PacketId, e: RadioEvent) -> Option<WirelessRecord> {
        let nic = self.traced_radio(node)?;
        let Position { x, y, z } = self.radio_of(nic).position(nic, now);
        let mut packet = self.packets[id];
        if let Some(size) = e.size {
            packet.size = size;
        }
        let aodv = match self.messages.get(packet.seq as usize) {
            Some(Some((ControlMessage::Aodv(m), _))) if packet.flow == CONTROL_FLOW => Some(aodv_fields(m)),
            _ => None,
        };
        let mut mac = e.mac;
        // ns-2's AODV gives a route error next hop 0 (aodv.cc, sendError),
        // which its broadcast keeps; ARP packets never get one.
        let next_hop = match aodv {
            Some(AodvFields::Error { .. }) if e.next_hop == NO_NEXT_HOP => 0,
            _ if packet.flow == ARP_FLOW => {
                mac.ether_type = ETHERTYPE_ARP;
                NO_NEXT_HOP
            }
            _ => e.next_hop,
        };
        // ns-2 counts a hop when a node receives the packet from the air.
        let received = e.hop_counted && node != packet.ip.src;
        let hops = INITIAL_TTL.saturating_sub(packet.ip.ttl) + u8::from(received);
        Some(WirelessRecord {
            time: now,
            event: e.event,
            node,
            position: (x, y, z),
            layer: e.layer,
            reason: e.reason,
            packet,
            next_hop,
            mac,
            forwards: u32::from(hops),
            aodv,
        })
    }

    // --- the MAC level (ns-2's -macTrace), while `mac_traced` ---

    /// A NIC's MAC starts sending `frame`.
    pub(super) fn trace_mac_send(&mut self, now: Instant, nic: NicId, frame: &Frame) {
        match frame.packet {
            Some(id) => {
                let e = RadioEvent { size: Some(frame.bytes), ..RadioEvent::at_mac(WirelessEvent::Send, frame) };
                self.trace_radio(now, self.nics[nic as usize].node, id, e);
            }
            None => self.trace_control(now, nic, WirelessEvent::Send, "---", frame),
        }
    }

    /// A NIC's MAC passes up the packet of `frame`.
    pub(super) fn trace_mac_receive(&mut self, now: Instant, node: NodeId, id: PacketId, frame: &Frame) {
        self.trace_radio(now, node, id, RadioEvent::at_mac(WirelessEvent::Receive, frame));
    }

    /// Traces what a NIC's MAC reports. The record of a data frame given up
    /// after its retries is returned instead: ns-2 writes it after routing
    /// has heard of the failure.
    pub(super) fn trace_mac_event(&mut self, now: Instant, nic: NicId, event: MacEvent) -> Option<WirelessRecord> {
        let (frame, why) = match event {
            MacEvent::Control(frame) => {
                self.trace_control(now, nic, WirelessEvent::Receive, "---", &frame);
                return None;
            }
            MacEvent::Drop(frame, why) => (frame, why),
        };
        let Some(id) = frame.packet else {
            self.trace_control(now, nic, WirelessEvent::Drop, why.reason(), &frame);
            return None;
        };
        let node = self.nics[nic as usize].node;
        let e = RadioEvent { reason: why.reason(), ..RadioEvent::at_mac(WirelessEvent::Drop, &frame) };
        match why {
            // Dropped on arrival, before ns-2's MAC strips its header.
            MacDrop::Collision => self.trace_radio(now, node, id, RadioEvent { size: Some(frame.bytes), ..e }),
            // Shown without its MAC header if routing was called back
            // (ns-2's MAC strips it for the callback).
            MacDrop::RetryLimit => {
                let size = (!self.has_failure_callback(node, id)).then_some(frame.bytes);
                return self.radio_record(now, node, id, RadioEvent { size, ..e });
            }
            // Taken, then refused: header stripped, hop counted.
            MacDrop::Duplicate | MacDrop::Busy | MacDrop::InvalidState => {
                self.trace_radio(now, node, id, RadioEvent { hop_counted: true, ..e });
            }
        }
        None
    }

    fn trace_control(&mut self, now: Instant, nic: NicId, event: WirelessEvent, reason: &'static str, frame: &Frame) {
        if self.tracer.is_none() {
            return;
        }
        let Position { x, y, z } = self.radio_of(nic).position(nic, now);
        let kind = match frame.header.kind {
            FrameKind::Rts => ControlKind::Rts,
            FrameKind::Cts => ControlKind::Cts,
            FrameKind::Ack => ControlKind::Ack,
            FrameKind::Data => unreachable!("a data frame carries a packet"),
        };
        let record = ControlFrameRecord {
            time: now,
            event,
            node: self.nics[nic as usize].node,
            position: (x, y, z),
            reason,
            kind,
            bytes: frame.bytes,
            mac: mac_fields(frame),
        };
        let place = self.queue.current_key();
        if let Some(tracer) = self.tracer.as_mut() {
            tracer.record(TraceRecord::ControlFrame(Box::new(record)), place);
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
        let place = self.queue.current_key();
        if let Some(tracer) = self.tracer.as_mut() {
            tracer.record(TraceRecord::Movement(record), place);
        }
    }
}
