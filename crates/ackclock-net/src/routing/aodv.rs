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
