//! The IEEE 802.11 DCF MAC as ns-2 2.35's Mac/802_11 runs it in ad hoc
//! mode (mac/mac-802_11.cc, mac-timers.cc), as a sans-I/O state machine.
//!
//! The structure follows ns-2's, because its timing is what we reproduce:
//! six timers (end of own transmission, NAV, end of reception, response
//! timeout, SIFS/DIFS defer, backoff) whose handlers move three slots of
//! outgoing frames (a pending CTS or ACK, a pending RTS, the data frame)
//! onto the air. Timers due at the same instant fire in the order they
//! were started, as in ns-2's scheduler. ns-2's quirks are kept where they
//! change what happens on the air: backoff slots drawn from `0..cw` (not
//! `0..=cw`), a backoff interrupted mid-slot loses that slot's progress,
//! a frame captured away still sets the NAV for EIFS plus its length, a
//! CTS is not sent when the NAV is set, and the data frame of an RTS/CTS
//! exchange is refused unless this station has just sent the CTS.

use crate::medium::{Frame, FrameKind, InterfaceQueue, LinkAddress, Mac, MacHeader, Queued};
use crate::packet::NodeId;
use ackclock_core::{Bandwidth, Duration, Instant, SimRng};
use rand::RngExt;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

/// MAC bytes of the frames (802.11-1999 formats, FCS included).
const RTS_BYTES: u32 = 20;
const CTS_BYTES: u32 = 14;
const ACK_BYTES: u32 = 14;
/// A data frame's MAC header (frame control, duration, four addresses,
/// sequence control) and FCS, as ns-2 counts them.
const DATA_HEADER_BYTES: u32 = 34;
/// ns-2 pads every response timeout by this much per direction.
const MAX_PROPAGATION: Duration = Duration::from_micros(2);
/// The Duration field is 16 bits of microseconds.
const MAX_NAV_US: u64 = u16::MAX as u64;

/// Mac/802_11's parameters (ns-2 names in brackets, ns-default.tcl's
/// defaults) and the two Phy/WirelessPhy thresholds the MAC applies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DcfConfig {
    /// [CWMin_] 31.
    pub cw_min: u32,
    /// [CWMax_] 1023.
    pub cw_max: u32,
    /// [SlotTime_] 20 us.
    pub slot: Duration,
    /// [SIFS_] 10 us.
    pub sifs: Duration,
    /// [PreambleLength_] 144 bits.
    pub preamble_bits: u32,
    /// [PLCPHeaderLength_] 48 bits.
    pub plcp_header_bits: u32,
    /// [PLCPDataRate_] 1 Mb/s: the rate of preamble and PLCP header.
    pub plcp_rate: Bandwidth,
    /// [RTSThreshold_] 0: unicast frames of at least this many bytes (MAC
    /// header included) go after an RTS/CTS exchange.
    pub rts_threshold: u32,
    /// [ShortRetryLimit_] 7: RTS attempts (and of frames below the threshold).
    pub short_retry_limit: u32,
    /// [LongRetryLimit_] 4: attempts of a data frame sent after RTS/CTS.
    pub long_retry_limit: u32,
    /// [dataRate_] 1 Mb/s: unicast data frames.
    pub data_rate: Bandwidth,
    /// [basicRate_] 1 Mb/s: control and broadcast frames.
    pub basic_rate: Bandwidth,
    /// [Phy/WirelessPhy RXThresh_] 3.652e-10 W: weaker frames are noise
    /// that keeps the medium busy but is not received.
    pub rx_threshold_w: f64,
    /// [Phy/WirelessPhy CPThresh_] 10: the frame being received survives a
    /// later one this many times weaker.
    pub capture_ratio: f64,
}

impl Default for DcfConfig {
    fn default() -> Self {
        let mbps = Bandwidth::from_bps(1_000_000).expect("nonzero");
        DcfConfig {
            cw_min: 31,
            cw_max: 1023,
            slot: Duration::from_micros(20),
            sifs: Duration::from_micros(10),
            preamble_bits: 144,
            plcp_header_bits: 48,
            plcp_rate: mbps,
            rts_threshold: 0,
            short_retry_limit: 7,
            long_retry_limit: 4,
            data_rate: mbps,
            basic_rate: mbps,
            rx_threshold_w: 3.652e-10,
            capture_ratio: 10.0,
        }
    }
}

impl DcfConfig {
    /// Preamble and PLCP header, in whole bytes as ns-2 counts them.
    pub fn plcp_bytes(&self) -> u32 {
        (self.preamble_bits + self.plcp_header_bits) / 8
    }
    /// Bytes on the air of a data frame carrying a `packet`-byte packet.
    pub fn data_bytes(&self, packet: u32) -> u32 {
        packet + self.plcp_bytes() + DATA_HEADER_BYTES
    }
    pub fn rts_bytes(&self) -> u32 {
        self.plcp_bytes() + RTS_BYTES
    }
    pub fn cts_bytes(&self) -> u32 {
        self.plcp_bytes() + CTS_BYTES
    }
    pub fn ack_bytes(&self) -> u32 {
        self.plcp_bytes() + ACK_BYTES
    }
    /// Time on the air of `bytes` (PLCP included): preamble and PLCP
    /// header at the PLCP rate, the rest at `rate`.
    pub fn airtime(&self, bytes: u32, rate: Bandwidth) -> Duration {
        let plcp = self.plcp_bytes();
        self.plcp_rate.tx_time(plcp) + rate.tx_time(bytes.saturating_sub(plcp))
    }
    pub fn difs(&self) -> Duration {
        self.sifs + self.slot * 2
    }
    /// SIFS + DIFS + an ACK at the PLCP rate (802.11-1999 9.2.10).
    pub fn eifs(&self) -> Duration {
        self.sifs + self.difs() + self.plcp_rate.tx_time(self.ack_bytes())
    }
}

/// Counters of one station's MAC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DcfStats {
    /// RTSs without a CTS in time [RTSFailureCount].
    pub rts_failures: u64,
    /// Unicast data frames without an ACK in time [ACKFailureCount].
    pub ack_failures: u64,
    /// Data frames given up after the retry limit.
    pub failed: u64,
    /// Frames this station lost to an overlapping frame.
    pub collisions: u64,
    /// Frames lost to a stronger frame being received (capture).
    pub captured: u64,
    /// Retransmitted data frames received again and not passed up.
    pub duplicates: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TxState {
    Idle,
    Rts,
    Cts,
    Data,
    Ack,
}

/// The timers, in an array so that the earliest due one is found in one pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timer {
    /// The end of this station's own transmission.
    TxEnd,
    Nav,
    /// The end of the frame being received.
    RxEnd,
    /// No CTS or ACK in time (or, after a CTS, no data frame).
    Response,
    /// SIFS before a response, or before the data frame after a CTS.
    Defer,
    Backoff,
}
const TIMERS: [Timer; 6] = [Timer::TxEnd, Timer::Nav, Timer::RxEnd, Timer::Response, Timer::Defer, Timer::Backoff];

/// The backoff counter: slots still to count down, frozen while the
/// medium is busy; counting (re)starts after the medium has been idle
/// for `difs_wait`.
#[derive(Clone, Copy, Debug, Default)]
struct Backoff {
    busy: bool,
    paused: bool,
    started: Instant,
    remaining: Duration,
    difs_wait: Duration,
}

/// The frame being received.
#[derive(Clone, Copy, Debug)]
struct Rx {
    slot: u32,
    frame: Frame,
    power_w: f64,
    /// Too weak, or arrived while this station was sending.
    error: bool,
    collided: bool,
}

/// The data frame in hand and where it came from.
#[derive(Clone, Copy, Debug)]
struct Outgoing {
    queued: Queued,
    frame: Frame,
    airtime: Duration,
}

/// One station's 802.11 DCF.
#[derive(Clone, Debug)]
pub struct Dcf {
    config: DcfConfig,
    node: NodeId,
    rng: SimRng,
    /// Airtimes at the basic rate.
    rts_time: Duration,
    cts_time: Duration,
    ack_time: Duration,
    timers: [Option<(Instant, u64)>; 6],
    /// Start order of the timers, to fire simultaneous ones as ns-2 does.
    started: u64,
    backoff: Backoff,
    nav_until: Instant,
    tx_state: TxState,
    sending: bool,
    rx: Option<Rx>,
    /// A CTS or ACK to send.
    ctrl: Option<Frame>,
    rts: Option<Frame>,
    data: Option<Outgoing>,
    /// What `transmit` put on the air, for `poll_transmit`.
    outbox: Option<(Frame, Duration)>,
    /// Whether the MAC takes the next packet from the interface queue
    /// (ns-2's queue is blocked while the MAC holds a packet).
    accepting: bool,
    cw: u32,
    short_retries: u32,
    long_retries: u32,
    next_seq: u16,
    /// The last sequence number received from each sender.
    last_seq: HashMap<NodeId, u16>,
    /// Receptions handed back at their last bit: (end, slot, pass up).
    finished: BinaryHeap<Reverse<(Instant, u32, bool)>>,
    done: VecDeque<(Queued, bool)>,
    stats: DcfStats,
}

/// Rounds to whole microseconds as a Duration field holds them.
fn whole_us(d: Duration) -> Duration {
    Duration::from_micros(((d.as_ps() + 500_000) / 1_000_000).min(MAX_NAV_US))
}

impl Dcf {
    pub fn new(node: NodeId, config: DcfConfig, rng: SimRng) -> Self {
        Dcf {
            rts_time: config.airtime(config.rts_bytes(), config.basic_rate),
            cts_time: config.airtime(config.cts_bytes(), config.basic_rate),
            ack_time: config.airtime(config.ack_bytes(), config.basic_rate),
            config,
            node,
            rng,
            timers: [None; 6],
            started: 0,
            backoff: Backoff::default(),
            nav_until: Instant::ZERO,
            tx_state: TxState::Idle,
            sending: false,
            rx: None,
            ctrl: None,
            rts: None,
            data: None,
            outbox: None,
            accepting: true,
            cw: config.cw_min,
            short_retries: 0,
            long_retries: 0,
            next_seq: 1,
            last_seq: HashMap::new(),
            finished: BinaryHeap::new(),
            done: VecDeque::new(),
            stats: DcfStats::default(),
        }
    }

    pub fn config(&self) -> &DcfConfig {
        &self.config
    }

    pub fn stats(&self) -> DcfStats {
        self.stats
    }

    fn start(&mut self, timer: Timer, at: Instant) {
        self.started += 1;
        self.timers[timer as usize] = Some((at, self.started));
    }

    fn stop(&mut self, timer: Timer) {
        self.timers[timer as usize] = None;
    }

    fn running(&self, timer: Timer) -> bool {
        self.timers[timer as usize].is_some()
    }

    fn is_idle(&self, now: Instant) -> bool {
        self.rx.is_none() && self.tx_state == TxState::Idle && self.nav_until <= now
    }

    fn set_tx_state(&mut self, now: Instant, state: TxState) {
        self.tx_state = state;
        self.freeze_or_resume_backoff(now);
    }

    /// The backoff counts down only while the medium is idle.
    fn freeze_or_resume_backoff(&mut self, now: Instant) {
        let idle = self.is_idle(now);
        if idle && self.backoff.busy && self.backoff.paused {
            self.resume_backoff(now);
        } else if !idle && self.backoff.busy && !self.backoff.paused {
            self.pause_backoff(now);
        }
    }

    fn set_nav(&mut self, now: Instant, nav: Duration) {
        if now + nav > self.nav_until {
            self.nav_until = now + nav;
            self.start(Timer::Nav, self.nav_until);
        }
    }

    fn grow_cw(&mut self) {
        self.cw = (2 * self.cw + 1).min(self.config.cw_max);
    }

    /// Draws `0..cw` slots; counting starts `difs` from now when the medium
    /// is idle, else when it next becomes idle (after DIFS then).
    fn start_backoff(&mut self, now: Instant, difs: Duration) {
        let slots = self.rng.random_range(0..self.cw.max(1));
        let idle = self.is_idle(now);
        self.backoff = Backoff {
            busy: true,
            paused: !idle,
            started: now,
            remaining: self.config.slot * u64::from(slots),
            difs_wait: difs,
        };
        if idle {
            self.start(Timer::Backoff, now + self.backoff.remaining + difs);
        }
    }

    fn pause_backoff(&mut self, now: Instant) {
        let counting_since = self.backoff.started + self.backoff.difs_wait;
        let whole_slots = now.saturating_since(counting_since).as_ps() / self.config.slot.as_ps();
        self.backoff.remaining = self.backoff.remaining.saturating_sub(self.config.slot * whole_slots);
        self.backoff.difs_wait = Duration::ZERO;
        self.backoff.paused = true;
        self.stop(Timer::Backoff);
    }

    fn resume_backoff(&mut self, now: Instant) {
        let difs = self.config.difs();
        self.backoff.paused = false;
        self.backoff.started = now;
        self.backoff.difs_wait = difs;
        self.start(Timer::Backoff, now + self.backoff.remaining + difs);
    }

    fn transmit(&mut self, now: Instant, frame: Frame, airtime: Duration, timeout: Duration) {
        self.sending = true;
        if let Some(rx) = &mut self.rx {
            rx.error = true; // a half-duplex radio misses what it hears meanwhile
        }
        self.outbox = Some((frame, airtime));
        self.start(Timer::Response, now + timeout);
        self.start(Timer::TxEnd, now + airtime);
    }

    fn control(&self, kind: FrameKind, to: NodeId, bytes: u32, nav: Duration) -> Frame {
        let header = MacHeader { kind, nav, ..MacHeader::default() };
        Frame { packet: None, from: self.node, to: LinkAddress::Node(to), bytes, header }
    }

    fn uses_rts(&self, data: &Outgoing) -> bool {
        data.frame.bytes >= self.config.rts_threshold && data.frame.to != LinkAddress::Broadcast
    }

    /// Prepares the RTS for the data frame in hand, if it needs one.
    fn prepare_rts(&mut self) {
        let Some(data) = self.data.filter(|d| self.uses_rts(d)) else { return };
        let LinkAddress::Node(to) = data.frame.to else { return };
        let sifs = self.config.sifs;
        let nav = whole_us(sifs + self.cts_time + sifs + data.airtime + sifs + self.ack_time);
        self.rts = Some(self.control(FrameKind::Rts, to, self.config.rts_bytes(), nav));
    }

    /// Takes a packet from the queue (ns-2's `send`).
    fn accept(&mut self, now: Instant, queued: Queued) {
        let broadcast = queued.to == LinkAddress::Broadcast;
        let bytes = self.config.data_bytes(queued.bytes);
        let (rate, nav) = if broadcast {
            (self.config.basic_rate, Duration::ZERO)
        } else {
            (self.config.data_rate, whole_us(self.ack_time + self.config.sifs))
        };
        let header = MacHeader { kind: FrameKind::Data, nav, seq: self.next_seq, retry: false };
        self.next_seq = self.next_seq.wrapping_add(1);
        let frame = Frame { packet: Some(queued.packet), from: self.node, to: queued.to, bytes, header };
        self.data = Some(Outgoing { queued, frame, airtime: self.config.airtime(bytes, rate) });
        self.prepare_rts();
        if !self.backoff.busy && (!self.is_idle(now) || !self.running(Timer::Defer)) {
            let difs = if self.is_idle(now) { self.config.difs() } else { Duration::ZERO };
            self.start_backoff(now, difs);
        }
    }

    /// What to do next once a frame exchange step is over.
    fn resume_tx(&mut self, now: Instant) {
        if self.ctrl.is_some() {
            self.start(Timer::Defer, now + self.config.sifs);
        } else if self.rts.is_some() {
            if !self.backoff.busy {
                self.start_backoff(now, self.config.difs());
            }
        } else if let Some(data) = self.data {
            if !self.backoff.busy {
                if self.uses_rts(&data) {
                    self.start(Timer::Defer, now + self.config.sifs);
                } else {
                    self.start_backoff(now, self.config.difs());
                }
            }
        } else {
            self.accepting = true;
        }
        self.set_tx_state(now, TxState::Idle);
    }

    /// Sends the pending CTS or ACK; false when there is none to send.
    fn send_ctrl(&mut self, now: Instant) -> bool {
        let Some(ctrl) = self.ctrl else { return false };
        if matches!(self.tx_state, TxState::Cts | TxState::Ack) {
            return false;
        }
        let (airtime, timeout) = match ctrl.header.kind {
            FrameKind::Cts => {
                if !self.is_idle(now) {
                    self.ctrl = None;
                    return true;
                }
                self.set_tx_state(now, TxState::Cts);
                // Until the data frame should have arrived (ns-2's guess).
                let until_data = self.cts_time + MAX_PROPAGATION + ctrl.header.nav + MAX_PROPAGATION;
                (self.cts_time, until_data.saturating_sub(self.config.sifs + self.ack_time))
            }
            _ => {
                self.set_tx_state(now, TxState::Ack); // after SIFS, busy medium or not
                (self.ack_time, self.ack_time)
            }
        };
        self.transmit(now, ctrl, airtime, timeout);
        true
    }

    /// Sends the pending RTS, or backs off again if the medium is busy.
    fn send_rts(&mut self, now: Instant) -> bool {
        let Some(rts) = self.rts else { return false };
        if !self.is_idle(now) {
            self.grow_cw();
            self.start_backoff(now, Duration::ZERO);
            return true;
        }
        self.set_tx_state(now, TxState::Rts);
        let timeout = self.rts_time + MAX_PROPAGATION + self.config.sifs + self.cts_time + MAX_PROPAGATION;
        self.transmit(now, rts, self.rts_time, timeout);
        true
    }

    fn send_data(&mut self, now: Instant) {
        let Some(data) = self.data else { return };
        if !self.is_idle(now) {
            self.prepare_rts();
            self.grow_cw();
            self.start_backoff(now, Duration::ZERO);
            return;
        }
        self.set_tx_state(now, TxState::Data);
        let timeout = if data.frame.to == LinkAddress::Broadcast {
            data.airtime
        } else {
            data.airtime + MAX_PROPAGATION + self.config.sifs + self.ack_time + MAX_PROPAGATION
        };
        self.transmit(now, data.frame, data.airtime, timeout);
    }

    fn give_up(&mut self) {
        if let Some(data) = self.data.take() {
            self.done.push_back((data.queued, false));
            self.stats.failed += 1;
        }
        self.cw = self.config.cw_min;
    }

    fn rts_timed_out(&mut self, now: Instant) {
        self.stats.rts_failures += 1;
        self.short_retries += 1;
        if self.short_retries >= self.config.short_retry_limit {
            self.rts = None;
            self.short_retries = 0;
            self.give_up();
        } else {
            if let Some(rts) = &mut self.rts {
                rts.header.retry = true;
            }
            self.grow_cw();
            self.start_backoff(now, Duration::ZERO);
        }
    }

    fn ack_timed_out(&mut self, now: Instant) {
        let Some(data) = self.data else { return };
        if data.frame.to == LinkAddress::Broadcast {
            self.data = None;
            self.done.push_back((data.queued, true));
            self.cw = self.config.cw_min;
            self.start_backoff(now, Duration::ZERO);
            return;
        }
        self.stats.ack_failures += 1;
        let short = data.frame.bytes <= self.config.rts_threshold;
        let (count, limit) = if short {
            (&mut self.short_retries, self.config.short_retry_limit)
        } else {
            (&mut self.long_retries, self.config.long_retry_limit)
        };
        *count += 1;
        if *count >= limit {
            *count = 0;
            self.give_up();
        } else {
            if let Some(d) = &mut self.data {
                d.frame.header.retry = true;
            }
            self.prepare_rts();
            self.grow_cw();
            self.start_backoff(now, Duration::ZERO);
        }
    }

    fn on_rts(&mut self, now: Instant, rts: &Frame) {
        if self.tx_state != TxState::Idle || self.ctrl.is_some() {
            return;
        }
        let nav = whole_us(rts.header.nav.saturating_sub(self.config.sifs + self.cts_time));
        self.ctrl = Some(self.control(FrameKind::Cts, rts.from, self.config.cts_bytes(), nav));
        self.stop(Timer::Defer);
        self.resume_tx(now);
    }

    fn on_cts(&mut self, now: Instant) {
        if self.tx_state != TxState::Rts {
            return;
        }
        self.rts = None;
        self.stop(Timer::Response);
        self.short_retries = 0; // the RTS got through; the CW stays
        self.resume_tx(now);
    }

    fn on_ack(&mut self, now: Instant) {
        if self.tx_state != TxState::Data {
            return;
        }
        self.stop(Timer::Response);
        let Some(data) = self.data.take() else { return };
        if data.frame.bytes <= self.config.rts_threshold {
            self.short_retries = 0;
        } else {
            self.long_retries = 0;
        }
        self.cw = self.config.cw_min;
        self.done.push_back((data.queued, true));
        self.start_backoff(now, Duration::ZERO);
        self.resume_tx(now);
    }

    /// A data frame addressed here or broadcast; whether to pass it up.
    fn on_data(&mut self, now: Instant, data: &Frame) -> bool {
        if data.to == LinkAddress::Broadcast {
            return true;
        }
        if data.bytes >= self.config.rts_threshold {
            if self.tx_state != TxState::Cts {
                return false; // not the exchange this station cleared
            }
            self.stop(Timer::Response);
            self.ctrl = Some(self.control(FrameKind::Ack, data.from, self.config.ack_bytes(), Duration::ZERO));
            self.resume_tx(now);
        } else {
            if self.ctrl.is_some() {
                return false;
            }
            self.ctrl = Some(self.control(FrameKind::Ack, data.from, self.config.ack_bytes(), Duration::ZERO));
            if !self.running(Timer::Response) {
                self.resume_tx(now);
            }
        }
        // Acknowledged either way; a repeat of the last frame is not passed up.
        let seq = data.header.seq;
        if self.last_seq.insert(data.from, seq) == Some(seq) && seq != 0 {
            self.stats.duplicates += 1;
            return false;
        }
        true
    }

    /// The frame being received ended; whether to pass its packet up.
    fn reception_ended(&mut self, now: Instant, rx: Rx) -> bool {
        if self.sending {
            return false; // never heard: no NAV either
        }
        if rx.collided || rx.error {
            if rx.collided {
                self.stats.collisions += 1;
            }
            self.set_nav(now, self.config.eifs());
            return false;
        }
        let frame = rx.frame;
        let to_me = frame.to == LinkAddress::Node(self.node);
        if !to_me {
            self.set_nav(now, frame.header.nav);
            if frame.to != LinkAddress::Broadcast {
                return false;
            }
        }
        match frame.header.kind {
            FrameKind::Rts => self.on_rts(now, &frame),
            FrameKind::Cts => self.on_cts(now),
            FrameKind::Ack => self.on_ack(now),
            FrameKind::Data => return self.on_data(now, &frame),
        }
        false
    }

    fn fire(&mut self, now: Instant, timer: Timer) {
        match timer {
            Timer::TxEnd => self.sending = false,
            Timer::Nav => {
                if self.is_idle(now) && self.backoff.busy && self.backoff.paused {
                    self.resume_backoff(now);
                }
            }
            Timer::RxEnd => {
                let rx = self.rx.expect("a reception in progress");
                let up = self.reception_ended(now, rx);
                self.finished.push(Reverse((now, rx.slot, up)));
                self.rx = None;
                self.freeze_or_resume_backoff(now);
            }
            Timer::Response => {
                match self.tx_state {
                    TxState::Rts => self.rts_timed_out(now),
                    TxState::Data => self.ack_timed_out(now),
                    TxState::Cts | TxState::Ack => self.ctrl = None,
                    TxState::Idle => {}
                }
                self.resume_tx(now);
            }
            Timer::Defer => {
                if !self.send_ctrl(now) && !self.send_rts(now) {
                    self.send_data(now);
                }
            }
            Timer::Backoff => {
                self.backoff = Backoff::default();
                if self.ctrl.is_none() && !self.send_rts(now) {
                    self.send_data(now);
                }
            }
        }
    }

    fn next_due(&self, now: Instant) -> Option<Timer> {
        TIMERS
            .into_iter()
            .filter_map(|t| self.timers[t as usize].filter(|(at, _)| *at <= now).map(|key| (key, t)))
            .min_by_key(|(key, _)| *key)
            .map(|(_, t)| t)
    }
}

impl Mac for Dcf {
    fn poll_transmit(&mut self, now: Instant, queue: &mut InterfaceQueue) -> Option<(Frame, Duration)> {
        if self.accepting {
            if let Some(queued) = queue.pop() {
                self.accepting = false;
                self.accept(now, queued);
            }
        }
        self.outbox.take()
    }

    fn on_frame(&mut self, now: Instant, slot: u32, frame: &Frame, duration: Duration, power_w: f64) {
        let error = self.sending || power_w < self.config.rx_threshold_w;
        let end = now + duration;
        let Some(current) = self.rx else {
            self.rx = Some(Rx { slot, frame: *frame, power_w, error, collided: false });
            self.start(Timer::RxEnd, end);
            self.freeze_or_resume_backoff(now);
            return;
        };
        if current.power_w / power_w >= self.config.capture_ratio {
            // The frame being received captures the radio; the newcomer
            // still stops carrier sense for its length and an EIFS.
            self.stats.captured += 1;
            self.set_nav(now, whole_us(self.config.eifs() + duration));
            self.finished.push(Reverse((end, slot, false)));
            return;
        }
        // A collision: whichever frame lasts longer is the one the radio
        // keeps receiving (spoilt), the other is lost now.
        self.stats.collisions += 1;
        let current_end = self.timers[Timer::RxEnd as usize].map_or(now, |(at, _)| at);
        if end > current_end {
            self.finished.push(Reverse((current_end, current.slot, false)));
            self.rx = Some(Rx { slot, frame: *frame, power_w, error, collided: true });
            self.start(Timer::RxEnd, end);
        } else {
            self.finished.push(Reverse((end, slot, false)));
            if let Some(rx) = &mut self.rx {
                rx.collided = true;
            }
        }
    }

    fn poll_received(&mut self, now: Instant) -> Option<(u32, bool)> {
        match self.finished.peek() {
            Some(Reverse((end, _, _))) if *end <= now => self.finished.pop().map(|Reverse((_, slot, up))| (slot, up)),
            _ => None,
        }
    }

    fn poll_done(&mut self) -> Option<(Queued, bool)> {
        self.done.pop_front()
    }

    fn on_timer(&mut self, now: Instant) {
        while let Some(timer) = self.next_due(now) {
            self.stop(timer);
            self.fire(now, timer);
        }
    }

    fn poll_at(&self) -> Option<Instant> {
        let timers = self.timers.iter().flatten().map(|(at, _)| *at);
        let finished = self.finished.peek().map(|Reverse((end, _, _))| *end);
        timers.chain(finished).min()
    }
}
