//! The simulation world and its event loop.

mod frame_capture;
mod link_layer;
mod medium;
mod network;
mod notice;
mod processor;
mod wireless;
mod wireless_trace;

pub use medium::LanConfig;
pub use notice::Notice;
use wireless_trace::{next_hop, RadioEvent};

use crate::dynamics::{FailureModel, LinkChange};
use crate::error::ConfigError;
use crate::monitor::FlowMonitor;
use crate::report::{FlowReport, LinkReport, RouteChange, TcpReport};
use crate::shaper::{Shaped, TokenBucket, TokenBucketParams};
use crate::source::{SizeModel, Traffic, UdpSource, UdpSourceConfig};
use crate::tcp_flow::{SeriesPoint, Side, TcpApp, TcpFlow, TcpFlowConfig, NS2_VARS};
use crate::udp::{UdpFlow, UdpRole};
use crate::wake::Wake;
use ackclock_core::{
    Bandwidth, Duration, EventId, EventQueue, Instant, Mrg32k3a, OrderKey, RngStreams, SimRng, PS_PER_SEC,
};
use ackclock_net::{Arrival, DropReason, Ns2Link, Ns2Offer};
use ackclock_net::{
    Channel, ChannelConfig, ChannelId, ControlMessage, Discipline, Ecn, Fib, FlowFilter, Frame, Interface, Ipv4Header,
    Jitter, LinkAddress, LossModel, Mac, MediumModel, NextHop, Nic, NicId, Node, NodeId, Packet, PacketId, PacketPool,
    QueueEvent, Reception, SendOutcome, Transport, UdpHeader, BROADCAST, CONTROL_FLOW,
};
use ackclock_tcp::{Endpoint, State};
use ackclock_trace::{
    FlowView, PacketEvent, PacketRecord, RedQueueRecord, TcpEventRecord, TraceRecord, Tracer, VarRecord, VarValue,
    WirelessEvent, WirelessLayer,
};
use ackclock_wire::TcpRepr;
use rand::RngExt;
use std::collections::{HashMap, VecDeque};

/// Names a callback scheduled with [`Simulation::schedule_callback`].
pub type CallbackId = u64;

const INITIAL_TTL: u8 = 64;
const UDP_PORT_BASE: u16 = 10_000;
const TCP_CLIENT_PORT_BASE: u16 = 20_000;
const TCP_SERVER_PORT_BASE: u16 = 40_000;

#[derive(Clone, Copy, Debug)]
enum Event {
    /// The head of a channel's arrival line reaches the far node.
    Arrival(ChannelId),
    /// A UDP source's next packet is due.
    Departure(u32),
    /// A TCP endpoint's timer (lazy: it may have moved later meanwhile).
    TcpTimer(u32, Side),
    /// A TCP flow's application wants to act.
    AppWake(u32),
    /// Control returns to the caller of `run`.
    Callback(CallbackId),
    /// A scheduled change of links (an index into `link_schedules`).
    LinkChange(u32),
    /// A node's routing protocol's timer (lazy, like TCP's).
    RoutingTimer(NodeId),
    /// The oldest packet waiting at a node for a route may have waited
    /// too long (lazy).
    RouteWaitExpiry(NodeId),
    /// The next packet a node's processor handles is done.
    Processed(NodeId),
    /// A NIC's MAC timer: lazy, or one of the timers a MAC that keeps
    /// ns-2's order of its timers set (`Mac::poll_timer_set`).
    NicTimer(NicId),
    /// The first bit of a frame (an index into `frames`) reaches one of
    /// its receivers (an index into its `receptions`).
    FrameArrival(u32, u32),
    /// A node starts a scheduled move (an index into `moves`).
    Move(u32),
    /// A packet crosses a radio NIC's link layer (an index into
    /// `ll_pending`).
    LinkLayer(u32),
    /// A packet an error model held at a link head goes into the link's
    /// queue (an index into `held_at_head`).
    HeadRelease(u32),
    /// A UDP flow's token bucket lets its next waiting packet go (last, so
    /// that the dispatch of the frequent events is unchanged).
    ShaperWake(u32),
}

/// Why `run` returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunOutcome {
    /// The time limit was reached; the clock equals it.
    Until,
    /// No events remain.
    Idle,
    /// `stop` was called.
    Stopped,
    /// A scheduled callback is due at the current time.
    Callback(CallbackId),
    /// Something the front end watches happened at the current time.
    Notice(Notice),
    /// `run_at_most` processed its quota of events; calling it again
    /// continues exactly where it paused.
    EventLimit,
}

enum Transfer {
    Udp(Box<UdpFlow>),
    Tcp(Box<TcpFlow>),
}

struct Flow {
    name: String,
    src: NodeId,
    dst: NodeId,
    /// Whether the flow's first event has been put in the event queue.
    scheduled: bool,
    /// Ends taken off their node (source, sink): they neither send nor
    /// receive any more, as after ns-2's `detach-agent`.
    detached: [bool; 2],
    transfer: Transfer,
    /// Its packets from src to dst, at the network layer.
    monitor: FlowMonitor,
}

pub struct Simulation {
    streams: RngStreams,
    queue: EventQueue<Event>,
    nodes: Vec<Node>,
    channels: Vec<Channel>,
    channel_ends: Vec<(NodeId, NodeId)>,
    /// Each channel's opposite direction, when there is one: routing
    /// messages come back over it.
    reverse: Vec<Option<ChannelId>>,
    /// Each channel's routing cost (ns-2's link cost, 1 by default).
    costs: Vec<u32>,
    /// Every node's forwarding table.
    fib: Fib,
    /// Set when the topology or a router changed since the routes were
    /// computed.
    routes_stale: bool,
    /// (node, destination, channel) routes the user gave.
    user_routes: Vec<(NodeId, NodeId, ChannelId)>,
    /// Every route change, when asked for.
    route_log: Option<Vec<RouteChange>>,
    link_schedules: Vec<LinkSchedule>,
    /// Time of each node's live routing timer and route wait expiry event.
    routing_armed: Vec<Wake>,
    waiting_armed: Vec<Wake>,
    /// Routing messages in flight, with the link they were sent on; their
    /// packets name them by index.
    messages: Vec<Option<(ControlMessage, NextHop)>>,
    free_messages: Vec<u32>,
    /// The number of nodes when the routing protocols were started.
    protocol_nodes: usize,
    nics: Vec<Nic>,
    media: Vec<MediumModel>,
    /// Time of each NIC's live timer event.
    nic_armed: Vec<Wake>,
    /// Frames on a shared medium, until every NIC that hears them is done.
    frames: Vec<Option<FrameInFlight>>,
    free_frames: Vec<u32>,
    /// Packets on their way through radio NICs' link layers.
    ll_pending: Vec<Option<link_layer::Crossing>>,
    ll_free: Vec<u32>,
    /// Packets error models hold at link heads (ns-2's `delay_pkt_`).
    held_at_head: Vec<Option<(ChannelId, PacketId)>>,
    free_held_at_head: Vec<u32>,
    /// Reused for each transmission on a shared medium.
    receptions: Vec<Reception>,
    /// How each radio channel's NICs are made.
    radios: Vec<wireless::RadioSetup>,
    /// The packet a radio node received last and its frame's MAC header,
    /// for the trace record of its forwarding (ns-2 prints it).
    last_rx_mac: Option<(PacketId, ackclock_trace::MacFields)>,
    /// Scheduled moves of radio NICs.
    moves: Vec<wireless::Move>,
    /// Whether some node has a processor: one test per packet when none has.
    processors: bool,
    flows: Vec<Flow>,
    /// Every packet in the network; channels and events hold its id.
    packets: PacketPool,
    callbacks: HashMap<CallbackId, EventId>,
    next_callback: CallbackId,
    next_uid: u64,
    stop_requested: bool,
    /// Watched happenings not yet handed to the front end, in order.
    notices: VecDeque<Notice>,
    /// A TCP side whose sending waits for the front end's answer to a
    /// notice; `run` sends for it when it resumes.
    unflushed: Option<(u32, Side)>,
    /// Set by `stop` or a notice: the loop returns before the next event.
    /// One test per event, as before notices existed.
    interrupted: bool,
    /// `run` returned for a callback and has not resumed: events at this
    /// instant after the callback's have not happened yet.
    in_callback: bool,
    /// Present only while something is traced.
    tracer: Option<Box<Tracer>>,
    /// Whether a trace shows radio MACs' frames (ns-2's `-macTrace`); the
    /// MACs keep their events only then.
    mac_traced: bool,
    /// In ns-2's order: each channel's times as ns-2 computes them.
    ns2_links: Vec<Ns2Link>,
    /// ns-2's default generator, when the run reproduces ns-2's draws: the
    /// TCP send delays (`overhead_`) and ns-2 RED's decisions come from it
    /// in event order.
    ns2_rng: Option<Mrg32k3a>,
    /// ns-2's routing generator (`rtglibRNG`), when the run reproduces
    /// ns-2's draws: DV's update times come from it in event order.
    routing_rng: Option<ackclock_net::routing::dv::SharedRng>,
}

impl Simulation {
    pub fn new(seed: u64, replication: u64) -> Self {
        Simulation {
            streams: RngStreams::new(seed, replication),
            queue: EventQueue::new(),
            nodes: Vec::new(),
            channels: Vec::new(),
            channel_ends: Vec::new(),
            reverse: Vec::new(),
            costs: Vec::new(),
            fib: Fib::default(),
            routes_stale: true,
            user_routes: Vec::new(),
            route_log: None,
            link_schedules: Vec::new(),
            routing_armed: Vec::new(),
            waiting_armed: Vec::new(),
            messages: Vec::new(),
            free_messages: Vec::new(),
            protocol_nodes: 0,
            nics: Vec::new(),
            media: Vec::new(),
            nic_armed: Vec::new(),
            frames: Vec::new(),
            free_frames: Vec::new(),
            ll_pending: Vec::new(),
            ll_free: Vec::new(),
            held_at_head: Vec::new(),
            free_held_at_head: Vec::new(),
            receptions: Vec::new(),
            radios: Vec::new(),
            last_rx_mac: None,
            moves: Vec::new(),
            processors: false,
            flows: Vec::new(),
            packets: PacketPool::default(),
            callbacks: HashMap::new(),
            next_callback: 0,
            next_uid: 0,
            stop_requested: false,
            notices: VecDeque::new(),
            unflushed: None,
            interrupted: false,
            in_callback: false,
            tracer: None,
            mac_traced: false,
            ns2_rng: None,
            routing_rng: None,
            ns2_links: Vec::new(),
        }
    }

    /// Orders events as ns-2's scheduler does from now on (see
    /// `EventQueue::ns2_order` and docs/tcl.md): links keep ns-2's double
    /// times, TCP timers their keys. For a simulation that has nothing
    /// scheduled and no links yet.
    pub fn use_ns2_order(&mut self) -> Result<(), ConfigError> {
        if !self.queue.is_empty() || !self.channels.is_empty() || !self.flows.is_empty() {
            return Err(ConfigError::invalid("ns2_order", true, "must be chosen before links and flows are added"));
        }
        self.queue = EventQueue::ns2_order();
        Ok(())
    }

    /// Under ns-2's order: the double ns-2 has for the channel's delay, when
    /// it differs from the exact one (ns-2 reads "71ms" as 71 * 1e-3).
    pub fn set_ns2_delay(&mut self, channel: ChannelId, delay: f64) -> Result<(), ConfigError> {
        let exact = self.channel_mut(channel)?.delay();
        if !self.queue.is_ns2_order() || (delay * PS_PER_SEC as f64 - exact.as_ps() as f64).abs() > 1.0 {
            return Err(ConfigError::invalid("ns2_delay", delay, "needs ns-2's order and the channel's delay"));
        }
        self.ns2_links[channel as usize] = Ns2Link::new(self.channels[channel as usize].bandwidth(), delay);
        Ok(())
    }

    /// Makes the TCP send delays (ns-2's `overhead_`) and ns-2 RED's
    /// decisions come from `rng`, one generator for all flows and queues in
    /// event order, as ns-2's agents and queues share its default
    /// generator; `None` gives each its own stream again.
    pub fn set_ns2_rng(&mut self, rng: Option<Mrg32k3a>) {
        self.ns2_rng = rng;
    }

    /// The shared generator's state, as far as the run has drawn from it.
    pub fn ns2_rng(&self) -> Option<Mrg32k3a> {
        self.ns2_rng
    }

    /// Makes the DV nodes started from now on draw their update times from
    /// `rng`, one generator in event order, as ns-2's DV agents share its
    /// `rtglibRNG`; `None` gives each node its own stream again.
    pub fn set_routing_rng(&mut self, rng: Option<Mrg32k3a>) {
        self.routing_rng = rng.map(|g| std::sync::Arc::new(std::sync::Mutex::new(g)));
    }

    /// The routing generator's state, as far as the run has drawn from it.
    pub fn routing_rng(&self) -> Option<Mrg32k3a> {
        self.routing_rng.as_ref().map(|g| *g.lock().expect("one simulation thread"))
    }

    pub fn now(&self) -> Instant {
        self.queue.now()
    }

    /// The time in seconds; under ns-2's order, the double ns-2's clock
    /// holds at this event (its time as ns-2 sums it, which can differ from
    /// the whole picoseconds of `now` in the last bits).
    pub fn now_seconds(&self) -> f64 {
        let secs = self.now().as_ps() as f64 / PS_PER_SEC as f64;
        let ns2 = self.queue.current_key().ns2_time();
        // The current key is the last event's; the clock may have moved on
        // without an event (a run to a given end).
        if self.queue.is_ns2_order() && (ns2 - secs).abs() < 1e-9 {
            ns2
        } else {
            secs
        }
    }

    /// Events processed so far.
    pub fn events(&self) -> u64 {
        self.queue.delivered()
    }

    /// Packets sent and not yet delivered or dropped.
    pub fn packets_in_network(&self) -> usize {
        self.packets.live()
    }

    pub fn add_node(&mut self, name: &str) -> NodeId {
        self.nodes.push(Node::new(name));
        self.routing_armed.push(Wake::default());
        self.waiting_armed.push(Wake::default());
        self.routes_stale = true;
        (self.nodes.len() - 1) as NodeId
    }

    pub fn node_name(&self, node: NodeId) -> Result<&str, ConfigError> {
        self.check_node("node", node)?;
        Ok(&self.nodes[node as usize].name)
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Adds a simplex link direction: a new interface of its `from` node.
    /// Two nodes may have any number of links between them.
    pub fn add_channel(&mut self, config: ChannelConfig) -> Result<ChannelId, ConfigError> {
        self.check_node("src", config.from)?;
        self.check_node("dst", config.to)?;
        if config.from == config.to {
            return Err(ConfigError::SelfLoop { node: self.nodes[config.from as usize].name.clone() });
        }
        let id = self.channels.len() as ChannelId;
        self.nodes[config.from as usize].interfaces.push(Interface::Link(id));
        // Pairs with the first unpaired link in the other direction.
        let opposite = (0..id)
            .find(|&c| self.channel_ends[c as usize] == (config.to, config.from) && self.reverse[c as usize].is_none());
        if let Some(c) = opposite {
            self.reverse[c as usize] = Some(id);
        }
        self.reverse.push(opposite);
        self.channel_ends.push((config.from, config.to));
        self.costs.push(1);
        if self.queue.is_ns2_order() {
            let delay = config.delay.as_ps() as f64 / PS_PER_SEC as f64;
            self.ns2_links.push(Ns2Link::new(config.bandwidth, delay));
        }
        self.channels.push(Channel::new(config, id, &self.streams));
        self.routes_stale = true;
        Ok(id)
    }

    /// Sets a link direction's routing cost (ns-2's `$ns cost`): paths
    /// minimise the sum of costs.
    pub fn set_cost(&mut self, channel: ChannelId, cost: u32) -> Result<(), ConfigError> {
        self.channel_mut(channel)?;
        if cost == 0 {
            return Err(ConfigError::invalid("cost", cost, "must be at least 1"));
        }
        self.costs[channel as usize] = cost;
        self.routes_stale = true;
        Ok(())
    }

    /// Both directions of a link with the same rate, delay and queue
    /// discipline (ns-2's `duplex-link`); returns (a->b, b->a).
    pub fn add_duplex(
        &mut self,
        a: NodeId,
        b: NodeId,
        bandwidth: Bandwidth,
        delay: Duration,
        discipline: Discipline,
    ) -> Result<(ChannelId, ChannelId), ConfigError> {
        let forward = self.add_channel(ChannelConfig::new(a, b, bandwidth, delay, discipline.clone()))?;
        let reverse = self.add_channel(ChannelConfig::new(b, a, bandwidth, delay, discipline))?;
        Ok((forward, reverse))
    }

    /// The (from, to) nodes of a link direction.
    pub fn channel_ends(&self, channel: ChannelId) -> Result<(NodeId, NodeId), ConfigError> {
        self.channel_ends.get(channel as usize).copied().ok_or(ConfigError::UnknownId {
            field: "channel",
            what: "channel",
            id: u64::from(channel),
        })
    }

    pub fn channel_count(&self) -> usize {
        self.channels.len()
    }

    pub fn set_loss(&mut self, channel: ChannelId, loss: Option<LossModel>) -> Result<(), ConfigError> {
        self.channel_mut(channel)?.set_loss(loss);
        Ok(())
    }

    /// Adds a loss model to a channel for the flows `flows` takes (packets
    /// meet the models in the order added); returns its index there.
    pub fn add_loss(&mut self, channel: ChannelId, loss: LossModel, flows: FlowFilter) -> Result<usize, ConfigError> {
        Ok(self.channel_mut(channel)?.add_loss(loss, flows))
    }

    /// Names one more flow in the filter of loss model `index` of a channel.
    pub fn add_loss_flow(&mut self, channel: ChannelId, index: usize, flow: u32) -> Result<(), ConfigError> {
        self.check_flow(flow)?;
        if self.channel_mut(channel)?.add_loss_flow(index, flow) {
            Ok(())
        } else {
            Err(ConfigError::UnknownId { field: "loss", what: "loss model", id: index as u64 })
        }
    }

    fn check_flow(&self, flow: u32) -> Result<(), ConfigError> {
        if (flow as usize) < self.flows.len() {
            Ok(())
        } else {
            Err(unknown_flow(flow, "flow"))
        }
    }

    /// (packets, bytes) waiting in a channel's queue now, and the average
    /// queue of its discipline if it keeps one (RED).
    pub fn queue_now(&mut self, channel: ChannelId) -> Result<(u32, u64, Option<f64>), ConfigError> {
        let now = self.now();
        let c = self.channel_mut(channel)?;
        c.advance(now);
        let (packets, bytes) = c.waiting();
        Ok((packets, bytes, c.average_queue()))
    }

    /// Starts recording the channel's queue length at every change.
    pub fn record_queue(&mut self, channel: ChannelId) -> Result<(), ConfigError> {
        let now = self.now();
        self.channel_mut(channel)?.record_queue(now);
        Ok(())
    }

    /// (time, waiting packets, waiting bytes) at every change since
    /// `record_queue`, up to now.
    pub fn queue_series(&mut self, channel: ChannelId) -> Result<&[(Instant, u32, u64)], ConfigError> {
        let now = self.now();
        let c = self.channel_mut(channel)?;
        c.advance(now);
        Ok(c.queue_series())
    }

    pub fn set_duplication(&mut self, channel: ChannelId, p: f64) -> Result<(), ConfigError> {
        if !(0.0..=1.0).contains(&p) {
            return Err(ConfigError::invalid("duplication", p, "must be between 0 and 1"));
        }
        self.channel_mut(channel)?.set_duplication(p);
        Ok(())
    }

    pub fn set_jitter(&mut self, channel: ChannelId, jitter: Option<Jitter>) -> Result<(), ConfigError> {
        if self.queue.is_ns2_order() && jitter.is_some_and(|j| j.reorder) {
            // ns-2's links keep their order; so does the ns-2 view of a channel.
            return Err(ConfigError::invalid("jitter", "reorder", "cannot reorder packets in ns-2's order"));
        }
        self.channel_mut(channel)?.set_jitter(jitter);
        Ok(())
    }

    /// Adds a UDP source on `src` sending to a counting sink on `dst`.
    pub fn add_udp_flow(
        &mut self,
        name: &str,
        src: NodeId,
        dst: NodeId,
        config: UdpSourceConfig,
    ) -> Result<u32, ConfigError> {
        self.push_udp_flow(name, src, dst, config, UdpRole::Source)
    }

    /// A UDP flow's source, ends and role.
    fn push_udp_flow(
        &mut self,
        name: &str,
        src: NodeId,
        dst: NodeId,
        config: UdpSourceConfig,
        role: UdpRole,
    ) -> Result<u32, ConfigError> {
        let id = self.check_flow_ends(src, dst)?;
        let rng = self.streams.stream(&format!("flow/{id}"));
        let port = UDP_PORT_BASE.wrapping_add(id as u16);
        let ports = config.label.map_or((port, port), |l| (l.src_port, l.dst_port));
        let udp = UdpFlow { ports, source: UdpSource::new(config, rng), role, shaper: None };
        self.flows.push(Flow {
            name: name.to_string(),
            src,
            dst,
            scheduled: false,
            detached: [false; 2],
            transfer: Transfer::Udp(Box::new(udp)),
            monitor: FlowMonitor::default(),
        });
        Ok(id)
    }

    /// Adds a TCP connection from a client on `src` to a server on `dst`.
    pub fn add_tcp_flow(
        &mut self,
        name: &str,
        src: NodeId,
        dst: NodeId,
        config: TcpFlowConfig,
    ) -> Result<u32, ConfigError> {
        let id = self.check_flow_ends(src, dst)?;
        let mut rng = self.streams.stream(&format!("flow/{id}"));
        let iss = (rng.random(), rng.random());
        let ports = config.label.map_or(
            (TCP_CLIENT_PORT_BASE.wrapping_add(id as u16), TCP_SERVER_PORT_BASE.wrapping_add(id as u16)),
            |l| (l.src_port, l.dst_port),
        );
        let tcp = TcpFlow::new(config, ports.0, ports.1, iss, rng);
        self.flows.push(Flow {
            name: name.to_string(),
            src,
            dst,
            scheduled: false,
            detached: [false; 2],
            transfer: Transfer::Tcp(Box::new(tcp)),
            monitor: FlowMonitor::default(),
        });
        Ok(id)
    }

    fn check_flow_ends(&self, src: NodeId, dst: NodeId) -> Result<u32, ConfigError> {
        self.check_node("src", src)?;
        self.check_node("dst", dst)?;
        if src == dst {
            return Err(ConfigError::invalid(
                "dst",
                self.nodes[dst as usize].name.clone(),
                "a flow needs two different nodes",
            ));
        }
        Ok(self.flows.len() as u32)
    }

    /// Puts a token bucket between a UDP flow's source and its node (ns-2's
    /// TBF, `attach-tbf-agent`).
    pub fn shape_flow(&mut self, flow: u32, params: TokenBucketParams) -> Result<(), ConfigError> {
        let f = self.flows.get_mut(flow as usize).ok_or(unknown_flow(flow, "flow"))?;
        match &mut f.transfer {
            Transfer::Udp(u) if matches!(u.role, UdpRole::Source) => {
                u.shaper = Some(TokenBucket::new(params));
                Ok(())
            }
            _ => Err(ConfigError::invalid("flow", f.name.clone(), "only a UDP traffic source can be shaped")),
        }
    }

    /// A UDP traffic source sends with these parameters from now on (see
    /// `UdpSource::retune`); nothing changes for the packets already sent.
    pub fn retune_flow(
        &mut self,
        flow: u32,
        traffic: Traffic,
        size: SizeModel,
        max_packets: Option<u64>,
    ) -> Result<(), ConfigError> {
        let f = self.flows.get_mut(flow as usize).ok_or(unknown_flow(flow, "flow"))?;
        match &mut f.transfer {
            Transfer::Udp(u) if matches!(u.role, UdpRole::Source) => {
                u.source.retune(traffic, size, max_packets);
                Ok(())
            }
            _ => Err(ConfigError::invalid("flow", f.name.clone(), "only a UDP traffic source can be retuned")),
        }
    }

    /// A telnet application draws its next gaps with this mean (ns-2's
    /// Telnet reads interval_ at each packet): the write already scheduled
    /// keeps its time.
    pub fn set_telnet_interval(&mut self, flow: u32, mean_interval: Duration) -> Result<(), ConfigError> {
        let f = self.flows.get_mut(flow as usize).ok_or(unknown_flow(flow, "flow"))?;
        if let Transfer::Tcp(t) = &mut f.transfer {
            if let TcpApp::Telnet { mean_interval: mean, .. } = &mut t.config.app {
                *mean = mean_interval;
                return Ok(());
            }
        }
        Err(ConfigError::invalid("flow", f.name.clone(), "only a telnet application has a mean interval"))
    }

    /// Stops a flow's sender now: a UDP source sends no more, a TCP
    /// application writes no more (data already written is still delivered).
    pub fn stop_flow(&mut self, flow: u32) -> Result<(), ConfigError> {
        let f = self.flows.get_mut(flow as usize).ok_or(unknown_flow(flow, "flow"))?;
        match &mut f.transfer {
            Transfer::Udp(u) => u.source.halt(),
            Transfer::Tcp(t) => t.client.stop_writing(),
        }
        Ok(())
    }

    /// Takes one end of a flow off its node (ns-2's `detach-agent`): the
    /// source (`Side::Client`) or the sink sends and receives nothing more;
    /// packets already in the network still travel and arrive to nobody.
    pub fn detach(&mut self, flow: u32, side: Side) -> Result<(), ConfigError> {
        let f = self.flows.get_mut(flow as usize).ok_or(unknown_flow(flow, "flow"))?;
        f.detached[side as usize] = true;
        if let (Side::Client, Transfer::Udp(u)) = (side, &mut f.transfer) {
            u.source.halt();
        }
        Ok(())
    }

    /// The application on `side` of a TCP flow writes `bytes` more (`None`:
    /// without end) and sends what its window allows.
    pub fn tcp_write(&mut self, flow: u32, side: Side, bytes: Option<u64>) -> Result<(), ConfigError> {
        self.tcp_flow(flow)?;
        let t = self.tcp(flow);
        let started = if side == Side::Client { t.client_started } else { t.server_started };
        let ep = t.endpoint(side);
        match bytes {
            Some(b) => ep.write(b),
            None => ep.write_unlimited(),
        }
        if started {
            self.flush(self.now(), flow, side);
        }
        Ok(())
    }

    /// The application on `side` closes its side of a TCP connection (FIN
    /// after the data written so far).
    pub fn tcp_close(&mut self, flow: u32, side: Side) -> Result<(), ConfigError> {
        self.tcp_flow(flow)?;
        let t = self.tcp(flow);
        let started = if side == Side::Client { t.client_started } else { t.server_started };
        t.endpoint(side).close();
        if started {
            self.flush(self.now(), flow, side);
        }
        Ok(())
    }

    /// A TCP flow's client: highest byte acknowledged and highest byte sent,
    /// counted from its initial sequence number (the SYN and FIN count one
    /// each, as in sequence space).
    pub fn tcp_sequence(&self, flow: u32, side: Side) -> Result<(u64, u64), ConfigError> {
        let t = self.tcp_flow(flow)?;
        let ep = if side == Side::Client { &t.client } else { &t.server };
        Ok((ep.snd_una(), ep.snd_max()))
    }

    /// The connection state of one end of a TCP flow, by RFC 9293's name.
    pub fn tcp_state(&self, flow: u32, side: Side) -> Result<&'static str, ConfigError> {
        let t = self.tcp_flow(flow)?;
        let ep = if side == Side::Client { &t.client } else { &t.server };
        Ok(ep.state().name())
    }

    /// Writes ns-2's event-trace records of a TCP flow's sender (timeouts,
    /// fast retransmits, which its agent calls `fast_retransmit`, and the
    /// slow starts after them) to the traces that show events.
    pub fn trace_tcp_events(&mut self, flow: u32, fast_retransmit: &'static str) -> Result<(), ConfigError> {
        self.tcp_flow(flow)?;
        self.tcp(flow).watch_events(fast_retransmit);
        Ok(())
    }

    /// A TCP flow's sender variables in ns-2's units, by ns-2 name.
    pub fn ns2_vars(&self, flow: u32) -> Result<Vec<(&'static str, VarValue)>, ConfigError> {
        Ok(NS2_VARS.into_iter().zip(self.tcp_flow(flow)?.ns2_vars()).collect())
    }

    pub fn flow_count(&self) -> usize {
        self.flows.len()
    }

    /// Schedules a point at which `run` hands control back to the caller.
    pub fn schedule_callback(&mut self, at: Instant) -> CallbackId {
        let id = self.next_callback;
        self.next_callback += 1;
        let at = at.max(self.now());
        let event = if self.queue.is_ns2_order() {
            // ns-2's `at`: the delay t - now, added to now, in doubles.
            let (now, t) = (self.queue.current_key().ns2_time(), at.as_ps() as f64 / PS_PER_SEC as f64);
            let key = self.queue.ns2_key(now + (t - now).max(0.0));
            self.queue.schedule_keyed(at, key, Event::Callback(id))
        } else {
            self.queue.schedule(at, Event::Callback(id))
        };
        self.callbacks.insert(id, event);
        id
    }

    pub fn cancel_callback(&mut self, id: CallbackId) -> bool {
        self.callbacks.remove(&id).is_some_and(|event| self.queue.cancel(event))
    }

    /// Ends the current `run` at the next event boundary.
    pub fn stop(&mut self) {
        self.stop_requested = true;
        self.interrupted = true;
    }

    /// What interrupted the run: the next notice (the flag stays set, as
    /// more notices or a stop may be waiting) or a stop; `None` clears it.
    #[cold]
    #[inline(never)]
    fn take_interruption(&mut self) -> Option<RunOutcome> {
        if let Some(notice) = self.notices.pop_front() {
            self.in_callback = true;
            return Some(RunOutcome::Notice(notice));
        }
        self.interrupted = false;
        std::mem::take(&mut self.stop_requested).then_some(RunOutcome::Stopped)
    }

    /// Processes events up to and including `until` (or until none remain).
    pub fn run(&mut self, until: Option<Instant>) -> Result<RunOutcome, ConfigError> {
        self.run_at_most(until, u64::MAX)
    }

    /// Like `run`, but pauses with `EventLimit` after `max_events` events,
    /// between two events, so that a front end can look at signals or
    /// report progress and then continue; pausing does not change results.
    pub fn run_at_most(&mut self, until: Option<Instant>, max_events: u64) -> Result<RunOutcome, ConfigError> {
        if until.is_none() {
            if let Some(node) = self.routing_never_idles() {
                let why =
                    format!("node '{node}' runs a routing protocol that sends updates for ever: give an end time");
                return Err(ConfigError::invalid("until", "none", why));
            }
        }
        self.prepare()?;
        self.in_callback = false;
        if let Some((flow, side)) = self.unflushed.take() {
            self.flush(self.now(), flow, side);
        }
        let limit = self.queue.delivered().saturating_add(max_events);
        loop {
            if self.interrupted {
                if let Some(outcome) = self.take_interruption() {
                    return Ok(outcome);
                }
            }
            match self.queue.peek_time() {
                Some(t) if until.is_none_or(|u| t <= u) => {}
                _ => {
                    return Ok(match until {
                        Some(u) => {
                            self.queue.advance_to(u);
                            RunOutcome::Until
                        }
                        None => RunOutcome::Idle,
                    })
                }
            }
            if self.queue.delivered() == limit {
                return Ok(RunOutcome::EventLimit);
            }
            let (now, event) = self.queue.pop().expect("peeked an event");
            match event {
                Event::Arrival(ch) => self.on_arrival(now, ch),
                Event::Departure(flow) => self.on_departure(now, flow),
                Event::TcpTimer(flow, side) => self.on_tcp_timer(now, flow, side),
                Event::AppWake(flow) => self.on_app_wake(now, flow),
                Event::Callback(id) => {
                    self.callbacks.remove(&id);
                    self.in_callback = true;
                    return Ok(RunOutcome::Callback(id));
                }
                Event::LinkChange(schedule) => self.on_link_schedule(now, schedule),
                Event::RoutingTimer(node) => self.on_routing_timer(now, node),
                Event::RouteWaitExpiry(node) => self.on_route_wait_expiry(now, node),
                Event::Processed(node) => self.on_processed(now, node),
                Event::NicTimer(nic) => self.on_nic_timer(now, nic),
                Event::FrameArrival(slot, index) => self.on_frame_arrival(now, slot, index),
                Event::Move(id) => self.on_move(now, id),
                Event::LinkLayer(slot) => self.on_link_layer(now, slot),
                Event::HeadRelease(slot) => self.on_head_release(now, slot),
                Event::ShaperWake(flow) => self.on_shaper_wake(now, flow),
            }
        }
    }

    /// Computes routes if the topology changed, checks every flow added
    /// since the last run can reach its sink and schedules those flows.
    fn prepare(&mut self) -> Result<(), ConfigError> {
        let now = self.now();
        if self.routes_stale {
            self.rebuild_routes(now);
        }
        for f in self.flows.iter().filter(|f| !f.scheduled) {
            self.check_path(f)?;
        }
        self.register_flow_views();
        self.tell_flow_ids();
        self.mac_traced = self.tracer.as_ref().is_some_and(|t| t.wants_mac());
        for nic in &mut self.nics {
            nic.mac.set_traced(self.mac_traced);
        }
        for id in 0..self.flows.len() as u32 {
            let f = &mut self.flows[id as usize];
            if std::mem::replace(&mut f.scheduled, true) {
                continue;
            }
            let is_tcp = matches!(f.transfer, Transfer::Tcp(_));
            let first = match &mut f.transfer {
                Transfer::Udp(u) => u.source.first_departure().map(|t| (t, Event::Departure(id))),
                Transfer::Tcp(t) => Some((t.config.start.min(t.config.server_start), Event::AppWake(id))),
            };
            if let Some((t, event)) = first {
                self.schedule_from_now(now, t, event);
            }
            if is_tcp {
                self.trace_initial_vars(now, id);
            }
        }
        Ok(())
    }

    /// A routing message from `node` to the neighbour it reaches over `via`.
    fn send_message(&mut self, now: Instant, node: NodeId, via: NextHop, message: ControlMessage, size: u32) {
        let neighbor = self.neighbor(via);
        let port = message.kind().udp_port();
        let slot = self.store_message(Some((message, via)));
        let transport = Transport::Udp(UdpHeader { src_port: port, dst_port: port });
        let id = self.new_packet(now, CONTROL_FLOW, (node, neighbor), Ecn::NotEct, transport, size, u64::from(slot));
        self.packets[id].ip.ttl = 1;
        match via {
            // Routed like any packet (`forward` sends it on its link), so
            // that the point-to-point fast path stays one inlined send.
            NextHop::Link(_) => self.receive(now, node, id),
            // Straight onto the NIC: a broadcast has no route.
            NextHop::Nic { nic, neighbor } => {
                let sent = RadioEvent::above_mac(WirelessEvent::Send, WirelessLayer::Router, next_hop(neighbor));
                self.trace_radio(now, node, id, sent);
                self.send_on_nic(now, nic, link_address(neighbor), id)
            }
        }
    }

    fn store_message(&mut self, message: Option<(ControlMessage, NextHop)>) -> u32 {
        match self.free_messages.pop() {
            Some(slot) => {
                self.messages[slot as usize] = message;
                slot
            }
            None => {
                self.messages.push(message);
                (self.messages.len() - 1) as u32
            }
        }
    }

    fn release_message(&mut self, slot: u32) -> Option<(ControlMessage, NextHop)> {
        self.free_messages.push(slot);
        self.messages[slot as usize].take()
    }

    /// A packet looped until its time to live ran out.
    #[cold]
    #[inline(never)]
    fn ttl_expired(&mut self, node: NodeId, id: PacketId) {
        self.nodes[node as usize].stats.ttl_drops += 1;
        self.drop_packet(id, None);
    }

    /// Shows a TCP data segment to a channel whose loss model picks
    /// segments by their sequence offset from the sender's ISN.
    #[cold]
    #[inline(never)]
    fn loses_segment(&mut self, ch: ChannelId, id: PacketId) -> bool {
        let packet = &self.packets[id];
        let Transport::Tcp(seg) = packet.transport else { return false };
        let f = &self.flows[packet.flow as usize];
        let Transfer::Tcp(tcp) = &f.transfer else { return false };
        let iss = if packet.ip.src == f.src { tcp.client.iss() } else { tcp.server.iss() };
        let offset = u64::from(seg.seq.0.wrapping_sub(iss));
        seg.payload_len > 0 && self.channels[ch as usize].loses_segment(offset, packet.flow)
    }

    /// Takes a packet out of the network without delivering it, dropped on
    /// `link` (None: at a node: no route, its time to live, a full
    /// processor or interface queue, a frame nobody heard).
    #[cold]
    fn drop_packet(&mut self, id: PacketId, link: Option<ChannelId>) {
        let packet = &self.packets[id];
        if packet.flow == CONTROL_FLOW {
            self.release_message(packet.seq as u32);
        } else if let Some(f) = self.flows.get_mut(packet.flow as usize) {
            // (ARP packets belong to no flow.)
            if packet.ip.src == f.src {
                f.monitor.dropped(link);
            }
        }
        self.packets.free(id);
    }

    /// Frees a packet that was copied on (a frame's original or a copy
    /// nobody took), without counting a drop.
    fn discard_packet(&mut self, id: PacketId) {
        if self.packets[id].flow == CONTROL_FLOW {
            self.release_message(self.packets[id].seq as u32);
        }
        self.packets.free(id);
    }

    /// A second copy of a packet (a duplicating link), with its own
    /// routing message if it carries one.
    fn copy_packet(&mut self, id: PacketId) -> PacketId {
        let mut packet = self.packets[id];
        if packet.flow == CONTROL_FLOW {
            let message = self.messages[packet.seq as usize].clone();
            packet.seq = u64::from(self.store_message(message));
        }
        self.packets.insert(packet)
    }

    /// Schedules `event` at `at` (not before `now`); one at `now` itself
    /// is, in ns-2's order, part of the event being handled, as ns-2 would
    /// act at once.
    fn schedule_from_now(&mut self, now: Instant, at: Instant, event: Event) {
        if at <= now && self.queue.is_ns2_order() {
            let key = self.queue.current_key().then(self.queue.reserve_seq());
            self.queue.schedule_keyed(now, key, event);
        } else {
            self.queue.schedule(at.max(now), event);
        }
    }

    /// Schedules `event` `delay` after `now`; in ns-2's order at the double
    /// ns-2 would compute, the running event's time plus the delay (which
    /// decides the order of events of one instant).
    fn schedule_after(&mut self, now: Instant, delay: Duration, event: Event) {
        if self.queue.is_ns2_order() {
            let key = self.queue.ns2_key(self.queue.current_key().ns2_time() + delay.as_secs_f64());
            self.queue.schedule_keyed(now + delay, key, event);
        } else {
            self.queue.schedule(now + delay, event);
        }
    }

    /// Schedules the arrival event of channel `ch`'s next packet, at `at`.
    #[inline]
    fn schedule_arrival(&mut self, ch: ChannelId, at: Instant) {
        // A channel whose discipline ns-2 lacks (CoDel, ...) keeps no keys.
        let key = if self.queue.is_ns2_order() {
            self.channels[ch as usize].ns2_key(&self.ns2_links[ch as usize], at)
        } else {
            None
        };
        match key {
            Some(key) => self.queue.schedule_keyed(at, key, Event::Arrival(ch)),
            None => self.queue.schedule(at, Event::Arrival(ch)),
        };
    }

    fn on_arrival(&mut self, now: Instant, ch: ChannelId) {
        let node = self.channels[ch as usize].to;
        if self.channels[ch as usize].holds() {
            self.collect_queue_events(now, ch);
        }
        // In ns-2's order the event's key is its (first) packet's.
        while let Some(arrival) = self.channels[ch as usize].pop_due(now) {
            if let Some(link) = self.ns2_links.get_mut(ch as usize) {
                link.arrived();
            }
            if arrival.lost || arrival.duplicated || self.tracer.is_some() {
                self.arrival_slow_path(now, ch, node, arrival);
            } else {
                self.receive(now, node, arrival.packet);
            }
        }
        if let Some(t) = self.channels[ch as usize].rearm(now) {
            self.schedule_arrival(ch, t);
        }
    }

    // Out of line: a UDP departure is rare next to the arrivals and TCP
    // events the loop inlines.
    #[inline(never)]
    fn on_departure(&mut self, now: Instant, id: u32) {
        let flow = &mut self.flows[id as usize];
        let (src, dst) = (flow.src, flow.dst);
        let Transfer::Udp(udp) = &mut flow.transfer else { return };
        if udp.source.is_halted() {
            return; // stopped after this departure was scheduled
        }
        match udp.role {
            UdpRole::Source => {}
            UdpRole::Echo | UdpRole::Messages { .. } => return self.send_on_demand(now, id),
        }
        let (size, next) = udp.source.emit(now, &mut self.ns2_rng);
        let shaped = udp.shaper.is_some();
        let ecn = if udp.source.config.ecn { Ecn::Ect0 } else { Ecn::NotEct };
        let transport = Transport::Udp(UdpHeader { src_port: udp.ports.0, dst_port: udp.ports.1 });
        let seq = flow.monitor.tx_packets;
        flow.monitor.sent(now, size);
        if let Some(t) = next {
            self.queue.schedule(t, Event::Departure(id));
        }
        let packet = self.new_packet(now, id, (src, dst), ecn, transport, size, seq);
        if !shaped {
            return self.receive(now, src, packet);
        }
        let Transfer::Udp(udp) = &mut self.flows[id as usize].transfer else { return };
        match udp.shaper.as_mut().map(|s| s.offer(now, packet, size)) {
            None | Some(Shaped::Send) => self.receive(now, src, packet),
            Some(Shaped::Queued(wake)) => {
                if let Some(t) = wake {
                    self.queue.schedule(t, Event::ShaperWake(id));
                }
            }
            Some(Shaped::Dropped) => self.packets.free(packet),
        }
    }

    #[inline(never)]
    fn on_shaper_wake(&mut self, now: Instant, id: u32) {
        let flow = &mut self.flows[id as usize];
        let src = flow.src;
        let Transfer::Udp(udp) = &mut flow.transfer else { return };
        let Some((packet, next)) = udp.shaper.as_mut().and_then(|s| s.release(now)) else { return };
        if let Some(t) = next {
            self.queue.schedule(t, Event::ShaperWake(id));
        }
        self.receive(now, src, packet);
    }

    /// Puts a new packet into the network's pool.
    #[allow(clippy::too_many_arguments)]
    fn new_packet(
        &mut self,
        now: Instant,
        flow: u32,
        (src, dst): (NodeId, NodeId),
        ecn: Ecn,
        transport: Transport,
        size: u32,
        seq: u64,
    ) -> PacketId {
        self.next_uid += 1;
        self.packets.insert(Packet {
            uid: self.next_uid - 1,
            ip: Ipv4Header { src, dst, ttl: INITIAL_TTL, ecn },
            transport,
            size,
            flow,
            seq,
            created: now,
        })
    }

    fn tcp(&mut self, flow: u32) -> &mut TcpFlow {
        match &mut self.flows[flow as usize].transfer {
            Transfer::Tcp(t) => t,
            Transfer::Udp(_) => unreachable!("TCP events name TCP flows"),
        }
    }

    fn on_app_wake(&mut self, now: Instant, id: u32) {
        let next = self.tcp(id).on_app_wake(now);
        if let Some(t) = next {
            self.schedule_from_now(now, t, Event::AppWake(id));
        }
        self.flush(now, id, Side::Server);
        self.flush(now, id, Side::Client);
    }

    fn on_tcp_timer(&mut self, now: Instant, id: u32, side: Side) {
        if self.flows[id as usize].detached[side as usize] {
            return;
        }
        let flow = self.tcp(id);
        if !flow.timer_events[side as usize].fire(now) {
            return;
        }
        let ep = flow.endpoint(side);
        if ep.poll_at().is_some_and(|t| t <= now) {
            ep.on_timer(now);
        }
        self.flush(now, id, side);
    }

    /// A TCP segment reached its destination node.
    fn receive_tcp(&mut self, now: Instant, node: NodeId, packet: PacketId) {
        let p = &self.packets[packet];
        let Transport::Tcp(seg) = &p.transport else { unreachable!("only TCP packets come here") };
        let (id, ecn) = (p.flow, p.ip.ecn);
        let f = &mut self.flows[id as usize];
        let side = if node == f.src { Side::Client } else { Side::Server };
        if f.detached[side as usize] {
            return;
        }
        let Transfer::Tcp(flow) = &mut f.transfer else { unreachable!("TCP packets name TCP flows") };
        let ep = flow.endpoint(side);
        if matches!(ep.state(), State::Closed) {
            // No connection here: refuse with a reset (RFC 9293 §3.10.7.1).
            if let Some(rst) = Endpoint::reset_for(seg) {
                let bytes = rst.wire_len();
                self.send_segment(now, id, node, rst, bytes, Ecn::NotEct);
            }
            return;
        }
        ep.on_segment(now, seg, ecn);
        let watched = flow.watch[side as usize].is_some();
        if let Some(t) = flow.after_input(now, side) {
            self.schedule_from_now(now, t, Event::AppWake(id));
        }
        if watched && self.check_watch(id, side) {
            // The front end's application acts first, as ns-2's does inside
            // its agent's recv, so that what it writes carries this ACK.
            self.unflushed = Some((id, side));
            return;
        }
        self.flush(now, id, side);
    }

    /// Sends what an endpoint has to send and re-arms its timer.
    fn flush(&mut self, now: Instant, id: u32, side: Side) {
        let f = &self.flows[id as usize];
        if f.detached[side as usize] {
            return;
        }
        let node = if side == Side::Client { f.src } else { f.dst };
        // Traced variables are written as ns-2 writes them: what the input
        // changed first, then maxseq_ after each segment sent; the first
        // segment after a window cut carries ns-2's `A` flag.
        let tracing = self.tracer.is_some();
        let tracing_sender = side == Side::Client && tracing;
        if tracing_sender {
            self.record_tcp_events(now, id);
            self.trace_tcp_vars(now, id);
        }
        let mut seg = TcpRepr::default();
        loop {
            let ep = self.tcp(id).endpoint(side);
            let sent_before = ep.snd_max();
            let Some(ecn) = ep.poll_transmit(now, &mut seg) else { break };
            let bytes = ep.segment_len(&seg);
            if tracing {
                self.mark_traced_segment(id, side, sent_before, &seg);
            }
            self.send_segment(now, id, node, seg, bytes, ecn);
            if tracing_sender {
                self.trace_tcp_vars(now, id);
            }
        }
        let Transfer::Tcp(flow) = &mut self.flows[id as usize].transfer else { unreachable!("TCP flow") };
        let send_delay = flow.draw_send_delay(now, side, self.ns2_rng.as_mut());
        if side == Side::Client {
            flow.note_cwnd(now);
        }
        flow.sample_series(now);
        if self.queue.is_ns2_order() {
            self.arm_ns2_timer(now, id, side, send_delay);
            return;
        }
        let wake = flow.endpoint(side).poll_at().map(|t| t.max(now));
        if let Some(t) = wake.filter(|&t| flow.timer_events[side as usize].arm(t)) {
            self.queue.schedule(t, Event::TcpTimer(id, side));
        }
    }

    /// The flags ns-2 would show on `seg`, just polled from `side` (which had
    /// sent up to `sent_before`): `A` on the first segment after a window
    /// cut (of the one-way sender; of either side of a FullTcp, and only on
    /// new data), and FullTcp's PSH.
    #[cold]
    #[inline(never)]
    fn mark_traced_segment(&mut self, id: u32, side: Side, sent_before: u64, seg: &TcpRepr) {
        let uid = self.next_uid;
        let flow = self.tcp(id);
        let ep = flow.endpoint(side);
        let cfg = ep.config();
        let (marking, push) = match cfg.ns2_full_tcp {
            true => (ep.snd_max() > sent_before && seg.payload_len > 0, ep.ns2_push(seg)),
            // With ns-2's ECN the segment's CWR is its congestion action.
            false => (side == Side::Client && !(cfg.ns2_ecn && cfg.ecn), false),
        };
        let cut = marking && flow.congestion_action_due(side);
        let tracer = self.tracer();
        if push {
            tracer.mark_push(uid);
        }
        if cut {
            tracer.mark_congestion_action(uid);
        }
    }

    /// `flush`'s re-arming in ns-2's order: the earliest of the endpoint's
    /// timers, each keyed as ns-2 schedules it (`Ns2Timers`).
    fn arm_ns2_timer(&mut self, now: Instant, id: u32, side: Side, send_delay: Option<f64>) {
        let Transfer::Tcp(flow) = &mut self.flows[id as usize].transfer else { unreachable!("TCP flow") };
        let during = self.queue.current_key();
        let queue = &mut self.queue;
        let ep = match side {
            Side::Client => &flow.client,
            Side::Server => &flow.server,
        };
        let earliest = flow.ns2_timers[side as usize].update(ep, (now, during), send_delay, || queue.reserve_seq());
        let earliest = earliest.map(|(t, key)| (t.max(now), key));
        if let Some((t, key)) = earliest.filter(|&(t, _)| flow.timer_events[side as usize].arm(t)) {
            self.queue.schedule_keyed(t, key, Event::TcpTimer(id, side));
        }
    }

    /// Always inlined: a segment is large, and passing it by value costs more
    /// than the sending itself.
    #[inline(always)]
    /// `tcp_bytes`: the segment's size as its sender counts it
    /// (`Endpoint::segment_len`).
    fn send_segment(&mut self, now: Instant, id: u32, node: NodeId, seg: TcpRepr, tcp_bytes: u32, ecn: Ecn) {
        let f = &mut self.flows[id as usize];
        let size = ackclock_net::packet::IPV4_HEADER_BYTES + tcp_bytes;
        let peer = if node == f.src {
            f.monitor.sent(now, size);
            f.dst
        } else {
            f.src
        };
        let seq = u64::from(seg.seq.0);
        let packet = self.new_packet(now, id, (node, peer), ecn, Transport::Tcp(seg), size, seq);
        self.receive(now, node, packet);
    }

    /// A packet enters `node`'s network layer, arriving or sent by one of
    /// its applications: its processor handles it first, if it has one.
    #[inline(always)]
    fn receive(&mut self, now: Instant, node: NodeId, id: PacketId) {
        if self.processors {
            self.process(now, node, id);
        } else {
            self.forward(now, node, id);
        }
    }

    /// Hands a packet that is at `node` to its sink or to the next channel.
    fn forward(&mut self, now: Instant, node: NodeId, id: PacketId) {
        let packet = &mut self.packets[id];
        if packet.ip.dst == node {
            self.deliver(now, node, id);
            return;
        }
        // A routing message leaves where its protocol sends it: a protocol
        // such as AODV has no route to a neighbour before it hears from it.
        let hop = if packet.flow == CONTROL_FLOW {
            self.messages[packet.seq as usize].as_ref().map(|&(_, via)| via)
        } else {
            self.fib.next_hop(node, packet.ip.dst)
        };
        let Some(hop) = hop else {
            self.no_route(now, node, id);
            return;
        };
        if node != packet.ip.src {
            if packet.ip.ttl <= 1 {
                self.ttl_expired(node, id);
                return;
            }
            packet.ip.ttl -= 1;
        }
        let ch = match hop {
            NextHop::Link(ch) => ch,
            NextHop::Nic { nic, neighbor } => {
                self.forward_on_nic(now, node, nic, neighbor, id);
                return;
            }
        };
        self.offer(now, ch, id, false);
    }

    /// Offers a packet to channel `ch`; `past_losses` when an error model
    /// at its head has held it already.
    #[inline(always)]
    fn offer(&mut self, now: Instant, ch: ChannelId, id: PacketId, past_losses: bool) {
        let packet = &self.packets[id];
        let (size, flow, ecn_capable) = (packet.size, packet.flow, packet.ip.ecn.is_capable());
        let ends = (packet.ip.src, packet.ip.dst);
        let segment_lost = !past_losses && self.channels[ch as usize].picks_segments() && self.loses_segment(ch, id);
        let ns2 = match self.ns2_links.get_mut(ch as usize) {
            Some(link) => Some((link, Ns2Offer { during: self.queue.current_key(), seq: self.queue.reserve_seq() })),
            None => None,
        };
        let channel = &mut self.channels[ch as usize];
        let outcome = if segment_lost {
            SendOutcome::Dropped(DropReason::Loss)
        } else if past_losses {
            channel.send_past_losses(now, ns2, id, size, flow, ends, ecn_capable, &mut self.ns2_rng)
        } else {
            channel.send(now, ns2, id, size, flow, ends, ecn_capable, &mut self.ns2_rng)
        };
        if self.tracer.is_some() {
            self.trace_send(now, ch, self.packets[id], outcome);
        }
        match outcome {
            SendOutcome::Accepted { wake, ce_marked, .. } | SendOutcome::Held { wake, ce_marked } => {
                if ce_marked {
                    self.packets[id].ip.ecn = Ecn::Ce;
                }
                if matches!(outcome, SendOutcome::Held { .. }) {
                    self.collect_queue_events(now, ch);
                }
                if let Some(t) = wake {
                    self.schedule_arrival(ch, t);
                }
            }
            SendOutcome::Delayed(delay) => self.hold_at_head(now + delay, ch, id),
            SendOutcome::Dropped(_) => self.drop_packet(id, Some(ch)),
        }
    }

    #[cold]
    #[inline(never)]
    fn hold_at_head(&mut self, until: Instant, ch: ChannelId, id: PacketId) {
        let slot = match self.free_held_at_head.pop() {
            Some(slot) => {
                self.held_at_head[slot as usize] = Some((ch, id));
                slot
            }
            None => {
                self.held_at_head.push(Some((ch, id)));
                (self.held_at_head.len() - 1) as u32
            }
        };
        self.queue.schedule(until, Event::HeadRelease(slot));
    }

    fn on_head_release(&mut self, now: Instant, slot: u32) {
        let (ch, id) = self.held_at_head[slot as usize].take().expect("a packet held at a link head");
        self.free_held_at_head.push(slot);
        self.offer(now, ch, id, true);
    }

    /// Applies what a dequeue-time discipline did by `now`: marks and
    /// trace records of the packets it sent, the packets it dropped.
    #[cold]
    #[inline(never)]
    fn collect_queue_events(&mut self, now: Instant, ch: ChannelId) {
        let during = self.queue.current_key();
        loop {
            let link = self.ns2_links.get_mut(ch as usize).map(|link| (link, during));
            let Some(event) = self.channels[ch as usize].take_queue_event(now, link) else { break };
            match event {
                QueueEvent::Sent { at, packet, ce_marked } => {
                    if ce_marked {
                        self.packets[packet].ip.ecn = Ecn::Ce;
                    }
                    if self.tracer.is_some() {
                        self.trace_packet(at, PacketEvent::Dequeue, ch, self.packets[packet]);
                    }
                }
                QueueEvent::Dropped { at, packet } => {
                    if self.tracer.is_some() {
                        self.trace_packet(at, PacketEvent::Drop, ch, self.packets[packet]);
                    }
                    self.drop_packet(packet, Some(ch));
                }
            }
        }
    }

    /// A packet reached its destination: its sink takes it and it leaves
    /// the network.
    fn deliver(&mut self, now: Instant, node: NodeId, id: PacketId) {
        let packet = &self.packets[id];
        if packet.flow == CONTROL_FLOW {
            self.receive_message(now, node, packet.seq as u32);
        } else {
            let f = &mut self.flows[packet.flow as usize];
            // A detached end neither sends nor receives (ns-2's detach-agent).
            let received = !(matches!(packet.transport, Transport::Udp(_)) && f.detached[Side::Server as usize]);
            if received && packet.ip.src == f.src {
                f.monitor.received(now, packet.size, packet.created);
            }
            if matches!(packet.transport, Transport::Tcp(_)) {
                self.receive_tcp(now, node, id);
            } else {
                match &f.transfer {
                    Transfer::Udp(u) if matches!(u.role, UdpRole::Echo) => self.on_echo(now, node, id),
                    Transfer::Udp(u) if matches!(u.role, UdpRole::Messages { .. }) => self.on_message_arrival(id),
                    _ => {}
                }
            }
        }
        self.packets.free(id);
    }

    // --- tracing ---

    /// The tracer, installed on first use; add sinks to it before running.
    pub fn tracer(&mut self) -> &mut Tracer {
        self.tracer.get_or_insert_with(Default::default)
    }

    /// Writes the records due so far and flushes the trace files, keeping
    /// later records (transmissions already scheduled) for a continued run.
    pub fn flush_traces(&mut self) -> std::io::Result<()> {
        let due = self.traced_until();
        self.tracer.as_mut().map_or(Ok(()), |t| t.flush_files(due))
    }

    /// The time up to which trace records are due: now, or during a
    /// callback just before now, since the events at this instant that
    /// come after the callback (a transmission ending now, ...) have not
    /// happened yet, as in ns-2, where a script's `$ns at` runs before the
    /// packet events scheduled later for the same time.
    fn traced_until(&self) -> Instant {
        let now = self.now();
        if self.in_callback {
            Instant::from_ps(now.as_ps().saturating_sub(1))
        } else {
            now
        }
    }

    /// A monitor's counts (ackclock_trace::Monitor) up to now.
    pub fn monitor_counts(
        &mut self,
        monitor: ackclock_trace::SinkId,
    ) -> Result<Vec<(ackclock_trace::FlowKey, ackclock_trace::Counts)>, ConfigError> {
        let due = self.traced_until();
        self.tracer().monitor_counts(monitor, due).ok_or(ConfigError::UnknownId {
            field: "monitor",
            what: "monitor",
            id: u64::from(monitor),
        })
    }

    /// Writes what is due to one trace sink and closes it; the run goes on.
    pub fn remove_trace(&mut self, sink: ackclock_trace::SinkId) -> std::io::Result<()> {
        let due = self.traced_until();
        self.tracer.as_mut().map_or(Ok(()), |t| t.remove_sink(sink, due))
    }

    /// Ends tracing: writes what is due, flushes and closes every sink and
    /// reports the first write error, if any.
    pub fn finish_traces(&mut self) -> std::io::Result<()> {
        let due = self.traced_until();
        let result = self.tracer.as_mut().map_or(Ok(()), |t| t.finish(due));
        self.tracer = None;
        result
    }

    /// Ends tracing without writing what is pending (for a run that failed).
    pub fn discard_traces(&mut self) {
        self.tracer = None;
    }

    /// Disciplines that key their queues by the flows' own ids (ns-2's FQ,
    /// by `fid_`) learn each flow's.
    fn tell_flow_ids(&mut self) {
        if !self.channels.iter().any(Channel::holds) {
            return;
        }
        let fids: Vec<u32> = (0..self.flows.len() as u32).map(|id| self.flow_fid(id)).collect();
        for ch in self.channels.iter_mut().filter(|c| c.holds()) {
            ch.set_flow_ids(&fids);
        }
    }

    /// A flow's id in headers and traces (ns-2's `fid_`).
    fn flow_fid(&self, id: u32) -> u32 {
        let label = match &self.flows[id as usize].transfer {
            Transfer::Udp(u) => u.source.config.label,
            Transfer::Tcp(t) => t.config.label,
        };
        label.map_or(id, |l| l.fid)
    }

    fn register_flow_views(&mut self) {
        if self.tracer.is_none() {
            return;
        }
        for (id, f) in self.flows.iter().enumerate() {
            let view = match &f.transfer {
                Transfer::Udp(u) => FlowView::Udp {
                    type_name: match u.kind() {
                        kind @ ("cbr" | "ping") => kind,
                        _ => "udp",
                    },
                    fid: self.flow_fid(id as u32),
                },
                Transfer::Tcp(t) => FlowView::Tcp {
                    client: f.src,
                    client_iss: t.client.iss(),
                    server_iss: t.server.iss(),
                    mss: t.client.mss(),
                    syn: t.client.config().handshake,
                    fid: self.flow_fid(id as u32),
                    full_tcp: t.client.config().ns2_full_tcp,
                },
            };
            self.tracer.as_mut().expect("tracing").set_flow_view(id as u32, view);
        }
    }

    // The tracing helpers are cold and never inlined so that the event loop
    // stays as compact as without tracing.
    #[cold]
    #[inline(never)]
    fn trace_packet(&mut self, time: Instant, event: PacketEvent, channel: ChannelId, packet: Packet) {
        self.trace_record(self.queue.current_key(), time, event, channel, packet, false);
    }

    /// A packet record that the event at `place` writes in ns-2's order;
    /// `early_drop`: a drop is RED's early drop.
    fn trace_record(
        &mut self,
        place: OrderKey,
        time: Instant,
        event: PacketEvent,
        channel: ChannelId,
        packet: Packet,
        early_drop: bool,
    ) {
        let (now, current) = (self.now(), self.queue.current_key());
        if let Some(tracer) = &mut self.tracer {
            let (from, to) = self.channel_ends[channel as usize];
            let record = PacketRecord { time, event, channel, from, to, packet, congestion_action: false, early_drop };
            tracer.record(TraceRecord::Packet(record), place);
            // Records are produced in time order except `-` records, which
            // are known early; everything up to this event can be written.
            // The event loop itself never looks at the tracer.
            tracer.flush_through(now, current);
        }
    }

    /// An arrival that was lost on the wire, duplicated or is traced: kept
    /// out of line so the common case stays a plain `forward`.
    #[cold]
    #[inline(never)]
    fn arrival_slow_path(&mut self, now: Instant, ch: ChannelId, node: NodeId, arrival: Arrival) {
        let copy = arrival.duplicated.then(|| self.copy_packet(arrival.packet));
        let event = if arrival.lost { PacketEvent::Drop } else { PacketEvent::Receive };
        for id in std::iter::once(arrival.packet).chain(copy) {
            self.trace_packet(now, event, ch, self.packets[id]);
            if arrival.lost {
                self.drop_packet(id, Some(ch));
            } else {
                self.receive(now, node, id);
            }
        }
    }

    /// ns-2's records for a packet offered to a link: `+` and `-` when it
    /// is accepted, `+` and `d` when the queue refuses it, only `d` when the
    /// error model at the link head loses it.
    #[cold]
    #[inline(never)]
    fn trace_send(&mut self, now: Instant, ch: ChannelId, packet: Packet, outcome: SendOutcome) {
        self.trace_red(now, ch);
        match outcome {
            SendOutcome::Accepted { departs, ce_marked, .. } => {
                self.trace_packet(now, PacketEvent::Enqueue, ch, packet);
                // A mark at the arrival shows from the `-` record on, as in ns-2.
                let mut packet = packet;
                if ce_marked {
                    packet.ip.ecn = Ecn::Ce;
                }
                // In ns-2 the event that starts the transmission writes `-`.
                let place = match self.ns2_links.get(ch as usize) {
                    Some(link) => link.last_start_key(),
                    None => self.queue.current_key(),
                };
                self.trace_record(place, departs, PacketEvent::Dequeue, ch, packet, false);
            }
            // Its `-` or `d` record comes when the discipline decides.
            SendOutcome::Held { .. } => self.trace_packet(now, PacketEvent::Enqueue, ch, packet),
            SendOutcome::Dropped(reason @ (DropReason::Queue | DropReason::EarlyDrop)) => {
                self.trace_packet(now, PacketEvent::Enqueue, ch, packet);
                let place = self.queue.current_key();
                let early_drop = reason == DropReason::EarlyDrop;
                self.trace_record(place, now, PacketEvent::Drop, ch, packet, early_drop);
            }
            SendOutcome::Dropped(DropReason::Loss) => self.trace_packet(now, PacketEvent::Drop, ch, packet),
            // ns-2's dynamic link drops these without a trace record; a
            // held packet has its records when it enters the queue.
            SendOutcome::Dropped(DropReason::LinkDown) | SendOutcome::Delayed(_) => {}
        }
    }

    /// What a traced RED queue saw at an arrival (its sink writes what
    /// changed).
    fn trace_red(&mut self, now: Instant, ch: ChannelId) {
        let tracer = self.tracer.as_mut().expect("called while tracing");
        if let Some((queue, average)) = self.channels[ch as usize].red_seen().filter(|_| tracer.wants_red(ch)) {
            let rec = RedQueueRecord { time: now, channel: ch, queue, average };
            tracer.record(TraceRecord::RedQueue(rec), self.queue.current_key());
        }
    }

    /// Event-trace records for what the client's last input did.
    #[cold]
    #[inline(never)]
    fn record_tcp_events(&mut self, now: Instant, id: u32) {
        let (src, dst) = (self.flows[id as usize].src, self.flows[id as usize].dst);
        let flow = self.tcp(id);
        let fid = flow.config.label.map_or(id, |l| l.fid);
        let events = flow.ns2_events();
        let place = self.queue.current_key();
        let tracer = self.tracer.as_mut().expect("called while tracing");
        for (event, seqno, cwnd) in events {
            let rec = TcpEventRecord { time: now, src, dst, event, fid, seqno, cwnd };
            tracer.record(TraceRecord::TcpEvent(rec), place);
        }
    }

    /// Variable-trace records for the client's variables that changed.
    #[cold]
    #[inline(never)]
    fn trace_tcp_vars(&mut self, now: Instant, id: u32) {
        // Called after the input and after each segment sent: the state the
        // sender's next events start from (TcpFlow::ns2_events).
        self.tcp(id).note_sent_for_events();
        if !self.tracer.as_ref().is_some_and(|t| t.wants_vars()) {
            return;
        }
        let (src, dst) = (self.flows[id as usize].src, self.flows[id as usize].dst);
        let flow = self.tcp(id);
        let agent = (src, flow.client.local_port());
        let peer = Some((dst, flow.server.local_port()));
        let changed = flow.changed_ns2_vars();
        let place = self.queue.current_key();
        let tracer = self.tracer.as_mut().expect("checked above");
        for (name, value) in changed {
            tracer.record(TraceRecord::Var(VarRecord { time: now, flow: id, agent, peer, name, value }), place);
        }
        tracer.flush_through(now, place);
    }

    /// The traced variables' values when the flow is set up, with no peer
    /// yet, as ns-2's `tracevar` writes them.
    #[cold]
    #[inline(never)]
    fn trace_initial_vars(&mut self, now: Instant, id: u32) {
        if !self.tracer.as_ref().is_some_and(|t| t.wants_vars()) {
            return;
        }
        let src = self.flows[id as usize].src;
        let flow = self.tcp(id);
        let agent = (src, flow.client.local_port());
        let values = flow.initial_ns2_vars();
        let place = self.queue.current_key();
        let tracer = self.tracer.as_mut().expect("checked above");
        for (name, value) in NS2_VARS.into_iter().zip(values) {
            let record = VarRecord { time: now, flow: id, agent, peer: None, name, value };
            tracer.record(TraceRecord::Var(record), place);
        }
    }

    pub fn link_report(&mut self, channel: ChannelId) -> Result<LinkReport, ConfigError> {
        let now = self.now();
        let (src, dst) = *self.channel_ends.get(channel as usize).ok_or(ConfigError::UnknownId {
            field: "channel",
            what: "channel",
            id: u64::from(channel),
        })?;
        let c = &mut self.channels[channel as usize];
        c.advance(now);
        let elapsed = now.as_ps() as f64;
        let per_time = |x: f64| if elapsed > 0.0 { x / elapsed } else { 0.0 };
        let s = c.stats();
        let busy = c.busy_time(now).as_ps() as f64;
        let active =
            s.first_tx_start.map_or(0.0, |first| c.busy_until().min(now).saturating_since(first).as_ps() as f64);
        Ok(LinkReport {
            id: channel,
            src,
            dst,
            bandwidth_bps: c.bandwidth().bps(),
            delay_s: c.delay().as_secs_f64(),
            tx_packets: s.tx_packets,
            tx_bytes: s.tx_bytes,
            queue_drops: s.queue_drops,
            loss_drops: s.loss_drops,
            down_drops: s.down_drops,
            up: c.is_up(),
            ecn_marks: s.ecn_marks,
            utilization: per_time(busy),
            active_s: active / PS_PER_SEC as f64,
            active_utilization: if active > 0.0 { busy / active } else { 0.0 },
            mean_queue_packets: per_time(s.queue_packet_ps as f64),
            mean_queue_bytes: per_time(s.queue_byte_ps as f64),
        })
    }

    /// Fraction of elapsed time with n packets in the system, n = 0, 1, ...
    pub fn occupancy_distribution(&mut self, channel: ChannelId) -> Result<Vec<f64>, ConfigError> {
        let now = self.now();
        let c = self.channel_mut(channel)?;
        c.advance(now);
        if now == Instant::ZERO {
            return Ok(Vec::new()); // no time has elapsed: no distribution yet
        }
        let total = now.as_ps() as f64;
        Ok(c.stats().occupancy.iter().map(|&t| t as f64 / total).collect())
    }

    pub fn flow_report(&self, flow: u32) -> Result<FlowReport, ConfigError> {
        let f = self.flows.get(flow as usize).ok_or(unknown_flow(flow, "flow"))?;
        let (kind, goodput_bps, tcp) = match &f.transfer {
            Transfer::Udp(u) => (u.kind(), udp_goodput_bps(&f.monitor), None),
            Transfer::Tcp(t) => {
                let report = TcpReport::new(t, self.now());
                (t.kind(), tcp_goodput_bps(t, self.now()), Some(report))
            }
        };
        Ok(FlowReport::new(flow, &f.name, (f.src, f.dst), kind, &f.monitor, goodput_bps, tcp))
    }

    /// The recorded window variables of a TCP flow (empty unless requested).
    pub fn tcp_series(&self, flow: u32) -> Result<&[SeriesPoint], ConfigError> {
        Ok(&self.tcp_flow(flow)?.series)
    }

    fn tcp_flow(&self, flow: u32) -> Result<&TcpFlow, ConfigError> {
        match self.flows.get(flow as usize).map(|f| &f.transfer) {
            Some(Transfer::Tcp(t)) => Ok(t),
            _ => Err(unknown_flow(flow, "TCP flow")),
        }
    }

    fn check_node(&self, field: &'static str, id: NodeId) -> Result<(), ConfigError> {
        if (id as usize) < self.nodes.len() {
            Ok(())
        } else {
            Err(ConfigError::UnknownNode { field, id, count: self.nodes.len() })
        }
    }

    fn channel_mut(&mut self, channel: ChannelId) -> Result<&mut Channel, ConfigError> {
        self.channels.get_mut(channel as usize).ok_or(ConfigError::UnknownId {
            field: "channel",
            what: "channel",
            id: u64::from(channel),
        })
    }
}

/// A frame on a shared medium, the NICs that hear it and how many of them
/// have yet to finish receiving it.
struct FrameInFlight {
    frame: Frame,
    duration: Duration,
    receivers: u32,
    receptions: Vec<Reception>,
}

/// Link changes scheduled for a time, or made by a failure model.
struct LinkSchedule {
    channels: Vec<ChannelId>,
    change: LinkChange,
    /// The failure model that made `change`, which makes the next.
    model: Option<(FailureModel, SimRng)>,
}

/// UDP payload bytes delivered over the time from the first packet sent
/// to the last delivered.
fn udp_goodput_bps(m: &FlowMonitor) -> f64 {
    let payload = m.rx_bytes.saturating_sub(u64::from(ackclock_net::packet::UDP_HEADER_BYTES) * m.rx_packets);
    m.active().map_or(0.0, |active| payload as f64 * 8.0 / active.as_secs_f64())
}

/// Bytes delivered in order to the server over the time from the client's
/// start until the transfer (or the last exchange) completed, or until now.
fn tcp_goodput_bps(t: &TcpFlow, now: Instant) -> f64 {
    let elapsed = t.completed_at.unwrap_or(now).saturating_since(t.config.start).as_secs_f64();
    if elapsed > 0.0 {
        t.server.bytes_received() as f64 * 8.0 / elapsed
    } else {
        0.0
    }
}

/// The link-layer address of a neighbour (`BROADCAST`: every NIC in
/// range).
fn link_address(neighbor: NodeId) -> LinkAddress {
    if neighbor == BROADCAST {
        LinkAddress::Broadcast
    } else {
        LinkAddress::Node(neighbor)
    }
}

fn unknown_flow(flow: u32, what: &'static str) -> ConfigError {
    ConfigError::UnknownId { field: "flow", what, id: u64::from(flow) }
}
