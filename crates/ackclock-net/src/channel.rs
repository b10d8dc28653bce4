//! One direction of a point-to-point link: queue, transmitter and wire.
//!
//! A FIFO transmitter at a fixed rate knows each accepted packet's
//! departure the moment it arrives, so the channel commits the packet to its
//! arrival line right away and keeps only a ledger of departure times for
//! queue accounting. The engine then needs one pending event per channel
//! (its earliest arrival), not one per packet per stage.
//!
//! The ledger is consulted lazily: `advance(now)` retires the departures
//! that happened before `now`, integrating queue length and busy time
//! exactly between them.

use crate::discipline::{Admission, Backlog, Discipline};
use crate::jitter::Jitter;
use crate::loss::{LossModel, LossPosition};
use crate::packet::{Ecn, NodeId, Packet};
use ackclock_core::{Bandwidth, Duration, Instant, RngStreams, SimRng};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

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

/// Why `send` refused a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The queue discipline refused it (full, or RED).
    Queue,
    /// The error model lost it at the link head.
    Loss,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendOutcome {
    Dropped(DropReason),
    /// Accepted. `wake` is set when the engine must schedule an arrival
    /// event for this channel at that time.
    Accepted { wake: Option<Instant> },
}

/// A packet reaching the far end; `lost` when the wire corrupted it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub packet: Packet,
    pub lost: bool,
}

/// Counters and time integrals, as of the last `advance`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChannelStats {
    pub tx_packets: u64,
    pub tx_bytes: u64,
    pub queue_drops: u64,
    pub loss_drops: u64,
    pub ecn_marks: u64,
    /// Transmitter busy time of completed transmissions.
    pub busy: Duration,
    /// Integral over time of waiting packets, in packet-picoseconds.
    pub queue_packet_ps: u128,
    pub queue_byte_ps: u128,
    /// occupancy[n]: picoseconds spent with n packets in the system
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
    fn push(&mut self, f: InFlight) {
        match self {
            ArrivalLine::Fifo(q) => q.push_back(f),
            ArrivalLine::Reordering(h) => h.push(f),
        }
    }
    fn head_time(&self) -> Option<Instant> {
        match self {
            ArrivalLine::Fifo(q) => q.front().map(|f| f.at),
            ArrivalLine::Reordering(h) => h.peek().map(|f| f.at),
        }
    }
    fn pop(&mut self) -> Option<InFlight> {
        match self {
            ArrivalLine::Fifo(q) => q.pop_front(),
            ArrivalLine::Reordering(h) => h.pop(),
        }
    }
    fn drain(&mut self) -> Vec<InFlight> {
        match self {
            ArrivalLine::Fifo(q) => q.drain(..).collect(),
            ArrivalLine::Reordering(h) => std::mem::take(h).into_sorted_vec().into_iter().rev().collect(),
        }
    }
}

pub struct Channel {
    pub from: NodeId,
    pub to: NodeId,
    bandwidth: Bandwidth,
    delay: Duration,
    discipline: Discipline,
    loss: Option<LossModel>,
    jitter: Option<Jitter>,
    loss_rng: SimRng,
    jitter_rng: SimRng,
    aqm_rng: SimRng,
    ledger: VecDeque<Departure>,
    waiting_packets: u32,
    waiting_bytes: u64,
    busy_until: Instant,
    accounted_to: Instant,
    line: ArrivalLine,
    sent_order: u64,
    last_arrival: Instant,
    /// Time of this channel's live arrival event in the engine, if any.
    armed: Option<Instant>,
    stats: ChannelStats,
}

impl Channel {
    /// `id` names the channel's random streams.
    pub fn new(config: ChannelConfig, id: u32, streams: &RngStreams) -> Self {
        let reorder = config.jitter.is_some_and(|j| j.reorder);
        Channel {
            from: config.from,
            to: config.to,
            bandwidth: config.bandwidth,
            delay: config.delay,
            discipline: config.discipline,
            loss: config.loss,
            jitter: config.jitter,
            loss_rng: streams.stream(&format!("channel/{id}/loss")),
            jitter_rng: streams.stream(&format!("channel/{id}/jitter")),
            aqm_rng: streams.stream(&format!("channel/{id}/aqm")),
            ledger: VecDeque::new(),
            waiting_packets: 0,
            waiting_bytes: 0,
            busy_until: Instant::ZERO,
            accounted_to: Instant::ZERO,
            line: ArrivalLine::new(reorder),
            sent_order: 0,
            last_arrival: Instant::ZERO,
            armed: None,
            stats: ChannelStats { occupancy: vec![0], ..ChannelStats::default() },
        }
    }

    pub fn bandwidth(&self) -> Bandwidth {
        self.bandwidth
    }

    pub fn delay(&self) -> Duration {
        self.delay
    }

    pub fn set_loss(&mut self, loss: Option<LossModel>) {
        self.loss = loss;
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

    /// Offers a packet to the channel at `now`.
    pub fn send(&mut self, now: Instant, mut packet: Packet) -> SendOutcome {
        self.advance(now);
        if self.loses(packet.size, LossPosition::BeforeQueue) {
            self.stats.loss_drops += 1;
            return SendOutcome::Dropped(DropReason::Loss);
        }
        let backlog = self.backlog();
        let idle_for = (backlog.in_service_bytes.is_none() && backlog.waiting_packets == 0)
            .then(|| now.saturating_since(self.busy_until));
        let ecn_capable = packet.ip.ecn.is_capable();
        match self.discipline.admit(now, &backlog, idle_for, self.bandwidth, packet.size, ecn_capable, &mut self.aqm_rng) {
            Admission::Drop => {
                self.stats.queue_drops += 1;
                return SendOutcome::Dropped(DropReason::Queue);
            }
            Admission::Mark => {
                packet.ip.ecn = Ecn::Ce;
                self.stats.ecn_marks += 1;
            }
            Admission::Accept => {}
        }
        let tx_end = self.commit_departure(now, packet.size);
        let lost = self.loses(packet.size, LossPosition::OnWire);
        if lost {
            self.stats.loss_drops += 1;
        }
        let at = self.arrival_time(tx_end);
        self.line.push(InFlight { at, order: self.sent_order, arrival: Arrival { packet, lost } });
        self.sent_order += 1;
        let wake = self.armed.is_none_or(|a| at < a).then(|| {
            self.armed = Some(at);
            at
        });
        SendOutcome::Accepted { wake }
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
        if self.armed != Some(now) {
            return None; // a superseded event; the live one is still pending
        }
        self.armed = self.line.head_time();
        self.armed
    }

    /// Brings the ledger and statistics up to `now`.
    pub fn advance(&mut self, now: Instant) {
        while let Some(front) = self.ledger.front().copied() {
            let change = if front.started { front.tx_end } else { front.tx_start };
            if change > now {
                break;
            }
            self.integrate_to(change);
            if front.started {
                self.ledger.pop_front();
                self.stats.busy += front.tx_end - front.tx_start;
            } else {
                self.start_transmission(front.size, true);
                self.ledger[0].started = true;
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

    fn backlog(&self) -> Backlog {
        let in_service_bytes = self.ledger.front().filter(|d| d.started).map(|d| d.size);
        Backlog { waiting_packets: self.waiting_packets, waiting_bytes: self.waiting_bytes, in_service_bytes }
    }

    fn loses(&mut self, size: u32, position: LossPosition) -> bool {
        match &mut self.loss {
            Some(m) if m.position == position => m.process.is_lost(size, &mut self.loss_rng),
            _ => false,
        }
    }

    /// Books the transmitter for a packet arriving at `now`; returns when
    /// its last bit leaves.
    fn commit_departure(&mut self, now: Instant, size: u32) -> Instant {
        let tx_start = now.max(self.busy_until);
        let tx_end = tx_start + self.bandwidth.tx_time(size);
        self.busy_until = tx_end;
        let started = tx_start == now;
        if started {
            self.start_transmission(size, false);
        } else {
            self.waiting_packets += 1;
            self.waiting_bytes += u64::from(size);
        }
        self.ledger.push_back(Departure { tx_start, tx_end, size, started });
        let in_system = self.ledger.len();
        if self.stats.occupancy.len() <= in_system {
            self.stats.occupancy.resize(in_system + 1, 0);
        }
        tx_end
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
        self.stats.occupancy[self.ledger.len()] += dt;
        self.accounted_to = t;
    }
}
