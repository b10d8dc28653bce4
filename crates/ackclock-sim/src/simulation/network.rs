//! The network layer's control side: how routes are made and changed, and
//! links that go down, come up or change rate during the run.

use super::wireless_trace::{RadioEvent, NO_NEXT_HOP};
use super::{Event, Flow, LinkSchedule, Simulation, INITIAL_TTL};
use crate::dynamics::{FailureModel, LinkChange};
use crate::error::ConfigError;
use crate::report::{NodeReport, RouteChange};
use ackclock_core::{Duration, Instant};
use ackclock_net::{
    shortest_paths, Adjacency, AfterFailure, ChannelId, Flushed, Interface, LinkAddress, Medium, NextHop, NicId,
    NodeId, PacketId, Queued, Retimed, RouteQueue, Router, RouterOutput, RoutingProtocol, ARP_FLOW, BROADCAST,
    CONTROL_FLOW,
};
use ackclock_trace::{LinkRecord, PacketEvent, TraceRecord, WirelessEvent, WirelessLayer};

impl Simulation {
    /// Chooses how `node` makes its routes (by default static shortest
    /// paths).
    pub fn set_router(&mut self, node: NodeId, router: Router) -> Result<(), ConfigError> {
        self.check_node("node", node)?;
        if router != Router::Static && self.user_routes.iter().any(|r| r.0 == node) {
            let why = "the node has static routes given by the user; only static routing keeps them";
            return Err(ConfigError::invalid("router", format!("{router:?}"), why));
        }
        let n = &mut self.nodes[node as usize];
        // The protocol's own queue for packets without a route comes and goes
        // with it (unless packets are waiting).
        if n.waiting.is_empty() && (router.route_queue().is_some() || n.router.route_queue().is_some()) {
            let (capacity, timeout) = router.route_queue().unwrap_or((0, Duration::ZERO));
            n.waiting = RouteQueue::new(capacity, timeout);
        }
        n.router = router;
        n.protocol = None;
        self.routes_stale = true;
        Ok(())
    }

    /// A static route given by the user: `node` sends packets for `dst` on
    /// `channel` (which must leave `node`) instead of along the shortest
    /// path.
    pub fn add_route(&mut self, node: NodeId, dst: NodeId, channel: ChannelId) -> Result<(), ConfigError> {
        self.check_node("node", node)?;
        self.check_node("dst", dst)?;
        self.channel_mut(channel)?;
        let name = |n: NodeId| self.nodes[n as usize].name.clone();
        if self.channel_ends[channel as usize].0 != node {
            let why = format!("the link does not leave node '{}'", name(node));
            return Err(ConfigError::invalid("via", channel, why));
        }
        if node == dst {
            return Err(ConfigError::invalid("dst", name(dst), "a node needs no route to itself"));
        }
        if self.nodes[node as usize].router != Router::Static {
            let why = "only a node with static routing takes routes from the user";
            return Err(ConfigError::invalid("node", name(node), why));
        }
        self.user_routes.retain(|r| (r.0, r.1) != (node, dst));
        self.user_routes.push((node, dst, channel));
        self.routes_stale = true;
        Ok(())
    }

    /// Lets packets without a route wait at `node`: at most `capacity` of
    /// them (the oldest make room), each for at most `timeout`. By default
    /// they are dropped at once, as in ns-2's wired routing.
    pub fn set_route_wait(&mut self, node: NodeId, capacity: usize, timeout: Duration) -> Result<(), ConfigError> {
        self.check_node("node", node)?;
        if !self.nodes[node as usize].waiting.is_empty() {
            return Err(ConfigError::invalid("node", node, "packets are waiting there"));
        }
        self.nodes[node as usize].waiting = RouteQueue::new(capacity, timeout);
        Ok(())
    }

    pub fn node_report(&self, node: NodeId) -> Result<NodeReport, ConfigError> {
        self.check_node("node", node)?;
        let n = &self.nodes[node as usize];
        Ok(NodeReport {
            id: node,
            name: n.name.clone(),
            routing: n.router.name(),
            no_route_drops: n.stats.no_route_drops,
            ttl_drops: n.stats.ttl_drops,
            waiting: n.waiting.len(),
            processor: self.processor_report(node),
        })
    }

    /// Starts recording every route change (see `route_changes`).
    pub fn record_routes(&mut self) {
        self.route_log.get_or_insert_with(Vec::new);
    }

    /// The route changes since `record_routes`, in time order.
    pub fn route_changes(&self) -> &[RouteChange] {
        self.route_log.as_deref().unwrap_or(&[])
    }

    /// Where `node` sends packets for each destination now (computing the
    /// routes first if the topology changed).
    pub fn routes(&mut self, node: NodeId) -> Result<Vec<Option<NextHop>>, ConfigError> {
        self.check_node("node", node)?;
        if self.routes_stale {
            self.rebuild_routes(self.now());
        }
        Ok((0..self.nodes.len() as NodeId).map(|dst| self.fib.next_hop(node, dst)).collect())
    }

    /// The neighbour a next hop leads to.
    pub fn neighbor(&self, via: NextHop) -> NodeId {
        match via {
            NextHop::Link(ch) => self.channel_ends[ch as usize].1,
            NextHop::Nic { neighbor, .. } => neighbor,
        }
    }

    /// Every node's neighbours, in interface order.
    fn adjacencies(&self) -> Vec<Vec<Adjacency>> {
        (0..self.nodes.len() as NodeId).map(|n| self.adjacencies_of(n)).collect()
    }

    fn adjacencies_of(&self, node: NodeId) -> Vec<Adjacency> {
        let router = &self.nodes[node as usize].router;
        let peer = |neighbor: NodeId| router.speaks_with(&self.nodes[neighbor as usize].router);
        let mut out = Vec::new();
        for &interface in &self.nodes[node as usize].interfaces {
            match interface {
                Interface::Link(ch) => {
                    let neighbor = self.channel_ends[ch as usize].1;
                    out.push(Adjacency {
                        via: NextHop::Link(ch),
                        neighbor,
                        cost: self.costs[ch as usize],
                        up: self.channels[ch as usize].is_up(),
                        peer: peer(neighbor),
                    });
                }
                Interface::Nic(nic) if self.is_radio(nic) && router.is_central() => {
                    // Routes from the topology go straight to every node on
                    // the channel, in range or not (ns-2's DumbAgent).
                    let medium = self.nics[nic as usize].medium;
                    for other in self.nics.iter().filter(|n| n.medium == medium && n.node != node) {
                        let via = NextHop::Nic { nic, neighbor: other.node };
                        out.push(Adjacency { via, neighbor: other.node, cost: 1, up: true, peer: false });
                    }
                }
                Interface::Nic(nic) if self.is_radio(nic) => {
                    // Who is in range changes: the protocol broadcasts.
                    let via = NextHop::Nic { nic, neighbor: BROADCAST };
                    out.push(Adjacency { via, neighbor: BROADCAST, cost: 1, up: true, peer: true });
                }
                Interface::Nic(nic) => {
                    let medium = &self.media[self.nics[nic as usize].medium as usize];
                    for other in medium.neighbours(nic) {
                        let neighbor = self.nics[other as usize].node;
                        let via = NextHop::Nic { nic, neighbor };
                        out.push(Adjacency { via, neighbor, cost: 1, up: true, peer: peer(neighbor) });
                    }
                }
            }
        }
        out
    }

    /// Computes the routes of every node that takes them from the whole
    /// topology, and starts (or tells of the new topology) the protocols
    /// of the others.
    pub(super) fn rebuild_routes(&mut self, now: Instant) {
        self.routes_stale = false;
        if self.fib.nodes() != self.nodes.len() {
            self.fib = self.fib.resized(self.nodes.len());
        }
        self.recompute_routes(now, Router::is_central);
        let count = self.nodes.len();
        for node in 0..count as NodeId {
            let n = &mut self.nodes[node as usize];
            if n.router.is_central() {
                n.protocol = None;
                continue;
            }
            let adjacencies = self.adjacencies_of(node);
            let mut out = RouterOutput::default();
            let n = &mut self.nodes[node as usize];
            if self.protocol_nodes != count {
                n.protocol = None; // the topology grew: the protocol starts over
            }
            match &mut n.protocol {
                Some(p) => p.on_adjacencies(now, &adjacencies, &mut out),
                None => {
                    let rng = self.streams.stream(&format!("routing/{node}"));
                    let mut p = n.router.protocol(node, count, rng, self.routing_rng.as_ref()).expect("not central");
                    p.start(now, &adjacencies, &mut out);
                    n.protocol = Some(p);
                }
            }
            self.apply_router_output(now, node, out);
        }
        self.protocol_nodes = count;
    }

    /// Installs what a routing protocol decided, sends its messages and
    /// re-arms its timer. A new route lets the packets waiting for it go.
    pub(super) fn apply_router_output(&mut self, now: Instant, node: NodeId, out: RouterOutput) {
        for (dst, via) in out.routes {
            self.install(now, node, dst, via);
            if via.is_some() {
                for p in self.nodes[node as usize].waiting.take_for(dst) {
                    self.forward(now, node, p);
                }
            }
        }
        for dst in out.give_up {
            for p in self.nodes[node as usize].waiting.take_for(dst) {
                self.drop_unrouted(now, node, p);
            }
        }
        for (via, message, size) in out.messages {
            self.send_message(now, node, via, message, size);
        }
        let wake = self.nodes[node as usize].protocol.as_ref().and_then(|p| p.poll_at()).map(|t| t.max(now));
        if let Some(t) = wake.filter(|&t| self.routing_armed[node as usize].arm(t)) {
            self.queue.schedule(t, Event::RoutingTimer(node));
        }
    }

    /// Runs `f` on `node`'s protocol, if it has one, and applies its output.
    fn with_protocol(
        &mut self,
        now: Instant,
        node: NodeId,
        f: impl FnOnce(&mut ackclock_net::Protocol, &mut RouterOutput),
    ) {
        let Some(p) = self.nodes[node as usize].protocol.as_mut() else { return };
        let mut out = RouterOutput::default();
        f(p, &mut out);
        self.apply_router_output(now, node, out);
    }

    pub(super) fn on_routing_timer(&mut self, now: Instant, node: NodeId) {
        if !self.routing_armed[node as usize].fire(now) {
            return; // superseded by an earlier event that already re-armed
        }
        self.with_protocol(now, node, |p, out| p.on_timer(now, out));
    }

    /// A routing message reached the neighbour it was sent to.
    pub(super) fn receive_message(&mut self, now: Instant, node: NodeId, slot: u32) {
        let Some((message, sent_on)) = self.release_message(slot) else { return };
        // The receiver answers over the opposite direction of a link, or
        // over its own NIC on the same medium.
        let from = match sent_on {
            NextHop::Link(ch) => self.reverse[ch as usize].map(NextHop::Link),
            NextHop::Nic { nic, .. } => {
                let (sender, medium) = (self.nics[nic as usize].node, self.nics[nic as usize].medium);
                self.nodes[node as usize].interfaces.iter().find_map(|&i| match i {
                    Interface::Nic(own) if self.nics[own as usize].medium == medium => {
                        Some(NextHop::Nic { nic: own, neighbor: sender })
                    }
                    _ => None,
                })
            }
        };
        let Some(from) = from else { return };
        self.with_protocol(now, node, |p, out| p.on_message(now, from, &message, out));
    }

    /// The MAC of `nic` gave up on a packet. A data packet's node tells its
    /// routing protocol, which says whether the packet (and the others
    /// queued for the same neighbour) is dropped or waits for a new route;
    /// routing messages are dropped, as ns-2's AODV does.
    #[cold]
    #[inline(never)]
    pub(super) fn link_failed(&mut self, now: Instant, nic: NicId, queued: Queued) {
        let node = self.nics[nic as usize].node;
        if !self.has_failure_callback(node, queued.packet) {
            self.drop_packet(queued.packet, None); // the MAC's RET drop is all
            return;
        }
        let packet = &self.packets[queued.packet];
        let (dst, ttl, data) = (packet.ip.dst, packet.ip.ttl, packet.flow != CONTROL_FLOW);
        let neighbor = match queued.to {
            LinkAddress::Node(n) => n,
            LinkAddress::Broadcast => BROADCAST,
        };
        let protocol = self.nodes[node as usize].protocol.as_mut().filter(|_| data);
        let Some(protocol) = protocol else {
            self.drop_after_callback(now, node, queued);
            return;
        };
        let mut out = RouterOutput::default();
        let via = NextHop::Nic { nic, neighbor };
        let forwarded = u32::from(INITIAL_TTL.saturating_sub(ttl));
        match protocol.on_link_failure(now, via, dst, forwarded, &mut out) {
            AfterFailure::Drop => self.drop_after_callback(now, node, queued),
            AfterFailure::DropAllToNeighbour => {
                self.drop_after_callback(now, node, queued);
                for q in self.nics[nic as usize].queue.remove_to(neighbor) {
                    self.drop_after_callback(now, node, q);
                }
            }
            AfterFailure::Wait => {
                if let Some(dropped) = self.nodes[node as usize].waiting.push(now, dst, queued.packet) {
                    self.drop_unrouted(now, node, dropped);
                }
                self.arm_route_wait(node);
            }
        }
        self.apply_router_output(now, node, out);
    }

    /// Whether ns-2 would call back the node's routing for a packet its MAC
    /// gives up on: not for ARP packets, nor on a node without ad hoc
    /// routing (ns-2's DumbAgent sets no callback).
    pub(super) fn has_failure_callback(&self, node: NodeId, packet: PacketId) -> bool {
        self.packets[packet].flow != ARP_FLOW && self.nodes[node as usize].protocol.is_some()
    }

    /// ns-2's drop of a packet the MAC could not deliver (its "CBK": the
    /// link layer's callback to routing).
    fn drop_after_callback(&mut self, now: Instant, node: NodeId, queued: Queued) {
        let dropped = RadioEvent::drop(WirelessLayer::Router, "CBK", node, queued.to);
        self.trace_radio(now, node, queued.packet, dropped);
        self.drop_packet(queued.packet, None);
    }

    /// A packet without a route leaves `node`'s waiting room unsent (ns-2's
    /// "NRTE").
    fn drop_unrouted(&mut self, now: Instant, node: NodeId, id: PacketId) {
        self.nodes[node as usize].stats.no_route_drops += 1;
        let dropped = RadioEvent {
            reason: "NRTE",
            ..RadioEvent::above_mac(WirelessEvent::Drop, WirelessLayer::Router, NO_NEXT_HOP)
        };
        self.trace_radio(now, node, id, dropped);
        self.drop_packet(id, None);
    }

    /// A packet at `node` has no route: the protocol hears of it and says
    /// whether it waits (if there is room) or is dropped.
    #[cold]
    #[inline(never)]
    pub(super) fn no_route(&mut self, now: Instant, node: NodeId, id: PacketId) {
        self.trace_radio_origin(now, node, id);
        let (src, dst) = (self.packets[id].ip.src, self.packets[id].ip.dst);
        let mut waits = true;
        self.with_protocol(now, node, |p, out| waits = p.on_no_route(now, src, dst, out));
        let dropped = if waits { self.nodes[node as usize].waiting.push(now, dst, id) } else { Some(id) };
        if let Some(dropped) = dropped {
            self.drop_unrouted(now, node, dropped);
        }
        self.arm_route_wait(node);
    }

    fn arm_route_wait(&mut self, node: NodeId) {
        let deadline = self.nodes[node as usize].waiting.next_deadline();
        if let Some(t) = deadline.filter(|&t| self.waiting_armed[node as usize].arm(t)) {
            self.queue.schedule(t, Event::RouteWaitExpiry(node));
        }
    }

    pub(super) fn on_route_wait_expiry(&mut self, now: Instant, node: NodeId) {
        if !self.waiting_armed[node as usize].fire(now) {
            return;
        }
        for p in self.nodes[node as usize].waiting.expire(now) {
            self.drop_unrouted(now, node, p);
        }
        self.arm_route_wait(node);
    }

    /// Whether some node runs a protocol that keeps sending updates, so
    /// that the run never runs out of events.
    pub(super) fn routing_never_idles(&self) -> Option<&str> {
        self.nodes.iter().find(|n| !n.router.is_central()).map(|n| n.name.as_str())
    }

    /// Recomputes the shortest paths of the nodes whose router `redo`
    /// accepts, with the user's routes on top.
    fn recompute_routes(&mut self, now: Instant, redo: impl Fn(&Router) -> bool) {
        let adjacencies = self.adjacencies();
        for node in 0..self.nodes.len() as NodeId {
            if !redo(&self.nodes[node as usize].router) {
                continue;
            }
            let mut row = shortest_paths(&adjacencies, node);
            for &(_, dst, ch) in self.user_routes.iter().filter(|r| r.0 == node) {
                row[dst as usize] = Some(NextHop::Link(ch));
            }
            for (dst, via) in row.into_iter().enumerate() {
                self.install(now, node, dst as NodeId, via);
            }
        }
    }

    /// Sets one route, recording the change when asked to.
    fn install(&mut self, now: Instant, node: NodeId, dst: NodeId, via: Option<NextHop>) {
        if self.fib.next_hop(node, dst) == via {
            return;
        }
        self.fib.set(node, dst, via);
        if let Some(log) = &mut self.route_log {
            log.push(RouteChange { time: now, node, dst, via });
        }
    }

    /// Follows a new flow's path as far as its nodes' routes are known
    /// before the run (up to a node running a protocol): each must have a
    /// route, and the path must not loop.
    pub(super) fn check_path(&self, f: &Flow) -> Result<(), ConfigError> {
        let name = |n: NodeId| self.nodes[n as usize].name.clone();
        let mut visited = vec![false; self.nodes.len()];
        let mut at = f.src;
        while at != f.dst {
            if !self.nodes[at as usize].router.is_central() {
                return Ok(()); // its protocol finds the rest during the run
            }
            if std::mem::replace(&mut visited[at as usize], true) {
                return Err(ConfigError::RoutingLoop { flow: f.name.clone(), dst: name(f.dst), node: name(at) });
            }
            match self.fib.next_hop(at, f.dst) {
                Some(via) => at = self.neighbor(via),
                None => {
                    return Err(ConfigError::Unreachable { flow: f.name.clone(), src: name(f.src), dst: name(f.dst) })
                }
            }
        }
        Ok(())
    }

    // --- links that change ---

    /// Changes link directions now (ns-3's `SetDown`/`SetUp`, or a rate
    /// change from a callback).
    pub fn change_links(&mut self, channels: &[ChannelId], change: LinkChange) -> Result<(), ConfigError> {
        for &ch in channels {
            self.channel_mut(ch)?;
        }
        self.apply_link_change(self.now(), channels, change);
        Ok(())
    }

    /// Changes link directions at `at` (ns-2's `rtmodel-at`); a duplex
    /// link's two directions change together, as one event for routing.
    pub fn schedule_link_change(
        &mut self,
        at: Instant,
        channels: &[ChannelId],
        change: LinkChange,
    ) -> Result<(), ConfigError> {
        for &ch in channels {
            self.channel_mut(ch)?;
        }
        if at < self.now() {
            return Err(ConfigError::invalid("at", at, format!("is in the past (now is {})", self.now())));
        }
        self.schedule_links(at, LinkSchedule { channels: channels.to_vec(), change, model: None });
        Ok(())
    }

    /// Makes link directions fail and recover over and over (ns-2's
    /// `rtmodel`).
    pub fn add_failure_model(&mut self, channels: &[ChannelId], model: FailureModel) -> Result<(), ConfigError> {
        for &ch in channels {
            self.channel_mut(ch)?;
        }
        if model.finish.is_some_and(|f| f < model.start) {
            return Err(ConfigError::invalid("finish", model.finish.unwrap_or_default(), "is before start"));
        }
        let mut rng = self.streams.stream(&format!("failures/{}", self.link_schedules.len()));
        if let Some((at, change)) = model.first(&mut rng) {
            let schedule = LinkSchedule { channels: channels.to_vec(), change, model: Some((model, rng)) };
            self.schedule_links(at.max(self.now()), schedule);
        }
        Ok(())
    }

    fn schedule_links(&mut self, at: Instant, schedule: LinkSchedule) {
        let id = self.link_schedules.len() as u32;
        self.link_schedules.push(schedule);
        self.queue.schedule(at, Event::LinkChange(id));
    }

    pub(super) fn on_link_schedule(&mut self, now: Instant, id: u32) {
        let s = &mut self.link_schedules[id as usize];
        let (channels, change) = (std::mem::take(&mut s.channels), s.change);
        let next = s.model.as_mut().and_then(|(model, rng)| model.next(now, change, rng));
        self.apply_link_change(now, &channels, change);
        match next {
            Some((at, following)) => {
                let s = &mut self.link_schedules[id as usize];
                (s.channels, s.change) = (channels, following);
                self.queue.schedule(at, Event::LinkChange(id));
            }
            None => self.link_schedules[id as usize].model = None,
        }
    }

    fn apply_link_change(&mut self, now: Instant, channels: &[ChannelId], change: LinkChange) {
        let mut topology_changed = false;
        for &ch in channels {
            let c = &mut self.channels[ch as usize];
            match change {
                LinkChange::Down if c.is_up() => {
                    let flushed = c.set_down(now);
                    if let Some(link) = self.ns2_links.get_mut(ch as usize) {
                        link.flush(c.departed());
                    }
                    self.discard_flushed(now, ch, flushed);
                    self.trace_link(now, ch, false);
                    topology_changed = true;
                }
                LinkChange::Up if !c.is_up() => {
                    c.set_up();
                    self.trace_link(now, ch, true);
                    topology_changed = true;
                }
                LinkChange::Bandwidth(rate) => {
                    let retimed = c.set_bandwidth(now, rate);
                    if let Some(t) = retimed.wake {
                        self.queue.schedule(t, Event::Arrival(ch));
                    }
                    if self.tracer.is_some() {
                        self.retrace_departures(ch, &retimed);
                    }
                }
                LinkChange::Down | LinkChange::Up => {} // already so
            }
        }
        if topology_changed && !self.routes_stale {
            self.recompute_routes(now, |r| *r == Router::Session);
            // Each end of a changed link tells its protocol, by node id.
            let mut ends: Vec<NodeId> = channels.iter().map(|&ch| self.channel_ends[ch as usize].0).collect();
            ends.sort_unstable();
            ends.dedup();
            for node in ends {
                let adjacencies = self.adjacencies_of(node);
                self.with_protocol(now, node, |p, out| p.on_adjacencies(now, &adjacencies, out));
            }
        }
    }

    /// Frees what a link lost going down; a trace shows a drop for each,
    /// the queue's first, as ns-2's reset of a dynamic link does.
    fn discard_flushed(&mut self, now: Instant, ch: ChannelId, flushed: Flushed) {
        let lost = flushed.waiting.iter().copied().chain(flushed.sent.iter().map(|&(p, _)| p));
        if self.tracer.is_some() {
            let uids: Vec<u64> = flushed.waiting.iter().map(|&p| self.packets[p].uid).collect();
            self.tracer().retract_dequeues(ch, &uids);
            for p in lost.clone() {
                self.trace_packet(now, PacketEvent::Drop, ch, self.packets[p]);
            }
        }
        for p in lost {
            self.drop_packet(p, Some(ch));
        }
    }

    /// Replaces the `-` records of re-timed packets with their new times.
    #[cold]
    #[inline(never)]
    fn retrace_departures(&mut self, ch: ChannelId, retimed: &Retimed) {
        let uids: Vec<u64> = retimed.departures.iter().map(|&(p, _)| self.packets[p].uid).collect();
        self.tracer().retract_dequeues(ch, &uids);
        for &(p, departs) in &retimed.departures {
            self.trace_packet(departs, PacketEvent::Dequeue, ch, self.packets[p]);
        }
    }

    #[cold]
    #[inline(never)]
    fn trace_link(&mut self, now: Instant, channel: ChannelId, up: bool) {
        let (from, to) = self.channel_ends[channel as usize];
        let place = self.queue.current_key();
        if let Some(tracer) = &mut self.tracer {
            tracer.record(TraceRecord::Link(LinkRecord { time: now, channel, from, to, up }), place);
            tracer.flush_through(now, place);
        }
    }
}
