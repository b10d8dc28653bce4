//! Queue disciplines: which arriving packets a link direction accepts and,
//! for the few that decide at dequeue time, which packet leaves next.
//!
//! Most decide at enqueue time only, so the channel can compute every
//! accepted packet's departure the moment it arrives (see channel.rs). A
//! [`HoldingQueue`] (CoDel, FQ-CoDel, PIE, ns-2's DRR, SFQ and FQ, ns-2's RED
//! when a forced drop may take a waiting packet, a delaying buffer) keeps
//! its packets until the transmitter asks for the next one.

use crate::codel::{CoDel, Dequeued};
use crate::delay_buffer::DelayBuffer;
use crate::drr::Drr;
use crate::fq::Fq;
use crate::fq_codel::FqCoDel;
use crate::held::Held;
use crate::pie::Pie;
use crate::sfq::Sfq;
use ackclock_core::{Bandwidth, Duration, Instant, Mrg32k3a, SimRng};
use rand::RngExt;
use std::collections::VecDeque;

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
    /// ns-2's RED (red.cc) to the last rounding: its average, its count
    /// (the first arrival above min_th only starts it), no early drop while
    /// at most one packet (or byte) waits, idle time as whole mean-sized
    /// packets, a forced drop when waiting >= limit, and drop if u <= p.
    pub ns2: bool,
    /// ns-2's `ns1_compat_`: a forced drop does not restart the count of
    /// arrivals since the last early drop (as ns-1 did).
    pub ns1_compat: bool,
    /// Which packet a forced drop takes (ns-2's `drop_front_`,
    /// `drop_rand_`); other than the arrival only as a holding queue.
    pub victim: Victim,
}

/// The packet a forced drop takes, among the waiting ones and the arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Victim {
    Arrival,
    /// ns-2's `drop_front_`: the packet behind the head (index 1), or the
    /// head if it is alone.
    Front,
    /// ns-2's `drop_rand_`: one drawn uniformly.
    Random,
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
            victim: Victim::Arrival,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Red {
    pub params: RedParams,
    pub hard: DropTail,
    avg: f64,
    /// Packets since the last early drop or mark; -1 below min_th (ns-2's
    /// RED: counted always, restarted by the first arrival above min_th).
    count: i64,
    /// Bytes since the last early drop or mark (byte mode).
    count_bytes: u64,
    /// ns-2's `old`: the last arrival found the average above min_th and
    /// more than one packet waiting.
    above: bool,
    /// The queue the last arrival found, in the unit of the limit.
    seen: f64,
    /// A forced drop's victim other than the arrival: its index among the
    /// waiting packets and the arrival, for the holding queue to drop.
    displace: Option<usize>,
}

impl Red {
    pub fn new(params: RedParams, hard: DropTail) -> Self {
        Red { params, hard, avg: 0.0, count: -1, count_bytes: 0, above: false, seen: 0.0, displace: None }
    }

    pub fn average(&self) -> f64 {
        self.avg
    }

    /// The queue the last arrival found, and the average after it.
    pub fn seen(&self) -> (f64, f64) {
        (self.seen, self.avg)
    }

    fn queue_length(&self, b: &Backlog) -> f64 {
        match self.hard.limit {
            QueueLimit::Bytes(_) => b.waiting_bytes as f64,
            _ => f64::from(b.waiting_packets),
        }
    }

    fn update_average(&mut self, b: &Backlog, bandwidth: Bandwidth) {
        let w = self.params.weight;
        let q = self.queue_length(b);
        self.seen = q;
        if let Some(idle) = b.idle_for {
            // The queue was empty for `idle`: age the average as if m small
            // packets had arrived to an empty queue meanwhile.
            let per_packet = bandwidth.tx_time(self.params.mean_packet_size).as_ps().max(1) as f64;
            let m = idle.as_ps() as f64 / per_packet;
            self.avg *= (1.0 - w).powf(m);
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

    /// `shared` is ns-2's default generator when the simulation reproduces
    /// ns-2's draws: ns-2's RED draws from it in event order, among the
    /// agents' draws; otherwise the channel's own stream `rng`. `ns2_idle`
    /// is how long an idle link has been idle in ns-2's doubles (its clock
    /// minus when the queue last found itself empty), in ns-2's order.
    #[allow(clippy::too_many_arguments)]
    pub fn admit(
        &mut self,
        b: &Backlog,
        bandwidth: Bandwidth,
        size: u32,
        ecn_capable: bool,
        rng: &mut SimRng,
        shared: &mut Option<Mrg32k3a>,
        ns2_idle: Option<f64>,
    ) -> Admission {
        if self.params.ns2 {
            let mut draw = Draw { rng, shared };
            return self.admit_ns2(b, bandwidth, size, ecn_capable, ns2_idle, &mut draw);
        }
        self.update_average(b, bandwidth);
        let early = if self.avg < self.params.min_th {
            self.count = -1;
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

    /// ns-2's RED decision for an arrival (red.cc's enque), in ns-2's
    /// double arithmetic and with its draws, so that a run that shares
    /// ns-2's generator drops what ns-2 drops.
    fn admit_ns2(
        &mut self,
        b: &Backlog,
        bandwidth: Bandwidth,
        size: u32,
        ecn_capable: bool,
        ns2_idle: Option<f64>,
        draw: &mut Draw,
    ) -> Admission {
        let p = self.params;
        let q = self.queue_length(b);
        // ns-2 ages the average once per whole mean-sized packet time the
        // queue was idle, by repeated multiplication, then once more.
        let keep = 1.0 - p.weight;
        if let Some(idle) = b.idle_for {
            let per_second = bandwidth.bps() as f64 / (8.0 * f64::from(p.mean_packet_size));
            let idle_packets = (per_second * ns2_idle.unwrap_or(idle.as_secs_f64())) as u64;
            for _ in 0..idle_packets {
                if self.avg == 0.0 {
                    break;
                }
                self.avg *= keep;
            }
        }
        self.avg = self.avg * keep + p.weight * q;
        self.seen = q;
        self.count += 1;
        self.count_bytes += u64::from(size);
        let mut forced = false;
        let mut outcome = Admission::Accept;
        if self.avg >= p.min_th && q > 1.0 {
            let too_high = if p.gentle { self.avg >= 2.0 * p.max_th } else { self.avg >= p.max_th };
            if p.mark_p.is_none() && too_high {
                forced = true;
            } else if !self.above {
                self.above = true;
                self.count = 1;
                self.count_bytes = u64::from(size);
            } else {
                outcome = self.early_ns2(size, ecn_capable, draw);
            }
        } else {
            self.above = false;
        }
        forced |= match self.hard.limit {
            QueueLimit::Unlimited => false,
            QueueLimit::Packets(n) => b.waiting_packets >= n,
            QueueLimit::Bytes(n) => b.waiting_bytes >= n,
        };
        if !forced {
            return outcome;
        }
        self.restart_count_if_forced();
        // ns-2 queues the arrival, then drops the victim among all of them.
        let queued = b.waiting_packets as usize + 1;
        self.displace = match p.victim {
            Victim::Arrival => None,
            Victim::Front => Some(1.min(queued - 1)),
            Victim::Random => Some(draw.integer(queued)),
        };
        match self.displace {
            Some(i) if i + 1 < queued => Admission::Accept,
            _ => {
                self.displace = None;
                Admission::Drop
            }
        }
    }

    /// ns-2's calculate_p_new: the base probability from the average.
    fn probability_ns2(&self) -> f64 {
        let RedParams { min_th, max_th, max_p, gentle, .. } = self.params;
        let spread = if max_th == min_th { 1.0 } else { max_th - min_th };
        let p = if gentle && self.avg >= max_th {
            (1.0 - max_p) / max_th * self.avg + (2.0 * max_p - 1.0)
        } else if self.avg >= max_th {
            1.0
        } else {
            (1.0 / spread * self.avg + -min_th / spread) * max_p
        };
        p.min(1.0)
    }

    /// ns-2's modify_p and drop_early: the count-corrected probability and
    /// the draw.
    fn early_ns2(&mut self, size: u32, ecn_capable: bool, draw: &mut Draw) -> Admission {
        let params = &self.params;
        let base = self.probability_ns2();
        let mean = i64::from(params.mean_packet_size.max(1));
        let since = if params.byte_mode { (self.count_bytes as i64 / mean) as f64 } else { self.count as f64 };
        let mut p = if params.wait {
            if since * base < 1.0 {
                0.0
            } else if since * base < 2.0 {
                base / (2.0 - since * base)
            } else {
                1.0
            }
        } else if since * base < 1.0 {
            base / (1.0 - since * base)
        } else {
            1.0
        };
        if params.byte_mode && p < 1.0 {
            p = p * f64::from(size) / mean as f64;
        }
        if draw.uniform() > p.min(1.0) {
            return Admission::Accept;
        }
        self.count = 0;
        self.count_bytes = 0;
        if params.ecn && ecn_capable && params.mark_p.is_none_or(|limit| base <= limit) {
            Admission::Mark
        } else {
            Admission::EarlyDrop
        }
    }

    /// The victim a forced drop chose at the last admission, if it is a
    /// waiting packet's index (or the arrival's, which is last).
    fn take_displaced(&mut self) -> Option<usize> {
        self.displace.take()
    }
}

/// Where ns-2's RED draws: ns-2's shared default generator, else the
/// channel's own stream.
struct Draw<'a, 'b> {
    rng: &'a mut SimRng,
    shared: &'b mut Option<Mrg32k3a>,
}

impl Draw<'_, '_> {
    /// ns-2's Random::uniform().
    fn uniform(&mut self) -> f64 {
        match self.shared {
            Some(g) => g.next_u01(),
            None => self.rng.random::<f64>(),
        }
    }

    /// ns-2's Random::integer(k): a draw scaled to [0, 2^31), modulo k.
    fn integer(&mut self, k: usize) -> usize {
        (2_147_483_648.0 * self.uniform()) as usize % k
    }
}

/// ns-2's RED with `drop_front_` or `drop_rand_`: a forced drop may take a
/// packet already waiting, so the queue holds its packets until the
/// transmitter takes them.
#[derive(Clone, Debug)]
pub struct HeldRed {
    pub red: Red,
    queue: VecDeque<Held>,
}

impl HeldRed {
    pub fn new(red: Red) -> Self {
        HeldRed { red, queue: VecDeque::new() }
    }

    fn hold(&mut self, p: Held, dropped: &mut Vec<Held>) {
        self.queue.push_back(p);
        if let Some(victim) = self.red.take_displaced().and_then(|i| self.queue.remove(i)) {
            dropped.push(victim);
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
    Red(HeldRed),
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
    #[allow(clippy::too_many_arguments)]
    fn admit(
        &mut self,
        now: Instant,
        b: &Backlog,
        bandwidth: Bandwidth,
        size: u32,
        ecn_capable: bool,
        rng: &mut SimRng,
        shared: &mut Option<Mrg32k3a>,
        ns2_idle: Option<f64>,
    ) -> Admission {
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
            HoldingQueue::Red(r) => r.red.admit(b, bandwidth, size, ecn_capable, rng, shared, ns2_idle),
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
            HoldingQueue::Red(r) => r.hold(p, dropped),
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
            HoldingQueue::Red(r) => r.queue.pop_front().map(|held| Dequeued { held, ce_marked: false }).into(),
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
            HoldingQueue::Red(r) => r.queue.drain(..).collect(),
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

    /// Decides the fate of an arriving packet; RED draws from `shared`,
    /// ns-2's default generator, when given, and asks `ns2_idle` for the
    /// link's idle time in ns-2's doubles. Always inlined: DropTail's test
    /// is a few instructions on every packet's path, and computes nothing
    /// for RED.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn admit(
        &mut self,
        now: Instant,
        b: &Backlog,
        bandwidth: Bandwidth,
        size: u32,
        ecn_capable: bool,
        rng: &mut SimRng,
        shared: &mut Option<Mrg32k3a>,
        ns2_idle: impl FnOnce() -> Option<f64>,
    ) -> Admission {
        match self {
            Discipline::DropTail(d) if d.is_full(b, size) => Admission::Drop,
            Discipline::DropTail(_) => Admission::Accept,
            Discipline::Red(r) => r.admit(b, bandwidth, size, ecn_capable, rng, shared, ns2_idle()),
            Discipline::StepMark(m) => m.admit(b, size, ecn_capable),
            Discipline::Holding(h) => h.admit(now, b, bandwidth, size, ecn_capable, rng, shared, ns2_idle()),
        }
    }

    /// The RED state, whether the queue holds its packets or not.
    pub fn red(&self) -> Option<&Red> {
        match self {
            Discipline::Red(red) => Some(red),
            Discipline::Holding(h) => match &**h {
                HoldingQueue::Red(r) => Some(&r.red),
                _ => None,
            },
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::RngStreams;

    fn waiting(n: u32) -> Backlog {
        Backlog {
            waiting_packets: n,
            waiting_bytes: u64::from(n) * 1000,
            in_service_bytes: Some(1000),
            ..Backlog::default()
        }
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
        assert_eq!(red.admit(&waiting(4), bw, 500, false, &mut rng, &mut None, None), Admission::Accept);
        assert_eq!(red.admit(&waiting(31), bw, 500, true, &mut rng, &mut None, None), Admission::Drop);
    }

    #[test]
    fn red_marks_instead_of_dropping_ecn_capable_packets() {
        let mut rng = RngStreams::new(1, 0).stream("red");
        let bw = Bandwidth::from_bps(1_000_000).unwrap();
        let hard = DropTail { limit: QueueLimit::Unlimited, ns2_limit: false };
        let params = RedParams { weight: 1.0, ecn: true, max_p: 1.0, ..RedParams::default() };
        let mut red = Red::new(params, hard);
        // avg = max_th with gentle RED: pb = 1, so every arrival is hit.
        let outcomes: Vec<_> =
            (0..2).map(|_| red.admit(&waiting(15), bw, 500, true, &mut rng, &mut None, None)).collect();
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
        let drops = (0..n)
            .filter(|_| red.admit(&waiting(10), bw, 500, false, &mut rng, &mut None, None) == Admission::EarlyDrop)
            .count();
        let expected = n as f64 / (1.0 / (2.0 * 0.05) + 0.5);
        assert!((drops as f64 - expected).abs() < 0.08 * expected, "drops {drops}, expected {expected}");
    }

    #[test]
    fn ns1_compat_keeps_the_count_across_a_forced_drop() {
        // No early drop (max_p tiny); ns-2's hard limit forces one when 12 wait.
        let mut rng = RngStreams::new(1, 0).stream("red");
        let bw = Bandwidth::from_bps(1_000_000).unwrap();
        for (ns1_compat, count) in [(false, 0), (true, 2)] {
            let params = RedParams { weight: 1.0, max_p: 1e-12, ns2: true, ns1_compat, ..RedParams::default() };
            let mut red = Red::new(params, DropTail { limit: QueueLimit::Packets(12), ns2_limit: true });
            assert_eq!(red.admit(&waiting(10), bw, 500, false, &mut rng, &mut None, None), Admission::Accept);
            assert_eq!(red.admit(&waiting(12), bw, 500, false, &mut rng, &mut None, None), Admission::Drop);
            assert_eq!(red.count, count, "ns1_compat {ns1_compat}");
        }
    }

    #[test]
    fn red_average_decays_over_idle_time() {
        let bw = Bandwidth::from_bps(8_000_000).unwrap(); // 500 B in 0.5 ms
        let hard = DropTail { limit: QueueLimit::Unlimited, ns2_limit: false };
        let mut red = Red::new(RedParams { weight: 0.5, ..RedParams::default() }, hard);
        let mut rng = RngStreams::new(1, 0).stream("red");
        red.admit(&waiting(8), bw, 500, false, &mut rng, &mut None, None);
        assert_eq!(red.average(), 4.0);
        // Idle for 2 packet times: avg *= 0.5^2, then one more update with q = 0.
        let idle = Backlog { idle_for: Some(Duration::from_millis(1)), ..Backlog::default() };
        red.admit(&idle, bw, 500, false, &mut rng, &mut None, None);
        assert!((red.average() - 0.5).abs() < 1e-12, "{}", red.average());
    }

    fn ns2_red(limit: u32, victim: Victim) -> Red {
        // max_p tiny: no early drop, only forced ones.
        let params = RedParams { weight: 1.0, max_p: 1e-12, ns2: true, victim, ..RedParams::default() };
        Red::new(params, DropTail { limit: QueueLimit::Packets(limit), ns2_limit: false })
    }

    #[test]
    fn ns2_red_forces_a_drop_for_a_high_average_even_at_the_first_arrival_above_min_th() {
        let mut rng = RngStreams::new(1, 0).stream("red");
        let bw = Bandwidth::from_bps(1_000_000).unwrap();
        let mut red = ns2_red(100, Victim::Arrival);
        // avg 2 (at most one waiting: nothing counted), then 31 > 2 max_th.
        assert_eq!(red.admit(&waiting(2), bw, 500, false, &mut rng, &mut None, None), Admission::Accept);
        assert_eq!(red.admit(&waiting(31), bw, 500, false, &mut rng, &mut None, None), Admission::Drop);
    }

    #[test]
    fn ns2_drop_rand_takes_the_packet_ns2s_integer_draw_picks() {
        // ns-2's generator seeded with 1 first draws 729236 (of 2^31): with
        // three waiting and the arrival, index 729236 % 4 = 0, the head.
        let mut ns2_rng = Some(Mrg32k3a::new([1; 6]).unwrap());
        let mut rng = RngStreams::new(1, 0).stream("red");
        let bw = Bandwidth::from_bps(1_000_000).unwrap();
        let mut q = HeldRed::new(ns2_red(3, Victim::Random));
        let held = |i: u32| Held {
            packet: crate::pool::PacketId::new(i),
            size: 500,
            flow: 0,
            src: 0,
            dst: 1,
            ecn_capable: false,
            enqueued: Instant::ZERO,
        };
        let mut dropped = Vec::new();
        for i in 0..3 {
            q.hold(held(i), &mut dropped);
        }
        let outcome = q.red.admit(&waiting(3), bw, 500, false, &mut rng, &mut ns2_rng, None);
        assert_eq!(outcome, Admission::Accept, "the arrival is queued, a waiting packet goes");
        q.hold(held(3), &mut dropped);
        assert_eq!(dropped, [held(0)]);
        let left: Vec<u32> = q.queue.iter().map(|h| h.packet.raw()).collect();
        assert_eq!(left, [1, 2, 3]);
    }

    #[test]
    fn ns2_drop_front_takes_the_packet_behind_the_head() {
        let mut rng = RngStreams::new(1, 0).stream("red");
        let bw = Bandwidth::from_bps(1_000_000).unwrap();
        let mut red = ns2_red(3, Victim::Front);
        assert_eq!(red.admit(&waiting(3), bw, 500, false, &mut rng, &mut None, None), Admission::Accept);
        assert_eq!(red.take_displaced(), Some(1));
        // Alone (a limit of 0): the arrival itself.
        let mut red = ns2_red(0, Victim::Front);
        assert_eq!(red.admit(&waiting(0), bw, 500, false, &mut rng, &mut None, None), Admission::Drop);
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
