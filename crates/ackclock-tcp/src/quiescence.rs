//! ns-2's `QOption_` (tcp.cc, `process_qoption_after_send`, `rtt_counting`,
//! `process_qoption_after_ack`): a sender that idled, or that its
//! application kept from filling the window, cuts its window when it sends
//! again. Each packet `send_much` or `send_one` lets out is checked: an idle
//! spell of n RTOs (with `EnblRTTCtr_`, of n RTT rounds) keeps three
//! quarters of cwnd_ in ssthresh_ and halves cwnd_ n times; an RTO (with
//! `EnblRTTCtr_`, two counted rounds) in which the window was never full,
//! ending with the application's last packet, brings cwnd_ half way down to
//! the most packets out then (`W_used`). Times are ns-2's rounded tick
//! counts (`tcp_now`); rounds are counted at the next send from the ACKs
//! since, which gives ns-2's counts (a round ends at most once between
//! two sends).

use crate::cc::CwndEvent;
use crate::endpoint::Endpoint;
use ackclock_core::Instant;

/// ns-2's quiescence variables, ticks and packets as ns-2 keeps them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Quiescence {
    /// `T_last`, `T_prev`: the ticks of the last send and of the last full
    /// window (or cut).
    last: i64,
    prev: i64,
    /// `W_used`: the most packets out while application-limited.
    used: u32,
    /// `EnblRTTCtr_`'s round counter, when on.
    rounds: Option<Rounds>,
}

/// `EnblRTTCtr_`: RTT rounds counted by timing one packet at a time.
#[derive(Clone, Debug, PartialEq)]
struct Rounds {
    /// `T_start`: where the current two-RTT period began.
    start: i64,
    /// `RTT_count`, `RTT_prev`, `RTT_goodcount`, `Backoffs`.
    count: i64,
    prev: i64,
    good: i64,
    backoffs: i64,
    /// `F_full`: the window was full in this period.
    full: bool,
    /// `W_timed`, as the end offset of the timed packet, while `F_counting`.
    timed_end: Option<u64>,
    /// The third duplicate ACK arrived while a packet was timed.
    dup_round: bool,
}

impl Quiescence {
    pub(crate) fn new(count_rounds: bool) -> Self {
        let rounds = Rounds {
            start: 0,
            count: 0,
            prev: 0,
            good: 1,
            backoffs: 0,
            full: false,
            timed_end: None,
            dup_round: false,
        };
        Quiescence { rounds: count_rounds.then_some(rounds), ..Quiescence::default() }
    }
}

/// A packet about to go out: when, in ticks, how many packets it makes
/// out (`t_seqno_ - highest_ack_`), whether it is the application's last
/// (`t_seqno_ == curseq_ - 1`), and where it ends.
struct Sent {
    at: Instant,
    tcp_now: i64,
    out: u32,
    last: bool,
    end: u64,
}

impl Endpoint {
    /// ns-2's `tcp_now`: the time in ticks, rounded.
    fn tcp_now(&self, now: Instant) -> i64 {
        let tick = self.cfg.clock_granularity.as_ps() as f64 / 1e12;
        (now.as_ps() as f64 / 1e12 / tick + 0.5) as i64
    }

    /// `window()`: int(min(cwnd_, window_)).
    fn window_packets(&self) -> u32 {
        let cap = self.cfg.max_window.map_or(f64::INFINITY, |w| f64::from(w) / f64::from(self.send_mss));
        self.cwnd_packets().min(cap) as u32
    }

    /// The third duplicate ACK (`process_qoption_after_ack`'s
    /// `dupacks_ == numdupacks_`) ends a round while a packet is timed.
    pub(crate) fn quiescence_dupacks(&mut self) {
        let una = self.snd_una;
        if let Some(r) = self.quiescence.as_mut().and_then(|q| q.rounds.as_mut()) {
            r.dup_round |= r.timed_end.is_some_and(|end| una < end);
        }
    }

    /// `process_qoption_after_send` for the segment ending at `end` (the
    /// SYN's is 1) about to go out.
    pub(crate) fn quiescence_after_send(&mut self, now: Instant, end: u64) {
        let Some(mut q) = self.quiescence.take() else { return };
        let tcp_now = self.tcp_now(now);
        let mss = u64::from(self.send_mss.max(1));
        // t_seqno_ - highest_ack_, and whether this is the application's
        // last packet (t_seqno_ == curseq_ - 1).
        let out = (end - self.snd_una).div_ceil(mss) as u32;
        let last = end >= self.data_end;
        let sent = Sent { at: now, tcp_now, out, last, end };
        match q.rounds.take() {
            None => self.after_send_by_rto(&mut q, &sent),
            Some(mut r) => {
                self.after_send_by_rounds(&mut q, &mut r, &sent);
                q.rounds = Some(r);
            }
        }
        self.quiescence = Some(q);
    }

    fn after_send_by_rto(&mut self, q: &mut Quiescence, s: &Sent) {
        let now = s.tcp_now;
        let tick = self.cfg.clock_granularity.as_ps() as f64 / 1e12;
        let rto = ((self.rtt.ns2_rtxcur() / tick) as i64).max(1);
        if now - q.last >= rto {
            let halvings = ((now - q.last) / rto) as u32;
            self.cwnd_event(s.at, CwndEvent::QuiescentIdle { halvings });
            (q.prev, q.used) = (now, 0);
        }
        q.last = now;
        if s.out == self.window_packets() {
            (q.prev, q.used) = (now, 0);
        } else if s.last {
            q.used = q.used.max(s.out);
            if now - q.prev >= rto {
                self.cwnd_event(s.at, CwndEvent::AppLimited { used: q.used });
                (q.prev, q.used) = (now, 0);
            }
        }
    }

    fn after_send_by_rounds(&mut self, q: &mut Quiescence, r: &mut Rounds, s: &Sent) {
        let now = s.tcp_now;
        // `process_qoption_after_ack` for the ACKs since the last send.
        if r.timed_end.is_some() && std::mem::take(&mut r.dup_round) {
            r.count += 1;
        }
        if r.timed_end.is_some_and(|e| self.snd_una >= e) {
            r.count += 1;
            r.timed_end = None;
        }
        let rtt = self.rtt.ns2_state().map_or(0, |v| v.srtt8 >> 3).max(1);
        if now - q.last >= 2 * rtt {
            let rounds = (now - q.last) * r.good / (rtt * 2) - std::mem::take(&mut r.backoffs);
            if rounds > 0 {
                self.cwnd_event(s.at, CwndEvent::QuiescentIdle { halvings: rounds as u32 });
                (r.prev, q.used) = (r.count, 0);
            }
        }
        q.last = now;
        if now - r.start >= 2 * rtt {
            if r.count > r.good || r.full {
                r.good = r.count.max(1);
            }
            r.prev -= r.count;
            (r.count, r.start, r.full) = (0, now, false);
        }
        if s.out == self.window_packets() {
            (q.used, r.full, r.prev) = (0, true, r.count);
        } else if s.last {
            q.used = q.used.max(s.out);
            if r.count - r.prev >= 2 {
                self.cwnd_event(s.at, CwndEvent::AppLimited { used: q.used });
                (r.prev, q.used) = (r.count, 0);
                r.backoffs += 1;
            }
        }
        r.timed_end.get_or_insert(s.end);
    }
}
