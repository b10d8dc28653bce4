//! CoDel, "Controlled Delay" (RFC 8289; Nichols and Jacobson, ACM Queue
//! 10(5), 2012): an AQM that looks at how long packets waited, not how
//! many wait.
//!
//! At every dequeue CoDel reads the head packet's sojourn time. While the
//! sojourn stays above `target` for a whole `interval` (and more than one
//! MTU waits), the queue is a standing queue, not a burst: CoDel enters
//! its dropping state, drops (or, for ECN-capable packets with `ecn`,
//! marks) the head, and schedules the next drop at `interval / sqrt(count)`,
//! so the drop rate grows until the sojourn falls below `target`. Entering
//! the state again soon after leaving it resumes near the old drop rate.
//!
//! ```text
//!            sojourn > target for interval
//!   ┌──────┐ ─────────────────────────────▶ ┌──────────┐  drop at drop_next,
//!   │ idle │                                │ dropping │  drop_next += interval/√count
//!   └──────┘ ◀───────────────────────────── └──────────┘
//!            sojourn < target, or < 1 MTU waiting
//! ```
//!
//! | parameter  | default | range | source |
//! |------------|---------|-------|--------|
//! | `target`   | 5 ms    | > 0   | RFC 8289 §4.4 |
//! | `interval` | 100 ms  | > 0   | RFC 8289 §4.5 |
//! | `mtu`      | 1500 B  | ≥ 1   | RFC 8289 §4.2 (MAXPACKET) |
//! | `ecn`      | off     |       | RFC 8289 §5 (Linux `codel` default) |
//! | `limit`    | 1000 packets | | Linux `codel` default |

use crate::discipline::DropTail;
use crate::held::{Fifo, Held};
use ackclock_core::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoDelParams {
    pub target: Duration,
    pub interval: Duration,
    /// Below this many bytes waiting the queue is never a standing queue.
    pub mtu: u32,
    /// Mark ECN-capable packets instead of dropping them.
    pub ecn: bool,
}

impl Default for CoDelParams {
    fn default() -> Self {
        CoDelParams { target: Duration::from_millis(5), interval: Duration::from_millis(100), mtu: 1500, ecn: false }
    }
}

/// The control loop's state for one queue (FQ-CoDel keeps one per flow).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CoDelState {
    /// When the sojourn time will have been above target for an interval.
    first_above_time: Option<Instant>,
    dropping: bool,
    drop_next: Instant,
    /// Drops (and marks) since entering the dropping state.
    count: u32,
    /// `count` when the dropping state was last entered.
    last_count: u32,
}

/// A packet CoDel hands to the transmitter, and whether it marked it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dequeued {
    pub held: Held,
    pub ce_marked: bool,
}

impl CoDelState {
    /// Takes the next packet of `queue` at `now`, dropping into `dropped`
    /// what the control law drops on the way; `elsewhere` bytes wait in
    /// other queues of the same discipline.
    pub fn dequeue(
        &mut self,
        now: Instant,
        p: &CoDelParams,
        queue: &mut Fifo,
        elsewhere: u64,
        dropped: &mut Vec<Held>,
    ) -> Option<Dequeued> {
        let (mut head, mut ok_to_drop) = self.pop_head(now, p, queue, elsewhere)?;
        if self.dropping {
            if !ok_to_drop {
                self.dropping = false;
            }
            while self.dropping && now >= self.drop_next {
                self.count += 1;
                if let Some(marked) = self.mark(p, head) {
                    self.drop_next = control_law(self.drop_next, p.interval, self.count);
                    return Some(marked);
                }
                dropped.push(head);
                (head, ok_to_drop) = self.pop_head(now, p, queue, elsewhere)?;
                if ok_to_drop {
                    self.drop_next = control_law(self.drop_next, p.interval, self.count);
                } else {
                    self.dropping = false;
                }
            }
        } else if ok_to_drop {
            // A drop rate that worked recently is a better start than one.
            let delta = self.count.saturating_sub(self.last_count);
            let recent = now.saturating_since(self.drop_next) < p.interval * 16;
            self.count = if delta > 1 && recent { delta } else { 1 };
            self.last_count = self.count;
            self.dropping = true;
            self.drop_next = control_law(now, p.interval, self.count);
            if let Some(marked) = self.mark(p, head) {
                return Some(marked);
            }
            dropped.push(head);
            (head, _) = self.pop_head(now, p, queue, elsewhere)?;
        }
        Some(Dequeued { held: head, ce_marked: false })
    }

    /// RFC 8289's `dodequeue`: the head and whether the standing queue has
    /// lasted an interval; an empty queue ends the dropping state.
    fn pop_head(&mut self, now: Instant, p: &CoDelParams, queue: &mut Fifo, elsewhere: u64) -> Option<(Held, bool)> {
        let Some(head) = queue.pop() else {
            self.first_above_time = None;
            self.dropping = false;
            return None;
        };
        let sojourn = now.saturating_since(head.enqueued);
        if sojourn < p.target || queue.bytes() + elsewhere <= u64::from(p.mtu) {
            self.first_above_time = None;
            return Some((head, false));
        }
        match self.first_above_time {
            None => {
                self.first_above_time = Some(now + p.interval);
                Some((head, false))
            }
            Some(t) => Some((head, now >= t)),
        }
    }

    fn mark(&self, p: &CoDelParams, head: Held) -> Option<Dequeued> {
        (p.ecn && head.ecn_capable).then_some(Dequeued { held: head, ce_marked: true })
    }
}

/// The next drop: `interval / sqrt(count)` after `t`.
fn control_law(t: Instant, interval: Duration, count: u32) -> Instant {
    t + Duration::from_ps((interval.as_ps() as f64 / f64::from(count.max(1)).sqrt()) as u64)
}

/// A single FIFO managed by CoDel, with a tail-drop limit.
#[derive(Clone, Debug)]
pub struct CoDel {
    pub params: CoDelParams,
    pub hard: DropTail,
    queue: Fifo,
    state: CoDelState,
}

impl CoDel {
    pub fn new(params: CoDelParams, hard: DropTail) -> Self {
        CoDel { params, hard, queue: Fifo::default(), state: CoDelState::default() }
    }

    pub fn hold(&mut self, p: Held) {
        self.queue.push(p);
    }

    pub fn dequeue(&mut self, now: Instant, dropped: &mut Vec<Held>) -> Option<Dequeued> {
        self.state.dequeue(now, &self.params, &mut self.queue, 0, dropped)
    }

    pub fn queue_mut(&mut self) -> &mut Fifo {
        &mut self.queue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::PacketId;

    const MS: u64 = 1_000_000_000;

    fn at_ms(ms: u64) -> Instant {
        Instant::from_ps(ms * MS)
    }

    fn held(n: u32, enqueued: Instant, ecn_capable: bool) -> Held {
        Held { packet: PacketId::new(n), size: 1000, flow: 0, src: 0, dst: 0, ecn_capable, enqueued }
    }

    /// A queue of `n` packets that all joined at time zero.
    fn backlog(n: u32, ecn_capable: bool) -> Fifo {
        let mut q = Fifo::default();
        (0..n).for_each(|i| q.push(held(i, Instant::ZERO, ecn_capable)));
        q
    }

    #[test]
    fn a_short_burst_is_never_dropped() {
        // Sojourn above target but for less than an interval.
        let (mut s, p, mut q, mut dropped) =
            (CoDelState::default(), CoDelParams::default(), backlog(50, false), vec![]);
        for ms in 10..60 {
            assert!(s.dequeue(at_ms(ms), &p, &mut q, 0, &mut dropped).is_some());
        }
        assert!(dropped.is_empty());
    }

    #[test]
    fn a_standing_queue_is_dropped_at_interval_over_sqrt_count() {
        // Sojourn above target from 10 ms on: the interval ends at 110 ms,
        // the first drop is there.
        let (mut s, p, mut q, mut dropped) =
            (CoDelState::default(), CoDelParams::default(), backlog(1000, false), vec![]);
        let mut drop_times = vec![];
        for ms in 10..400 {
            let before = dropped.len();
            s.dequeue(at_ms(ms), &p, &mut q, 0, &mut dropped);
            drop_times.extend(std::iter::repeat_n(ms, dropped.len() - before));
        }
        // Entering at 110 ms sets the next drop an interval later (count 1),
        // then 100/√2, 100/√3 ms apart: 210, 280.7, 338.5, 388.5; dequeues
        // every 1 ms see each at the first whole millisecond at or after it.
        assert_eq!(drop_times, vec![110, 210, 281, 339, 389]);
    }

    #[test]
    fn with_ecn_capable_packets_marks_instead_of_dropping() {
        let p = CoDelParams { ecn: true, ..CoDelParams::default() };
        let (mut s, mut q, mut dropped) = (CoDelState::default(), backlog(1000, true), vec![]);
        let marked: Vec<u64> = (10..300)
            .filter(|&ms| s.dequeue(at_ms(ms), &p, &mut q, 0, &mut dropped).is_some_and(|d| d.ce_marked))
            .collect();
        assert!(dropped.is_empty());
        assert_eq!(marked, vec![110, 210, 281]);
    }

    #[test]
    fn leaves_the_dropping_state_when_the_sojourn_falls_below_target() {
        let (mut s, p, mut q, mut dropped) =
            (CoDelState::default(), CoDelParams::default(), backlog(200, false), vec![]);
        for ms in 10..120 {
            s.dequeue(at_ms(ms), &p, &mut q, 0, &mut dropped);
        }
        assert!(s.dropping);
        // A fresh packet behind an emptied queue: sojourn 1 ms.
        let mut fresh = Fifo::default();
        fresh.push(held(9999, at_ms(199), false));
        fresh.push(held(10000, at_ms(199), false));
        s.dequeue(at_ms(200), &p, &mut fresh, 0, &mut dropped);
        assert!(!s.dropping);
    }

    #[test]
    fn one_mtu_or_less_waiting_is_not_a_standing_queue() {
        let (mut s, p, mut dropped) = (CoDelState::default(), CoDelParams::default(), vec![]);
        let mut q = backlog(2, false); // after the dequeue: 1000 B <= MTU
        s.dequeue(at_ms(500), &p, &mut q, 0, &mut dropped);
        s.dequeue(at_ms(700), &p, &mut q, 0, &mut dropped);
        assert!(dropped.is_empty());
        assert_eq!(s.first_above_time, None);
    }
}
