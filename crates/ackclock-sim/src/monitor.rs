//! Per-flow statistics at the network layer, as ns-3's FlowMonitor keeps
//! them: what a flow put into the network in its own direction (source to
//! destination node), what reached the destination, what was dropped and on
//! which link, each delivered packet's one-way delay and the delay
//! variation between consecutive deliveries.
//!
//! The same for UDP and TCP: a TCP flow's packets are its data segments
//! (with retransmissions, SYN and FIN), its delay is from a segment's
//! sending to its arrival. The engine calls it on every packet, so the
//! common paths are a few additions.

use crate::histogram::Histogram;
use ackclock_core::{Duration, Instant};
use ackclock_net::ChannelId;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlowMonitor {
    pub tx_packets: u64,
    /// IP bytes (headers included).
    pub tx_bytes: u64,
    pub rx_packets: u64,
    pub rx_bytes: u64,
    /// Packets dropped on the way, by queues, error models or for want of
    /// a route.
    pub drops: u64,
    /// Drops by the link they happened on, in the order of each link's
    /// first drop.
    pub link_drops: Vec<(ChannelId, u64)>,
    /// One-way delays of delivered packets in picoseconds.
    pub delay: Histogram,
    /// The sum of |delay - delay of the previous delivery| in picoseconds
    /// over every delivery but the first: the IP packet delay variation of
    /// consecutive packets (RFC 3393), what ns-3 reports as jitter.
    jitter_sum: u128,
    last_delay: Option<u64>,
    pub first_tx: Option<Instant>,
    pub last_rx: Option<Instant>,
}

impl FlowMonitor {
    #[inline]
    pub fn sent(&mut self, now: Instant, size: u32) {
        self.tx_packets += 1;
        self.tx_bytes += u64::from(size);
        self.first_tx.get_or_insert(now);
    }

    #[inline]
    pub fn received(&mut self, now: Instant, size: u32, created: Instant) {
        self.rx_packets += 1;
        self.rx_bytes += u64::from(size);
        self.last_rx = Some(now);
        let delay = (now - created).as_ps();
        self.delay.record(delay);
        if let Some(previous) = self.last_delay.replace(delay) {
            self.jitter_sum += u128::from(delay.abs_diff(previous));
        }
    }

    /// The mean delay variation of consecutive deliveries, in picoseconds.
    pub fn mean_jitter(&self) -> Option<f64> {
        (self.rx_packets > 1).then(|| self.jitter_sum as f64 / (self.rx_packets - 1) as f64)
    }

    /// A drop on `link` (None: no route).
    #[cold]
    pub fn dropped(&mut self, link: Option<ChannelId>) {
        self.drops += 1;
        let Some(link) = link else { return };
        match self.link_drops.iter_mut().find(|(l, _)| *l == link) {
            Some((_, count)) => *count += 1,
            None => self.link_drops.push((link, 1)),
        }
    }

    /// From the first packet sent to the last one delivered.
    pub fn active(&self) -> Option<Duration> {
        match (self.first_tx, self.last_rx) {
            (Some(first), Some(last)) if last > first => Some(last - first),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64) -> Instant {
        Instant::ZERO + Duration::from_ps(ms * 1_000_000_000)
    }

    #[test]
    fn delays_and_jitter_of_consecutive_deliveries() {
        let mut m = FlowMonitor::default();
        for (sent, arrived) in [(0, 10), (5, 17), (10, 19), (15, 30)] {
            m.sent(at(sent), 100);
            m.received(at(arrived), 100, at(sent));
        }
        // delays 10, 12, 9, 15 ms; variations 2, 3, 6 ms
        assert_eq!((m.tx_packets, m.rx_packets, m.rx_bytes), (4, 4, 400));
        assert_eq!(m.delay.mean(), Some(11.5e9));
        assert_eq!(m.mean_jitter(), Some(11e9 / 3.0));
        assert_eq!(m.active(), Some(Duration::from_ps(30_000_000_000)));
    }

    #[test]
    fn drops_are_counted_per_link_in_order_of_first_drop() {
        let mut m = FlowMonitor::default();
        for link in [Some(3), Some(1), Some(3), None] {
            m.dropped(link);
        }
        assert_eq!(m.drops, 4);
        assert_eq!(m.link_drops, vec![(3, 2), (1, 1)]);
    }

    #[test]
    fn no_activity_before_a_delivery() {
        let mut m = FlowMonitor::default();
        m.sent(at(1), 100);
        assert_eq!(m.active(), None);
        assert_eq!(m.mean_jitter(), None);
    }
}
