//! ns-2 2.35's window arithmetic for `Agent/TCP` (Tahoe), `Agent/TCP/Reno`,
//! `Agent/TCP/Newreno` and `Agent/TCP/Sack1` (tcp.cc, tcp-reno.cc,
//! tcp-newreno.cc, tcp-sack1.cc), so that
//! the ns-2 profile computes windows as ns-2 does while the endpoint's
//! mechanics stay one TCP. docs/ns2-profile.md lists what else the profile
//! changes.
//!
//! * `cwnd_` is a double count of packets, without fast recovery's
//!   inflation (ns-2 keeps that in `dupwnd_`; the endpoint inflates).
//! * `opencwnd()`: one packet per new ACK in slow start (`cwnd_ <
//!   ssthresh_`), else `1 / cwnd_` (`wnd_option_` 1, `increase_num_` 1).
//! * `slowdown()`: a congestion event sets `ssthresh_` to
//!   max(2, int(min(cwnd_, window_) / 2)) packets. Tahoe's fast retransmit
//!   and every timeout restart from one packet; Reno and Newreno recover from
//!   the unrounded half window (29 -> 14.5 packets), and on the ACK that ends
//!   recovery open it at once.
//! * Recovery rules: like ns-2's `bug_fix_` (parameter `bug_fix`), no
//!   second fast retransmit before `recover` is acknowledged, Reno included; like `singledup_`,
//!   limited transmit also while recovering from a timeout; every timeout
//!   halves `ssthresh_` again.
//! * Sack1 windows as Reno does, except that the ACK ending recovery does
//!   not open the window; its scoreboard and pipe are the endpoint's
//!   (ns2_sack1.rs): with a sink that sends no SACK blocks, every loss
//!   waits for the timeout, as in ns-2.

use super::registry::{ParamInfo, ParamKind};
use super::{
    Cc, CcContext, CcParams, CongestionOps, Conn, CwndEvent, RateSample, RecoveryRules, RecoveryStyle, Window,
};

pub(super) const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "precision_reduce",
        kind: ParamKind::Flag,
        default: 1.0,
        min: 0.0,
        max: 1.0,
        help: "ns-2's precisionReduce_: a window cut halves cwnd_ exactly; 0 halves it in whole packets",
    },
    ParamInfo {
        name: "bug_fix",
        kind: ParamKind::Flag,
        default: 1.0,
        min: 0.0,
        max: 1.0,
        help: "ns-2's bugFix_: no second fast retransmit before recover is acknowledged; 0 allows it",
    },
    ParamInfo {
        name: "control_increase",
        kind: ParamKind::Flag,
        default: 0.0,
        min: 0.0,
        max: 1.0,
        help: "ns-2's control_increase_: a new ACK opens cwnd_ only if the window was full when it came",
    },
    ParamInfo {
        name: "old_ecn",
        kind: ParamKind::Flag,
        default: 0.0,
        min: 0.0,
        max: 1.0,
        help: "ns-2's old_ecn_: with ECN, only the first of consecutive ECN-Echo ACKs leaves cwnd_ as it is",
    },
    ParamInfo {
        name: "newreno_changes1",
        kind: ParamKind::Flag,
        default: 1.0,
        min: 0.0,
        max: 1.0,
        help: "ns-2's newreno_changes1_ (Newreno): the first partial ACK of a recovery restarts the timer; 0 each one does",
    },
    ParamInfo {
        name: "partial_window_deflation",
        kind: ParamKind::Flag,
        default: 1.0,
        min: 0.0,
        max: 1.0,
        help: "ns-2's partial_window_deflation_ (Newreno): a partial ACK deflates the inflated window; 0 ends the inflation",
    },
    ParamInfo {
        name: "exit_recovery_fix",
        kind: ParamKind::Flag,
        default: 0.0,
        min: 0.0,
        max: 1.0,
        help: "ns-2's exit_recovery_fix_ (Newreno): 1 ends recovery with cwnd_ at min(ssthresh_, the packets out + 1)",
    },
];

/// `CONTROL_INCREASE`: ns-2's `control_increase_`, open `cwnd_` only when
/// the network, not the application, limited sending (`network_limited`);
/// a type parameter, so that without it an ACK pays for no test.
#[derive(Clone, Debug, PartialEq)]
pub struct Ns2Reno<const CONTROL_INCREASE: bool = false> {
    style: RecoveryStyle,
    /// `Agent/TCP/Sack1`: duplicate ACKs count only with SACK news.
    sack1: bool,
    /// ns-2's `precisionReduce_`: halve `cwnd_` exactly, not in whole
    /// packets (`slowdown`'s int(window() / 2)).
    exact_halving: bool,
    /// ns-2's `bugFix_`: one fast retransmit per window of data.
    bug_fix: bool,
    /// Newreno's `newreno_changes1_`, `partial_window_deflation_` and
    /// `exit_recovery_fix_` (`RecoveryRules::impatient`,
    /// `partial_deflation`, `exit_with_flight`).
    impatient: bool,
    partial_deflation: bool,
    exit_with_flight: bool,
    /// ECN (`recv_newack_helper`): `old_ecn_`; `ect_`, set by the first
    /// new ACK with ECN-Echo; and whether the echo on this ACK keeps
    /// `opencwnd` from running (always once `ect_` is set; with `old_ecn_`
    /// not after another new ACK with the echo, `ecn_burst_`).
    old_ecn: bool,
    ect: bool,
    echo_holds: bool,
    /// Whether `ect_` was set when the last new ACK with the echo came
    /// (only then did that ACK start an `ecn_burst_`).
    ect_at_last_echo: bool,
    /// `cwnd_`, in packets.
    cwnd: f64,
    /// The initial window in packets, which a restart after idle goes back to.
    initial_window: f64,
    /// `window_` in bytes, the cap on the flight.
    max_window: Option<u32>,
    /// With `CONTROL_INCREASE`: the bytes out before the latest ACK.
    prior_in_flight: u32,
}

/// The running algorithm for `style` (`sack1`: Agent/TCP/Sack1's), with
/// `control_increase` if its parameter says so.
pub(super) fn build(style: RecoveryStyle, sack1: bool, ctx: &CcContext, params: &CcParams) -> Cc {
    if params.value(&PARAMS[2]) == 0.0 {
        Cc::Ns2Reno(Ns2Reno { sack1, ..Ns2Reno::new(style, ctx, params) })
    } else {
        Cc::Ns2RenoControlled(Ns2Reno { sack1, ..Ns2Reno::new(style, ctx, params) })
    }
}

impl<const CONTROL_INCREASE: bool> Ns2Reno<CONTROL_INCREASE> {
    pub fn new(style: RecoveryStyle, ctx: &CcContext, params: &CcParams) -> Self {
        let flag = |i: usize| params.value(&PARAMS[i]) != 0.0;
        Ns2Reno {
            style,
            sack1: false,
            exact_halving: flag(0),
            bug_fix: flag(1),
            old_ecn: flag(3),
            impatient: flag(4),
            partial_deflation: flag(5),
            exit_with_flight: flag(6),
            ect: false,
            echo_holds: false,
            ect_at_last_echo: false,
            // ns-2's cwnd_ while the SYN is out (`set_initial_window`).
            cwnd: 1.0,
            initial_window: f64::from(ctx.initial_window),
            max_window: ctx.max_window,
            prior_in_flight: 0,
        }
    }

    /// `network_limited()`, with `CONTROL_INCREASE` (else true): the
    /// packets out before the ACK filled window(), int(min(cwnd_, window_)).
    fn network_limited(&self, prior_in_flight: u32, mss: u32) -> bool {
        !CONTROL_INCREASE || prior_in_flight / mss.max(1) >= self.windowd(mss) as u32
    }

    /// `slowdown`'s half window: min(cwnd_, window_) / 2, or in whole
    /// packets without `precisionReduce_`.
    fn half_window(&self, mss: u32) -> f64 {
        self.half_of(self.windowd(mss))
    }

    fn half_of(&self, w: f64) -> f64 {
        if self.exact_halving {
            w / 2.0
        } else {
            (w.trunc() / 2.0).trunc()
        }
    }

    /// `slowdown(THREE_QUARTER_SSTHRESH)`: ssthresh_ at least
    /// int(3 cwnd_ / 4), and at least 2.
    fn keep_three_quarters(&self, w: &mut Window, mss: u32) {
        let packets = (w.ssthresh / mss).max((3.0 * self.cwnd / 4.0) as u32).max(2);
        w.ssthresh = packets * mss;
    }

    /// `windowd()`: min(cwnd_, window_) in packets.
    fn windowd(&self, mss: u32) -> f64 {
        let cap = self.max_window.map_or(f64::INFINITY, |w| f64::from(w) / f64::from(mss));
        self.cwnd.min(cap)
    }

    /// Sets `cwnd_` and the window the endpoint sends with.
    fn set(&mut self, w: &mut Window, mss: u32, packets: f64) {
        self.cwnd = packets;
        w.cwnd = (packets * f64::from(mss)) as u32;
    }

    /// `opencwnd()`, unless this ACK's ECN-Echo holds the window.
    fn open(&mut self, w: &mut Window, mss: u32) {
        if self.echo_holds {
            return;
        }
        let c = self.cwnd;
        let slow_start = c < f64::from(w.ssthresh) / f64::from(mss);
        self.set(w, mss, if slow_start { c + 1.0 } else { c + 1.0 / c });
    }
}

impl<const CONTROL_INCREASE: bool> CongestionOps for Ns2Reno<CONTROL_INCREASE> {
    fn name(&self) -> &'static str {
        match self.style {
            _ if self.sack1 => "ns2-sack1",
            RecoveryStyle::Tahoe => "ns2-tahoe",
            RecoveryStyle::Reno => "ns2-reno",
            RecoveryStyle::NewReno => "ns2-newreno",
        }
    }

    /// ns-2's windows count ACKs, not delivered bytes.
    fn reads_deliveries(&self) -> bool {
        false
    }

    fn recovery_rules(&self) -> RecoveryRules {
        RecoveryRules {
            style: self.style,
            guard_recover: self.bug_fix,
            limited_transmit_after_rto: true,
            ssthresh_on_every_rto: true,
            ns2_dupacks: true,
            dupacks_survive_rto: self.style == RecoveryStyle::Tahoe,
            impatient: self.impatient,
            partial_deflation: self.partial_deflation,
            exit_with_flight: self.exit_with_flight,
            ns2_sack1: self.sack1,
        }
    }

    fn ssthresh(&mut self, _w: &Window, c: &Conn) -> u32 {
        ((self.windowd(c.mss) / 2.0) as u32).max(2) * c.mss
    }

    fn pkts_acked(&mut self, _c: &Conn, rs: &RateSample) {
        if CONTROL_INCREASE {
            self.prior_in_flight = rs.prior_in_flight;
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        if self.network_limited(rs.prior_in_flight, c.mss) {
            self.open(w, c.mss);
        }
    }

    fn cwnd_event(&mut self, w: &mut Window, c: &Conn, event: CwndEvent) {
        match event {
            // The endpoint's initial window: `windowInit_`, or one packet
            // after a lost SYN (`bugfix_ss_`).
            CwndEvent::Init => self.set(w, c.mss, f64::from(w.cwnd / c.mss.max(1))),
            CwndEvent::Rto => self.set(w, c.mss, 1.0),
            CwndEvent::SetCwnd { cwnd } => self.set(w, c.mss, f64::from(cwnd) / f64::from(c.mss)),
            // `slowdown(CLOSE_CWND_INIT)`: ssthresh_ stays.
            CwndEvent::IdleRestart => self.set(w, c.mss, self.initial_window),
            CwndEvent::RecoveryStart if self.style == RecoveryStyle::Tahoe => self.set(w, c.mss, 1.0),
            CwndEvent::RecoveryStart => self.set(w, c.mss, self.half_window(c.mss)),
            // `ecn()`'s slowdown halves cwnd_, Tahoe's too (from one packet
            // to half a packet, which sends nothing until the timer
            // expires), and ssthresh_; Reno's window counts `dupwnd_`.
            CwndEvent::Ns2EcnCut { inflation } => {
                let cap = self.max_window.map_or(f64::INFINITY, |m| f64::from(m) / f64::from(c.mss));
                let half = self.half_of((self.cwnd + f64::from(inflation)).min(cap));
                w.ssthresh = (half as u32).max(2) * c.mss;
                self.set(w, c.mss, half);
            }
            CwndEvent::Ns2Echo { burst } => {
                let burst = burst && self.ect_at_last_echo;
                self.echo_holds = self.ect && !(self.old_ecn && burst);
                self.ect_at_last_echo = self.ect;
                self.ect = true;
            }
            CwndEvent::Ns2EchoDone => self.echo_holds = false,
            // Sack1 ends recovery with `newack` alone.
            CwndEvent::RecoveryEnd if !self.sack1 && self.network_limited(self.prior_in_flight, c.mss) => {
                self.open(w, c.mss)
            }
            // `partial_window_deflation_`: what the partial ACK covers beyond
            // the inflation (`dupwnd_`) comes off cwnd_ itself.
            CwndEvent::PartialAck { excess } if excess > 0 => {
                self.set(w, c.mss, (self.cwnd - f64::from(excess / c.mss)).max(1.0))
            }
            CwndEvent::QuiescentIdle { halvings } => {
                self.keep_three_quarters(w, c.mss);
                for _ in 0..halvings {
                    let half = self.half_window(c.mss);
                    self.set(w, c.mss, half.max(1.0));
                }
            }
            CwndEvent::AppLimited { used } => {
                self.keep_three_quarters(w, c.mss);
                let win = if self.exact_halving { self.windowd(c.mss) } else { self.windowd(c.mss).trunc() };
                let used = f64::from(used);
                self.set(w, c.mss, (used + (win - used) / 2.0).max(1.0));
            }
            _ => {}
        }
    }

    fn cwnd_segments(&self, _w: &Window, _mss: u32) -> f64 {
        self.cwnd
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{acked, conn, window};
    use super::*;

    fn agent(style: RecoveryStyle, cwnd: f64, max_window: Option<u32>) -> Ns2Reno {
        let ctx = CcContext { max_window, ..super::super::tests::context(2) };
        let mut a = Ns2Reno::new(style, &ctx, &CcParams::default());
        a.cwnd = cwnd;
        a
    }

    #[test]
    fn opencwnd_adds_a_packet_in_slow_start_and_one_over_cwnd_after() {
        let mut a = agent(RecoveryStyle::Reno, 4.0, None);
        let mut w = window(4000, 8000);
        a.cong_avoid(&mut w, &conn(1000, 4000), &acked(1000));
        assert_eq!((a.cwnd, w.cwnd), (5.0, 5000));
        let mut w = window(5000, 4000);
        a.cong_avoid(&mut w, &conn(1000, 5000), &acked(1000));
        assert_eq!((a.cwnd, w.cwnd), (5.2, 5200));
    }

    #[test]
    fn ssthresh_is_half_the_capped_window_in_whole_packets_at_least_two() {
        let mut a = agent(RecoveryStyle::Reno, 10.5, Some(9000));
        assert_eq!(a.ssthresh(&window(10_500, 0), &conn(1000, 0)), 4000, "int(min(10.5, 9) / 2)");
        let mut a = agent(RecoveryStyle::Reno, 3.0, None);
        assert_eq!(a.ssthresh(&window(3000, 0), &conn(1000, 0)), 2000);
    }

    #[test]
    fn reno_recovers_from_the_unrounded_half_window_and_opens_it_on_exit() {
        let mut a = agent(RecoveryStyle::Reno, 29.0, None);
        let mut w = window(29_000, 14_000);
        a.cwnd_event(&mut w, &conn(1000, 0), CwndEvent::RecoveryStart);
        assert_eq!((a.cwnd, w.cwnd), (14.5, 14_500));
        a.cwnd_event(&mut w, &conn(1000, 0), CwndEvent::RecoveryEnd);
        assert_eq!(a.cwnd, 14.5 + 1.0 / 14.5, "congestion avoidance at once");
        assert_eq!(a.cwnd_segments(&w, 1000), a.cwnd);
    }

    #[test]
    fn an_ecn_cut_halves_renos_inflated_window_and_one_packet_to_half() {
        // ns-2's Reno windowd() in fast recovery: cwnd_ + dupwnd_ = 6 + 3,
        // halved to 4.5, ssthresh_ 4; Tahoe at one packet: 0.5, ssthresh_ 2.
        let mut a = agent(RecoveryStyle::Reno, 6.0, None);
        let mut w = window(6000, 20_000);
        a.cwnd_event(&mut w, &conn(1000, 0), CwndEvent::Ns2EcnCut { inflation: 3 });
        assert_eq!((a.cwnd, w.cwnd, w.ssthresh), (4.5, 4500, 4000));
        let mut a = agent(RecoveryStyle::Tahoe, 1.0, None);
        a.cwnd_event(&mut w, &conn(1000, 0), CwndEvent::Ns2EcnCut { inflation: 0 });
        assert_eq!((a.cwnd, w.cwnd, w.ssthresh), (0.5, 500, 2000));
    }

    #[test]
    fn an_echo_holds_the_window_once_ect_is_set_and_with_old_ecn_not_in_a_burst() {
        let c = conn(1000, 0);
        for (old_ecn, opened) in [(false, [true, false, false]), (true, [true, false, true])] {
            let mut a = agent(RecoveryStyle::Reno, 2.0, None);
            a.old_ecn = old_ecn;
            let mut w = window(2000, 20_000);
            // Three new ACKs with the echo in a row: the first sets ect_.
            let seen: Vec<bool> = (0..3)
                .map(|i| {
                    let before = a.cwnd;
                    a.cwnd_event(&mut w, &c, CwndEvent::Ns2Echo { burst: i > 0 });
                    a.cong_avoid(&mut w, &c, &acked(1000));
                    a.cwnd_event(&mut w, &c, CwndEvent::Ns2EchoDone);
                    a.cwnd > before
                })
                .collect();
            assert_eq!(seen, opened, "old_ecn {old_ecn}");
        }
    }

    #[test]
    fn without_precision_reduce_the_half_window_is_whole_packets() {
        // ns-2's slowdown with precisionReduce_ false: int(int(29.7) / 2) = 14.
        let mut a = agent(RecoveryStyle::Reno, 29.7, None);
        a.exact_halving = false;
        let mut w = window(29_700, 14_000);
        a.cwnd_event(&mut w, &conn(1000, 0), CwndEvent::RecoveryStart);
        assert_eq!((a.cwnd, w.cwnd), (14.0, 14_000));
        let mut a = agent(RecoveryStyle::Reno, 29.7, None);
        a.cwnd_event(&mut w, &conn(1000, 0), CwndEvent::RecoveryStart);
        assert_eq!(a.cwnd, 14.85);
    }

    #[test]
    fn control_increase_opens_cwnd_only_after_a_full_window() {
        // cwnd_ 4.5: window() is 4 packets; 3 out before the ACK leave it
        // as it is, 4 open it by one packet (slow start).
        let ctx = super::super::tests::context(2);
        let mut a = Ns2Reno::<true> { cwnd: 4.5, ..Ns2Reno::new(RecoveryStyle::Tahoe, &ctx, &CcParams::default()) };
        let mut w = window(4500, 8000);
        let mut rs = acked(1000);
        rs.prior_in_flight = 3000;
        a.cong_avoid(&mut w, &conn(1000, 2000), &rs);
        assert_eq!(a.cwnd, 4.5);
        rs.prior_in_flight = 4000;
        a.cong_avoid(&mut w, &conn(1000, 3000), &rs);
        assert_eq!(a.cwnd, 5.5);
        // So does the ACK that ends Reno's recovery.
        a.style = RecoveryStyle::Reno;
        rs.prior_in_flight = 3000;
        a.pkts_acked(&conn(1000, 2000), &rs);
        a.cwnd_event(&mut w, &conn(1000, 2000), CwndEvent::RecoveryEnd);
        assert_eq!(a.cwnd, 5.5);
    }

    #[test]
    fn quiescence_keeps_three_quarters_in_ssthresh_and_cuts_cwnd() {
        // Idle for two RTOs: ssthresh_ max(4, int(3 * 10 / 4)) = 7, cwnd_
        // 10 -> 5 -> 2.5.
        let mut a = agent(RecoveryStyle::Tahoe, 10.0, None);
        let mut w = window(10_000, 4_000);
        a.cwnd_event(&mut w, &conn(1000, 0), CwndEvent::QuiescentIdle { halvings: 2 });
        assert_eq!((a.cwnd, w.ssthresh), (2.5, 7_000));
        // Application-limited with at most 3 packets out: half way from
        // window() 11.6 (in whole packets 11) down to 3.
        for (exact, cwnd) in [(true, 7.3), (false, 7.0)] {
            let mut a = agent(RecoveryStyle::Tahoe, 11.6, None);
            a.exact_halving = exact;
            let mut w = window(11_600, 20_000);
            a.cwnd_event(&mut w, &conn(1000, 0), CwndEvent::AppLimited { used: 3 });
            assert_eq!((a.cwnd, w.ssthresh), (cwnd, 20_000));
        }
    }

    #[test]
    fn tahoe_recovery_and_every_timeout_restart_from_one_packet() {
        let mut a = agent(RecoveryStyle::Tahoe, 12.0, None);
        let mut w = window(12_000, 6_000);
        a.cwnd_event(&mut w, &conn(1000, 0), CwndEvent::RecoveryStart);
        assert_eq!((a.cwnd, w.cwnd), (1.0, 1000));
        let mut a = agent(RecoveryStyle::NewReno, 12.0, None);
        a.cwnd_event(&mut w, &conn(1000, 0), CwndEvent::Rto);
        assert_eq!((a.cwnd, w.cwnd), (1.0, 1000));
    }

    #[test]
    fn init_counts_the_endpoints_initial_window_in_packets() {
        // windowInit_ 2 in the negotiated segment size, or one packet after
        // a lost SYN: cwnd_ follows the window the endpoint set.
        for packets in [2, 1] {
            let mut a = agent(RecoveryStyle::Tahoe, 7.0, None);
            let mut w = window(packets * 960, 0);
            a.cwnd_event(&mut w, &conn(960, 0), CwndEvent::Init);
            assert_eq!((a.cwnd, w.cwnd), (f64::from(packets), packets * 960));
        }
    }

    #[test]
    fn cwnd_is_one_packet_while_the_syn_is_out() {
        let a: Ns2Reno = Ns2Reno::new(RecoveryStyle::Reno, &super::super::tests::context(4), &CcParams::default());
        assert_eq!(a.cwnd, 1.0);
    }
}
