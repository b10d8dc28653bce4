//! Ad hoc on-demand distance vector routing with the behaviour of ns-2
//! 2.35's AODV agent as it is compiled (AODV_LINK_LAYER_DETECTION and
//! AODV_LOCAL_REPAIR on, no hellos):
//!
//! * A source without a route broadcasts a route request (RREQ) and its
//!   packets wait. Each node rebroadcasts a request once (a cache of
//!   (source, request id) kept `bcast_id_save`, purged every
//!   `bcast_id_save`), after a uniform 0..`broadcast_jitter`, while its IP
//!   TTL lasts, and learns the reverse route to the source on the way.
//! * The destination, or a node with a route at least as fresh as the
//!   request asks, unicasts a route reply (RREP) back along the reverse
//!   route; each node on the way learns the forward route and notes the
//!   neighbour it passed the reply to as a precursor of the destination.
//! * Expanding-ring search: the TTL grows from `ttl_start` by
//!   `ttl_increment` up to `ttl_threshold`, then is `network_diameter`;
//!   the wait for a reply is 2 x TTL x the per-hop discovery time. As in
//!   ns-2, a route entry that has never been up remembers a last hop count
//!   of 255, so a first discovery (and a local repair) goes straight to
//!   `network_diameter`. After `rreq_retries` network-wide tries the
//!   waiting packets are dropped and the destination rests
//!   `max_rreq_timeout`.
//! * Routes live `active_route_timeout` after the last data packet sent on
//!   them (`on_data`); every `purge_interval` expired routes go down and
//!   destinations with waiting packets are searched again.
//! * A MAC failure (`on_link_failure`) closer to the destination than to
//!   the source starts a local repair (the packet waits); otherwise the
//!   neighbour is deleted: its packets in the interface queue are dropped
//!   and every route through it goes down, announced in a route error
//!   (RERR). A RERR takes down the routes through its sender and is passed
//!   on for the destinations that have precursors.
//! * A node asked to forward a packet it has no route for drops it and
//!   broadcasts a RERR.
//!
//! Sizes are ns-2's (20 bytes of IP plus 28 for a RREQ, 24 for a RREP,
//! 4 + 8 per destination for a RERR). ns-2 2.35's AODV has no blacklist of
//! unidirectional links (that is in RFC 3561 and AODV-UU, not in ns-2).

use super::{
    broadcast_vias, neighbor_of, Adjacency, AfterFailure, ControlMessage, NextHop, RouterOutput, RoutingProtocol,
};
use crate::packet::NodeId;
use ackclock_core::{Duration, Instant, SimRng};
use rand::RngExt;

/// ns-2's compile-time constants (aodv.h, aodv_rqueue.h), by their ns-2 names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AodvConfig {
    /// ACTIVE_ROUTE_TIMEOUT: a route's life after the last packet sent on it.
    pub active_route_timeout: Duration,
    /// MY_ROUTE_TIMEOUT: the lifetime a destination puts in its replies.
    pub my_route_timeout: Duration,
    /// REV_ROUTE_LIFE: the least life of a reverse route learned from a request.
    pub rev_route_life: Duration,
    /// BCAST_ID_SAVE: how long a request id is remembered (and how often
    /// the cache is purged).
    pub bcast_id_save: Duration,
    /// RREQ_RETRIES: network-wide searches before giving up.
    pub rreq_retries: u32,
    /// MAX_RREQ_TIMEOUT: the longest wait for a reply, and the rest after
    /// giving up.
    pub max_rreq_timeout: Duration,
    /// TTL_START, TTL_INCREMENT, TTL_THRESHOLD: the expanding ring.
    pub ttl_start: u32,
    pub ttl_increment: u32,
    pub ttl_threshold: u32,
    /// NETWORK_DIAMETER: the TTL of a network-wide search (and of data).
    pub network_diameter: u32,
    /// NODE_TRAVERSAL_TIME: the per-hop time before any discovery was timed.
    pub node_traversal_time: Duration,
    /// The route cache timer's period (ROUTE_CACHE_FREQUENCY, 0.5 s).
    pub purge_interval: Duration,
    /// The most a broadcast is delayed (ns-2's 0.01 * Random::uniform()).
    pub broadcast_jitter: Duration,
    /// AODV_LOCAL_REPAIR.
    pub local_repair: bool,
    /// AODV_RTQ_MAX_LEN and AODV_RTQ_TIMEOUT: the queue of packets waiting
    /// for a route.
    pub queue_len: usize,
    pub queue_timeout: Duration,
}

impl Default for AodvConfig {
    fn default() -> Self {
        AodvConfig {
            active_route_timeout: Duration::from_secs(10),
            my_route_timeout: Duration::from_secs(10),
            rev_route_life: Duration::from_secs(6),
            bcast_id_save: Duration::from_secs(6),
            rreq_retries: 3,
            max_rreq_timeout: Duration::from_secs(10),
            ttl_start: 5,
            ttl_increment: 2,
            ttl_threshold: 7,
            network_diameter: 30,
            node_traversal_time: Duration::from_millis(30),
            purge_interval: Duration::from_millis(500),
            broadcast_jitter: Duration::from_millis(10),
            local_repair: true,
            queue_len: 64,
            queue_timeout: Duration::from_secs(30),
        }
    }
}

/// An AODV message (the sender is the neighbour it comes from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Request(Request),
    Reply(Reply),
    /// Destinations no longer reachable, with their sequence numbers.
    Error(Vec<(NodeId, u32)>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The IP time to live it was sent with.
    pub ttl: u32,
    pub hop_count: u32,
    pub id: u32,
    pub dst: NodeId,
    pub dst_seqno: u32,
    pub src: NodeId,
    pub src_seqno: u32,
    /// When the source sent it (to time the discovery).
    pub timestamp: Instant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The node the reply travels to (the request's source).
    pub to: NodeId,
    pub hop_count: u32,
    pub dst: NodeId,
    pub dst_seqno: u32,
    pub lifetime: Duration,
    pub timestamp: Instant,
}

/// ns-2 sizes: 20 bytes of IP header plus the AODV header as ns-2 counts it.
const IP_HEADER: u32 = 20;

impl Message {
    pub fn size(&self) -> u32 {
        IP_HEADER
            + match self {
                Message::Request(_) => 7 * 4,
                Message::Reply(_) => 6 * 4,
                Message::Error(dsts) => (2 * dsts.len() as u32 + 1) * 4,
            }
    }
}

/// ns-2's INFINITY2: the hop count of a route that is down.
const INFINITY: u32 = 0xff;
/// ns-2's MAX_HISTORY: discovery latencies kept per route.
const HISTORY: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Down,
    Up,
    InRepair,
}

/// A routing table entry (ns-2's aodv_rt_entry).
#[derive(Clone, Debug)]
struct Route {
    seqno: u32,
    hops: u32,
    last_hops: u32,
    /// The next hop and the neighbour it leads to.
    next: Option<(NextHop, NodeId)>,
    expire: Instant,
    state: State,
    /// Until when no new request goes out (`Instant::ZERO`: none pending).
    req_timeout: Instant,
    req_cnt: u32,
    req_last_ttl: u32,
    /// Seconds per hop of the last discoveries (0: none).
    latency: [f64; HISTORY],
    hist: usize,
    precursors: Vec<NodeId>,
}

impl Default for Route {
    fn default() -> Self {
        Route {
            seqno: 0,
            hops: INFINITY,
            last_hops: INFINITY,
            next: None,
            expire: Instant::ZERO,
            state: State::Down,
            req_timeout: Instant::ZERO,
            req_cnt: 0,
            req_last_ttl: 0,
            latency: [0.0; HISTORY],
            hist: 0,
            precursors: Vec::new(),
        }
    }
}

impl Route {
    fn update(&mut self, seqno: u32, hops: u32, next: (NextHop, NodeId), expire: Instant) {
        self.seqno = seqno;
        self.hops = hops;
        self.state = State::Up;
        self.next = Some(next);
        self.expire = expire;
    }

    fn down(&mut self) {
        if self.state == State::Down {
            return;
        }
        self.last_hops = self.hops;
        self.hops = INFINITY;
        self.state = State::Down;
        self.next = None;
        self.expire = Instant::ZERO;
    }

    fn add_precursor(&mut self, node: NodeId) {
        if !self.precursors.contains(&node) {
            self.precursors.push(node);
        }
    }

    fn neighbor(&self) -> Option<NodeId> {
        self.next.map(|(_, n)| n)
    }
}

#[derive(Debug)]
pub struct Aodv {
    node: NodeId,
    config: AodvConfig,
    rng: SimRng,
    adjacencies: Vec<Adjacency>,
    seqno: u32,
    bid: u32,
    /// Entries by destination, created on first lookup as in ns-2.
    routes: Vec<Option<Route>>,
    /// What the node's forwarding table holds, per destination.
    installed: Vec<Option<NextHop>>,
    /// Request ids heard: (source, id, expiry).
    heard: Vec<(NodeId, u32, Instant)>,
    /// Destinations with packets waiting, until when the last one may wait.
    waiting: Vec<(NodeId, Instant)>,
    /// Jittered broadcasts: (when, message).
    outbox: Vec<(Instant, Message)>,
    /// Local repairs' deadlines: (when, destination).
    repairs: Vec<(Instant, NodeId)>,
    next_id_purge: Instant,
    next_route_purge: Instant,
}

impl Aodv {
    pub fn new(node: NodeId, nodes: usize, config: AodvConfig, rng: SimRng) -> Self {
        Aodv {
            node,
            config,
            rng,
            adjacencies: Vec::new(),
            seqno: 2,
            bid: 1,
            routes: vec![None; nodes],
            installed: vec![None; nodes],
            heard: Vec::new(),
            waiting: Vec::new(),
            outbox: Vec::new(),
            repairs: Vec::new(),
            next_id_purge: Instant::MAX,
            next_route_purge: Instant::MAX,
        }
    }

    fn entry(&mut self, dst: NodeId) -> &mut Route {
        self.routes[dst as usize].get_or_insert_with(Route::default)
    }

    fn lookup(&self, dst: NodeId) -> Option<&Route> {
        self.routes.get(dst as usize).and_then(Option::as_ref)
    }

    /// Tells the node of a change of `dst`'s route: only an up route is
    /// in the forwarding table.
    fn sync(&mut self, dst: NodeId, out: &mut RouterOutput) {
        let hop = self.lookup(dst).filter(|r| r.state == State::Up).and_then(|r| r.next).map(|(via, _)| via);
        if self.installed[dst as usize] != hop {
            self.installed[dst as usize] = hop;
            out.routes.push((dst, hop));
            if hop.is_some() {
                self.waiting.retain(|&(d, _)| d != dst); // the node sends them now
            }
        }
    }

    fn neighbor_of(&self, via: NextHop) -> Option<NodeId> {
        neighbor_of(&self.adjacencies, via)
    }

    fn broadcast(&mut self, now: Instant, jitter: bool, message: Message, out: &mut RouterOutput) {
        if jitter {
            let delay = self.config.broadcast_jitter.as_secs_f64() * self.rng.random::<f64>();
            self.outbox.push((now + Duration::from_secs_f64(delay), message));
        } else {
            self.send_broadcast(message, out);
        }
    }

    fn send_broadcast(&self, message: Message, out: &mut RouterOutput) {
        let size = message.size();
        for via in broadcast_vias(&self.adjacencies) {
            out.messages.push((via, ControlMessage::Aodv(message.clone()), size));
        }
    }

    fn unicast(via: NextHop, message: Message, out: &mut RouterOutput) {
        let size = message.size();
        out.messages.push((via, ControlMessage::Aodv(message), size));
    }

    /// ns-2's PerHopTime: the mean of the timed discoveries, in seconds.
    fn per_hop_time(&self, route: &Route) -> f64 {
        let timed: Vec<f64> = route.latency.iter().copied().filter(|&l| l > 0.0).collect();
        if timed.is_empty() {
            self.config.node_traversal_time.as_secs_f64()
        } else {
            timed.iter().sum::<f64>() / timed.len() as f64
        }
    }

    fn mark_waiting(&mut self, now: Instant, dst: NodeId) {
        let until = now + self.config.queue_timeout;
        match self.waiting.iter_mut().find(|(d, _)| *d == dst) {
            Some(w) => w.1 = until,
            None => self.waiting.push((dst, until)),
        }
    }

    fn give_up(&mut self, dst: NodeId, out: &mut RouterOutput) {
        if let Some(i) = self.waiting.iter().position(|&(d, _)| d == dst) {
            self.waiting.swap_remove(i);
            out.give_up.push(dst);
        }
    }

    /// ns-2's sendRequest: rate-limited, expanding-ring route discovery.
    fn send_request(&mut self, now: Instant, dst: NodeId, out: &mut RouterOutput) {
        let c = self.config;
        let route = self.entry(dst);
        if route.state == State::Up || route.req_timeout > now {
            return;
        }
        if route.req_cnt > c.rreq_retries {
            route.req_timeout = now + c.max_rreq_timeout;
            route.req_cnt = 0;
            self.give_up(dst, out);
            return;
        }
        route.req_last_ttl = route.req_last_ttl.max(route.last_hops);
        let ttl = if route.req_last_ttl == 0 {
            c.ttl_start
        } else if route.req_last_ttl < c.ttl_threshold {
            route.req_last_ttl + c.ttl_increment
        } else {
            route.req_cnt += 1;
            c.network_diameter
        };
        route.req_last_ttl = ttl;
        let route = self.lookup(dst).expect("just made");
        let mut timeout = 2.0 * f64::from(ttl) * self.per_hop_time(route);
        if route.req_cnt > 0 {
            timeout *= f64::from(route.req_cnt);
        }
        let timeout = Duration::from_secs_f64(timeout).min(c.max_rreq_timeout);
        let dst_seqno = route.seqno;
        let route = self.entry(dst);
        route.req_timeout = now + timeout;
        route.expire = Instant::ZERO;
        self.seqno += 2;
        let request = Request {
            ttl,
            hop_count: 1,
            id: self.bid,
            dst,
            dst_seqno,
            src: self.node,
            src_seqno: self.seqno,
            timestamp: now,
        };
        self.bid += 1;
        self.broadcast(now, false, Message::Request(request), out);
    }

    /// ns-2's sendReply: unicast towards `reply.to` along the reverse route.
    fn send_reply(&self, reply: Reply, out: &mut RouterOutput) {
        if let Some((via, _)) = self.lookup(reply.to).and_then(|r| r.next) {
            Self::unicast(via, Message::Reply(reply), out);
        }
    }

    fn on_request(&mut self, now: Instant, from: NextHop, rq: &Request, out: &mut RouterOutput) {
        let c = self.config;
        if rq.src == self.node || self.heard.iter().any(|&(s, id, _)| (s, id) == (rq.src, rq.id)) {
            return;
        }
        self.heard.push((rq.src, rq.id, now + c.bcast_id_save));
        let Some(sender) = self.neighbor_of(from) else { return };
        // The reverse route to the source.
        let reverse = self.entry(rq.src);
        reverse.expire = reverse.expire.max(now + c.rev_route_life);
        if rq.src_seqno > reverse.seqno || (rq.src_seqno == reverse.seqno && rq.hop_count < reverse.hops) {
            let expire = reverse.expire;
            reverse.update(rq.src_seqno, rq.hop_count, (from, sender), expire);
            if reverse.req_timeout > Instant::ZERO {
                reverse.req_cnt = 0;
                reverse.req_timeout = Instant::ZERO;
                reverse.req_last_ttl = rq.hop_count;
                reverse.expire = now + c.active_route_timeout;
            }
            self.sync(rq.src, out);
        }
        let reverse_next = self.lookup(rq.src).and_then(Route::neighbor);
        if rq.dst == self.node {
            self.seqno = self.seqno.max(rq.dst_seqno) + 1;
            self.seqno += self.seqno % 2;
            let reply = Reply {
                to: rq.src,
                hop_count: 1,
                dst: self.node,
                dst_seqno: self.seqno,
                lifetime: c.my_route_timeout,
                timestamp: rq.timestamp,
            };
            self.send_reply(reply, out);
            return;
        }
        let known = self.lookup(rq.dst).map(|r| (r.hops, r.seqno, r.expire, r.neighbor()));
        match known {
            Some((hops, seqno, expire, forward_next)) if hops != INFINITY && seqno >= rq.dst_seqno => {
                // ns-2 sends the remaining lifetime in whole seconds.
                let lifetime = Duration::from_secs(expire.saturating_since(now).as_secs_f64() as u64);
                let reply = Reply {
                    to: rq.src,
                    hop_count: hops + 1,
                    dst: rq.dst,
                    dst_seqno: seqno,
                    lifetime,
                    timestamp: rq.timestamp,
                };
                self.send_reply(reply, out);
                if let Some(n) = reverse_next {
                    self.entry(rq.dst).add_precursor(n);
                }
                if let Some(n) = forward_next {
                    self.entry(rq.src).add_precursor(n);
                }
            }
            _ => {
                let ttl = rq.ttl - 1; // ns-2 counts the hop on receipt
                if ttl == 0 {
                    return;
                }
                let dst_seqno = known.map_or(rq.dst_seqno, |(_, seqno, _, _)| seqno.max(rq.dst_seqno));
                let request = Request { ttl, hop_count: rq.hop_count + 1, dst_seqno, ..*rq };
                self.broadcast(now, true, Message::Request(request), out);
            }
        }
    }

    fn on_reply(&mut self, now: Instant, from: NextHop, rp: &Reply, out: &mut RouterOutput) {
        let Some(sender) = self.neighbor_of(from) else { return };
        let to_me = rp.to == self.node;
        let route = self.entry(rp.dst);
        let fresher = route.seqno < rp.dst_seqno || (route.seqno == rp.dst_seqno && route.hops > rp.hop_count);
        if fresher {
            route.update(rp.dst_seqno, rp.hop_count, (from, sender), now + rp.lifetime);
            route.req_cnt = 0;
            route.req_timeout = Instant::ZERO;
            route.req_last_ttl = rp.hop_count;
            if to_me {
                let per_hop = now.saturating_since(rp.timestamp).as_secs_f64() / f64::from(rp.hop_count);
                route.latency[route.hist] = per_hop;
                route.hist = (route.hist + 1) % HISTORY;
            }
            self.sync(rp.dst, out);
        }
        if to_me || !fresher {
            return;
        }
        let active = self.config.active_route_timeout;
        let back = self.entry(rp.to);
        let Some((via, next)) = back.next.filter(|_| back.hops != INFINITY) else { return };
        back.expire = now + active; // ns-2's forward() refreshes the route it uses
        Self::unicast(via, Message::Reply(Reply { hop_count: rp.hop_count + 1, ..*rp }), out);
        self.entry(rp.dst).add_precursor(next);
    }

    fn on_error(&mut self, now: Instant, from: NextHop, unreachable: &[(NodeId, u32)], out: &mut RouterOutput) {
        let Some(sender) = self.neighbor_of(from) else { return };
        let mut passed_on = Vec::new();
        for &(dst, seqno) in unreachable {
            let Some(route) = self.routes.get_mut(dst as usize).and_then(Option::as_mut) else { continue };
            if route.hops != INFINITY && route.neighbor() == Some(sender) && route.seqno <= seqno {
                route.seqno = seqno;
                route.down();
                if !route.precursors.is_empty() {
                    passed_on.push((dst, seqno));
                    route.precursors.clear();
                }
                self.sync(dst, out);
            }
        }
        if !passed_on.is_empty() {
            self.broadcast(now, true, Message::Error(passed_on), out);
        }
    }

    /// ns-2's nb_delete and handle_link_failure: every route through the
    /// neighbour goes down, announced in one RERR.
    fn neighbor_lost(&mut self, neighbor: NodeId, out: &mut RouterOutput) {
        self.seqno += 2;
        let mut lost = Vec::new();
        for dst in 0..self.routes.len() as NodeId {
            let Some(route) = self.routes[dst as usize].as_mut() else { continue };
            if route.hops != INFINITY && route.neighbor() == Some(neighbor) {
                route.seqno += 1;
                lost.push((dst, route.seqno));
                route.down();
            }
            route.precursors.retain(|&p| p != neighbor);
            self.sync(dst, out);
        }
        if !lost.is_empty() {
            self.send_broadcast(Message::Error(lost), out);
        }
    }

    /// ns-2's rt_purge: expired routes go down, and destinations with
    /// packets waiting are searched for again.
    fn purge_routes(&mut self, now: Instant, out: &mut RouterOutput) {
        self.waiting.retain(|&(_, until)| until > now);
        for dst in 0..self.routes.len() as NodeId {
            let Some(route) = self.routes[dst as usize].as_mut() else { continue };
            if route.state == State::Up && route.expire < now {
                route.seqno += 1;
                route.down();
                self.give_up(dst, out);
                self.sync(dst, out);
            } else if route.state != State::Up && self.waiting.iter().any(|&(d, _)| d == dst) {
                self.send_request(now, dst, out);
            }
        }
    }
}

impl RoutingProtocol for Aodv {
    fn start(&mut self, now: Instant, adjacencies: &[Adjacency], _out: &mut RouterOutput) {
        self.adjacencies = adjacencies.to_vec();
        // ns-2's `start` runs both timers' handlers at once.
        self.next_id_purge = now;
        self.next_route_purge = now;
    }

    fn on_adjacencies(&mut self, _now: Instant, adjacencies: &[Adjacency], _out: &mut RouterOutput) {
        self.adjacencies = adjacencies.to_vec();
    }

    fn on_message(&mut self, now: Instant, from: NextHop, message: &ControlMessage, out: &mut RouterOutput) {
        match message {
            ControlMessage::Aodv(Message::Request(rq)) => self.on_request(now, from, rq, out),
            ControlMessage::Aodv(Message::Reply(rp)) => self.on_reply(now, from, rp, out),
            ControlMessage::Aodv(Message::Error(unreachable)) => self.on_error(now, from, unreachable, out),
            _ => {}
        }
    }

    fn on_timer(&mut self, now: Instant, out: &mut RouterOutput) {
        self.outbox.sort_by_key(|&(t, _)| t);
        let due = self.outbox.iter().take_while(|&&(t, _)| t <= now).count();
        for (_, message) in self.outbox.drain(..due).collect::<Vec<_>>() {
            self.send_broadcast(message, out);
        }
        let (due, later): (Vec<_>, Vec<_>) = self.repairs.iter().partition(|&&(t, _)| t <= now);
        self.repairs = later;
        for (_, dst) in due {
            // The repair timed out: the route goes down without a RERR.
            if let Some(route) = self.routes[dst as usize].as_mut().filter(|r| r.state != State::Up) {
                route.down();
                self.sync(dst, out);
            }
        }
        if self.next_id_purge <= now {
            self.heard.retain(|&(_, _, expire)| expire > now);
            self.next_id_purge = now + self.config.bcast_id_save;
        }
        if self.next_route_purge <= now {
            self.purge_routes(now, out);
            self.next_route_purge = now + self.config.purge_interval;
        }
    }

    fn poll_at(&self) -> Option<Instant> {
        let timers = [self.next_id_purge, self.next_route_purge];
        let queued = self.outbox.iter().map(|e| e.0).chain(self.repairs.iter().map(|e| e.0));
        timers.into_iter().chain(queued).min().filter(|&t| t != Instant::MAX)
    }

    /// ns-2's rt_resolve for a packet without an up route.
    fn on_no_route(&mut self, now: Instant, src: NodeId, dst: NodeId, out: &mut RouterOutput) -> bool {
        let state = self.entry(dst).state;
        if src == self.node {
            self.mark_waiting(now, dst);
            self.send_request(now, dst, out);
            true
        } else if state == State::InRepair {
            self.mark_waiting(now, dst);
            true
        } else {
            let seqno = self.entry(dst).seqno;
            self.send_broadcast(Message::Error(vec![(dst, seqno)]), out);
            false
        }
    }

    /// ns-2's rt_ll_failed.
    fn on_link_failure(
        &mut self,
        now: Instant,
        via: NextHop,
        dst: NodeId,
        forwarded: u32,
        out: &mut RouterOutput,
    ) -> AfterFailure {
        let Some(neighbor) = self.neighbor_of(via).filter(|&n| n != super::BROADCAST) else {
            return AfterFailure::Drop;
        };
        let Some(hops) = self.lookup(dst).map(|r| r.hops) else { return AfterFailure::Drop };
        if self.config.local_repair && forwarded > hops {
            self.entry(dst).state = State::InRepair;
            self.sync(dst, out);
            self.mark_waiting(now, dst);
            self.send_request(now, dst, out);
            // ns-2 schedules the repair's timeout with the request's absolute
            // deadline as the delay; kept for fidelity.
            let deadline = self.entry(dst).req_timeout;
            self.repairs.push((now + deadline.saturating_since(Instant::ZERO), dst));
            return AfterFailure::Wait;
        }
        self.neighbor_lost(neighbor, out);
        AfterFailure::DropAllToNeighbour
    }

    fn on_data(&mut self, now: Instant, _src: NodeId, dst: NodeId, _via: NextHop) {
        let active = self.config.active_route_timeout;
        if let Some(route) = self.routes.get_mut(dst as usize).and_then(Option::as_mut) {
            if route.state == State::Up {
                route.expire = now + active;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::scripted::{self, at, chain};

    type Net = scripted::Net<Aodv>;

    fn radios(n: usize, links: &[(NodeId, NodeId)]) -> Net {
        Net::new(n, links, |i, rng| Aodv::new(i, n, AodvConfig::default(), rng))
    }

    fn aodv(m: &ControlMessage) -> &Message {
        match m {
            ControlMessage::Aodv(m) => m,
            other => panic!("not AODV: {other:?}"),
        }
    }

    fn hops(net: &Net, node: NodeId, dst: NodeId) -> u32 {
        net.nodes[node as usize].lookup(dst).map_or(INFINITY, |r| r.hops)
    }

    fn requests_of(net: &Net) -> Vec<Request> {
        let requests = net.sent.iter().filter_map(|(_, _, m)| match aodv(m) {
            Message::Request(rq) => Some(*rq),
            _ => None,
        });
        requests.collect()
    }

    /// The requests sent since `since`: (time, sender, ttl).
    fn requests(net: &Net, since: f64) -> Vec<(f64, NodeId, u32)> {
        let requests = net.sent.iter().filter(|(t, _, _)| *t >= at(since));
        requests
            .filter_map(|(t, n, m)| match aodv(m) {
                Message::Request(rq) => Some((t.as_secs_f64(), *n, rq.ttl)),
                _ => None,
            })
            .collect()
    }

    fn errors(net: &Net, since: f64) -> Vec<(NodeId, Vec<(NodeId, u32)>)> {
        let errors = net.sent.iter().filter(|(t, _, _)| *t >= at(since));
        errors
            .filter_map(|(_, n, m)| match aodv(m) {
                Message::Error(e) => Some((*n, e.clone())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_discovery_on_a_chain_floods_the_request_and_installs_routes_with_their_hop_counts() {
        let mut net = radios(4, &chain(4));
        net.run_until(1.0);
        assert!(net.no_route(0, 0, 3), "the source's packet waits");
        net.run_until(1.1);
        // A fresh entry remembers 255 hops: the first search is network-wide.
        let requests = requests(&net, 0.0);
        assert_eq!(requests[0], (1.0, 0, 30));
        let senders: Vec<NodeId> = requests.iter().map(|r| r.1).collect();
        assert_eq!(senders, vec![0, 1, 2], "each node rebroadcasts once; the destination answers");
        for (t, node, ttl) in &requests[1..] {
            assert!(*t <= 1.0 + 0.01 * f64::from(*node), "jittered by at most 10 ms per hop: {t}");
            assert_eq!(*ttl, 30 - node, "node {node}");
        }
        let replies = net.sent.iter().filter(|(_, _, m)| matches!(aodv(m), Message::Reply(_))).count();
        assert_eq!(replies, 3, "the reply is unicast back over three hops");
        assert_eq!((net.next(0, 3), hops(&net, 0, 3)), (Some(1), 3));
        assert_eq!((net.next(1, 3), hops(&net, 1, 3)), (Some(2), 2));
        assert_eq!((net.next(2, 3), hops(&net, 2, 3)), (Some(3), 1));
        assert_eq!((net.next(3, 0), hops(&net, 3, 0)), (Some(2), 3), "the reverse route");
        assert_eq!(net.nodes[2].lookup(3).unwrap().precursors, vec![1]);
        assert_eq!(net.nodes[1].lookup(3).unwrap().precursors, vec![0]);
        assert!(net.nodes[3].lookup(3).is_none());
        // As ns-2 2.35 traces this exchange (docs/aodv.md): the source's
        // sequence number 2 + 2, the destination's max(2, 0) + 1 made even.
        assert_eq!((requests_of(&net)[0].src_seqno, requests_of(&net)[1].hop_count), (4, 2));
        let reply = net.sent.iter().find_map(|(_, _, m)| match aodv(m) {
            Message::Reply(rp) => Some(*rp),
            _ => None,
        });
        let reply = reply.unwrap();
        assert_eq!((reply.dst_seqno, reply.lifetime, reply.hop_count), (4, Duration::from_secs(10), 1));
        let sizes: Vec<u32> = net.sent.iter().map(|(_, _, m)| aodv(m).size()).collect();
        assert_eq!(sizes, vec![48, 48, 48, 44, 44, 44], "ns-2's sizes, 20 bytes of IP included");
    }

    #[test]
    fn routes_expire_unless_data_refreshes_them() {
        let mut net = radios(3, &chain(3));
        net.no_route(0, 0, 2);
        net.run_until(1.0);
        assert_eq!(net.next(0, 2), Some(1));
        // The destination gave a 10 s lifetime; data at 8 s extends it to 18 s.
        net.run_until(8.0);
        net.nodes[0].on_data(net.now, 0, 2, net.fib[0][2].unwrap());
        net.run_until(17.9);
        assert_eq!(net.next(0, 2), Some(1));
        assert_eq!(net.next(1, 2), None, "node 1 saw no data: its route expired at 10 s");
        net.run_until(18.5);
        assert_eq!(net.next(0, 2), None);
        let route = net.nodes[0].lookup(2).unwrap();
        assert_eq!((route.state, route.seqno % 2), (State::Down, 1), "an expired route's sequence number is odd");
    }

    #[test]
    fn the_expanding_ring_grows_the_ttl_and_the_wait_then_gives_up() {
        // Node 0 alone once had a 3-hop route to node 1.
        let mut net = radios(2, &[]);
        net.nodes[0].entry(1).last_hops = 3;
        net.run_until(0.1);
        net.no_route(0, 0, 1);
        net.run_until(40.0);
        // 2 x TTL x 30 ms per hop, times the network-wide tries so far, at
        // most 10 s; retried at the next 0.5 s purge.
        let expected = vec![(0.1, 0, 5), (0.5, 0, 7), (1.0, 0, 30), (3.0, 0, 30), (7.0, 0, 30), (12.5, 0, 30)];
        let got: Vec<(f64, NodeId, u32)> =
            requests(&net, 0.0).into_iter().map(|(t, n, ttl)| ((t * 1e6).round() / 1e6, n, ttl)).collect();
        assert_eq!(got, expected);
        assert_eq!(net.gave_up, vec![(at(20.0), 0, 1)], "after 4 network-wide tries its packets are dropped");
    }

    #[test]
    fn a_broken_link_sends_a_route_error_and_the_source_searches_again() {
        let mut net = radios(4, &chain(4));
        net.no_route(0, 0, 3);
        net.run_until(1.0);
        let seqno = net.nodes[0].lookup(3).unwrap().seqno;
        // Node 1's packet for 3 (one hop travelled; two to go) is not acknowledged.
        assert_eq!(net.link_failure(1, 3, 1), AfterFailure::DropAllToNeighbour);
        net.run_until(1.0);
        assert_eq!(errors(&net, 1.0), vec![(1, vec![(3, seqno + 1)])]);
        assert_eq!(net.next(1, 3), None);
        assert_eq!(net.next(0, 3), None, "node 0 took the route through node 1 down");
        assert_eq!(net.next(2, 3), Some(3), "node 2's route does not go through node 1");
        // Node 0 is the source; no precursor to tell: the error stops there.
        assert_eq!(errors(&net, 1.0).len(), 1);
        net.run_until(1.5);
        assert!(net.no_route(0, 0, 3));
        // It had 3 hops: the ring starts at 3 + 2, asking for a fresher route.
        let rq = *requests_of(&net).last().unwrap();
        assert_eq!((rq.ttl, rq.dst_seqno), (5, seqno + 1));
        net.run_until(2.0);
        assert_eq!(net.next(0, 3), Some(1), "the destination answered (node 2's route is older than asked)");
        // Node 1 asked to forward a packet it has no route for: dropped, RERR.
        let mut fresh = radios(3, &chain(3));
        fresh.run_until(1.0);
        assert!(!fresh.no_route(1, 0, 2));
        assert_eq!(errors(&fresh, 0.0), vec![(1, vec![(2, 0)])]);
    }

    #[test]
    fn a_failure_near_the_destination_is_repaired_locally() {
        // 0 - 1 - 2 - 3 - 4, and node 5 near 3 and 4.
        let mut net = radios(6, &chain(5));
        net.no_route(0, 0, 4);
        net.run_until(5.0);
        assert_eq!(hops(&net, 3, 4), 1);
        // Node 4 leaves node 3's range; node 5 can relay.
        net.set_links(&[(0, 1), (1, 2), (2, 3), (3, 5), (5, 4)]);
        // The packet had travelled 3 hops, more than node 3's 1 hop to go.
        assert_eq!(net.link_failure(3, 4, 3), AfterFailure::Wait);
        assert_eq!(net.next(3, 4), None, "under repair: packets wait");
        assert_eq!(requests(&net, 5.0), vec![(5.0, 3, 30)]);
        assert!(net.no_route(3, 0, 4), "packets of others wait during the repair");
        net.run_until(5.1);
        assert_eq!((net.next(3, 4), hops(&net, 3, 4)), (Some(5), 2));
        assert_eq!(errors(&net, 5.0), vec![], "a repair sends no error");
        assert_eq!(net.next(0, 4), Some(1), "upstream routes stay");
    }

    #[test]
    fn a_failed_repair_takes_the_route_down_when_its_timer_fires() {
        let mut net = radios(5, &chain(5));
        net.no_route(0, 0, 4);
        net.run_until(5.0);
        net.set_links(&chain(4));
        assert_eq!(net.link_failure(3, 4, 3), AfterFailure::Wait);
        // The request waits 2 x 30 x 30 ms = 1.8 s; ns-2 uses its deadline,
        // 6.8 s, as the repair timer's delay: it fires at 11.8 s.
        assert_eq!(net.nodes[3].repairs, vec![(at(11.8), 4)]);
        net.run_until(11.79);
        assert_eq!(net.nodes[3].lookup(4).unwrap().state, State::InRepair);
        net.run_until(11.8);
        assert_eq!(net.nodes[3].lookup(4).unwrap().state, State::Down);
        assert_eq!(errors(&net, 5.0), vec![]);
    }
}
