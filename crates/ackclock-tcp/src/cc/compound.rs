//! Compound TCP (Tan, Song, Zhang, Sridharan, INFOCOM 2006;
//! draft-sridharan-tcpm-ctcp-02): the window is the sum of a loss-based
//! window (Reno's) and a delay-based window that fills the pipe fast while
//! the queue is short and gives way as it grows.
//!
//! ```text
//! win  = cwnd + dwnd
//! diff = (win / baseRTT - win / RTT) baseRTT      segments queued (as Vegas)
//! ```
//!
//! `cwnd` grows by 1/win per ACK in congestion avoidance and halves on a
//! loss. Once per round, `dwnd` follows the paper's equation (4) (seed
//! 001's):
//!
//! ```text
//! dwnd(t+1) = dwnd(t) + (alpha win^k - 1)^+      diff < gamma
//!             (dwnd(t) - zeta diff)^+            diff >= gamma
//!             (win (1 - beta) - cwnd / 2)^+      a loss
//! ```
//!
//! so that the whole window grows binomially, alpha win^k per round,
//! while the queue is below gamma segments, and is cut to (1 - beta) win
//! on a loss. A timeout zeroes `dwnd`. As in the draft, the delay window
//! works only in congestion avoidance and at windows of at least
//! `low_window` segments, where Reno would be slow. baseRTT is the least
//! RTT seen and RTT the least of the last round's samples (with three or
//! more), as in the Compound module of Linux 2.6.22 that ns-2's TCP-Linux
//! carries: a smoothed RTT (the seed's reading) lags by eight samples and
//! takes the sender's own bursts for queueing.
//!
//! ```text
//!   slow start (dwnd = 0) --> avoidance, win < low_window: Reno
//!                                |  win >= low_window
//!                                v
//!                dwnd grows (diff < gamma) <--> dwnd drains (diff >= gamma)
//!                     loss: win (1 - beta); timeout: dwnd = 0, slow start
//! ```
//!
//! | parameter | default | range | source |
//! |-----------|---------|-------|--------|
//! | `alpha` | 0.125 | 0.001-10 | Tan et al. §3.3; draft §3.2: 1/8 |
//! | `beta` | 0.5 | 0.05-0.95 | Tan et al. §3.3; draft §3.2: 1/2 |
//! | `k` | 0.75 | 0-2 | Tan et al. §3.3; draft §3.2: 3/4, HighSpeed-like scalability |
//! | `zeta` | 1 | 0-100 | Tan et al. §3.3: dwnd shrinks by zeta x diff |
//! | `gamma` | 30 | 0.1-10^4 | Tan et al. §3.3 and §5: 30 segments queued |
//! | `low_window` | 41 | 0-10^6 | draft §3.2: dwnd only at windows of 41 segments or more |

use super::{
    CcContext, CcParams, CongestionOps, Conn, CwndEvent, ParamInfo, ParamKind, RateSample, RenoGrowth, RoundRtts,
    Window,
};
use ackclock_core::Duration;

pub(super) const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "alpha",
        kind: ParamKind::Real,
        default: 0.125,
        min: 0.001,
        max: 10.0,
        help: "scale of the delay window's growth, alpha win^k per RTT",
    },
    ParamInfo {
        name: "beta",
        kind: ParamKind::Real,
        default: 0.5,
        min: 0.05,
        max: 0.95,
        help: "the share of the whole window given up on a loss",
    },
    ParamInfo {
        name: "k",
        kind: ParamKind::Real,
        default: 0.75,
        min: 0.0,
        max: 2.0,
        help: "exponent of the delay window's growth, alpha win^k per RTT",
    },
    ParamInfo {
        name: "zeta",
        kind: ParamKind::Real,
        default: 1.0,
        min: 0.0,
        max: 100.0,
        help: "the delay window shrinks by zeta x diff per RTT once diff reaches gamma",
    },
    ParamInfo {
        name: "gamma",
        kind: ParamKind::Real,
        default: 30.0,
        min: 0.1,
        max: 10_000.0,
        help: "segments queued (diff) at which the delay window stops growing",
    },
    ParamInfo {
        name: "low_window",
        kind: ParamKind::Real,
        default: 41.0,
        min: 0.0,
        max: 1e6,
        help: "the window in segments below which the delay window stays off",
    },
];

#[derive(Clone, Copy, Debug, PartialEq)]
struct Tuning {
    alpha: f64,
    beta: f64,
    k: f64,
    zeta: f64,
    gamma: f64,
    low_window: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Compound {
    tuning: Tuning,
    /// The loss window and the delay window, in segments.
    lwnd: f64,
    dwnd: f64,
    /// The window last written, in bytes: if the endpoint changed it since
    /// (its recovery or loss window), the loss window takes the change.
    written: u32,
    rtts: RoundRtts,
    /// The least RTT of the round that just ended: the delay window is due
    /// its once-per-round update.
    round_rtt: Option<Duration>,
    slow_start: RenoGrowth,
}

impl Compound {
    pub fn new(ctx: &CcContext, params: &CcParams) -> Self {
        let [alpha, beta, k, zeta, gamma, low_window] = [0, 1, 2, 3, 4, 5].map(|i| params.value(&PARAMS[i]));
        Compound {
            tuning: Tuning { alpha, beta, k, zeta, gamma, low_window },
            lwnd: f64::from(ctx.initial_window),
            dwnd: 0.0,
            written: 0,
            rtts: RoundRtts::default(),
            round_rtt: None,
            slow_start: RenoGrowth::new(ctx.abc),
        }
    }

    /// Takes in a window the endpoint set: the loss window absorbs it.
    fn sync(&mut self, w: &Window, mss: u32) {
        if w.cwnd != self.written {
            self.lwnd = (f64::from(w.cwnd) / f64::from(mss) - self.dwnd).max(1.0);
            self.written = w.cwnd;
        }
    }

    fn write(&mut self, w: &mut Window, mss: u32) {
        w.cwnd = ((self.lwnd + self.dwnd) * f64::from(mss)).min(f64::from(u32::MAX / 2)) as u32;
        self.written = w.cwnd;
    }

    /// Equation (4) without loss, for a round whose queue was `diff`.
    fn delay_window(&self, win: f64, diff: f64) -> f64 {
        let t = &self.tuning;
        if diff < t.gamma {
            self.dwnd + (t.alpha * win.powf(t.k) - 1.0).max(0.0)
        } else {
            (self.dwnd - t.zeta * diff).max(0.0)
        }
    }
}

impl CongestionOps for Compound {
    fn name(&self) -> &'static str {
        "compound"
    }

    /// Equation (4)'s loss case: cwnd halves, dwnd = (win (1 - beta) -
    /// cwnd / 2)^+, so the whole window becomes max(win (1 - beta), cwnd / 2).
    fn ssthresh(&mut self, w: &Window, c: &Conn) -> u32 {
        self.sync(w, c.mss);
        let win = self.lwnd + self.dwnd;
        self.lwnd /= 2.0;
        self.dwnd = (win * (1.0 - self.tuning.beta) - self.lwnd).max(0.0);
        let kept = ((self.lwnd + self.dwnd) * f64::from(c.mss)) as u32;
        // The endpoint sets cwnd to this: it is the new split's sum.
        self.written = kept.max(2 * c.mss);
        self.written
    }

    fn pkts_acked(&mut self, c: &Conn, rs: &RateSample) {
        // Two samples a round are likely both delayed ACKs: no measure.
        if let Some(round) = self.rtts.on_ack(c, rs).filter(|r| r.samples > 2) {
            self.round_rtt = Some(round.min);
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        let acked = rs.acked;
        self.sync(w, c.mss);
        if !c.cwnd_limited {
            return;
        }
        if w.cwnd < w.ssthresh {
            let grown = self.slow_start.grow(w, c.mss, acked);
            self.lwnd += f64::from(grown - w.cwnd) / f64::from(c.mss);
            self.write(w, c.mss);
            return;
        }
        let win = self.lwnd + self.dwnd;
        // The loss window: one segment per round, 1/win per segment acked.
        self.lwnd += f64::from(acked) / f64::from(c.mss) / win;
        if let (Some(base), Some(rtt)) = (self.rtts.base(), self.round_rtt.take()) {
            let diff = super::vegas::diff(win, base, rtt);
            self.dwnd = if win >= self.tuning.low_window { self.delay_window(win, diff) } else { 0.0 };
        }
        self.write(w, c.mss);
    }

    fn cwnd_event(&mut self, w: &mut Window, c: &Conn, event: CwndEvent) {
        match event {
            CwndEvent::Init => {
                self.dwnd = 0.0;
                self.written = !w.cwnd; // the loss window takes it
                self.sync(w, c.mss);
            }
            CwndEvent::Rto => {
                self.dwnd = 0.0;
                self.sync(w, c.mss);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{conn, context, window};
    use super::*;

    const MSS: u32 = 1000;

    fn compound() -> Compound {
        Compound::new(&context(2), &CcParams::default())
    }

    /// A compound in avoidance with loss window `lwnd` and delay window
    /// `dwnd`, base RTT 100 ms.
    fn split(lwnd: f64, dwnd: f64) -> (Compound, Window) {
        let mut cc = compound();
        cc.pkts_acked(&conn(MSS, 0), &RateSample { rtt: Some(Duration::from_millis(100)), ..RateSample::default() });
        (cc.lwnd, cc.dwnd) = (lwnd, dwnd);
        let mut w = window(0, MSS);
        cc.write(&mut w, MSS);
        (cc, w)
    }

    /// The end of a round whose least RTT was `rtt_ms`.
    fn end_of_round(cc: &mut Compound, w: &mut Window, rtt_ms: u64) {
        cc.round_rtt = Some(Duration::from_millis(rtt_ms));
        cc.cong_avoid(w, &conn(MSS, 0), &RateSample { acked: MSS, ..RateSample::default() });
    }

    #[test]
    fn below_gamma_the_delay_window_grows_by_alpha_win_to_the_k_minus_one() {
        // win = 60 + 20 = 80 segments, round RTT 110 ms: diff = 80 (1 - 100/110)
        // = 7.27 < 30. dwnd += 0.125 x 80^0.75 - 1 = 0.125 x 26.75 - 1 = 2.344.
        let (mut cc, mut w) = split(60.0, 20.0);
        end_of_round(&mut cc, &mut w, 110);
        assert!((cc.dwnd - (20.0 + 0.125 * 80f64.powf(0.75) - 1.0)).abs() < 1e-12);
        assert!((cc.dwnd - 22.343_75).abs() < 1e-4, "{}", cc.dwnd);
        // The loss window gained 1/80 of a segment for the ACK.
        assert!((cc.lwnd - 60.0125).abs() < 1e-12);
        assert_eq!(w.cwnd, 82_356, "(60.0125 + 22.3437) segments");
    }

    #[test]
    fn at_gamma_and_above_the_delay_window_drains_by_zeta_diff() {
        // win = 80, round RTT 200 ms: diff = 80 (1 - 100/200) = 40 >= 30:
        // dwnd = (20 - 40)^+ = 0; at 160 ms diff = 30 exactly: 20 - 30 -> 0;
        // with dwnd 50: 50 - 30 = 20.
        let (mut cc, mut w) = split(60.0, 20.0);
        end_of_round(&mut cc, &mut w, 200);
        assert_eq!(cc.dwnd, 0.0);
        let (mut cc, mut w) = split(30.0, 50.0);
        end_of_round(&mut cc, &mut w, 160);
        assert!((cc.dwnd - 20.0).abs() < 1e-9, "{}", cc.dwnd);
    }

    #[test]
    fn a_loss_halves_the_loss_window_and_cuts_the_whole_to_one_minus_beta() {
        // win = 60 + 20 = 80: cwnd -> 30, dwnd = (80 x 0.5 - 30)^+ = 10.
        let (mut cc, w) = split(60.0, 20.0);
        assert_eq!(cc.ssthresh(&w, &conn(MSS, 0)), 40 * MSS);
        assert_eq!((cc.lwnd, cc.dwnd), (30.0, 10.0));
        // With little delay window the loss window's half is the floor:
        // win 62: cwnd 30, dwnd = (31 - 30) = 1.
        let (mut cc, w) = split(60.0, 2.0);
        assert_eq!(cc.ssthresh(&w, &conn(MSS, 0)), 31 * MSS);
    }

    #[test]
    fn below_low_window_and_in_slow_start_it_is_reno() {
        let (mut cc, mut w) = split(30.0, 0.0);
        end_of_round(&mut cc, &mut w, 110);
        assert_eq!(cc.dwnd, 0.0, "win 30 < 41");
        let mut cc = compound();
        let mut w = window(2 * MSS, u32::MAX / 2);
        cc.cwnd_event(&mut w, &conn(MSS, 0), CwndEvent::Init);
        cc.cong_avoid(&mut w, &conn(MSS, 0), &RateSample { acked: MSS, ..RateSample::default() });
        assert_eq!((w.cwnd, cc.lwnd, cc.dwnd), (3 * MSS, 3.0, 0.0));
    }

    #[test]
    fn a_round_with_two_rtt_samples_or_fewer_is_no_measure() {
        let mut cc = compound();
        let sample = |prior| RateSample {
            prior_delivered: Some(prior),
            rtt: Some(Duration::from_millis(120)),
            ..RateSample::default()
        };
        let c = |delivered| Conn { delivered, ..conn(MSS, 0) };
        // Round 1 is the ACKs of segments sent before 1000 bytes were
        // delivered (2 samples), round 2 those sent before 3000 (3).
        cc.pkts_acked(&c(1000), &sample(0));
        cc.pkts_acked(&c(2000), &sample(0));
        cc.pkts_acked(&c(3000), &sample(1000));
        assert_eq!(cc.round_rtt, None, "two samples (delayed ACKs)");
        cc.pkts_acked(&c(4000), &sample(1000));
        cc.pkts_acked(&c(5000), &sample(1000));
        cc.pkts_acked(&c(6000), &sample(3000));
        assert_eq!(cc.round_rtt, Some(Duration::from_millis(120)));
    }

    #[test]
    fn a_timeout_drops_the_delay_window() {
        let (mut cc, mut w) = split(60.0, 20.0);
        w.ssthresh = cc.ssthresh(&w, &conn(MSS, 0));
        w.cwnd = MSS;
        cc.cwnd_event(&mut w, &conn(MSS, 0), CwndEvent::Rto);
        assert_eq!((cc.lwnd, cc.dwnd), (1.0, 0.0));
    }
}
