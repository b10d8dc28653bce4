//! Data Center TCP (RFC 8257; Alizadeh et al., SIGCOMM 2010): reacts to
//! the extent of congestion, not just its presence.
//!
//! Switches mark CE on every packet that finds the queue above a threshold
//! K (a step, not RED's ramp), and the receiver echoes each mark exactly
//! (RFC 8257 §3.2, the per-packet echo). Over each observation window of
//! about one RTT the sender measures the fraction F of acknowledged bytes
//! that carried ECN-Echo and keeps a moving average
//!
//! ```text
//! alpha = (1 - g) alpha + g F              (RFC 8257 §3.3, eq. (2))
//! ```
//!
//! On an ECN-Echo (at most once per window, RFC 3168's CWR state) it cuts
//! cwnd in proportion: `cwnd (1 - alpha / 2)` (eq. (3)), so a queue that
//! barely exceeds K costs little and a full one halves the window. Growth is
//! Reno's, and a loss halves the window as in Reno (§3.4).
//!
//! ```text
//!   per ACK: bytes_acked += acked, bytes_marked += acked if ECE
//!   window end (one round): alpha <- (1 - g) alpha + g marked / acked
//!   ECE (once per RTT): ssthresh = cwnd (1 - alpha / 2)
//!   loss: ssthresh = cwnd / 2
//! ```
//!
//! | parameter | default | range | source |
//! |-----------|---------|-------|--------|
//! | `g` | 1/16 | 0-1 | RFC 8257 §3.3 and §4.2: the estimator's gain |
//! | `initial_alpha` | 1 | 0-1 | RFC 8257 §3.3: alpha before the first window (Linux `dctcp_alpha_on_init` 1024/1024) |

use super::{
    CcContext, CcParams, CongestionOps, Conn, CwndEvent, ParamInfo, ParamKind, RateSample, RenoGrowth, Rounds, Window,
};

pub(super) const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "g",
        kind: ParamKind::Real,
        default: 0.0625,
        min: 0.0,
        max: 1.0,
        help: "the gain of alpha's moving average (RFC 8257 §3.3)",
    },
    ParamInfo {
        name: "initial_alpha",
        kind: ParamKind::Real,
        default: 1.0,
        min: 0.0,
        max: 1.0,
        help: "alpha before the first observation window ends (RFC 8257 §3.3)",
    },
];

#[derive(Clone, Debug, PartialEq)]
pub struct Dctcp {
    g: f64,
    /// The estimate of the fraction of marked bytes.
    alpha: f64,
    /// This observation window's acknowledged and ECN-Echo bytes.
    bytes_acked: u64,
    bytes_marked: u64,
    rounds: Rounds,
    growth: RenoGrowth,
    /// cwnd when ssthresh was last asked for: a loss halves it.
    cwnd_at_event: u32,
}

impl Dctcp {
    pub fn new(ctx: &CcContext, params: &CcParams) -> Self {
        Dctcp {
            g: params.value(&PARAMS[0]),
            alpha: params.value(&PARAMS[1]),
            bytes_acked: 0,
            bytes_marked: 0,
            rounds: Rounds::default(),
            growth: RenoGrowth::new(ctx.abc),
            cwnd_at_event: 0,
        }
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }
}

impl CongestionOps for Dctcp {
    fn name(&self) -> &'static str {
        "dctcp"
    }

    /// RFC 8257 §3.3 eq. (3): the ECN response. A loss turns it into
    /// Reno's half on the event that follows.
    fn ssthresh(&mut self, w: &Window, c: &Conn) -> u32 {
        self.cwnd_at_event = w.cwnd;
        ((f64::from(w.cwnd) * (1.0 - self.alpha / 2.0)) as u32).max(2 * c.mss)
    }

    /// RFC 8257 §3.3 steps 2-4: count, and at each window's end update alpha.
    fn pkts_acked(&mut self, c: &Conn, rs: &RateSample) {
        self.bytes_acked += u64::from(rs.acked_sacked);
        if rs.ece {
            self.bytes_marked += u64::from(rs.acked_sacked);
        }
        if self.rounds.on_ack(c, rs) && self.bytes_acked > 0 {
            let fraction = self.bytes_marked as f64 / self.bytes_acked as f64;
            self.alpha = (1.0 - self.g) * self.alpha + self.g * fraction;
            self.bytes_acked = 0;
            self.bytes_marked = 0;
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        let acked = rs.acked;
        if c.cwnd_limited {
            w.cwnd = self.growth.grow(w, c.mss, acked);
        }
    }

    /// RFC 8257 §3.4: a loss is answered as in Reno.
    fn cwnd_event(&mut self, w: &mut Window, c: &Conn, event: CwndEvent) {
        let halved = (self.cwnd_at_event / 2).max(2 * c.mss);
        match event {
            CwndEvent::RecoveryStart => {
                // The endpoint set cwnd to the alpha-based ssthresh (or, for
                // Tahoe-style recovery, to one segment): redo it with half.
                if w.cwnd == w.ssthresh {
                    w.cwnd = halved;
                }
                w.ssthresh = halved;
            }
            CwndEvent::Rto => w.ssthresh = halved,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{conn, context, window};
    use super::*;

    const MSS: u32 = 1000;

    fn dctcp() -> Dctcp {
        Dctcp::new(&context(10), &CcParams::default())
    }

    /// A round of `acks` ACKs of a segment each, the first `marked` with
    /// ECN-Echo. Its first ACK acknowledges a segment sent in this round and
    /// so closes the previous observation window, in which it is counted
    /// (RFC 8257 §3.3 counts an ACK before testing SND.UNA > WindowEnd).
    fn round(cc: &mut Dctcp, delivered: &mut u64, acks: u64, marked: u64) {
        let start = *delivered;
        for i in 0..acks {
            *delivered += u64::from(MSS);
            let rs = RateSample {
                acked_sacked: MSS,
                prior_delivered: Some(start),
                ece: i < marked,
                ..RateSample::default()
            };
            cc.pkts_acked(&Conn { delivered: *delivered, ..conn(MSS, 0) }, &rs);
        }
    }

    #[test]
    fn alpha_is_a_moving_average_of_the_marked_fraction_with_gain_g() {
        let mut cc = dctcp();
        let mut delivered = 0;
        // The very first ACK closes a window of itself, marked: F = 1.
        round(&mut cc, &mut delivered, 10, 5);
        assert_eq!(cc.alpha(), 1.0);
        // The next window: 9 ACKs (4 marked) and the closing one: F = 0.4,
        // alpha = 15/16 x 1 + 1/16 x 0.4 = 0.9625.
        round(&mut cc, &mut delivered, 10, 0);
        assert!((cc.alpha() - 0.9625).abs() < 1e-12, "{}", cc.alpha());
        // Then a window without marks: alpha x 15/16.
        round(&mut cc, &mut delivered, 10, 0);
        assert!((cc.alpha() - 0.9625 * 15.0 / 16.0).abs() < 1e-12, "{}", cc.alpha());
    }

    #[test]
    fn an_ecn_echo_cuts_cwnd_by_half_of_alpha() {
        let mut cc = dctcp();
        cc.alpha = 0.25;
        assert_eq!(cc.ssthresh(&window(40 * MSS, 0), &conn(MSS, 0)), 35 * MSS, "40 (1 - 0.125)");
        cc.alpha = 1.0;
        assert_eq!(cc.ssthresh(&window(40 * MSS, 0), &conn(MSS, 0)), 20 * MSS);
        cc.alpha = 0.0;
        assert_eq!(cc.ssthresh(&window(40 * MSS, 0), &conn(MSS, 0)), 40 * MSS);
    }

    #[test]
    fn a_loss_halves_the_window_whatever_alpha_is() {
        let mut cc = dctcp();
        cc.alpha = 0.1;
        let mut w = window(40 * MSS, 0);
        w.ssthresh = cc.ssthresh(&w, &conn(MSS, 0));
        w.cwnd = w.ssthresh;
        cc.cwnd_event(&mut w, &conn(MSS, 0), CwndEvent::RecoveryStart);
        assert_eq!((w.cwnd, w.ssthresh), (20 * MSS, 20 * MSS));
    }
}
