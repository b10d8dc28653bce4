//! Queue disciplines: which arriving packets a link direction accepts and,
//! for the few that decide at dequeue time, which packet leaves next.
//!
//! Most decide at enqueue time only, so the channel can compute every
//! accepted packet's departure the moment it arrives (see channel.rs). A
//! [`HoldingQueue`] (CoDel, FQ-CoDel, PIE, ns-2's DRR, SFQ and FQ, a delaying
//! buffer) keeps its packets until the transmitter asks for the next one.

use crate::codel::{CoDel, Dequeued};
use crate::delay_buffer::DelayBuffer;
use crate::drr::Drr;
use crate::fq::Fq;
use crate::fq_codel::FqCoDel;
use crate::held::Held;
use crate::pie::Pie;
use crate::sfq::Sfq;
use ackclock_core::{Bandwidth, Duration, Instant, SimRng};
use rand::RngExt;

/// What the queue limit counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QueueLimit {
    Unlimited,
    Packets(u32),
    Bytes(u64),
}

/// The state of a channel's queue when a packet arrives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Backlog {
    pub waiting_packets: u32,
    pub waiting_bytes: u64,
    /// Size of the packet being transmitted, if any.
    pub in_service_bytes: Option<u32>,
    /// How long the link has been idle with an empty queue, if it is.
    pub idle_for: Option<Duration>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    Accept,
    /// Accept with the ECN CE mark instead of an early drop (RFC 3168).
    Mark,
    Drop,
    /// RED's random (early, ns-2's "unforced") drop, which monitors may
    /// count apart; a full queue or a high average drops with `Drop`.
    EarlyDrop,
}

/// Tail drop at a hard limit.
///
/// `ns2_limit` selects ns-2's convention, where the limit counts the packet
/// in transmission: an arrival is dropped when waiting + 1 >= limit, so at
/// most limit - 1 wait. Otherwise the limit counts waiting packets only.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DropTail {
    pub limit: QueueLimit,
    pub ns2_limit: bool,
}

impl DropTail {
    pub fn is_full(&self, b: &Backlog, size: u32) -> bool {
        match self.limit {
            QueueLimit::Unlimited => false,
            QueueLimit::Packets(n) if self.ns2_limit => b.waiting_packets + 1 >= n,
            QueueLimit::Packets(n) => b.waiting_packets >= n,
            QueueLimit::Bytes(n) => {
                let in_service = if self.ns2_limit { u64::from(b.in_service_bytes.unwrap_or(0)) } else { 0 };
                b.waiting_bytes + in_service + u64::from(size) > n
            }
        }
    }
}

/// RED parameters (Floyd & Jacobson 1993), thresholds in the unit of the
/// queue limit (packets, or bytes for a byte limit). Defaults are ns-2's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedParams {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    /// w_q, the weight of the exponential moving average.
    pub weight: f64,
    /// Ramp the drop probability from max_p to 1 between max_th and 2 max_th.
    pub gentle: bool,
    /// Mark ECN-capable packets instead of dropping them early.
    pub ecn: bool,
    /// Typical packet size, for decaying the average over idle time.
    pub mean_packet_size: u32,
    /// Space early drops at least 1/p apart, uniformly up to 2/p (ns-2's
    /// `wait_`) instead of up to 1/p.
    pub wait: bool,
    /// Byte mode (ns-2's `bytes_`): arrivals since the last drop are counted
    /// in mean-sized packets of bytes, and a packet's drop probability
    /// grows with its size.
    pub byte_mode: bool,
    /// With ECN, mark only while the base probability is at most this (else
    /// drop), and never drop for a high average alone (ns-2's `mark_p_`
    /// with `use_mark_p_`).
    pub mark_p: Option<f64>,
    /// ns-2's details (red.cc): the first arrival above min_th only starts
    /// the count, nothing is dropped early while at most one packet waits,
    /// and an idle period counts as whole packets.
    pub ns2: bool,
    /// ns-2's `ns1_compat_`: a forced drop does not restart the count of
    /// arrivals since the last early drop (as ns-1 did).
    pub ns1_compat: bool,
}

impl Default for RedParams {
    fn default() -> Self {
        RedParams {
            min_th: 5.0,
            max_th: 15.0,
            max_p: 0.1,
            weight: 0.002,
            gentle: true,
            ecn: false,
            mean_packet_size: 500,
            wait: false,
            byte_mode: false,
            mark_p: None,
            ns2: false,
            ns1_compat: false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Red {
    pub params: RedParams,
    pub hard: DropTail,
    avg: f64,
    /// Packets since the last early drop or mark; -1 below min_th.
    count: i64,
    /// Bytes since the last early drop or mark (byte mode).
    count_bytes: u64,
    /// The queue the last arrival found, in the unit of the limit.
    seen: f64,
}

impl Red {
    pub fn new(params: RedParams, hard: DropTail) -> Self {
        Red { params, hard, avg: 0.0, count: -1, count_bytes: 0, seen: 0.0 }
    }

    pub fn average(&self) -> f64 {
        self.avg
    }

    /// The queue the last arrival found, and the average after it.
    pub fn seen(&self) -> (f64, f64) {
        (self.seen, self.avg)
    }

    fn update_average(&mut self, b: &Backlog, bandwidth: Bandwidth) {
        let w = self.params.weight;
        let q = match self.hard.limit {
            QueueLimit::Bytes(_) => b.waiting_bytes as f64,
            _ => f64::from(b.waiting_packets),
        };
        self.seen = q;
        if let Some(idle) = b.idle_for {
            // The queue was empty for `idle`: age the average as if m small
            // packets had arrived to an empty queue meanwhile.
            let per_packet = bandwidth.tx_time(self.params.mean_packet_size).as_ps().max(1) as f64;
            let m = idle.as_ps() as f64 / per_packet;
            self.avg *= (1.0 - w).powf(if self.params.ns2 { m.trunc() } else { m });
        }
        self.avg = (1.0 - w) * self.avg + w * q;
    }

    /// The early-drop probability for the current average, before the count
    /// correction; `None` means a forced drop.
    fn base_probability(&self) -> Option<f64> {
        let RedParams { min_th, max_th, max_p, gentle, .. } = self.params;
        if self.avg < max_th {
            Some(max_p * (self.avg - min_th) / (max_th - min_th))
        } else if gentle && self.avg < 2.0 * max_th {
            Some(max_p + (1.0 - max_p) * (self.avg - max_th) / max_th)
        } else {
            None
        }
    }

    pub fn admit(
        &mut self,
        b: &Backlog,
        bandwidth: Bandwidth,
        size: u32,
        ecn_capable: bool,
        rng: &mut SimRng,
    ) -> Admission {
        self.update_average(b, bandwidth);
        let early = if self.avg < self.params.min_th || (self.params.ns2 && b.waiting_packets <= 1) {
            self.count = -1;
            Admission::Accept
        } else if self.params.ns2 && self.count < 0 {
            // ns-2 only starts counting with the first arrival above min_th.
            self.count = 1;
            self.count_bytes = u64::from(size);
            Admission::Accept
        } else {
            self.count += 1;
            self.count_bytes += u64::from(size);
            match self.base_probability() {
                Some(pb) if self.params.mark_p.is_none_or(|limit| pb <= limit) || !self.params.ecn => {
                    self.early(pb, size, ecn_capable, rng)
                }
                Some(pb) => self.early(pb, size, false, rng),
                None => match self.params.mark_p {
                    // Beyond the ramp the probability is 1: marked if mark_p allows it.
                    Some(limit) => self.early(1.0, size, ecn_capable && limit >= 1.0, rng),
                    None => {
                        self.restart_count_if_forced();
                        Admission::Drop
                    }
                },
            }
        };
        if early != Admission::Drop && self.hard.is_full(b, size) {
            if self.params.ns2 {
                self.restart_count_if_forced();
            }
            return Admission::Drop;
        }
        early
    }

    /// A forced drop restarts the count (ns-2's fix), unless ns1_compat.
    fn restart_count_if_forced(&mut self) {
        if !self.params.ns1_compat {
            self.count = 0;
            self.count_bytes = 0;
        }
    }

    /// The count-corrected early decision for base probability `pb`.
    fn early(&mut self, pb: f64, size: u32, may_mark: bool, rng: &mut SimRng) -> Admission {
        let p = &self.params;
        let since = if p.byte_mode {
            (self.count_bytes / u64::from(p.mean_packet_size.max(1))) as f64
        } else {
            self.count as f64
        };
        let spread = since * pb;
        let mut pa = if p.wait {
            if spread < 1.0 {
                0.0
            } else if spread < 2.0 {
                pb / (2.0 - spread)
            } else {
                1.0
            }
        } else if spread < 1.0 {
            pb / (1.0 - spread)
        } else {
            1.0
        };
        if p.byte_mode && pa < 1.0 {
            pa = pa * f64::from(size) / f64::from(p.mean_packet_size.max(1));
        }
        if rng.random::<f64>() >= pa.min(1.0) {
            return Admission::Accept;
        }
        self.count = 0;
        self.count_bytes = 0;
        if may_mark && p.ecn {
            Admission::Mark
        } else {
            Admission::EarlyDrop
        }
    }
}

/// DCTCP's marking (RFC 8257 §3.1; Alizadeh et al., SIGCOMM 2010): an
/// ECN-capable packet that finds `k` or more packets waiting is marked CE,
/// at once rather than by an average (a step, not RED's ramp); arrivals
/// beyond the hard limit are dropped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepMark {
    pub k: u32,
    pub hard: DropTail,
}

impl StepMark {
    pub fn admit(&self, b: &Backlog, size: u32, ecn_capable: bool) -> Admission {
        if self.hard.is_full(b, size) {
            Admission::Drop
        } else if ecn_capable && b.waiting_packets >= self.k {
            Admission::Mark
        } else {
            Admission::Accept
        }
    }
}

/// A discipline that holds its packets and picks, at each dequeue, the
/// next one to send and those to drop.
#[derive(Clone, Debug)]
pub enum HoldingQueue {
    CoDel(CoDel),
    FqCoDel(FqCoDel),
    Pie(Pie),
    Drr(Drr),
    Sfq(Sfq),
    Fq(Fq),
    DelayBuffer(DelayBuffer),
}

/// What a holding discipline has for a free transmitter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Send(Dequeued),
    /// Nothing may leave before this time.
    Wait(Instant),
    Empty,
}

impl From<Option<Dequeued>> for Next {
    fn from(d: Option<Dequeued>) -> Self {
        d.map_or(Next::Empty, Next::Send)
    }
}

impl HoldingQueue {
    #[cold]
    #[inline(never)]
    fn admit(&mut self, now: Instant, b: &Backlog, size: u32, ecn_capable: bool, rng: &mut SimRng) -> Admission {
        match self {
            HoldingQueue::CoDel(c) if c.hard.is_full(b, size) => Admission::Drop,
            HoldingQueue::DelayBuffer(d) if d.hard.is_full(b, size) => Admission::Drop,
            // These decide when they hold the packet (`hold`): FQ-CoDel and
            // DRR make room by dropping from the fattest queue, SFQ and FQ
            // refuse.
            HoldingQueue::CoDel(_)
            | HoldingQueue::FqCoDel(_)
            | HoldingQueue::Drr(_)
            | HoldingQueue::Sfq(_)
            | HoldingQueue::Fq(_)
            | HoldingQueue::DelayBuffer(_) => Admission::Accept,
            HoldingQueue::Pie(p) => p.admit(now, b, size, ecn_capable, rng),
        }
    }

    /// Keeps an admitted packet; what it pushes out goes to `dropped`.
    pub fn hold(&mut self, p: Held, dropped: &mut Vec<Held>, rng: &mut SimRng) {
        match self {
            HoldingQueue::CoDel(c) => c.hold(p),
            HoldingQueue::FqCoDel(f) => f.hold(p, dropped),
            HoldingQueue::Pie(q) => q.hold(p),
            HoldingQueue::Drr(q) => q.hold(p, dropped),
            HoldingQueue::Sfq(q) => q.hold(p, dropped),
            HoldingQueue::Fq(q) => q.hold(p, dropped),
            HoldingQueue::DelayBuffer(d) => d.hold(p, rng),
        }
    }

    /// What to send at `now`; what it drops goes to `dropped`.
    pub fn dequeue(&mut self, now: Instant, dropped: &mut Vec<Held>) -> Next {
        match self {
            HoldingQueue::CoDel(c) => c.dequeue(now, dropped).into(),
            HoldingQueue::FqCoDel(f) => f.dequeue(now, dropped).into(),
            HoldingQueue::Pie(q) => q.dequeue(now).into(),
            HoldingQueue::DelayBuffer(d) => d.dequeue(now),
            HoldingQueue::Drr(q) => q.dequeue().into(),
            HoldingQueue::Sfq(q) => q.dequeue().into(),
            HoldingQueue::Fq(q) => q.dequeue(now).into(),
        }
    }

    /// Everything held, leaving the discipline empty (the link went down).
    pub fn drain(&mut self) -> Vec<Held> {
        match self {
            HoldingQueue::CoDel(c) => c.queue_mut().drain().collect(),
            HoldingQueue::FqCoDel(f) => f.drain(),
            HoldingQueue::Pie(q) => q.queue_mut().drain().collect(),
            HoldingQueue::Drr(q) => q.drain(),
            HoldingQueue::Sfq(q) => q.drain(),
            HoldingQueue::Fq(q) => q.drain(),
            HoldingQueue::DelayBuffer(d) => d.drain(),
        }
    }

    /// Tells a discipline that keys its queues by the flows' own ids
    /// (ns-2's FQ, by `fid_`) the id of each simulation flow, by index.
    pub fn set_flow_ids(&mut self, fids: &[u32]) {
        if let HoldingQueue::Fq(q) = self {
            q.set_flow_ids(fids);
        }
    }
}

#[derive(Clone, Debug)]
pub enum Discipline {
    DropTail(DropTail),
    Red(Red),
    StepMark(StepMark),
    Holding(Box<HoldingQueue>),
}

impl Discipline {
    /// ns-2's DropTail: `limit` packets, counting the one in transmission.
    pub fn ns2_drop_tail(limit: u32) -> Self {
        Discipline::DropTail(DropTail { limit: QueueLimit::Packets(limit), ns2_limit: true })
    }

    /// Decides the fate of an arriving packet. Always inlined: DropTail's
    /// test is a few instructions on every packet's path.
    #[inline(always)]
    pub fn admit(
        &mut self,
        now: Instant,
        b: &Backlog,
        bandwidth: Bandwidth,
        size: u32,
        ecn_capable: bool,
        rng: &mut SimRng,
    ) -> Admission {
        match self {
            Discipline::DropTail(d) if d.is_full(b, size) => Admission::Drop,
            Discipline::DropTail(_) => Admission::Accept,
            Discipline::Red(r) => r.admit(b, bandwidth, size, ecn_capable, rng),
            Discipline::StepMark(m) => m.admit(b, size, ecn_capable),
            Discipline::Holding(h) => h.admit(now, b, size, ecn_capable, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::RngStreams;

    fn waiting(n: u32) -> Backlog {
        Backlog { waiting_packets: n, waiting_bytes: u64::from(n) * 1000, in_service_bytes: Some(1000), idle_for: None }
    }

    #[test]
    fn droptail_ns2_convention_allows_limit_minus_one_waiting() {
        let q = DropTail { limit: QueueLimit::Packets(7), ns2_limit: true };
        assert!(!q.is_full(&waiting(5), 1000));
        assert!(q.is_full(&waiting(6), 1000));
    }

    #[test]
    fn droptail_usual_convention_allows_limit_waiting() {
        let q = DropTail { limit: QueueLimit::Packets(7), ns2_limit: false };
        assert!(!q.is_full(&waiting(6), 1000));
        assert!(q.is_full(&waiting(7), 1000));
    }

    #[test]
    fn droptail_byte_limit_counts_the_arrival_and_optionally_the_packet_in_service() {
        let usual = DropTail { limit: QueueLimit::Bytes(3000), ns2_limit: false };
        assert!(!usual.is_full(&waiting(2), 1000));
        assert!(usual.is_full(&waiting(2), 1001));
        let ns2 = DropTail { limit: QueueLimit::Bytes(3000), ns2_limit: true };
        assert!(ns2.is_full(&waiting(2), 1000));
    }

    #[test]
    fn red_accepts_below_min_threshold_and_drops_above_twice_max() {
        let mut rng = RngStreams::new(1, 0).stream("red");
        let bw = Bandwidth::from_bps(1_000_000).unwrap();
        let hard = DropTail { limit: QueueLimit::Unlimited, ns2_limit: false };
        let mut red = Red::new(RedParams { weight: 1.0, ..RedParams::default() }, hard);
        assert_eq!(red.admit(&waiting(4), bw, 500, false, &mut rng), Admission::Accept);
        assert_eq!(red.admit(&waiting(31), bw, 500, true, &mut rng), Admission::Drop);
    }

    #[test]
    fn red_marks_instead_of_dropping_ecn_capable_packets() {
        let mut rng = RngStreams::new(1, 0).stream("red");
        let bw = Bandwidth::from_bps(1_000_000).unwrap();
        let hard = DropTail { limit: QueueLimit::Unlimited, ns2_limit: false };
        let params = RedParams { weight: 1.0, ecn: true, max_p: 1.0, ..RedParams::default() };
        let mut red = Red::new(params, hard);
        // avg = max_th with gentle RED: pb = 1, so every arrival is hit.
        let outcomes: Vec<_> = (0..2).map(|_| red.admit(&waiting(15), bw, 500, true, &mut rng)).collect();
        assert!(outcomes.contains(&Admission::Mark));
        assert!(!outcomes.contains(&Admission::Drop));
    }

    #[test]
    fn red_early_drop_rate_matches_the_linear_ramp() {
        // avg fixed at 10 packets (weight 1): pb = 0.1 * 5/10 = 0.05; with the
        // count correction drops are spaced uniformly in 1..=1/pb, mean ~ 1/(2pb)+1/2.
        let mut rng = RngStreams::new(3, 0).stream("red");
        let bw = Bandwidth::from_bps(1_000_000).unwrap();
        let hard = DropTail { limit: QueueLimit::Unlimited, ns2_limit: false };
        let mut red = Red::new(RedParams { weight: 1.0, ..RedParams::default() }, hard);
        let n = 20_000;
        let drops =
            (0..n).filter(|_| red.admit(&waiting(10), bw, 500, false, &mut rng) == Admission::EarlyDrop).count();
        let expected = n as f64 / (1.0 / (2.0 * 0.05) + 0.5);
        assert!((drops as f64 - expected).abs() < 0.08 * expected, "drops {drops}, expected {expected}");
    }

    #[test]
    fn ns1_compat_keeps_the_count_across_a_forced_drop() {
        // No early drop (max_p tiny); the hard limit forces one at 11 waiting.
        let mut rng = RngStreams::new(1, 0).stream("red");
        let bw = Bandwidth::from_bps(1_000_000).unwrap();
        for (ns1_compat, count) in [(false, 0), (true, 2)] {
            let params = RedParams { weight: 1.0, max_p: 1e-12, ns2: true, ns1_compat, ..RedParams::default() };
            let mut red = Red::new(params, DropTail { limit: QueueLimit::Packets(12), ns2_limit: true });
            assert_eq!(red.admit(&waiting(10), bw, 500, false, &mut rng), Admission::Accept);
            assert_eq!(red.admit(&waiting(11), bw, 500, false, &mut rng), Admission::Drop);
            assert_eq!(red.count, count, "ns1_compat {ns1_compat}");
        }
    }

    #[test]
    fn red_average_decays_over_idle_time() {
        let bw = Bandwidth::from_bps(8_000_000).unwrap(); // 500 B in 0.5 ms
        let hard = DropTail { limit: QueueLimit::Unlimited, ns2_limit: false };
        let mut red = Red::new(RedParams { weight: 0.5, ..RedParams::default() }, hard);
        let mut rng = RngStreams::new(1, 0).stream("red");
        red.admit(&waiting(8), bw, 500, false, &mut rng);
        assert_eq!(red.average(), 4.0);
        // Idle for 2 packet times: avg *= 0.5^2, then one more update with q = 0.
        let idle = Backlog { idle_for: Some(Duration::from_millis(1)), ..Backlog::default() };
        red.admit(&idle, bw, 500, false, &mut rng);
        assert!((red.average() - 0.5).abs() < 1e-12, "{}", red.average());
    }

    #[test]
    fn step_marking_marks_ecn_capable_arrivals_that_find_k_waiting() {
        let q = StepMark { k: 5, hard: DropTail { limit: QueueLimit::Packets(10), ns2_limit: false } };
        assert_eq!(q.admit(&waiting(4), 1000, true), Admission::Accept);
        assert_eq!(q.admit(&waiting(5), 1000, true), Admission::Mark);
        assert_eq!(q.admit(&waiting(5), 1000, false), Admission::Accept, "not ECN-capable: no mark");
        assert_eq!(q.admit(&waiting(10), 1000, true), Admission::Drop, "the hard limit");
    }
}
