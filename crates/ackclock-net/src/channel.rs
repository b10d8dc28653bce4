//! One direction of a point-to-point link: queue, transmitter and wire.
//!
//! A FIFO transmitter at a fixed rate knows each accepted packet's
//! departure the moment it arrives, so the channel commits the packet to its
//! arrival line right away and keeps only a ledger of departure times for
//! queue accounting. The engine then needs one pending event per channel
//! (its earliest arrival), not one per packet per stage. The channel sees a
//! packet's size and its id in the engine's [`PacketPool`](crate::PacketPool),
//! never the packet itself.
//!
//! The ledger is consulted lazily: `advance(now)` retires the departures
//! that happened before `now`, integrating queue length and busy time
//! exactly between them.
//!
//! A link can go down (everything queued or on the wire is lost, as in
//! ns-2's dynamic links) and come back up, and its rate can change: the
//! packet being sent keeps the old rate, those waiting are re-timed.
//!
//! In ns-2's event order, an [`Ns2Link`] beside the channel keeps its times
//! as ns-2 computes them; `send` takes it along.

use crate::discipline::{Admission, Backlog, Discipline, HoldingQueue, Next, Red};
use crate::held::Held;
use crate::jitter::Jitter;
use crate::loss::{FlowFilter, LossModel, LossPosition, LossProcess};
use crate::ns2_link::{Ns2Link, Ns2Offer};
use crate::packet::NodeId;
use crate::pool::PacketId;
use ackclock_core::{Bandwidth, Duration, Instant, Mrg32k3a, OrderKey, RngStreams, SimRng};
use rand::RngExt;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// Names a link direction in the simulation.
pub type ChannelId = u32;

#[derive(Clone, Debug)]
pub struct ChannelConfig {
    pub from: NodeId,
    pub to: NodeId,
    pub bandwidth: Bandwidth,
    pub delay: Duration,
    pub discipline: Discipline,
    pub loss: Option<LossModel>,
    pub jitter: Option<Jitter>,
}

impl ChannelConfig {
    /// A direction without loss or jitter.
    pub fn new(from: NodeId, to: NodeId, bandwidth: Bandwidth, delay: Duration, discipline: Discipline) -> Self {
        ChannelConfig { from, to, bandwidth, delay, discipline, loss: None, jitter: None }
    }
}

/// Why `send` refused a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The queue discipline refused it (full, or RED's forced drop).
    Queue,
    /// RED dropped it early, at random.
    EarlyDrop,
    /// The error model lost it at the link head.
    Loss,
    /// The link is down.
    LinkDown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendOutcome {
    Dropped(DropReason),
    /// Accepted; transmission starts at `departs`. `wake` is set when the
    /// engine must schedule an arrival event for this channel at that time.
    /// `ce_marked`: the queue marked the packet Congestion Experienced
    /// instead of dropping it (RED with ECN); the caller sets its ECN bits.
    Accepted {
        departs: Instant,
        wake: Option<Instant>,
        ce_marked: bool,
    },
    /// Accepted by a discipline that decides at dequeue time (CoDel,
    /// FQ-CoDel, PIE): its transmission or drop comes later, as a
    /// [`QueueEvent`]. `wake` and `ce_marked` as for `Accepted`.
    Held {
        wake: Option<Instant>,
        ce_marked: bool,
    },
    /// An error model at the link head holds the packet for this long; the
    /// caller offers it again then with `send_past_losses`.
    Delayed(Duration),
}

/// What a holding discipline did with a packet it had accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueEvent {
    /// Its transmission started at `at`; `ce_marked` when the discipline
    /// marked it Congestion Experienced instead of dropping it.
    Sent { at: Instant, packet: PacketId, ce_marked: bool },
    /// The discipline dropped it at `at`.
    Dropped { at: Instant, packet: PacketId },
}

/// A packet reaching the far end; `lost` when the wire corrupted it,
/// `duplicated` when the far end receives it twice (the copy right behind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub packet: PacketId,
    pub lost: bool,
    pub duplicated: bool,
}

/// Counters and time integrals, as of the last `advance`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChannelStats {
    pub tx_packets: u64,
    pub tx_bytes: u64,
    pub queue_drops: u64,
    pub loss_drops: u64,
    /// Packets offered while the link was down, or queued or on the wire
    /// when it went down.
    pub down_drops: u64,
    pub ecn_marks: u64,
    /// Transmitter busy time of completed transmissions.
    pub busy: Duration,
    /// When the first transmission started.
    pub first_tx_start: Option<Instant>,
    /// Integral over time of waiting packets, in packet-picoseconds.
    pub queue_packet_ps: u128,
    pub queue_byte_ps: u128,
    /// `occupancy[n]`: picoseconds spent with n packets in the system
    /// (waiting plus in service).
    pub occupancy: Vec<u64>,
}

/// A departure the transmitter has committed to.
#[derive(Clone, Copy, Debug)]
struct Departure {
    tx_start: Instant,
    tx_end: Instant,
    size: u32,
    started: bool,
}

#[derive(Clone, Copy, Debug)]
struct InFlight {
    at: Instant,
    order: u64,
    arrival: Arrival,
}

impl PartialEq for InFlight {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.order) == (o.at, o.order)
    }
}
impl Eq for InFlight {}
impl PartialOrd for InFlight {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for InFlight {
    /// Reversed for a min-heap; ties keep transmission order.
    fn cmp(&self, o: &Self) -> Ordering {
        (o.at, o.order).cmp(&(self.at, self.order))
    }
}

/// Packets on the wire. FIFO unless jitter may reorder them.
#[derive(Clone, Debug)]
enum ArrivalLine {
    Fifo(VecDeque<InFlight>),
    Reordering(BinaryHeap<InFlight>),
}

impl ArrivalLine {
    fn new(reorder: bool) -> Self {
        if reorder {
            ArrivalLine::Reordering(BinaryHeap::new())
        } else {
            ArrivalLine::Fifo(VecDeque::new())
        }
    }
    #[inline]
    fn push(&mut self, f: InFlight) {
        match self {
            ArrivalLine::Fifo(q) => q.push_back(f),
            ArrivalLine::Reordering(h) => h.push(f),
        }
    }
    #[inline]
    fn head(&self) -> Option<&InFlight> {
        match self {
            ArrivalLine::Fifo(q) => q.front(),
            ArrivalLine::Reordering(h) => h.peek(),
        }
    }
    #[inline]
    fn head_time(&self) -> Option<Instant> {
        self.head().map(|f| f.at)
    }
    #[inline]
    fn pop(&mut self) -> Option<InFlight> {
        match self {
            ArrivalLine::Fifo(q) => q.pop_front(),
            ArrivalLine::Reordering(h) => h.pop(),
        }
    }
    /// Everything on the line, in arrival order.
    fn drain(&mut self) -> Vec<InFlight> {
        match self {
            ArrivalLine::Fifo(q) => q.drain(..).collect(),
            ArrivalLine::Reordering(h) => std::mem::take(h).into_sorted_vec().into_iter().rev().collect(),
        }
    }
}

/// What taking a link down removed from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flushed {
    /// Packets that had started transmission (in service or on the wire),
    /// in arrival order, with whether the wire had already lost them.
    pub sent: Vec<(PacketId, bool)>,
    /// Packets still waiting in the queue, in queue order.
    pub waiting: Vec<PacketId>,
}

/// What a rate change did to the packets waiting in the queue.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Retimed {
    /// Each waiting packet with its new transmission start, in queue order.
    pub departures: Vec<(PacketId, Instant)>,
    /// Set when the engine must schedule an arrival event at this time.
    pub wake: Option<Instant>,
}

pub struct Channel {
    pub from: NodeId,
    pub to: NodeId,
    bandwidth: Bandwidth,
    /// The last packet size sent and its serialization time: a link sees
    /// few distinct sizes, and the division is the slowest step of a send.
    last_tx_time: (u32, Duration),
    delay: Duration,
    discipline: Discipline,
    /// Loss models in the order a packet meets them, each for some flows.
    losses: Vec<(LossModel, FlowFilter)>,
    jitter: Option<Jitter>,
    loss_rng: SimRng,
    jitter_rng: SimRng,
    aqm_rng: SimRng,
    /// Probability that the far end receives a packet twice.
    duplicate: f64,
    duplicate_rng: SimRng,
    ledger: VecDeque<Departure>,
    /// Departures retired from the ledger so far.
    departed: u64,
    waiting_packets: u32,
    waiting_bytes: u64,
    busy_until: Instant,
    accounted_to: Instant,
    line: ArrivalLine,
    sent_order: u64,
    last_arrival: Instant,
    /// Time of this channel's live arrival event in the engine, if any.
    armed: Option<Instant>,
    up: bool,
    /// Whether a packet may be refused before the queue (the link is down
    /// or loses packets there): one test on the fast path for both.
    head_checks: bool,
    /// A loss model picks TCP segments by sequence number.
    picks_segments: bool,
    stats: ChannelStats,
    /// (time, waiting packets, waiting bytes) at every change, when asked.
    queue_series: Option<Vec<(Instant, u32, u64)>>,
    /// Packets a holding discipline keeps (they are not in the ledger).
    held: u32,
    /// When the holding discipline is next asked for a packet.
    next_dequeue: Option<Instant>,
    /// What the holding discipline did, for the simulation to collect.
    queue_events: VecDeque<QueueEvent>,
    /// Scratch for the packets a holding discipline drops.
    dropped: Vec<Held>,
}

impl Channel {
    /// `id` names the channel's random streams.
    pub fn new(config: ChannelConfig, id: u32, streams: &RngStreams) -> Self {
        let reorder = config.jitter.is_some_and(|j| j.reorder);
        let head_checks = config.loss.as_ref().is_some_and(|l| l.position == LossPosition::BeforeQueue);
        let picks_segments = config.loss.as_ref().is_some_and(|l| matches!(l.process, LossProcess::Segments { .. }));
        let mut discipline = config.discipline;
        if let Discipline::Holding(q) = &mut discipline {
            if let HoldingQueue::Fq(fq) = &mut **q {
                fq.fit_link(config.bandwidth);
            }
        }
        Channel {
            from: config.from,
            to: config.to,
            bandwidth: config.bandwidth,
            last_tx_time: (0, config.bandwidth.tx_time(0)),
            delay: config.delay,
            discipline,
            losses: config.loss.into_iter().map(|m| (m, FlowFilter::All)).collect(),
            jitter: config.jitter,
            loss_rng: streams.stream(&format!("channel/{id}/loss")),
            jitter_rng: streams.stream(&format!("channel/{id}/jitter")),
            aqm_rng: streams.stream(&format!("channel/{id}/aqm")),
            duplicate: 0.0,
            duplicate_rng: streams.stream(&format!("channel/{id}/duplicate")),
            ledger: VecDeque::new(),
            departed: 0,
            waiting_packets: 0,
            waiting_bytes: 0,
            busy_until: Instant::ZERO,
            accounted_to: Instant::ZERO,
            line: ArrivalLine::new(reorder),
            sent_order: 0,
            last_arrival: Instant::ZERO,
            armed: None,
            up: true,
            head_checks,
            picks_segments,
            stats: ChannelStats { occupancy: vec![0], ..ChannelStats::default() },
            queue_series: None,
            held: 0,
            next_dequeue: None,
            queue_events: VecDeque::new(),
            dropped: Vec::new(),
        }
    }

    pub fn bandwidth(&self) -> Bandwidth {
        self.bandwidth
    }

    /// (packets, bytes) waiting as of the last `advance`.
    pub fn waiting(&self) -> (u32, u64) {
        (self.waiting_packets, self.waiting_bytes)
    }

    /// The discipline's average queue, for one that keeps one (RED).
    pub fn average_queue(&self) -> Option<f64> {
        self.discipline.red().map(Red::average)
    }

    /// For RED: the queue the last arrival found and the average after it.
    pub fn red_seen(&self) -> Option<(f64, f64)> {
        self.discipline.red().map(Red::seen)
    }

    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// Replaces every loss model by `loss` (for every flow), or none.
    pub fn set_loss(&mut self, loss: Option<LossModel>) {
        self.losses = loss.into_iter().map(|m| (m, FlowFilter::All)).collect();
        self.update_head_checks();
    }

    /// Adds a loss model for the flows `flows` takes; returns its index.
    pub fn add_loss(&mut self, loss: LossModel, flows: FlowFilter) -> usize {
        self.losses.push((loss, flows));
        self.update_head_checks();
        self.losses.len() - 1
    }

    /// Names one more flow in loss model `index`'s filter.
    pub fn add_loss_flow(&mut self, index: usize, flow: u32) -> bool {
        match self.losses.get_mut(index) {
            Some((_, filter)) => {
                filter.add(flow);
                true
            }
            None => false,
        }
    }

    pub fn is_up(&self) -> bool {
        self.up
    }

    /// Takes the link down at `now`: it refuses packets until `set_up`, and
    /// every packet queued, in transmission or on the wire is lost.
    pub fn set_down(&mut self, now: Instant) -> Flushed {
        self.advance(now);
        self.up = false;
        self.update_head_checks();
        let waiting = self.waiting_count();
        let mut entries = self.line.drain();
        // The waiting packets are the last `waiting` sent; the line holds
        // them by send order.
        entries.sort_by_key(|f| f.order);
        let unsent = entries.split_off(entries.len() - waiting);
        entries.sort_by_key(|f| (f.at, f.order));
        if let Some(d) = self.ledger.front().filter(|d| d.started) {
            self.stats.busy += now - d.tx_start;
        }
        self.ledger.clear();
        self.busy_until = now;
        self.waiting_packets = 0;
        self.waiting_bytes = 0;
        self.note_queue_change(now);
        let mut flushed = Flushed {
            sent: entries.iter().map(|f| (f.arrival.packet, f.arrival.lost)).collect(),
            waiting: unsent.iter().map(|f| f.arrival.packet).collect(),
        };
        if let Discipline::Holding(q) = &mut self.discipline {
            flushed.waiting.extend(q.drain().into_iter().map(|h| h.packet));
            self.held = 0;
            self.next_dequeue = None;
        }
        let lost_on_wire = flushed.sent.iter().filter(|&&(_, lost)| lost).count();
        self.stats.down_drops += (flushed.sent.len() - lost_on_wire + flushed.waiting.len()) as u64;
        flushed
    }

    /// Brings the link back up.
    pub fn set_up(&mut self) {
        self.up = true;
        self.update_head_checks();
    }

    fn update_head_checks(&mut self) {
        self.head_checks = !self.up || self.losses.iter().any(|(l, _)| l.position == LossPosition::BeforeQueue);
        self.picks_segments = self.losses.iter().any(|(l, _)| matches!(l.process, LossProcess::Segments { .. }));
    }

    /// Whether a loss model picks TCP segments by sequence number, so the
    /// simulation must show it each data segment (`loses_segment`).
    #[inline]
    pub fn picks_segments(&self) -> bool {
        self.picks_segments
    }

    /// The loss models' verdict on a TCP data segment of `flow` starting at
    /// `offset` from its sender's ISN; counted as a loss drop.
    pub fn loses_segment(&mut self, offset: u64, flow: u32) -> bool {
        let lost = self.losses.iter_mut().any(|(m, filter)| filter.takes(flow) && m.process.loses_segment(offset));
        self.stats.loss_drops += u64::from(lost);
        lost
    }

    /// Why a packet is refused before the queue, if it is: the link is
    /// down, or the first error model there that picks it loses or delays it.
    #[cold]
    fn refused_at_head(&mut self, size: u32, flow: u32) -> Option<SendOutcome> {
        if !self.up {
            self.stats.down_drops += 1;
            return Some(SendOutcome::Dropped(DropReason::LinkDown));
        }
        let rng = &mut self.loss_rng;
        let picked = self.losses.iter_mut().position(|(m, filter)| {
            m.position == LossPosition::BeforeQueue && filter.takes(flow) && m.process.is_lost(size, rng)
        })?;
        match self.losses[picked].0.delay {
            Some(delay) => Some(SendOutcome::Delayed(delay)),
            None => {
                self.stats.loss_drops += 1;
                Some(SendOutcome::Dropped(DropReason::Loss))
            }
        }
    }

    /// `send` for a packet an error model at the link head delayed: it has
    /// met the models there already.
    #[cold]
    #[allow(clippy::too_many_arguments)]
    pub fn send_past_losses(
        &mut self,
        now: Instant,
        ns2: Option<(&mut Ns2Link, Ns2Offer)>,
        packet: PacketId,
        size: u32,
        flow: u32,
        ends: (NodeId, NodeId),
        ecn_capable: bool,
        shared: &mut Option<Mrg32k3a>,
    ) -> SendOutcome {
        if !self.up {
            self.stats.down_drops += 1;
            return SendOutcome::Dropped(DropReason::LinkDown);
        }
        let checks = std::mem::replace(&mut self.head_checks, false);
        let outcome = self.send(now, ns2, packet, size, flow, ends, ecn_capable, shared);
        self.head_checks = checks;
        outcome
    }

    /// Changes the rate at `now`. The packet in transmission finishes at
    /// the old rate; the waiting packets are re-timed at the new one and
    /// keep the extra delay (jitter) they drew.
    pub fn set_bandwidth(&mut self, now: Instant, bandwidth: Bandwidth) -> Retimed {
        self.advance(now);
        self.bandwidth = bandwidth;
        self.last_tx_time = (0, bandwidth.tx_time(0));
        let waiting = self.waiting_count();
        let mut entries = self.line.drain();
        entries.sort_by_key(|f| f.order);
        let mut retimed = entries.split_off(entries.len() - waiting);
        self.last_arrival = entries.iter().map(|f| f.at).max().unwrap_or(Instant::ZERO);
        for f in entries {
            self.line.push(f);
        }
        let first_waiting = self.ledger.len() - waiting;
        let mut tx_start = self.ledger.get(first_waiting.wrapping_sub(1)).map_or(now, |d| d.tx_end);
        let mut departures = Vec::with_capacity(waiting);
        for (f, d) in retimed.iter_mut().zip(self.ledger.range_mut(first_waiting..)) {
            let extra = f.at - d.tx_end; // propagation delay plus jitter
            d.tx_start = tx_start;
            d.tx_end = tx_start + bandwidth.tx_time(d.size);
            f.at = d.tx_end + extra;
            if !self.jitter.is_some_and(|j| j.reorder) {
                f.at = f.at.max(self.last_arrival);
            }
            self.last_arrival = self.last_arrival.max(f.at);
            departures.push((f.arrival.packet, tx_start));
            tx_start = d.tx_end;
        }
        self.busy_until = self.ledger.back().map_or(self.busy_until, |d| d.tx_end);
        for f in retimed {
            self.line.push(f);
        }
        Retimed { departures, wake: self.wake() }
    }

    /// Packets in the ledger that have not started transmission (call
    /// `advance` first); they are the ledger's last entries.
    fn waiting_count(&self) -> usize {
        self.ledger.iter().rev().take_while(|d| !d.started).count()
    }

    /// Starts recording the queue length at every change (from now on).
    pub fn record_queue(&mut self, now: Instant) {
        self.advance(now);
        self.queue_series.get_or_insert_with(Vec::new).push((now, self.waiting_packets, self.waiting_bytes));
    }

    /// The recorded queue lengths, up to the last `advance`.
    pub fn queue_series(&self) -> &[(Instant, u32, u64)] {
        self.queue_series.as_deref().unwrap_or(&[])
    }

    fn note_queue_change(&mut self, at: Instant) {
        if let Some(series) = &mut self.queue_series {
            series.push((at, self.waiting_packets, self.waiting_bytes));
        }
    }

    /// Makes the network deliver each packet twice with probability `p`
    /// (the copy arrives right behind the original and uses no bandwidth).
    pub fn set_duplication(&mut self, p: f64) {
        self.duplicate = p;
    }

    /// Replaces the jitter model; packets already on the wire keep their
    /// arrival times.
    pub fn set_jitter(&mut self, jitter: Option<Jitter>) {
        let reorder = jitter.is_some_and(|j| j.reorder);
        if reorder != matches!(self.line, ArrivalLine::Reordering(_)) {
            let mut line = ArrivalLine::new(reorder);
            for f in self.line.drain() {
                line.push(f);
            }
            self.line = line;
        }
        self.jitter = jitter;
    }

    /// Offers a packet of `size` bytes of flow `flow` from node `ends.0` to
    /// node `ends.1` to the channel at `now` (in ns-2's order: with the
    /// channel's `Ns2Link` and the packet's place); RED draws from `shared`,
    /// ns-2's default generator, when given. Always inlined: the
    /// engine's per-packet path calls it, and `send_past_losses` too.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn send(
        &mut self,
        now: Instant,
        mut ns2: Option<(&mut Ns2Link, Ns2Offer)>,
        packet: PacketId,
        size: u32,
        flow: u32,
        ends: (NodeId, NodeId),
        ecn_capable: bool,
        shared: &mut Option<Mrg32k3a>,
    ) -> SendOutcome {
        // A holding discipline keeps its own ns-2 times (`Ns2Link::start_held`).
        let mut held_ns2 = None;
        if self.holds() {
            held_ns2 = ns2.take();
            let link = held_ns2.as_mut().map(|(link, offer)| (&mut **link, offer.during, Some(*offer)));
            self.run_dequeues(now, link);
        }
        self.advance_before(now, ns2.as_mut().map(|(link, offer)| (&mut **link, offer.during)));
        if self.head_checks {
            if let Some(outcome) = self.refused_at_head(size, flow) {
                return outcome;
            }
        }
        let backlog = self.backlog(now);
        // Asked for by RED only: DropTail's path computes nothing.
        let ns2_idle = || match (backlog.idle_for, ns2.as_ref().or(held_ns2.as_ref())) {
            (Some(_), Some((link, offer))) => Some(link.idle_for(offer)),
            _ => None,
        };
        let ce_marked = match self.discipline.admit(
            now,
            &backlog,
            self.bandwidth,
            size,
            ecn_capable,
            &mut self.aqm_rng,
            shared,
            ns2_idle,
        ) {
            Admission::Drop => {
                self.stats.queue_drops += 1;
                return SendOutcome::Dropped(DropReason::Queue);
            }
            Admission::EarlyDrop => {
                self.stats.queue_drops += 1;
                return SendOutcome::Dropped(DropReason::EarlyDrop);
            }
            Admission::Mark => {
                self.stats.ecn_marks += 1;
                true
            }
            Admission::Accept => false,
        };
        if let Discipline::Holding(q) = &mut self.discipline {
            let (src, dst) = ends;
            let held = Held { packet, size, flow, src, dst, ecn_capable, enqueued: now };
            q.hold(held, &mut self.dropped, &mut self.aqm_rng);
            return self.after_hold(now, size, ce_marked, held_ns2);
        }
        let (departs, tx_end) = self.commit_departure(now, size);
        let at = self.put_on_wire(packet, size, flow, tx_end);
        if let Some((link, offer)) = ns2 {
            let jittered = self.jitter.is_some().then_some(at);
            link.book(offer, size, self.departed, jittered);
        }
        let wake = self.armed.is_none_or(|a| at < a).then(|| {
            self.armed = Some(at);
            at
        });
        SendOutcome::Accepted { departs, wake, ce_marked }
    }

    /// Sends a packet whose transmission ends at `tx_end` down the wire;
    /// returns when it reaches the far end.
    #[inline(always)]
    fn put_on_wire(&mut self, packet: PacketId, size: u32, flow: u32, tx_end: Instant) -> Instant {
        let lost = self.loses(size, flow, LossPosition::OnWire);
        if lost {
            self.stats.loss_drops += 1;
        }
        let at = self.arrival_time(tx_end);
        let duplicated = self.duplicate > 0.0 && self.duplicate_rng.random::<f64>() < self.duplicate;
        let arrival = Arrival { packet, lost, duplicated };
        self.line.push(InFlight { at, order: self.sent_order, arrival });
        self.sent_order += 1;
        at
    }

    /// The flow id of each simulation flow, by index, for a discipline
    /// that keys its queues by them (ns-2's FQ).
    pub fn set_flow_ids(&mut self, fids: &[u32]) {
        if let Discipline::Holding(q) = &mut self.discipline {
            q.set_flow_ids(fids);
        }
    }

    /// Whether the discipline decides at dequeue time, so that the
    /// simulation must collect `take_queue_event`s.
    #[inline]
    pub fn holds(&self) -> bool {
        matches!(self.discipline, Discipline::Holding(_))
    }

    /// Accounts for a packet the holding discipline took (and any it
    /// pushed out), and starts sending if the transmitter is free.
    #[cold]
    #[inline(never)]
    fn after_hold(
        &mut self,
        now: Instant,
        size: u32,
        ce_marked: bool,
        mut ns2: Option<(&mut Ns2Link, Ns2Offer)>,
    ) -> SendOutcome {
        self.held += 1;
        self.waiting_packets += 1;
        self.waiting_bytes += u64::from(size);
        let in_system = self.ledger.len() + self.held as usize;
        if self.stats.occupancy.len() <= in_system {
            self.stats.occupancy.resize(in_system + 1, 0);
        }
        self.report_drops(now);
        self.note_queue_change(now);
        // Ask again when the transmitter is free, or sooner than a wait
        // for a packet that is not ready yet (this one may be).
        let free = now.max(self.busy_until);
        if self.held > 0 && self.next_dequeue.is_none_or(|t| t > free) {
            if let (None, Some((link, offer))) = (self.next_dequeue, &mut ns2) {
                // Nothing waited when the transmitter freed: ns-2's queue
                // went idle then, unless it resumes only after this arrival.
                if self.busy_until < now || !link.resumes_after(offer.during) {
                    link.idle();
                }
            }
            self.next_dequeue = Some(free);
        }
        self.run_dequeues(now, ns2.map(|(link, offer)| (link, offer.during, Some(offer))));
        SendOutcome::Held { wake: self.wake(), ce_marked }
    }

    /// Asks the holding discipline for a packet whenever the transmitter
    /// became free by `now`, each time at the instant it did. In ns-2's
    /// order (with the channel's `Ns2Link`): a resume at `now` itself waits
    /// for its own event if ns-2 runs it after the event `before` being
    /// handled; a transmission the arrival `offer` starts on an idle link
    /// takes its place.
    #[cold]
    #[inline(never)]
    fn run_dequeues(&mut self, now: Instant, mut ns2: Option<(&mut Ns2Link, OrderKey, Option<Ns2Offer>)>) {
        while let Some(t) = self.next_dequeue.filter(|&t| t <= now) {
            if let Some((link, before, _)) = &ns2 {
                if t == now && link.resumes_after(*before) {
                    break;
                }
            }
            self.advance(t);
            let Discipline::Holding(q) = &mut self.discipline else { return };
            let next = q.dequeue(t, &mut self.dropped);
            self.report_drops(t);
            self.next_dequeue = None;
            if let Next::Wait(ready) = next {
                self.next_dequeue = Some(ready);
            }
            if let Next::Send(d) = next {
                let Held { packet, size, flow, .. } = d.held;
                self.held -= 1;
                self.waiting_packets -= 1;
                self.waiting_bytes -= u64::from(size);
                let (_, tx_end) = self.commit_departure(t, size);
                let at = self.put_on_wire(packet, size, flow, tx_end);
                if let Some((link, _, offer)) = ns2.as_mut() {
                    link.start_held(*offer, size, self.jitter.is_some().then_some(at));
                }
                self.stats.ecn_marks += u64::from(d.ce_marked);
                self.queue_events.push_back(QueueEvent::Sent { at: t, packet, ce_marked: d.ce_marked });
                if self.held > 0 {
                    self.next_dequeue = Some(tx_end);
                }
            } else if let Some((link, ..)) = ns2.as_mut() {
                link.idle();
            }
            self.note_queue_change(t);
        }
    }

    #[cold]
    #[inline(never)]
    fn report_drops(&mut self, at: Instant) {
        for h in self.dropped.drain(..) {
            self.held -= 1;
            self.waiting_packets -= 1;
            self.waiting_bytes -= u64::from(h.size);
            self.stats.queue_drops += 1;
            self.queue_events.push_back(QueueEvent::Dropped { at, packet: h.packet });
        }
    }

    /// The next thing a holding discipline did by `now`, in time order (in
    /// ns-2's order: with the channel's `Ns2Link` and the event being run).
    pub fn take_queue_event(&mut self, now: Instant, ns2: Option<(&mut Ns2Link, OrderKey)>) -> Option<QueueEvent> {
        self.run_dequeues(now, ns2.map(|(link, during)| (link, during, None)));
        self.queue_events.pop_front()
    }

    /// In ns-2's order, the key of the channel's next event at `at`: its
    /// next arrival's or, with a holding discipline, its queue's resume.
    #[inline]
    pub fn ns2_key(&self, link: &Ns2Link, at: Instant) -> Option<OrderKey> {
        if !self.holds() {
            return link.head_key();
        }
        let arrival = link.head_key().filter(|_| self.line.head_time() == Some(at));
        let resume = link.resume_key().filter(|_| self.next_dequeue == Some(at));
        match (arrival, resume) {
            (Some(a), Some(r)) => Some(a.min(r)),
            (a, r) => a.or(r),
        }
    }

    /// When the channel next needs the engine: its next arrival at the far
    /// end or, with a holding discipline, its next dequeue.
    #[inline]
    fn next_event(&self) -> Option<Instant> {
        let arrival = self.line.head_time();
        match self.next_dequeue {
            None => arrival,
            Some(d) => Some(arrival.map_or(d, |a| a.min(d))),
        }
    }

    /// The channel's next event time, if it comes before the live one.
    fn wake(&mut self) -> Option<Instant> {
        let wake = self.next_event().filter(|&t| self.armed.is_none_or(|a| t < a));
        if wake.is_some() {
            self.armed = wake;
        }
        wake
    }

    /// Takes the next packet due at the far end by `now`, if any.
    pub fn pop_due(&mut self, now: Instant) -> Option<Arrival> {
        match self.line.head_time() {
            Some(t) if t <= now => self.line.pop().map(|f| f.arrival),
            _ => None,
        }
    }

    /// Called after an arrival event at `now` was handled. Returns the time
    /// of the next event to schedule, if this was the live one.
    pub fn rearm(&mut self, now: Instant) -> Option<Instant> {
        // In ns-2's order the clock can stay put for an event due a
        // picosecond earlier (see EventQueue::pop), so the live event may
        // run after its time; a superseded one is due after the live one.
        if self.armed.is_none_or(|a| a > now) {
            return None; // a superseded event; the live one is still pending
        }
        self.armed = self.next_event();
        self.armed
    }

    /// Brings the ledger and statistics up to `now`. Always inlined: it
    /// runs on every send, and the Python extension's build would otherwise
    /// keep it out of line.
    #[inline(always)]
    pub fn advance(&mut self, now: Instant) {
        self.advance_before(now, None);
    }

    /// `advance`; in ns-2's order a change at `now` itself happens only if
    /// ns-2 runs it before the event `before`.
    #[inline(always)]
    fn advance_before(&mut self, now: Instant, mut ns2: Option<(&mut Ns2Link, OrderKey)>) {
        while let Some(front) = self.ledger.front().copied() {
            let change = if front.started { front.tx_end } else { front.tx_start };
            let number = self.departed;
            let mut later =
                || ns2.as_mut().is_some_and(|(link, before)| link.runs_later(number, front.started, *before));
            if change > now || (change == now && later()) {
                break;
            }
            self.integrate_to(change);
            if front.started {
                self.ledger.pop_front();
                self.departed += 1;
                self.stats.busy += front.tx_end - front.tx_start;
            } else {
                self.start_transmission(front.size, true);
                self.ledger[0].started = true;
                self.note_queue_change(change);
            }
        }
        self.integrate_to(now);
    }

    /// Statistics as of the last `advance`; `busy` excludes the partial
    /// transmission in progress (see `busy_time`).
    pub fn stats(&self) -> &ChannelStats {
        &self.stats
    }

    /// Transmitter busy time up to `now` (call `advance(now)` first).
    pub fn busy_time(&self, now: Instant) -> Duration {
        let partial = match self.ledger.front() {
            Some(d) if d.started => now.saturating_since(d.tx_start),
            _ => Duration::ZERO,
        };
        self.stats.busy + partial
    }

    /// Departures retired from the ledger so far: the number of the next.
    pub fn departed(&self) -> u64 {
        self.departed
    }

    /// When the last transmission booked so far ends (in the future while
    /// packets wait).
    pub fn busy_until(&self) -> Instant {
        self.busy_until
    }

    fn backlog(&self, now: Instant) -> Backlog {
        let in_service_bytes = self.ledger.front().filter(|d| d.started).map(|d| d.size);
        let idle_for = self.ledger.is_empty().then(|| now.saturating_since(self.busy_until));
        Backlog { waiting_packets: self.waiting_packets, waiting_bytes: self.waiting_bytes, in_service_bytes, idle_for }
    }

    /// Whether the models at `position` that apply to `flow` lose the
    /// packet; each draws in turn until one does.
    fn loses(&mut self, size: u32, flow: u32, position: LossPosition) -> bool {
        self.losses.iter_mut().any(|(m, filter)| {
            m.position == position && filter.takes(flow) && m.process.is_lost(size, &mut self.loss_rng)
        })
    }

    /// Books the transmitter for a packet arriving at `now`; returns when
    /// its first and last bits leave, and its arrival's key (ns-2's order).
    #[inline(always)]
    fn commit_departure(&mut self, now: Instant, size: u32) -> (Instant, Instant) {
        let tx_start = now.max(self.busy_until);
        if self.last_tx_time.0 != size {
            self.last_tx_time = (size, self.bandwidth.tx_time(size));
        }
        let tx_end = tx_start + self.last_tx_time.1;
        self.busy_until = tx_end;
        self.stats.first_tx_start.get_or_insert(tx_start);
        // After `advance`, an empty ledger means an idle transmitter.
        let started = self.ledger.is_empty();
        if started {
            self.start_transmission(size, false);
        } else {
            self.waiting_packets += 1;
            self.waiting_bytes += u64::from(size);
            self.note_queue_change(now);
        }
        self.ledger.push_back(Departure { tx_start, tx_end, size, started });
        let in_system = self.ledger.len() + self.held as usize;
        if self.stats.occupancy.len() <= in_system {
            self.stats.occupancy.resize(in_system + 1, 0);
        }
        (tx_start, tx_end)
    }

    fn start_transmission(&mut self, size: u32, was_waiting: bool) {
        self.stats.tx_packets += 1;
        self.stats.tx_bytes += u64::from(size);
        if was_waiting {
            self.waiting_packets -= 1;
            self.waiting_bytes -= u64::from(size);
        }
    }

    fn arrival_time(&mut self, tx_end: Instant) -> Instant {
        let mut at = tx_end + self.delay;
        if let Some(j) = self.jitter {
            at += j.sample(&mut self.jitter_rng);
            if !j.reorder {
                at = at.max(self.last_arrival);
            }
        }
        self.last_arrival = self.last_arrival.max(at);
        at
    }

    fn integrate_to(&mut self, t: Instant) {
        if t <= self.accounted_to {
            return;
        }
        let dt = (t - self.accounted_to).as_ps();
        self.stats.queue_packet_ps += u128::from(dt) * u128::from(self.waiting_packets);
        self.stats.queue_byte_ps += u128::from(dt) * u128::from(self.waiting_bytes);
        self.stats.occupancy[self.ledger.len() + self.held as usize] += dt;
        self.accounted_to = t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discipline::{DropTail, QueueLimit};
    use crate::jitter::JitterDistribution;
    use crate::loss::LossProcess;

    const MS: u64 = 1_000_000_000;

    /// Offers the packet named `seq` (not ECN-capable).
    fn send(c: &mut Channel, now: Instant, seq: u64, size: u32) -> SendOutcome {
        c.send(now, None, PacketId::new(seq as u32), size, 0, (0, 1), false, &mut None)
    }

    fn channel(bps: u64, delay_ms: u64, limit: QueueLimit, ns2_limit: bool) -> Channel {
        let config = ChannelConfig {
            from: 0,
            to: 1,
            bandwidth: Bandwidth::from_bps(bps).unwrap(),
            delay: Duration::from_millis(delay_ms),
            discipline: Discipline::DropTail(DropTail { limit, ns2_limit }),
            loss: None,
            jitter: None,
        };
        Channel::new(config, 0, &RngStreams::new(1, 0))
    }

    fn accepted(outcomes: &[SendOutcome]) -> usize {
        outcomes.iter().filter(|o| matches!(o, SendOutcome::Accepted { .. })).count()
    }

    /// The sequence numbers that reach the far end, in arrival order.
    fn arrivals(c: &mut Channel) -> Vec<u64> {
        std::iter::from_fn(|| c.pop_due(Instant::MAX)).filter(|a| !a.lost).map(|a| u64::from(a.packet.raw())).collect()
    }

    #[test]
    fn serialization_plus_propagation_is_exact_to_the_picosecond() {
        let mut c = channel(10_000_000, 10, QueueLimit::Unlimited, false);
        let first = send(&mut c, Instant::ZERO, 0, 1040);
        let second = send(&mut c, Instant::ZERO, 1, 1040);
        // 1040 B at 10 Mbit/s = 832 us; the second waits for the first.
        let t1 = Instant::from_ps(832_000_000);
        assert_eq!(
            first,
            SendOutcome::Accepted {
                departs: Instant::ZERO,
                wake: Some(t1 + Duration::from_millis(10)),
                ce_marked: false
            }
        );
        assert_eq!(
            second,
            SendOutcome::Accepted { departs: t1, wake: None, ce_marked: false },
            "one live event per channel"
        );
        let seq_due = |c: &mut Channel, ps: u64| c.pop_due(Instant::from_ps(ps)).map(|a| u64::from(a.packet.raw()));
        let (t1, t2) = (832_000_000 + 10 * MS, 2 * 832_000_000 + 10 * MS);
        assert_eq!(seq_due(&mut c, t1 - 1), None);
        assert_eq!(seq_due(&mut c, t1), Some(0));
        assert_eq!(seq_due(&mut c, t2 - 1), None);
        assert_eq!(seq_due(&mut c, t2), Some(1));
    }

    fn codel_channel() -> Channel {
        use crate::codel::{CoDel, CoDelParams};
        let hard = DropTail { limit: QueueLimit::Packets(100), ns2_limit: false };
        let discipline = Discipline::Holding(Box::new(HoldingQueue::CoDel(CoDel::new(CoDelParams::default(), hard))));
        let config =
            ChannelConfig::new(0, 1, Bandwidth::from_bps(8_000_000).unwrap(), Duration::from_millis(1), discipline);
        Channel::new(config, 0, &RngStreams::new(1, 0))
    }

    #[test]
    fn a_holding_discipline_sends_each_packet_when_the_transmitter_frees() {
        // 1000 B at 8 Mbit/s: 1 ms each, then 1 ms on the wire.
        let mut c = codel_channel();
        let ms = |m: u64| Instant::from_ps(m * MS);
        let outcomes: Vec<_> = (0..3).map(|n| send(&mut c, Instant::ZERO, n, 1000)).collect();
        assert_eq!(
            outcomes,
            vec![
                SendOutcome::Held { wake: Some(ms(2)), ce_marked: false },
                SendOutcome::Held { wake: Some(ms(1)), ce_marked: false },
                SendOutcome::Held { wake: None, ce_marked: false },
            ],
            "the first leaves at once; the next event is the second's dequeue"
        );
        let sent = |at, n| Some(QueueEvent::Sent { at, packet: PacketId::new(n), ce_marked: false });
        assert_eq!(c.take_queue_event(Instant::ZERO, None), sent(Instant::ZERO, 0));
        assert_eq!(c.take_queue_event(Instant::ZERO, None), None);
        assert_eq!(c.waiting(), (2, 2000));
        // The simulation's order at each event: queue events, arrivals, rearm.
        assert_eq!(c.take_queue_event(ms(1), None), sent(ms(1), 1));
        assert_eq!(c.pop_due(ms(1)), None);
        assert_eq!(c.rearm(ms(1)), Some(ms(2)), "packet 0 arrives and packet 2 leaves");
        assert_eq!(c.take_queue_event(ms(2), None), sent(ms(2), 2));
        assert_eq!(c.pop_due(ms(2)).map(|a| a.packet.raw()), Some(0));
        assert_eq!(c.rearm(ms(2)), Some(ms(3)), "nothing left to send: the next arrival");
        assert_eq!(arrivals(&mut c), vec![1, 2]);
        c.advance(ms(5));
        assert_eq!(c.stats().tx_packets, 3);
        assert_eq!(c.stats().occupancy[..4], [2 * MS, MS, MS, MS][..], "3, 2, 1 in the system, then idle to 5 ms");
    }

    #[test]
    fn a_link_going_down_flushes_what_a_holding_discipline_holds() {
        let mut c = codel_channel();
        (0..4).for_each(|n| {
            send(&mut c, Instant::ZERO, n, 1000);
        });
        let flushed = c.set_down(Instant::from_ps(MS / 2));
        assert_eq!(flushed.sent, vec![(PacketId::new(0), false)]);
        assert_eq!(flushed.waiting, (1..4).map(PacketId::new).collect::<Vec<_>>());
        assert_eq!(c.waiting(), (0, 0));
        assert_eq!(
            c.take_queue_event(Instant::from_ps(10 * MS), None),
            Some(QueueEvent::Sent { at: Instant::ZERO, packet: PacketId::new(0), ce_marked: false })
        );
        assert_eq!(c.take_queue_event(Instant::from_ps(10 * MS), None), None, "nothing left to dequeue");
    }

    #[test]
    fn rearm_schedules_the_next_head_only_for_the_live_event() {
        let mut c = channel(8_000_000, 1, QueueLimit::Unlimited, false);
        send(&mut c, Instant::ZERO, 0, 1000); // arrives 2 ms
        send(&mut c, Instant::ZERO, 1, 1000); // arrives 3 ms
        let t = Instant::from_ps(2 * MS);
        assert!(c.pop_due(t).is_some());
        assert_eq!(c.rearm(t), Some(Instant::from_ps(3 * MS)));
        assert_eq!(c.rearm(t), None, "a stale event schedules nothing");
        // A third packet arrives at 4 ms. In ns-2's order the live event
        // may run after its time.
        send(&mut c, t, 2, 1000);
        let late = Instant::from_ps(3 * MS + 1);
        assert!(c.pop_due(late).is_some());
        assert_eq!(c.rearm(late), Some(Instant::from_ps(4 * MS)), "a late live event still rearms");
    }

    #[test]
    fn usual_limit_counts_waiting_packets_only() {
        let mut c = channel(1_000_000, 0, QueueLimit::Packets(3), false);
        let out: Vec<_> = (0..10).map(|i| send(&mut c, Instant::ZERO, i, 1000)).collect();
        assert_eq!(accepted(&out), 4, "one in service plus three waiting");
        assert_eq!(c.stats().queue_drops, 6);
    }

    #[test]
    fn ns2_limit_counts_the_packet_in_transmission() {
        let mut c = channel(1_000_000, 0, QueueLimit::Packets(3), true);
        let out: Vec<_> = (0..10).map(|i| send(&mut c, Instant::ZERO, i, 1000)).collect();
        assert_eq!(accepted(&out), 3, "one in service plus limit - 1 waiting");
        // After one transmission time (8 ms) one packet left the queue: room for one more.
        let later = Instant::from_ps(8 * MS);
        assert!(matches!(send(&mut c, later, 10, 1000), SendOutcome::Accepted { .. }));
        assert_eq!(send(&mut c, later, 11, 1000), SendOutcome::Dropped(DropReason::Queue));
    }

    #[test]
    fn byte_limit_admits_while_the_bytes_fit() {
        let mut c = channel(1_000_000, 0, QueueLimit::Bytes(2500), false);
        let out: Vec<_> = (0..5).map(|i| send(&mut c, Instant::ZERO, i, 1000)).collect();
        assert_eq!(accepted(&out), 3, "one in service, 2000 of 2500 bytes waiting");
    }

    #[test]
    fn drop_list_drops_exactly_the_listed_packets() {
        let mut c = channel(1_000_000, 1, QueueLimit::Unlimited, false);
        c.set_loss(Some(LossModel {
            process: LossProcess::drop_list(vec![2, 5]),
            position: LossPosition::OnWire,
            delay: None,
        }));
        for i in 0..6 {
            send(&mut c, Instant::from_ps(i * 10 * MS), i, 1000);
        }
        assert_eq!(arrivals(&mut c), vec![0, 2, 3, 5], "the 2nd and 5th packets (seq 1 and 4) are lost");
        assert_eq!(c.stats().tx_packets, 6, "wire losses still use the link");
        assert_eq!(c.stats().loss_drops, 2);
    }

    #[test]
    fn loss_before_the_queue_never_uses_the_link() {
        let mut c = channel(1_000_000, 1, QueueLimit::Unlimited, false);
        c.set_loss(Some(LossModel {
            process: LossProcess::drop_list(vec![1]),
            position: LossPosition::BeforeQueue,
            delay: None,
        }));
        assert_eq!(send(&mut c, Instant::ZERO, 0, 1000), SendOutcome::Dropped(DropReason::Loss));
        send(&mut c, Instant::ZERO, 1, 1000);
        c.advance(Instant::from_ps(100 * MS));
        assert_eq!(c.stats().tx_packets, 1);
        assert_eq!(c.busy_time(Instant::from_ps(100 * MS)), Duration::from_millis(8));
    }

    #[test]
    fn a_delaying_model_holds_its_packets_and_lets_them_pass_later() {
        let mut c = channel(1_000_000, 1, QueueLimit::Unlimited, false);
        let delay = Some(Duration::from_millis(35));
        let held = LossModel { process: LossProcess::drop_list(vec![1]), position: LossPosition::BeforeQueue, delay };
        c.set_loss(Some(held));
        assert_eq!(send(&mut c, Instant::ZERO, 0, 1000), SendOutcome::Delayed(Duration::from_millis(35)));
        let later = Instant::from_ps(35 * MS);
        let outcome = c.send_past_losses(later, None, PacketId::new(0), 1000, 0, (0, 1), false, &mut None);
        assert!(matches!(outcome, SendOutcome::Accepted { .. }), "{outcome:?}");
        c.advance(Instant::from_ps(100 * MS));
        assert_eq!((c.stats().tx_packets, c.stats().loss_drops), (1, 0));
    }

    #[test]
    fn queue_length_and_occupancy_are_integrated_exactly() {
        // Three 1 ms packets at t = 0: waiting 2, 1, 0 over the first three ms.
        let mut c = channel(8_000_000, 0, QueueLimit::Unlimited, false);
        for i in 0..3 {
            send(&mut c, Instant::ZERO, i, 1000);
        }
        let end = Instant::from_ps(4 * MS);
        c.advance(end);
        assert_eq!(c.stats().queue_packet_ps, 3 * u128::from(MS));
        assert_eq!(c.stats().occupancy, vec![MS, MS, MS, MS]);
        assert_eq!(c.busy_time(end), Duration::from_millis(3));
        assert_eq!(c.stats().tx_packets, 3);
    }

    #[test]
    fn partial_transmission_counts_towards_busy_time() {
        let mut c = channel(8_000_000, 0, QueueLimit::Unlimited, false);
        send(&mut c, Instant::ZERO, 0, 1000);
        send(&mut c, Instant::ZERO, 1, 1000);
        let mid = Instant::from_ps(MS + MS / 2);
        c.advance(mid);
        assert_eq!(c.busy_time(mid), Duration::from_ps(MS + MS / 2));
        assert_eq!(c.stats().tx_packets, 2, "the second started at 1 ms");
    }

    #[test]
    fn queue_series_records_every_change() {
        let mut c = channel(8_000_000, 0, QueueLimit::Unlimited, false);
        c.record_queue(Instant::ZERO);
        for i in 0..3 {
            send(&mut c, Instant::ZERO, i, 1000);
        }
        c.advance(Instant::from_ps(5 * MS));
        let series: Vec<(u64, u32)> = c.queue_series().iter().map(|&(t, n, _)| (t.as_ps() / MS, n)).collect();
        assert_eq!(series, vec![(0, 0), (0, 1), (0, 2), (1, 1), (2, 0)]);
    }

    #[test]
    fn a_link_going_down_loses_what_it_holds_and_refuses_packets_until_up() {
        // 1 ms per packet, 1 ms of wire: at 1.5 ms packet 0 is on the wire,
        // 1 is being sent and 2, 3 wait.
        let mut c = channel(8_000_000, 1, QueueLimit::Unlimited, false);
        for i in 0..4 {
            send(&mut c, Instant::ZERO, i, 1000);
        }
        let down_at = Instant::from_ps(3 * MS / 2);
        let flushed = c.set_down(down_at);
        let ids = |v: &[PacketId]| v.iter().map(|p| u64::from(p.raw())).collect::<Vec<_>>();
        assert_eq!(flushed.sent.iter().map(|&(p, _)| u64::from(p.raw())).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(ids(&flushed.waiting), vec![2, 3]);
        assert_eq!(c.stats().down_drops, 4);
        assert_eq!(c.busy_time(down_at), Duration::from_ps(3 * MS / 2), "the cut transmission counts until the cut");
        assert_eq!(c.pop_due(Instant::MAX), None, "nothing arrives");
        assert_eq!(send(&mut c, down_at, 4, 1000), SendOutcome::Dropped(DropReason::LinkDown));
        assert_eq!(c.stats().down_drops, 5);
        c.set_up();
        let later = Instant::from_ps(2 * MS);
        assert!(matches!(send(&mut c, later, 5, 1000), SendOutcome::Accepted { departs, .. } if departs == later));
        assert_eq!(arrivals(&mut c), vec![5]);
    }

    #[test]
    fn a_rate_change_retimes_the_waiting_packets_only() {
        // 1 ms per packet at 8 Mbit/s, then 2 ms at 4 Mbit/s from 0.5 ms on.
        let mut c = channel(8_000_000, 1, QueueLimit::Unlimited, false);
        for i in 0..3 {
            send(&mut c, Instant::ZERO, i, 1000);
        }
        let retimed = c.set_bandwidth(Instant::from_ps(MS / 2), Bandwidth::from_bps(4_000_000).unwrap());
        let starts: Vec<(u64, u64)> =
            retimed.departures.iter().map(|&(p, t)| (u64::from(p.raw()), t.as_ps() / (MS / 10))).collect();
        assert_eq!(starts, vec![(1, 10), (2, 30)], "the packet in transmission keeps the old rate");
        assert_eq!(retimed.wake, None, "the head's arrival did not move");
        let times: Vec<u64> = std::iter::from_fn(|| {
            c.line.head_time().inspect(|&t| {
                c.pop_due(t);
            })
        })
        .map(|t| t.as_ps() / (MS / 10))
        .collect();
        assert_eq!(times, vec![20, 40, 60], "arrivals at 2, 4 and 6 ms");
        assert_eq!(c.bandwidth().bps(), 4_000_000);
        assert_eq!(
            send(&mut c, Instant::from_ps(MS), 3, 1000),
            SendOutcome::Accepted { departs: Instant::from_ps(5 * MS), wake: None, ce_marked: false }
        );
    }

    #[test]
    fn a_rate_change_keeps_each_waiting_packets_jitter() {
        let mut c = channel(8_000_000, 1, QueueLimit::Unlimited, false);
        c.set_jitter(Some(Jitter {
            distribution: JitterDistribution::Uniform { low: Duration::ZERO, high: Duration::from_millis(3) },
            reorder: true,
        }));
        for i in 0..5 {
            send(&mut c, Instant::ZERO, i, 1000);
        }
        let mut before: Vec<(u32, Instant)> = Vec::new();
        let mut copy = c.line.clone();
        while let Some(f) = copy.pop() {
            before.push((f.arrival.packet.raw(), f.at));
        }
        before.sort();
        c.set_bandwidth(Instant::ZERO, Bandwidth::from_bps(4_000_000).unwrap());
        let mut after: Vec<(u32, Instant)> = Vec::new();
        while let Some(f) = c.line.pop() {
            after.push((f.arrival.packet.raw(), f.at));
        }
        after.sort();
        for (i, (b, a)) in before.iter().zip(&after).enumerate().skip(1) {
            // Packet i >= 1 now ends transmission at 1 + 2i ms instead of i + 1 ms.
            let shift = Duration::from_millis(i as u64);
            assert_eq!(a.1, b.1 + shift, "packet {i}");
        }
        assert_eq!(after[0], before[0], "the packet in transmission is untouched");
    }

    fn jittered(reorder: bool) -> Vec<u64> {
        let mut c = channel(100_000_000, 1, QueueLimit::Unlimited, false);
        let distribution = JitterDistribution::Exponential { mean: Duration::from_millis(5) };
        c.set_jitter(Some(Jitter { distribution, reorder }));
        for i in 0..200 {
            send(&mut c, Instant::from_ps(i * MS / 10), i, 100);
        }
        arrivals(&mut c)
    }

    #[test]
    fn jitter_without_reordering_keeps_packets_in_order() {
        let seqs = jittered(false);
        assert_eq!(seqs, (0..200).collect::<Vec<_>>());
    }

    #[test]
    fn jitter_with_reordering_lets_packets_overtake() {
        let seqs = jittered(true);
        assert_eq!(seqs.len(), 200);
        let overtaken = seqs.windows(2).filter(|w| w[1] < w[0]).count();
        assert!(overtaken > 20, "only {overtaken} inversions");
    }

    /// A straightforward FIFO link: an explicit queue served packet by packet.
    struct ReferenceLink {
        bandwidth: Bandwidth,
        delay: Duration,
        limit: DropTail,
        waiting: VecDeque<(u64, u32)>,
        busy_until: Instant,
        arrivals: Vec<(Instant, u64)>,
    }

    impl ReferenceLink {
        fn start(&mut self, at: Instant, seq: u64, size: u32) {
            self.busy_until = at + self.bandwidth.tx_time(size);
            self.arrivals.push((self.busy_until + self.delay, seq));
        }

        fn serve_until(&mut self, now: Instant) {
            while self.busy_until <= now {
                let Some((seq, size)) = self.waiting.pop_front() else { break };
                self.start(self.busy_until, seq, size);
            }
        }

        fn send(&mut self, now: Instant, seq: u64, size: u32) -> bool {
            self.serve_until(now);
            let backlog = Backlog {
                waiting_packets: self.waiting.len() as u32,
                waiting_bytes: self.waiting.iter().map(|&(_, b)| u64::from(b)).sum(),
                ..Backlog::default()
            };
            if self.limit.is_full(&backlog, size) {
                return false;
            }
            if self.busy_until <= now {
                self.start(now, seq, size);
            } else {
                self.waiting.push_back((seq, size));
            }
            true
        }
    }

    proptest::proptest! {
        #[test]
        fn lazy_channel_matches_a_packet_by_packet_reference(
            // Whole milliseconds of gap and of transmission time (250 B at
            // 2 Mbit/s), so arrivals often coincide with departures.
            sends in proptest::collection::vec((0u64..5, 1u32..7), 1..300),
            limit in 1u32..12,
            ns2_limit in proptest::bool::ANY,
        ) {
            let mut c = channel(2_000_000, 3, QueueLimit::Packets(limit), ns2_limit);
            let mut reference = ReferenceLink {
                bandwidth: c.bandwidth(),
                delay: c.delay(),
                limit: DropTail { limit: QueueLimit::Packets(limit), ns2_limit },
                waiting: VecDeque::new(),
                busy_until: Instant::ZERO,
                arrivals: Vec::new(),
            };
            let mut now = Instant::ZERO;
            for (seq, &(gap_ms, quarter_kb)) in sends.iter().enumerate() {
                now += Duration::from_millis(gap_ms);
                let size = 250 * quarter_kb;
                let accepted = matches!(send(&mut c, now, seq as u64, size), SendOutcome::Accepted { .. });
                proptest::prop_assert_eq!(accepted, reference.send(now, seq as u64, size), "packet {}", seq);
            }
            reference.serve_until(Instant::MAX);
            let mut lazy = Vec::new();
            while let Some(t) = c.line.head_time() {
                lazy.push((t, c.pop_due(t).unwrap().packet.raw().into()));
            }
            proptest::prop_assert_eq!(lazy, reference.arrivals);
        }
    }
}
