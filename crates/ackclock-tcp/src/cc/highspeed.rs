//! HighSpeed TCP (RFC 3649): AIMD whose increase a(w) and decrease b(w)
//! depend on the window, so that a flow can hold a window of 83,000
//! segments at a loss rate of 10^-7 (Reno would need 2 x 10^-10).
//!
//! At or below Low_Window (38 segments) it is Reno: a = 1, b = 1/2. Above,
//! RFC 3649 §5 interpolates on log scales between (Low_Window, Low_P) and
//! (High_Window, High_P):
//!
//! ```text
//! b(w) = (High_Decrease - 0.5) (log w - log Low_Window) / (log High_Window - log Low_Window) + 0.5
//! p(w) = Low_P (w / Low_Window)^(1/S),  S = (log High_Window - log Low_Window) / (log High_P - log Low_P)
//! a(w) = w^2 p(w) 2 b(w) / (2 - b(w))
//! ```
//!
//! with Low_P = (1.2 / Low_Window)^2, Standard TCP's loss rate at that
//! window (RFC 3649 §1: w = 1.2 / sqrt(p)); per ACK cwnd grows a(w) / w
//! segments, and a congestion event keeps (1 - b(w)) of it. Slow start is
//! RFC 5681's. Appendix B's table (used by Linux) lists the windows where
//! a(w) reaches each whole number; the formula meets it within 4%.
//!
//! | parameter | default | range | source |
//! |-----------|---------|-------|--------|
//! | `low_window` | 38 | 2-10^6 | RFC 3649 §5: Low_Window, segments |
//! | `high_window` | 83000 | 3-10^9 | RFC 3649 §5: High_Window, segments |
//! | `high_p` | 10^-7 | 10^-12-0.1 | RFC 3649 §5: High_P, loss rate at High_Window |
//! | `high_decrease` | 0.1 | 0.01-0.5 | RFC 3649 §5: High_Decrease, b(High_Window) |

use super::{CcContext, CcParams, CongestionOps, Conn, ParamInfo, ParamKind, RateSample, RenoGrowth, Window};

pub(super) const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "low_window",
        kind: ParamKind::Real,
        default: 38.0,
        min: 2.0,
        max: 1e6,
        help: "the window in segments up to which HighSpeed TCP is Reno (RFC 3649 §5)",
    },
    ParamInfo {
        name: "high_window",
        kind: ParamKind::Real,
        default: 83_000.0,
        min: 3.0,
        max: 1e9,
        help: "the window in segments held at loss rate high_p (RFC 3649 §5)",
    },
    ParamInfo {
        name: "high_p",
        kind: ParamKind::Real,
        default: 1e-7,
        min: 1e-12,
        max: 0.1,
        help: "the loss rate at which the window is high_window (RFC 3649 §5)",
    },
    ParamInfo {
        name: "high_decrease",
        kind: ParamKind::Real,
        default: 0.1,
        min: 0.01,
        max: 0.5,
        help: "the decrease b(w) at high_window (RFC 3649 §5)",
    },
];

/// The response function's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Response {
    low_window: f64,
    high_decrease: f64,
    /// log(High_Window) - log(Low_Window).
    log_span: f64,
    low_p: f64,
    /// 1 / S.
    p_exponent: f64,
}

impl Response {
    fn new(params: &CcParams) -> Self {
        let [low_window, high_window, high_p, high_decrease] = [0, 1, 2, 3].map(|i| params.value(&PARAMS[i]));
        let high_window = high_window.max(low_window + 1.0);
        let low_p = (1.2 / low_window).powi(2);
        let log_span = high_window.ln() - low_window.ln();
        Response { low_window, high_decrease, log_span, low_p, p_exponent: (high_p.ln() - low_p.ln()) / log_span }
    }

    /// b(w): the share of the window given up on a congestion event.
    fn b(&self, w: f64) -> f64 {
        if w <= self.low_window {
            return 0.5;
        }
        (self.high_decrease - 0.5) * (w.ln() - self.low_window.ln()) / self.log_span + 0.5
    }

    /// a(w): segments added per RTT; never less than Reno's one.
    fn a(&self, w: f64) -> f64 {
        if w <= self.low_window {
            return 1.0;
        }
        let p = self.low_p * (w / self.low_window).powf(self.p_exponent);
        let b = self.b(w);
        (w * w * p * 2.0 * b / (2.0 - b)).max(1.0)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct HighSpeed {
    response: Response,
    slow_start: RenoGrowth,
    /// Fractional bytes of growth carried between ACKs.
    carry: f64,
}

impl HighSpeed {
    pub fn new(ctx: &CcContext, params: &CcParams) -> Self {
        HighSpeed { response: Response::new(params), slow_start: RenoGrowth::new(ctx.abc), carry: 0.0 }
    }
}

impl CongestionOps for HighSpeed {
    fn name(&self) -> &'static str {
        "highspeed"
    }

    /// RFC 3649 §5: w (1 - b(w)) after a congestion event.
    fn ssthresh(&mut self, w: &Window, c: &Conn) -> u32 {
        let segments = f64::from(w.cwnd) / f64::from(c.mss);
        let kept = f64::from(w.cwnd) * (1.0 - self.response.b(segments));
        (kept as u32).max(2 * c.mss)
    }

    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        let acked = rs.acked;
        if !c.cwnd_limited {
            return;
        }
        if w.cwnd < w.ssthresh {
            w.cwnd = self.slow_start.grow(w, c.mss, acked);
            return;
        }
        // a(w) segments per window of ACKs: a(w) MSS * acked / cwnd bytes.
        let segments = f64::from(w.cwnd) / f64::from(c.mss);
        self.carry += self.response.a(segments) * f64::from(acked) / segments;
        let whole = self.carry.floor();
        self.carry -= whole;
        w.cwnd = (f64::from(w.cwnd) + whole).min(f64::from(u32::MAX / 2)) as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{conn, context, window};
    use super::*;

    fn response() -> Response {
        Response::new(&CcParams::default())
    }

    #[test]
    fn up_to_low_window_it_is_reno() {
        let r = response();
        assert_eq!((r.a(38.0), r.b(38.0)), (1.0, 0.5));
        assert_eq!((r.a(10.0), r.b(10.0)), (1.0, 0.5));
    }

    #[test]
    fn a_and_b_follow_rfc_3649_section_5() {
        // w = 1000: b = -0.4 ln(1000/38) / ln(83000/38) + 0.5 = 0.32988;
        // Low_P = (1.2/38)^2 = 9.9723e-4, 1/S = ln(1e-7/9.9723e-4) / ln(83000/38)
        // = -1.19781, p = 9.9723e-4 (1000/38)^-1.19781 = 1.98651e-5;
        // a = 1000^2 p 2 b / (2 - b) = 7.8474.
        let r = response();
        assert!((r.b(1000.0) - 0.329_878).abs() < 1e-6, "{}", r.b(1000.0));
        assert!((r.a(1000.0) - 7.847_40).abs() < 1e-4, "{}", r.a(1000.0));
        // At High_Window the decrease is High_Decrease and p is High_P:
        // a = 83000^2 1e-7 0.2 / 1.9 = 72.516.
        assert!((r.b(83_000.0) - 0.1).abs() < 1e-12);
        assert!((r.a(83_000.0) - 72.515_79).abs() < 1e-4, "{}", r.a(83_000.0));
    }

    #[test]
    fn a_meets_the_appendix_b_table_within_four_percent() {
        // RFC 3649 Appendix B: the window at which a(w) reaches 2, 3, ...
        let rows = [(118.0, 2.0, 0.44), (221.0, 3.0, 0.41), (347.0, 4.0, 0.38), (1058.0, 8.0, 0.33)];
        let more = [(10_661.0, 30.0, 0.21), (30_975.0, 50.0, 0.15), (84_035.0, 72.0, 0.10)];
        let r = response();
        for (w, a, b) in rows.into_iter().chain(more) {
            assert!((r.a(w) - a).abs() / a < 0.04, "a({w}) = {} vs {a}", r.a(w));
            assert!((r.b(w) - b).abs() < 0.006, "b({w}) = {} vs {b}", r.b(w));
        }
    }

    #[test]
    fn a_congestion_event_keeps_one_minus_b_of_the_window() {
        let mut cc = HighSpeed::new(&context(2), &CcParams::default());
        // 1000 segments: keeps 1 - 0.32988 = 0.67012.
        assert_eq!(cc.ssthresh(&window(1_000_000, 0), &conn(1000, 0)), 670_121);
        assert_eq!(cc.ssthresh(&window(20_000, 0), &conn(1000, 0)), 10_000, "Reno below Low_Window");
    }

    #[test]
    fn avoidance_adds_a_of_w_segments_per_window() {
        let mut cc = HighSpeed::new(&context(2), &CcParams::default());
        let mut w = window(1_000_000, 1000);
        cc.cong_avoid(&mut w, &conn(1000, 0), &RateSample { acked: 1000, ..RateSample::default() });
        assert_eq!(w.cwnd, 1_000_007, "a(1000) / 1000 = 0.0078474 segments, 7.85 bytes");
        for _ in 0..999 {
            cc.cong_avoid(&mut w, &conn(1000, 0), &RateSample { acked: 1000, ..RateSample::default() });
        }
        // A window of ACKs adds a(w) = 7.85 segments, a little less as the
        // window grows (a(w) / w falls).
        assert_eq!(w.cwnd - 1_000_000, 7835);
    }
}
