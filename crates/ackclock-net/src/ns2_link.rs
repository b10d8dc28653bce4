//! A channel's times as ns-2 computes them, kept beside the channel when a
//! simulation reproduces ns-2's event order.
//!
//! ns-2's time is a double that each event inherits from the event that
//! scheduled it plus a delay, so two events of one exact instant can differ
//! in the last bits; which runs first then follows from the rounding, and
//! equal doubles run in insertion order. A packet that starts transmission
//! at t (as a double) arrives at t + (txt + delay), and the queue resumes at
//! t + txt, both scheduled at t (ns-2's LinkDelay), with txt = 8 size / bw.
//! `Ns2Link` keeps those doubles and the order keys of each departure and
//! arrival, so that the lazy channel answers as ns-2's link does: a packet
//! offered at the very instant a transmission ends sees the queue before
//! the departure when ns-2 runs the offer first.

use ackclock_core::{Bandwidth, Instant, OrderKey, PS_PER_SEC};
use std::collections::VecDeque;

/// Where in ns-2's order a packet is offered: the key of the event that
/// offers it, and a fresh sequence number for the events it schedules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ns2Offer {
    pub during: OrderKey,
    pub seq: u64,
}

#[derive(Clone, Debug)]
pub struct Ns2Link {
    bandwidth: f64,
    delay: f64,
    /// When the last transmission ends (the queue resumes).
    busy_until: f64,
    /// The key of each committed departure's end, in the channel's ledger
    /// order, from its departure number `first` on; the first one starts
    /// at `first_start`, each other one where the one before ends.
    departures: VecDeque<OrderKey>,
    first: u64,
    first_start: OrderKey,
    /// The key of each packet's arrival, in the channel's arrival order.
    arrivals: VecDeque<OrderKey>,
    /// With a holding discipline (which ns-2's DRR and SFQ are): the key of
    /// the queue's resume when a transmission is in progress.
    resume: Option<OrderKey>,
}

impl Ns2Link {
    /// `delay` is the double ns-2 has for the link's delay (it reads "71ms"
    /// as 71 * 1e-3, not as the double nearest 0.071).
    pub fn new(bandwidth: Bandwidth, delay: f64) -> Self {
        Ns2Link {
            bandwidth: bandwidth.bps() as f64,
            delay,
            busy_until: 0.0,
            departures: VecDeque::new(),
            first: 0,
            first_start: OrderKey::ns2(0.0, 0.0, 0),
            arrivals: VecDeque::new(),
            resume: None,
        }
    }

    /// The key of the next packet to arrive.
    pub fn head_key(&self) -> Option<OrderKey> {
        self.arrivals.front().copied()
    }

    /// The channel delivered its next packet.
    pub fn arrived(&mut self) {
        self.arrivals.pop_front();
    }

    /// Books a packet of `size` bytes offered as `offer` to a channel whose
    /// first departure still to end is number `first`: it starts at once if
    /// there is none, else when the one before ends. An arrival moved by
    /// jitter (which ns-2 has not) keeps its exact time, `jittered`.
    #[inline]
    pub(crate) fn book(&mut self, offer: Ns2Offer, size: u32, first: u64, jittered: Option<Instant>) {
        self.forget_before(first);
        let started = self.departures.is_empty();
        let start = if started { offer.during.ns2_time() } else { self.busy_until };
        if started {
            self.first_start = offer.during;
        }
        let txt = 8.0 * f64::from(size) / self.bandwidth;
        self.busy_until = start + txt;
        self.departures.push_back(OrderKey::ns2(self.busy_until, start, offer.seq));
        let arrival = jittered.map_or(start + (txt + self.delay), |at| at.as_ps() as f64 / PS_PER_SEC as f64);
        self.arrivals.push_back(OrderKey::ns2(arrival, start, offer.seq));
    }

    /// How long the idle link has been idle when `offer` comes, in ns-2's
    /// doubles: since its last transmission ended (the queue's resume).
    pub(crate) fn idle_for(&self, offer: &Ns2Offer) -> f64 {
        offer.during.ns2_time() - self.busy_until
    }

    /// The key of the event that starts the departure booked last: the
    /// offer's when the link was idle, else the queue's resume when the
    /// departure before ends. ns-2 writes the packet's `-` record then.
    pub fn last_start_key(&self) -> OrderKey {
        match self.departures.len() {
            0 | 1 => self.first_start,
            n => self.departures[n - 2],
        }
    }

    /// The link went down: what was booked is gone; the channel's next
    /// departure is number `next`.
    pub fn flush(&mut self, next: u64) {
        self.departures.clear();
        self.arrivals.clear();
        self.first = next;
        self.resume = None;
    }

    /// A holding discipline's transmission of `size` bytes starts: at the
    /// queue's resume if one is pending, else at the arrival `offer` that
    /// found the link idle. Books its arrival and the next resume.
    pub(crate) fn start_held(&mut self, offer: Option<Ns2Offer>, size: u32, jittered: Option<Instant>) {
        let (start, seq) = match (self.resume, offer) {
            (Some(resume), _) => (resume.ns2_time(), resume.seq()),
            (None, Some(offer)) => (offer.during.ns2_time(), offer.seq),
            (None, None) => (self.busy_until, 0),
        };
        let txt = 8.0 * f64::from(size) / self.bandwidth;
        self.busy_until = start + txt;
        self.resume = Some(OrderKey::ns2(self.busy_until, start, seq));
        let arrival = jittered.map_or(start + (txt + self.delay), |at| at.as_ps() as f64 / PS_PER_SEC as f64);
        self.arrivals.push_back(OrderKey::ns2(arrival, start, seq));
    }

    /// The queue resumed with nothing to send: the link is idle.
    pub(crate) fn idle(&mut self) {
        self.resume = None;
    }

    pub(crate) fn resume_key(&self) -> Option<OrderKey> {
        self.resume
    }

    /// Whether ns-2 runs the pending resume after the event `before`.
    pub(crate) fn resumes_after(&self, before: OrderKey) -> bool {
        self.resume.is_some_and(|resume| before < resume)
    }

    /// Whether ns-2 runs the start (or end, once `started`) of the
    /// channel's departure number `number` after the event `before`.
    pub(crate) fn runs_later(&mut self, number: u64, started: bool, before: OrderKey) -> bool {
        self.forget_before(number);
        before < if started { self.departures[0] } else { self.first_start }
    }

    /// Drops the departures before number `number`: the channel retires
    /// departures without telling.
    fn forget_before(&mut self, number: u64) {
        while self.first < number {
            self.first_start = self.departures.pop_front().expect("a departure per ledger entry");
            self.first += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{Channel, ChannelConfig, SendOutcome};
    use crate::discipline::{Discipline, DropTail, QueueLimit};
    use crate::pool::PacketId;
    use ackclock_core::{Duration, RngStreams};
    use std::collections::BinaryHeap;

    /// 2^-12 s: 250 bytes at 8.192 Mbit/s. Times on this grid are exact
    /// both in picoseconds and in doubles, so ties are exact ties.
    const TICK: f64 = 1.0 / 4096.0;
    const TICK_PS: u64 = 244_140_625;
    const BANDWIDTH: u64 = 8_192_000;
    const DELAY_TICKS: u64 = 4;

    /// An event of the straightforward ns-2 link: an offer of a packet
    /// (its index) or the queue's resume, ordered as ns-2's scheduler does.
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    struct Pending {
        key: std::cmp::Reverse<OrderKey>,
        offer: Option<usize>,
    }

    /// ns-2's DropTail queue and LinkDelay, event by event: an offer is
    /// dropped if (waiting + 1) >= limit, else queued; an idle link takes
    /// the head at once, scheduling its arrival and the queue's resume.
    /// Returns which offers were accepted and the arrival keys in order.
    fn straightforward(offers: &[(OrderKey, u32)], limit: u32) -> (Vec<bool>, Vec<OrderKey>) {
        let mut pending: BinaryHeap<Pending> = offers
            .iter()
            .enumerate()
            .map(|(i, &(key, _))| Pending { key: std::cmp::Reverse(key), offer: Some(i) })
            .collect();
        let (mut waiting, mut busy, mut seq) = (std::collections::VecDeque::new(), false, 1_000_000);
        let (mut accepted, mut arrivals) = (vec![false; offers.len()], Vec::new());
        let delay = DELAY_TICKS as f64 * TICK;
        while let Some(Pending { key: std::cmp::Reverse(key), offer }) = pending.pop() {
            let now = key.ns2_time();
            let mut start = |size: u32, pending: &mut BinaryHeap<Pending>, seq: &mut u64| {
                let txt = 8.0 * f64::from(size) / BANDWIDTH as f64;
                arrivals.push(OrderKey::ns2(now + (txt + delay), now, *seq));
                pending.push(Pending { key: std::cmp::Reverse(OrderKey::ns2(now + txt, now, *seq)), offer: None });
                *seq += 1;
            };
            match offer {
                Some(i) if waiting.len() as u32 + 1 >= limit => accepted[i] = false,
                Some(i) => {
                    accepted[i] = true;
                    if busy {
                        waiting.push_back(offers[i].1);
                    } else {
                        busy = true;
                        start(offers[i].1, &mut pending, &mut seq);
                    }
                }
                None => match waiting.pop_front() {
                    Some(size) => start(size, &mut pending, &mut seq),
                    None => busy = false,
                },
            }
        }
        (accepted, arrivals)
    }

    proptest::proptest! {
        /// The lazy channel with its `Ns2Link` admits and delivers as the
        /// straightforward event-by-event link in ns-2's order, offers at the
        /// very instant a transmission ends included: ns-2 runs such an
        /// offer before the queue resumes when its parent ran earlier.
        #[test]
        fn lazy_channel_matches_ns2s_link_event_by_event(
            offers in proptest::collection::vec((0u64..3, 1u32..4, proptest::bool::ANY), 1..200),
            limit in 1u32..8,
        ) {
            let config = ChannelConfig::new(
                0,
                1,
                Bandwidth::from_bps(BANDWIDTH).unwrap(),
                Duration::from_ps(DELAY_TICKS * TICK_PS),
                Discipline::DropTail(DropTail { limit: QueueLimit::Packets(limit), ns2_limit: true }),
            );
            let mut channel = Channel::new(config.clone(), 0, &RngStreams::new(1, 0));
            let mut link = Ns2Link::new(config.bandwidth, DELAY_TICKS as f64 * TICK);
            // Offers on the tick grid, from an event that ran early in the
            // instant (parent 0) or late (parent = now).
            let mut ticks = 1;
            let offers: Vec<(OrderKey, u32)> = offers
                .iter()
                .enumerate()
                .map(|(i, &(gap, quarter_kb, late))| {
                    ticks += gap;
                    let now = ticks as f64 * TICK;
                    (OrderKey::ns2(now, if late { now } else { 0.0 }, i as u64), 250 * quarter_kb)
                })
                .collect();
            let mut sorted: Vec<usize> = (0..offers.len()).collect();
            sorted.sort_by_key(|&i| offers[i].0);
            let mut accepted = vec![false; offers.len()];
            for i in sorted {
                let (key, size) = offers[i];
                let now = Instant::from_ps((key.ns2_time() / TICK) as u64 * TICK_PS);
                let offer = Ns2Offer { during: key, seq: 1_000_000 + i as u64 };
                let outcome = channel.send(now, Some((&mut link, offer)), PacketId::new(i as u32), size, 0, (0, 1), false, &mut None);
                accepted[i] = matches!(outcome, SendOutcome::Accepted { .. });
            }
            let mut arrivals = Vec::new();
            while let Some(key) = link.head_key() {
                proptest::prop_assert!(channel.pop_due(Instant::MAX).is_some());
                link.arrived();
                arrivals.push(key);
            }
            let (expected, expected_arrivals) = straightforward(&offers, limit);
            proptest::prop_assert_eq!(accepted, expected);
            let times = |keys: &[OrderKey]| keys.iter().map(|k| k.ns2_time()).collect::<Vec<_>>();
            proptest::prop_assert_eq!(times(&arrivals), times(&expected_arrivals));
        }
    }
}
