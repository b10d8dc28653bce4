//! A TCP connection between two nodes and the application driving it.
//!
//! The flow owns both endpoints. The simulation hands it segments and
//! timer expiries; the flow runs the applications' reactions (respond to a
//! request, close on end of stream) and reports what must be sent.

use crate::label::FlowLabel;
use crate::wake::TimerEvents;
use ackclock_core::{Duration, Instant, Mrg32k3a, OrderKey, SimRng, PS_PER_SEC};
use ackclock_tcp::rtt::Ns2Rtt;
use ackclock_tcp::{Endpoint, Reader, State, TcpConfig, Timer};
use ackclock_trace::VarValue;
use rand::RngExt;
use rand_distr::{Distribution, Exp};

/// What the application on top of the connection does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TcpApp {
    /// Sends `bytes` (or forever, like ns-2's FTP) and closes.
    Bulk { bytes: Option<u64> },
    /// Writes `packet_size` bytes at exponentially distributed intervals.
    Telnet { mean_interval: Duration, packet_size: u32 },
    /// `count` exchanges: the client sends `request` bytes, the server
    /// answers with `response` bytes, the client thinks for `think`.
    RequestResponse { request: u64, response: u64, count: u32, think: Duration },
    /// Writes only what its user asks for, when asked (ns-2's agents
    /// driven by `advance`, `send` and `close`; see `Simulation::tcp_write`).
    Manual,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TcpFlowConfig {
    pub client: TcpConfig,
    pub server: TcpConfig,
    pub app: TcpApp,
    /// When the client connects.
    pub start: Instant,
    /// When the server starts listening; until then its port is closed.
    pub server_start: Instant,
    /// How the server application reads what arrives.
    pub reader: Reader,
    /// Record the client's window variables over time.
    pub record_series: bool,
    /// The flow's identity in headers and traces; `None` picks unique
    /// ports and uses the flow's index as its id.
    pub label: Option<FlowLabel>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Client,
    Server,
}

/// An endpoint's running timers and their places in ns-2's order: ns-2
/// schedules each timer as an event of its own when it is set, at the
/// double time of the event setting it plus the timeout as ns-2 computes it.
#[derive(Clone, Copy, Debug)]
pub struct Ns2Timers {
    /// Each timer's deadline in picoseconds when last seen, `u64::MAX` when
    /// it was not running, in `Timer::ALL`'s order.
    deadlines: [u64; Timer::ALL.len()],
    /// The keys of those running.
    keys: [OrderKey; Timer::ALL.len()],
    /// The earliest running timer's time and key.
    earliest: Option<(Instant, OrderKey)>,
}

impl Default for Ns2Timers {
    fn default() -> Self {
        Ns2Timers { deadlines: [u64::MAX; Timer::ALL.len()], keys: [OrderKey::LAST; Timer::ALL.len()], earliest: None }
    }
}

impl Ns2Timers {
    /// Notes the timers of `ep` (re)set at `now` during the event `during`,
    /// with sequence numbers from `seq`; a send delay drawn now is noted with
    /// `send_delay`, its double. Returns the earliest timer's time and key.
    pub fn update(
        &mut self,
        ep: &Endpoint,
        (now, during): (Instant, OrderKey),
        send_delay: Option<f64>,
        mut seq: impl FnMut() -> u64,
    ) -> Option<(Instant, OrderKey)> {
        // Many events leave every timer as it was: nothing to key. (Folded,
        // not `==`, which calls memcmp.)
        let deadlines = ep.deadlines().map(|d| d.map_or(u64::MAX, Instant::as_ps));
        if deadlines.iter().zip(&self.deadlines).fold(true, |same, (a, b)| same & (a == b)) {
            return self.earliest;
        }
        let parent = during.ns2_time();
        let mut earliest: Option<(Instant, OrderKey)> = None;
        for (i, timer) in Timer::ALL.into_iter().enumerate() {
            if deadlines[i] == u64::MAX {
                continue;
            }
            let t = Instant::from_ps(deadlines[i]);
            if deadlines[i] != self.deadlines[i] {
                let timeout = match (timer, send_delay) {
                    (Timer::SendDelay, Some(delay)) => delay,
                    _ => ns2_timeout(timer, t.saturating_since(now), ep.config()),
                };
                self.keys[i] = OrderKey::ns2(parent + timeout, parent, seq());
            }
            if earliest.is_none_or(|(_, key)| self.keys[i] < key) {
                earliest = Some((t, self.keys[i]));
            }
        }
        self.deadlines = deadlines;
        self.earliest = earliest;
        earliest
    }
}

/// A timeout as ns-2's double: the retransmission timeout is a whole
/// number of ticks times tcpTick_ (tcp.cc's rtt_timeout); other timeouts are
/// the script's own values.
fn ns2_timeout(timer: Timer, timeout: Duration, config: &TcpConfig) -> f64 {
    let tick = config.clock_granularity;
    if timer == Timer::Retransmission && tick > Duration::ZERO && timeout.as_ps().is_multiple_of(tick.as_ps()) {
        (timeout.as_ps() / tick.as_ps()) as f64 * secs(tick)
    } else {
        secs(timeout)
    }
}

/// A duration in seconds, correctly rounded (as ns-2 reads a script's value).
fn secs(d: Duration) -> f64 {
    d.as_ps() as f64 / PS_PER_SEC as f64
}

/// The variables recorded over time, in this order: the client's window
/// variables, the server's advertised window and the client's count of
/// congestion events (fast retransmits plus timeouts), which marks each
/// loss response even when it leaves cwnd and ssthresh where they were.
pub const SERIES_NAMES: [&str; 8] =
    ["cwnd", "ssthresh", "srtt", "rto", "bytes_in_flight", "rwnd", "loss_events", "pacing_rate"];

/// One recorded change: (time, variable index into SERIES_NAMES, value).
pub type SeriesPoint = (Instant, u8, f64);

pub struct TcpFlow {
    pub config: TcpFlowConfig,
    pub client: Endpoint,
    pub server: Endpoint,
    /// Each endpoint's pending timer events.
    pub timer_events: [TimerEvents; 2],
    /// Under ns-2's order: each endpoint's running timers with their keys.
    pub ns2_timers: [Ns2Timers; 2],
    pub client_started: bool,
    pub server_started: bool,
    rng: SimRng,
    /// When the client application writes next (telnet keystroke, request
    /// after a think time).
    next_write: Option<Instant>,
    exchanges_done: u32,
    requests_served: u64,
    pub completed_at: Option<Instant>,
    /// For each side, the received byte count at which the front end wants
    /// a notice (`Simulation::watch_received`).
    pub watch: [Option<u64>; 2],
    pub series: Vec<SeriesPoint>,
    last_values: [f64; SERIES_NAMES.len()],
    /// The integral of the client's cwnd over time (byte-picoseconds) up to
    /// `cwnd_at`'s time, and cwnd since then.
    cwnd_area: u128,
    cwnd_at: Option<(Instant, u32)>,
    /// Per side, window cuts (fast retransmits, timeouts, idle restarts)
    /// already marked in traces with ns-2's `A` flag.
    marked_cuts: [u64; 2],
    /// Last values written to an ns-2 variable trace.
    last_ns2_vars: [Option<VarValue>; NS2_VARS.len()],
    /// The client's timeouts when its variables were last traced.
    traced_timeouts: u64,
    /// For ns-2's event trace of the client, when asked.
    events: Option<Box<EventWatch>>,
}

/// What ns-2's event trace needs to know of a sender: what its agent calls
/// its fast retransmit, and its counts and variables as its last sending
/// left them (ns-2 writes an event's t_seqno_ and cwnd_ as they were when
/// the event began, and the SLOW_START of the window cut after it).
#[derive(Clone, Copy, Debug)]
struct EventWatch {
    fast_retransmit: &'static str,
    fast_retransmits: u64,
    timeouts: u64,
    dupacks: u64,
    t_seqno: i64,
    cwnd: f64,
    ssthresh: i64,
    ack: i64,
    /// Newreno: duplicate ACKs since the last new one (ns-2's dupacks_),
    /// and maxseq_ at the fast retransmit (recover_) while in its recovery.
    dupacks_in_a_row: u64,
    recover: Option<i64>,
}

/// What Newreno's event trace calls each duplicate ACK beyond the
/// retransmitting one in its fast recovery.
const NEWRENO_RECOVERY: &str = "NEWRENO_FAST_RECOVERY";
const NEWRENO_RETRANSMIT: &str = "NEWRENO_FAST_RETX";

/// Segments (the last may be short) covered by send offsets 1..end, as
/// ns-2 numbers packets: after the SYN's packet 0 when there is one
/// (`handshake`); -1 before anything.
fn ns2_packets(end: u64, mss: u32, handshake: bool) -> i64 {
    let mss = i64::from(mss.max(1));
    if end == 0 {
        -1
    } else {
        ((end as i64 - 1 + mss - 1).div_euclid(mss) - i64::from(!handshake)).max(-1)
    }
}

/// The sender variables ns-2 scripts trace, in ns-2's units: cwnd_ in
/// packets (without fast-recovery inflation, as ns-2 shows it), ssthresh_,
/// ack_ and maxseq_ in packets, rtt_ in clock ticks, srtt_ and rttvar_ in
/// eighths and quarters of a tick, backoff_ the RTO's multiplier.
pub const NS2_VARS: [&str; 8] = ["cwnd_", "ssthresh_", "ack_", "maxseq_", "rtt_", "srtt_", "rttvar_", "backoff_"];

/// The order in which ns-2 updates them (indices into NS2_VARS) on an ACK:
/// a loss cuts ssthresh_ before cwnd_; an ACK moves ack_, ends the backoff
/// and updates the estimator before cwnd_ grows.
const ACK_ORDER: [usize; 8] = [1, 2, 7, 4, 5, 6, 0, 3];
/// ... and on a timeout: the window closes, then the backoff doubles (and
/// may clear srtt_ into rttvar_).
const TIMEOUT_ORDER: [usize; 8] = [1, 0, 7, 6, 5, 2, 3, 4];

impl TcpFlow {
    /// With ns-2's tick clock, the client's clock phase (ns-2's boot_time_),
    /// unless the configuration gives it, comes from the flow's `rng`.
    pub fn new(config: TcpFlowConfig, client_port: u16, server_port: u16, iss: (u32, u32), mut rng: SimRng) -> Self {
        let mut client_config = config.client.clone();
        if client_config.ns2_clock && client_config.clock_phase.is_none() {
            let tick = client_config.clock_granularity.as_ps() as f64;
            client_config.clock_phase = Some(Duration::from_ps((rng.random::<f64>() * tick) as u64));
        }
        TcpFlow {
            client: Endpoint::new(client_config, client_port, server_port, iss.0),
            server: Endpoint::new(config.server.clone(), server_port, client_port, iss.1),
            config,
            timer_events: Default::default(),
            ns2_timers: Default::default(),
            client_started: false,
            server_started: false,
            rng,
            next_write: None,
            exchanges_done: 0,
            requests_served: 0,
            completed_at: None,
            watch: [None; 2],
            series: Vec::new(),
            last_values: [f64::NAN; SERIES_NAMES.len()],
            cwnd_area: 0,
            cwnd_at: None,
            last_ns2_vars: [None; NS2_VARS.len()],
            traced_timeouts: 0,
            events: None,
            marked_cuts: [0; 2],
        }
    }

    /// Hands `side` the random send delay it waits for (ns-2's `overhead_`),
    /// drawn from `shared` (ns-2's default generator) when given, else from
    /// the flow's own stream. Returns the delay as ns-2's double.
    pub fn draw_send_delay(&mut self, now: Instant, side: Side, shared: Option<&mut Mrg32k3a>) -> Option<f64> {
        if !self.endpoint(side).wants_send_delay() {
            return None;
        }
        let u = match shared {
            Some(g) => g.next_u01(),
            None => self.rng.random(),
        };
        let ep = self.endpoint(side);
        let max = ep.config().send_overhead;
        ep.delay_sending(now, Duration::from_ps((u * max.as_ps() as f64) as u64));
        // ns-2: Random::uniform(overhead_), overhead_ * u.
        Some(secs(max) * u)
    }

    pub fn endpoint(&mut self, side: Side) -> &mut Endpoint {
        match side {
            Side::Client => &mut self.client,
            Side::Server => &mut self.server,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self.config.app {
            TcpApp::Bulk { .. } => "tcp_bulk",
            TcpApp::Telnet { .. } => "tcp_telnet",
            TcpApp::RequestResponse { .. } => "tcp_request_response",
            TcpApp::Manual => "tcp_manual",
        }
    }

    /// Starts whichever side is due and makes due writes; returns the next
    /// time the applications want to be woken.
    pub fn on_app_wake(&mut self, now: Instant) -> Option<Instant> {
        if !self.server_started && now >= self.config.server_start {
            self.server_started = true;
            self.server.listen();
            self.server.set_reader(now, self.config.reader);
        }
        if !self.client_started && now >= self.config.start {
            self.client_started = true;
            if self.config.client.handshake {
                self.client.connect();
            } else {
                // ns-2's one-way agents with syn_ false: no SYN, data at once.
                let (client_iss, server_iss) = (self.client.iss(), self.server.iss());
                self.server.open_established(now, client_iss);
                self.client.open_established(now, server_iss);
            }
            match self.config.app {
                TcpApp::Bulk { bytes: Some(b) } => {
                    self.client.write(b);
                    self.client.close();
                }
                TcpApp::Bulk { bytes: None } => self.client.write_unlimited(),
                TcpApp::RequestResponse { request, .. } => self.client.write(request),
                TcpApp::Telnet { .. } => self.next_write = Some(now),
                TcpApp::Manual => {}
            }
        }
        if self.next_write.is_some_and(|t| t <= now) {
            self.next_write = None;
            match self.config.app {
                TcpApp::Telnet { mean_interval, packet_size } => {
                    self.client.write(u64::from(packet_size));
                    let gap: f64 = Exp::new(1.0).expect("rate 1 is valid").sample(&mut self.rng);
                    self.next_write =
                        Some(now + Duration::from_ps((gap * mean_interval.as_ps() as f64).round() as u64));
                }
                TcpApp::RequestResponse { request, .. } => self.client.write(request),
                TcpApp::Bulk { .. } | TcpApp::Manual => {}
            }
        }
        [self.config.server_start, self.config.start].into_iter().filter(|&t| t > now).chain(self.next_write).min()
    }

    /// The applications' reactions after `side` processed input; returns a
    /// time to wake the client application (a think time), if any.
    pub fn after_input(&mut self, now: Instant, side: Side) -> Option<Instant> {
        let mut wake = None;
        match (side, self.config.app) {
            (Side::Server, TcpApp::RequestResponse { request, response, .. }) => {
                let complete_requests = self.server.bytes_received() / request.max(1);
                while self.requests_served < complete_requests {
                    self.server.write(response);
                    self.requests_served += 1;
                }
            }
            (Side::Client, TcpApp::RequestResponse { response, count, think, .. }) => {
                let answered = (self.client.bytes_received() / response.max(1)) as u32;
                if answered > self.exchanges_done {
                    self.exchanges_done = answered.min(count);
                    if self.exchanges_done >= count {
                        self.completed_at.get_or_insert(now);
                        self.client.close();
                    } else {
                        self.next_write = Some(now + think);
                        wake = self.next_write;
                    }
                }
            }
            (Side::Server, TcpApp::Bulk { bytes: Some(b) }) if self.server.bytes_received() >= b => {
                self.completed_at.get_or_insert(now);
            }
            _ => {}
        }
        // Every server application closes when it reads the end of the stream.
        if self.server.state() == State::CloseWait {
            self.server.close();
        }
        wake
    }

    /// Whether `side` cut its window since its last segment marked so: its
    /// next segment carries ns-2's congestion-action flag.
    pub fn congestion_action_due(&mut self, side: Side) -> bool {
        let s = self.endpoint(side).stats();
        let cuts = s.fast_retransmits + s.timeouts + s.idle_restarts;
        std::mem::replace(&mut self.marked_cuts[side as usize], cuts) < cuts
    }

    /// Follows the client's events for ns-2's event trace; `fast_retransmit`
    /// is what its agent calls a fast retransmit (FAST_RETX, RENO_FAST_RETX,
    /// NEWRENO_FAST_RETX, FAST_RECOVERY).
    pub fn watch_events(&mut self, fast_retransmit: &'static str) {
        let mut watch = EventWatch {
            fast_retransmit,
            fast_retransmits: 0,
            timeouts: 0,
            dupacks: 0,
            t_seqno: 0,
            cwnd: 0.0,
            ssthresh: 0,
            ack: -1,
            dupacks_in_a_row: 0,
            recover: None,
        };
        self.note_events_seen(&mut watch);
        self.events = Some(Box::new(watch));
    }

    /// The client's events since its last sending, in ns-2's order, each
    /// with t_seqno_ and whole cwnd_ as ns-2's trace shows them: a timeout
    /// or fast retransmit, then SLOW_START if the cut began in slow start or
    /// left cwnd_ at 1 (tcp.cc's slowdown); for Newreno, each duplicate ACK
    /// beyond the third in its fast recovery (tcp-newreno.cc).
    pub fn ns2_events(&mut self) -> Vec<(&'static str, i64, i64)> {
        let Some(mut watch) = self.events.as_deref().copied() else { return Vec::new() };
        let stats = self.client.stats();
        let vars = self.ns2_vars();
        let VarValue::Int(ack) = vars[2] else { unreachable!("ack_ is a count") };
        let mut events = Vec::new();
        if watch.fast_retransmit == NEWRENO_RETRANSMIT {
            if ack > watch.ack {
                // A new ACK outside the recovery, or one reaching recover_,
                // ends it and clears ns-2's dupacks_; a partial ACK keeps both.
                if watch.recover.is_none_or(|recover| ack >= recover) {
                    watch.dupacks_in_a_row = 0;
                    watch.recover = None;
                }
            } else if stats.dupacks_received > watch.dupacks {
                watch.dupacks_in_a_row += 1;
                if watch.dupacks_in_a_row > 3 && watch.recover.is_some() {
                    events.push((NEWRENO_RECOVERY, watch.t_seqno, watch.cwnd as i64));
                }
            }
        }
        let cut = if stats.timeouts > watch.timeouts {
            Some("TIMEOUT")
        } else if stats.fast_retransmits > watch.fast_retransmits {
            Some(watch.fast_retransmit)
        } else {
            None
        };
        if let Some(name) = cut {
            events.push((name, watch.t_seqno, watch.cwnd as i64));
            let (VarValue::Real(cwnd), VarValue::Int(maxseq)) = (vars[0], vars[3]) else {
                unreachable!("cwnd_ is a real, maxseq_ a count")
            };
            if watch.cwnd < watch.ssthresh as f64 || cwnd == 1.0 {
                events.push(("SLOW_START", watch.t_seqno, cwnd as i64));
            }
            watch.recover = (name == NEWRENO_RETRANSMIT).then_some(maxseq);
        }
        self.note_events_seen(&mut watch);
        self.events = Some(Box::new(watch));
        events
    }

    /// Remembers the client's state after it sent, for its next events.
    pub fn note_sent_for_events(&mut self) {
        if let Some(mut watch) = self.events.as_deref().copied() {
            self.note_events_seen(&mut watch);
            self.events = Some(Box::new(watch));
        }
    }

    fn note_events_seen(&self, watch: &mut EventWatch) {
        let c = &self.client;
        let vars = self.ns2_vars();
        let (VarValue::Real(cwnd), VarValue::Int(ssthresh)) = (vars[0], vars[1]) else {
            unreachable!("cwnd_ is a real, ssthresh_ a count")
        };
        watch.fast_retransmits = c.stats().fast_retransmits;
        watch.timeouts = c.stats().timeouts;
        watch.dupacks = c.stats().dupacks_received;
        let VarValue::Int(ack) = vars[2] else { unreachable!("ack_ is a count") };
        watch.ack = ack;
        watch.t_seqno = ns2_packets(c.snd_nxt(), c.mss(), c.config().handshake) + 1;
        watch.cwnd = cwnd;
        watch.ssthresh = ssthresh;
    }

    /// The client's ns-2 variables whose values changed since last asked.
    pub fn changed_ns2_vars(&mut self) -> Vec<(&'static str, VarValue)> {
        let values = self.ns2_vars();
        let mut changed = Vec::new();
        let timeouts = self.client.stats().timeouts;
        let order =
            if std::mem::replace(&mut self.traced_timeouts, timeouts) < timeouts { TIMEOUT_ORDER } else { ACK_ORDER };
        for i in order {
            let v = values[i];
            if self.last_ns2_vars[i] != Some(v) {
                self.last_ns2_vars[i] = Some(v);
                changed.push((NS2_VARS[i], v));
            }
        }
        changed
    }

    /// The client's ns-2 variables now, remembered as already traced.
    pub fn initial_ns2_vars(&mut self) -> [VarValue; NS2_VARS.len()] {
        let values = self.ns2_vars();
        self.last_ns2_vars = values.map(Some);
        values
    }

    pub fn ns2_vars(&self) -> [VarValue; NS2_VARS.len()] {
        let c = &self.client;
        let mss = i64::from(c.mss().max(1));
        let tick = c.config().clock_granularity.as_ps().max(1) as f64;
        let rtt = c.rtt_estimator();
        // ns-2's own variables, or the same units from an RFC 6298 estimator.
        let ns2 = rtt.ns2_state().unwrap_or(Ns2Rtt {
            rtt: c.stats().last_rtt.map_or(0, |r| (r.as_ps() as f64 / tick) as i64),
            srtt8: c.srtt().map_or(0, |s| (s.as_ps() as f64 / tick * 8.0).round() as i64),
            rttvar4: (rtt.rttvar().as_ps() as f64 / tick * 4.0).round() as i64,
        });
        // Seconds as ns-2's trace computes them (count * tcp_tick_ / divisor),
        // which decides how a value such as 0.1425 rounds to three places.
        let tick_secs = tick / 1e12;
        let ticks =
            |raw: i64, count: i64, divisor: f64| VarValue::Ticks { raw, secs: count as f64 * tick_secs / divisor };
        let packets = |end: u64| ns2_packets(end, c.mss(), c.config().handshake);
        // ns-2's cwnd_ is 1 until the SYN is acknowledged.
        let cwnd = if c.snd_una() == 0 { 1.0 } else { c.cwnd_packets() };
        [
            VarValue::Real(cwnd),
            VarValue::Int(i64::from(c.ssthresh()) / mss),
            VarValue::Int(packets(c.snd_una())),
            VarValue::Int(packets(c.snd_max())),
            ticks(ns2.rtt, ns2.rtt, 1.0),
            ticks(ns2.srtt8, ns2.srtt8 >> 3, 1.0),
            ticks(ns2.rttvar4, ns2.rttvar4, 4.0),
            VarValue::Int(rtt.backoff_factor() as i64),
        ]
    }

    /// Accumulates the client's cwnd over time, from its start until the
    /// transfer completes.
    #[inline]
    pub fn note_cwnd(&mut self, now: Instant) {
        if !self.client_started || self.completed_at.is_some() {
            return;
        }
        if let Some((since, cwnd)) = self.cwnd_at {
            self.cwnd_area += u128::from((now - since).as_ps()) * u128::from(cwnd);
        }
        self.cwnd_at = Some((now, self.client.cwnd()));
    }

    /// The time average of the client's cwnd in bytes from its start until
    /// the transfer completed, or until `now`.
    pub fn mean_cwnd(&self, now: Instant) -> Option<f64> {
        let (since, cwnd) = self.cwnd_at?;
        let end = self.completed_at.unwrap_or(now).max(since);
        let area = self.cwnd_area + u128::from((end - since).as_ps()) * u128::from(cwnd);
        let span = end.saturating_since(self.config.start).as_ps();
        (span > 0).then(|| area as f64 / span as f64)
    }

    /// Records the client's window variables that changed.
    pub fn sample_series(&mut self, now: Instant) {
        if !self.config.record_series {
            return;
        }
        let c = &self.client;
        let secs = |d: Option<Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64());
        let values = [
            f64::from(c.cwnd()),
            f64::from(c.ssthresh()),
            secs(c.srtt()),
            c.rto().as_secs_f64(),
            c.bytes_in_flight() as f64,
            self.server.receive_window() as f64,
            (c.stats().fast_retransmits + c.stats().timeouts) as f64,
            c.pacing_rate().map_or(f64::NAN, |r| r.bps() as f64),
        ];
        for (i, v) in values.into_iter().enumerate() {
            let unchanged = v == self.last_values[i] || (v.is_nan() && self.last_values[i].is_nan());
            if !unchanged {
                self.series.push((now, i as u8, v));
                self.last_values[i] = v;
            }
        }
    }
}
