//! Error models: which packets a link direction loses.
//!
//! Each model draws from the channel's own loss stream, once per packet that
//! reaches it, so the k-th packet's fate depends only on the seed and k.

use ackclock_core::{Duration, SimRng};
use rand::RngExt;
use std::collections::HashMap;

/// Where on the link the model acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LossPosition {
    /// At the link head, before the queue: a lost packet never uses the
    /// link (ns-2's `$ns lossmodel`).
    BeforeQueue,
    /// On the wire: the packet is transmitted and discarded on arrival,
    /// as a corrupted frame would be.
    #[default]
    OnWire,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LossProcess {
    /// Each packet is lost independently with probability `p`.
    Uniform { p: f64 },
    /// Each bit is flipped with probability `ber`; a packet with any flipped
    /// bit is lost: P(loss) = 1 - (1 - ber)^(8 * size).
    BitError { ber: f64 },
    /// Gilbert-Elliott: a two-state Markov chain stepped once per packet,
    /// with a loss probability in each state.
    GilbertElliott { p_good_to_bad: f64, p_bad_to_good: f64, loss_good: f64, loss_bad: f64, bad: bool },
    /// Loses exactly the listed packets, counted 1, 2, 3, ... in the order
    /// they reach the model (ns-2's ErrorModel/List). Sorted, deduplicated.
    DropList { drops: Vec<u64>, seen: u64, next: usize },
    /// ns-2's ErrorModel/Periodic, counting packets (or bytes): the first
    /// loss when the count reaches `offset`, then one each `period`, each
    /// followed by losses while the count since it is below `burst`. With
    /// `inverted` (ns-2's default_drop_), those are the only ones kept.
    Periodic(Periodic),
    /// ns-2's ErrorModel/TwoState: alternating good and bad stretches whose
    /// lengths (in packets or bytes) are drawn from `lengths`; packets
    /// overlapping a bad stretch are lost.
    TwoState(TwoState),
    /// Loses TCP data segments chosen by sequence number: (offset of the
    /// first data byte from the sender's ISN, so that the stream starts at
    /// 1 as tcpdump counts; which transmission of it, 1 for the first). It
    /// acts at the link head, whatever the position, and only on the TCP
    /// data segments the simulation shows it (`loses_segment`).
    Segments { drops: Vec<(u64, u32)>, sent: HashMap<u64, u32> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Periodic {
    pub period: u64,
    pub offset: u64,
    pub burst: u64,
    pub bytes: bool,
    pub inverted: bool,
    count: u64,
    started: bool,
}

impl Periodic {
    pub fn new(period: u64, offset: u64, burst: u64, bytes: bool, inverted: bool) -> Self {
        Periodic { period, offset, burst, bytes, inverted, count: 0, started: false }
    }

    fn hits(&mut self, size: u32) -> bool {
        self.count += if self.bytes { u64::from(size) } else { 1 };
        if !self.started {
            if self.count < self.offset {
                return false;
            }
            self.started = true;
            self.count = 0;
            return !self.inverted;
        }
        if self.count >= self.period {
            self.count = 0;
            return !self.inverted;
        }
        // The inverted model keeps only the periodic packets.
        self.inverted || self.count < self.burst
    }
}

/// A length drawn for a stretch of the two-state model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Length {
    Constant(f64),
    Uniform { low: f64, high: f64 },
    Exponential { mean: f64 },
}

impl Length {
    fn sample(&self, rng: &mut SimRng) -> f64 {
        match *self {
            Length::Constant(v) => v,
            Length::Uniform { low, high } => low + (high - low) * rng.random::<f64>(),
            Length::Exponential { mean } => -mean * (1.0 - rng.random::<f64>()).ln(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TwoState {
    /// Lengths of the good (0) and bad (1) stretches.
    pub lengths: [Length; 2],
    pub bytes: bool,
    bad: bool,
    /// What is left of the current stretch; `None` before the first packet.
    remaining: Option<f64>,
}

impl TwoState {
    pub fn new(good: Length, bad: Length, bytes: bool) -> Self {
        TwoState { lengths: [good, bad], bytes, bad: false, remaining: None }
    }

    fn hits(&mut self, size: u32, rng: &mut SimRng) -> bool {
        let mut remaining = match self.remaining {
            Some(r) => r,
            None => self.lengths[0].sample(rng),
        };
        let mut lost = self.bad && remaining > 0.0;
        remaining -= if self.bytes { f64::from(size) } else { 1.0 };
        // Stretches the packet reaches into; a bad one loses it.
        while remaining <= 0.0 {
            self.bad = !self.bad;
            remaining += self.lengths[usize::from(self.bad)].sample(rng).max(f64::MIN_POSITIVE);
            lost |= self.bad;
        }
        self.remaining = Some(remaining);
        lost
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct LossModel {
    pub process: LossProcess,
    pub position: LossPosition,
    /// At the link head: hold the packets the process picks for this long,
    /// then queue them, instead of losing them (ns-2's ErrorModel with
    /// `delay_pkt_`, which reorders them).
    pub delay: Option<Duration>,
}

/// Which flows (by index in the simulation) a loss model on a channel
/// applies to, as ns-2's ErrorModule picks error models by flow id.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum FlowFilter {
    #[default]
    All,
    Only(Vec<u32>),
    AllBut(Vec<u32>),
}

impl FlowFilter {
    pub fn takes(&self, flow: u32) -> bool {
        match self {
            FlowFilter::All => true,
            FlowFilter::Only(flows) => flows.contains(&flow),
            FlowFilter::AllBut(flows) => !flows.contains(&flow),
        }
    }

    /// Names one more flow: taken by `Only`, left out by `AllBut`.
    pub fn add(&mut self, flow: u32) {
        if let FlowFilter::Only(flows) | FlowFilter::AllBut(flows) = self {
            flows.push(flow);
        }
    }
}

impl LossProcess {
    pub fn drop_list(mut drops: Vec<u64>) -> Self {
        drops.sort_unstable();
        drops.dedup();
        LossProcess::DropList { drops, seen: 0, next: 0 }
    }

    pub fn gilbert_elliott(p_good_to_bad: f64, p_bad_to_good: f64, loss_good: f64, loss_bad: f64) -> Self {
        LossProcess::GilbertElliott { p_good_to_bad, p_bad_to_good, loss_good, loss_bad, bad: false }
    }

    /// Decides whether a packet of `size` bytes is lost.
    pub fn segments(drops: Vec<(u64, u32)>) -> Self {
        LossProcess::Segments { drops, sent: HashMap::new() }
    }

    /// For `Segments`: whether this transmission of the data segment that
    /// starts at `offset` is lost. Other processes lose no segment here.
    pub fn loses_segment(&mut self, offset: u64) -> bool {
        let LossProcess::Segments { drops, sent } = self else { return false };
        let n = sent.entry(offset).or_insert(0);
        *n += 1;
        drops.contains(&(offset, *n))
    }

    pub fn is_lost(&mut self, size: u32, rng: &mut SimRng) -> bool {
        match self {
            LossProcess::Segments { .. } => false,
            LossProcess::Uniform { p } => rng.random::<f64>() < *p,
            LossProcess::BitError { ber } => {
                let survive = (1.0 - *ber).powf(8.0 * f64::from(size));
                rng.random::<f64>() >= survive
            }
            LossProcess::GilbertElliott { p_good_to_bad, p_bad_to_good, loss_good, loss_bad, bad } => {
                let flip = if *bad { *p_bad_to_good } else { *p_good_to_bad };
                if rng.random::<f64>() < flip {
                    *bad = !*bad;
                }
                let p = if *bad { *loss_bad } else { *loss_good };
                rng.random::<f64>() < p
            }
            LossProcess::DropList { drops, seen, next } => {
                *seen += 1;
                if drops.get(*next) == Some(seen) {
                    *next += 1;
                    true
                } else {
                    false
                }
            }
            LossProcess::Periodic(p) => p.hits(size),
            LossProcess::TwoState(t) => t.hits(size, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::RngStreams;

    fn rng() -> SimRng {
        RngStreams::new(42, 0).stream("loss")
    }

    fn loss_count(mut m: LossProcess, size: u32, n: usize) -> usize {
        let mut r = rng();
        (0..n).filter(|_| m.is_lost(size, &mut r)).count()
    }

    #[test]
    fn drop_list_drops_exactly_the_listed_packets() {
        let mut m = LossProcess::drop_list(vec![5, 2, 9, 2]);
        let mut r = rng();
        let lost: Vec<u64> = (1..=12).filter(|_| m.is_lost(1000, &mut r)).collect();
        assert_eq!(lost, vec![2, 5, 9]);
    }

    #[test]
    fn periodic_loses_at_the_offset_then_every_period_with_bursts() {
        // What ns-2.35 drops with offset_ 3, period_ 5, burstlen_ 2.
        let mut m = LossProcess::Periodic(Periodic::new(5, 3, 2, false, false));
        let mut r = rng();
        let lost: Vec<u64> = (1..=15).filter(|_| m.is_lost(1000, &mut r)).collect();
        assert_eq!(lost, vec![3, 4, 8, 9, 13, 14]);
    }

    #[test]
    fn periodic_inverted_keeps_only_the_periodic_packets() {
        // ns-2.35 with offset_ 2, period_ 4, default_drop_ 1.
        let mut m = LossProcess::Periodic(Periodic::new(4, 2, 0, false, true));
        let mut r = rng();
        let kept: Vec<u64> = (1..=16).filter(|_| !m.is_lost(1000, &mut r)).collect();
        assert_eq!(kept, vec![1, 2, 6, 10, 14]);
    }

    #[test]
    fn two_state_with_constant_stretches_alternates_good_and_bad_runs() {
        // ns-2.35 with constant stretches of 3 (good) and 2 (bad) packets:
        // a packet reaching into a bad stretch is lost.
        let mut m = LossProcess::TwoState(TwoState::new(Length::Constant(3.0), Length::Constant(2.0), false));
        let mut r = rng();
        let lost: Vec<u64> = (1..=15).filter(|_| m.is_lost(1000, &mut r)).collect();
        assert_eq!(lost, vec![3, 4, 5, 8, 9, 10, 13, 14, 15]);
    }

    #[test]
    fn segments_lose_the_listed_transmissions_of_the_listed_offsets() {
        let mut m = LossProcess::segments(vec![(1001, 1), (2001, 2)]);
        let fates: Vec<bool> = [1, 1001, 2001, 1001, 2001, 2001].iter().map(|&o| m.loses_segment(o)).collect();
        assert_eq!(fates, vec![false, true, false, false, true, false]);
        assert!(!m.is_lost(1000, &mut rng()), "only segments shown to it");
    }

    #[test]
    fn uniform_loss_rate_is_within_binomial_bounds() {
        let n = 100_000;
        let lost = loss_count(LossProcess::Uniform { p: 0.05 }, 1000, n) as f64;
        let sd = (n as f64 * 0.05 * 0.95).sqrt();
        assert!((lost - 5000.0).abs() < 4.0 * sd, "lost {lost}");
    }

    #[test]
    fn bit_error_loss_follows_packet_size() {
        let ber: f64 = 1e-5;
        let n = 100_000;
        for size in [100u32, 1500] {
            let p = 1.0 - (1.0 - ber).powf(8.0 * f64::from(size));
            let lost = loss_count(LossProcess::BitError { ber }, size, n) as f64;
            let sd = (n as f64 * p * (1.0 - p)).sqrt();
            assert!((lost - n as f64 * p).abs() < 4.0 * sd, "size {size}: lost {lost}, p {p}");
        }
    }

    #[test]
    fn gilbert_elliott_loss_rate_is_the_stationary_bad_fraction() {
        // pi_bad = p_gb / (p_gb + p_bg) = 0.01 / 0.11; loss only in bad.
        let m = LossProcess::gilbert_elliott(0.01, 0.1, 0.0, 1.0);
        let n = 400_000;
        let rate = loss_count(m, 1000, n) as f64 / n as f64;
        let expected = 0.01 / 0.11;
        assert!((rate - expected).abs() < 0.1 * expected, "rate {rate}");
    }

    #[test]
    fn gilbert_elliott_losses_come_in_bursts() {
        // Mean bad-state sojourn is 1/p_bg = 10 packets.
        let mut m = LossProcess::gilbert_elliott(0.01, 0.1, 0.0, 1.0);
        let mut r = rng();
        let fates: Vec<bool> = (0..200_000).map(|_| m.is_lost(1000, &mut r)).collect();
        let bursts = fates.windows(2).filter(|w| w[1] && !w[0]).count();
        let losses = fates.iter().filter(|&&l| l).count();
        let mean_burst = losses as f64 / bursts as f64;
        assert!((mean_burst - 10.0).abs() < 1.5, "mean burst {mean_burst}");
    }
}
