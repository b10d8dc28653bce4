//! PIE, "Proportional Integral controller Enhanced" (RFC 8033; Pan et al.,
//! HPSR 2013): an AQM that drops (or marks) arrivals at random, with a
//! probability a PI controller steers every `t_update` toward a queueing
//! delay of `target`:
//!
//! ```text
//! p += alpha (qdelay - target) + beta (qdelay - qdelay_old)
//! ```
//!
//! scaled down while p is small (RFC 8033 §4.2's auto-tuning: /2048 below
//! 10^-6 up to /2 below 0.1), capped at +0.02 per update above 0.1, and
//! decayed by 2% per update while the delay stays under half the target.
//! New bursts pass untouched for `max_burst`, and nothing is dropped early
//! while the delay is low and p small, or while at most two packets wait.
//!
//! The queueing delay is the sojourn time of the last departed packet (the
//! timestamp method of RFC 8033 §5.2 and Linux's default), zero once the
//! queue empties.
//!
//! | parameter          | default | range  | source |
//! |--------------------|---------|--------|--------|
//! | `target`           | 15 ms   | > 0    | RFC 8033 §5.2 (QDELAY_REF) |
//! | `t_update`         | 15 ms   | > 0    | RFC 8033 §5.2 |
//! | `alpha`            | 0.125 /s | ≥ 0   | RFC 8033 §5.2 |
//! | `beta`             | 1.25 /s | ≥ 0    | RFC 8033 §5.2 |
//! | `max_burst`        | 150 ms  | ≥ 0    | RFC 8033 §5.2 |
//! | `ecn`              | off     |        | RFC 8033 §5.1 (Linux `pie` default) |
//! | `mark_threshold`   | 0.1     | 0 - 1  | RFC 8033 §5.1: mark only while p is at most this |
//! | `mean_packet_size` | 1500 B  | ≥ 1    | RFC 8033 §4.1 (MEAN_PKTSIZE) |
//! | `limit`            | 1000 packets | | Linux `pie` default |

use crate::codel::Dequeued;
use crate::discipline::{Admission, Backlog, DropTail};
use crate::held::{Fifo, Held};
use ackclock_core::{Duration, Instant, SimRng};
use rand::RngExt;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieParams {
    pub target: Duration,
    pub t_update: Duration,
    pub alpha: f64,
    pub beta: f64,
    pub max_burst: Duration,
    pub ecn: bool,
    pub mark_threshold: f64,
    pub mean_packet_size: u32,
}

impl Default for PieParams {
    fn default() -> Self {
        PieParams {
            target: Duration::from_millis(15),
            t_update: Duration::from_millis(15),
            alpha: 0.125,
            beta: 1.25,
            max_burst: Duration::from_millis(150),
            ecn: false,
            mark_threshold: 0.1,
            mean_packet_size: 1500,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Pie {
    pub params: PieParams,
    pub hard: DropTail,
    queue: Fifo,
    drop_prob: f64,
    qdelay: Duration,
    qdelay_old: Duration,
    burst_allowance: Duration,
    next_update: Instant,
}

impl Pie {
    pub fn new(params: PieParams, hard: DropTail) -> Self {
        Pie {
            params,
            hard,
            queue: Fifo::default(),
            drop_prob: 0.0,
            qdelay: Duration::ZERO,
            qdelay_old: Duration::ZERO,
            burst_allowance: params.max_burst,
            next_update: Instant::ZERO + params.t_update,
        }
    }

    pub fn drop_probability(&self) -> f64 {
        self.drop_prob
    }

    /// RFC 8033's enqueue: a full queue drops; otherwise an early drop
    /// with probability p, as a mark when ECN allows it.
    pub fn admit(&mut self, now: Instant, b: &Backlog, size: u32, ecn_capable: bool, rng: &mut SimRng) -> Admission {
        self.update_to(now);
        if self.hard.is_full(b, size) {
            return Admission::Drop;
        }
        let calm = self.qdelay_old < half(self.params.target) && self.drop_prob < 0.2;
        let short = self.queue.bytes() <= 2 * u64::from(self.params.mean_packet_size);
        if self.burst_allowance > Duration::ZERO || calm || short || rng.random::<f64>() >= self.drop_prob {
            Admission::Accept
        } else if self.params.ecn && ecn_capable && self.drop_prob <= self.params.mark_threshold {
            Admission::Mark
        } else {
            Admission::Drop
        }
    }

    pub fn hold(&mut self, p: Held) {
        self.queue.push(p);
    }

    pub fn dequeue(&mut self, now: Instant) -> Option<Dequeued> {
        self.update_to(now);
        let held = self.queue.pop()?;
        self.qdelay = if self.queue.is_empty() { Duration::ZERO } else { now.saturating_since(held.enqueued) };
        Some(Dequeued { held, ce_marked: false })
    }

    pub fn queue_mut(&mut self) -> &mut Fifo {
        &mut self.queue
    }

    /// Runs the periodic updates due by `now`: between events the measured
    /// delay does not change, so running them late gives the same result.
    fn update_to(&mut self, now: Instant) {
        while self.next_update <= now {
            self.update();
            self.next_update += self.params.t_update;
        }
    }

    /// RFC 8033 §4.2, `calculate_drop_prob`.
    fn update(&mut self) {
        let PieParams { target, t_update, alpha, beta, max_burst, .. } = self.params;
        self.burst_allowance = self.burst_allowance.saturating_sub(t_update);
        let (qdelay, old, target_s) = (self.qdelay.as_secs_f64(), self.qdelay_old.as_secs_f64(), target.as_secs_f64());
        let mut p = alpha * (qdelay - target_s) + beta * (qdelay - old);
        // Small probabilities move in small steps (RFC 8033 §4.2 auto-tuning).
        p /= match self.drop_prob {
            x if x < 1e-6 => 2048.0,
            x if x < 1e-5 => 512.0,
            x if x < 1e-4 => 128.0,
            x if x < 1e-3 => 32.0,
            x if x < 1e-2 => 8.0,
            x if x < 0.1 => 2.0,
            _ => 1.0,
        };
        if self.drop_prob >= 0.1 && p > 0.02 {
            p = 0.02;
        }
        self.drop_prob += p;
        let low = |d: Duration| d < half(target);
        if low(self.qdelay) && low(self.qdelay_old) {
            self.drop_prob *= 0.98;
        }
        self.drop_prob = self.drop_prob.clamp(0.0, 1.0);
        self.qdelay_old = self.qdelay;
        if low(self.qdelay) && low(self.qdelay_old) && self.drop_prob == 0.0 && self.burst_allowance == Duration::ZERO {
            self.burst_allowance = max_burst;
        }
    }
}

fn half(d: Duration) -> Duration {
    Duration::from_ps(d.as_ps() / 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discipline::QueueLimit;
    use crate::pool::PacketId;
    use ackclock_core::RngStreams;

    const MS: u64 = 1_000_000_000;

    /// A 1500-byte packet that joined the queue at time zero.
    fn waiting(n: u32) -> Held {
        Held {
            packet: PacketId::new(n),
            size: 1500,
            flow: 0,
            src: 0,
            dst: 0,
            ecn_capable: false,
            enqueued: Instant::ZERO,
        }
    }

    fn pie() -> Pie {
        Pie::new(PieParams::default(), DropTail { limit: QueueLimit::Packets(1000), ns2_limit: false })
    }

    #[test]
    fn the_controller_steps_by_alpha_and_beta_scaled_for_small_probabilities() {
        let mut p = pie();
        // Delay 25 ms before the first update (at 15 ms):
        // 0.125 (0.025 - 0.015) + 1.25 (0.025 - 0) = 0.0325, over 2048.
        p.qdelay = Duration::from_millis(25);
        p.update_to(Instant::from_ps(15 * MS));
        assert!((p.drop_probability() - 0.0325 / 2048.0).abs() < 1e-15, "{}", p.drop_probability());
        // Second update, same delay: only the proportional term, 0.00125,
        // and p is between 1e-5 and 1e-4: divided by 128.
        p.update_to(Instant::from_ps(30 * MS));
        let expected = 0.0325 / 2048.0 + 0.00125 / 128.0;
        assert!((p.drop_probability() - expected).abs() < 1e-15, "{}", p.drop_probability());
    }

    #[test]
    fn a_delay_below_target_drives_the_probability_back_to_zero() {
        let mut p = pie();
        p.qdelay = Duration::from_millis(40);
        p.update_to(Instant::from_ps(600 * MS));
        assert!(p.drop_probability() > 0.01, "{}", p.drop_probability());
        p.qdelay = Duration::from_millis(1);
        p.update_to(Instant::from_ps(5000 * MS));
        assert_eq!(p.drop_probability(), 0.0);
    }

    #[test]
    fn a_departure_measures_its_sojourn_and_an_emptied_queue_zero() {
        let mut p = pie();
        for n in 0..2 {
            p.hold(waiting(n));
        }
        p.dequeue(Instant::from_ps(7 * MS));
        assert_eq!(p.qdelay, Duration::from_millis(7));
        p.dequeue(Instant::from_ps(8 * MS));
        assert_eq!(p.qdelay, Duration::ZERO);
    }

    #[test]
    fn the_burst_allowance_protects_a_new_queue_for_max_burst() {
        let mut p = pie();
        let mut rng = RngStreams::new(1, 0).stream("pie");
        let busy = Backlog {
            waiting_packets: 100,
            waiting_bytes: 150_000,
            in_service_bytes: Some(1500),
            ..Backlog::default()
        };
        for n in 0..100 {
            p.hold(waiting(n));
        }
        // A delay far above target keeps p at 1 through the updates.
        p.drop_prob = 1.0;
        p.qdelay = Duration::from_millis(200);
        p.qdelay_old = Duration::from_millis(200);
        // 150 ms of allowance last ten updates (the tenth brings it to zero).
        assert_eq!(p.admit(Instant::from_ps(135 * MS), &busy, 1500, false, &mut rng), Admission::Accept);
        assert_eq!(p.admit(Instant::from_ps(150 * MS), &busy, 1500, false, &mut rng), Admission::Drop);
    }
}
