//! Interfaces on a shared medium: NICs, the medium that carries their
//! frames to one another, and the MAC that decides when a NIC sends.
//!
//! Unlike a point-to-point link, a NIC cannot know a packet's departure
//! when the packet is queued: its MAC decides at dequeue time (once the
//! medium is free, after a backoff, after an acknowledgement...). So a NIC
//! keeps a real interface queue and the engine drives it with events: the
//! MAC's own timer, and the arrival of each frame's first bit at every NIC
//! the medium says hears it, each with its own delay.
//!
//! Both the medium and the MAC are sans-I/O traits with the models in
//! enums, as elsewhere: a radio medium (propagation, positions) and an
//! 802.11 MAC plug in as new variants. The model here is the simplest
//! that uses the whole path: a LAN segment without contention.

use crate::link_layer::LinkLayer;
use crate::mac80211::Dcf;
use crate::mac8023::Ns2Ethernet;
use crate::packet::NodeId;
use crate::pool::PacketId;
use crate::radio::Radio;
use ackclock_core::{Bandwidth, Duration, Instant};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

pub type NicId = u32;
pub type MediumId = u32;

/// Where a frame is addressed on its medium.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkAddress {
    Node(NodeId),
    Broadcast,
}

/// What a MAC frame is (802.11 has control frames without a packet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FrameKind {
    #[default]
    Data,
    Rts,
    Cts,
    Ack,
}

/// The MAC header fields a receiving MAC acts on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MacHeader {
    pub kind: FrameKind,
    /// How long the medium stays reserved after this frame ends (802.11's
    /// Duration/NAV).
    pub nav: Duration,
    /// Sequence number of the data frame (duplicate detection on retries).
    pub seq: u16,
    pub retry: bool,
}

/// A frame on a shared medium: the packet it carries, its link-layer
/// addresses and its MAC header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The packet a data frame carries; `None` for control frames.
    pub packet: Option<PacketId>,
    pub from: NodeId,
    pub to: LinkAddress,
    /// Bytes on the air, MAC header and trailer included.
    pub bytes: u32,
    pub header: MacHeader,
}

/// A frame as one receiver gets it: when its first bit arrives there, and
/// how strong.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reception {
    pub nic: NicId,
    pub first_bit: Instant,
    /// Received power in watts (`f64::INFINITY` on a LAN, which has no
    /// radio).
    pub power_w: f64,
}

/// What carries frames between NICs.
pub trait Medium {
    /// The NICs that hear a transmission by `from` starting at `now`, with
    /// when each hears its first bit.
    fn receptions(&mut self, now: Instant, from: NicId, out: &mut Vec<Reception>);
    /// The NICs `nic` can always reach, which routing treats as neighbours
    /// (a LAN's other NICs; none on a radio medium, whose reach changes).
    fn neighbours(&self, nic: NicId) -> Vec<NicId>;
    /// Attaches a NIC.
    fn attach(&mut self, nic: NicId);
}

/// The media, dispatched by `match`.
#[derive(Clone, Debug)]
pub enum MediumModel {
    Lan(Lan),
    Radio(Radio),
}

impl Medium for MediumModel {
    fn receptions(&mut self, now: Instant, from: NicId, out: &mut Vec<Reception>) {
        match self {
            MediumModel::Lan(m) => m.receptions(now, from, out),
            MediumModel::Radio(m) => m.receptions(now, from, out),
        }
    }
    fn neighbours(&self, nic: NicId) -> Vec<NicId> {
        match self {
            MediumModel::Lan(m) => m.neighbours(nic),
            MediumModel::Radio(m) => m.neighbours(nic),
        }
    }
    fn attach(&mut self, nic: NicId) {
        match self {
            MediumModel::Lan(m) => m.attach(nic),
            MediumModel::Radio(m) => m.attach(nic),
        }
    }
}

/// How a LAN's NICs work, beyond sending at their rate without contention.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LanMac {
    /// A frame occupies its sender for its own bytes and goes up at its
    /// last bit.
    #[default]
    Switched,
    /// ns-2's base `Mac` on its `Channel` (mac/mac.cc, mac/channel.cc), which
    /// ns-2's `make-lan` builds by default: the sender is busy for the frame
    /// plus ns-2's 64-byte MAC header (`MAC_HDR_LEN`) at its rate, but every
    /// receiver has the frame as its first bit arrives; the channel hands it
    /// out in ns-2's order, the NIC attached last first.
    Ns2,
    /// ns-2's `Mac/802_3` (`Ns2Ethernet`) on the same channel.
    Ns2Ethernet,
}

impl LanMac {
    /// Bytes the MAC adds to a frame's transmission time.
    pub fn header_bytes(self) -> u32 {
        match self {
            LanMac::Switched | LanMac::Ns2Ethernet => 0,
            LanMac::Ns2 => 64,
        }
    }
}

/// A LAN segment: every NIC hears every other after the same delay.
#[derive(Clone, Debug)]
pub struct Lan {
    pub delay: Duration,
    pub mac: LanMac,
    nics: Vec<NicId>,
}

impl Lan {
    pub fn new(delay: Duration, mac: LanMac) -> Self {
        Lan { delay, mac, nics: Vec::new() }
    }
}

impl Medium for Lan {
    fn receptions(&mut self, now: Instant, from: NicId, out: &mut Vec<Reception>) {
        let first_bit = now + self.delay;
        let reception = |&nic: &NicId| (nic != from).then_some(Reception { nic, first_bit, power_w: f64::INFINITY });
        match self.mac {
            LanMac::Switched => out.extend(self.nics.iter().filter_map(reception)),
            LanMac::Ns2 | LanMac::Ns2Ethernet => out.extend(self.nics.iter().rev().filter_map(reception)),
        }
    }
    fn neighbours(&self, nic: NicId) -> Vec<NicId> {
        self.nics.iter().copied().filter(|&n| n != nic).collect()
    }
    fn attach(&mut self, nic: NicId) {
        self.nics.push(nic);
    }
}

/// A frame in the NIC's interface queue, waiting for the MAC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queued {
    pub packet: PacketId,
    pub bytes: u32,
    pub to: LinkAddress,
}

/// A NIC's interface queue: FIFO, dropping arrivals beyond `limit`
/// packets (ns-2's IFQ is such a DropTail queue of 50).
#[derive(Clone, Debug)]
pub struct InterfaceQueue {
    limit: usize,
    frames: VecDeque<Queued>,
}

impl InterfaceQueue {
    pub fn new(limit: usize) -> Self {
        InterfaceQueue { limit, frames: VecDeque::new() }
    }

    /// Queues a frame; false when the queue is full.
    pub fn push(&mut self, frame: Queued) -> bool {
        let room = self.frames.len() < self.limit;
        if room {
            self.frames.push_back(frame);
        }
        room
    }

    /// Queues a frame ahead of the others (ns-2's PriQueue does so with
    /// routing packets); false when the queue is full.
    pub fn push_front(&mut self, frame: Queued) -> bool {
        let room = self.frames.len() < self.limit;
        if room {
            self.frames.push_front(frame);
        }
        room
    }

    /// Takes out every frame addressed to `neighbor`, in queue order (AODV
    /// discards what waits for a neighbour it lost).
    pub fn remove_to(&mut self, neighbor: NodeId) -> Vec<Queued> {
        let to = LinkAddress::Node(neighbor);
        let (gone, kept): (VecDeque<Queued>, VecDeque<Queued>) = self.frames.drain(..).partition(|q| q.to == to);
        self.frames = kept;
        gone.into()
    }

    pub fn pop(&mut self) -> Option<Queued> {
        self.frames.pop_front()
    }

    /// The frame `pop` would take.
    pub fn front(&self) -> Option<&Queued> {
        self.frames.front()
    }

    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// The packet bytes waiting.
    pub fn bytes(&self) -> u64 {
        self.frames.iter().map(|q| u64::from(q.bytes)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }
}

/// A NIC's medium access control. The engine tells it of frames arriving
/// and of its timer, and asks what it sends, what it has received and which
/// queued packets it is done with.
pub trait Mac {
    /// A frame to send now, with how long it occupies the medium; `None`
    /// while the MAC holds back. A data frame's packet stays the MAC's until
    /// `poll_done` hands it back: the engine puts a copy of it on the air,
    /// so the MAC can retransmit it.
    fn poll_transmit(&mut self, now: Instant, queue: &mut InterfaceQueue) -> Option<(Frame, Duration)>;
    /// The first bit of a frame arrived at this NIC with `power_w`; `slot`
    /// names it to the engine; its last bit follows `duration` later.
    fn on_frame(&mut self, now: Instant, slot: u32, frame: &Frame, duration: Duration, power_w: f64);
    /// A frame whose reception ended by `now`, and whether to hand its
    /// packet up (an intact data frame addressed to this node or broadcast,
    /// not a duplicate). Every slot `on_frame` was told of comes back
    /// exactly once, delivered or not.
    fn poll_received(&mut self, now: Instant) -> Option<(u32, bool)>;
    /// A data frame taken from the queue is finished with: `true` when it
    /// was acknowledged (or, broadcast or unacknowledged, sent), `false`
    /// when the MAC gave up after its retries (802.11's link-layer failure,
    /// which the engine reports to routing).
    fn poll_done(&mut self) -> Option<(Queued, bool)>;
    fn on_timer(&mut self, now: Instant);
    fn poll_at(&self) -> Option<Instant>;
    /// A random draw the MAC waits for, in [0, range): ns-2's MACs draw from
    /// its default generator, which the engine owns. Asked after
    /// `poll_transmit`; the answer comes through `drawn` at once.
    fn draw_request(&mut self) -> Option<u32> {
        None
    }
    fn drawn(&mut self, _value: u32) {}
    /// Whether the MAC hands out each timer it sets (`poll_timer_set`)
    /// instead of its earliest (`poll_at`, which then answers `None`).
    fn keeps_timers(&self) -> bool {
        false
    }
    /// A timer the MAC set, to wake it then with an event of its own
    /// (ns-2 orders each timer by when it was set).
    fn poll_timer_set(&mut self) -> Option<Instant> {
        None
    }
    /// Whether to keep the events `poll_event` hands out (off by default:
    /// a MAC that keeps none costs nothing).
    fn set_traced(&mut self, _on: bool) {}
    /// What a MAC trace shows besides the frames sent, in order; kept only
    /// while traced.
    fn poll_event(&mut self) -> Option<MacEvent> {
        None
    }
}

/// Why a MAC drops a frame, with ns-2's trace reason (trace/cmu-trace.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacDrop {
    /// COL: lost to an overlapping frame.
    Collision,
    /// RET: given up after the retry limit.
    RetryLimit,
    /// DUP: a retransmission of a data frame already received.
    Duplicate,
    /// BSY: the station is busy with another exchange.
    Busy,
    /// STA: a CTS or ACK that answers nothing this station sent.
    InvalidState,
}

impl MacDrop {
    pub fn reason(self) -> &'static str {
        match self {
            MacDrop::Collision => "COL",
            MacDrop::RetryLimit => "RET",
            MacDrop::Duplicate => "DUP",
            MacDrop::Busy => "BSY",
            MacDrop::InvalidState => "STA",
        }
    }
}

/// A MAC event a trace shows (ns-2's `-macTrace`) that the engine cannot
/// see from the frames sent and delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacEvent {
    /// A control frame addressed to this station that it acted on.
    Control(Frame),
    /// A frame addressed to (or sent by) this station that it dropped (a
    /// data frame given up after its retries is also reported by
    /// `poll_done`).
    Drop(Frame, MacDrop),
}

/// The MACs, dispatched by `match`.
#[derive(Clone, Debug)]
pub enum MacModel {
    ContentionFree(ContentionFree),
    /// ns-2's IEEE 802.11 DCF (mac80211.rs).
    Dcf(Box<Dcf>),
    /// ns-2's 802.3 CSMA/CD (mac8023.rs).
    Ethernet(Box<Ns2Ethernet>),
}

impl Mac for MacModel {
    fn poll_transmit(&mut self, now: Instant, queue: &mut InterfaceQueue) -> Option<(Frame, Duration)> {
        match self {
            MacModel::ContentionFree(m) => m.poll_transmit(now, queue),
            MacModel::Dcf(m) => m.poll_transmit(now, queue),
            MacModel::Ethernet(m) => m.poll_transmit(now, queue),
        }
    }
    fn on_frame(&mut self, now: Instant, slot: u32, frame: &Frame, duration: Duration, power_w: f64) {
        match self {
            MacModel::ContentionFree(m) => m.on_frame(now, slot, frame, duration, power_w),
            MacModel::Dcf(m) => m.on_frame(now, slot, frame, duration, power_w),
            MacModel::Ethernet(m) => m.on_frame(now, slot, frame, duration, power_w),
        }
    }
    fn poll_received(&mut self, now: Instant) -> Option<(u32, bool)> {
        match self {
            MacModel::ContentionFree(m) => m.poll_received(now),
            MacModel::Dcf(m) => m.poll_received(now),
            MacModel::Ethernet(m) => m.poll_received(now),
        }
    }
    fn poll_done(&mut self) -> Option<(Queued, bool)> {
        match self {
            MacModel::ContentionFree(m) => m.poll_done(),
            MacModel::Dcf(m) => m.poll_done(),
            MacModel::Ethernet(m) => m.poll_done(),
        }
    }
    fn on_timer(&mut self, now: Instant) {
        match self {
            MacModel::ContentionFree(m) => m.on_timer(now),
            MacModel::Dcf(m) => m.on_timer(now),
            MacModel::Ethernet(m) => m.on_timer(now),
        }
    }
    fn poll_at(&self) -> Option<Instant> {
        match self {
            MacModel::ContentionFree(m) => m.poll_at(),
            MacModel::Dcf(m) => m.poll_at(),
            MacModel::Ethernet(m) => m.poll_at(),
        }
    }
    fn set_traced(&mut self, on: bool) {
        match self {
            MacModel::ContentionFree(m) => m.set_traced(on),
            MacModel::Dcf(m) => m.set_traced(on),
            MacModel::Ethernet(m) => m.set_traced(on),
        }
    }
    fn poll_event(&mut self) -> Option<MacEvent> {
        match self {
            MacModel::ContentionFree(m) => m.poll_event(),
            MacModel::Dcf(m) => m.poll_event(),
            MacModel::Ethernet(m) => m.poll_event(),
        }
    }
    fn draw_request(&mut self) -> Option<u32> {
        match self {
            MacModel::Ethernet(m) => m.draw_request(),
            _ => None,
        }
    }
    fn drawn(&mut self, value: u32) {
        if let MacModel::Ethernet(m) = self {
            m.drawn(value);
        }
    }
    fn keeps_timers(&self) -> bool {
        matches!(self, MacModel::Ethernet(_))
    }
    fn poll_timer_set(&mut self) -> Option<Instant> {
        match self {
            MacModel::Ethernet(m) => m.poll_timer_set(),
            _ => None,
        }
    }
}

/// A MAC without contention: the NIC sends its next frame as soon as its
/// own transmitter is free, at its rate, and every frame is received
/// intact. (Each NIC has the medium's capacity to itself, as on a switched
/// LAN; there is no carrier sense and no collision.) Every frame is handed
/// up, whoever it is addressed to: the engine filters by address. `kind`
/// says what the frame costs its sender and when it goes up (`LanMac`).
#[derive(Clone, Debug)]
pub struct ContentionFree {
    rate: Bandwidth,
    kind: LanMac,
    /// The node whose frames this NIC sends.
    node: NodeId,
    /// When the frame being sent ends.
    sending_until: Option<Instant>,
    /// Receptions in progress: (last bit, frame).
    receiving: BinaryHeap<Reverse<(Instant, u32)>>,
    /// The frame sent last, done with once it is on the air.
    sent: Option<Queued>,
}

impl ContentionFree {
    pub fn new(node: NodeId, rate: Bandwidth, kind: LanMac) -> Self {
        ContentionFree { rate, kind, node, sending_until: None, receiving: BinaryHeap::new(), sent: None }
    }
}

impl Mac for ContentionFree {
    fn poll_transmit(&mut self, now: Instant, queue: &mut InterfaceQueue) -> Option<(Frame, Duration)> {
        if self.sending_until.is_some_and(|t| t > now) {
            return None;
        }
        self.sending_until = None;
        let q = queue.pop()?;
        let duration = self.rate.tx_time(q.bytes + self.kind.header_bytes());
        self.sending_until = Some(now + duration);
        self.sent = Some(q);
        let header = MacHeader::default();
        Some((Frame { packet: Some(q.packet), from: self.node, to: q.to, bytes: q.bytes, header }, duration))
    }

    fn on_frame(&mut self, now: Instant, slot: u32, _frame: &Frame, duration: Duration, _power_w: f64) {
        let up = match self.kind {
            LanMac::Switched | LanMac::Ns2Ethernet => now + duration,
            LanMac::Ns2 => now,
        };
        self.receiving.push(Reverse((up, slot)));
    }

    fn poll_received(&mut self, now: Instant) -> Option<(u32, bool)> {
        match self.receiving.peek() {
            Some(Reverse((end, _))) if *end <= now => self.receiving.pop().map(|Reverse((_, f))| (f, true)),
            _ => None,
        }
    }

    fn poll_done(&mut self) -> Option<(Queued, bool)> {
        self.sent.take().map(|q| (q, true))
    }

    fn on_timer(&mut self, _now: Instant) {}

    fn poll_at(&self) -> Option<Instant> {
        let receiving = self.receiving.peek().map(|Reverse((end, _))| *end);
        match (self.sending_until, receiving) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// Counters of a NIC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NicStats {
    pub tx_packets: u64,
    pub tx_bytes: u64,
    pub rx_packets: u64,
    /// Packets refused by the full interface queue.
    pub queue_drops: u64,
    /// Frames for this NIC that its MAC did not hand up (collisions,
    /// noise).
    pub rx_errors: u64,
    /// Packets the MAC gave up on after its retries.
    pub link_failures: u64,
    /// Packets the link layer dropped while resolving their neighbour
    /// (ns-2's `IFQ ARP`).
    pub arp_drops: u64,
    /// Time spent sending.
    pub busy: Duration,
}

/// A network interface on a shared medium.
#[derive(Clone, Debug)]
pub struct Nic {
    pub node: NodeId,
    pub medium: MediumId,
    pub queue: InterfaceQueue,
    pub mac: MacModel,
    pub stats: NicStats,
    /// (time, packets, bytes) waiting in the queue at every change, when
    /// asked for.
    pub queue_series: Option<Vec<(Instant, u32, u64)>>,
    /// ns-2's link layer (delay, ARP), on radio NICs that model it.
    pub link_layer: Option<LinkLayer>,
}

impl Nic {
    pub fn new(node: NodeId, medium: MediumId, queue: InterfaceQueue, mac: MacModel) -> Self {
        Nic { node, medium, queue, mac, stats: NicStats::default(), queue_series: None, link_layer: None }
    }

    /// Starts recording the queue at every change, from what waits now.
    pub fn record_queue(&mut self, now: Instant) {
        if self.queue_series.is_none() {
            self.queue_series = Some(Vec::new());
            self.note_queue(now);
        }
    }

    /// Adds a point to the queue series if one is kept and the queue
    /// changed since its last point: the series holds the queue after each
    /// instant's events (a packet the MAC takes at once never shows).
    pub fn note_queue(&mut self, now: Instant) {
        let Some(series) = &mut self.queue_series else { return };
        let state = (self.queue.len() as u32, self.queue.bytes());
        let same = |p: Option<&(Instant, u32, u64)>| p.is_some_and(|p| (p.1, p.2) == state);
        if same(series.last()) {
            return;
        }
        if series.last().is_some_and(|p| p.0 == now) {
            series.pop(); // superseded within the instant
            if same(series.last()) {
                return;
            }
        }
        series.push((now, state.0, state.1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queued(n: u32, bytes: u32) -> Queued {
        Queued { packet: PacketId::new(n), bytes, to: LinkAddress::Node(1) }
    }

    #[test]
    fn a_lan_delivers_to_every_other_nic_after_its_delay() {
        let mut lan = Lan::new(Duration::from_millis(2), LanMac::Switched);
        for nic in [4, 7, 9] {
            lan.attach(nic);
        }
        let mut out = Vec::new();
        lan.receptions(Instant::ZERO, 7, &mut out);
        let at = Instant::ZERO + Duration::from_millis(2);
        let power_w = f64::INFINITY;
        assert_eq!(
            out,
            vec![Reception { nic: 4, first_bit: at, power_w }, Reception { nic: 9, first_bit: at, power_w }]
        );
        assert_eq!(lan.neighbours(9), vec![4, 7]);
    }

    #[test]
    fn a_full_interface_queue_refuses_frames() {
        let mut q = InterfaceQueue::new(2);
        assert!(q.push(queued(0, 100)) && q.push(queued(1, 100)));
        assert!(!q.push(queued(2, 100)));
        assert!(!q.push_front(queued(2, 100)), "a front push still refuses when full");
        assert_eq!(q.pop(), Some(queued(0, 100)));
        assert!(q.push_front(queued(3, 100)));
        assert_eq!(q.pop(), Some(queued(3, 100)));
    }

    #[test]
    fn a_nic_s_queue_series_keeps_the_queue_after_each_instant_that_changed_it() {
        let mac =
            MacModel::ContentionFree(ContentionFree::new(0, Bandwidth::from_bps(8_000_000).unwrap(), LanMac::Switched));
        let mut nic = Nic::new(0, 0, InterfaceQueue::new(10), mac);
        let ms = |n| Instant::ZERO + Duration::from_millis(n);
        nic.note_queue(ms(0));
        assert_eq!(nic.queue_series, None, "nothing kept unless asked");
        nic.record_queue(ms(1));
        nic.queue.push(queued(0, 100));
        nic.note_queue(ms(2));
        nic.queue.push(queued(1, 300));
        nic.note_queue(ms(2)); // the same instant: only the last state
        nic.note_queue(ms(3)); // unchanged: no point
        nic.queue.pop();
        nic.note_queue(ms(4));
        nic.queue.push(queued(2, 100));
        nic.note_queue(ms(4)); // back to the state before the instant: no point
        assert_eq!(nic.queue_series, Some(vec![(ms(1), 0, 0), (ms(2), 2, 400)]));
    }

    #[test]
    fn remove_to_takes_out_only_the_frames_for_that_neighbour() {
        let mut q = InterfaceQueue::new(10);
        let to = |n, node| Queued { to: LinkAddress::Node(node), ..queued(n, 100) };
        for f in [to(0, 1), to(1, 2), to(2, 1), Queued { to: LinkAddress::Broadcast, ..queued(3, 100) }] {
            q.push(f);
        }
        assert_eq!(q.remove_to(1), vec![to(0, 1), to(2, 1)]);
        assert_eq!((q.pop(), q.len()), (Some(to(1, 2)), 1));
    }

    #[test]
    fn the_contention_free_mac_sends_back_to_back_and_receives_at_the_last_bit() {
        // 1000 bytes at 8 Mb/s: 1 ms each.
        let mut mac = ContentionFree::new(3, Bandwidth::from_bps(8_000_000).unwrap(), LanMac::Switched);
        let mut q = InterfaceQueue::new(10);
        q.push(queued(0, 1000));
        q.push(queued(1, 1000));
        let ms = |n| Instant::ZERO + Duration::from_millis(n);
        let (frame, d) = mac.poll_transmit(ms(0), &mut q).unwrap();
        assert_eq!((frame.packet, frame.from, d), (Some(PacketId::new(0)), 3, Duration::from_millis(1)));
        assert_eq!(mac.poll_done(), Some((queued(0, 1000), true)), "done once on the air");
        assert_eq!(mac.poll_done(), None);
        assert_eq!(mac.poll_transmit(ms(0), &mut q), None, "busy sending");
        assert_eq!(mac.poll_at(), Some(ms(1)));
        assert!(mac.poll_transmit(ms(1), &mut q).is_some());
        mac.on_frame(ms(1), 40, &frame, Duration::from_millis(3), 1.0);
        assert_eq!(mac.poll_at(), Some(ms(2)), "the end of the second transmission");
        assert_eq!(mac.poll_transmit(ms(2), &mut q), None, "nothing left");
        mac.on_frame(ms(2), 41, &frame, Duration::from_millis(1), 1.0);
        assert_eq!(mac.poll_at(), Some(ms(3)), "idle: only the receptions");
        assert_eq!(mac.poll_received(ms(3)), Some((41, true)), "the shorter frame ends first");
        assert_eq!(mac.poll_received(ms(3)), None);
        assert_eq!(mac.poll_received(ms(4)), Some((40, true)));
        assert_eq!(mac.poll_at(), None);
    }

    #[test]
    fn ns2_s_mac_is_busy_for_its_header_too_and_hands_frames_up_at_the_first_bit() {
        // 436 bytes + ns-2's 64-byte header at 2 Mb/s: 2 ms busy.
        let mut mac = ContentionFree::new(3, Bandwidth::from_bps(2_000_000).unwrap(), LanMac::Ns2);
        let mut q = InterfaceQueue::new(10);
        q.push(queued(0, 436));
        q.push(queued(1, 436));
        let ms = |n| Instant::ZERO + Duration::from_millis(n);
        let (frame, d) = mac.poll_transmit(ms(0), &mut q).unwrap();
        assert_eq!(d, Duration::from_millis(2));
        assert_eq!(mac.poll_transmit(ms(1), &mut q), None, "busy for the header's time too");
        assert!(mac.poll_transmit(ms(2), &mut q).is_some());
        mac.on_frame(ms(5), 9, &frame, d, f64::INFINITY);
        assert_eq!(mac.poll_received(ms(5)), Some((9, true)), "up at the first bit, not 2 ms later");
    }

    #[test]
    fn ns2_s_channel_hands_a_frame_to_the_nic_attached_last_first() {
        let mut lan = Lan::new(Duration::from_micros(4), LanMac::Ns2);
        for nic in [4, 7, 9, 2] {
            lan.attach(nic);
        }
        let mut out = Vec::new();
        lan.receptions(Instant::ZERO, 7, &mut out);
        assert_eq!(out.iter().map(|r| r.nic).collect::<Vec<_>>(), vec![2, 9, 4]);
        assert!(out.iter().all(|r| r.first_bit == Instant::ZERO + Duration::from_micros(4)));
    }
}
