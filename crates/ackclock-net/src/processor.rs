//! A node's processor (seed 000 §4.1: the ProcessorManager of OMNeT++'s
//! IPSuite; INET's `procDelay`): the node handles the packets it receives
//! and sends one at a time, in arrival order, each for a service time that
//! is constant or drawn. With a limit, arrivals that find that many
//! packets waiting are dropped.
//!
//! Like a link, a FIFO server knows when each packet's service ends the
//! moment it arrives, so the processor keeps its packets in a delay line
//! and the engine needs one event per node: the next completion.

use crate::pool::PacketId;
use ackclock_core::{Duration, Instant, SimRng};
use rand_distr::{Distribution, Exp1};
use std::collections::VecDeque;

/// How long handling one packet takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServiceTime {
    Constant(Duration),
    /// Exponentially distributed with this mean (an M/M/1 server for
    /// Poisson arrivals).
    Exponential {
        mean: Duration,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessorConfig {
    pub service: ServiceTime,
    /// Packets that may wait (besides the one in service); `None` is
    /// unlimited.
    pub queue_limit: Option<u32>,
}

/// Counters and totals since the start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcessorStats {
    /// Packets whose handling finished.
    pub packets: u64,
    /// Arrivals refused because the queue was full.
    pub drops: u64,
    /// Service time of the finished packets.
    pub busy: Duration,
    /// Time the accepted packets waited before their service started.
    pub waited: Duration,
    pub accepted: u64,
    /// The most packets seen waiting by an arrival.
    pub max_waiting: u32,
}

#[derive(Clone, Copy, Debug)]
struct Job {
    start: Instant,
    done: Instant,
    packet: PacketId,
}

#[derive(Clone, Debug)]
pub struct Processor {
    config: ProcessorConfig,
    rng: SimRng,
    /// Accepted packets not yet handed back, in arrival (and service) order.
    line: VecDeque<Job>,
    /// Time of the live completion event in the engine, if any.
    armed: Option<Instant>,
    stats: ProcessorStats,
}

impl Processor {
    pub fn new(config: ProcessorConfig, rng: SimRng) -> Self {
        Processor { config, rng, line: VecDeque::new(), armed: None, stats: ProcessorStats::default() }
    }

    pub fn config(&self) -> &ProcessorConfig {
        &self.config
    }

    pub fn stats(&self) -> &ProcessorStats {
        &self.stats
    }

    /// Takes a packet at `now`. `Ok(wake)` when accepted, `wake` set when
    /// the engine must schedule a completion event then; `Err` when the
    /// queue is full.
    pub fn accept(&mut self, now: Instant, packet: PacketId) -> Result<Option<Instant>, PacketId> {
        let waiting = self.waiting(now);
        self.stats.max_waiting = self.stats.max_waiting.max(waiting);
        if self.config.queue_limit.is_some_and(|limit| waiting >= limit) {
            self.stats.drops += 1;
            return Err(packet);
        }
        let start = self.line.back().map_or(now, |j| j.done.max(now));
        let done = start + self.service_time();
        self.line.push_back(Job { start, done, packet });
        self.stats.accepted += 1;
        self.stats.waited += start - now;
        let wake = self.armed.is_none_or(|a| done < a).then(|| {
            self.armed = Some(done);
            done
        });
        Ok(wake)
    }

    /// The next packet whose handling finished by `now`.
    pub fn pop_done(&mut self, now: Instant) -> Option<PacketId> {
        let job = self.line.front().filter(|j| j.done <= now)?;
        self.stats.packets += 1;
        self.stats.busy += job.done - job.start;
        self.line.pop_front().map(|j| j.packet)
    }

    /// Called after a completion event at `now`: the next one to schedule,
    /// if this was the live event.
    pub fn rearm(&mut self, now: Instant) -> Option<Instant> {
        if self.armed != Some(now) {
            return None;
        }
        self.armed = self.line.front().map(|j| j.done);
        self.armed
    }

    /// Whether no packet is in the processor.
    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }

    /// Packets waiting (not in service) at `now`.
    pub fn waiting(&self, now: Instant) -> u32 {
        (self.line.len() - self.line.partition_point(|j| j.start <= now)) as u32
    }

    /// Busy time up to `now`, the service in progress included.
    pub fn busy_time(&self, now: Instant) -> Duration {
        let current = self.line.iter().take_while(|j| j.start <= now).map(|j| j.done.min(now) - j.start);
        current.fold(self.stats.busy, |total, d| total + d)
    }

    fn service_time(&mut self) -> Duration {
        match self.config.service {
            ServiceTime::Constant(d) => d,
            ServiceTime::Exponential { mean } => {
                let draw: f64 = Exp1.sample(&mut self.rng);
                Duration::from_secs_f64(mean.as_secs_f64() * draw)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::RngStreams;

    const MS: u64 = 1_000_000_000;

    fn cpu(service: ServiceTime, queue_limit: Option<u32>) -> Processor {
        Processor::new(ProcessorConfig { service, queue_limit }, RngStreams::new(1, 0).stream("cpu"))
    }

    fn at(ms: u64) -> Instant {
        Instant::from_ps(ms * MS)
    }

    fn id(n: u32) -> PacketId {
        PacketId::new(n)
    }

    #[test]
    fn packets_are_handled_one_at_a_time_in_arrival_order() {
        let mut c = cpu(ServiceTime::Constant(Duration::from_millis(2)), None);
        assert_eq!(c.accept(at(0), id(0)), Ok(Some(at(2))));
        assert_eq!(c.accept(at(1), id(1)), Ok(None), "one live event");
        assert_eq!(c.accept(at(1), id(2)), Ok(None));
        assert_eq!(c.waiting(at(1)), 2);
        assert_eq!(c.pop_done(at(2)), Some(id(0)));
        assert_eq!(c.pop_done(at(2)), None);
        assert_eq!(c.rearm(at(2)), Some(at(4)));
        assert_eq!(c.waiting(at(2)), 1);
        assert_eq!(c.pop_done(at(6)), Some(id(1)));
        assert_eq!(c.pop_done(at(6)), Some(id(2)));
        let s = c.stats();
        assert_eq!((s.packets, s.busy, s.waited), (3, Duration::from_millis(6), Duration::from_millis(1 + 3)));
        assert_eq!(s.max_waiting, 1);
    }

    #[test]
    fn a_full_queue_drops_arrivals() {
        let mut c = cpu(ServiceTime::Constant(Duration::from_millis(2)), Some(1));
        assert!(c.accept(at(0), id(0)).is_ok(), "in service");
        assert!(c.accept(at(0), id(1)).is_ok(), "waits");
        assert_eq!(c.accept(at(0), id(2)), Err(id(2)));
        assert!(c.accept(at(2), id(3)).is_ok(), "the first is done: room again");
        assert_eq!((c.stats().drops, c.stats().max_waiting), (1, 1));
    }

    #[test]
    fn busy_time_counts_the_service_in_progress() {
        let mut c = cpu(ServiceTime::Constant(Duration::from_millis(4)), None);
        c.accept(at(0), id(0)).unwrap();
        c.accept(at(0), id(1)).unwrap();
        assert_eq!(c.busy_time(at(6)), Duration::from_millis(6));
    }

    #[test]
    fn exponential_service_times_have_their_mean() {
        let mut c = cpu(ServiceTime::Exponential { mean: Duration::from_millis(1) }, None);
        for n in 0..10_000 {
            c.accept(Instant::ZERO, id(n)).unwrap();
        }
        while c.pop_done(Instant::MAX).is_some() {}
        let mean = c.stats().busy.as_secs_f64() / 10_000.0;
        // The standard error of the mean of 10 000 draws is 1% of it.
        assert!((mean - 0.001).abs() < 0.00004, "{mean}");
    }
}
