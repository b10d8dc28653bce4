//! ns-2 2.35's `Agent/TCP/Vegas` (tcp-vegas.cc, Ted Kuo's port of USC's
//! NetBSD Vegas) as a module of the ns-2 profile, so that `Agent/TCP/Vegas`
//! in a Tcl script computes windows as ns-2 does. Its arithmetic, not the
//! `vegas` module's:
//!
//! * `cwnd_` is a double count of packets; v_alpha_, v_beta_ and v_gamma_
//!   compare with `delta = int((expect - actual) x baseRTT + 0.5)`, where
//!   `expect = (t_seqno_ - last_ack_) / baseRTT` (the packets outstanding
//!   after the ACK, plus one) and `actual = rttLen / rtt`, rttLen the
//!   packets sent in the round and rtt the mean of its fine-grained samples.
//! * The round ends when the ACK reaches the first packet sent in it.
//!   Slow start alternates growing and holding rounds; delta > v_gamma_
//!   ends it with cwnd less an eighth and ssthresh 2. In avoidance, delta >
//!   v_beta_ takes a packet off at once, delta < v_alpha_ adds 1/cwnd per
//!   ACK through the next round. Either growth applies only while cwnd is
//!   at most two packets above what is outstanding.
//! * Losses: a duplicate ACK retransmits the oldest packet if it has
//!   outlived the fine-grained timeout `v_timeout_`, and the third always
//!   does (after a timeout only once `recover_` is passed, ns-2's
//!   `bug_fix_`); the window becomes 2 (at most 3 packets), half (for a
//!   packet sent before) or three quarters of `window()`, unless it was
//!   already cut after the lost packet was sent; the first two new ACKs
//!   after look again. The endpoint inflates by the duplicate ACKs and
//!   deflates on the next new ACK. A timeout halves ssthresh and restarts
//!   from `v_slowstart_` = 2 packets.
//!
//! Not reproduced: ns-2's Vegas keeps cwnd inflated when exactly the
//! duplicate ACKs before the retransmission arrived (the endpoint deflates
//! on every new ACK), backs off the retransmission timer on each fast
//! retransmit, and sends its first packet without a SYN; tests/test_vegas_ns2.py
//! compares it with real ns-2.

use super::vegas::{FineTimer, Thresholds};
use super::{
    CcContext, CcParams, CongestionOps, Conn, CwndEvent, LossCheck, Oldest, RateSample, RecoveryRules, RecoveryStyle,
    Window,
};
use ackclock_core::{Duration, Instant};

/// The cwnd after a timeout (ns-2's `v_slowstart_`).
const SLOW_START_RESTART: f64 = 2.0;
/// Duplicate ACKs that retransmit (ns-2's `numdupacks_`).
const DUPACKS: u32 = 3;

#[derive(Clone, Debug, PartialEq)]
pub struct Ns2Vegas {
    thresholds: Thresholds,
    /// `cwnd_` and `ssthresh_`, in packets.
    cwnd: f64,
    ssthresh: f64,
    initial_window: f64,
    /// `window_` in packets.
    max_window: f64,
    /// The window a fast retransmit set (`v_newcwnd_`).
    newcwnd: f64,
    /// Growth per ACK decided at the last round's end (`v_incr_`).
    incr: f64,
    /// Whether this slow-start round grows (`v_inc_flag_`).
    growing_round: bool,
    /// The round: packets sent when it began (`v_begseq_`), and when.
    round_start_seq: u64,
    round_start: Instant,
    /// The round's fine-grained RTT samples (`v_sumRTT_`, `v_cntRTT_`).
    rtt_sum: Duration,
    rtt_count: u32,
    base_rtt: Option<Duration>,
    timer: FineTimer,
    /// New ACKs after a retransmission still to check (`v_worried_`).
    worried: u32,
    /// When cwnd was last cut (`t_cwnd_changed_`).
    last_cut: Option<Instant>,
    /// The loss check that asked for a fast retransmit, for `ssthresh`.
    retransmitting: Option<Oldest>,
    /// After a timeout, the delivered bytes a fast retransmit waits for
    /// (`recover_` under `bug_fix_`).
    recover_after_timeout: Option<u64>,
    /// When the first packet was sent (`firstsent_`), and whether an ACK
    /// has come yet (`firstrecv_`).
    first_sent: Option<Instant>,
    first_ack_seen: bool,
    /// In recovery: the next new ACK deflates cwnd to `newcwnd`.
    recovering: bool,
    /// The SYN's round is over but the first data packet's ACK has not come:
    /// ns-2's Vegas opens `windowInit_` only then (`delay_growth_`, tested
    /// before its `last_ack_` moves).
    delayed_growth: bool,
}

impl Ns2Vegas {
    pub fn new(ctx: &CcContext, params: &CcParams) -> Self {
        let initial_window = f64::from(ctx.initial_window);
        Ns2Vegas {
            thresholds: Thresholds::new(params),
            cwnd: initial_window,
            ssthresh: f64::INFINITY,
            initial_window,
            max_window: ctx.max_window.map_or(f64::INFINITY, f64::from),
            newcwnd: 0.0,
            incr: 0.0,
            growing_round: true,
            round_start_seq: 0,
            round_start: Instant::ZERO,
            rtt_sum: Duration::ZERO,
            rtt_count: 0,
            base_rtt: None,
            timer: FineTimer::default(),
            worried: 0,
            last_cut: None,
            retransmitting: None,
            recover_after_timeout: None,
            first_sent: None,
            first_ack_seen: false,
            recovering: false,
            delayed_growth: false,
        }
    }

    fn set(&self, w: &mut Window, mss: u32) {
        w.cwnd = (self.cwnd * f64::from(mss)) as u32;
        w.ssthresh = (self.ssthresh * f64::from(mss)).min(f64::from(u32::MAX / 2)) as u32;
    }

    /// `window()`: int(min(cwnd_, window_)) packets.
    fn window(&self, mss: u32) -> f64 {
        self.cwnd.min(self.max_window / f64::from(mss)).floor()
    }

    /// The once-per-round decision at the end of a round (tcp-vegas.cc's
    /// "begin of once per-rtt actions").
    fn end_round(&mut self, now: Instant, sent: u64, outstanding: f64) {
        let rtt = if self.rtt_count > 0 {
            self.rtt_sum.as_secs_f64() / f64::from(self.rtt_count)
        } else {
            now.saturating_since(self.round_start).as_secs_f64()
        };
        (self.rtt_sum, self.rtt_count) = (Duration::ZERO, 0);
        let round_len = sent.saturating_sub(self.round_start_seq) as f64;
        if rtt > 0.0 {
            let base = self.base_rtt.map_or(f64::INFINITY, |b| b.as_secs_f64());
            let base = if rtt < base || round_len <= 1.0 { rtt } else { base };
            self.base_rtt = Some(Duration::from_secs_f64(base));
            let actual = round_len / rtt;
            let expect = outstanding / base;
            let delta = ((expect - actual) * base + 0.5).floor();
            let t = self.thresholds;
            if self.cwnd < self.ssthresh {
                self.growing_round = !self.growing_round;
                if !self.growing_round {
                    self.incr = 0.0;
                } else if delta > t.gamma {
                    self.ssthresh = 2.0;
                    self.cwnd = (self.cwnd - self.cwnd / 8.0).max(2.0);
                    self.incr = 0.0;
                } else {
                    self.incr = 1.0;
                }
            } else if delta > t.beta {
                self.cwnd = (self.cwnd - 1.0).max(2.0);
                self.incr = 0.0;
            } else if delta < t.alpha {
                self.incr = 1.0 / self.cwnd;
            } else {
                self.incr = 0.0;
            }
        }
        self.round_start_seq = sent;
        self.round_start = now;
    }
}

impl CongestionOps for Ns2Vegas {
    fn name(&self) -> &'static str {
        "ns2-vegas"
    }

    /// A fast retransmit exits on the next new ACK, and may come again
    /// within the same window (the window is cut only once for it).
    fn recovery_rules(&self) -> RecoveryRules {
        RecoveryRules { ssthresh_on_every_rto: true, ns2_dupacks: true, ..RecoveryRules::rfc(RecoveryStyle::Reno) }
    }

    /// The window after a fast retransmit; after a timeout ns-2's
    /// `slowdown(CLOSE_SSTHRESH_HALF)`.
    fn ssthresh(&mut self, _w: &Window, c: &Conn) -> u32 {
        let Some(lost) = self.retransmitting.take() else {
            self.ssthresh = (self.window(c.mss) / 2.0).floor().max(2.0);
            return (self.ssthresh * f64::from(c.mss)) as u32;
        };
        if self.last_cut.is_none_or(|cut| cut < lost.sent_at) {
            let win = self.window(c.mss);
            self.newcwnd = if win <= 3.0 {
                2.0
            } else if lost.retransmitted {
                (win / 2.0).floor()
            } else {
                win - (win / 4.0).floor()
            };
            self.cwnd = self.newcwnd;
            self.last_cut = Some(c.now);
        }
        (self.cwnd * f64::from(c.mss)) as u32
    }

    fn pkts_acked(&mut self, c: &Conn, rs: &RateSample) {
        if rs.acked == 0 {
            return;
        }
        let now = c.now;
        if !self.first_ack_seen {
            // ns-2 starts the fine-grained estimator from the time since
            // the first packet went out.
            self.first_ack_seen = true;
            let first = now.saturating_since(self.first_sent.unwrap_or(now));
            self.base_rtt = Some(first);
            self.timer.start(first.as_secs_f64());
        }
        if std::mem::take(&mut self.delayed_growth) {
            self.cwnd = self.initial_window;
        }
        if std::mem::take(&mut self.recovering) {
            // ns-2 deflates its inflated cwnd_ to v_newcwnd_ (here the
            // endpoint inflated) and leaves slow start behind for good.
            self.cwnd = self.newcwnd.max(1.0);
            self.ssthresh = 2.0;
        }
        let mss = u64::from(c.mss);
        // ns-2's sequence numbers count packets from 0: last_ack_ is the
        // highest acknowledged, t_seqno_ the next to send.
        let acked_packets = c.delivered / mss;
        let sent = (c.delivered + u64::from(c.bytes_in_flight)) / mss;
        let outstanding = (sent + 1).saturating_sub(acked_packets) as f64;
        if acked_packets > self.round_start_seq {
            self.end_round(now, sent, outstanding);
        }
        if self.incr == 1.0 && self.cwnd >= self.ssthresh {
            self.incr = 0.0;
        }
        if self.incr > 0.0 && self.cwnd - outstanding <= 2.0 {
            self.cwnd += self.incr;
        }
        if let Some(rtt) = rs.rtt {
            self.rtt_sum += rtt;
            self.rtt_count += 1;
            if rtt > Duration::ZERO {
                self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
                self.timer.sample(rtt.as_secs_f64());
            }
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, _rs: &RateSample) {
        self.set(w, c.mss);
    }

    fn detects_loss(&self) -> bool {
        true
    }

    fn check_loss(&mut self, c: &Conn, dupacks: Option<u32>, oldest: Oldest) -> LossCheck {
        let expired = self.timer.expired(c.now, oldest.sent_at);
        let Some(dupacks) = dupacks else {
            // The first two new ACKs after a retransmission.
            if self.worried == 0 {
                return LossCheck::NotYet;
            }
            self.worried -= 1;
            if !expired {
                self.worried = 0;
                return LossCheck::NotYet;
            }
            // ns-2 counts its duplicate ACKs from numdupacks_ again, so the
            // next new ACK deflates.
            self.recovering = true;
            return LossCheck::Lost;
        };
        if !expired && dupacks != DUPACKS {
            return LossCheck::NotYet;
        }
        if self.recover_after_timeout.is_some_and(|r| c.delivered <= r) {
            return LossCheck::NotYet;
        }
        self.recover_after_timeout = None;
        let outstanding = (c.bytes_in_flight / c.mss + 1).min(2);
        self.worried = outstanding;
        self.timer.back_off(oldest.retransmitted);
        self.retransmitting = Some(oldest);
        LossCheck::Lost
    }

    fn cwnd_event(&mut self, w: &mut Window, c: &Conn, event: CwndEvent) {
        match event {
            CwndEvent::Init => {
                // ns-2 answered the SYN's ACK like any other: its round was
                // one of slow start's holding rounds, leaving cwnd at 1.
                self.cwnd = 1.0;
                self.delayed_growth = true;
                self.growing_round = false;
                if w.ssthresh < u32::MAX / 2 {
                    self.ssthresh = f64::from(w.ssthresh) / f64::from(c.mss);
                }
            }
            CwndEvent::TxStart => {
                self.first_sent.get_or_insert(c.now);
            }
            CwndEvent::RecoveryStart => self.recovering = true,
            CwndEvent::Rto => {
                self.cwnd = SLOW_START_RESTART;
                self.newcwnd = 0.0;
                self.last_cut = Some(c.now);
                self.recovering = false;
                self.recover_after_timeout = Some(c.delivered + u64::from(c.bytes_in_flight));
            }
            _ => {}
        }
        self.set(w, c.mss);
    }

    fn cwnd_segments(&self, _w: &Window, _mss: u32) -> f64 {
        self.cwnd
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{conn, context, window};
    use super::super::CcKind;
    use super::*;

    const MSS: u32 = 1000;

    fn agent(alpha: f64, beta: f64) -> Ns2Vegas {
        let mut p = CcParams::default();
        p.set(CcKind::Ns2Vegas, "alpha", alpha).unwrap();
        p.set(CcKind::Ns2Vegas, "beta", beta).unwrap();
        Ns2Vegas::new(&context(2), &p)
    }

    fn ms(t: u64) -> Instant {
        Instant::from_ps(t * 1_000_000_000)
    }

    /// The connection at `t` ms with `delivered` packets acknowledged and
    /// `flight` outstanding.
    fn at(t: u64, delivered: u64, flight: u32) -> Conn {
        Conn { now: ms(t), delivered: delivered * u64::from(MSS), ..conn(MSS, flight * MSS) }
    }

    fn ack(rtt_ms: u64) -> RateSample {
        RateSample { acked: MSS, rtt: Some(Duration::from_millis(rtt_ms)), ..RateSample::default() }
    }

    #[test]
    fn avoidance_compares_the_rounded_delta_with_alpha_and_beta() {
        // Base RTT 100 ms; a round of 20 packets sent, 20 outstanding + 1,
        // at a mean RTT of 110 ms: expect = 21 / 0.1 = 210/s, actual =
        // 20 / 0.11 = 181.8/s, delta = int(28.2 x 0.1 + 0.5) = 3.
        let run = |alpha, beta| {
            let mut a = agent(alpha, beta);
            (a.cwnd, a.ssthresh, a.base_rtt) = (20.0, 10.0, Some(Duration::from_millis(100)));
            (a.rtt_sum, a.rtt_count, a.round_start_seq) = (Duration::from_millis(110), 1, 80);
            a.end_round(ms(1000), 100, 21.0);
            a
        };
        let hold = run(3.0, 6.0);
        assert_eq!((hold.cwnd, hold.incr), (20.0, 0.0), "alpha <= 3 <= beta");
        let shrink = run(1.0, 2.0);
        assert_eq!((shrink.cwnd, shrink.incr), (19.0, 0.0), "3 > beta: one packet off at once");
        let grow = run(4.0, 6.0);
        assert_eq!((grow.cwnd, grow.incr), (20.0, 1.0 / 20.0), "3 < alpha: 1/cwnd per ACK");
        assert_eq!(grow.round_start_seq, 100);
    }

    /// Ends a slow-start round of `sent` packets, of which the last
    /// `round_len` were sent in it, at a mean RTT of `rtt_ms`.
    fn slow_start_round(a: &mut Ns2Vegas, sent: u64, round_len: u64, outstanding: f64, rtt_ms: u64) {
        (a.rtt_sum, a.rtt_count, a.round_start_seq) = (Duration::from_millis(rtt_ms), 1, sent - round_len);
        a.end_round(ms(1000), sent, outstanding);
    }

    #[test]
    fn slow_start_holds_every_other_round_and_ends_above_gamma_with_an_eighth_off() {
        let mut a = agent(1.0, 3.0);
        (a.cwnd, a.base_rtt) = (8.0, Some(Duration::from_millis(100)));
        // 8 sent in a round at 100 ms: actual 80/s, expect 9 / 0.1 = 90/s,
        // delta = int(1 + 0.5) = 1, not above gamma.
        slow_start_round(&mut a, 8, 8, 9.0, 100);
        assert_eq!((a.growing_round, a.incr), (false, 0.0), "this round holds");
        slow_start_round(&mut a, 16, 8, 9.0, 100);
        assert_eq!((a.growing_round, a.incr), (true, 1.0), "the next grows a packet per ACK");
        // 16 sent in a round at 150 ms: actual 106.7/s, expect 17 / 0.1:
        // delta = int(6.33 + 0.5) = 6 > gamma in a growing round.
        a.growing_round = false;
        slow_start_round(&mut a, 32, 16, 17.0, 150);
        assert_eq!((a.cwnd, a.ssthresh, a.incr), (7.0, 2.0, 0.0), "8 - 8/8");
    }

    #[test]
    fn growth_applies_only_while_cwnd_is_near_what_is_outstanding() {
        // ns-2: cwnd_ - (t_seqno_ - last_ack_) <= 2, and t_seqno_ - last_ack_
        // is the flight plus one.
        let grown = |flight| {
            let mut a = agent(1.0, 3.0);
            (a.cwnd, a.ssthresh, a.incr, a.first_ack_seen) = (10.0, 2.0, 0.1, true);
            a.round_start_seq = u64::MAX; // no round ends
            a.pkts_acked(&at(0, 10, flight), &ack(100));
            a.cwnd
        };
        assert_eq!(grown(7), 10.1, "10 - 8 = 2");
        assert_eq!(grown(6), 10.0, "10 - 7 = 3: sending does not keep up");
    }

    #[test]
    fn a_fast_retransmit_cuts_a_quarter_of_the_window_once() {
        let mut a = agent(1.0, 3.0);
        a.cwnd = 20.0;
        a.timer.start(0.1);
        let oldest = Oldest { sent_at: ms(1000), retransmitted: false };
        assert_eq!(a.check_loss(&at(1050, 50, 19), Some(1), oldest), LossCheck::NotYet);
        assert_eq!(a.check_loss(&at(1060, 50, 19), Some(3), oldest), LossCheck::Lost);
        assert_eq!(a.ssthresh(&window(0, 0), &at(1060, 50, 19)), 15 * MSS, "20 - 20/4");
        assert_eq!(a.worried, 2);
        // Another loss, of a packet sent before the cut: no further cut.
        let older = Oldest { sent_at: ms(1010), retransmitted: false };
        assert_eq!(a.check_loss(&at(1300, 51, 19), Some(1), older), LossCheck::Lost, "expired");
        assert_eq!(a.ssthresh(&window(0, 0), &at(1300, 51, 19)), 15 * MSS);
        // A packet sent more than once halves; 3 packets or fewer leave 2.
        let mut b = agent(1.0, 3.0);
        b.cwnd = 20.0;
        b.retransmitting = Some(Oldest { sent_at: ms(1000), retransmitted: true });
        assert_eq!(b.ssthresh(&window(0, 0), &at(1060, 50, 19)), 10 * MSS);
        b.cwnd = 3.5;
        b.retransmitting = Some(Oldest { sent_at: ms(2000), retransmitted: false });
        assert_eq!(b.ssthresh(&window(0, 0), &at(2060, 50, 3)), 2 * MSS);
    }

    #[test]
    fn a_timeout_halves_ssthresh_and_restarts_from_two_packets() {
        let mut a = agent(1.0, 3.0);
        a.cwnd = 21.0;
        let mut w = window(21 * MSS, 0);
        w.ssthresh = a.ssthresh(&w, &at(0, 0, 21));
        a.cwnd_event(&mut w, &at(0, 0, 21), CwndEvent::Rto);
        assert_eq!((a.ssthresh, a.cwnd, w.cwnd), (10.0, 2.0, 2 * MSS), "int(21 / 2)");
        let oldest = Oldest { sent_at: ms(0), retransmitted: true };
        assert_eq!(a.check_loss(&at(5000, 0, 21), Some(3), oldest), LossCheck::NotYet, "bug_fix_");
    }
}
