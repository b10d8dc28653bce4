//! UDP traffic sources: when the next packet leaves and how big it is.
//!
//! Sources are sans-I/O: `next_departure` and `emit` take the current time
//! and return the next one; the simulation schedules the wake-ups.

use crate::label::FlowLabel;
use ackclock_core::{Bandwidth, Duration, Instant, Mrg32k3a, SimRng};
use ackclock_net::packet::{MAX_DATAGRAM_BYTES, UDP_HEADER_BYTES};
use rand::RngExt;
use rand_distr::{Distribution, Exp};

/// When packets are sent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Traffic {
    /// Constant bit rate: one packet every mean_size * 8 / rate; with
    /// `jitter` (ns-2's `random_`), each gap is that interval times a
    /// uniform draw from [0.5, 1.5).
    Cbr { rate: Bandwidth, jitter: bool },
    /// Exponential inter-departure times (a Poisson process).
    Poisson { mean_interval: Duration },
    /// Sends at `rate` during exponentially distributed on periods, is
    /// silent during exponentially distributed off periods (ns-2's
    /// Traffic/Exponential). Starts with an on period.
    OnOff { rate: Bandwidth, on_mean: Duration, off_mean: Duration },
}

/// Datagram sizes on the wire, IPv4 and UDP headers included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SizeModel {
    Fixed(u32),
    /// Exponential, rounded to whole bytes and clamped to [28, 65535].
    Exponential {
        mean: f64,
    },
}

impl SizeModel {
    fn mean(&self) -> f64 {
        match *self {
            SizeModel::Fixed(b) => f64::from(b),
            SizeModel::Exponential { mean } => mean,
        }
    }

    fn draw(&self, rng: &mut SimRng) -> u32 {
        match *self {
            SizeModel::Fixed(b) => b,
            SizeModel::Exponential { mean } => {
                let x: f64 = Exp::new(1.0).expect("rate 1 is valid").sample(rng) * mean;
                (x.round() as u32).clamp(UDP_HEADER_BYTES, MAX_DATAGRAM_BYTES)
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct UdpSourceConfig {
    pub traffic: Traffic,
    pub size: SizeModel,
    pub start: Instant,
    /// No packet leaves after this instant.
    pub stop: Option<Instant>,
    pub max_packets: Option<u64>,
    /// Mark packets ECN-capable (ECT(0)).
    pub ecn: bool,
    /// The flow's identity in headers and traces; `None` picks a unique
    /// port and uses the flow's index as its id.
    pub label: Option<FlowLabel>,
}

pub struct UdpSource {
    pub config: UdpSourceConfig,
    rng: SimRng,
    sent: u64,
    /// End of the current on period (on-off traffic only).
    on_until: Instant,
    /// Stopped by its application (ns-2's `$cbr stop`): sends nothing more,
    /// not even a departure already scheduled.
    halted: bool,
}

fn exponential(mean: Duration, rng: &mut SimRng) -> Duration {
    let x: f64 = Exp::new(1.0).expect("rate 1 is valid").sample(rng);
    Duration::from_ps((x * mean.as_ps() as f64).round() as u64)
}

impl UdpSource {
    pub fn new(config: UdpSourceConfig, rng: SimRng) -> Self {
        UdpSource { config, rng, sent: 0, on_until: Instant::ZERO, halted: false }
    }

    /// The first departure, if the source sends at all.
    pub fn first_departure(&mut self) -> Option<Instant> {
        let start = self.config.start;
        if let Traffic::OnOff { on_mean, .. } = self.config.traffic {
            self.on_until = start + exponential(on_mean, &mut self.rng);
        }
        self.permit(start)
    }

    /// Creates the packet due at `now`: returns its size and the time of the
    /// next departure, if any. A jittered CBR gap draws from `shared` when
    /// given (ns-2's default generator, drawn in event order, as ns-2's CBR
    /// does), else from the source's own stream.
    pub fn emit(&mut self, now: Instant, shared: &mut Option<Mrg32k3a>) -> (u32, Option<Instant>) {
        let size = self.config.size.draw(&mut self.rng);
        self.sent += 1;
        let next = now + self.gap(size, shared);
        let next = match self.config.traffic {
            Traffic::OnOff { on_mean, off_mean, .. } if next >= self.on_until => {
                let on_at = self.on_until + exponential(off_mean, &mut self.rng);
                self.on_until = on_at + exponential(on_mean, &mut self.rng);
                on_at
            }
            _ => next,
        };
        (size, self.permit(next))
    }

    fn gap(&mut self, size: u32, shared: &mut Option<Mrg32k3a>) -> Duration {
        match self.config.traffic {
            Traffic::Cbr { rate, jitter } => {
                let interval = match self.config.size {
                    SizeModel::Fixed(_) => rate.tx_time(size),
                    SizeModel::Exponential { .. } => {
                        Duration::from_secs_f64(self.config.size.mean() * 8.0 / rate.bps() as f64)
                    }
                };
                if jitter {
                    let factor: f64 = match shared.as_mut() {
                        Some(g) => 0.5 + g.next_u01(),
                        None => self.rng.random_range(0.5..1.5),
                    };
                    Duration::from_ps((interval.as_ps() as f64 * factor).round() as u64)
                } else {
                    interval
                }
            }
            Traffic::OnOff { rate, .. } => rate.tx_time(size),
            Traffic::Poisson { mean_interval } => exponential(mean_interval, &mut self.rng),
        }
    }

    /// Sends with these parameters from now on (ns-2's CBR reads rate_,
    /// packetSize_, random_ and maxpkts_ at every packet): the departure
    /// already scheduled keeps its time; its size and the gaps after it
    /// follow the new values. An on-off source keeps its current period.
    pub fn retune(&mut self, traffic: Traffic, size: SizeModel, max_packets: Option<u64>) {
        self.config.traffic = traffic;
        self.config.size = size;
        self.config.max_packets = max_packets;
    }

    pub fn halt(&mut self) {
        self.halted = true;
    }

    pub fn is_halted(&self) -> bool {
        self.halted
    }

    fn permit(&self, at: Instant) -> Option<Instant> {
        if self.halted {
            return None;
        }
        let within_stop = self.config.stop.is_none_or(|s| at <= s);
        let within_count = self.config.max_packets.is_none_or(|m| self.sent < m);
        (within_stop && within_count).then_some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::RngStreams;

    fn source(traffic: Traffic, size: SizeModel) -> UdpSource {
        let config = UdpSourceConfig {
            traffic,
            size,
            start: Instant::ZERO,
            stop: None,
            max_packets: None,
            ecn: false,
            label: None,
        };
        UdpSource::new(config, RngStreams::new(5, 0).stream("app"))
    }

    fn departures(s: &mut UdpSource, n: usize) -> Vec<Instant> {
        let mut t = s.first_departure();
        let mut out = Vec::new();
        while let Some(now) = t {
            if out.len() == n {
                break;
            }
            out.push(now);
            t = s.emit(now, &mut None).1;
        }
        out
    }

    #[test]
    fn cbr_sends_at_exact_intervals() {
        let mut s =
            source(Traffic::Cbr { rate: Bandwidth::from_bps(800_000).unwrap(), jitter: false }, SizeModel::Fixed(1000));
        let t = departures(&mut s, 4);
        assert_eq!(
            t.iter().map(|t| t.as_ps()).collect::<Vec<_>>(),
            vec![0, 10_000_000_000, 20_000_000_000, 30_000_000_000]
        );
    }

    #[test]
    fn jittered_cbr_draws_each_gap_around_its_interval() {
        // ns-2's random_ 1: 10 ms +- 5 ms, uniformly.
        let rate = Bandwidth::from_bps(800_000).unwrap();
        let mut s = source(Traffic::Cbr { rate, jitter: true }, SizeModel::Fixed(1000));
        let t = departures(&mut s, 2001);
        let gaps: Vec<u64> = t.windows(2).map(|w| (w[1] - w[0]).as_ps()).collect();
        assert!(gaps.iter().all(|&g| (5_000_000_000..15_000_000_000).contains(&g)));
        let mean = gaps.iter().sum::<u64>() as f64 / gaps.len() as f64;
        assert!((mean / 1e10 - 1.0).abs() < 0.02, "mean gap {mean} ps");
        assert!(gaps.iter().any(|&g| g < 6_000_000_000) && gaps.iter().any(|&g| g > 14_000_000_000));
        let mut again = source(Traffic::Cbr { rate, jitter: true }, SizeModel::Fixed(1000));
        assert_eq!(departures(&mut again, 2001), t, "the same stream, the same gaps");
    }

    #[test]
    fn a_shared_generator_gives_each_gap_as_ns2s_cbr_draws_it() {
        // ns-2: interval_ + interval_ * Random::uniform(-0.5, 0.5), from the default RNG.
        let rate = Bandwidth::from_bps(800_000).unwrap();
        let mut s = source(Traffic::Cbr { rate, jitter: true }, SizeModel::Fixed(1000));
        let mut shared = Some(Mrg32k3a::new([1; 6]).unwrap());
        let mut expected = shared.unwrap();
        let (_, next) = s.emit(Instant::ZERO, &mut shared);
        let gap = (1e10 * (0.5 + expected.next_u01())).round() as u64;
        assert_eq!(next, Some(Instant::from_ps(gap)));
        assert_eq!(shared, Some(expected), "one draw from the shared generator");
    }

    #[test]
    fn retuned_cbr_keeps_the_scheduled_departure_and_spaces_later_ones_anew() {
        // 1000-byte packets at 8 Mb/s leave 1 ms apart; after the change at
        // the second departure's time, the third leaves 1 ms later and the
        // ones after it 0.5 ms apart, 500 bytes each (ns-2's CBR).
        let cbr = Traffic::Cbr { rate: Bandwidth::from_bps(8_000_000).unwrap(), jitter: false };
        let mut s = source(cbr, SizeModel::Fixed(1000));
        let first = s.first_departure().unwrap();
        let (_, second) = s.emit(first, &mut None);
        let second = second.unwrap();
        s.retune(cbr, SizeModel::Fixed(500), Some(3));
        let (size, third) = s.emit(second, &mut None);
        assert_eq!(size, 500);
        assert_eq!(third.unwrap() - second, Duration::from_micros(500));
        let (_, after_limit) = s.emit(third.unwrap(), &mut None);
        assert_eq!(after_limit, None, "max_packets lowered to 3 ends the source after its third packet");
    }

    #[test]
    fn max_packets_and_stop_end_the_source() {
        let rate = Bandwidth::from_bps(800_000).unwrap();
        let mut s = source(Traffic::Cbr { rate, jitter: false }, SizeModel::Fixed(1000));
        s.config.max_packets = Some(3);
        assert_eq!(departures(&mut s, 10).len(), 3);
        let mut s = source(Traffic::Cbr { rate, jitter: false }, SizeModel::Fixed(1000));
        s.config.stop = Some(Instant::from_ps(25_000_000_000));
        assert_eq!(departures(&mut s, 10).len(), 3, "departures at 0, 10 and 20 ms");
    }

    #[test]
    fn poisson_mean_interval_matches() {
        let mean = Duration::from_secs(3);
        let mut s = source(Traffic::Poisson { mean_interval: mean }, SizeModel::Fixed(100));
        let t = departures(&mut s, 20_001);
        let avg = t.last().unwrap().as_secs_f64() / 20_000.0;
        assert!((avg - 3.0).abs() < 0.09, "mean interval {avg}");
    }

    #[test]
    fn on_off_sends_half_the_time_with_equal_periods() {
        let rate = Bandwidth::from_bps(1_000_000).unwrap();
        let period = Duration::from_millis(500);
        let mut s = source(Traffic::OnOff { rate, on_mean: period, off_mean: period }, SizeModel::Fixed(125));
        let t = departures(&mut s, 100_000);
        // Average rate = rate * on / (on + off) = 0.5 Mbit/s; a packet is 1 ms.
        let avg_rate = 100_000.0 * 1000.0 / t.last().unwrap().as_secs_f64();
        assert!((avg_rate - 500_000.0).abs() < 0.06 * 500_000.0, "rate {avg_rate}");
    }

    #[test]
    fn exponential_sizes_have_the_requested_mean_and_bounds() {
        let mut s =
            source(Traffic::Poisson { mean_interval: Duration::from_secs(1) }, SizeModel::Exponential { mean: 2000.0 });
        s.first_departure();
        let sizes: Vec<u32> = (0..50_000).map(|i| s.emit(Instant::from_ps(i), &mut None).0).collect();
        let mean = sizes.iter().map(|&b| f64::from(b)).sum::<f64>() / sizes.len() as f64;
        assert!((mean - 2000.0).abs() < 40.0, "mean {mean}");
        assert!(sizes.iter().all(|&b| (UDP_HEADER_BYTES..=MAX_DATAGRAM_BYTES).contains(&b)));
    }
}
