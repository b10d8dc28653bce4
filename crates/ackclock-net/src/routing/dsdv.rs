//! Destination-sequenced distance vector routing with the behaviour of
//! ns-2 2.35's DSDV agent (dsdv/dsdv.cc):
//!
//! * Every node broadcasts its whole table every `periodic_update_interval`
//!   x uniform 0.75..1.0 (the first within `startup_jitter`), each time with
//!   its own sequence number raised by 2.
//! * An advertised route with a higher sequence number replaces the
//!   current one; with the same, a shorter metric does. A route whose
//!   metric changed is advertised only after its settling time (twice the
//!   weighted settling time, `alpha`-smoothed, starting at `wst0`) and then
//!   in a triggered update: only the changed entries, at most one update
//!   per `min_triggered_interval`, or the whole table when more than a
//!   third of it (and more than 3 entries) changed.
//! * A neighbour not heard for `min_update_periods` periods is lost: every
//!   route through it becomes unreachable (metric 250, sequence number
//!   raised to odd) and is announced at once.
//! * Packets for a destination without a route wait (ns-2 keeps 5 per
//!   destination, without a time limit).
//! * Link-layer feedback is used only with `use_mac` (ns-2's `use_mac_`,
//!   off by default, so a MAC failure just drops the packet): then the
//!   neighbour is lost at once and the packet waits for a new route.
//!
//! Sizes are ns-2's: 20 bytes of IP and 12 per advertised destination.

use super::{
    broadcast_vias, neighbor_of, Adjacency, AfterFailure, ControlMessage, NextHop, RouterOutput, RoutingProtocol,
};
use crate::packet::NodeId;
use ackclock_core::{Duration, Instant, SimRng};
use rand::RngExt;

/// ns-2's Agent/DSDV defaults (tcl/mobility/dsdv.tcl) and dsdv.cc constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DsdvConfig {
    /// perup_: the period of full updates.
    pub periodic_update_interval: Duration,
    /// min_update_periods_: periods without news before a neighbour is lost.
    pub min_update_periods: u32,
    /// wst0_: the settling time of a new route.
    pub wst0: Duration,
    /// alpha_: the weight of the old settling time.
    pub alpha: f64,
    /// use_mac_: whether a MAC failure breaks the link.
    pub use_mac: bool,
    /// be_random_: whether the jitters are random (else zero).
    pub be_random: bool,
    /// DSDV_MIN_TUP_PERIOD: the least time between triggered updates.
    pub min_triggered_interval: Duration,
    /// DSDV_BROADCAST_JITTER: the most an update is delayed.
    pub broadcast_jitter: Duration,
    /// DSDV_STARTUP_JITTER: the most the first update is delayed.
    pub startup_jitter: Duration,
    /// MAX_QUEUE_LENGTH: packets waiting for a route.
    pub queue_len: usize,
}

// `alpha` is checked to be a number in [0, 1] where configs are made.
impl Eq for DsdvConfig {}

impl Default for DsdvConfig {
    fn default() -> Self {
        DsdvConfig {
            periodic_update_interval: Duration::from_secs(15),
            min_update_periods: 3,
            wst0: Duration::from_secs(6),
            alpha: 0.875,
            use_mac: false,
            be_random: true,
            min_triggered_interval: Duration::from_secs(1),
            broadcast_jitter: Duration::from_millis(10),
            startup_jitter: Duration::from_secs(2),
            queue_len: 5,
        }
    }
}

/// The metric of an unreachable destination (ns-2's BIG).
pub const UNREACHABLE: u32 = 250;

/// One advertised destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advert {
    pub dst: NodeId,
    pub metric: u32,
    pub seqno: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Update {
    pub adverts: Vec<Advert>,
}

impl Update {
    /// ns-2's size: IP header and 12 bytes per destination.
    pub fn size(&self) -> u32 {
        20 + 12 * self.adverts.len() as u32
    }
}

/// ns-2's "check back next week" for routes not to be advertised.
const NEXT_WEEK: Duration = Duration::from_secs(604_800);

/// A routing table entry (ns-2's rtable_ent).
#[derive(Clone, Debug)]
struct Entry {
    /// The neighbour and how to reach it (`None` for the node itself and
    /// destinations only waited for).
    next: Option<(NextHop, NodeId)>,
    metric: u32,
    seqno: u32,
    advertise_ok_at: Instant,
    advert_seqno: bool,
    advert_metric: bool,
    last_advertised_metric: u32,
    changed_at: Instant,
    new_seqno_at: Instant,
    /// Weighted settling time, in seconds.
    wst: f64,
    /// When the neighbour this entry names is lost if not heard again.
    timeout: Option<Instant>,
    /// When a triggered update for this entry is due.
    trigger: Option<Instant>,
}

impl Entry {
    fn new(now: Instant, metric: u32, wst: f64) -> Self {
        Entry {
            next: None,
            metric,
            seqno: 0,
            advertise_ok_at: now,
            advert_seqno: false,
            advert_metric: false,
            last_advertised_metric: 0,
            changed_at: now,
            new_seqno_at: now,
            wst,
            timeout: None,
            trigger: None,
        }
    }

    fn pending(&self, now: Instant) -> bool {
        (self.advert_seqno || self.advert_metric) && self.advertise_ok_at <= now
    }
}

#[derive(Debug)]
pub struct Dsdv {
    node: NodeId,
    config: DsdvConfig,
    rng: SimRng,
    adjacencies: Vec<Adjacency>,
    seqno: u32,
    /// Entries by destination (ns-2 keeps them sorted by address).
    table: Vec<Option<Entry>>,
    installed: Vec<Option<NextHop>>,
    next_periodic: Option<Instant>,
    /// When the last update went out.
    last_update: Option<Instant>,
    outbox: Vec<(Instant, Update)>,
}

impl Dsdv {
    pub fn new(node: NodeId, nodes: usize, config: DsdvConfig, rng: SimRng) -> Self {
        Dsdv {
            node,
            config,
            rng,
            adjacencies: Vec::new(),
            seqno: 0,
            table: vec![None; nodes],
            installed: vec![None; nodes],
            next_periodic: None,
            last_update: None,
            outbox: Vec::new(),
        }
    }

    fn jitter(&mut self, max: Duration) -> Duration {
        if self.config.be_random {
            Duration::from_secs_f64(max.as_secs_f64() * self.rng.random::<f64>())
        } else {
            Duration::ZERO
        }
    }

    fn sync(&mut self, dst: NodeId, out: &mut RouterOutput) {
        let hop = self.table[dst as usize]
            .as_ref()
            .filter(|e| e.metric != UNREACHABLE && dst != self.node)
            .and_then(|e| e.next)
            .map(|(via, _)| via);
        if self.installed[dst as usize] != hop {
            self.installed[dst as usize] = hop;
            out.routes.push((dst, hop));
        }
    }

    /// ns-2's makeUpdate: the entries to advertise, or `None`; `periodic`
    /// asks for the whole table and says whether it became one.
    fn make_update(&mut self, now: Instant, periodic: &mut bool) -> Option<Update> {
        let entries = self.table.iter().flatten();
        let size = entries.clone().count();
        let mut changes = entries.clone().filter(|e| e.pending(now)).count();
        let unadvertisable = entries.filter(|e| e.advertise_ok_at > now).count();
        if changes * 3 > size && changes > 3 {
            *periodic = true;
        }
        if *periodic {
            changes = size - unadvertisable;
            self.seqno += 2;
            let me = Entry {
                seqno: self.seqno,
                advertise_ok_at: Instant::ZERO,
                advert_seqno: true,
                ..Entry::new(now, 0, 0.0)
            };
            self.table[self.node as usize] = Some(me);
        }
        if changes == 0 {
            return None;
        }
        let mut adverts = Vec::new();
        for (dst, entry) in self.table.iter_mut().enumerate() {
            let Some(e) = entry.as_mut() else { continue };
            if (*periodic && e.advertise_ok_at <= now) || (!*periodic && e.pending(now)) {
                adverts.push(Advert { dst: dst as NodeId, metric: e.metric, seqno: e.seqno });
                e.last_advertised_metric = e.metric;
                e.advert_seqno = false;
                if *periodic {
                    e.advert_metric = false;
                }
            }
        }
        Some(Update { adverts })
    }

    fn send(&mut self, now: Instant, update: Update) {
        let at = now + self.jitter(self.config.broadcast_jitter);
        self.outbox.push((at, update));
    }

    fn schedule_periodic(&mut self, now: Instant) {
        let period = self.config.periodic_update_interval.as_secs_f64();
        let jitter = self.jitter(Duration::from_secs_f64(0.25)).as_secs_f64();
        self.next_periodic = Some(now + Duration::from_secs_f64(period * (0.75 + jitter)));
    }

    fn periodic_update(&mut self, now: Instant) {
        if let Some(update) = self.make_update(now, &mut true) {
            self.send(now, update);
        }
        self.schedule_periodic(now);
        self.last_update = Some(now);
    }

    /// ns-2's DSDVTriggerHandler for `dst`'s trigger.
    fn triggered_update(&mut self, now: Instant, dst: NodeId) {
        let next_possible = self.last_update.map(|t| t + self.config.min_triggered_interval);
        if let Some(next) = next_possible.filter(|&t| now < t) {
            for (d, entry) in self.table.iter_mut().enumerate() {
                let Some(e) = entry.as_mut() else { continue };
                if d == dst as usize {
                    e.trigger = Some(next);
                } else if e.trigger.is_some_and(|t| t < next) {
                    e.trigger = None;
                }
            }
            return;
        }
        let mut periodic = false;
        if let Some(update) = self.make_update(now, &mut periodic) {
            if periodic {
                self.schedule_periodic(now);
            }
            self.send(now, update);
            self.last_update = Some(now);
        }
        if let Some(e) = self.table[dst as usize].as_mut() {
            e.trigger = None;
        }
    }

    /// ns-2's helper_callback for a neighbour's timeout: every route
    /// through it becomes unreachable and is announced at once.
    fn neighbor_lost(&mut self, now: Instant, neighbor: NodeId, out: &mut RouterOutput) {
        if let Some(e) = self.table[neighbor as usize].as_mut() {
            e.timeout = None;
        }
        for dst in 0..self.table.len() as NodeId {
            let Some(e) = self.table[dst as usize].as_mut() else { continue };
            if e.next.map(|(_, n)| n) == Some(neighbor) && e.metric != UNREACHABLE {
                e.metric = UNREACHABLE;
                e.advertise_ok_at = now;
                e.advert_metric = true;
                e.advert_seqno = true;
                e.seqno += 1;
                e.trigger = Some(now);
                self.sync(dst, out);
            }
        }
    }

    /// ns-2's processUpdate.
    fn process(&mut self, now: Instant, from: NextHop, update: &Update, out: &mut RouterOutput) {
        let Some(sender) = neighbor_of(&self.adjacencies, from) else { return };
        let c = self.config;
        for a in &update.adverts {
            let metric = if a.metric == UNREACHABLE { a.metric } else { a.metric + 1 };
            if a.dst == self.node {
                if metric == UNREACHABLE && self.next_periodic.is_some() {
                    self.next_periodic = Some(now); // someone thinks we are gone
                }
                continue;
            }
            let old = self.table[a.dst as usize].clone();
            let mut new = old.clone().unwrap_or_else(|| Entry::new(now, metric, 0.0));
            new.next = Some((from, sender));
            new.metric = metric;
            new.seqno = a.seqno;
            new.changed_at = now;
            match &old {
                Some(o) if o.seqno == a.seqno => {
                    new.wst = o.wst;
                    new.new_seqno_at = o.new_seqno_at;
                }
                Some(o) => {
                    let measured = o.changed_at.saturating_since(o.new_seqno_at).as_secs_f64();
                    new.wst = c.alpha * o.wst + (1.0 - c.alpha) * measured;
                    new.new_seqno_at = now;
                }
                None => {
                    new.wst = c.wst0.as_secs_f64();
                    new.new_seqno_at = now;
                }
            }
            new.advertise_ok_at = if metric != UNREACHABLE && old.as_ref().is_none_or(|o| o.metric != UNREACHABLE) {
                now + Duration::from_secs_f64(2.0 * new.wst)
            } else {
                now
            };
            let trigger = match &old {
                None => {
                    new.advert_metric |= metric < UNREACHABLE;
                    self.table[a.dst as usize] = Some(new);
                    metric < UNREACHABLE
                }
                Some(o) if o.seqno == a.seqno => {
                    if metric >= o.metric {
                        continue; // a longer route: ignored
                    }
                    new.advert_metric = metric != o.last_advertised_metric;
                    self.table[a.dst as usize] = Some(new);
                    metric != o.last_advertised_metric
                }
                Some(o) if o.seqno < a.seqno => {
                    new.advert_seqno = true;
                    new.advert_metric = metric != o.last_advertised_metric;
                    self.table[a.dst as usize] = Some(new);
                    false
                }
                Some(o) => {
                    // The neighbour's news is older; tell it if it thinks the
                    // destination is gone while we reach it.
                    if metric == UNREACHABLE && o.metric != UNREACHABLE {
                        let e = self.table[a.dst as usize].as_mut().expect("exists");
                        e.advertise_ok_at = now;
                        e.advert_metric = true;
                        e.trigger = Some(now);
                    }
                    false
                }
            };
            if trigger {
                let e = self.table[a.dst as usize].as_mut().expect("just set");
                e.trigger = Some(e.advertise_ok_at);
            }
            self.sync(a.dst, out);
        }
        let lost_at = now + c.periodic_update_interval * u64::from(c.min_update_periods);
        match self.table[sender as usize].as_mut() {
            Some(e) => e.timeout = Some(lost_at),
            None => {
                // First heard in a triggered update that did not name it.
                let e = Entry {
                    next: Some((from, sender)),
                    advertise_ok_at: now + NEXT_WEEK,
                    timeout: Some(lost_at),
                    ..Entry::new(now, 1, c.wst0.as_secs_f64())
                };
                self.table[sender as usize] = Some(e);
                self.sync(sender, out);
            }
        }
    }

    /// The earliest of the node's timers and triggers: (when, which).
    fn next_event(&self) -> Option<(Instant, Timer)> {
        let periodic = self.next_periodic.map(|t| (t, Timer::Periodic));
        let entries = self.table.iter().enumerate().filter_map(|(d, e)| e.as_ref().map(|e| (d as NodeId, e)));
        let triggers = entries.clone().filter_map(|(d, e)| e.trigger.map(|t| (t, Timer::Trigger(d))));
        let timeouts = entries.filter_map(|(d, e)| e.timeout.map(|t| (t, Timer::Timeout(d))));
        periodic.into_iter().chain(triggers).chain(timeouts).min()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Periodic,
    Trigger(NodeId),
    Timeout(NodeId),
}

impl RoutingProtocol for Dsdv {
    /// ns-2's startUp: the node's own entry, and the first update soon.
    fn start(&mut self, now: Instant, adjacencies: &[Adjacency], _out: &mut RouterOutput) {
        self.adjacencies = adjacencies.to_vec();
        let me = Entry {
            seqno: self.seqno,
            advertise_ok_at: Instant::ZERO,
            advert_seqno: true,
            advert_metric: true,
            ..Entry::new(now, 0, 0.0)
        };
        self.table[self.node as usize] = Some(me);
        self.seqno += 2;
        self.next_periodic = Some(now + self.jitter(self.config.startup_jitter));
    }

    fn on_adjacencies(&mut self, _now: Instant, adjacencies: &[Adjacency], _out: &mut RouterOutput) {
        self.adjacencies = adjacencies.to_vec();
    }

    fn on_message(&mut self, now: Instant, from: NextHop, message: &ControlMessage, out: &mut RouterOutput) {
        if let ControlMessage::Dsdv(update) = message {
            self.process(now, from, update, out);
        }
    }

    fn on_timer(&mut self, now: Instant, out: &mut RouterOutput) {
        while let Some((_, timer)) = self.next_event().filter(|&(t, _)| t <= now) {
            match timer {
                Timer::Periodic => self.periodic_update(now),
                Timer::Trigger(dst) => self.triggered_update(now, dst),
                Timer::Timeout(neighbor) => self.neighbor_lost(now, neighbor, out),
            }
        }
        self.outbox.sort_by_key(|&(t, _)| t);
        let due = self.outbox.iter().take_while(|&&(t, _)| t <= now).count();
        for (_, update) in self.outbox.drain(..due) {
            let size = update.size();
            for via in broadcast_vias(&self.adjacencies) {
                out.messages.push((via, ControlMessage::Dsdv(update.clone()), size));
            }
        }
    }

    fn poll_at(&self) -> Option<Instant> {
        let event = self.next_event().map(|(t, _)| t);
        event.into_iter().chain(self.outbox.iter().map(|e| e.0)).min()
    }

    /// ns-2's forwardPacket for a destination it has no entry for: an
    /// unreachable placeholder, not advertised, while the packet waits.
    fn on_no_route(&mut self, now: Instant, _src: NodeId, dst: NodeId, _out: &mut RouterOutput) -> bool {
        let wst0 = self.config.wst0.as_secs_f64();
        self.table[dst as usize]
            .get_or_insert_with(|| Entry { advertise_ok_at: now + NEXT_WEEK, ..Entry::new(now, UNREACHABLE, wst0) });
        true
    }

    /// ns-2's lost_link.
    fn on_link_failure(
        &mut self,
        now: Instant,
        via: NextHop,
        _dst: NodeId,
        _forwarded: u32,
        out: &mut RouterOutput,
    ) -> AfterFailure {
        let neighbor = neighbor_of(&self.adjacencies, via);
        let known = neighbor.filter(|&n| self.table.get(n as usize).is_some_and(Option::is_some));
        match known {
            Some(n) if self.config.use_mac => {
                self.neighbor_lost(now, n, out);
                AfterFailure::Wait
            }
            _ => AfterFailure::Drop,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::scripted::{self, at, chain};
    use crate::routing::BROADCAST;

    type Net = scripted::Net<Dsdv>;

    /// Without jitter, so that the schedule is exact, and with a short
    /// settling time (ns-2's 6 s keeps new routes out of updates for 12 s).
    fn steady() -> DsdvConfig {
        DsdvConfig { be_random: false, wst0: Duration::from_millis(100), ..DsdvConfig::default() }
    }

    fn radios(n: usize, links: &[(NodeId, NodeId)], config: DsdvConfig) -> Net {
        Net::new(n, links, |i, rng| Dsdv::new(i, n, config, rng))
    }

    /// An update as (time, adverts as (dst, metric, seqno)).
    type Sent = (f64, Vec<(NodeId, u32, u32)>);

    /// The updates `node` sent.
    fn updates(net: &Net, node: NodeId) -> Vec<Sent> {
        let sent = net.sent.iter().filter(|(_, n, _)| *n == node);
        sent.map(|(t, _, m)| match m {
            ControlMessage::Dsdv(u) => {
                (t.as_secs_f64(), u.adverts.iter().map(|a| (a.dst, a.metric, a.seqno)).collect())
            }
            other => panic!("not DSDV: {other:?}"),
        })
        .collect()
    }

    #[test]
    fn full_dumps_come_every_period_with_a_new_sequence_number() {
        let mut net = radios(3, &chain(3), DsdvConfig::default());
        net.run_until(200.0);
        let mine = updates(&net, 0);
        let times: Vec<f64> = mine.iter().map(|u| u.0).collect();
        assert!(times[0] < 2.0 + 0.01, "the first within the 2 s start-up jitter: {times:?}");
        let own: Vec<u32> = mine.iter().filter_map(|u| u.1.iter().find(|a| a.0 == 0).map(|a| a.2)).collect();
        assert_eq!(own[..3], [4, 6, 8], "its own entry, sequence number raised by 2 per full dump");
        let periodic: Vec<f64> = mine.iter().filter(|u| u.1.iter().any(|a| a.0 == 0)).map(|u| u.0).collect();
        for gap in periodic.windows(2).map(|w| w[1] - w[0]) {
            assert!((11.25 - 0.01..=15.0 + 0.01).contains(&gap), "15 s x 0.75..1 (+ broadcast jitter): {gap}");
        }
        // Settling keeps two-hop routes out of most dumps: they took 12 to
        // 143 s over 20 seeds here, 12 to over 100 s in ns-2 (docs/dsdv.md).
        assert_eq!((net.next(0, 2), net.next(2, 0)), (Some(1), Some(1)));
    }

    #[test]
    fn a_new_route_is_announced_after_its_settling_time_in_a_triggered_update() {
        let mut net = radios(3, &chain(3), steady());
        // All dump at 0 s (themselves only). Node 1's two new neighbours may
        // be advertised 2 x wst0 = 0.2 s later, but triggered updates are at
        // least 1 s apart: at 1 s.
        net.run_until(0.99);
        assert_eq!(net.next(0, 2), None);
        net.run_until(1.0);
        assert_eq!(net.next(0, 2), Some(1));
        let node1 = updates(&net, 1);
        assert_eq!(node1.iter().map(|u| u.0).collect::<Vec<_>>(), vec![0.0, 1.0]);
        assert_eq!(node1[1].1, vec![(0, 1, 4), (2, 1, 4)], "the triggered update has only the changed entries");
        let sizes = net.sent.iter().filter(|(_, n, _)| *n == 1).map(|(_, _, m)| match m {
            ControlMessage::Dsdv(u) => u.size(),
            other => panic!("not DSDV: {other:?}"),
        });
        assert_eq!(sizes.collect::<Vec<_>>(), vec![20 + 12, 20 + 12 * 2], "ns-2's sizes");
        // With ns-2's 6 s a route heard in a full dump is left out of the
        // next ones while its sequence number keeps changing faster than it
        // settles: node 0 only hears of node 2 in node 1's third dump.
        let mut slow = radios(3, &chain(3), DsdvConfig { be_random: false, ..DsdvConfig::default() });
        slow.run_until(22.49);
        assert_eq!(slow.next(0, 2), None);
        slow.run_until(22.5);
        assert_eq!(slow.next(0, 2), Some(1));
    }

    #[test]
    fn a_fresher_sequence_number_wins_and_an_equal_one_needs_a_shorter_metric() {
        let mut n = Dsdv::new(0, 6, steady(), ackclock_core::RngStreams::new(1, 0).stream("dsdv"));
        let radio = |neighbor| NextHop::Nic { nic: 0, neighbor };
        let adj = Adjacency { via: radio(BROADCAST), neighbor: BROADCAST, cost: 1, up: true, peer: true };
        n.start(Instant::ZERO, &[adj], &mut RouterOutput::default());
        let mut hear = |from: NodeId, metric: u32, seqno: u32| {
            let mut out = RouterOutput::default();
            let update = Update { adverts: vec![Advert { dst: 5, metric, seqno }] };
            n.on_message(at(1.0), radio(from), &ControlMessage::Dsdv(update), &mut out);
            out.routes.into_iter().filter(|r| r.0 == 5).map(|r| r.1).collect::<Vec<_>>()
        };
        assert_eq!(hear(1, 1, 10), vec![Some(radio(1))]);
        assert_eq!(hear(2, 0, 10), vec![Some(radio(2))], "same sequence number, 1 hop instead of 2");
        assert_eq!(hear(1, 3, 12), vec![Some(radio(1))], "fresher, though longer");
        assert_eq!(hear(2, 0, 10), vec![], "older news is ignored");
        assert_eq!(hear(1, UNREACHABLE, 13), vec![None], "a broken route's odd number takes it down");
        let e = n.table[5].as_ref().unwrap();
        assert_eq!((e.metric, e.seqno), (UNREACHABLE, 13));
    }

    #[test]
    fn a_fresher_sequence_number_waits_out_its_settling_time_and_triggers_nothing() {
        // ns-2's wireless.tcl run (docs/dsdv.md): a node hears the mover's
        // fresh number shortly before its own dump, leaves the route out of
        // that dump while it settles, and sends nothing about it until its
        // next dump, so a neighbour that lost the mover hears of it only then.
        let mut n = Dsdv::new(1, 6, DsdvConfig { be_random: false, ..DsdvConfig::default() }, {
            ackclock_core::RngStreams::new(1, 0).stream("dsdv")
        });
        let radio = |neighbor| NextHop::Nic { nic: 1, neighbor };
        let adj = Adjacency { via: radio(BROADCAST), neighbor: BROADCAST, cost: 1, up: true, peer: true };
        n.start(Instant::ZERO, &[adj], &mut RouterOutput::default());
        let mut sent: Vec<Sent> = Vec::new();
        let run_to = |n: &mut Dsdv, until: f64, sent: &mut Vec<Sent>| {
            while let Some(t) = n.poll_at().filter(|&t| t <= at(until)) {
                let mut out = RouterOutput::default();
                n.on_timer(t, &mut out);
                for (_, m, _) in out.messages {
                    let ControlMessage::Dsdv(u) = m else { panic!("not DSDV") };
                    sent.push((t.as_secs_f64(), u.adverts.iter().map(|a| (a.dst, a.metric, a.seqno)).collect()));
                }
            }
        };
        let hear = |n: &mut Dsdv, t: f64, seqno: u32| {
            let update = Update { adverts: vec![Advert { dst: 5, metric: 0, seqno }] };
            n.on_message(at(t), radio(5), &ControlMessage::Dsdv(update), &mut RouterOutput::default());
        };
        // Dumps every 11.25 s from 0 s. Number 4 at 0.5 s: a new destination,
        // held back 2 x 6 s, a triggered update due at 12.5 s.
        run_to(&mut n, 0.5, &mut sent);
        hear(&mut n, 0.5, 4);
        // Number 6 at 10.5 s holds the route back again, 2 x 0.875 x 6 = 10.5 s:
        // the 11.25 s dump leaves it out and the 12.5 s trigger finds nothing.
        run_to(&mut n, 10.5, &mut sent);
        hear(&mut n, 10.5, 6);
        // Number 8 at 18 s, another 2 x 0.875^2 x 6 = 9.19 s: the 22.5 s dump
        // leaves it out too.
        run_to(&mut n, 18.0, &mut sent);
        hear(&mut n, 18.0, 8);
        run_to(&mut n, 34.0, &mut sent);
        let about_5: Vec<(f64, (NodeId, u32, u32))> =
            sent.iter().flat_map(|(t, a)| a.iter().filter(|a| a.0 == 5).map(|a| (*t, *a))).collect();
        assert_eq!(about_5, vec![(33.75, (5, 1, 8))], "first told in the 33.75 s dump");
        let times: Vec<f64> = sent.iter().map(|u| u.0).collect();
        assert_eq!(times, vec![0.0, 11.25, 22.5, 33.75], "no update for a fresher number alone");
    }

    #[test]
    fn a_neighbour_unheard_for_three_periods_is_lost_and_the_loss_announced() {
        let mut net = radios(3, &chain(3), steady());
        net.run_until(20.0);
        net.set_links(&[(0, 1)]);
        let last_heard = updates(&net, 2).last().unwrap().0;
        let lost = last_heard + 45.0;
        net.run_until(lost - 0.01);
        assert_eq!((net.next(1, 2), net.next(0, 2)), (Some(2), Some(1)));
        net.run_until(lost);
        assert_eq!(net.next(1, 2), None);
        net.run_until(lost + 1.0);
        assert_eq!(net.next(0, 2), None, "node 1 told node 0 within the 1 s between triggered updates");
        let told = updates(&net, 1)
            .into_iter()
            .filter(|u| u.0 >= lost)
            .find(|u| u.1.iter().any(|a| a.0 == 2 && a.1 == UNREACHABLE));
        assert_eq!(
            told.unwrap().1.iter().find(|a| a.0 == 2),
            Some(&(2, UNREACHABLE, 7)),
            "node 2's last number (6) made odd"
        );
    }

    #[test]
    fn two_hop_routes_settle_about_as_often_as_in_ns2() {
        // ns-2 2.35 on three nodes 200 m apart (benchmarks/ns2/adhoc_chain.tcl,
        // seeds 1-20) first delivers from node 0 to node 2 within 15 s for 14
        // seeds, at 53-95 s for 5 and not by 99 s for one. Here: the seeds
        // for which node 0 has its route within 15 s.
        let settled = (1..=20u64)
            .filter(|&seed| {
                let streams = ackclock_core::RngStreams::new(seed, 0);
                let mut net = scripted::Net::new(3, &chain(3), |i, _| {
                    Dsdv::new(i, 3, DsdvConfig::default(), streams.stream(&format!("routing/{i}")))
                });
                net.run_until(15.0);
                net.next(0, 2).is_some()
            })
            .count();
        assert!((11..=17).contains(&settled), "{settled} of 20, ns-2 14");
    }

    #[test]
    fn mac_failures_break_the_link_only_with_use_mac() {
        for (use_mac, after) in [(false, AfterFailure::Drop), (true, AfterFailure::Wait)] {
            let mut net = radios(3, &chain(3), DsdvConfig { use_mac, ..steady() });
            net.run_until(13.0);
            net.set_links(&[(1, 2)]);
            assert_eq!(net.link_failure(0, 2, 0), after);
            net.run_until(13.0);
            let expected = if use_mac { None } else { Some(1) };
            assert_eq!(net.next(0, 2), expected, "use_mac {use_mac}");
            assert_eq!(net.next(0, 1), expected);
        }
    }
}
