//! Interfaces on shared media: NICs queue packets, their MACs decide when
//! to send, and the medium hands each frame to the NICs that hear it.

use super::wireless_trace::{frame_next_hop, mac_fields, next_hop, RadioEvent};
use super::{Event, FrameInFlight, Simulation};
use crate::error::ConfigError;
use crate::report::NicReport;
use crate::wake::Wake;
use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_net::packet::IPV4_HEADER_BYTES;
use ackclock_net::{
    ContentionFree, Frame, Interface, InterfaceQueue, Lan, LanMac, LinkAddress, LinkLayer, LinkLayerConfig, Mac,
    MacModel, Medium, MediumId, MediumModel, NextHop, Nic, NicId, NodeId, Ns2Ethernet, PacketId, Queued,
    RoutingProtocol, BROADCAST, CONTROL_FLOW,
};
use ackclock_trace::{LanRecord, PacketEvent, TraceRecord, WirelessEvent, WirelessLayer};

/// How a LAN's NICs are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanConfig {
    /// Each NIC's sending rate.
    pub rate: Bandwidth,
    /// From a frame's start to its first bit at every other NIC.
    pub delay: Duration,
    /// Packets each NIC's interface queue holds.
    pub queue_limit: usize,
    /// The link layer's delay each way between a node and its NIC (ns-2's
    /// `LL set delay_`); none when zero.
    pub link_layer_delay: Duration,
    pub mac: LanMac,
}

impl LanConfig {
    /// A switched segment: no link layer, frames up at their last bit.
    pub fn switched(rate: Bandwidth, delay: Duration, queue_limit: usize) -> Self {
        LanConfig { rate, delay, queue_limit, link_layer_delay: Duration::ZERO, mac: LanMac::Switched }
    }
}

impl Simulation {
    /// A LAN segment joining `nodes`, each through a new NIC: every frame
    /// reaches every other NIC `config.delay` after it starts; each NIC
    /// sends without contention (see `ContentionFree`). Returns the NICs,
    /// in the order of `nodes`.
    pub fn add_lan(&mut self, nodes: &[NodeId], config: LanConfig) -> Result<Vec<NicId>, ConfigError> {
        for &node in nodes {
            self.check_node("nodes", node)?;
        }
        if let Some(twice) = nodes.iter().enumerate().find(|(i, n)| nodes[..*i].contains(n)) {
            let name = self.nodes[*twice.1 as usize].name.clone();
            return Err(ConfigError::invalid("nodes", name, "appears twice on the LAN"));
        }
        if config.queue_limit == 0 {
            return Err(ConfigError::invalid("queue_limit", 0, "must be at least 1"));
        }
        if config.mac == LanMac::Ns2Ethernet && self.ns2_rng.is_none() {
            return Err(ConfigError::invalid("mac", "ns-2's 802.3", "backs off with ns-2's generator: set it first"));
        }
        let medium = self.media.len() as MediumId;
        self.media.push(MediumModel::Lan(Lan::new(config.delay, config.mac)));
        let link_layer = LinkLayerConfig { delay: config.link_layer_delay, arp: false };
        let nics = nodes
            .iter()
            .map(|&node| {
                let mac = match config.mac {
                    LanMac::Ns2Ethernet => MacModel::Ethernet(Box::new(Ns2Ethernet::new(node, config.rate))),
                    kind => MacModel::ContentionFree(ContentionFree::new(node, config.rate, kind)),
                };
                let nic = self.add_nic(node, medium, mac, config.queue_limit);
                self.nics[nic as usize].link_layer = LinkLayer::new(link_layer);
                nic
            })
            .collect();
        Ok(nics)
    }

    pub(super) fn add_nic(&mut self, node: NodeId, medium: MediumId, mac: MacModel, queue_limit: usize) -> NicId {
        let nic = self.nics.len() as NicId;
        let queue = InterfaceQueue::new(queue_limit);
        self.nics.push(Nic::new(node, medium, queue, mac));
        self.nic_armed.push(Wake::default());
        self.media[medium as usize].attach(nic);
        self.nodes[node as usize].interfaces.push(Interface::Nic(nic));
        self.routes_stale = true;
        nic
    }

    pub fn nic_count(&self) -> usize {
        self.nics.len()
    }

    fn nic(&self, nic: NicId) -> Result<&Nic, ConfigError> {
        self.nics.get(nic as usize).ok_or(ConfigError::UnknownId { field: "nic", what: "NIC", id: u64::from(nic) })
    }

    /// Starts recording a NIC's interface queue at every change.
    pub fn record_nic_queue(&mut self, nic: NicId) -> Result<(), ConfigError> {
        self.nic(nic)?;
        let now = self.now();
        self.nics[nic as usize].record_queue(now);
        Ok(())
    }

    /// (time, waiting packets, waiting bytes) of a NIC's interface queue
    /// after each instant that changed it, since `record_nic_queue` (the
    /// packet in the MAC's hands is not in the queue).
    pub fn nic_queue_series(&self, nic: NicId) -> Result<&[(Instant, u32, u64)], ConfigError> {
        Ok(self.nic(nic)?.queue_series.as_deref().unwrap_or(&[]))
    }

    pub fn nic_report(&self, nic: NicId) -> Result<NicReport, ConfigError> {
        let n = self.nic(nic)?;
        let elapsed = self.now().as_ps() as f64;
        Ok(NicReport {
            id: nic,
            node: n.node,
            medium: n.medium,
            tx_packets: n.stats.tx_packets,
            tx_bytes: n.stats.tx_bytes,
            rx_packets: n.stats.rx_packets,
            queue_drops: n.stats.queue_drops,
            rx_errors: n.stats.rx_errors,
            link_failures: n.stats.link_failures,
            arp_drops: n.stats.arp_drops,
            queued: n.queue.len(),
            utilization: if elapsed > 0.0 { n.stats.busy.as_ps() as f64 / elapsed } else { 0.0 },
        })
    }

    /// Queues a packet on a NIC for the neighbour `to`. Kept out of line so
    /// that the point-to-point path in `forward` stays as compact as
    /// without shared media.
    #[cold]
    #[inline(never)]
    pub(super) fn send_on_nic(&mut self, now: Instant, nic: NicId, to: LinkAddress, id: PacketId) {
        self.trace_lan(nic, PacketEvent::Hop, id);
        if self.nics[nic as usize].link_layer.is_some() {
            self.link_layer_down(now, nic, to, id);
        } else {
            self.enqueue_on_nic(now, nic, to, id);
        }
    }

    /// Puts a packet in a NIC's interface queue, or drops it if full.
    pub(super) fn enqueue_on_nic(&mut self, now: Instant, nic: NicId, to: LinkAddress, id: PacketId) {
        let bytes = self.packets[id].size;
        // A radio's queue puts routing packets first (ns-2's PriQueue).
        let first = self.packets[id].flow == CONTROL_FLOW && self.is_radio(nic);
        let n = &mut self.nics[nic as usize];
        let frame = Queued { packet: id, bytes, to };
        let queued = if first { n.queue.push_front(frame) } else { n.queue.push(frame) };
        // ns-2 writes a LAN's `+` before its queue, and `d` if it refuses.
        self.trace_lan(nic, PacketEvent::Enqueue, id);
        if !queued {
            self.trace_lan(nic, PacketEvent::Drop, id);
            let n = &mut self.nics[nic as usize];
            n.stats.queue_drops += 1;
            let node = n.node;
            self.trace_radio(now, node, id, RadioEvent::drop(WirelessLayer::Ifq, "---", node, to));
            self.drop_packet(id, None);
            return;
        }
        self.service_nic(now, nic);
    }

    /// Sends or forwards a packet from `node` over a NIC; the node's
    /// routing protocol, if it runs one, hears of data packets, and an ad hoc
    /// one adds the IP header to the node's own packets.
    #[cold]
    #[inline(never)]
    pub(super) fn forward_on_nic(&mut self, now: Instant, node: NodeId, nic: NicId, neighbor: NodeId, id: PacketId) {
        let p = &self.packets[id];
        if p.flow != CONTROL_FLOW {
            let (src, dst) = (p.ip.src, p.ip.dst);
            if let Some(protocol) = self.nodes[node as usize].protocol.as_mut() {
                protocol.on_data(now, src, dst, NextHop::Nic { nic, neighbor });
            }
        }
        let event = if self.packets[id].ip.src == node {
            self.trace_radio_origin(now, node, id);
            if self.nodes[node as usize].router.adds_ip_header() {
                self.packets[id].size += IPV4_HEADER_BYTES;
            }
            RadioEvent::above_mac(WirelessEvent::Send, WirelessLayer::Router, next_hop(neighbor))
        } else {
            // The header of the frame that brought it, if it is still known.
            let mac = self.last_rx_mac.filter(|&(p, _)| p == id).map(|(_, m)| m).unwrap_or_default();
            RadioEvent {
                mac,
                ..RadioEvent::above_mac(WirelessEvent::Forward, WirelessLayer::Router, next_hop(neighbor))
            }
        };
        self.trace_radio(now, node, id, event);
        self.send_on_nic(now, nic, LinkAddress::Node(neighbor), id);
    }

    /// Lets a NIC's MAC send what it will, hand over what it received and
    /// return the packets it is done with, then re-arms its timer.
    fn service_nic(&mut self, now: Instant, nic: NicId) {
        loop {
            let n = &mut self.nics[nic as usize];
            let (head, waiting) = (n.queue.front().map(|q| q.packet), n.queue.len());
            let sent = n.mac.poll_transmit(now, &mut n.queue);
            // ns-2 writes a LAN's `-` as the queue hands the MAC a packet,
            // which an 802.3 MAC may send later or again.
            if let (Some(packet), true) = (head, n.queue.len() < waiting) {
                self.trace_lan(nic, PacketEvent::Dequeue, packet);
            }
            let Some((frame, duration)) = sent else { break };
            let n = &mut self.nics[nic as usize];
            n.stats.tx_packets += 1;
            n.stats.tx_bytes += u64::from(frame.bytes);
            n.stats.busy += duration;
            if self.mac_traced {
                self.trace_mac_send(now, nic, &frame);
            }
            self.transmit(now, nic, frame, duration);
        }
        if let Some(range) = self.nics[nic as usize].mac.draw_request() {
            let g = self.ns2_rng.as_mut().expect("checked when the MAC was made");
            // ns-2's Random::integer: a draw in [0, 2^31), modulo the range.
            let value = (2_147_483_648.0 * g.next_u01()) as u64 % u64::from(range);
            self.nics[nic as usize].mac.drawn(value as u32);
        }
        // Before the receptions free their frames' packets.
        let mut given_up = None;
        while let Some(event) = self.nics[nic as usize].mac.poll_event() {
            given_up = self.trace_mac_event(now, nic, event).or(given_up);
        }
        while let Some((slot, deliver)) = self.nics[nic as usize].mac.poll_received(now) {
            self.frame_received(now, nic, slot, deliver);
        }
        while let Some((queued, sent)) = self.nics[nic as usize].mac.poll_done() {
            self.frame_done(now, nic, queued, sent);
        }
        self.nics[nic as usize].note_queue(now);
        if let Some(record) = given_up {
            self.record_radio(record);
        }
        while let Some(t) = self.nics[nic as usize].mac.poll_timer_set() {
            self.schedule_after(now, t.max(now) - now, Event::NicTimer(nic));
        }
        let wake = self.nics[nic as usize].mac.poll_at().map(|t| t.max(now));
        if let Some(t) = wake.filter(|&t| self.nic_armed[nic as usize].arm(t)) {
            self.schedule_after(now, t - now, Event::NicTimer(nic));
        }
    }

    /// Puts a frame on the medium: each NIC that hears it gets an event at
    /// its first bit. A data frame carries a copy of its packet, which the
    /// receivers share; the MAC keeps the original until it is done with it.
    fn transmit(&mut self, now: Instant, nic: NicId, mut frame: Frame, duration: Duration) {
        let mut receptions = std::mem::take(&mut self.receptions);
        receptions.clear();
        self.media[self.nics[nic as usize].medium as usize].receptions(now, nic, &mut receptions);
        if self.tracer.is_some() {
            self.capture_frame(now, nic, &frame, &receptions);
        }
        if !receptions.is_empty() {
            frame.packet = frame.packet.map(|p| self.copy_packet(p));
            let receivers = receptions.len() as u32;
            let slot = self.store_frame(FrameInFlight { frame, duration, receivers, receptions });
            for i in 0..receivers {
                let f = self.frames[slot as usize].as_ref().expect("just stored");
                let delay = f.receptions[i as usize].first_bit - now;
                self.schedule_after(now, delay, Event::FrameArrival(slot, i));
            }
        } else {
            self.receptions = receptions;
        }
    }

    fn store_frame(&mut self, frame: FrameInFlight) -> u32 {
        match self.free_frames.pop() {
            Some(slot) => {
                self.frames[slot as usize] = Some(frame);
                slot
            }
            None => {
                self.frames.push(Some(frame));
                (self.frames.len() - 1) as u32
            }
        }
    }

    /// The first bit of the frame in `slot` reaches its `index`th receiver.
    pub(super) fn on_frame_arrival(&mut self, now: Instant, slot: u32, index: u32) {
        let f = self.frames[slot as usize].as_ref().expect("a frame in flight");
        let r = f.receptions[index as usize];
        self.nics[r.nic as usize].mac.on_frame(now, slot, &f.frame, f.duration, r.power_w);
        self.service_nic(now, r.nic);
    }

    #[cold]
    #[inline(never)]
    pub(super) fn on_nic_timer(&mut self, now: Instant, nic: NicId) {
        // A MAC's own timer event always acts; a lazy one only if current.
        if !self.nics[nic as usize].mac.keeps_timers() && !self.nic_armed[nic as usize].fire(now) {
            return; // superseded by an earlier event that already re-armed
        }
        self.nics[nic as usize].mac.on_timer(now);
        self.service_nic(now, nic);
    }

    /// A NIC finished receiving a frame: its node takes the packet if the
    /// MAC hands it up and it is addressed to the node; the last receiver
    /// frees the frame.
    fn frame_received(&mut self, now: Instant, nic: NicId, slot: u32, deliver: bool) {
        let f = self.frames[slot as usize].as_mut().expect("a frame in flight");
        f.receivers -= 1;
        let (frame, last) = (f.frame, f.receivers == 0);
        if last {
            let f = self.frames[slot as usize].take().expect("a frame in flight");
            self.receptions = f.receptions; // reused for the next transmission
            self.free_frames.push(slot);
        }
        let Some(packet) = frame.packet else { return };
        let n = &mut self.nics[nic as usize];
        let for_us = frame.to == LinkAddress::Broadcast || frame.to == LinkAddress::Node(n.node);
        if for_us && !deliver {
            n.stats.rx_errors += 1;
        }
        let node = n.node;
        if deliver && for_us {
            n.stats.rx_packets += 1;
            let has_link_layer = n.link_layer.is_some();
            let packet = if last { packet } else { self.copy_packet(packet) };
            if self.tracer.is_some() && self.mac_traced {
                self.trace_mac_receive(now, node, packet, &frame);
            }
            if has_link_layer {
                self.link_layer_up(now, nic, packet, frame);
            } else {
                self.deliver_up(now, nic, packet, &frame);
            }
        } else {
            // ns-2's base MAC hands up a frame for another node and drops it,
            // traced; 802.3 discards it unseen.
            if deliver && !for_us {
                self.trace_lan(nic, PacketEvent::Drop, packet);
            }
            if last {
                self.discard_packet(packet);
            }
        }
    }

    /// A packet from the medium reaches the node of `nic`.
    pub(super) fn deliver_up(&mut self, now: Instant, nic: NicId, packet: PacketId, frame: &Frame) {
        let node = self.nics[nic as usize].node;
        if self.tracer.is_some() {
            self.trace_lan(nic, PacketEvent::Receive, packet);
            self.trace_reception(now, node, packet, frame);
        }
        if self.packets[packet].ip.dst == BROADCAST {
            self.packets[packet].ip.dst = node; // taken by every node that hears it
        }
        self.receive(now, node, packet);
    }

    /// ns-2's record of `event` of a packet at a NIC on a LAN, if a trace
    /// wants the LAN's records.
    fn trace_lan(&mut self, nic: NicId, event: PacketEvent, packet: PacketId) {
        let Some(tracer) = self.tracer.as_mut() else { return };
        let n = &self.nics[nic as usize];
        if !tracer.wants_lan(n.medium) {
            return;
        }
        let time = self.queue.now();
        let packet = self.packets[packet];
        let record = LanRecord { time, event, medium: n.medium, node: n.node, packet, congestion_action: false };
        tracer.record(TraceRecord::Lan(Box::new(record)), self.queue.current_key());
    }

    /// ns-2's AGT record of a packet that reached its destination, else the
    /// RTR record; a forward that follows shows the same MAC header.
    #[cold]
    fn trace_reception(&mut self, now: Instant, node: NodeId, packet: PacketId, frame: &Frame) {
        let p = &self.packets[packet];
        let layer =
            if p.ip.dst == node && p.flow != CONTROL_FLOW { WirelessLayer::Agent } else { WirelessLayer::Router };
        let hop = frame_next_hop(frame); // this node (the frame is for it), or -2 for a broadcast
        let mac = mac_fields(frame);
        self.last_rx_mac = Some((packet, mac));
        self.trace_radio(
            now,
            node,
            packet,
            RadioEvent { mac, ..RadioEvent::above_mac(WirelessEvent::Receive, layer, hop) },
        );
    }

    /// The MAC is done with a queued packet: sent, it is freed (its copies
    /// travel on); given up on, routing hears of it (see `link_failed`).
    fn frame_done(&mut self, now: Instant, nic: NicId, queued: Queued, sent: bool) {
        if sent {
            self.discard_packet(queued.packet);
        } else {
            // (ns-2's 802.3 traces the packet it gives up on as a LAN drop.)
            self.trace_lan(nic, PacketEvent::Drop, queued.packet);
            self.nics[nic as usize].stats.link_failures += 1;
            self.link_failed(now, nic, queued);
        }
    }
}
