//! Distance-vector routing for wired networks, with the behaviour of ns-2's
//! `rtproto DV` (Bellman-Ford over link costs, as RIP, RFC 2453):
//!
//! * Every node tells each neighbour running DV its metric (sum of link
//!   costs) to every node: every `advert_interval` (times a uniform
//!   0.9..1.1, the first after a uniform 0..0.5 s), and at once whenever
//!   one of its routes or metrics changed (triggered updates).
//! * Split horizon with poisoned reverse: a route is advertised as
//!   unreachable (`infinity`) to the neighbour it goes through.
//! * A neighbour's metric plus the cost of the link to it is what that
//!   neighbour offers; the lowest offer wins, ties going to the current
//!   next hop, then to the neighbour with the lowest node id.
//! * A directly connected neighbour is reached over its link while that
//!   link is up, whatever the offers (ns-2's `Direct` routes outrank DV's).
//! * When a link goes down the offers through it become unreachable; when
//!   one comes up the node updates that neighbour at once.
//!
//! The random delays come from the node's own stream, or from one generator
//! all nodes share (`with_shared`: ns-2's `rtglibRNG`, drawn as its Tcl
//! `uniform` draws, in event order).

use super::{Adjacency, ControlMessage, NextHop, RouterOutput, RoutingProtocol, BROADCAST};
use crate::packet::NodeId;
use ackclock_core::{Duration, Instant, Mrg32k3a, SimRng};
use rand::RngExt;
use std::sync::{Arc, Mutex};

/// A generator the DV nodes of one network draw from together.
pub type SharedRng = Arc<Mutex<Mrg32k3a>>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DvConfig {
    /// Mean time between periodic updates.
    pub advert_interval: Duration,
    /// The metric that means unreachable.
    pub infinity: u32,
    /// An update's size on the wire: `header_bytes` plus `entry_bytes` per
    /// destination.
    pub header_bytes: u32,
    pub entry_bytes: u32,
}

impl Default for DvConfig {
    /// ns-2's timing and infinity, with RIPv2's message layout (RFC 2453
    /// §4: 20 bytes of IPv4, 8 of UDP, a 4-byte header, 20 bytes per route).
    fn default() -> Self {
        DvConfig { advert_interval: Duration::from_millis(2000), infinity: 32, header_bytes: 32, entry_bytes: 20 }
    }
}

impl DvConfig {
    /// ns-2's sizes: one byte per destination and no header.
    pub fn ns2() -> Self {
        DvConfig { header_bytes: 0, entry_bytes: 1, ..DvConfig::default() }
    }
}

/// A node's metrics to every node, indexed by node id (`infinity` for
/// those it cannot reach).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Update {
    pub metrics: Vec<u32>,
}

#[derive(Clone, Debug)]
struct Peer {
    adjacency: Adjacency,
    /// What the peer offers for each destination: its metric plus the
    /// link's cost, at most `infinity`.
    offers: Vec<u32>,
}

/// The route a node uses for a destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Route {
    via: NextHop,
    metric: u32,
}

#[derive(Debug)]
pub struct Dv {
    node: NodeId,
    config: DvConfig,
    rng: SimRng,
    shared: Option<SharedRng>,
    adjacencies: Vec<Adjacency>,
    /// The neighbours running DV, by node id (then interface order).
    peers: Vec<Peer>,
    /// DV's own choice per destination: the peer (by its link) and its
    /// offer.
    learned: Vec<Option<(NextHop, u32)>>,
    /// The routes in use per destination: direct, or `learned`.
    routes: Vec<Option<Route>>,
    next_update: Option<Instant>,
    /// Links to peers that came up since the last updates were sent.
    came_up: Vec<NextHop>,
}

impl Dv {
    pub fn new(node: NodeId, nodes: usize, config: DvConfig, rng: SimRng) -> Self {
        Dv {
            node,
            config,
            rng,
            shared: None,
            adjacencies: Vec::new(),
            peers: Vec::new(),
            learned: vec![None; nodes],
            routes: vec![None; nodes],
            next_update: None,
            came_up: Vec::new(),
        }
    }

    /// Draws its delays from `shared` instead of its own stream.
    pub fn with_shared(mut self, shared: SharedRng) -> Self {
        self.shared = Some(shared);
        self
    }

    /// A uniform draw from [low, high): with a shared generator as ns-2's
    /// Tcl `$rng uniform` makes it, from a 31-bit integer over 2^31 - 1.
    fn uniform(&mut self, low: f64, high: f64) -> f64 {
        match &self.shared {
            Some(g) => {
                let mut g = g.lock().expect("one simulation thread");
                let k = (2_147_483_648.0 * g.next_u01()) as u64;
                low + (high - low) * (k as f64 / 2_147_483_647.0)
            }
            None => self.rng.random_range(low..high),
        }
    }

    fn nodes(&self) -> usize {
        self.routes.len()
    }

    /// Re-chooses every route; returns how many routes or metrics changed,
    /// having put the changed routes in `out`.
    fn compute(&mut self, out: &mut RouterOutput) -> usize {
        let infinity = self.config.infinity;
        let mut changes = 0;
        for dst in 0..self.nodes() {
            if dst == self.node as usize {
                continue;
            }
            // The current choice's offer may have changed.
            let offer = |p: &Peer| if p.adjacency.up { p.offers[dst] } else { infinity };
            let best = self.peers.iter().map(offer).min().unwrap_or(infinity);
            let current = self.learned[dst].and_then(|(via, _)| self.peers.iter().find(|p| p.adjacency.via == via));
            let chosen = match current {
                _ if best >= infinity => None,
                Some(p) if offer(p) == best => Some(p),
                _ => self.peers.iter().find(|p| offer(p) == best),
            };
            self.learned[dst] = chosen.map(|p| (p.adjacency.via, best));
            let direct = self
                .adjacencies
                .iter()
                .find(|a| a.up && a.neighbor as usize == dst)
                .map(|a| Route { via: a.via, metric: a.cost });
            let learned = self.learned[dst].map(|(via, metric)| Route { via, metric });
            let route = direct.or(learned);
            if route != self.routes[dst] {
                changes += 1;
                if route.map(|r| r.via) != self.routes[dst].map(|r| r.via) {
                    out.routes.push((dst as NodeId, route.map(|r| r.via)));
                }
                self.routes[dst] = route;
            }
        }
        changes
    }

    /// Sends updates to every peer whose link is up (`all`), or only to
    /// those whose link just came up.
    fn send_updates(&mut self, all: bool, out: &mut RouterOutput) {
        let came_up = std::mem::take(&mut self.came_up);
        for peer in &self.peers {
            if peer.adjacency.up && (all || came_up.contains(&peer.adjacency.via)) {
                let update = self.update_for(peer.adjacency.via);
                let size = self.config.header_bytes + self.config.entry_bytes * update.metrics.len() as u32;
                out.messages.push((peer.adjacency.via, ControlMessage::Dv(update), size));
            }
        }
    }

    /// The metrics told to the neighbour reached over `via`: poisoned
    /// reverse for routes through it.
    fn update_for(&self, via: NextHop) -> Update {
        let metric = |(dst, route): (usize, &Option<Route>)| match route {
            _ if dst == self.node as usize => 0,
            Some(r) if r.via != via => r.metric.min(self.config.infinity),
            _ => self.config.infinity,
        };
        Update { metrics: self.routes.iter().enumerate().map(metric).collect() }
    }

    /// After an event: triggered updates if anything changed.
    fn react(&mut self, changes: usize, out: &mut RouterOutput) {
        self.send_updates(changes > 0, out);
    }

    fn set_adjacencies(&mut self, adjacencies: &[Adjacency]) {
        let infinity = self.config.infinity;
        let nodes = self.nodes();
        self.adjacencies = adjacencies.to_vec();
        // A radio's broadcast adjacency is no neighbour DV could update.
        for a in adjacencies.iter().filter(|a| a.peer && a.neighbor != BROADCAST) {
            match self.peers.iter_mut().find(|p| p.adjacency.via == a.via) {
                Some(peer) => {
                    if peer.adjacency.up && !a.up {
                        peer.offers.fill(infinity);
                    } else if !peer.adjacency.up && a.up {
                        self.came_up.push(a.via);
                    }
                    peer.adjacency = *a;
                }
                None => self.peers.push(Peer { adjacency: *a, offers: vec![infinity; nodes] }),
            }
        }
        // Stable: parallel links to one neighbour keep interface order.
        self.peers.sort_by_key(|p| p.adjacency.neighbor);
    }

    fn schedule_periodic(&mut self, after: Instant) {
        let jitter = self.uniform(0.9, 1.1);
        self.next_update = Some(after + Duration::from_secs_f64(self.config.advert_interval.as_secs_f64() * jitter));
    }
}

impl RoutingProtocol for Dv {
    fn start(&mut self, now: Instant, adjacencies: &[Adjacency], out: &mut RouterOutput) {
        self.set_adjacencies(adjacencies);
        self.came_up.clear();
        self.compute(out);
        let first = self.uniform(0.0, 0.5);
        self.next_update = Some(now + Duration::from_secs_f64(first));
    }

    fn on_adjacencies(&mut self, _now: Instant, adjacencies: &[Adjacency], out: &mut RouterOutput) {
        self.set_adjacencies(adjacencies);
        let changes = self.compute(out);
        self.react(changes, out);
    }

    fn on_message(&mut self, _now: Instant, from: NextHop, message: &ControlMessage, out: &mut RouterOutput) {
        let ControlMessage::Dv(update) = message else { return };
        let Some(peer) = self.peers.iter_mut().find(|p| p.adjacency.via == from) else {
            return; // not a DV neighbour over that link
        };
        let infinity = self.config.infinity;
        let mut changed = false;
        for (offer, &metric) in peer.offers.iter_mut().zip(&update.metrics) {
            let new = metric.saturating_add(peer.adjacency.cost).min(infinity);
            changed |= std::mem::replace(offer, new) != new;
        }
        if changed {
            let changes = self.compute(out);
            self.react(changes, out);
        }
    }

    fn on_timer(&mut self, now: Instant, out: &mut RouterOutput) {
        if self.next_update.is_some_and(|t| t <= now) {
            self.send_updates(true, out);
            self.schedule_periodic(now);
        }
    }

    fn poll_at(&self) -> Option<Instant> {
        self.next_update
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::RngStreams;

    const INF: u32 = 32;

    fn dv(node: NodeId, nodes: usize) -> Dv {
        Dv::new(node, nodes, DvConfig::ns2(), RngStreams::new(1, 0).stream(&format!("dv/{node}")))
    }

    fn link(channel: u32, neighbor: NodeId, cost: u32) -> Adjacency {
        Adjacency { via: NextHop::Link(channel), neighbor, cost, up: true, peer: true }
    }

    fn update(metrics: &[u32]) -> ControlMessage {
        ControlMessage::Dv(Update { metrics: metrics.to_vec() })
    }

    fn channel(via: NextHop) -> u32 {
        match via {
            NextHop::Link(c) => c,
            NextHop::Nic { .. } => panic!("these tests use links"),
        }
    }

    /// The updates in `out`, as (channel, metrics).
    fn sent(out: &RouterOutput) -> Vec<(u32, Vec<u32>)> {
        let metrics = |m: &ControlMessage| match m {
            ControlMessage::Dv(u) => u.metrics.clone(),
            other => panic!("not a DV update: {other:?}"),
        };
        out.messages.iter().map(|(via, m, _)| (channel(*via), metrics(m))).collect()
    }

    fn routes(out: &RouterOutput) -> Vec<(NodeId, Option<u32>)> {
        out.routes.iter().map(|&(dst, via)| (dst, via.map(channel))).collect()
    }

    #[test]
    fn a_node_starts_with_its_direct_neighbours_and_advertises_after_a_random_delay() {
        // Node 1 of a chain 0 - 1 - 2 (channel 10 to node 0, 12 to node 2).
        let mut n = dv(1, 3);
        let mut out = RouterOutput::default();
        n.start(Instant::ZERO, &[link(10, 0, 1), link(12, 2, 1)], &mut out);
        assert_eq!(routes(&out), vec![(0, Some(10)), (2, Some(12))]);
        assert!(out.messages.is_empty(), "nothing is sent at start");
        let first = n.poll_at().unwrap();
        assert!(first < Instant::ZERO + Duration::from_millis(500), "{first}");
        let mut out = RouterOutput::default();
        n.on_timer(first, &mut out);
        // Poisoned reverse: node 0 hears that node 1 cannot reach it.
        assert_eq!(sent(&out), vec![(10, vec![INF, 0, 1]), (12, vec![1, 0, INF])]);
        let next = n.poll_at().unwrap() - first;
        assert!((1.8..2.2).contains(&next.as_secs_f64()), "{next}");
        assert_eq!(out.messages[0].2, 3, "ns-2 sizes: one byte per destination");
    }

    #[test]
    fn an_offer_installs_a_route_and_triggers_an_update() {
        // Node 0 of a chain 0 - 1 - 2 hears node 1's update.
        let mut n = dv(0, 3);
        let mut out = RouterOutput::default();
        n.start(Instant::ZERO, &[link(1, 1, 1)], &mut out);
        let mut out = RouterOutput::default();
        n.on_message(Instant::ZERO, NextHop::Link(1), &update(&[INF, 0, 1]), &mut out);
        assert_eq!(routes(&out), vec![(2, Some(1))]);
        assert_eq!(sent(&out), vec![(1, vec![0, INF, INF])], "everything it knows goes through node 1");
        // The same update again changes nothing and sends nothing.
        let mut out = RouterOutput::default();
        n.on_message(Instant::ZERO, NextHop::Link(1), &update(&[INF, 0, 1]), &mut out);
        assert_eq!(out, RouterOutput::default());
    }

    #[test]
    fn the_cheapest_offer_wins_and_ties_keep_the_current_next_hop() {
        // Node 0 with neighbours 1 (channel 1, cost 1) and 2 (channel 2, cost 3); destination 3.
        let mut n = dv(0, 4);
        let mut out = RouterOutput::default();
        n.start(Instant::ZERO, &[link(2, 2, 3), link(1, 1, 1)], &mut out);
        let mut out = RouterOutput::default();
        n.on_message(Instant::ZERO, NextHop::Link(2), &update(&[3, INF, 0, 1]), &mut out);
        assert_eq!(routes(&out), vec![(3, Some(2))], "4 through node 2");
        let mut out = RouterOutput::default();
        n.on_message(Instant::ZERO, NextHop::Link(1), &update(&[1, 0, INF, 3]), &mut out);
        assert_eq!(routes(&out), vec![], "4 through node 1 too: the current next hop stays");
        let mut out = RouterOutput::default();
        n.on_message(Instant::ZERO, NextHop::Link(1), &update(&[1, 0, INF, 2]), &mut out);
        assert_eq!(routes(&out), vec![(3, Some(1))], "3 through node 1");
    }

    #[test]
    fn a_direct_link_outranks_a_cheaper_learned_path() {
        // 0 - 1 at cost 5, and 0 - 2 - 1 at cost 2 in all.
        let mut n = dv(0, 3);
        let mut out = RouterOutput::default();
        n.start(Instant::ZERO, &[link(1, 1, 5), link(2, 2, 1)], &mut out);
        let mut out = RouterOutput::default();
        n.on_message(Instant::ZERO, NextHop::Link(2), &update(&[1, 1, 0]), &mut out);
        assert_eq!(routes(&out), vec![], "node 1 stays on its link");
        // The link to node 1 goes down: node 1 is reached through node 2.
        let mut out = RouterOutput::default();
        n.on_adjacencies(Instant::ZERO, &[Adjacency { up: false, ..link(1, 1, 5) }, link(2, 2, 1)], &mut out);
        assert_eq!(routes(&out), vec![(1, Some(2))]);
        assert_eq!(sent(&out), vec![(2, vec![0, INF, INF])], "a triggered update, poisoned towards node 2");
    }

    #[test]
    fn a_failed_link_makes_its_offers_unreachable_and_a_repaired_one_is_updated_at_once() {
        // Chain 0 - 1 - 2 seen from node 0; the link to node 1 fails and comes back.
        let mut n = dv(0, 3);
        let mut out = RouterOutput::default();
        n.start(Instant::ZERO, &[link(1, 1, 1)], &mut out);
        n.on_message(Instant::ZERO, NextHop::Link(1), &update(&[INF, 0, 1]), &mut out);
        let mut out = RouterOutput::default();
        n.on_adjacencies(Instant::ZERO, &[Adjacency { up: false, ..link(1, 1, 1) }], &mut out);
        assert_eq!(routes(&out), vec![(1, None), (2, None)]);
        assert!(out.messages.is_empty(), "no link is up to send on");
        let mut out = RouterOutput::default();
        n.on_adjacencies(Instant::ZERO, &[link(1, 1, 1)], &mut out);
        assert_eq!(routes(&out), vec![(1, Some(1))]);
        assert_eq!(sent(&out), vec![(1, vec![0, INF, INF])]);
        // Had nothing changed, the new neighbour would still be told at once.
        let mut m = dv(0, 2);
        let other = Adjacency { peer: true, ..link(2, 1, 1) };
        m.start(Instant::ZERO, &[link(1, 1, 1), Adjacency { up: false, ..other }], &mut RouterOutput::default());
        let mut out = RouterOutput::default();
        m.on_adjacencies(Instant::ZERO, &[link(1, 1, 1), other], &mut out);
        assert_eq!(routes(&out), vec![]);
        assert_eq!(sent(&out), vec![(2, vec![0, 1])], "only the link that came up (node 1 is reached over the other)");
    }

    #[test]
    fn counting_to_infinity_stops_at_infinity() {
        // Node 0 believes node 2 is behind node 1, and node 1 keeps
        // offering it at ever higher metrics: at 32 it is unreachable.
        let mut n = dv(0, 3);
        let mut out = RouterOutput::default();
        n.start(Instant::ZERO, &[link(1, 1, 1)], &mut out);
        for metric in [1, 10, 30, 31] {
            n.on_message(Instant::ZERO, NextHop::Link(1), &update(&[INF, 0, metric]), &mut out);
        }
        let mut out = RouterOutput::default();
        n.on_message(Instant::ZERO, NextHop::Link(1), &update(&[INF, 0, 31]), &mut out);
        assert_eq!(routes(&out), vec![]);
        assert_eq!(n.routes[2], None, "31 + 1 is infinity");
    }

    #[test]
    fn a_radio_broadcast_adjacency_is_no_dv_neighbour() {
        let mut n = dv(0, 3);
        let radio = Adjacency {
            via: NextHop::Nic { nic: 0, neighbor: BROADCAST },
            neighbor: BROADCAST,
            cost: 1,
            up: true,
            peer: true,
        };
        let mut out = RouterOutput::default();
        n.start(Instant::ZERO, &[link(1, 1, 1), radio], &mut out);
        let mut out = RouterOutput::default();
        n.on_timer(n.poll_at().unwrap(), &mut out);
        assert_eq!(sent(&out), vec![(1, vec![0, INF, INF])], "updates go over the link only");
    }

    #[test]
    fn updates_from_non_neighbours_are_ignored() {
        let mut n = dv(0, 3);
        let mut out = RouterOutput::default();
        n.start(Instant::ZERO, &[link(1, 1, 1)], &mut out);
        let mut out = RouterOutput::default();
        n.on_message(Instant::ZERO, NextHop::Link(7), &update(&[1, 1, 0]), &mut out);
        assert_eq!(out, RouterOutput::default());
    }
}
