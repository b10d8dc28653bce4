//! The simulation world and its event loop.

use crate::error::ConfigError;
use crate::flow::FlowStats;
use crate::report::{FlowReport, LinkReport};
use crate::source::{Traffic, UdpSource, UdpSourceConfig};
use ackclock_core::{EventId, EventQueue, Instant, RngStreams, PS_PER_SEC};
use ackclock_net::{
    Channel, ChannelConfig, ChannelId, Ecn, Ipv4Header, Jitter, LossModel, NodeId, Packet, RoutingTable, SendOutcome,
    Transport, UdpHeader,
};
use std::collections::HashMap;

/// Names a callback scheduled with [`Simulation::schedule_callback`].
pub type CallbackId = u64;

const INITIAL_TTL: u8 = 64;
const UDP_PORT_BASE: u16 = 10_000;

#[derive(Clone, Copy, Debug)]
enum Event {
    /// The head of a channel's arrival line reaches the far node.
    Arrival(ChannelId),
    /// A source's next packet is due.
    Departure(u32),
    /// Control returns to the caller of `run`.
    Callback(CallbackId),
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
}

struct Flow {
    name: String,
    src: NodeId,
    dst: NodeId,
    port: u16,
    source: UdpSource,
    /// Whether the first departure has been put in the event queue.
    scheduled: bool,
    stats: FlowStats,
}

pub struct Simulation {
    streams: RngStreams,
    queue: EventQueue<Event>,
    node_names: Vec<String>,
    channels: Vec<Channel>,
    channel_ends: Vec<(NodeId, NodeId)>,
    /// `None` when the topology changed since the routes were computed.
    routes: Option<RoutingTable>,
    flows: Vec<Flow>,
    callbacks: HashMap<CallbackId, EventId>,
    next_callback: CallbackId,
    next_uid: u64,
    stop_requested: bool,
}

impl Simulation {
    pub fn new(seed: u64, replication: u64) -> Self {
        Simulation {
            streams: RngStreams::new(seed, replication),
            queue: EventQueue::new(),
            node_names: Vec::new(),
            channels: Vec::new(),
            channel_ends: Vec::new(),
            routes: None,
            flows: Vec::new(),
            callbacks: HashMap::new(),
            next_callback: 0,
            next_uid: 0,
            stop_requested: false,
        }
    }

    pub fn now(&self) -> Instant {
        self.queue.now()
    }

    /// Events processed so far.
    pub fn events(&self) -> u64 {
        self.queue.delivered()
    }

    pub fn streams(&self) -> RngStreams {
        self.streams
    }

    pub fn add_node(&mut self, name: &str) -> NodeId {
        self.node_names.push(name.to_string());
        (self.node_names.len() - 1) as NodeId
    }

    pub fn node_name(&self, node: NodeId) -> Result<&str, ConfigError> {
        self.check_node("node", node)?;
        Ok(&self.node_names[node as usize])
    }

    pub fn node_count(&self) -> usize {
        self.node_names.len()
    }

    /// Adds a simplex link direction.
    pub fn add_channel(&mut self, config: ChannelConfig) -> Result<ChannelId, ConfigError> {
        self.check_node("src", config.from)?;
        self.check_node("dst", config.to)?;
        let name = |n: NodeId| self.node_names[n as usize].clone();
        if config.from == config.to {
            return Err(ConfigError::SelfLoop { node: name(config.from) });
        }
        if self.channel_ends.contains(&(config.from, config.to)) {
            return Err(ConfigError::DuplicateChannel { from: name(config.from), to: name(config.to) });
        }
        let id = self.channels.len() as ChannelId;
        self.channel_ends.push((config.from, config.to));
        self.channels.push(Channel::new(config, id, &self.streams));
        self.routes = None;
        Ok(id)
    }

    pub fn channel_count(&self) -> usize {
        self.channels.len()
    }

    pub fn set_loss(&mut self, channel: ChannelId, loss: Option<LossModel>) -> Result<(), ConfigError> {
        self.channel_mut(channel)?.set_loss(loss);
        Ok(())
    }

    pub fn set_jitter(&mut self, channel: ChannelId, jitter: Option<Jitter>) -> Result<(), ConfigError> {
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
        self.check_node("src", src)?;
        self.check_node("dst", dst)?;
        if src == dst {
            return Err(ConfigError::invalid(
                "dst",
                self.node_names[dst as usize].clone(),
                "a flow needs two different nodes",
            ));
        }
        let id = self.flows.len() as u32;
        let rng = self.streams.stream(&format!("flow/{id}"));
        self.flows.push(Flow {
            name: name.to_string(),
            src,
            dst,
            port: UDP_PORT_BASE.wrapping_add(id as u16),
            source: UdpSource::new(config, rng),
            scheduled: false,
            stats: FlowStats::default(),
        });
        Ok(id)
    }

    pub fn flow_count(&self) -> usize {
        self.flows.len()
    }

    /// Schedules a point at which `run` hands control back to the caller.
    pub fn schedule_callback(&mut self, at: Instant) -> CallbackId {
        let id = self.next_callback;
        self.next_callback += 1;
        let event = self.queue.schedule(at.max(self.now()), Event::Callback(id));
        self.callbacks.insert(id, event);
        id
    }

    pub fn cancel_callback(&mut self, id: CallbackId) -> bool {
        self.callbacks.remove(&id).is_some_and(|event| self.queue.cancel(event))
    }

    /// Ends the current `run` at the next event boundary.
    pub fn stop(&mut self) {
        self.stop_requested = true;
    }

    /// Processes events up to and including `until` (or until none remain).
    pub fn run(&mut self, until: Option<Instant>) -> Result<RunOutcome, ConfigError> {
        self.prepare()?;
        loop {
            if std::mem::take(&mut self.stop_requested) {
                return Ok(RunOutcome::Stopped);
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
            let (now, event) = self.queue.pop().expect("peeked an event");
            match event {
                Event::Arrival(ch) => self.on_arrival(now, ch),
                Event::Departure(flow) => self.on_departure(now, flow),
                Event::Callback(id) => {
                    self.callbacks.remove(&id);
                    return Ok(RunOutcome::Callback(id));
                }
            }
        }
    }

    /// Computes routes if the topology changed, checks every flow can reach
    /// its sink and schedules flows added since the last run.
    fn prepare(&mut self) -> Result<(), ConfigError> {
        if self.routes.is_none() {
            self.routes = Some(RoutingTable::shortest_paths(self.node_names.len(), &self.channel_ends));
        }
        let routes = self.routes.as_ref().expect("just computed");
        for f in &self.flows {
            if routes.next_hop(f.src, f.dst).is_none() {
                return Err(ConfigError::Unreachable {
                    flow: f.name.clone(),
                    src: self.node_names[f.src as usize].clone(),
                    dst: self.node_names[f.dst as usize].clone(),
                });
            }
        }
        let now = self.now();
        for (id, f) in self.flows.iter_mut().enumerate() {
            if !std::mem::replace(&mut f.scheduled, true) {
                if let Some(t) = f.source.first_departure() {
                    self.queue.schedule(t.max(now), Event::Departure(id as u32));
                }
            }
        }
        Ok(())
    }

    fn on_arrival(&mut self, now: Instant, ch: ChannelId) {
        let node = self.channels[ch as usize].to;
        while let Some(arrival) = self.channels[ch as usize].pop_due(now) {
            if !arrival.lost {
                self.forward(now, node, arrival.packet);
            }
        }
        if let Some(t) = self.channels[ch as usize].rearm(now) {
            self.queue.schedule(t, Event::Arrival(ch));
        }
    }

    fn on_departure(&mut self, now: Instant, id: u32) {
        let flow = &mut self.flows[id as usize];
        let (size, next) = flow.source.emit(now);
        let ecn = if flow.source.config.ecn { Ecn::Ect0 } else { Ecn::NotEct };
        let packet = Packet {
            uid: self.next_uid,
            ip: Ipv4Header { src: flow.src, dst: flow.dst, ttl: INITIAL_TTL, ecn },
            transport: Transport::Udp(UdpHeader { src_port: flow.port, dst_port: flow.port }),
            size,
            flow: id,
            seq: flow.stats.tx_packets,
            created: now,
        };
        self.next_uid += 1;
        flow.stats.tx_packets += 1;
        flow.stats.tx_bytes += u64::from(size);
        let src = flow.src;
        if let Some(t) = next {
            self.queue.schedule(t, Event::Departure(id));
        }
        self.forward(now, src, packet);
    }

    /// Hands a packet that is at `node` to its sink or to the next channel.
    fn forward(&mut self, now: Instant, node: NodeId, mut packet: Packet) {
        if packet.ip.dst == node {
            let stats = &mut self.flows[packet.flow as usize].stats;
            stats.rx_packets += 1;
            stats.rx_bytes += u64::from(packet.size);
            stats.delay.record((now - packet.created).as_ps());
            return;
        }
        let routes = self.routes.as_ref().expect("routes are computed before any event");
        let Some(ch) = routes.next_hop(node, packet.ip.dst) else {
            return; // prepare() checked every flow, so only a stray packet lands here
        };
        if node != packet.ip.src {
            packet.ip.ttl = packet.ip.ttl.saturating_sub(1);
        }
        if let SendOutcome::Accepted { wake: Some(t) } = self.channels[ch as usize].send(now, packet) {
            self.queue.schedule(t, Event::Arrival(ch));
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
            ecn_marks: s.ecn_marks,
            utilization: per_time(c.busy_time(now).as_ps() as f64),
            mean_queue_packets: per_time(s.queue_packet_ps as f64),
            mean_queue_bytes: per_time(s.queue_byte_ps as f64),
        })
    }

    /// Fraction of elapsed time with n packets in the system, n = 0, 1, ...
    pub fn occupancy_distribution(&mut self, channel: ChannelId) -> Result<Vec<f64>, ConfigError> {
        let now = self.now();
        let c = self.channel_mut(channel)?;
        c.advance(now);
        let total = now.as_ps() as f64;
        Ok(c.stats().occupancy.iter().map(|&t| if total > 0.0 { t as f64 / total } else { 0.0 }).collect())
    }

    pub fn flow_report(&self, flow: u32) -> Result<FlowReport, ConfigError> {
        let f = self.flows.get(flow as usize).ok_or(ConfigError::UnknownId {
            field: "flow",
            what: "flow",
            id: u64::from(flow),
        })?;
        let secs = |ps: u64| ps as f64 / PS_PER_SEC as f64;
        let d = &f.stats.delay;
        Ok(FlowReport {
            id: flow,
            name: f.name.clone(),
            src: f.src,
            dst: f.dst,
            kind: match f.source.config.traffic {
                Traffic::Cbr { .. } => "cbr",
                Traffic::Poisson { .. } => "poisson",
                Traffic::OnOff { .. } => "on_off",
            },
            tx_packets: f.stats.tx_packets,
            tx_bytes: f.stats.tx_bytes,
            rx_packets: f.stats.rx_packets,
            rx_bytes: f.stats.rx_bytes,
            mean_delay_s: d.mean().map(|m| m / PS_PER_SEC as f64),
            delay_p50_s: d.quantile(0.5).map(secs),
            delay_p95_s: d.quantile(0.95).map(secs),
            delay_p99_s: d.quantile(0.99).map(secs),
            max_delay_s: d.max().map(secs),
        })
    }

    fn check_node(&self, field: &'static str, id: NodeId) -> Result<(), ConfigError> {
        if (id as usize) < self.node_names.len() {
            Ok(())
        } else {
            Err(ConfigError::UnknownNode { field, id, count: self.node_names.len() })
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
