//! A TCP endpoint: the RFC 9293 state machine around a sender (send.rs)
//! and a receiver (recv.rs).
//!
//! Sans-I/O: the host hands in segments and timer expiries with the current
//! time, drains outgoing segments with `poll_transmit`, and asks `poll_at`
//! when to call `on_timer` next. The endpoint never reads a clock.
//!
//! Internally both directions count sequence space as 64-bit offsets from
//! the initial sequence number (the SYN is offset 0, the first data byte
//! offset 1), so nothing but the wire conversion deals with wrap-around.

use crate::cc::{Cc, CcContext, CongestionOps, CwndEvent, Window};
use crate::config::TcpConfig;
use crate::ecn::{EcnBackoff, EcnReceiver, LastCut};
use crate::flight::Flight;
use crate::ns2_sack1::Sack1State;
use crate::quiescence::Quiescence;
use crate::rack::Rack;
use crate::reassembly::Ranges;
use crate::recovery::Prr;
use crate::rtt::RttEstimator;
use crate::scoreboard::Scoreboard;
use crate::stats::TcpStats;
use crate::undo::Undo;
use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_wire::{Ecn, SeqNum, TcpFlags, TcpOptions, TcpRepr};

/// RFC 9293 §3.3.2 connection states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Closed,
    Listen,
    SynSent,
    SynReceived,
    Established,
    FinWait1,
    FinWait2,
    CloseWait,
    Closing,
    LastAck,
    TimeWait,
}

impl State {
    /// RFC 9293's name of the state, in lower case.
    pub fn name(self) -> &'static str {
        match self {
            State::Closed => "closed",
            State::Listen => "listen",
            State::SynSent => "syn-sent",
            State::SynReceived => "syn-received",
            State::Established => "established",
            State::FinWait1 => "fin-wait-1",
            State::FinWait2 => "fin-wait-2",
            State::CloseWait => "close-wait",
            State::Closing => "closing",
            State::LastAck => "last-ack",
            State::TimeWait => "time-wait",
        }
    }
}

/// How the receiving application consumes data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// Reads everything the moment it arrives.
    AtOnce,
    /// Reads at a fixed rate while data is waiting.
    Rate(Bandwidth),
    /// Reads nothing (a stalled application).
    Paused,
}

/// Offsets beyond any real transfer stand for "unlimited data".
const UNLIMITED_END: u64 = 1 << 62;
/// The endpoint's timers, for a host that schedules each apart (ns-2's
/// agents each have their own timer events).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    Retransmission,
    DelayedAck,
    /// The random delay before new data (`send_overhead`).
    SendDelay,
    Persist,
    TimeWait,
    /// A reading application opening the window.
    ReadWakeup,
}

impl Timer {
    pub const ALL: [Timer; 6] = [
        Timer::Retransmission,
        Timer::DelayedAck,
        Timer::SendDelay,
        Timer::Persist,
        Timer::TimeWait,
        Timer::ReadWakeup,
    ];
}

/// Default send MSS when the peer sends no MSS option (RFC 9293 §3.7.1).
const DEFAULT_MSS: u32 = 536;

/// Recovery phase of the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Open,
    /// Fast recovery until `recover` is acknowledged (Reno/NewReno).
    FastRecovery,
    /// After an RTO or a Tahoe fast retransmit, until `recover` is acknowledged.
    Loss,
}

pub struct Endpoint {
    pub(crate) cfg: TcpConfig,
    pub(crate) state: State,
    pub(crate) local_port: u16,
    pub(crate) remote_port: u16,
    pub(crate) stats: TcpStats,
    /// Set when the connection ended by a reset or by giving up.
    pub(crate) reset: bool,
    // --- send side: offsets from `iss` ---
    pub(crate) iss: SeqNum,
    pub(crate) snd_una: u64,
    pub(crate) snd_nxt: u64,
    /// One past the highest offset ever sent.
    pub(crate) snd_max: u64,
    /// Peer's window in bytes and the offsets of the segment that set it.
    pub(crate) snd_wnd: u64,
    pub(crate) snd_wl1: u64,
    pub(crate) snd_wl2: u64,
    pub(crate) max_snd_wnd: u64,
    pub(crate) send_mss: u32,
    /// One past the last data byte the application has written (data
    /// occupies offsets 1..data_end); far beyond any transfer when unlimited.
    pub(crate) data_end: u64,
    pub(crate) unlimited: bool,
    pub(crate) close_requested: bool,
    /// cwnd, ssthresh and the pacing rate: the congestion-control
    /// algorithm's to set.
    pub(crate) win: Window,
    pub(crate) cc: Cc,
    /// Whether `cc` detects losses itself (asked once: no per-ACK dispatch
    /// for the algorithms that do not).
    pub(crate) cc_detects_loss: bool,
    /// Whether `cc` runs ns-2's Sack1 sender (ns2_sack1.rs), asked once.
    pub(crate) ns2_sack1: bool,
    pub(crate) phase: Phase,
    /// RFC 5681 §3.2's inflated window, in force during fast recovery
    /// without SACK: cwnd plus a segment per duplicate ACK, deflated by
    /// partial ACKs (RFC 6582).
    pub(crate) inflated_cwnd: u32,
    /// A partial ACK came in this recovery (RFC 6582's Impatient variant).
    pub(crate) partial_acked: bool,
    /// A record per segment in flight (flight.rs).
    pub(crate) flight: Flight,
    /// Whether the window limited sending in the current round (RFC 7661),
    /// the largest flight in it, and the offset that ends the round (Linux
    /// `is_cwnd_limited`, `max_packets_out`, `cwnd_usage_seq`).
    pub(crate) cwnd_limited: bool,
    pub(crate) max_flight: u64,
    pub(crate) cwnd_round_end: u64,
    /// Data went out since the last end of a burst.
    pub(crate) burst_sent: bool,
    /// ECN: agreed in the handshake; the receiver's echo; the end of the
    /// sender's CWR state, whether the next new segment carries CWR, and
    /// whether the segment being built carries ECT(0).
    pub(crate) ecn_ok: bool,
    pub(crate) ecn_rx: EcnReceiver,
    pub(crate) cwr_end: Option<u64>,
    pub(crate) send_cwr: bool,
    pub(crate) ect_out: bool,
    /// ns-2's `last_cwnd_action_` and `ecn_backoff_` (`ns2_ecn`).
    pub(crate) last_cut: LastCut,
    pub(crate) ecn_backoff: EcnBackoff,
    /// RACK-TLP's state, PRR's counts, and whether a tail loss probe is due.
    pub(crate) rack: Rack,
    pub(crate) prr: Prr,
    pub(crate) tlp_due: bool,
    /// What the current loss episode may undo if it proves spurious (undo.rs).
    pub(crate) undo: Undo,
    /// Pacing: the earliest time the next segment may leave, and whether a
    /// segment is waiting for it.
    pub(crate) pacing_deadline: Instant,
    pub(crate) paced_wait: bool,
    /// RFC 6582 `recover`: snd_max when the current recovery began.
    pub(crate) recover: u64,
    /// Guarded duplicate ACKs start no fast retransmit up to this offset:
    /// ns-2's `recover_` starting at packet 0 (see `first_fast_retransmit`).
    pub(crate) first_packet_end: u64,
    /// Whether a timeout, not a fast retransmit, set `recover` last (ns-2's
    /// FullTcp guards against a second fast retransmit only then).
    pub(crate) recover_by_rto: bool,
    pub(crate) dupacks: u32,
    /// A segment to retransmit at this offset on the next poll.
    pub(crate) retransmit_at: Option<u64>,
    /// The one segment being timed for an RTT sample: (end offset, sent at).
    pub(crate) rtt_probe: Option<(u64, Instant)>,
    pub(crate) rtt: RttEstimator,
    pub(crate) rto_deadline: Option<Instant>,
    /// Consecutive timeouts of the same data.
    pub(crate) rto_count: u32,
    /// ns-2 `overhead_`: whether the host is to draw a send delay, when
    /// the delayed send is due, and whether it is due now (until the window
    /// is used up).
    pub(crate) send_delay_wanted: bool,
    /// An early duplicate ACK lets one new segment out at once, past any
    /// send delay (ns-2's send_one for singledup_).
    pub(crate) limited_transmit_due: bool,
    pub(crate) overhead_deadline: Option<Instant>,
    pub(crate) overhead_released: bool,
    /// Whether `send_overhead` or `max_burst` gate sending; under
    /// `max_burst` the segments sent for the current event, the event they
    /// were counted for, and the timer expiries and writes, which with the
    /// segments received number the events (nothing to count on the hot path).
    pub(crate) send_gated: bool,
    /// ns-2's `QOption_` bookkeeping, when on (gated with the sends above).
    pub(crate) quiescence: Option<Box<Quiescence>>,
    pub(crate) burst: u32,
    pub(crate) burst_event: u64,
    pub(crate) wakes: u64,
    pub(crate) persist_deadline: Option<Instant>,
    pub(crate) persist_backoff: u32,
    pub(crate) probe_due: bool,
    /// One past the byte the last window probe carried; an ACK may cover it.
    pub(crate) probe_high: u64,
    pub(crate) syn_sent_at: Option<Instant>,
    /// When data last went out (ns-2's FullTcp's `last_send_time_`).
    pub(crate) last_data_sent: Option<Instant>,
    // --- receive side: offsets from the peer's ISN ---
    pub(crate) irs: SeqNum,
    pub(crate) rcv_nxt: u64,
    /// Right edge of the window we last advertised.
    pub(crate) rcv_adv: u64,
    pub(crate) ooo: Ranges,
    pub(crate) fin_offset: Option<u64>,
    /// In-order bytes not yet read by the application.
    pub(crate) unread: u64,
    pub(crate) read_total: u64,
    pub(crate) reader: Reader,
    /// When the reader last started reading at its rate, and `read_total` then.
    pub(crate) read_origin: (Instant, u64),
    pub(crate) ack_now: bool,
    /// An ACK that goes out alone before anything else: (the offset it
    /// acknowledges, its ECE). DCTCP's echo acknowledges the data before a
    /// change of CE state with the old state (ecn.rs); ns-2's FullTcp
    /// acknowledges the SYN-ACK and a FIN so (`TcpConfig::ns2_full_tcp`).
    pub(crate) lone_ack: Option<(u64, bool)>,
    pub(crate) unacked_bytes: u64,
    /// Quick ACKs left (`TcpConfig::quickacks`).
    pub(crate) quickacks: u32,
    pub(crate) delack_deadline: Option<Instant>,
    pub(crate) time_wait_deadline: Option<Instant>,
    // --- options agreed in the handshake ---
    pub(crate) sack_ok: bool,
    pub(crate) ts_ok: bool,
    pub(crate) ws_ok: bool,
    /// Shift applied to windows the peer sends us, and to those we send.
    pub(crate) snd_wscale: u8,
    pub(crate) rcv_wscale: u8,
    /// RFC 7323 TS.Recent and the ACK offset we last sent (Last.ACK.sent).
    pub(crate) ts_recent: Option<u32>,
    pub(crate) last_ack_sent: u64,
    /// Sender: what the peer has SACKed.
    pub(crate) scoreboard: Scoreboard,
    /// ns-2's Sack1 sender's own scoreboard and pipe (ns2_sack1.rs).
    pub(crate) sack1: Sack1State,
    /// Receiver: offsets inside recently received out-of-order blocks,
    /// most recent first, and a pending D-SACK block.
    pub(crate) sack_recent: Vec<u64>,
    pub(crate) dsack_pending: Option<(u64, u64)>,
    /// ns-2's Sacker: the start of the latest data segment and whether it
    /// was a duplicate, and the blocks reported before, newest first.
    pub(crate) latest_data: Option<(u64, bool)>,
    pub(crate) ns2_sack_stack: Vec<(u64, u64)>,
}

impl Endpoint {
    /// A closed endpoint; `iss` is used unless the config pins one.
    pub fn new(mut cfg: TcpConfig, local_port: u16, remote_port: u16, iss: u32) -> Self {
        // ns-2's FullTcp restarts the timer as timerfix_ false does.
        cfg.restart_rto_before_sample |= cfg.ns2_full_tcp;
        let iss = SeqNum(cfg.iss.unwrap_or(iss));
        let mut rtt = RttEstimator::new(cfg.initial_rto, cfg.min_rto, cfg.max_rto, cfg.clock_granularity);
        rtt.set_min_before_backoff(cfg.min_rto_before_backoff);
        let ctx = CcContext {
            abc: cfg.abc,
            initial_window: cfg.initial_window,
            max_window: cfg.max_window,
            seed: u64::from(iss.0),
        };
        let cc = cfg.cc.build(&ctx, &cfg.cc_params);
        let flight = match cfg.sack || cfg.rack || cfg.frto || cfg.undo || cfg.ecn || cc.reads_deliveries() {
            true => Flight::default(),
            false => Flight::without_records(),
        };
        let send_mss = cfg.mss;
        if cfg.ns2_clock {
            rtt.use_ns2_clock(cfg.clock_phase.unwrap_or(Duration::ZERO));
        }
        Endpoint {
            state: State::Closed,
            local_port,
            remote_port,
            stats: TcpStats::default(),
            reset: false,
            iss,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            snd_wnd: 0,
            snd_wl1: 0,
            snd_wl2: 0,
            max_snd_wnd: 0,
            send_mss,
            data_end: 1,
            unlimited: false,
            close_requested: false,
            win: Window {
                cwnd: cfg.initial_window * send_mss,
                ssthresh: cfg.initial_ssthresh.unwrap_or(u32::MAX / 2),
                pacing_rate: None,
            },
            cc_detects_loss: cc.detects_loss(),
            ns2_sack1: cc.recovery_rules().ns2_sack1,
            cc,
            phase: Phase::Open,
            inflated_cwnd: 0,
            partial_acked: false,
            flight,
            cwnd_limited: false,
            max_flight: 0,
            cwnd_round_end: 0,
            burst_sent: false,
            ecn_ok: false,
            ecn_rx: EcnReceiver::default(),
            cwr_end: None,
            send_cwr: false,
            ect_out: false,
            last_cut: LastCut::None,
            ecn_backoff: EcnBackoff::default(),
            rack: Rack::default(),
            prr: Prr::default(),
            tlp_due: false,
            undo: Undo::default(),
            pacing_deadline: Instant::ZERO,
            paced_wait: false,
            recover: 0,
            first_packet_end: 0,
            recover_by_rto: false,
            dupacks: 0,
            retransmit_at: None,
            rtt_probe: None,
            rtt,
            rto_deadline: None,
            rto_count: 0,
            send_delay_wanted: false,
            limited_transmit_due: false,
            overhead_deadline: None,
            overhead_released: false,
            send_gated: cfg.send_overhead > Duration::ZERO || cfg.max_burst.is_some() || cfg.ns2_qoption,
            quiescence: cfg.ns2_qoption.then(|| Box::new(Quiescence::new(cfg.ns2_rtt_counter))),
            burst: 0,
            burst_event: 0,
            wakes: 0,
            persist_deadline: None,
            persist_backoff: 0,
            probe_due: false,
            probe_high: 0,
            syn_sent_at: None,
            last_data_sent: None,
            irs: SeqNum(0),
            rcv_nxt: 0,
            rcv_adv: 0,
            ooo: Ranges::default(),
            fin_offset: None,
            unread: 0,
            read_total: 0,
            reader: Reader::AtOnce,
            read_origin: (Instant::ZERO, 0),
            ack_now: false,
            lone_ack: None,
            unacked_bytes: 0,
            quickacks: cfg.quickacks,
            delack_deadline: None,
            time_wait_deadline: None,
            sack_ok: false,
            ts_ok: false,
            ws_ok: false,
            snd_wscale: 0,
            rcv_wscale: 0,
            ts_recent: None,
            last_ack_sent: 0,
            scoreboard: Scoreboard::default(),
            sack1: Sack1State::default(),
            sack_recent: Vec::new(),
            dsack_pending: None,
            latest_data: None,
            ns2_sack_stack: Vec::new(),
            cfg,
        }
    }

    // --- application interface ---

    /// Active open: a SYN goes out on the next poll.
    pub fn connect(&mut self) {
        if self.state == State::Closed {
            self.state = State::SynSent;
        }
    }

    /// Opens without a SYN exchange (`TcpConfig::handshake` false), as if
    /// the peer, whose initial sequence number is `peer_iss`, had sent a
    /// SYN like ours and each had acknowledged the other's: the first data
    /// byte is offset 1, as after a handshake.
    pub fn open_established(&mut self, now: Instant, peer_iss: u32) {
        let mut syn = TcpRepr { seq: SeqNum(peer_iss), options: self.syn_options(now), ..TcpRepr::default() };
        syn.flags.syn = true;
        syn.window = self.cfg.receive_buffer.min(u32::from(u16::MAX)) as u16;
        self.accept_syn(now, &syn);
        self.snd_una = 1;
        self.snd_nxt = 1;
        self.snd_max = 1;
        self.state = State::Established;
        // RFC 6582's `recover` starts at the first offset: duplicate ACKs
        // of nothing start no fast retransmit (nor, in ns-2 without
        // `bugfix_ss_`, those of packet 0 alone).
        let first = if self.cfg.first_fast_retransmit { 0 } else { u64::from(self.send_mss) };
        self.first_packet_end = 1 + first;
    }

    /// Passive open.
    pub fn listen(&mut self) {
        if self.state == State::Closed {
            self.state = State::Listen;
        }
    }

    /// Queues `bytes` more bytes of (virtual) application data.
    pub fn write(&mut self, bytes: u64) {
        self.wakes += 1;
        if !self.close_requested && !self.unlimited {
            self.data_end += bytes;
        }
    }

    /// An application that always has data to send (ns-2's FTP).
    pub fn write_unlimited(&mut self) {
        self.wakes += 1;
        self.unlimited = true;
        self.data_end = UNLIMITED_END;
    }

    /// The application stops writing (ns-2's `$ftp stop`): what is sent
    /// still gets delivered, nothing new is queued and no FIN is sent.
    pub fn stop_writing(&mut self) {
        if self.unlimited {
            self.unlimited = false;
            self.data_end = self.snd_max.max(1);
        }
    }

    /// The application is done sending: a FIN follows the data. Before the
    /// connection is established the close is queued, as RFC 9293 §3.10.4
    /// does in SYN-RECEIVED, so "connect, write, close" sends everything.
    pub fn close(&mut self) {
        if !self.close_requested && !self.unlimited {
            self.close_requested = true;
            if self.state == State::Listen {
                self.state = State::Closed;
            }
        }
    }

    /// Changes how the application reads received data.
    pub fn set_reader(&mut self, now: Instant, reader: Reader) {
        self.drain(now);
        self.reader = reader;
        self.read_origin = (now, self.read_total);
        self.maybe_window_update(now);
    }

    // --- observation ---

    pub fn state(&self) -> State {
        self.state
    }
    /// Whether new data waits for a random delay (`send_overhead`) that the
    /// host has not drawn yet: the host draws one in [0, send_overhead) and
    /// hands it to `delay_sending`. The endpoint draws nothing itself, so
    /// the host decides which generator every draw comes from, and in what
    /// order (ns-2's agents share one).
    pub fn wants_send_delay(&self) -> bool {
        self.send_delay_wanted
    }

    /// New data goes out `delay` from now (see `wants_send_delay`).
    pub fn delay_sending(&mut self, now: Instant, delay: Duration) {
        self.send_delay_wanted = false;
        self.overhead_deadline = Some(now + delay);
    }
    pub fn config(&self) -> &TcpConfig {
        &self.cfg
    }
    pub fn stats(&self) -> &TcpStats {
        &self.stats
    }
    pub fn cc_name(&self) -> &'static str {
        self.cc.name()
    }
    /// The window the sender uses: cwnd, or during fast recovery without
    /// SACK the window inflated by duplicate ACKs.
    pub fn cwnd(&self) -> u32 {
        if self.inflating() {
            self.inflated_cwnd
        } else {
            self.win.cwnd
        }
    }
    /// cwnd in segments without fast recovery's inflation, as ns-2's cwnd_
    /// shows it (ns-2 keeps the inflation in a separate dupwnd_).
    pub fn cwnd_packets(&self) -> f64 {
        self.cc.cwnd_segments(&self.win, self.send_mss)
    }
    pub fn ssthresh(&self) -> u32 {
        self.win.ssthresh
    }
    pub fn pacing_rate(&self) -> Option<Bandwidth> {
        self.win.pacing_rate
    }
    /// The smallest RTT measured from the per-segment send records.
    pub fn min_rtt(&self) -> Option<Duration> {
        self.flight.min_rtt()
    }
    pub fn mss(&self) -> u32 {
        self.send_mss
    }
    pub fn srtt(&self) -> Option<Duration> {
        self.rtt.srtt()
    }
    pub fn rto(&self) -> Duration {
        self.rtt.rto()
    }
    /// The round-trip estimator (ns-2's fixed-point state, the backoff).
    pub fn rtt_estimator(&self) -> &RttEstimator {
        &self.rtt
    }
    pub fn local_port(&self) -> u16 {
        self.local_port
    }
    /// Our initial sequence number.
    pub fn iss(&self) -> u32 {
        self.iss.0
    }
    /// Send-side offsets (the SYN is 0): first unacknowledged, and one past
    /// the highest sent.
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }
    pub fn snd_max(&self) -> u64 {
        self.snd_max
    }
    /// The offset of the next byte to send (behind `snd_max` after going back).
    pub fn snd_nxt(&self) -> u64 {
        self.snd_nxt
    }
    pub fn bytes_in_flight(&self) -> u64 {
        self.snd_max - self.snd_una
    }
    /// Data bytes acknowledged by the peer.
    pub fn bytes_acked(&self) -> u64 {
        self.snd_una.min(self.data_end).saturating_sub(1)
    }
    /// In-order data bytes received (available to or read by the application).
    pub fn bytes_received(&self) -> u64 {
        self.unread + self.read_total
    }
    /// The window we would advertise now, in bytes.
    pub fn receive_window(&self) -> u64 {
        self.rcv_adv.saturating_sub(self.rcv_nxt)
    }
    /// Whether ns-2's FullTcp would send `seg`, just sent, with PSH where
    /// this TCP does not: on a SYN, and on a pure ACK once everything the
    /// application wrote is sent.
    pub fn ns2_push(&self, seg: &TcpRepr) -> bool {
        !seg.flags.psh && (seg.flags.syn || (seg.payload_len == 0 && !self.unlimited && self.snd_nxt >= self.data_end))
    }

    pub fn was_reset(&self) -> bool {
        self.reset
    }

    /// The earliest time `on_timer` must be called.
    #[inline]
    pub fn poll_at(&self) -> Option<Instant> {
        // Called after every segment: a plain chain of minima over times in
        // picoseconds, "never" being the largest, which compiles without
        // branches, rather than an iterator over options.
        let ps = |t: Option<Instant>| t.map_or(u64::MAX, Instant::as_ps);
        let paced = if self.paced_wait { self.pacing_deadline.as_ps() } else { u64::MAX };
        let first = ps(self.rto_deadline)
            .min(ps(self.persist_deadline))
            .min(ps(self.delack_deadline))
            .min(ps(self.time_wait_deadline))
            .min(ps(self.overhead_deadline))
            .min(ps(self.rack.timer))
            .min(ps(self.rack.pto))
            .min(paced)
            .min(ps(self.read_wakeup()));
        (first != u64::MAX).then(|| Instant::from_ps(first))
    }

    /// When each timer is due, if it is running, in `Timer::ALL`'s order;
    /// `poll_at` is the earliest.
    pub fn deadlines(&self) -> [Option<Instant>; Timer::ALL.len()] {
        [
            self.rto_deadline,
            self.delack_deadline,
            self.overhead_deadline,
            self.persist_deadline,
            self.time_wait_deadline,
            self.read_wakeup(),
        ]
    }

    /// Handles every timer due at `now`.
    pub fn on_timer(&mut self, now: Instant) {
        self.wakes += 1;
        if self.time_wait_deadline.is_some_and(|t| t <= now) {
            self.time_wait_deadline = None;
            self.enter_closed();
            return;
        }
        if self.delack_deadline.is_some_and(|t| t <= now) {
            self.delack_deadline = None;
            self.ack_now = true;
        }
        if self.rack.pto.is_some_and(|t| t <= now) {
            self.on_pto(now);
        }
        if self.rto_deadline.is_some_and(|t| t <= now) {
            self.rto_deadline = None;
            self.on_retransmission_timeout(now);
        }
        if self.rack.timer.is_some_and(|t| t <= now) {
            self.rack.timer = None;
            self.on_rack_timer(now);
        }
        if self.overhead_deadline.is_some_and(|t| t <= now) {
            self.overhead_deadline = None;
            self.overhead_released = true;
        }
        if self.paced_wait && self.pacing_deadline <= now {
            self.paced_wait = false;
        }
        if self.persist_deadline.is_some_and(|t| t <= now) {
            self.persist_deadline = None;
            self.probe_due = true;
            self.persist_backoff += 1;
        }
        self.maybe_window_update(now);
    }

    // --- segment arrival (RFC 9293 §3.10.7) ---

    /// A segment arrived in an IP packet with the `ecn` codepoint.
    pub fn on_segment(&mut self, now: Instant, seg: &TcpRepr, ecn: Ecn) {
        self.stats.segments_received += 1;
        match self.state {
            State::Closed => {}
            State::Listen => self.on_segment_listen(now, seg),
            State::SynSent => self.on_segment_syn_sent(now, seg),
            _ => self.on_segment_synchronized(now, seg, ecn),
        }
    }

    fn on_segment_listen(&mut self, now: Instant, seg: &TcpRepr) {
        if seg.flags.rst || seg.flags.ack || !seg.flags.syn {
            return; // an ACK to a listener is answered with RST by the host
        }
        self.accept_syn(now, seg);
        self.state = State::SynReceived;
    }

    fn on_segment_syn_sent(&mut self, now: Instant, seg: &TcpRepr) {
        let ack_ok = seg.flags.ack && seg.ack == self.iss + 1;
        if seg.flags.ack && !ack_ok {
            return;
        }
        if seg.flags.rst {
            if ack_ok {
                self.reset = true;
                self.enter_closed();
            }
            return;
        }
        if !seg.flags.syn {
            return;
        }
        self.accept_syn(now, seg);
        if ack_ok {
            self.update_window(seg, 0, 1);
            if seg.flags.ece {
                self.ns2_packet0_echo(now);
            }
            self.handshake_acked(now);
            self.state = State::Established;
            if self.cfg.ns2_full_tcp {
                // ns-2's FullTcp: a pure ACK, then the data.
                self.acknowledge_alone();
            } else {
                // The ACK rides on the first data; alone unless a send delay
                // (ns-2's overhead_, whose agents send no ACKs) holds data back.
                self.ack_now = self.cfg.send_overhead == Duration::ZERO || self.data_end <= 1;
            }
        } else {
            // Simultaneous open: resend our SYN as a SYN-ACK.
            self.state = State::SynReceived;
            self.snd_nxt = 0;
        }
    }

    fn on_segment_synchronized(&mut self, now: Instant, seg: &TcpRepr, ecn: Ecn) {
        let seq = self.rcv_offset(seg.seq);
        if !self.acceptable(seq, seg.seq_len()) || self.paws_rejects(seg) {
            if seg.flags.rst {
                return;
            }
            let pure_ack = seg.payload_len == 0 && !seg.flags.fin;
            if seg.payload_len > 0 && seq + u64::from(seg.payload_len) <= self.rcv_nxt {
                if self.cfg.ns2_ecn {
                    // ns-2's sink reads the flags of every packet it answers.
                    self.on_data_ecn(now, seg, ecn);
                }
                self.acknowledge_duplicate(now, seq, seg.payload_len);
            } else if !(self.cfg.ns2_full_tcp && pure_ack) {
                self.ack_now = true;
            }
            if self.cfg.ns2_full_tcp && seg.flags.ack && !seg.flags.syn {
                self.take_old_ack(now, seg, seq);
            }
            return;
        }
        self.note_timestamp(seg, seq);
        if seg.flags.rst {
            self.reset = true;
            self.enter_closed();
            return;
        }
        if seg.flags.syn {
            // RFC 5961 §4.2: answer an in-window SYN with a challenge ACK.
            self.ack_now = true;
            return;
        }
        if !seg.flags.ack {
            return;
        }
        let ack = self.snd_offset(seg.ack);
        if self.state == State::SynReceived {
            if ack <= self.snd_una || ack > self.snd_max {
                return;
            }
            self.update_window(seg, seq, ack);
            self.handshake_acked(now);
            self.state = State::Established;
        }
        if ack > self.snd_max.max(self.probe_high) {
            self.ack_now = true; // RFC 9293: ACK of unsent data
            return;
        }
        self.process_ack(now, seg, seq, ack);
        self.after_ack_state_change(now);
        if matches!(self.state, State::Established | State::FinWait1 | State::FinWait2) {
            if seg.payload_len > 0 {
                self.on_data_ecn(now, seg, ecn);
            }
            self.process_payload(now, seq, seg.payload_len);
        } else if seg.payload_len > 0 {
            self.ack_now = true;
        }
        if seg.flags.fin {
            self.note_fin(seq + u64::from(seg.payload_len));
        }
        self.deliver_fin(now);
    }

    /// ns-2's FullTcp keeps no receive window: the ACK of an old segment
    /// (a pure ACK overtaken by data, or a copy of data) still counts, and
    /// an old pure ACK is not answered.
    fn take_old_ack(&mut self, now: Instant, seg: &TcpRepr, seq: u64) {
        let ack = self.snd_offset(seg.ack);
        if self.state == State::SynReceived || ack > self.snd_max.max(self.probe_high) {
            return;
        }
        self.process_ack(now, seg, seq, ack);
        self.after_ack_state_change(now);
    }

    /// Records the peer's SYN: its ISN, MSS and window.
    fn accept_syn(&mut self, now: Instant, seg: &TcpRepr) {
        self.negotiate(seg);
        self.irs = seg.seq;
        self.rcv_nxt = 1;
        self.rcv_adv = 1 + self.free_buffer();
        self.send_mss = match seg.options.mss {
            Some(m) if self.cfg.mss_option => self.cfg.mss.min(u32::from(m)),
            None if self.cfg.mss_option => self.cfg.mss.min(DEFAULT_MSS),
            _ => self.cfg.mss,
        };
        // Before any data only the SYN can have been retransmitted.
        let window = match self.cfg.syn_loss_window {
            Some(w) if self.stats.retransmits > 0 => w,
            _ => self.cfg.initial_window,
        };
        self.win.cwnd = window * self.send_mss;
        let c = self.conn(now);
        self.cc.cwnd_event(&mut self.win, &c, CwndEvent::Init);
        self.snd_wnd = u64::from(seg.window);
        self.max_snd_wnd = self.snd_wnd;
    }

    /// Our SYN was acknowledged: data may flow.
    fn handshake_acked(&mut self, now: Instant) {
        self.snd_una = 1;
        self.snd_nxt = self.snd_nxt.max(1);
        if !self.cfg.first_fast_retransmit {
            self.first_packet_end = 1;
        }
        self.rto_deadline = None;
        self.rto_count = 0;
        if let Some(sent) = self.syn_sent_at.take() {
            self.take_rtt_sample(now, now - sent);
        }
    }

    /// State changes caused by our FIN being acknowledged.
    fn after_ack_state_change(&mut self, now: Instant) {
        let fin_acked = self.close_requested && self.snd_una > self.data_end;
        match self.state {
            State::FinWait1 if fin_acked => self.state = State::FinWait2,
            State::Closing if fin_acked => self.enter_time_wait(now),
            State::LastAck if fin_acked => self.enter_closed(),
            _ => {}
        }
    }

    fn note_fin(&mut self, offset: u64) {
        if self.fin_offset.is_none() {
            self.fin_offset = Some(offset);
        }
    }

    /// Consumes the peer's FIN once all data before it has arrived.
    fn deliver_fin(&mut self, now: Instant) {
        let Some(fin) = self.fin_offset else { return };
        if self.rcv_nxt != fin {
            if self.rcv_nxt > fin && self.state == State::TimeWait {
                // A retransmitted FIN: our ACK was lost (RFC 9293 §3.10.7.4).
                self.ack_now = true;
                self.enter_time_wait(now);
            }
            return;
        }
        self.rcv_nxt += 1;
        if self.cfg.ns2_full_tcp {
            self.acknowledge_alone(); // before our own FIN, as ns-2's FullTcp
        } else {
            self.ack_now = true;
        }
        match self.state {
            State::SynReceived | State::Established => self.state = State::CloseWait,
            State::FinWait1 => self.state = State::Closing,
            State::FinWait2 => self.enter_time_wait(now),
            _ => {}
        }
    }

    fn enter_time_wait(&mut self, now: Instant) {
        self.state = State::TimeWait;
        self.rto_deadline = None;
        self.persist_deadline = None;
        self.time_wait_deadline = Some(now + self.cfg.time_wait);
    }

    pub(crate) fn enter_closed(&mut self) {
        self.state = State::Closed;
        self.rto_deadline = None;
        self.persist_deadline = None;
        self.delack_deadline = None;
        self.time_wait_deadline = None;
        self.retransmit_at = None;
        self.probe_due = false;
    }

    // --- wire conversion ---

    pub(crate) fn snd_offset(&self, s: SeqNum) -> u64 {
        (self.snd_una as i64 + i64::from(s.diff(self.iss + self.snd_una as u32))).max(0) as u64
    }

    pub(crate) fn rcv_offset(&self, s: SeqNum) -> u64 {
        (self.rcv_nxt as i64 + i64::from(s.diff(self.irs + self.rcv_nxt as u32))).max(0) as u64
    }

    /// Writes into `seg` a segment template carrying our current ACK and window.
    pub(crate) fn header(&mut self, now: Instant, offset: u64, seg: &mut TcpRepr) {
        let synchronized = !matches!(self.state, State::SynSent | State::Closed | State::Listen);
        *seg = TcpRepr {
            src_port: self.local_port,
            dst_port: self.remote_port,
            seq: self.iss + offset as u32,
            ack: if synchronized { self.irs + self.rcv_nxt as u32 } else { SeqNum(0) },
            flags: TcpFlags {
                ack: synchronized,
                ece: synchronized && self.ecn_ok && self.ecn_rx.echo,
                ..TcpFlags::default()
            },
            window: self.advertise(now),
            options: TcpOptions::default(),
            payload_len: 0,
        };
        if synchronized {
            self.segment_options(now, &mut seg.options);
        }
        self.ack_now = false;
        self.unacked_bytes = 0;
        self.delack_deadline = None;
        self.last_ack_sent = self.rcv_nxt;
    }

    /// What has arrived is acknowledged at once in a segment of its own.
    fn acknowledge_alone(&mut self) {
        self.lone_ack = Some((self.rcv_nxt, self.ecn_ok && self.ecn_rx.echo));
        self.ack_now = false;
    }

    /// The ACK due alone (`lone_ack`), if any; what arrived after the
    /// offset it acknowledges stays to be acknowledged.
    fn lone_ack_segment(&mut self, now: Instant, seg: &mut TcpRepr) -> bool {
        let Some((ack, ece)) = self.lone_ack.take() else { return false };
        let (delack, ack_now) = (self.delack_deadline, self.ack_now);
        self.header(now, self.snd_nxt, seg);
        seg.ack = self.irs + ack as u32;
        seg.flags.ece = ece;
        self.last_ack_sent = ack;
        self.unacked_bytes = self.rcv_nxt - ack;
        (self.delack_deadline, self.ack_now) = (delack, ack_now);
        true
    }

    /// Writes the next segment to send, if any, into `seg`, and returns the
    /// ECN codepoint of its IP packet. (Written in place, the segment, some
    /// 90 bytes, is not copied from one return value into the next: those
    /// copies were a tenth of a TCP simulation's time.)
    pub fn poll_transmit(&mut self, now: Instant, seg: &mut TcpRepr) -> Option<Ecn> {
        let built = match self.state {
            State::Closed | State::Listen => false,
            // The send delay holds the SYN too: ns-2's agents send it as their seqno 0.
            State::SynSent | State::SynReceived if self.snd_nxt == 0 => {
                let allowed = self.overhead_allows();
                if allowed {
                    if self.quiescence.is_some() {
                        self.quiescence_after_send(now, 1);
                    }
                    self.syn_segment(now, seg);
                }
                allowed
            }
            State::SynSent => false,
            _ => self.lone_ack_segment(now, seg) || self.data_segment(now, seg) || self.probe_segment(now, seg),
        };
        if !built {
            // The delayed burst, or the dupack's one segment, is over.
            self.overhead_released = false;
            self.limited_transmit_due = false;
            if !self.ack_now {
                return None;
            }
            self.header(now, self.snd_nxt, seg);
        }
        self.stats.segments_sent += 1;
        self.stats.bytes_sent += u64::from(seg.payload_len);
        // RFC 3168 §6.1.4, §6.1.5: only new data is ECN-capable.
        Some(if std::mem::take(&mut self.ect_out) { Ecn::Ect0 } else { Ecn::NotEct })
    }

    fn syn_segment(&mut self, now: Instant, seg: &mut TcpRepr) {
        self.header(now, 0, seg);
        seg.flags.syn = true;
        self.syn_ecn_flags(&mut seg.flags);
        // ns-2's packet 0, resent after a timeout, says the window was cut.
        seg.flags.cwr |= self.cfg.ns2_ecn && std::mem::take(&mut self.send_cwr);
        seg.options = self.syn_options(now);
        // RFC 7323 §2.2: the window in a SYN is never scaled.
        seg.window = self.cfg.receive_buffer.min(u32::from(u16::MAX)) as u16;
        if self.snd_max > 0 {
            self.stats.retransmits += 1;
            self.syn_sent_at = None; // Karn: no sample from a retransmitted SYN
        } else {
            self.syn_sent_at = Some(now);
        }
        self.snd_nxt = 1;
        self.snd_max = 1;
        self.rto_deadline.get_or_insert(now + self.rtt.rto());
    }

    /// A wire-ready RST answering `seg`, sent by a host with no matching
    /// endpoint (RFC 9293 §3.10.7.1); `None` for a segment that is itself a RST.
    pub fn reset_for(seg: &TcpRepr) -> Option<TcpRepr> {
        if seg.flags.rst {
            return None;
        }
        let mut rst = TcpRepr { src_port: seg.dst_port, dst_port: seg.src_port, ..TcpRepr::default() };
        rst.flags.rst = true;
        if seg.flags.ack {
            rst.seq = seg.ack;
        } else {
            rst.ack = seg.seq + seg.seq_len();
            rst.flags.ack = true;
        }
        Some(rst)
    }
}
