//! Congestion control: the interface every algorithm implements, modelled
//! on Linux's `tcp_congestion_ops` and ns-3's `TcpCongestionOps`, and the
//! registry of algorithms by name (registry.rs). One file per algorithm
//! (or family); the endpoint dispatches through [`Cc`] by `match`, so no
//! trait object sits on the per-packet path.
//!
//! An algorithm never touches the connection. It sees read-only facts
//! ([`Conn`], [`RateSample`]) and reads and writes only the [`Window`]:
//! cwnd, ssthresh and the pacing rate. The endpoint owns loss detection and
//! recovery (which segments to send, fast recovery's window inflation, the
//! loss window after a timeout) and asks the algorithm at each decision:
//!
//! | hook | when (Linux) |
//! |------|--------------|
//! | `ssthresh` | a congestion event: loss detected, timeout, ECN echo (`ssthresh`) |
//! | `cong_avoid` | an ACK that advanced the cumulative ACK outside recovery (`cong_avoid`) |
//! | `cong_control` | every ACK, instead of the endpoint's own window rules, for an algorithm that owns the window (BBR, `cong_control`) |
//! | `pkts_acked` | every ACK that delivered data, with a rate sample (`pkts_acked`, `tcp_rate.c`) |
//! | `cwnd_event` | transmission start, idle restart, ECN, recovery start and end, timeout (`cwnd_event`, `set_state`) |
//! | `check_loss` | duplicate and new ACKs, for an algorithm that `detects_loss` by time (Vegas) |
//! | `undo` | a congestion response turned out spurious (`undo_cwnd`) |
//!
//! Wherever the endpoint itself sets cwnd (the initial window, the window
//! on entering recovery, the loss window after a timeout) it then raises the
//! matching event, so an algorithm that keeps its own count (ns-2's cwnd_ as
//! a double) can set cwnd again.

mod bbr;
mod compound;
mod cubic;
mod dctcp;
mod highspeed;
#[cfg(test)]
mod hook_tests;
mod linux_reno;
mod ns2;
mod ns2_vegas;
mod registry;
mod reno;
mod rounds;
mod vegas;

pub use bbr::{Bbr, Mode as BbrMode};
pub use compound::Compound;
pub use cubic::Cubic;
pub use dctcp::Dctcp;
pub use highspeed::HighSpeed;
pub use linux_reno::LinuxReno;
pub use ns2::Ns2Reno;
pub use ns2_vegas::Ns2Vegas;
pub use registry::{Algorithm, CcKind, CcParams, Flavour, ParamError, ParamInfo, ParamKind};
pub use reno::{Reno, RenoGrowth};
pub use rounds::{RoundRtt, RoundRtts, Rounds};
pub use vegas::Vegas;

use ackclock_core::{Bandwidth, Duration, Instant};

/// What an algorithm controls. Sizes in bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub cwnd: u32,
    pub ssthresh: u32,
    /// The rate at which the endpoint spaces its segments; `None` sends as
    /// fast as the window allows.
    pub pacing_rate: Option<Bandwidth>,
}

/// Linux's congestion-avoidance states (`tcp_ca_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaState {
    Open,
    /// Duplicate ACKs or SACKs seen, no loss declared yet.
    Disorder,
    /// Reducing the window after an ECN echo (RFC 3168 §6.1.2).
    Cwr,
    /// Fast recovery after fast retransmit.
    Recovery,
    /// After a retransmission timeout (or Tahoe's fast retransmit).
    Loss,
}

/// Read-only facts about the connection when a hook is called.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Conn {
    pub now: Instant,
    /// The sender's segment size.
    pub mss: u32,
    /// RFC 5681's FlightSize: bytes sent and not cumulatively acknowledged.
    pub bytes_in_flight: u32,
    /// Of the flight, bytes the peer has SACKed (Linux `sacked_out`): the
    /// flight less these is what is still in the network or lost.
    pub sacked: u32,
    pub srtt: Option<Duration>,
    /// The smallest RTT seen on the connection.
    pub min_rtt: Option<Duration>,
    pub state: CaState,
    /// Whether the window, not the application or the peer, limits sending
    /// (RFC 7661; Linux `tcp_is_cwnd_limited`).
    pub cwnd_limited: bool,
    /// Bytes delivered (cumulatively acknowledged or SACKed) so far: the
    /// draft's C.delivered, Linux `tp->delivered`. Packet-timed rounds
    /// ([`Rounds`]) compare it with a sample's `prior_delivered`.
    pub delivered: u64,
}

/// What one ACK delivered, with a delivery-rate sample
/// (draft-cheng-iccrg-delivery-rate-estimation; Linux `struct rate_sample`).
/// Sizes in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct RateSample {
    /// Newly acknowledged by the cumulative ACK.
    pub acked: u32,
    /// Newly delivered: cumulatively acknowledged or SACKed.
    pub acked_sacked: u32,
    /// Delivered over `interval`; both zero when no valid sample exists
    /// (no segment with send state was delivered, or the interval is
    /// shorter than the minimum RTT).
    pub delivered: u64,
    pub interval: Duration,
    /// The connection's delivered count when the most recently sent segment
    /// this ACK delivered was sent (P.delivered, Linux
    /// `rs->prior_delivered`); `None` if no segment with send state was
    /// delivered. Set even when the rate sample itself is not valid.
    pub prior_delivered: Option<u64>,
    /// Of `delivered`, bytes whose ACKs carried ECN-Echo.
    pub delivered_ce: u64,
    /// RTT of the most recently sent segment this ACK delivered, unless it
    /// was retransmitted (Karn).
    pub rtt: Option<Duration>,
    /// Bytes in flight before this ACK.
    pub prior_in_flight: u32,
    /// The sample's segment was sent while the application left the window
    /// unused, so the rate may understate the path.
    pub is_app_limited: bool,
    /// Newly marked lost by this ACK.
    pub losses: u32,
    /// This ACK carried ECN-Echo.
    pub ece: bool,
}

impl RateSample {
    /// The delivery rate, if the sample is valid.
    pub fn delivery_rate(&self) -> Option<Bandwidth> {
        let ps = u128::from(self.interval.as_ps());
        if ps == 0 {
            return None;
        }
        let bps = u128::from(self.delivered) * 8 * u128::from(ackclock_core::PS_PER_SEC) / ps;
        Bandwidth::from_bps(bps.min(u128::from(u64::MAX)) as u64)
    }
}

/// Events an algorithm may react to (Linux `tcp_ca_event` and state changes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CwndEvent {
    /// The handshake fixed the segment size; cwnd is the initial window.
    Init,
    /// Data goes out with nothing in flight (`CA_EVENT_TX_START`).
    TxStart,
    /// The window was restarted after an idle period (RFC 5681 §4.1,
    /// `CA_EVENT_CWND_RESTART`).
    IdleRestart,
    /// Receiver: a CE-marked segment arrived after unmarked ones
    /// (`CA_EVENT_ECN_IS_CE`).
    EcnCe,
    /// Receiver: an unmarked segment arrived after CE-marked ones
    /// (`CA_EVENT_ECN_NO_CE`).
    EcnNoCe,
    /// An ECN echo started a window reduction; ssthresh was just set
    /// (RFC 3168 §6.1.2, state CWR).
    CwrStart,
    /// Loss was detected and recovery starts; ssthresh was just set and cwnd
    /// set to the recovery window (`CA_EVENT_LOSS` is `Rto`).
    RecoveryStart,
    /// Fast recovery or CWR ended on this ACK; cwnd is what recovery left
    /// (ssthresh, RFC 5681 §3.2 (6)). The endpoint does not also call
    /// `cong_avoid` for this ACK.
    RecoveryEnd,
    /// The retransmission timer expired; ssthresh was just set and cwnd is
    /// the loss window (RFC 5681 §3.1, `CA_EVENT_LOSS`).
    Rto,
    /// A NewReno partial ACK deflated fast recovery's window (RFC 6582
    /// §3.2 (5)) and acknowledged `excess` bytes beyond the inflation.
    PartialAck {
        excess: u32,
    },
    /// ns-2 (`ns2_ecn`): `ecn()` cuts the window, which fast recovery
    /// inflates by `inflation` packets (Reno's `dupwnd_`, in `windowd()`);
    /// ssthresh was set from the window alone.
    Ns2EcnCut {
        inflation: u32,
    },
    /// ns-2 (`ns2_ecn`): a new ACK carries ECN-Echo; `burst`: so did the
    /// previous new ACK. `EchoDone` follows once the ACK is taken.
    Ns2Echo {
        burst: bool,
    },
    Ns2EchoDone,
    /// The endpoint sets cwnd to `cwnd` bytes: ns-2's FullTcp inflates
    /// `cwnd_` itself in fast recovery without SACK, so a timeout halves the
    /// inflated window (sent before ssthresh is computed), and recovery ends
    /// with the inflated window, at most ssthresh (before `RecoveryEnd`).
    SetCwnd {
        cwnd: u32,
    },
    /// ns-2's `QOption_`: the sender idled for `halvings` RTOs (or RTTs)
    /// before sending again; ssthresh keeps three quarters of cwnd and cwnd
    /// halves `halvings` times (`slowdown(CWND_HALF_WITH_MIN)`).
    QuiescentIdle {
        halvings: u32,
    },
    /// ns-2's `QOption_`: the application left the window unused for an
    /// RTO (or two RTTs), in which at most `used` packets were out;
    /// ssthresh keeps three quarters of cwnd and cwnd goes half way down to
    /// `used` (`slowdown(CLOSE_CWND_HALF_WAY)`).
    AppLimited {
        used: u32,
    },
}

/// The first unacknowledged segment, for an algorithm that detects its loss
/// by time (Vegas's fine-grained timeouts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Oldest {
    /// When it was last sent.
    pub sent_at: Instant,
    /// Whether it was sent more than once.
    pub retransmitted: bool,
}

/// An algorithm's verdict on the first unacknowledged segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossCheck {
    /// The endpoint's own rules decide (DupThresh duplicate ACKs, SACK).
    Endpoint,
    /// It is lost: retransmit it now. On a duplicate ACK this is a fast
    /// retransmit (`ssthresh`, `RecoveryStart`); on a new ACK the segment
    /// is resent and recovery goes on without a window change (duplicate
    /// ACKs inflate, the next new ACK ends it with `RecoveryEnd`).
    Lost,
    /// Not lost, whatever the duplicate ACKs say.
    NotYet,
}

/// How the endpoint recovers from a loss signalled by duplicate ACKs
/// without SACK (with SACK every style but Tahoe recovers by RFC 6675).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryStyle {
    /// Fast retransmit, then slow start from one segment (no fast recovery).
    Tahoe,
    /// RFC 5681 fast recovery, left on the first new ACK.
    Reno,
    /// RFC 6582: partial ACKs retransmit the next hole and stay in recovery.
    NewReno,
}

/// The loss-recovery rules an algorithm runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecoveryRules {
    pub style: RecoveryStyle,
    /// RFC 6582 §3.2 (2): no new fast retransmit until everything sent
    /// before the last one is acknowledged (ns-2's `bug_fix_`).
    pub guard_recover: bool,
    /// RFC 3042's one segment per early duplicate ACK also while recovering
    /// from a timeout (ns-2's `singledup_` sends on any early duplicate).
    pub limited_transmit_after_rto: bool,
    /// A timeout during a loss episode (fast recovery, or after an earlier
    /// timeout, before `recover` is acknowledged) sets ssthresh again, as
    /// ns-2's `slowdown` does. Otherwise it is held: the episode already
    /// reduced it (RFC 5681 §3.1 for a repeated timeout, Linux
    /// `tcp_enter_loss` for a timeout in recovery). A lost SYN sets it
    /// too, from the window of the SYN alone.
    pub ssthresh_on_every_rto: bool,
    /// ns-2's duplicate ACKs: any ACK that repeats the last counts (ns-2's
    /// agents do not ask RFC 5681's condition (a), outstanding data).
    pub ns2_dupacks: bool,
    /// A timeout leaves the count of duplicate ACKs as it is: only a new
    /// ACK restarts it (ns-2's Tahoe; its Reno and later restart it).
    pub dupacks_survive_rto: bool,
    /// NewReno restarts the retransmission timer on the first partial ACK
    /// of a recovery only (RFC 6582's "Impatient" variant, ns-2's
    /// `newreno_changes1_`), not on each ("Slow-but-Steady").
    pub impatient: bool,
    /// A NewReno partial ACK takes what it acknowledged off the inflated
    /// window and adds back one MSS (RFC 6582 §3.2 (5), ns-2's
    /// `partial_window_deflation_`); false: the inflation ends there (ns-2's
    /// `partial_window_deflation_ 0`, `dupwnd_ = 0`).
    pub partial_deflation: bool,
    /// A full ACK that ends an inflated recovery sets cwnd to
    /// min(ssthresh, FlightSize + SMSS) (ns-2's `exit_recovery_fix_`: RFC
    /// 6582 §3.2 (6) option 1 without its floor of one SMSS on FlightSize);
    /// false: to ssthresh (option 2).
    pub exit_with_flight: bool,
    /// ns-2's `Agent/TCP/Sack1` (ns2_sack1.rs): its scoreboard gates the
    /// counting of duplicate ACKs (without SACK blocks such a sender never
    /// retransmits before a timeout) and its `pipe_` paces recovery.
    pub ns2_sack1: bool,
}

impl RecoveryRules {
    /// The RFCs' rules for a style: only classic Reno may fast-retransmit
    /// again within a window.
    pub const fn rfc(style: RecoveryStyle) -> Self {
        RecoveryRules {
            style,
            guard_recover: !matches!(style, RecoveryStyle::Reno),
            limited_transmit_after_rto: false,
            ssthresh_on_every_rto: false,
            ns2_dupacks: false,
            dupacks_survive_rto: false,
            impatient: false,
            partial_deflation: true,
            exit_with_flight: false,
            ns2_sack1: false,
        }
    }
}

/// A congestion-control algorithm. Only `name` and `cong_avoid` are
/// required; every other hook defaults to RFC 5681's behaviour or nothing.
pub trait CongestionOps {
    fn name(&self) -> &'static str;

    fn recovery_rules(&self) -> RecoveryRules {
        RecoveryRules::rfc(RecoveryStyle::NewReno)
    }

    /// ssthresh after a congestion event: RFC 5681 eq. (4) by default.
    fn ssthresh(&mut self, _w: &Window, c: &Conn) -> u32 {
        (c.bytes_in_flight / 2).max(2 * c.mss)
    }

    /// Window growth for an ACK that advanced the cumulative ACK outside
    /// recovery: `rs.acked` bytes newly acknowledged (RFC 5681 and RFC 3465
    /// count these), `rs.acked_sacked` newly delivered (Linux counts these).
    /// May change cwnd and ssthresh.
    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, rs: &RateSample);

    /// Whether `cong_control` replaces the endpoint's window rules (growth,
    /// and the recovery window) on every ACK.
    fn owns_window(&self) -> bool {
        false
    }

    /// For an algorithm that owns the window: sets cwnd and the pacing rate
    /// from each ACK's rate sample.
    fn cong_control(&mut self, _w: &mut Window, _c: &Conn, _rs: &RateSample) {}

    /// Called for every ACK that delivered data, before the window changes.
    fn pkts_acked(&mut self, _c: &Conn, _rs: &RateSample) {}

    fn cwnd_event(&mut self, _w: &mut Window, _c: &Conn, _event: CwndEvent) {}

    /// Whether the algorithm detects losses itself (`check_loss`).
    fn detects_loss(&self) -> bool {
        false
    }

    /// Whether the algorithm reads what per-segment send records give:
    /// the rate sample's delivery figures and RTT, `Conn::delivered`.
    fn reads_deliveries(&self) -> bool {
        true
    }

    /// For an algorithm that `detects_loss`: asked on every duplicate ACK
    /// (`dupacks`, the count so far) outside recovery, and on every new ACK
    /// (`None`) that leaves data outstanding, whether the first
    /// unacknowledged segment is lost.
    fn check_loss(&mut self, _c: &Conn, _dupacks: Option<u32>, _oldest: Oldest) -> LossCheck {
        LossCheck::Endpoint
    }

    /// The last window reduction was spurious (D-SACK, F-RTO or Eifel
    /// showed no loss): restore from the window before it. Linux's
    /// `tcp_undo_cwnd_reduction` with `tcp_reno_undo_cwnd`.
    fn undo(&mut self, w: &mut Window, _c: &Conn, before: &Window) {
        w.cwnd = w.cwnd.max(before.cwnd);
        w.ssthresh = w.ssthresh.max(before.ssthresh);
    }

    /// cwnd in segments, as ns-2's traced `cwnd_` shows it.
    fn cwnd_segments(&self, w: &Window, mss: u32) -> f64 {
        f64::from(w.cwnd) / f64::from(mss.max(1))
    }
}

/// A running algorithm, dispatched by `match`.
#[derive(Clone, Debug, PartialEq)]
pub enum Cc {
    Reno(Reno),
    LinuxReno(LinuxReno),
    Ns2Reno(Ns2Reno),
    Ns2RenoControlled(Ns2Reno<true>),
    Cubic(Box<Cubic>),
    HighSpeed(Box<HighSpeed>),
    Vegas(Box<Vegas>),
    Ns2Vegas(Box<Ns2Vegas>),
    Compound(Box<Compound>),
    Dctcp(Box<Dctcp>),
    Bbr(Box<Bbr>),
    #[cfg(test)]
    Recorder(hook_tests::Recorder),
}

macro_rules! dispatch {
    ($self:ident, $a:ident => $e:expr) => {
        match $self {
            Cc::Reno($a) => $e,
            Cc::LinuxReno($a) => $e,
            Cc::Ns2Reno($a) => $e,
            Cc::Ns2RenoControlled($a) => $e,
            Cc::Cubic($a) => $e,
            Cc::HighSpeed($a) => $e,
            Cc::Vegas($a) => $e,
            Cc::Ns2Vegas($a) => $e,
            Cc::Compound($a) => $e,
            Cc::Dctcp($a) => $e,
            Cc::Bbr($a) => $e,
            #[cfg(test)]
            Cc::Recorder($a) => $e,
        }
    };
}

impl CongestionOps for Cc {
    fn name(&self) -> &'static str {
        dispatch!(self, a => a.name())
    }
    fn recovery_rules(&self) -> RecoveryRules {
        dispatch!(self, a => a.recovery_rules())
    }
    fn ssthresh(&mut self, w: &Window, c: &Conn) -> u32 {
        dispatch!(self, a => a.ssthresh(w, c))
    }
    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        dispatch!(self, a => a.cong_avoid(w, c, rs))
    }
    fn owns_window(&self) -> bool {
        dispatch!(self, a => a.owns_window())
    }
    fn cong_control(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        dispatch!(self, a => a.cong_control(w, c, rs))
    }
    fn pkts_acked(&mut self, c: &Conn, rs: &RateSample) {
        dispatch!(self, a => a.pkts_acked(c, rs))
    }
    fn cwnd_event(&mut self, w: &mut Window, c: &Conn, event: CwndEvent) {
        dispatch!(self, a => a.cwnd_event(w, c, event))
    }
    fn detects_loss(&self) -> bool {
        dispatch!(self, a => a.detects_loss())
    }
    fn reads_deliveries(&self) -> bool {
        dispatch!(self, a => a.reads_deliveries())
    }
    fn check_loss(&mut self, c: &Conn, dupacks: Option<u32>, oldest: Oldest) -> LossCheck {
        dispatch!(self, a => a.check_loss(c, dupacks, oldest))
    }
    fn undo(&mut self, w: &mut Window, c: &Conn, before: &Window) {
        dispatch!(self, a => a.undo(w, c, before))
    }
    fn cwnd_segments(&self, w: &Window, mss: u32) -> f64 {
        dispatch!(self, a => a.cwnd_segments(w, mss))
    }
}

/// What an algorithm is built from: the connection's settings it needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcContext {
    /// RFC 3465 appropriate byte counting.
    pub abc: bool,
    /// The initial window in segments.
    pub initial_window: u32,
    /// The endpoint's cap on the send window in bytes (ns-2's `window_`).
    pub max_window: Option<u32>,
    /// Seeds an algorithm's own random choices (BBR's gain-cycle phase),
    /// so that a run is reproduced from its seed.
    pub seed: u64,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A connection with `mss` and `flight` bytes in flight, in state Open.
    pub fn conn(mss: u32, flight: u32) -> Conn {
        Conn {
            now: Instant::ZERO,
            mss,
            bytes_in_flight: flight,
            sacked: 0,
            srtt: None,
            min_rtt: None,
            state: CaState::Open,
            cwnd_limited: true,
            delivered: 0,
        }
    }

    /// What an algorithm is built with in tests.
    pub fn context(initial_window: u32) -> CcContext {
        CcContext { abc: false, initial_window, max_window: None, seed: 1 }
    }

    pub fn window(cwnd: u32, ssthresh: u32) -> Window {
        Window { cwnd, ssthresh, pacing_rate: None }
    }

    /// An ACK that newly acknowledged (and delivered) `bytes`.
    pub fn acked(bytes: u32) -> RateSample {
        RateSample { acked: bytes, acked_sacked: bytes, ..RateSample::default() }
    }

    #[test]
    fn default_ssthresh_is_half_the_flight_but_at_least_two_segments() {
        let mut cc = CcKind::Reno.build(&context(2), &CcParams::default());
        assert_eq!(cc.ssthresh(&window(20_000, 0), &conn(1000, 9_000)), 4_500);
        assert_eq!(cc.ssthresh(&window(2_000, 0), &conn(1000, 1_000)), 2_000);
    }

    #[test]
    fn default_undo_restores_the_larger_window_and_threshold() {
        let mut cc = CcKind::NewReno.build(&context(2), &CcParams::default());
        let mut w = window(5_000, 5_000);
        cc.undo(&mut w, &conn(1000, 0), &window(10_000, 8_000));
        assert_eq!((w.cwnd, w.ssthresh), (10_000, 8_000));
        cc.undo(&mut w, &conn(1000, 0), &window(4_000, 3_000));
        assert_eq!((w.cwnd, w.ssthresh), (10_000, 8_000), "never lowers");
    }

    #[test]
    fn delivery_rate_is_bytes_over_the_interval() {
        let rs = RateSample { delivered: 125_000, interval: Duration::from_millis(100), ..RateSample::default() };
        assert_eq!(rs.delivery_rate().map(|b| b.bps()), Some(10_000_000));
        assert_eq!(RateSample::default().delivery_rate(), None, "no interval, no sample");
    }
}
