//! Queue and flow monitors: counts of the packets that arrive at a link
//! direction's queue, leave it and are dropped, with the time integral of
//! what waits (ns-2's QueueMonitor and, per flow, its Flowmon).
//!
//! A monitor is a trace sink: it sees the link's `+ - d` records in time
//! order, so its counts are those of the records written up to now.

use crate::ns2::Ns2Packet;
use crate::record::{FlowView, PacketEvent, PacketRecord};
use ackclock_core::Instant;
use ackclock_net::{ChannelId, Ecn, NodeId};
use std::collections::HashMap;

/// Which packets are counted together: one link direction, and the flow id
/// with the source and destination nodes of ns-2's `SrcDestFid` classifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FlowKey {
    pub channel: ChannelId,
    pub fid: u32,
    pub src: NodeId,
    pub dst: NodeId,
}

/// A monitor's counters for one key.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    pub arrivals: u64,
    pub arrived_bytes: u64,
    pub departures: u64,
    pub departed_bytes: u64,
    /// Of the departures, packets that left marked Congestion Experienced
    /// (ns-2's `pmarks_`).
    pub marks: u64,
    /// Packets the queue refused or the link's error models lost.
    pub drops: u64,
    pub dropped_bytes: u64,
    /// Of those, RED's early (random) drops.
    pub early_drops: u64,
    pub early_dropped_bytes: u64,
    /// Waiting now (arrived, neither departed nor dropped).
    pub packets: u64,
    pub bytes: u64,
    /// Time integrals of `packets` and `bytes` (per second).
    pub packet_seconds: f64,
    pub byte_seconds: f64,
    /// Sum and count of the waits of departed packets, in seconds.
    pub delay_sum: f64,
    pub delay_squares: f64,
    /// When a packet last arrived, left or was dropped: ns-2's integrators
    /// add a point then, so that their sums stop there.
    pub last_event: Instant,
    last_change: Instant,
}

impl Counts {
    fn integrate(&mut self, now: Instant) {
        let dt = (now - self.last_change).as_secs_f64();
        self.packet_seconds += dt * self.packets as f64;
        self.byte_seconds += dt * self.bytes as f64;
        self.last_change = now;
    }

    /// The integrals brought up to `now`.
    pub fn at(&self, now: Instant) -> Counts {
        let mut c = *self;
        if now > c.last_change {
            c.integrate(now);
        }
        c
    }
}

#[derive(Clone, Debug, Default)]
pub struct Monitor {
    /// The link directions monitored (every one when `None`).
    channels: Option<Vec<ChannelId>>,
    counts: HashMap<FlowKey, Counts>,
    /// Arrival times of packets waiting, by uid, for their delay.
    waiting: HashMap<u64, Instant>,
}

impl Monitor {
    pub fn new(channels: Option<Vec<ChannelId>>) -> Self {
        Monitor { channels, ..Monitor::default() }
    }

    pub fn record(&mut self, r: &PacketRecord, view: Option<&FlowView>) {
        if self.channels.as_ref().is_some_and(|c| !c.contains(&r.channel)) {
            return;
        }
        let p = Ns2Packet::new(r, view);
        let key = FlowKey { channel: r.channel, fid: p.fid, src: p.src.0, dst: p.dst.0 };
        let size = u64::from(p.size);
        let c = self.counts.entry(key).or_insert_with(|| Counts { last_change: r.time, ..Counts::default() });
        c.integrate(r.time);
        match r.event {
            PacketEvent::Enqueue => {
                c.arrivals += 1;
                c.arrived_bytes += size;
                c.packets += 1;
                c.bytes += size;
                self.waiting.insert(p.uid, r.time);
            }
            PacketEvent::Dequeue => {
                c.departures += 1;
                c.departed_bytes += size;
                c.marks += u64::from(r.packet.ip.ecn == Ecn::Ce);
                c.packets = c.packets.saturating_sub(1);
                c.bytes = c.bytes.saturating_sub(size);
                if let Some(since) = self.waiting.remove(&p.uid) {
                    let wait = (r.time - since).as_secs_f64();
                    c.delay_sum += wait;
                    c.delay_squares += wait * wait;
                }
            }
            PacketEvent::Drop => {
                c.drops += 1;
                c.dropped_bytes += size;
                c.early_drops += u64::from(r.early_drop);
                c.early_dropped_bytes += if r.early_drop { size } else { 0 };
                // A packet the queue refused had arrived; one lost on the
                // wire had left the queue already.
                if self.waiting.remove(&p.uid).is_some() {
                    c.packets = c.packets.saturating_sub(1);
                    c.bytes = c.bytes.saturating_sub(size);
                }
            }
            PacketEvent::Receive | PacketEvent::Hop => return,
        }
        c.last_event = r.time;
    }

    /// Every key's counts, with the integrals up to `now`, in key order.
    pub fn counts(&self, now: Instant) -> Vec<(FlowKey, Counts)> {
        let mut all: Vec<_> = self.counts.iter().map(|(k, c)| (*k, c.at(now))).collect();
        all.sort_by_key(|(k, _)| *k);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_net::{Ecn, Ipv4Header, Packet, Transport, UdpHeader};

    fn record(us: u64, event: PacketEvent, uid: u64, size: u32) -> PacketRecord {
        let packet = Packet {
            uid,
            ip: Ipv4Header { src: 0, dst: 1, ttl: 64, ecn: Ecn::NotEct },
            transport: Transport::Udp(UdpHeader { src_port: 0, dst_port: 0 }),
            size,
            flow: 0,
            seq: uid,
            created: Instant::ZERO,
        };
        PacketRecord {
            time: Instant::from_ps(us * 1_000_000),
            event,
            channel: 0,
            from: 0,
            to: 1,
            packet,
            congestion_action: false,
            early_drop: false,
        }
    }

    #[test]
    fn counts_arrivals_departures_and_drops_and_integrates_the_queue() {
        let mut m = Monitor::new(None);
        let view = FlowView::Udp { type_name: "cbr", fid: 3 };
        // Packet 1 waits from 0 to 10 us; packet 2 is refused at 5 us;
        // packet 3 is lost on the wire after leaving at 10 us.
        for r in [
            record(0, PacketEvent::Enqueue, 1, 100),
            record(5, PacketEvent::Enqueue, 2, 100),
            record(5, PacketEvent::Drop, 2, 100),
            record(10, PacketEvent::Dequeue, 1, 100),
            record(10, PacketEvent::Enqueue, 3, 50),
            record(10, PacketEvent::Dequeue, 3, 50),
            record(20, PacketEvent::Drop, 3, 50),
        ] {
            m.record(&r, Some(&view));
        }
        let all = m.counts(Instant::from_ps(40_000_000));
        assert_eq!(all.len(), 1);
        let (key, c) = all[0];
        assert_eq!(key, FlowKey { channel: 0, fid: 3, src: 0, dst: 1 });
        assert_eq!((c.arrivals, c.departures, c.drops), (3, 2, 2));
        assert_eq!((c.arrived_bytes, c.departed_bytes, c.dropped_bytes), (250, 150, 150));
        assert_eq!((c.packets, c.bytes), (0, 0));
        assert!((c.packet_seconds - 10e-6).abs() < 1e-15, "{}", c.packet_seconds);
        assert!((c.delay_sum - 10e-6).abs() < 1e-15);
        assert_eq!(c.last_event, Instant::from_ps(20_000_000), "the last drop, not the query");
    }

    #[test]
    fn marks_count_departures_that_leave_congestion_experienced() {
        // ns-2's pmarks_: counted as the packet leaves the queue marked;
        // an unmarked departure and a marked packet dropped are not marks.
        let mut m = Monitor::new(None);
        let view = FlowView::Udp { type_name: "cbr", fid: 0 };
        let marked = |us, event, uid| {
            let mut r = record(us, event, uid, 100);
            r.packet.ip.ecn = Ecn::Ce;
            r
        };
        for r in [
            marked(0, PacketEvent::Enqueue, 1),
            marked(1, PacketEvent::Dequeue, 1),
            record(2, PacketEvent::Enqueue, 2, 100),
            record(3, PacketEvent::Dequeue, 2, 100),
            marked(4, PacketEvent::Enqueue, 3),
            marked(4, PacketEvent::Drop, 3),
        ] {
            m.record(&r, Some(&view));
        }
        let (_, c) = m.counts(Instant::from_ps(5_000_000))[0];
        assert_eq!((c.departures, c.drops, c.marks), (2, 1, 1));
    }
}
