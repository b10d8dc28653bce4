//! A router buffer that holds each packet for a random time before it may
//! leave, so that packets overtake one another inside the router: the model
//! of seed 004 (TCP Tahoe with reordering), where every packet entering the
//! buffer draws an exponentially distributed delay (optionally capped by
//! drawing again) and occupies a place in the buffer until it is sent.
//!
//! The transmitter sends, whenever it is free, the packet whose delay ran
//! out first (the earlier arrival on a tie); if none is ready it waits for
//! the first that will be. Arrivals that find `limit` packets held are
//! dropped.
//!
//! | parameter | default | range | source |
//! |-----------|---------|-------|--------|
//! | `mean`    | required | >= 0 | seed 004: 0, 1 or 2 round-trip times |
//! | `cap`     | none    | > 0   | seed 004: delays of 3 RTTs or more drawn again |
//! | `limit`   | required | packets | seed 004: a buffer of 5 or 10 |

use crate::codel::Dequeued;
use crate::discipline::{DropTail, Next};
use crate::held::Held;
use crate::jitter::{Jitter, JitterDistribution};
use ackclock_core::{Duration, Instant, SimRng};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DelayBufferParams {
    pub mean: Duration,
    /// Delays at or above this are drawn again.
    pub cap: Option<Duration>,
}

#[derive(Clone, Debug)]
pub struct DelayBuffer {
    pub params: DelayBufferParams,
    pub hard: DropTail,
    /// The packets by (when they may leave, arrival number).
    held: BTreeMap<(Instant, u64), Held>,
    arrivals: u64,
}

impl DelayBuffer {
    pub fn new(params: DelayBufferParams, hard: DropTail) -> Self {
        DelayBuffer { params, hard, held: BTreeMap::new(), arrivals: 0 }
    }

    pub fn hold(&mut self, p: Held, rng: &mut SimRng) {
        let jitter = Jitter { distribution: JitterDistribution::Exponential { mean: self.params.mean }, reorder: true };
        let mut delay = jitter.sample(rng);
        while self.params.cap.is_some_and(|cap| delay >= cap) {
            delay = jitter.sample(rng);
        }
        self.held.insert((p.enqueued + delay, self.arrivals), p);
        self.arrivals += 1;
    }

    pub fn dequeue(&mut self, now: Instant) -> Next {
        match self.held.first_key_value() {
            None => Next::Empty,
            Some((&(ready, _), _)) if ready > now => Next::Wait(ready),
            Some(_) => {
                let (_, held) = self.held.pop_first().expect("not empty");
                Next::Send(Dequeued { held, ce_marked: false })
            }
        }
    }

    /// Everything held, in the order it would have left.
    pub fn drain(&mut self) -> Vec<Held> {
        std::mem::take(&mut self.held).into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::PacketId;
    use ackclock_core::RngStreams;

    const MS: u64 = 1_000_000_000;

    fn buffer(mean: Duration, cap: Option<Duration>) -> DelayBuffer {
        let hard = DropTail { limit: crate::discipline::QueueLimit::Unlimited, ns2_limit: false };
        DelayBuffer::new(DelayBufferParams { mean, cap }, hard)
    }

    fn packet(n: u32, at_ms: u64) -> Held {
        Held {
            packet: PacketId::new(n),
            size: 1000,
            flow: 0,
            src: 0,
            dst: 0,
            ecn_capable: false,
            enqueued: Instant::from_ps(at_ms * MS),
        }
    }

    #[test]
    fn without_delay_packets_leave_in_arrival_order() {
        let mut b = buffer(Duration::ZERO, None);
        let mut rng = RngStreams::new(1, 0).stream("t");
        (0..5).for_each(|n| b.hold(packet(n, 0), &mut rng));
        let order: Vec<u32> = std::iter::from_fn(|| match b.dequeue(Instant::ZERO) {
            Next::Send(d) => Some(d.held.packet.raw()),
            _ => None,
        })
        .collect();
        assert_eq!(order, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn packets_leave_when_their_delays_run_out_and_overtake_each_other() {
        let mut b = buffer(Duration::from_millis(100), None);
        let mut rng = RngStreams::new(3, 0).stream("t");
        (0..200).for_each(|n| b.hold(packet(n, 0), &mut rng));
        let mut times = vec![];
        let mut order = vec![];
        let mut now = Instant::ZERO;
        loop {
            match b.dequeue(now) {
                Next::Send(d) => order.push(d.held.packet.raw()),
                Next::Wait(t) => {
                    assert!(t > now);
                    times.push(t);
                    now = t;
                }
                Next::Empty => break,
            }
        }
        assert_eq!(order.len(), 200);
        assert!(order.windows(2).any(|w| w[0] > w[1]), "some overtaking");
        // The delays are exponential with mean 100 ms: the last of 200 is
        // near 100 ms x H(200) = 588 ms.
        let last = times.last().expect("waited").as_secs_f64();
        assert!((0.35..1.2).contains(&last), "{last}");
    }

    #[test]
    fn a_cap_draws_long_delays_again() {
        let cap = Duration::from_millis(150);
        let mut b = buffer(Duration::from_millis(100), Some(cap));
        let mut rng = RngStreams::new(1, 0).stream("t");
        (0..500).for_each(|n| b.hold(packet(n, 0), &mut rng));
        assert!(b.drain().len() == 500);
        let mut rng = RngStreams::new(1, 0).stream("t");
        (0..500).for_each(|n| b.hold(packet(n, 0), &mut rng));
        assert!(b.held.keys().all(|&(ready, _)| ready < Instant::ZERO + cap));
    }
}
