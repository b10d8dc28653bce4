//! BBR v1 (Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson, ACM Queue
//! 14(5), 2016), as Linux's `tcp_bbr.c` runs it: congestion control by a
//! model of the path, not by loss.
//!
//! On every ACK BBR updates two estimates, the bottleneck bandwidth (the
//! largest delivery rate over the last 10 rounds) and the propagation
//! delay (the least RTT over the last 10 s), and sets
//!
//! ```text
//! pacing_rate = pacing_gain x BtlBw x (1 - 1%)
//! cwnd        = cwnd_gain x BtlBw x RTprop (+ allowances, see below)
//! ```
//!
//! The gains come from a state machine:
//!
//! ```text
//!              |
//!              v
//!   +---> STARTUP  ----+    gains 2.89: doubles the rate each round until
//!   |        |         |    the bandwidth grew < 25% in 3 rounds
//!   |        v         |
//!   |      DRAIN   ----+    pacing 1/2.89 until the flight is one BDP
//!   |        |         |
//!   |        v         |
//!   +---> PROBE_BW ----+    pacing cycles 5/4, 3/4, 1 x 6 (one RTprop
//!   |      ^    |      |    each), cwnd gain 2
//!   |      +----+      |
//!   |                  |
//!   +---- PROBE_RTT <--+    RTprop not refreshed for 10 s: cwnd 4 for
//!                           200 ms and a round, then back
//! ```
//!
//! With Linux's refinements: loss recovery conserves packets for a round and
//! restores the window after; long-term bandwidth sampling finds a policer
//! (two intervals of high loss at a consistent rate) and paces at its rate
//! for 48 rounds; the window allows for ACK aggregation (the most data
//! acknowledged beyond the estimate within 5-10 rounds) and for TSO
//! quantisation (3 x the TSO goal, rounded up to even, +2 in the probing
//! phase), which Linux adds even when segments are sent one by one.
//!
//! | parameter | default | range | source |
//! |-----------|---------|-------|--------|
//! | `high_gain` | 2.8867 | 1-10 | tcp_bbr.c `bbr_high_gain` (2/ln 2, 739/256) |
//! | `cwnd_gain` | 2 | 1-10 | tcp_bbr.c `bbr_cwnd_gain` |
//! | `bw_window_rounds` | 10 | 1-1000 | tcp_bbr.c `bbr_bw_rtts` |
//! | `min_rtt_window` | 10 | 0.1-1000 | tcp_bbr.c `bbr_min_rtt_win_sec`, seconds |
//! | `probe_rtt_time` | 0.2 | 0-10 | tcp_bbr.c `bbr_probe_rtt_mode_ms`, seconds |
//! | `pacing_margin` | 0.01 | 0-0.5 | tcp_bbr.c `bbr_pacing_margin_percent` |
//! | `long_term_bw` | 1 | 0/1 | tcp_bbr.c long-term ("LT") bandwidth sampling |
//! | `ack_aggregation` | 1 | 0/1 | tcp_bbr.c `bbr_extra_acked_gain` 1 or 0 |
//!
//! Not modelled: the earliest-departure-time correction of the flight
//! (`bbr_packets_in_net_at_edt`, no qdisc holds our segments) and Linux's
//! distinction of packets SACKed or marked lost within the flight (BBR sees
//! RFC 5681's FlightSize).

use super::{
    CaState, CcContext, CcParams, CongestionOps, Conn, CwndEvent, ParamInfo, ParamKind, RateSample, Rounds, Window,
};
use ackclock_core::{Bandwidth, Duration, Instant};

pub(super) const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "high_gain",
        kind: ParamKind::Real,
        default: 739.0 / 256.0,
        min: 1.0,
        max: 10.0,
        help: "STARTUP's pacing and cwnd gain (2/ln 2)",
    },
    ParamInfo {
        name: "cwnd_gain",
        kind: ParamKind::Real,
        default: 2.0,
        min: 1.0,
        max: 10.0,
        help: "PROBE_BW's cwnd gain over the bandwidth-delay product",
    },
    ParamInfo {
        name: "bw_window_rounds",
        kind: ParamKind::Integer,
        default: 10.0,
        min: 1.0,
        max: 1000.0,
        help: "rounds over which the bandwidth estimate is the largest sample",
    },
    ParamInfo {
        name: "min_rtt_window",
        kind: ParamKind::Real,
        default: 10.0,
        min: 0.1,
        max: 1000.0,
        help: "seconds over which RTprop is the least RTT; then PROBE_RTT",
    },
    ParamInfo {
        name: "probe_rtt_time",
        kind: ParamKind::Real,
        default: 0.2,
        min: 0.0,
        max: 10.0,
        help: "seconds PROBE_RTT holds cwnd at 4 segments (and at least a round)",
    },
    ParamInfo {
        name: "pacing_margin",
        kind: ParamKind::Real,
        default: 0.01,
        min: 0.0,
        max: 0.5,
        help: "pace this fraction below the estimated bandwidth",
    },
    ParamInfo {
        name: "long_term_bw",
        kind: ParamKind::Flag,
        default: 1.0,
        min: 0.0,
        max: 1.0,
        help: "detect a token-bucket policer and pace at its long-term rate",
    },
    ParamInfo {
        name: "ack_aggregation",
        kind: ParamKind::Flag,
        default: 1.0,
        min: 0.0,
        max: 1.0,
        help: "allow cwnd for data acknowledged in bursts beyond the estimate",
    },
];

/// tcp_bbr.c's constants that are not parameters.
const DRAIN_GAIN: f64 = 88.0 / 256.0;
const PACING_GAINS: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
/// Phases a new PROBE_BW cycle may start in (never the draining 3/4).
const CYCLE_RANDOM: u64 = 7;
const CWND_MIN_TARGET: u32 = 4;
const INIT_CWND: u32 = 10;
const FULL_BW_THRESH: f64 = 1.25;
const FULL_BW_COUNT: u32 = 3;
const LT_INTERVAL_MIN_ROUNDS: u32 = 4;
const LT_LOSS_THRESH: f64 = 50.0 / 256.0;
const LT_BW_RATIO: f64 = 1.0 / 8.0;
/// 4 kbit/s in bytes per second.
const LT_BW_DIFF: f64 = 500.0;
const LT_BW_MAX_ROUNDS: u32 = 48;
const EXTRA_ACKED_WINDOW_ROUNDS: u32 = 5;
const EXTRA_ACKED_MAX: Duration = Duration::from_millis(100);
const EPOCH_ACKED_RESET: f64 = (1 << 20) as f64;
/// Pacing rates below this (1.2 Mbit/s in bytes per second) budget one TSO
/// segment, above it two; Linux's pacing shift (sk_pacing_shift 10) makes
/// the goal about a millisecond of data.
const MIN_TSO_RATE: f64 = 1_200_000.0 / 8.0;
const TSO_MAX_BYTES: f64 = 65_536.0 - 1.0 - 320.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

/// A windowed maximum that keeps the best three samples of the window's
/// quarters (Kathleen Nichols' algorithm, Linux lib/win_minmax.c), so that
/// it forgets an old maximum in time without storing every sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct WindowedMax {
    /// (value, time) of the best, second and third choice.
    s: [(f64, u64); 3],
}

impl WindowedMax {
    fn get(&self) -> f64 {
        self.s[0].0
    }

    fn reset(&mut self, t: u64, v: f64) {
        self.s = [(v, t); 3];
    }

    fn update(&mut self, window: u64, t: u64, v: f64) {
        let new = (v, t);
        if v >= self.s[0].0 || t - self.s[2].1 > window {
            self.reset(t, v);
            return;
        }
        if v >= self.s[1].0 {
            self.s[1] = new;
            self.s[2] = new;
        } else if v >= self.s[2].0 {
            self.s[2] = new;
        }
        let age = t - self.s[0].1;
        if age > window {
            // The best has aged out: promote the others (twice if the
            // second choice is out of the window as well).
            self.s = [self.s[1], self.s[2], new];
            if t - self.s[0].1 > window {
                self.s = [self.s[1], self.s[2], new];
            }
        } else if self.s[1].1 == self.s[0].1 && age > window / 4 {
            // A quarter of the window without a second choice: take one.
            self.s[1] = new;
            self.s[2] = new;
        } else if self.s[2].1 == self.s[1].1 && age > window / 2 {
            self.s[2] = new;
        }
    }
}

/// Long-term bandwidth sampling: evidence of a token-bucket policer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct LongTerm {
    sampling: bool,
    rounds: u32,
    use_bw: bool,
    /// Packets per second.
    bw: f64,
    /// The interval's start: delivered and lost bytes, and when.
    last_delivered: u64,
    last_lost: u64,
    last_stamp: Instant,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Tuning {
    high_gain: f64,
    cwnd_gain: f64,
    bw_window_rounds: u64,
    min_rtt_window: Duration,
    probe_rtt_time: Duration,
    pacing_margin: f64,
    long_term_bw: bool,
    ack_aggregation: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bbr {
    tuning: Tuning,
    mode: Mode,
    /// Bandwidth in packets per second, maximum over rounds.
    bw: WindowedMax,
    min_rtt: Option<Duration>,
    min_rtt_stamp: Instant,
    probe_rtt_done: Option<Instant>,
    probe_rtt_round_done: bool,
    /// Samples sent between these delivered counts count as
    /// application-limited (PROBE_RTT's low rate; Linux sets
    /// `tp->app_limited` for it).
    quiet_from: u64,
    quiet_until: u64,
    rounds: Rounds,
    round_start: bool,
    packet_conservation: bool,
    prev_state: CaState,
    idle_restart: bool,
    pacing_gain: f64,
    cwnd_gain: f64,
    full_bw: f64,
    full_bw_count: u32,
    full_bw_reached: bool,
    cycle: usize,
    cycle_stamp: Instant,
    /// cwnd (packets) before recovery or PROBE_RTT, to restore after.
    prior_cwnd: u32,
    has_seen_rtt: bool,
    lt: LongTerm,
    lost: u64,
    /// ACK aggregation: the epoch's start and packets acknowledged in it,
    /// and the most extra packets of two 5-round windows.
    ack_epoch_stamp: Instant,
    ack_epoch_acked: f64,
    extra_acked: [f64; 2],
    extra_acked_rounds: u32,
    extra_acked_slot: usize,
    /// xorshift state for the phase a PROBE_BW cycle starts in.
    random: u64,
}

fn recovering(s: CaState) -> bool {
    matches!(s, CaState::Recovery | CaState::Loss)
}

/// Packets in the network or lost: the flight less what was SACKed (Linux
/// `tcp_packets_in_flight` without its lost and retransmitted terms).
fn in_flight(c: &Conn) -> u32 {
    c.bytes_in_flight.saturating_sub(c.sacked) / c.mss
}

impl Bbr {
    pub fn new(ctx: &CcContext, params: &CcParams) -> Self {
        let v = |i: usize| params.value(&PARAMS[i]);
        let tuning = Tuning {
            high_gain: v(0),
            cwnd_gain: v(1),
            bw_window_rounds: v(2) as u64,
            min_rtt_window: Duration::from_secs_f64(v(3)),
            probe_rtt_time: Duration::from_secs_f64(v(4)),
            pacing_margin: v(5),
            long_term_bw: v(6) != 0.0,
            ack_aggregation: v(7) != 0.0,
        };
        Bbr {
            tuning,
            mode: Mode::Startup,
            bw: WindowedMax::default(),
            min_rtt: None,
            min_rtt_stamp: Instant::ZERO,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            quiet_from: u64::MAX,
            quiet_until: 0,
            rounds: Rounds::default(),
            round_start: false,
            packet_conservation: false,
            prev_state: CaState::Open,
            idle_restart: false,
            pacing_gain: tuning.high_gain,
            cwnd_gain: tuning.high_gain,
            full_bw: 0.0,
            full_bw_count: 0,
            full_bw_reached: false,
            cycle: 0,
            cycle_stamp: Instant::ZERO,
            prior_cwnd: 0,
            has_seen_rtt: false,
            lt: LongTerm::default(),
            lost: 0,
            ack_epoch_stamp: Instant::ZERO,
            ack_epoch_acked: 0.0,
            extra_acked: [0.0; 2],
            extra_acked_rounds: 0,
            extra_acked_slot: 0,
            random: ctx.seed | 1,
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }

    /// The bandwidth estimate in packets per second.
    fn bandwidth(&self) -> f64 {
        if self.lt.use_bw {
            self.lt.bw
        } else {
            self.bw.get()
        }
    }

    fn next_random(&mut self) -> u64 {
        let mut x = self.random;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.random = x;
        x
    }

    /// Bytes per second for `bw` packets per second at `gain`, less the
    /// margin.
    fn rate(&self, bw: f64, gain: f64, mss: u32) -> f64 {
        bw * f64::from(mss) * gain * (1.0 - self.tuning.pacing_margin)
    }

    fn set_pacing(w: &mut Window, bytes_per_sec: f64) {
        let bps = (bytes_per_sec * 8.0).clamp(1.0, u64::MAX as f64 / 2.0) as u64;
        w.pacing_rate = Bandwidth::from_bps(bps);
    }

    fn pacing_bytes_per_sec(w: &Window) -> f64 {
        w.pacing_rate.map_or(0.0, |b| b.bps() as f64 / 8.0)
    }

    /// high_gain x cwnd / RTT, from srtt or a nominal 1 ms.
    fn init_pacing(&mut self, w: &mut Window, c: &Conn) {
        let rtt = match c.srtt {
            Some(srtt) => {
                self.has_seen_rtt = true;
                srtt.as_secs_f64().max(1e-6)
            }
            None => 1e-3,
        };
        let bw = f64::from(w.cwnd / c.mss.max(1)) / rtt;
        Self::set_pacing(w, self.rate(bw, self.tuning.high_gain, c.mss));
    }

    fn set_pacing_rate(&mut self, w: &mut Window, c: &Conn, bw: f64) {
        if !self.has_seen_rtt && c.srtt.is_some() {
            self.init_pacing(w, c);
        }
        let rate = self.rate(bw, self.pacing_gain, c.mss);
        if self.full_bw_reached || rate > Self::pacing_bytes_per_sec(w) {
            Self::set_pacing(w, rate);
        }
    }

    /// Linux `bbr_tso_segs_goal`: segments per TSO burst at the current rate.
    fn tso_segs_goal(w: &Window, mss: u32) -> u32 {
        let rate = Self::pacing_bytes_per_sec(w);
        let min = if rate < MIN_TSO_RATE { 1 } else { 2 };
        let bytes = (rate / 1024.0).min(TSO_MAX_BYTES);
        ((bytes / f64::from(mss)) as u32).max(min).min(127)
    }

    /// ceil(bw x RTprop x gain) packets; the initial window until an RTT.
    fn bdp(&self, bw: f64, gain: f64) -> u32 {
        match self.min_rtt {
            None => INIT_CWND,
            Some(rtt) => {
                let exact = bw * rtt.as_secs_f64() * gain;
                // Tolerate the float's error around whole numbers.
                (exact - 1e-9).ceil().max(0.0) as u32
            }
        }
    }

    fn quantization_budget(&self, w: &Window, mss: u32, cwnd: u32) -> u32 {
        let mut cwnd = cwnd + 3 * Self::tso_segs_goal(w, mss);
        cwnd = (cwnd + 1) & !1;
        if self.mode == Mode::ProbeBw && self.cycle == 0 {
            cwnd += 2;
        }
        cwnd
    }

    fn inflight(&self, w: &Window, mss: u32, bw: f64, gain: f64) -> u32 {
        self.quantization_budget(w, mss, self.bdp(bw, gain))
    }

    fn save_cwnd(&mut self, w: &Window, mss: u32) {
        let cwnd = w.cwnd / mss;
        self.prior_cwnd =
            if !recovering(self.prev_state) && self.mode != Mode::ProbeRtt { cwnd } else { self.prior_cwnd.max(cwnd) };
    }

    fn is_app_limited(&self, rs: &RateSample) -> bool {
        rs.is_app_limited || rs.prior_delivered.is_some_and(|p| (self.quiet_from..=self.quiet_until).contains(&p))
    }

    fn update_bw(&mut self, c: &Conn, rs: &RateSample) {
        self.round_start = false;
        if rs.interval == Duration::ZERO {
            return;
        }
        if self.rounds.on_ack(c, rs) {
            self.round_start = true;
            self.packet_conservation = false;
        }
        self.lt_sampling(c, rs);
        let bw = rs.delivered as f64 / f64::from(c.mss) / rs.interval.as_secs_f64();
        if !self.is_app_limited(rs) || bw >= self.bw.get() {
            self.bw.update(self.tuning.bw_window_rounds, self.rounds.count, bw);
        }
    }

    fn reset_lt_interval(&mut self, c: &Conn) {
        self.lt.last_stamp = c.now;
        self.lt.last_delivered = c.delivered;
        self.lt.last_lost = self.lost;
        self.lt.rounds = 0;
    }

    fn reset_lt(&mut self, c: &Conn) {
        self.lt.bw = 0.0;
        self.lt.use_bw = false;
        self.lt.sampling = false;
        self.reset_lt_interval(c);
    }

    /// The end of a long-term interval at `bw` packets per second: two in
    /// a row at about the same rate mean a policer.
    fn lt_interval_done(&mut self, c: &Conn, bw: f64) {
        if self.lt.bw > 0.0 {
            let diff = (bw - self.lt.bw).abs();
            let close = diff <= LT_BW_RATIO * self.lt.bw || self.rate(diff, 1.0, c.mss) <= LT_BW_DIFF;
            if close {
                self.lt.bw = (bw + self.lt.bw) / 2.0;
                self.lt.use_bw = true;
                self.pacing_gain = 1.0;
                self.lt.rounds = 0;
                return;
            }
        }
        self.lt.bw = bw;
        self.reset_lt_interval(c);
    }

    fn lt_sampling(&mut self, c: &Conn, rs: &RateSample) {
        if !self.tuning.long_term_bw {
            return;
        }
        if self.lt.use_bw {
            if self.mode == Mode::ProbeBw && self.round_start {
                self.lt.rounds += 1;
                if self.lt.rounds >= LT_BW_MAX_ROUNDS {
                    self.reset_lt(c);
                    self.reset_probe_bw(c);
                }
            }
            return;
        }
        // Sample from the first loss on, once the policer's tokens are spent.
        if !self.lt.sampling {
            if rs.losses == 0 {
                return;
            }
            self.reset_lt_interval(c);
            self.lt.sampling = true;
        }
        if self.is_app_limited(rs) {
            self.reset_lt(c);
            return;
        }
        if self.round_start {
            self.lt.rounds += 1;
        }
        if self.lt.rounds < LT_INTERVAL_MIN_ROUNDS {
            return;
        }
        if self.lt.rounds > 4 * LT_INTERVAL_MIN_ROUNDS {
            self.reset_lt(c);
            return;
        }
        if rs.losses == 0 {
            return;
        }
        let lost = self.lost - self.lt.last_lost;
        let delivered = c.delivered - self.lt.last_delivered;
        if delivered == 0 || (lost as f64) < LT_LOSS_THRESH * delivered as f64 {
            return;
        }
        let t = c.now.saturating_since(self.lt.last_stamp);
        if t < Duration::from_millis(1) {
            return;
        }
        let bw = delivered as f64 / f64::from(c.mss) / t.as_secs_f64();
        self.lt_interval_done(c, bw);
    }

    fn update_ack_aggregation(&mut self, w: &Window, c: &Conn, rs: &RateSample) {
        if !self.tuning.ack_aggregation || rs.acked_sacked == 0 || rs.interval == Duration::ZERO {
            return;
        }
        if self.round_start {
            self.extra_acked_rounds = (self.extra_acked_rounds + 1).min(31);
            if self.extra_acked_rounds >= EXTRA_ACKED_WINDOW_ROUNDS {
                self.extra_acked_rounds = 0;
                self.extra_acked_slot ^= 1;
                self.extra_acked[self.extra_acked_slot] = 0.0;
            }
        }
        let acked = f64::from(rs.acked_sacked) / f64::from(c.mss);
        let epoch = c.now.saturating_since(self.ack_epoch_stamp).as_secs_f64();
        let mut expected = (self.bandwidth() * epoch).floor();
        if self.ack_epoch_acked <= expected || self.ack_epoch_acked + acked >= EPOCH_ACKED_RESET {
            self.ack_epoch_acked = 0.0;
            self.ack_epoch_stamp = c.now;
            expected = 0.0;
        }
        self.ack_epoch_acked = (self.ack_epoch_acked + acked).min(EPOCH_ACKED_RESET - 1.0);
        let extra = (self.ack_epoch_acked - expected).min(f64::from(w.cwnd / c.mss));
        let slot = &mut self.extra_acked[self.extra_acked_slot];
        *slot = slot.max(extra);
    }

    fn ack_aggregation_cwnd(&self) -> u32 {
        if !self.tuning.ack_aggregation || !self.full_bw_reached {
            return 0;
        }
        let most = self.extra_acked[0].max(self.extra_acked[1]);
        let cap = self.bandwidth() * EXTRA_ACKED_MAX.as_secs_f64();
        most.min(cap).floor() as u32
    }

    /// Whether the current PROBE_BW phase is over.
    fn phase_done(&self, w: &Window, c: &Conn, rs: &RateSample) -> bool {
        let full_length = self.min_rtt.is_some_and(|m| c.now.saturating_since(self.cycle_stamp) > m);
        if self.pacing_gain == 1.0 {
            return full_length;
        }
        let mss = c.mss;
        let mut inflight = rs.prior_in_flight / mss;
        let bw = self.bw.get();
        if self.pacing_gain > 1.0 {
            inflight += Self::tso_segs_goal(w, mss);
            // Probe until the flight reaches gain x BDP, unless it is lost.
            return full_length && (rs.losses > 0 || inflight >= self.inflight(w, mss, bw, self.pacing_gain));
        }
        full_length || inflight <= self.inflight(w, mss, bw, 1.0)
    }

    fn advance_cycle(&mut self, c: &Conn) {
        self.cycle = (self.cycle + 1) % PACING_GAINS.len();
        self.cycle_stamp = c.now;
    }

    fn reset_probe_bw(&mut self, c: &Conn) {
        self.mode = Mode::ProbeBw;
        let start = PACING_GAINS.len() - 1 - (self.next_random() % CYCLE_RANDOM) as usize;
        self.cycle = start;
        self.advance_cycle(c);
    }

    fn reset_mode(&mut self, c: &Conn) {
        if self.full_bw_reached {
            self.reset_probe_bw(c);
        } else {
            self.mode = Mode::Startup;
        }
    }

    fn check_full_bw_reached(&mut self, rs: &RateSample) {
        if self.full_bw_reached || !self.round_start || self.is_app_limited(rs) {
            return;
        }
        if self.bw.get() >= self.full_bw * FULL_BW_THRESH {
            self.full_bw = self.bw.get();
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        self.full_bw_reached = self.full_bw_count >= FULL_BW_COUNT;
    }

    fn check_drain(&mut self, w: &mut Window, c: &Conn) {
        let mss = c.mss;
        if self.mode == Mode::Startup && self.full_bw_reached {
            self.mode = Mode::Drain;
            w.ssthresh = self.inflight(w, mss, self.bw.get(), 1.0).saturating_mul(mss);
        }
        if self.mode == Mode::Drain && in_flight(c) <= self.inflight(w, mss, self.bw.get(), 1.0) {
            self.reset_probe_bw(c);
        }
    }

    fn check_probe_rtt_done(&mut self, w: &mut Window, c: &Conn) {
        if self.probe_rtt_done.is_none_or(|t| c.now <= t) {
            return;
        }
        self.min_rtt_stamp = c.now;
        w.cwnd = w.cwnd.max(self.prior_cwnd.saturating_mul(c.mss));
        self.reset_mode(c);
    }

    fn update_min_rtt(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        let expired = c.now > self.min_rtt_stamp + self.tuning.min_rtt_window;
        if let Some(rtt) = rs.rtt {
            if self.min_rtt.is_none_or(|m| rtt <= m) || expired {
                self.min_rtt = Some(rtt);
                self.min_rtt_stamp = c.now;
            }
        }
        if self.tuning.probe_rtt_time > Duration::ZERO && expired && !self.idle_restart && self.mode != Mode::ProbeRtt {
            self.mode = Mode::ProbeRtt;
            self.save_cwnd(w, c.mss);
            self.probe_rtt_done = None;
            self.quiet_from = c.delivered;
        }
        if self.mode == Mode::ProbeRtt {
            // Samples sent at this low rate understate the bandwidth.
            self.quiet_until = c.delivered + u64::from(c.bytes_in_flight);
            if self.probe_rtt_done.is_none() && in_flight(c) <= CWND_MIN_TARGET {
                self.probe_rtt_done = Some(c.now + self.tuning.probe_rtt_time);
                self.probe_rtt_round_done = false;
                self.rounds.restart(c);
            } else if self.probe_rtt_done.is_some() {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done {
                    self.check_probe_rtt_done(w, c);
                }
            }
        }
        if rs.delivered > 0 {
            self.idle_restart = false;
        }
    }

    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            Mode::Startup => (self.tuning.high_gain, self.tuning.high_gain),
            Mode::Drain => (DRAIN_GAIN, self.tuning.high_gain),
            Mode::ProbeBw if self.lt.use_bw => (1.0, self.tuning.cwnd_gain),
            Mode::ProbeBw => (PACING_GAINS[self.cycle], self.tuning.cwnd_gain),
            Mode::ProbeRtt => (1.0, 1.0),
        };
    }

    /// Loss recovery's window: packet conservation in its first round, the
    /// window from before it restored after. Returns the window and whether
    /// conservation decides it.
    fn recover_or_restore(&mut self, c: &Conn, rs: &RateSample, cwnd: u32, acked: u32) -> (u32, bool) {
        let mss = c.mss;
        let losses = rs.losses.div_ceil(mss);
        let mut cwnd = if losses > 0 { cwnd.saturating_sub(losses).max(1) } else { cwnd };
        let in_flight = in_flight(c);
        if c.state == CaState::Recovery && self.prev_state != CaState::Recovery {
            self.packet_conservation = true;
            self.rounds.restart(c);
            cwnd = in_flight + acked;
        } else if recovering(self.prev_state) && !recovering(c.state) {
            cwnd = cwnd.max(self.prior_cwnd);
            self.packet_conservation = false;
        }
        self.prev_state = c.state;
        if self.packet_conservation {
            (cwnd.max(in_flight + acked), true)
        } else {
            (cwnd, false)
        }
    }

    fn set_cwnd(&mut self, w: &mut Window, c: &Conn, rs: &RateSample, bw: f64) {
        let mss = c.mss;
        let acked = rs.acked_sacked.div_ceil(mss);
        let mut cwnd = w.cwnd / mss;
        if acked > 0 {
            let (restored, conserving) = self.recover_or_restore(c, rs, cwnd, acked);
            cwnd = restored;
            if !conserving {
                let target = self.bdp(bw, self.cwnd_gain) + self.ack_aggregation_cwnd();
                let target = self.quantization_budget(w, mss, target);
                if self.full_bw_reached {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || c.delivered < u64::from(INIT_CWND * mss) {
                    cwnd += acked;
                }
                cwnd = cwnd.max(CWND_MIN_TARGET);
            }
        }
        if self.mode == Mode::ProbeRtt {
            cwnd = cwnd.min(CWND_MIN_TARGET);
        }
        w.cwnd = cwnd.saturating_mul(mss).min(u32::MAX / 2);
    }
}

impl CongestionOps for Bbr {
    fn name(&self) -> &'static str {
        "bbr"
    }

    /// Entering recovery: remember the window; BBR keeps ssthresh.
    fn ssthresh(&mut self, w: &Window, c: &Conn) -> u32 {
        self.save_cwnd(w, c.mss);
        w.ssthresh
    }

    fn cong_avoid(&mut self, _w: &mut Window, _c: &Conn, _rs: &RateSample) {}

    fn owns_window(&self) -> bool {
        true
    }

    fn cong_control(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        self.update_bw(c, rs);
        self.update_ack_aggregation(w, c, rs);
        if self.mode == Mode::ProbeBw && self.phase_done(w, c, rs) {
            self.advance_cycle(c);
        }
        self.check_full_bw_reached(rs);
        self.check_drain(w, c);
        self.update_min_rtt(w, c, rs);
        self.update_gains();
        let bw = self.bandwidth();
        self.set_pacing_rate(w, c, bw);
        self.set_cwnd(w, c, rs, bw);
    }

    fn pkts_acked(&mut self, _c: &Conn, rs: &RateSample) {
        self.lost += u64::from(rs.losses);
    }

    fn cwnd_event(&mut self, w: &mut Window, c: &Conn, event: CwndEvent) {
        match event {
            CwndEvent::Init => {
                w.ssthresh = u32::MAX / 2;
                self.min_rtt = c.min_rtt.or(c.srtt);
                self.min_rtt_stamp = c.now;
                self.ack_epoch_stamp = c.now;
                self.reset_lt(c);
                self.init_pacing(w, c);
            }
            CwndEvent::TxStart if !self.has_seen_rtt && c.srtt.is_some() => self.init_pacing(w, c),
            CwndEvent::TxStart if c.delivered > 0 => {
                // Restarting after an idle period.
                self.idle_restart = true;
                self.ack_epoch_stamp = c.now;
                self.ack_epoch_acked = 0.0;
                match self.mode {
                    Mode::ProbeBw => Self::set_pacing(w, self.rate(self.bandwidth(), 1.0, c.mss)),
                    Mode::ProbeRtt => self.check_probe_rtt_done(w, c),
                    _ => {}
                }
            }
            CwndEvent::Rto => {
                // Linux bbr_set_state(TCP_CA_Loss): a timeout ends a round.
                self.prev_state = CaState::Loss;
                self.full_bw = 0.0;
                self.round_start = true;
                self.lt_sampling(c, &RateSample { losses: 1, ..RateSample::default() });
            }
            _ => {}
        }
    }

    /// Linux `bbr_undo_cwnd`: the slow-down was spurious, so full-pipe
    /// detection starts over; cwnd stays.
    fn undo(&mut self, _w: &mut Window, c: &Conn, _before: &Window) {
        self.full_bw = 0.0;
        self.full_bw_count = 0;
        self.reset_lt(c);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{conn, context, window};
    use super::*;

    const MSS: u32 = 1000;

    fn bbr() -> Bbr {
        Bbr::new(&context(10), &CcParams::default())
    }

    fn ms(x: u64) -> Instant {
        Instant::from_ps(x * 1_000_000_000)
    }

    /// The connection at `t_ms` with `delivered` bytes delivered and
    /// `flight` in flight.
    fn at(t_ms: u64, delivered: u64, flight: u32) -> Conn {
        Conn {
            now: ms(t_ms),
            delivered,
            srtt: Some(Duration::from_millis(100)),
            min_rtt: Some(Duration::from_millis(100)),
            ..conn(MSS, flight)
        }
    }

    /// A valid sample: `delivered` bytes over 100 ms, RTT 100 ms, for a
    /// segment sent when `prior` bytes had been delivered.
    fn sample(delivered: u64, prior: u64, acked: u32) -> RateSample {
        RateSample {
            acked,
            acked_sacked: acked,
            delivered,
            interval: Duration::from_millis(100),
            prior_delivered: Some(prior),
            rtt: Some(Duration::from_millis(100)),
            ..RateSample::default()
        }
    }

    #[test]
    fn the_windowed_max_forgets_a_peak_older_than_the_window() {
        let mut f = WindowedMax::default();
        f.update(10, 0, 100.0);
        f.update(10, 3, 80.0);
        f.update(10, 6, 60.0);
        assert_eq!(f.get(), 100.0);
        f.update(10, 11, 50.0);
        assert_eq!(f.get(), 80.0, "the round-0 peak is 11 rounds old");
        f.update(10, 20, 40.0);
        assert_eq!(f.get(), 50.0, "round 11's sample is 9 rounds old");
        f.update(10, 32, 30.0);
        assert_eq!(f.get(), 30.0, "every choice aged out");
    }

    #[test]
    fn init_paces_at_high_gain_times_the_initial_window_over_srtt() {
        let mut cc = bbr();
        let mut w = window(10 * MSS, 0);
        cc.cwnd_event(&mut w, &at(0, 0, 0), CwndEvent::Init);
        // 2.8867 x 10 packets / 100 ms x 1000 bytes x 0.99 = 285,785 B/s.
        let expected = 739.0 / 256.0 * 100.0 * 1000.0 * 0.99 * 8.0;
        assert_eq!(w.pacing_rate.unwrap().bps(), expected as u64);
        assert_eq!(w.ssthresh, u32::MAX / 2);
    }

    /// Runs startup rounds of `acks` ACKs, each delivering a segment with
    /// the bandwidth sample `bw` packets over 100 ms.
    fn round(cc: &mut Bbr, w: &mut Window, t: &mut u64, delivered: &mut u64, acks: u32, bw: u64) {
        let start = *delivered;
        for _ in 0..acks {
            *delivered += u64::from(MSS);
            *t += 1;
            cc.cong_control(w, &at(*t, *delivered, w.cwnd), &sample(bw * u64::from(MSS), start, MSS));
        }
    }

    #[test]
    fn startup_grows_cwnd_by_what_is_acked_then_drains_after_three_flat_rounds() {
        let mut cc = bbr();
        let mut w = window(10 * MSS, 0);
        let (mut t, mut d) = (0, 0);
        cc.cwnd_event(&mut w, &at(0, 0, 0), CwndEvent::Init);
        round(&mut cc, &mut w, &mut t, &mut d, 10, 10);
        assert_eq!((cc.mode(), w.cwnd), (Mode::Startup, 20 * MSS), "+1 per packet acknowledged");
        round(&mut cc, &mut w, &mut t, &mut d, 20, 20);
        round(&mut cc, &mut w, &mut t, &mut d, 20, 40);
        // The bandwidth stops growing at 40 packets per 100 ms: three more
        // rounds without 25% growth fill the pipe.
        for _ in 0..2 {
            round(&mut cc, &mut w, &mut t, &mut d, 20, 40);
            assert_eq!(cc.mode(), Mode::Startup);
        }
        round(&mut cc, &mut w, &mut t, &mut d, 20, 40);
        assert!(cc.full_bw_reached);
        // DRAIN paces at 88/256 of the estimate; ssthresh is one BDP plus
        // the TSO allowance: 40 + 3 x 2 = 46 packets.
        assert_eq!(cc.mode(), Mode::Drain);
        assert_eq!(cc.pacing_gain(), 88.0 / 256.0);
        assert_eq!(w.ssthresh, 46 * MSS);
    }

    #[test]
    fn drain_ends_when_the_flight_is_one_bdp_and_probe_bw_cycles_gains() {
        let mut cc = bbr();
        let mut w = window(100 * MSS, 0);
        cc.full_bw_reached = true;
        cc.min_rtt = Some(Duration::from_millis(100));
        cc.bw.reset(0, 400.0); // 40 packets per 100 ms: BDP 40
        cc.mode = Mode::Drain;
        Bbr::set_pacing(&mut w, 400_000.0);
        cc.cong_control(&mut w, &at(1, 1000, 60 * MSS), &sample(40_000, 0, MSS));
        assert_eq!(cc.mode(), Mode::Drain, "60 packets in flight > 46");
        // DRAIN's own rate, 0.34 x 400 kB/s, is below 150 kB/s: one TSO
        // segment, so one BDP in flight is 40 + 3 rounded to even, 44.
        cc.cong_control(&mut w, &at(2, 2000, 45 * MSS), &sample(40_000, 0, MSS));
        assert_eq!(cc.mode(), Mode::Drain);
        cc.cong_control(&mut w, &at(3, 3000, 44 * MSS), &sample(40_000, 0, MSS));
        assert_eq!(cc.mode(), Mode::ProbeBw);
        // seed 7: the cycle starts at phase 7 - (x % 7) and advances once.
        let start = cc.cycle;
        assert_ne!(start, 1, "never starts draining");
        // A phase lasts one RTprop (100 ms) at gain 1.
        let mut t = 3;
        let mut gains = vec![];
        for _ in 0..8 {
            let mut c = at(t, 3000, 46 * MSS);
            t += 101;
            c.now = ms(t);
            // Probing (5/4) ends after RTprop once the flight reaches 5/4 BDP:
            // ceil(50) + 6 = 56 packets, rounded to even, +2: 58.
            let rs = RateSample { prior_in_flight: 60 * MSS, ..sample(40_000, 0, MSS) };
            cc.cong_control(&mut w, &c, &rs);
            gains.push(cc.pacing_gain());
        }
        let expected: Vec<f64> = (0..8).map(|i| PACING_GAINS[(start + 1 + i) % 8]).collect();
        assert_eq!(gains, expected);
    }

    #[test]
    fn probe_bw_cwnd_is_twice_the_bdp_plus_the_tso_allowance() {
        // 10 Mbit/s of 1000-byte packets = 1250 packets/s, RTprop 40 ms:
        // BDP 50; cwnd gain 2: 100, + 3 x 2 TSO segments = 106.
        let mut cc = bbr();
        let mut w = window(200 * MSS, 0);
        cc.full_bw_reached = true;
        cc.tuning.ack_aggregation = false;
        cc.min_rtt = Some(Duration::from_millis(40));
        cc.bw.reset(0, 1250.0);
        cc.mode = Mode::ProbeBw;
        cc.cycle = 3;
        cc.update_gains();
        Bbr::set_pacing(&mut w, 1_250_000.0);
        cc.set_cwnd(&mut w, &at(0, 1_000_000, 0), &sample(0, 0, MSS), 1250.0);
        assert_eq!(w.cwnd, 106 * MSS);
    }

    #[test]
    fn probe_rtt_after_ten_seconds_without_a_lower_rtt_caps_cwnd_at_four() {
        let mut cc = bbr();
        let mut w = window(80 * MSS, 0);
        cc.full_bw_reached = true;
        cc.min_rtt = Some(Duration::from_millis(100));
        cc.min_rtt_stamp = ms(0);
        cc.bw.reset(0, 400.0);
        cc.mode = Mode::ProbeBw;
        let late = RateSample { rtt: Some(Duration::from_millis(120)), ..sample(40_000, 0, MSS) };
        cc.cong_control(&mut w, &at(10_001, 100_000, 80 * MSS), &late);
        assert_eq!((cc.mode(), w.cwnd), (Mode::ProbeRtt, 4 * MSS));
        assert_eq!(cc.min_rtt, Some(Duration::from_millis(120)), "an expired filter takes any sample");
        assert_eq!(cc.prior_cwnd, 80);
        // The flight falls to 4: 200 ms and a round later it is over, and
        // the window from before comes back.
        cc.cong_control(&mut w, &at(10_100, 150_000, 4 * MSS), &late);
        let done = cc.probe_rtt_done.expect("timed");
        assert_eq!(done, ms(10_300));
        let round_end = RateSample { prior_delivered: Some(150_000), ..late };
        cc.cong_control(&mut w, &at(10_200, 151_000, 4 * MSS), &round_end);
        assert_eq!(cc.mode(), Mode::ProbeRtt, "a round, but not 200 ms");
        cc.cong_control(&mut w, &at(10_301, 152_000, 4 * MSS), &late);
        assert_eq!(cc.mode(), Mode::ProbeBw);
        assert!(w.cwnd >= 80 * MSS);
        assert!(cc.is_app_limited(&RateSample { prior_delivered: Some(150_500), ..RateSample::default() }));
    }

    #[test]
    fn recovery_conserves_packets_in_its_first_round_and_restores_after() {
        let mut cc = bbr();
        let mut w = window(60 * MSS, 0);
        cc.full_bw_reached = true;
        cc.min_rtt = Some(Duration::from_millis(100));
        cc.bw.reset(0, 400.0);
        cc.mode = Mode::ProbeBw;
        cc.update_gains();
        assert_eq!(cc.ssthresh(&w, &at(0, 0, 0)), 0, "ssthresh stays");
        assert_eq!(cc.prior_cwnd, 60);
        let recovering = Conn { state: CaState::Recovery, ..at(1, 10_000, 30 * MSS) };
        cc.cong_control(&mut w, &recovering, &sample(40_000, 0, MSS));
        assert_eq!(w.cwnd, 31 * MSS, "in flight + acked");
        let open = at(500, 20_000, 30 * MSS);
        cc.cong_control(&mut w, &open, &sample(40_000, 0, MSS));
        // The window before recovery comes back, and grows by the packet
        // this ACK delivered (the target, 2 x 40 + 6 + 2, is above).
        assert_eq!(w.cwnd, 61 * MSS);
    }

    #[test]
    fn long_term_sampling_paces_at_a_policers_rate() {
        // Two 4-round intervals of 25% loss at 200 and 210 packets/s: within
        // 1/8 of each other, so BBR paces at their mean, 205.
        let mut cc = bbr();
        cc.min_rtt = Some(Duration::from_millis(100));
        let (mut t, mut delivered) = (0u64, 0u64);
        for rate in [200u64, 210] {
            let mut rs = sample(0, 0, MSS);
            rs.losses = MSS;
            cc.lost += u64::from(rs.losses);
            let c = at(t, delivered, 0);
            cc.round_start = false;
            cc.lt_sampling(&c, &rs);
            for _ in 0..4 {
                t += 100;
                delivered += rate * 100;
                cc.lost += rate * 100 / 4;
                cc.round_start = true;
                cc.lt_sampling(&at(t, delivered, 0), &rs);
            }
        }
        assert!(cc.lt.use_bw);
        assert!((cc.bandwidth() - 205.0).abs() < 1e-9, "{}", cc.bandwidth());
    }
}
