//! The Reno family: the same window growth (slow start, then one segment
//! per RTT) with three loss responses.
//!
//! * Tahoe (Jacobson 1988): fast retransmit, then slow start from one
//!   segment.
//! * Reno (RFC 5681): fast recovery halves cwnd and ends on the first new
//!   ACK.
//! * NewReno (RFC 6582): fast recovery survives partial ACKs, repairing one
//!   hole per RTT until all data outstanding at the loss is acknowledged.
//!
//! The response is carried out by the endpoint's recovery machinery; the
//! algorithm only names it.
//!
//! | parameter | default | range | meaning |
//! |-----------|---------|-------|---------|
//! | `alpha` | 1 | 0.01-100 | segments added per RTT in congestion avoidance |
//! | `beta` | 0.5 | 0.05-1 | ssthresh = beta x FlightSize after a congestion event |
//!
//! With other values than (1, 0.5) this is AIMD(alpha, beta) (Floyd,
//! Handley, Padhye 2000; ns-2's `increase_num_` and `decrease_num_`).

use super::{CcContext, CcParams, CongestionOps, Conn, ParamInfo, ParamKind, RecoveryRules, RecoveryStyle, Window};

pub(super) const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "alpha",
        kind: ParamKind::Real,
        default: 1.0,
        min: 0.01,
        max: 100.0,
        help: "segments added per RTT in congestion avoidance",
    },
    ParamInfo {
        name: "beta",
        kind: ParamKind::Real,
        default: 0.5,
        min: 0.05,
        max: 1.0,
        help: "ssthresh as a fraction of the flight after a congestion event",
    },
];

#[derive(Clone, Debug, PartialEq)]
pub struct Reno {
    style: RecoveryStyle,
    growth: RenoGrowth,
    beta: f64,
}

impl Reno {
    pub fn new(style: RecoveryStyle, ctx: &CcContext, params: &CcParams) -> Self {
        let growth = RenoGrowth { alpha: params.value(&PARAMS[0]), ..RenoGrowth::new(ctx.abc) };
        Reno { style, growth, beta: params.value(&PARAMS[1]) }
    }
}

impl CongestionOps for Reno {
    fn name(&self) -> &'static str {
        match self.style {
            RecoveryStyle::Tahoe => "tahoe",
            RecoveryStyle::Reno => "reno",
            RecoveryStyle::NewReno => "newreno",
        }
    }
    fn recovery_rules(&self) -> RecoveryRules {
        RecoveryRules::rfc(self.style)
    }
    /// RFC 5681 eq. (4), with beta in place of 1/2.
    fn ssthresh(&mut self, _w: &Window, c: &Conn) -> u32 {
        ((f64::from(c.bytes_in_flight) * self.beta) as u32).max(2 * c.mss)
    }
    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, acked: u32) {
        w.cwnd = self.growth.grow(w, c.mss, acked);
    }
}

/// Slow start and additive increase as in RFC 5681, optionally with
/// RFC 3465 appropriate byte counting. Shared by the Reno family.
#[derive(Clone, Debug, PartialEq)]
pub struct RenoGrowth {
    abc: bool,
    /// Segments added per RTT in congestion avoidance.
    alpha: f64,
    /// ABC: bytes acknowledged since cwnd last grew in avoidance.
    bytes_acked: u64,
    /// Classic avoidance: the remainder of alpha MSS^2 / cwnd carried
    /// between ACKs, so growth is exact rather than truncated per ACK.
    remainder: u64,
}

impl RenoGrowth {
    pub fn new(abc: bool) -> Self {
        RenoGrowth { abc, alpha: 1.0, bytes_acked: 0, remainder: 0 }
    }

    /// The window after `acked` bytes were acknowledged.
    pub fn grow(&mut self, w: &Window, mss: u32, acked: u32) -> u32 {
        let (cwnd, mss) = (u64::from(w.cwnd), u64::from(mss));
        let increase = ((mss * mss) as f64 * self.alpha) as u64;
        let next = if w.cwnd < w.ssthresh {
            // RFC 5681 (2); RFC 3465 allows L = 2 segments per ACK.
            let limit = if self.abc { 2 * mss } else { mss };
            cwnd + u64::from(acked).min(limit)
        } else if self.abc {
            // RFC 3465 §2.1: alpha MSS per cwnd of acknowledged bytes.
            self.bytes_acked += u64::from(acked);
            if self.bytes_acked >= cwnd {
                self.bytes_acked -= cwnd;
                cwnd + increase / mss
            } else {
                cwnd
            }
        } else {
            // RFC 5681 (3): alpha MSS * MSS / cwnd per ACK.
            let num = increase + self.remainder;
            self.remainder = num % cwnd.max(1);
            cwnd + num / cwnd.max(1)
        };
        next.min(u64::from(u32::MAX / 2)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{conn, window};
    use super::super::{CcKind, ParamError};
    use super::*;

    fn grow(g: &mut RenoGrowth, cwnd: u32, ssthresh: u32, acked: u32) -> u32 {
        g.grow(&window(cwnd, ssthresh), 1000, acked)
    }

    #[test]
    fn slow_start_adds_one_mss_per_ack_without_abc() {
        assert_eq!(grow(&mut RenoGrowth::new(false), 2000, 10_000, 2000), 3000);
    }

    #[test]
    fn slow_start_with_abc_adds_up_to_two_mss() {
        let mut g = RenoGrowth::new(true);
        assert_eq!(grow(&mut g, 2000, 10_000, 2000), 4000);
        assert_eq!(grow(&mut g, 2000, 10_000, 500), 2500);
    }

    #[test]
    fn avoidance_adds_one_mss_per_window_of_acks() {
        let mut g = RenoGrowth::new(false);
        let mut cwnd = 10_000;
        for _ in 0..10 {
            cwnd = grow(&mut g, cwnd, 5_000, 1000);
        }
        // Each ACK adds MSS^2 / cwnd of the growing cwnd (100, 99, 98, ...),
        // remainders carried: 958 bytes in all, a little under one MSS.
        assert_eq!(cwnd - 10_000, 958);
    }

    #[test]
    fn avoidance_with_abc_grows_after_a_full_window_of_bytes() {
        let mut g = RenoGrowth::new(true);
        assert_eq!(grow(&mut g, 4000, 2000, 3000), 4000);
        assert_eq!(grow(&mut g, 4000, 2000, 1000), 5000);
    }

    fn reno(alpha: f64, beta: f64) -> Reno {
        let mut p = CcParams::default();
        p.set(CcKind::Reno, "alpha", alpha).unwrap();
        p.set(CcKind::Reno, "beta", beta).unwrap();
        Reno::new(RecoveryStyle::Reno, &CcContext { abc: false, initial_window: 2, max_window: None }, &p)
    }

    #[test]
    fn aimd_alpha_scales_the_additive_increase() {
        let mut cc = reno(2.0, 0.5);
        let mut w = window(10_000, 5_000);
        cc.cong_avoid(&mut w, &conn(1000, 10_000), 1000);
        assert_eq!(w.cwnd, 10_200, "2 MSS^2 / cwnd");
    }

    #[test]
    fn aimd_beta_sets_the_share_of_the_flight_kept_after_a_loss() {
        let mut cc = reno(1.0, 0.875);
        assert_eq!(cc.ssthresh(&window(16_000, 0), &conn(1000, 16_000)), 14_000);
        assert!(matches!(CcParams::default().set(CcKind::Reno, "beta", 0.0), Err(ParamError::OutOfRange { .. })));
    }
}
