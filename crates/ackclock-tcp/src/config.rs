//! Every knob a TCP study varies, with defaults and named profiles.

use crate::cc::{CcKind, CcParams};
use ackclock_core::Duration;

/// How the receiver acknowledges in-order data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckPolicy {
    /// An ACK for every segment (ns-2's TCPSink).
    EverySegment,
    /// RFC 1122 / RFC 5681 §4.2 delayed ACK: at least every second
    /// full-sized segment, and within `timeout` of an unacknowledged one.
    /// With `delay_repeat` a copy of the latest in-order segment, when no
    /// ACK is waiting, is acknowledged as late as new data rather than at
    /// once (ns-2's `Agent/TCPSink/DelAck`, which takes a segment equal to
    /// its cumulative ACK for an in-order one).
    Delayed { timeout: Duration, delay_repeat: bool },
    /// ns-2's FullTcp (`segsperack_`, `interval_`): at once when `segments`
    /// full segments are unacknowledged, else at the next tick of a clock
    /// that ticks at the multiples of `tick` (its periodic delayed-ACK timer).
    Ns2Clock { tick: Duration, segments: u32 },
}

#[derive(Clone, Debug, PartialEq)]
pub struct TcpConfig {
    /// Sender maximum segment size (payload bytes) and the MSS we offer.
    pub mss: u32,
    /// Send and honour the MSS option. Without it both ends use `mss`
    /// (ns-2's world, where there are no options).
    pub mss_option: bool,
    /// Initial window in segments (RFC 5681: 1 to 4; RFC 6928: 10).
    pub initial_window: u32,
    /// The initial window, in segments, when the SYN or SYN-ACK had to be
    /// retransmitted; `None`: `initial_window`. RFC 5681 §3.1 and ns-2's
    /// `bugfix_ss_` make it one segment.
    pub syn_loss_window: Option<u32>,
    /// Open with a SYN exchange. `false`: both ends start established and
    /// the first data segment leaves at once (ns-2's one-way agents with
    /// `syn_` false, whose packet 0 is data).
    pub handshake: bool,
    /// Duplicate ACKs that acknowledge only ns-2's packet 0 (the SYN, or
    /// without one the first segment) may start a fast retransmit (ns-2's
    /// `bugfix_ss_`). `false`: under `recover`'s guard they start none, as
    /// ns-2's `recover_` starts at packet 0.
    pub first_fast_retransmit: bool,
    /// Without a SYN, ns-2 adds its 40 header bytes (`useHeaders_`) to every
    /// data packet but packet 0, which is its payload alone on the wire.
    pub ns2_bare_packet0: bool,
    /// Initial ssthresh in bytes; `None` = as large as possible (RFC 5681).
    pub initial_ssthresh: Option<u32>,
    /// A cap on the send window in bytes (ns-2's `window_`).
    pub max_window: Option<u32>,
    /// The congestion-control algorithm (cc/registry.rs) and its parameters.
    pub cc: CcKind,
    pub cc_params: CcParams,
    /// RFC 3465 appropriate byte counting (L = 2 in slow start).
    pub abc: bool,
    /// Measure RTTs as ns-2 does: in ticks of a clock with a random phase,
    /// with fixed-point srtt and rttvar (rtt.rs).
    pub ns2_clock: bool,
    /// Duplicate ACKs that trigger fast retransmit.
    pub dupack_threshold: u32,
    /// RFC 3042 limited transmit: one new segment on each of the first two
    /// duplicate ACKs.
    pub limited_transmit: bool,
    /// Offer SACK (RFC 2018) and recover with RFC 6675 when both ends agree.
    pub sack: bool,
    /// With SACK: RACK-TLP (RFC 8985) deems segments lost by time and sends
    /// tail loss probes, instead of RFC 6675's DupThresh rule.
    pub rack: bool,
    /// With SACK: proportional rate reduction (RFC 6937) brings cwnd to
    /// ssthresh during recovery, instead of setting it at once.
    pub prr: bool,
    /// Report duplicate segments with D-SACK (RFC 2883).
    pub dsack: bool,
    /// After a timeout, tell a spurious one by F-RTO (RFC 5682 §3, with
    /// SACK when agreed; Linux `tcp_frto`) and undo its window reduction.
    pub frto: bool,
    /// Undo a window reduction that timestamps (Eifel detection, RFC 3522)
    /// or D-SACKs (RFC 3708) show spurious, as Linux does.
    pub undo: bool,
    /// Report SACK blocks as ns-2's `Agent/TCPSink/Sack1` does (its
    /// `Sacker`, options.rs): whenever `sack` is on, negotiated or not, at
    /// most three, taken from a stack of the blocks reported before, 8 bytes
    /// each on the wire with no option framing.
    pub ns2_sacker: bool,
    /// Offer ECN (RFC 3168); it is used when both ends agree.
    pub ecn: bool,
    /// Echo CE per packet (DCTCP, RFC 8257 §3.2) rather than until CWR.
    pub ecn_per_packet_echo: bool,
    /// With `ecn`: ECN as ns-2's one-way agents and sinks do it (ecn.rs):
    /// no negotiation but packet 0's ECN-Echo, ECT on every data packet
    /// after it, CWR on the first packet after any window cut, the echo
    /// kept until a CWR arrives, and the sender's reaction of tcp.cc's
    /// `ecn()`: at most once per window, duplicate ACKs and timeouts soon
    /// after it cut no further.
    pub ns2_ecn: bool,
    /// Offer RFC 7323 timestamps (RTT measurement and PAWS).
    pub timestamps: bool,
    /// Timestamp clock tick.
    pub timestamp_granularity: Duration,
    /// Offer RFC 7323 window scaling (the shift fits the receive buffer).
    pub window_scale: bool,
    /// RFC 6298 parameters.
    pub initial_rto: Duration,
    pub min_rto: Duration,
    pub max_rto: Duration,
    /// RFC 6298 (and ns-2's `rfc2988_`): `min_rto` bounds the RTO before
    /// backoff doubles it; `false`: the doubled RTO (ns-2's old rule).
    pub min_rto_before_backoff: bool,
    /// Clock granularity G: RTT samples are measured in these ticks and the
    /// RTO is at least srtt + max(G, 4 rttvar).
    pub clock_granularity: Duration,
    /// Under ns-2 arithmetic: how far into a tick the RTT clock started
    /// (ns-2's `boot_time_`, random in [0, G) for each agent). `None` lets
    /// the host draw it (the endpoint alone uses zero).
    pub clock_phase: Option<Duration>,
    pub ack_policy: AckPolicy,
    /// RFC 5681 §4.2: an in-order segment with data out of order above it
    /// is acknowledged at once. `false`: delayed as any in-order segment,
    /// unless it joins the data above (ns-2's DelAck sink with
    /// `RFC2581_immediate_ack_` false).
    pub immediate_gap_ack: bool,
    /// ns-2's FullTcp conventions: the ACK of the SYN-ACK and the ACK of
    /// the peer's FIN go out alone, before any data or our own FIN; new
    /// data after an idle period longer than the RTO (counted in whole ticks
    /// of the RTT clock) restarts from the initial window
    /// (`slow_start_restart_`).
    pub ns2_full_tcp: bool,
    /// A new ACK restarts the retransmission timer with the RTO from before
    /// the ACK's RTT sample and before that sample ends any backoff (ns-2's
    /// `timerfix_` false; its FullTcp always does so).
    pub restart_rto_before_sample: bool,
    /// ns-2's `QOption_` (quiescence.rs): a sender that idled for an RTO,
    /// or whose application left the window unused for one, cuts its window
    /// when it sends again; with `ns2_rtt_counter` (`EnblRTTCtr_`) it
    /// measures those spells in RTT rounds it counts instead.
    pub ns2_qoption: bool,
    pub ns2_rtt_counter: bool,
    /// Delayed ACKs: the first this many data segments of a connection are
    /// acknowledged at once, so that slow start is not slowed (Linux's
    /// quick-ACK mode, `TCP_MAX_QUICKACKS`).
    pub quickacks: u32,
    /// Receive buffer in bytes; the advertised window is its free space.
    pub receive_buffer: u32,
    /// Flow control. When off (ns-2's one-way agents) the sender ignores
    /// the peer's advertised window and the receiver accepts whatever fits
    /// in its buffer beyond the window it advertised; real TCP always has it.
    pub flow_control: bool,
    /// Nagle's algorithm (RFC 896).
    pub nagle: bool,
    /// ns-2's `overhead_`: new data waits a uniformly random time in
    /// [0, send_overhead) and then goes out as far as the window allows,
    /// which breaks the phase effects of deterministic simulations. Zero
    /// (the default) sends at once.
    pub send_overhead: Duration,
    /// ns-2's `maxburst_`: at most this many segments go out for one event
    /// (an ACK, a timeout, a write) where ns-2's `send_much` sends, which
    /// leaves out a fast retransmit and limited transmit's segments; `None`:
    /// no limit.
    pub max_burst: Option<u32>,
    /// Persist timer bounds (BSD: 5 s and 60 s).
    pub persist_min: Duration,
    pub persist_max: Duration,
    pub time_wait: Duration,
    /// SYN retransmissions before giving up.
    pub syn_retries: u32,
    /// RTO expirations of one segment before the connection is aborted.
    pub max_retransmits: u32,
    /// Our initial sequence number; `None` lets the host choose.
    pub iss: Option<u32>,
}

impl Default for TcpConfig {
    /// RFC defaults: 1 s minimum RTO (RFC 6298 2.4), delayed ACKs, Nagle,
    /// SACK, ECN, timestamps and window scaling offered.
    fn default() -> Self {
        TcpConfig {
            mss: 1460,
            mss_option: true,
            initial_window: 4,
            syn_loss_window: None,
            handshake: true,
            first_fast_retransmit: true,
            ns2_bare_packet0: false,
            initial_ssthresh: None,
            max_window: None,
            cc: CcKind::NewReno,
            cc_params: CcParams::default(),
            abc: false,
            ns2_clock: false,
            dupack_threshold: 3,
            limited_transmit: false,
            sack: true,
            rack: false,
            prr: false,
            ecn: true,
            ecn_per_packet_echo: false,
            ns2_ecn: false,
            dsack: true,
            frto: false,
            undo: false,
            ns2_sacker: false,
            timestamps: true,
            timestamp_granularity: Duration::from_millis(1),
            window_scale: true,
            initial_rto: Duration::from_secs(1),
            min_rto: Duration::from_secs(1),
            max_rto: Duration::from_secs(60),
            min_rto_before_backoff: true,
            clock_granularity: Duration::from_millis(1),
            clock_phase: None,
            ack_policy: AckPolicy::Delayed { timeout: Duration::from_millis(200), delay_repeat: false },
            immediate_gap_ack: true,
            quickacks: 0,
            ns2_full_tcp: false,
            restart_rto_before_sample: false,
            ns2_qoption: false,
            ns2_rtt_counter: false,
            // Large enough for 100 Mbit/s x 100 ms (1.25 MB); window
            // scaling (offered) makes it usable.
            receive_buffer: 4 << 20,
            flow_control: true,
            nagle: true,
            send_overhead: Duration::ZERO,
            max_burst: None,
            persist_min: Duration::from_secs(5),
            persist_max: Duration::from_secs(60),
            time_wait: Duration::from_secs(60),
            syn_retries: 6,
            max_retransmits: 15,
            iss: None,
        }
    }
}

impl TcpConfig {
    /// Linux-like: Linux's reno, 200 ms minimum RTO, initial window 10,
    /// delayed ACKs with quick ACKs, RACK-TLP, PRR, F-RTO and undo, a 6 MiB
    /// receive buffer.
    pub fn linux() -> Self {
        TcpConfig {
            cc: CcKind::LinuxReno,
            initial_window: 10,
            min_rto: Duration::from_millis(200),
            abc: true,
            limited_transmit: true,
            rack: true,
            prr: true,
            frto: true,
            undo: true,
            // Linux's tcp_ecn = 2: accepted when asked, not asked for.
            ecn: false,
            // Linux's minimum ACK delay (TCP_ATO_MIN) and quick ACKs.
            ack_policy: AckPolicy::Delayed { timeout: Duration::from_millis(40), delay_repeat: false },
            quickacks: 16,
            // tcp_rmem's largest buffer, which autotuning reaches on a
            // bulk flow; window scaling makes it usable.
            receive_buffer: 6 << 20,
            ..TcpConfig::default()
        }
    }

    /// ns-2's Agent/TCP defaults (docs/ns2-profile.md): ns-2's Tahoe window
    /// arithmetic and tick clock, no options, an initial window of 2, 10 ms
    /// ticks, 200 ms minimum and 3 s initial RTO, an ACK per segment, a
    /// window cap of 20 packets.
    pub fn ns2(payload: u32) -> Self {
        TcpConfig {
            mss: payload,
            mss_option: false,
            initial_window: 2,
            syn_loss_window: Some(1),
            max_window: Some(20 * payload),
            cc: CcKind::Ns2Tahoe,
            ns2_clock: true,
            limited_transmit: true,
            sack: false,
            dsack: false,
            ns2_sacker: true,
            ecn: false,
            ns2_ecn: true,
            timestamps: false,
            window_scale: false,
            initial_rto: Duration::from_secs(3),
            min_rto: Duration::from_millis(200),
            max_rto: Duration::from_secs(60),
            clock_granularity: Duration::from_millis(10),
            ack_policy: AckPolicy::EverySegment,
            // ns-2 agents have no receive window: accept anything, ignore rwnd.
            receive_buffer: 1 << 30,
            flow_control: false,
            nagle: false,
            ..TcpConfig::default()
        }
    }
}
