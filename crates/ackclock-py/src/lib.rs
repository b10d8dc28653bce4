//! `ackclock._native`: the Rust core as a Python extension module.
//!
//! This crate only validates, converts, calls the core and maps errors to
//! Python exceptions; `_native.pyi` documents its surface. A panic in the
//! core surfaces as SimulationError and poisons the simulation, so a bug
//! never aborts the interpreter or yields results from a broken state.
#![forbid(unsafe_code)]

mod results;
mod spec;

use ackclock_core::{units, Duration, Instant, Mrg32k3a as CoreMrg32k3a, UnitError as CoreUnitError};
use ackclock_net::{ChannelConfig, FlowFilter, NextHop, NodeId};
use ackclock_sim::{
    ConfigError as CoreConfigError, FlowLabel, Notice, RunOutcome, Side, Simulation, TcpFlowConfig, UdpSourceConfig,
    SERIES_NAMES,
};
use ackclock_tcp::Reader;
use ackclock_trace::file::{FileError, OutputFile};
use ackclock_trace::ns2_wireless::{WirelessFormat, WirelessTrace};
use ackclock_trace::pcap::{LinkType, PcapWriter};
use ackclock_trace::tracer::{Capture, Output, Sink, SinkId, TracedVars};
use ackclock_trace::view::{self, IndexError, ViewSink};
use ackclock_trace::{Monitor, RedVars, VarValue};
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Events between two looks at Python's signals: well under a millisecond
/// of simulation, so that Ctrl-C is served at once, while the pause itself
/// (taking the GIL back) costs nothing measurable.
const EVENTS_PER_PAUSE: u64 = 8192;

create_exception!(ackclock._native, UnitError, PyValueError, "A unit string could not be parsed.");
create_exception!(ackclock._native, ConfigError, PyValueError, "A builder argument is invalid.");
create_exception!(ackclock._native, SimulationError, PyRuntimeError, "An internal failure inside the core.");

fn config_err(e: CoreConfigError) -> PyErr {
    ConfigError::new_err(e.to_string())
}

fn unit_err(e: CoreUnitError) -> PyErr {
    UnitError::new_err(e.to_string())
}

#[pyfunction]
fn parse_duration(text: &str) -> PyResult<u64> {
    units::parse_duration(text).map(|d| d.as_ps()).map_err(unit_err)
}

#[pyfunction]
fn parse_bandwidth(text: &str) -> PyResult<u64> {
    units::parse_bandwidth(text).map(|b| b.bps()).map_err(unit_err)
}

#[pyfunction]
fn parse_size(text: &str) -> PyResult<u64> {
    units::parse_size(text).map_err(unit_err)
}

/// The congestion-control registry: each algorithm's name, summary,
/// parameters and the ns-2 agent classes it implements.
#[pyfunction]
fn congestion_controls(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    ackclock_tcp::CcKind::all()
        .map(|a| {
            let d = PyDict::new(py);
            d.set_item("name", a.name)?;
            d.set_item("summary", a.summary)?;
            d.set_item("ns2_agents", a.ns2_agents.to_vec())?;
            let params = a
                .params
                .iter()
                .map(|p| {
                    let pd = PyDict::new(py);
                    pd.set_item("name", p.name)?;
                    pd.set_item("kind", format!("{:?}", p.kind).to_lowercase())?;
                    pd.set_item("default", p.default)?;
                    pd.set_item("min", p.min)?;
                    pd.set_item("max", p.max)?;
                    pd.set_item("help", p.help)?;
                    Ok(pd)
                })
                .collect::<PyResult<Vec<_>>>()?;
            d.set_item("params", params)?;
            Ok(d)
        })
        .collect()
}

/// Indexes the nam trace at `input` into the viewer's file at `output`;
/// returns the index's JSON header.
#[pyfunction]
fn index_nam(py: Python<'_>, input: &str, output: &str) -> PyResult<String> {
    let header =
        py.detach(|| view::index_nam_file(input.as_ref(), output.as_ref())).map_err(|e| index_err(input, e))?;
    Ok(header.to_string())
}

fn index_err(path: &str, e: IndexError) -> PyErr {
    ConfigError::new_err(format!("{path}: {e}"))
}

/// ns-2's default random-number generator (ackclock_core::Mrg32k3a).
#[pyclass(module = "ackclock._native")]
#[derive(Clone)]
struct Mrg32k3a {
    inner: CoreMrg32k3a,
}

#[pymethods]
impl Mrg32k3a {
    #[new]
    fn new(seed: [u64; 6]) -> PyResult<Self> {
        let inner = CoreMrg32k3a::new(seed).map_err(|e| ConfigError::new_err(format!("seed {seed:?}: {e}")))?;
        Ok(Mrg32k3a { inner })
    }

    fn next_u01(&mut self) -> f64 {
        self.inner.next_u01()
    }

    #[getter]
    fn state(&self) -> [u64; 6] {
        self.inner.state()
    }

    fn next_stream(&self) -> Self {
        Mrg32k3a { inner: self.inner.next_stream() }
    }

    fn next_substream(&self) -> Self {
        Mrg32k3a { inner: self.inner.next_substream() }
    }
}

#[pyclass(module = "ackclock._native")]
struct Sim {
    inner: Simulation,
    seed: u64,
    replication: u64,
    /// Set when the core panicked: its state can no longer be trusted.
    poisoned: Option<String>,
    /// The notice the last `run` returned for, until `take_notice`.
    notice: Option<Notice>,
}

impl Sim {
    /// Adds a pcap sink of `capture` whose records start with `link`.
    fn add_pcap(&mut self, py: Python<'_>, path: &str, snaplen: u32, capture: Capture, link: LinkType) -> PyResult<()> {
        let writer =
            PcapWriter::new(trace_file(py, path, false)?, snaplen.max(1), link).map_err(|e| file_err(py, e))?;
        self.guarded(|s| {
            s.tracer().add_sink(Sink::Pcap { out: writer, capture });
            Ok(())
        })
    }

    /// Runs `f` on the simulation, turning a panic into SimulationError.
    fn guarded<T>(&mut self, f: impl FnOnce(&mut Simulation) -> Result<T, CoreConfigError>) -> PyResult<T> {
        if let Some(why) = &self.poisoned {
            return Err(SimulationError::new_err(format!("the simulation failed earlier and cannot continue: {why}")));
        }
        match catch_unwind(AssertUnwindSafe(|| f(&mut self.inner))) {
            Ok(result) => result.map_err(config_err),
            Err(payload) => {
                let why = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                self.poisoned = Some(why.clone());
                Err(SimulationError::new_err(format!("internal error in the simulator core (please report it): {why}")))
            }
        }
    }

    fn node(&self, field: &'static str, id: NodeId) -> PyResult<NodeId> {
        self.inner
            .node_name(id)
            .map(|_| id)
            .map_err(|_| config_err(CoreConfigError::UnknownNode { field, id, count: self.inner.node_count() }))
    }
}

#[pymethods]
impl Sim {
    #[new]
    #[pyo3(signature = (seed = 1, replication = 0))]
    fn new(seed: u64, replication: u64) -> Self {
        Sim { inner: Simulation::new(seed, replication), seed, replication, poisoned: None, notice: None }
    }

    #[getter]
    fn now_ps(&self) -> u64 {
        self.inner.now().as_ps()
    }

    /// The time in seconds: under ns-2's order, the double ns-2's clock holds.
    #[getter]
    fn now_s(&self) -> f64 {
        self.inner.now_seconds()
    }

    #[getter]
    fn events(&self) -> u64 {
        self.inner.events()
    }

    fn add_node(&mut self, name: &str) -> u32 {
        self.inner.add_node(name)
    }

    fn node_name(&self, node: u32) -> PyResult<String> {
        self.inner.node_name(node).map(str::to_string).map_err(config_err)
    }

    #[pyo3(signature = (src, dst, bandwidth_bps, delay_ps, queue, loss = None, jitter = None))]
    #[allow(clippy::too_many_arguments)]
    fn add_channel(
        &mut self,
        src: u32,
        dst: u32,
        bandwidth_bps: u64,
        delay_ps: u64,
        queue: &Bound<'_, PyDict>,
        loss: Option<&Bound<'_, PyDict>>,
        jitter: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<u32> {
        let bandwidth = ackclock_core::Bandwidth::from_bps(bandwidth_bps).ok_or_else(|| {
            config_err(CoreConfigError::invalid("bandwidth", bandwidth_bps, "must be greater than zero"))
        })?;
        let config = ChannelConfig {
            from: self.node("src", src)?,
            to: self.node("dst", dst)?,
            bandwidth,
            delay: Duration::from_ps(delay_ps),
            discipline: spec::discipline(queue).map_err(config_err)?,
            loss: loss.map(spec::loss).transpose().map_err(config_err)?,
            jitter: jitter.map(spec::jitter).transpose().map_err(config_err)?,
        };
        self.guarded(|s| s.add_channel(config))
    }

    /// The routing cost of a link direction (ns-2's `$ns cost`).
    fn set_cost(&mut self, channel: u32, cost: u32) -> PyResult<()> {
        self.guarded(|s| s.set_cost(channel, cost))
    }

    fn set_router(&mut self, node: u32, router: &Bound<'_, PyDict>) -> PyResult<()> {
        let router = spec::router(router).map_err(config_err)?;
        self.guarded(|s| s.set_router(node, router))
    }

    fn add_route(&mut self, node: u32, dst: u32, channel: u32) -> PyResult<()> {
        self.guarded(|s| s.add_route(node, dst, channel))
    }

    fn set_route_wait(&mut self, node: u32, capacity: usize, timeout_ps: u64) -> PyResult<()> {
        self.guarded(|s| s.set_route_wait(node, capacity, Duration::from_ps(timeout_ps)))
    }

    fn record_routes(&mut self) -> PyResult<()> {
        self.guarded(|s| {
            s.record_routes();
            Ok(())
        })
    }

    /// [(time_s, node, dst, next hop or None)] since record_routes().
    fn route_changes(&mut self) -> PyResult<Vec<PyRouteChange>> {
        self.guarded(|s| {
            let hop = |via| hop(s, via);
            Ok(s.route_changes().iter().map(|c| (c.time.as_secs_f64(), c.node, c.dst, c.via.map(hop))).collect())
        })
    }

    /// Where `node` sends packets for each node now, by node id.
    fn routes(&mut self, node: u32) -> PyResult<Vec<Option<PyHop>>> {
        self.guarded(|s| Ok(s.routes(node)?.into_iter().map(|r| r.map(|via| hop(s, via))).collect()))
    }

    fn change_links(&mut self, channels: Vec<u32>, change: &Bound<'_, PyDict>) -> PyResult<()> {
        let change = spec::link_change(change).map_err(config_err)?;
        self.guarded(|s| s.change_links(&channels, change))
    }

    fn schedule_link_change(&mut self, at_ps: u64, channels: Vec<u32>, change: &Bound<'_, PyDict>) -> PyResult<()> {
        let change = spec::link_change(change).map_err(config_err)?;
        self.guarded(|s| s.schedule_link_change(Instant::from_ps(at_ps), &channels, change))
    }

    fn add_failure_model(&mut self, channels: Vec<u32>, model: &Bound<'_, PyDict>) -> PyResult<()> {
        let model = spec::failure_model(model).map_err(config_err)?;
        self.guarded(|s| s.add_failure_model(&channels, model))
    }

    #[pyo3(signature = (node, processing = None))]
    fn set_processor(&mut self, node: u32, processing: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        let config = processing.map(spec::processor).transpose().map_err(config_err)?;
        self.guarded(|s| s.set_processor(node, config))
    }

    /// A contention-free LAN joining `nodes`; returns their NICs. Each NIC
    /// has a link layer delaying packets `ll_delay_ps` each way; `mac`:
    /// "switched", "ns2" (ns-2's base Mac) or "ns2-802.3" (see `LanMac`).
    #[allow(clippy::too_many_arguments)] // the LAN's parts, one each
    fn add_lan(
        &mut self,
        nodes: Vec<u32>,
        bandwidth_bps: u64,
        delay_ps: u64,
        queue_limit: usize,
        ll_delay_ps: u64,
        mac: &str,
    ) -> PyResult<Vec<u32>> {
        let rate = ackclock_core::Bandwidth::from_bps(bandwidth_bps).ok_or_else(|| {
            config_err(CoreConfigError::invalid("bandwidth", bandwidth_bps, "must be greater than zero"))
        })?;
        let config = ackclock_sim::LanConfig {
            rate,
            delay: Duration::from_ps(delay_ps),
            queue_limit,
            link_layer_delay: Duration::from_ps(ll_delay_ps),
            mac: match mac {
                "switched" => ackclock_net::LanMac::Switched,
                "ns2" => ackclock_net::LanMac::Ns2,
                "ns2-802.3" => ackclock_net::LanMac::Ns2Ethernet,
                other => {
                    return Err(config_err(CoreConfigError::invalid("mac", other, "is switched, ns2 or ns2-802.3")))
                }
            },
        };
        self.guarded(|s| s.add_lan(&nodes, config))
    }

    /// A radio channel; returns its medium id. Its link layer delays each
    /// packet `ll_delay_ps` each way and resolves neighbours with ARP if
    /// `arp`.
    #[allow(clippy::too_many_arguments)] // the radio's parts, one each
    fn add_radio(
        &mut self,
        propagation: &Bound<'_, PyDict>,
        phy: &Bound<'_, PyDict>,
        mac: &Bound<'_, PyDict>,
        queue_limit: usize,
        ll_delay_ps: u64,
        arp: bool,
    ) -> PyResult<u32> {
        let propagation = spec::propagation(propagation).map_err(config_err)?;
        let phy = spec::phy(phy).map_err(config_err)?;
        let mac = spec::dcf(mac).map_err(config_err)?;
        let link_layer = ackclock_net::LinkLayerConfig { delay: Duration::from_ps(ll_delay_ps), arp };
        self.guarded(|s| s.add_radio(propagation, phy, mac, queue_limit, link_layer))
    }

    /// Gives a node a NIC on a radio channel at (x, y, z); returns the NIC.
    fn attach_radio(&mut self, medium: u32, node: u32, x: f64, y: f64, z: f64) -> PyResult<u32> {
        self.guarded(|s| s.attach_radio(medium, node, ackclock_net::Position { x, y, z }))
    }

    /// ns-2's setdest at `at_ps`.
    fn schedule_move(&mut self, node: u32, at_ps: u64, x: f64, y: f64, speed: f64) -> PyResult<()> {
        self.guarded(|s| s.schedule_move(node, Instant::from_ps(at_ps), x, y, speed))
    }

    fn position(&mut self, node: u32) -> PyResult<(f64, f64, f64)> {
        let p = self.guarded(|s| s.position(node))?;
        Ok((p.x, p.y, p.z))
    }

    /// A radio node's waypoints: (times_s, xs, ys, zs).
    fn position_series(&mut self, node: u32) -> PyResult<PositionColumns> {
        let points = self.guarded(|s| s.position_series(node).map(<[_]>::to_vec))?;
        let mut out = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (t, p) in points {
            out.0.push(t.as_secs_f64());
            out.1.push(p.x);
            out.2.push(p.y);
            out.3.push(p.z);
        }
        Ok(out)
    }

    fn node_stats<'py>(&mut self, py: Python<'py>, node: u32) -> PyResult<Bound<'py, PyDict>> {
        let report = self.guarded(|s| s.node_report(node))?;
        results::node_dict(py, &report)
    }

    fn nic_stats<'py>(&mut self, py: Python<'py>, nic: u32) -> PyResult<Bound<'py, PyDict>> {
        let report = self.guarded(|s| s.nic_report(nic))?;
        results::nic_dict(py, &report)
    }

    #[pyo3(signature = (channel, loss = None))]
    fn set_loss(&mut self, channel: u32, loss: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        let loss = loss.map(spec::loss).transpose().map_err(config_err)?;
        self.guarded(|s| s.set_loss(channel, loss))
    }

    /// (packets, bytes) waiting in a channel's queue now, and the average
    /// queue of its discipline if it keeps one (RED), else None.
    fn queue_now(&mut self, channel: u32) -> PyResult<(u32, u64, Option<f64>)> {
        self.guarded(|s| s.queue_now(channel))
    }

    /// Adds a loss model to a channel for the listed flows (all when None;
    /// all but them with `all_but`); returns its index on the channel.
    #[pyo3(signature = (channel, loss, flows = None, all_but = false))]
    fn add_loss(
        &mut self,
        channel: u32,
        loss: &Bound<'_, PyDict>,
        flows: Option<Vec<u32>>,
        all_but: bool,
    ) -> PyResult<usize> {
        let loss = spec::loss(loss).map_err(config_err)?;
        let filter = match (flows, all_but) {
            (None, _) => FlowFilter::All,
            (Some(f), false) => FlowFilter::Only(f),
            (Some(f), true) => FlowFilter::AllBut(f),
        };
        self.guarded(|s| s.add_loss(channel, loss, filter))
    }

    /// Names one more flow in the filter of loss model `index` of a channel.
    fn add_loss_flow(&mut self, channel: u32, index: usize, flow: u32) -> PyResult<()> {
        self.guarded(|s| s.add_loss_flow(channel, index, flow))
    }

    #[pyo3(signature = (channel, jitter = None))]
    fn set_jitter(&mut self, channel: u32, jitter: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        let jitter = jitter.map(spec::jitter).transpose().map_err(config_err)?;
        self.guarded(|s| s.set_jitter(channel, jitter))
    }

    #[pyo3(signature = (name, src, dst, traffic, size, start_ps = 0, stop_ps = None, max_packets = None, ecn = false, label = None))]
    #[allow(clippy::too_many_arguments)]
    fn add_udp_flow(
        &mut self,
        name: &str,
        src: u32,
        dst: u32,
        traffic: &Bound<'_, PyDict>,
        size: &Bound<'_, PyDict>,
        start_ps: u64,
        stop_ps: Option<u64>,
        max_packets: Option<u64>,
        ecn: bool,
        label: Option<(u16, u16, u32)>,
    ) -> PyResult<u32> {
        let config = UdpSourceConfig {
            traffic: spec::traffic(traffic).map_err(config_err)?,
            size: spec::size(size).map_err(config_err)?,
            start: Instant::from_ps(start_ps),
            stop: stop_ps.map(Instant::from_ps),
            max_packets,
            ecn,
            label: label.map(flow_label),
        };
        self.guarded(|s| s.add_udp_flow(name, src, dst, config))
    }

    #[pyo3(signature = (name, src, dst, tcp, app, start_ps = 0, server_start_ps = 0, read_rate_bps = None, record_series = false, server_tcp = None, label = None))]
    #[allow(clippy::too_many_arguments)]
    fn add_tcp_flow(
        &mut self,
        name: &str,
        src: u32,
        dst: u32,
        tcp: &Bound<'_, PyDict>,
        app: &Bound<'_, PyDict>,
        start_ps: u64,
        server_start_ps: u64,
        read_rate_bps: Option<u64>,
        record_series: bool,
        server_tcp: Option<&Bound<'_, PyDict>>,
        label: Option<(u16, u16, u32)>,
    ) -> PyResult<u32> {
        let client = spec::tcp_config(tcp, "tcp").map_err(config_err)?;
        let server = match server_tcp {
            Some(d) => spec::tcp_config(d, "server_tcp").map_err(config_err)?,
            None => client.clone(),
        };
        let reader = match read_rate_bps {
            None => Reader::AtOnce,
            Some(0) => Reader::Paused,
            Some(bps) => Reader::Rate(ackclock_core::Bandwidth::from_bps(bps).expect("non-zero")),
        };
        let config = TcpFlowConfig {
            client,
            server,
            app: spec::tcp_app(app).map_err(config_err)?,
            start: Instant::from_ps(start_ps),
            server_start: Instant::from_ps(server_start_ps),
            reader,
            record_series,
            label: label.map(flow_label),
        };
        self.guarded(|s| s.add_tcp_flow(name, src, dst, config))
    }

    /// Puts a token bucket between a UDP flow's source and its node.
    fn shape_flow(&mut self, flow: u32, shaper: &Bound<'_, PyDict>) -> PyResult<()> {
        let params = spec::token_bucket(shaper).map_err(config_err)?;
        self.guarded(|s| s.shape_flow(flow, params))
    }

    /// A UDP traffic source's parameters from now on.
    #[pyo3(signature = (flow, traffic, size, max_packets = None))]
    fn retune_flow(
        &mut self,
        flow: u32,
        traffic: &Bound<'_, PyDict>,
        size: &Bound<'_, PyDict>,
        max_packets: Option<u64>,
    ) -> PyResult<()> {
        let traffic = spec::traffic(traffic).map_err(config_err)?;
        let size = spec::size(size).map_err(config_err)?;
        self.guarded(|s| s.retune_flow(flow, traffic, size, max_packets))
    }

    /// A telnet application's mean gap from its next write on.
    fn set_telnet_interval(&mut self, flow: u32, mean_interval_ps: u64) -> PyResult<()> {
        self.guarded(|s| s.set_telnet_interval(flow, Duration::from_ps(mean_interval_ps)))
    }

    fn stop_flow(&mut self, flow: u32) -> PyResult<()> {
        self.guarded(|s| s.stop_flow(flow))
    }

    /// Takes the source (`sink` false) or the sink of a flow off its node.
    fn detach(&mut self, flow: u32, sink: bool) -> PyResult<()> {
        self.guarded(|s| s.detach(flow, side(sink)))
    }

    /// The client (or with `server`, the server) of TCP flow `flow` writes
    /// `bytes` more (None: without end).
    #[pyo3(signature = (flow, bytes = None, server = false))]
    fn tcp_write(&mut self, flow: u32, bytes: Option<u64>, server: bool) -> PyResult<()> {
        self.guarded(|s| s.tcp_write(flow, side(server), bytes))
    }

    /// Adds an echo flow (ns-2's Agent/Ping pair) of `size`-byte packets.
    fn add_echo_flow(&mut self, name: &str, src: u32, dst: u32, size: u32, label: (u16, u16, u32)) -> PyResult<u32> {
        let (src_port, dst_port, fid) = label;
        self.guarded(|s| s.add_echo_flow(name, src, dst, size, FlowLabel { src_port, dst_port, fid }))
    }

    /// Sends an echo request now; its reply ends a `run` with "notice".
    fn ping(&mut self, flow: u32) -> PyResult<()> {
        self.guarded(|s| s.ping(flow))
    }

    /// Adds a message flow (ns-2's `$udp send` between two Agent/UDP).
    fn add_message_flow(&mut self, name: &str, src: u32, dst: u32, label: (u16, u16, u32)) -> PyResult<u32> {
        let (src_port, dst_port, fid) = label;
        self.guarded(|s| s.add_message_flow(name, src, dst, FlowLabel { src_port, dst_port, fid }))
    }

    /// Sends a `size`-byte packet on a message flow now and returns its
    /// sequence number; its arrival ends a `run` with "notice".
    fn post_message(&mut self, flow: u32, size: u32) -> PyResult<u64> {
        self.guarded(|s| s.post_message(flow, size))
    }

    /// A "notice" from `run` once the client (or `server`) of TCP flow
    /// `flow` has received `bytes` bytes in order.
    fn watch_received(&mut self, flow: u32, server: bool, bytes: u64) -> PyResult<()> {
        self.guarded(|s| s.watch_received(flow, side(server), bytes))
    }

    /// The notice the last `run` returned for: (flow, at the server end,
    /// value), once.
    fn take_notice(&mut self) -> Option<(u32, bool, u64)> {
        self.notice.take().map(|n| (n.flow, n.side == Side::Server, n.value))
    }

    /// The client (or `server`) of TCP flow `flow` closes its side (FIN
    /// after its data).
    fn tcp_close(&mut self, flow: u32, server: bool) -> PyResult<()> {
        self.guarded(|s| s.tcp_close(flow, side(server)))
    }

    /// (highest byte acknowledged, highest byte sent) of a TCP flow's client
    /// (or `server`), from its initial sequence number.
    fn tcp_sequence(&mut self, flow: u32, server: bool) -> PyResult<(u64, u64)> {
        self.guarded(|s| s.tcp_sequence(flow, side(server)))
    }

    /// The connection state of a TCP flow's client (or `server`), RFC
    /// 9293's name in lower case ("established", "close-wait", ...).
    fn tcp_state(&mut self, flow: u32, server: bool) -> PyResult<&'static str> {
        self.guarded(|s| s.tcp_state(flow, side(server)))
    }

    /// {name: value} of a TCP sender's ns-2 variables (cwnd_ a float, the rest ints).
    fn ns2_vars<'py>(&mut self, py: Python<'py>, flow: u32) -> PyResult<Bound<'py, PyDict>> {
        let vars = self.guarded(|s| s.ns2_vars(flow))?;
        let out = PyDict::new(py);
        for (name, value) in vars {
            match value {
                VarValue::Real(x) => out.set_item(name, x)?,
                VarValue::Int(n) | VarValue::Ticks { raw: n, .. } => out.set_item(name, n)?,
            }
        }
        Ok(out)
    }

    fn record_queue(&mut self, channel: u32) -> PyResult<()> {
        self.guarded(|s| s.record_queue(channel))
    }

    /// (times_s, waiting packets, waiting bytes) at every queue change.
    fn queue_series(&mut self, channel: u32) -> PyResult<QueueColumns> {
        self.guarded(|s| s.queue_series(channel).map(queue_columns))
    }

    fn record_nic_queue(&mut self, nic: u32) -> PyResult<()> {
        self.guarded(|s| s.record_nic_queue(nic))
    }

    /// (times_s, waiting packets, waiting bytes) of a NIC's interface
    /// queue after each instant that changed it.
    fn nic_queue_series(&mut self, nic: u32) -> PyResult<QueueColumns> {
        self.guarded(|s| s.nic_queue_series(nic).map(queue_columns))
    }

    fn set_duplication(&mut self, channel: u32, p: f64) -> PyResult<()> {
        self.guarded(|s| s.set_duplication(channel, p))
    }

    /// {variable: (times_s, values)} for a TCP flow recorded with record_series.
    fn tcp_series<'py>(&mut self, py: Python<'py>, flow: u32) -> PyResult<Bound<'py, PyDict>> {
        let points = self.guarded(|s| s.tcp_series(flow).map(<[_]>::to_vec))?;
        let out = PyDict::new(py);
        for (i, name) in SERIES_NAMES.iter().enumerate() {
            let (t, v): (Vec<f64>, Vec<f64>) =
                points.iter().filter(|p| usize::from(p.1) == i).map(|p| (p.0.as_secs_f64(), p.2)).unzip();
            out.set_item(name, (t, v))?;
        }
        Ok(out)
    }

    fn use_ns2_order(&mut self) -> PyResult<()> {
        self.guarded(|s| s.use_ns2_order())
    }

    fn set_ns2_delay(&mut self, channel: u32, delay_s: f64) -> PyResult<()> {
        self.guarded(|s| s.set_ns2_delay(channel, delay_s))
    }

    #[getter]
    fn get_ns2_rng(&self) -> Option<Mrg32k3a> {
        self.inner.ns2_rng().map(|inner| Mrg32k3a { inner })
    }

    #[setter]
    fn set_ns2_rng(&mut self, rng: Option<PyRef<'_, Mrg32k3a>>) {
        self.inner.set_ns2_rng(rng.map(|r| r.inner));
    }

    #[getter]
    fn get_routing_rng(&self) -> Option<Mrg32k3a> {
        self.inner.routing_rng().map(|inner| Mrg32k3a { inner })
    }

    /// ns-2's routing generator (`rtglibRNG`) for the DV nodes started
    /// afterwards; None gives each its own stream.
    #[setter]
    fn set_routing_rng(&mut self, rng: Option<PyRef<'_, Mrg32k3a>>) {
        self.inner.set_routing_rng(rng.map(|r| r.inner));
    }

    fn schedule_callback(&mut self, at_ps: u64) -> PyResult<u64> {
        self.guarded(|s| Ok(s.schedule_callback(Instant::from_ps(at_ps))))
    }

    fn cancel_callback(&mut self, callback_id: u64) -> PyResult<bool> {
        self.guarded(|s| Ok(s.cancel_callback(callback_id)))
    }

    /// Runs in slices of `EVENTS_PER_PAUSE` events with the GIL released;
    /// between two slices, with the simulation free to be looked at,
    /// Python's signal handlers run (Ctrl-C raises KeyboardInterrupt there),
    /// then `on_pause()`. An exception from either ends the run between two
    /// events, with the traces written up to now: the simulation stays
    /// usable and can be run further.
    #[pyo3(signature = (until_ps = None, on_pause = None))]
    fn run(
        slf: &Bound<'_, Self>,
        until_ps: Option<u64>,
        on_pause: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(&'static str, Option<u64>)> {
        let py = slf.py();
        let until = until_ps.map(Instant::from_ps);
        let outcome = loop {
            let mut borrowed = slf.borrow_mut();
            let sim: &mut Sim = &mut borrowed;
            // No Python object is touched while events run, so other threads may.
            let outcome = py.detach(|| sim.guarded(|s| s.run_at_most(until, EVENTS_PER_PAUSE)))?;
            if outcome != RunOutcome::EventLimit {
                break outcome;
            }
            drop(borrowed);
            if let Err(interrupted) = py.check_signals().and_then(|()| on_pause.map_or(Ok(()), |f| f.call0().map(drop)))
            {
                // The interruption is what the caller must see; a trace write
                // error is reported again when the traces are closed.
                let _ = slf.borrow_mut().guarded(|s| Ok(s.flush_traces()));
                return Err(interrupted);
            }
        };
        let flushed = slf.borrow_mut().guarded(|s| Ok(s.flush_traces()))?;
        flushed.map_err(|e| file_err(py, e))?;
        Ok(match outcome {
            RunOutcome::Until => ("until", None),
            RunOutcome::Idle => ("idle", None),
            RunOutcome::Stopped => ("stopped", None),
            RunOutcome::Callback(id) => ("callback", Some(id)),
            RunOutcome::Notice(notice) => {
                slf.borrow_mut().notice = Some(notice);
                ("notice", None)
            }
            RunOutcome::EventLimit => unreachable!("the loop continues after a pause"),
        })
    }

    /// ns-2 trace text (`trace-all`, or `trace-queue` for chosen channels)
    /// with every TCP variable (`variables`) or only the `traced` variables
    /// (node, port, name) of the senders at those addresses, with their
    /// initial values unless `traced_initial` is false. `append` adds to the
    /// end of an existing file instead of replacing it. `lans`: the LANs
    /// (medium ids) whose NICs' records it writes, each named by a node id.
    /// Returns the trace's id for `close_trace`.
    #[pyo3(signature = (
        path, channels = None, variables = true, traced = None, append = false, radio = None, traced_initial = true,
        events = false, tcp_header = false, lans = Vec::new()
    ))]
    #[allow(clippy::too_many_arguments)] // the Python signature's keywords
    fn trace_ns2(
        &mut self,
        py: Python<'_>,
        path: &str,
        channels: Option<Vec<u32>>,
        variables: bool,
        traced: Option<Vec<(u32, u16, String)>>,
        append: bool,
        radio: Option<(bool, bool, bool, bool)>,
        traced_initial: bool,
        events: bool,
        tcp_header: bool,
        lans: Vec<(u32, u32)>,
    ) -> PyResult<SinkId> {
        let wireless = radio.map(|(newtrace, agent, router, mac)| {
            let format = if newtrace { WirelessFormat::New } else { WirelessFormat::Old };
            WirelessTrace { format, agent, router, mac }
        });
        let vars = match (traced, variables) {
            (Some(list), _) => TracedVars::Only {
                vars: list.into_iter().map(|(node, port, name)| ((node, port), name)).collect(),
                changes_only: !traced_initial,
            },
            (None, true) => TracedVars::All,
            (None, false) => TracedVars::None,
        };
        let out = trace_file(py, path, append)?;
        self.guarded(|s| Ok(s.tracer().add_sink(Sink::Ns2 { out, channels, lans, vars, wireless, events, tcp_header })))
    }

    /// ns-2 nam events (`namtrace-all`) for every channel and the LANs
    /// `lans` (as for `trace_ns2`), after the header lines in `preamble`;
    /// `append` as for `trace_ns2`.
    #[pyo3(signature = (path, preamble, append = false, lans = Vec::new()))]
    fn trace_nam(
        &mut self,
        py: Python<'_>,
        path: &str,
        preamble: String,
        append: bool,
        lans: Vec<(u32, u32)>,
    ) -> PyResult<SinkId> {
        let out = trace_file(py, path, append)?;
        self.guarded(|s| Ok(s.tracer().add_sink(Sink::Nam { out, preamble, lans })))
    }

    /// Only up and down records (ns-2's `$link trace-dynamics`): for each
    /// (channel, nam) in order, that channel's changes in ns-2's trace
    /// format or, with `nam`, nam's; `append` as for `trace_ns2`.
    fn trace_link_changes(
        &mut self,
        py: Python<'_>,
        path: &str,
        links: Vec<(u32, bool)>,
        append: bool,
    ) -> PyResult<SinkId> {
        let out = trace_file(py, path, append)?;
        self.guarded(|s| Ok(s.tracer().add_sink(Sink::LinkChanges { out, links })))
    }

    /// ns-2's event trace of a TCP flow's sender into the ns-2 traces with
    /// `events`; `fast_retransmit` is what its agent calls a fast
    /// retransmit.
    fn trace_tcp_events(&mut self, flow: u32, fast_retransmit: &str) -> PyResult<()> {
        let name = match fast_retransmit {
            "FAST_RETX" => "FAST_RETX",
            "RENO_FAST_RETX" => "RENO_FAST_RETX",
            "NEWRENO_FAST_RETX" => "NEWRENO_FAST_RETX",
            "FAST_RECOVERY" => "FAST_RECOVERY",
            other => {
                let why = "must be FAST_RETX, RENO_FAST_RETX, NEWRENO_FAST_RETX or FAST_RECOVERY";
                return Err(config_err(CoreConfigError::invalid("fast_retransmit", other, why)));
            }
        };
        self.guarded(|s| s.trace_tcp_events(flow, name))
    }

    /// ns-2's trace of the RED queue of `channel` (`$redq trace curq_`,
    /// `trace ave_`, `attach`): a line when a traced variable changes.
    #[pyo3(signature = (path, channel, queue, average, append = false))]
    fn trace_red(
        &mut self,
        py: Python<'_>,
        path: &str,
        channel: u32,
        queue: bool,
        average: bool,
        append: bool,
    ) -> PyResult<SinkId> {
        let out = trace_file(py, path, append)?;
        self.guarded(|s| {
            if s.queue_now(channel)?.2.is_none() {
                return Err(CoreConfigError::invalid("channel", channel, "has no RED queue to trace"));
            }
            Ok(s.tracer().add_sink(Sink::RedVars { out, vars: RedVars::new(channel, queue, average) }))
        })
    }

    /// The viewer's index of every channel's packets and the TCP senders'
    /// cwnd_ and ssthresh_, with the topology of the nam header lines in
    /// `preamble`; complete when the traces are closed.
    fn trace_view(&mut self, path: &str, preamble: &str) -> PyResult<()> {
        let sink = ViewSink::create(path.as_ref(), preamble).map_err(|e| index_err(path, e))?;
        self.guarded(|s| {
            s.tracer().add_sink(Sink::View(Box::new(sink)));
            Ok(())
        })
    }

    /// tcpdump-style text for packets leaving on `channels`, seen at `node`
    /// or at one interface (sent on one channel, received from another).
    #[pyo3(signature = (path, channels = None, node = None, interface = None))]
    fn trace_tcpdump(
        &mut self,
        py: Python<'_>,
        path: &str,
        channels: Option<Vec<u32>>,
        node: Option<u32>,
        interface: Option<(u32, Option<u32>)>,
    ) -> PyResult<()> {
        let capture = capture(channels, node, interface)?;
        let out = trace_file(py, path, false)?;
        self.guarded(|s| {
            s.tracer().add_sink(Sink::Tcpdump { out, capture });
            Ok(())
        })
    }

    /// A pcap file of packets leaving on `channels`, seen at `node` or at
    /// one interface (sent on one channel, received from another).
    #[pyo3(signature = (path, channels = None, node = None, snaplen = 65535, interface = None))]
    fn trace_pcap(
        &mut self,
        py: Python<'_>,
        path: &str,
        channels: Option<Vec<u32>>,
        node: Option<u32>,
        snaplen: u32,
        interface: Option<(u32, Option<u32>)>,
    ) -> PyResult<()> {
        let capture = capture(channels, node, interface)?;
        self.add_pcap(py, path, snaplen, capture, LinkType::Raw)
    }

    /// A pcap file of the 802.11 frames the radio NIC `nic` sends and hears.
    #[pyo3(signature = (path, nic, snaplen = 65535))]
    fn trace_pcap_nic(&mut self, py: Python<'_>, path: &str, nic: u32, snaplen: u32) -> PyResult<()> {
        self.add_pcap(py, path, snaplen, Capture::Nic(nic), LinkType::Ieee80211)
    }

    /// A queue or flow monitor of the given channels (all when None): counts
    /// of arrivals, departures and drops. Returns its id.
    #[pyo3(signature = (channels = None))]
    fn add_monitor(&mut self, channels: Option<Vec<u32>>) -> PyResult<SinkId> {
        self.guarded(|s| Ok(s.tracer().add_sink(Sink::Monitor(Monitor::new(channels)))))
    }

    /// A monitor's counts now: one dict per (channel, flow id, source node,
    /// destination node) it has seen.
    fn monitor_counts<'py>(&mut self, py: Python<'py>, monitor: SinkId) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let counts = self.guarded(|s| s.monitor_counts(monitor))?;
        counts
            .into_iter()
            .map(|(key, c)| {
                let d = PyDict::new(py);
                d.set_item("channel", key.channel)?;
                d.set_item("fid", key.fid)?;
                d.set_item("src", key.src)?;
                d.set_item("dst", key.dst)?;
                d.set_item("arrivals", c.arrivals)?;
                d.set_item("arrived_bytes", c.arrived_bytes)?;
                d.set_item("departures", c.departures)?;
                d.set_item("departed_bytes", c.departed_bytes)?;
                d.set_item("marks", c.marks)?;
                d.set_item("drops", c.drops)?;
                d.set_item("dropped_bytes", c.dropped_bytes)?;
                d.set_item("early_drops", c.early_drops)?;
                d.set_item("early_dropped_bytes", c.early_dropped_bytes)?;
                d.set_item("packets", c.packets)?;
                d.set_item("bytes", c.bytes)?;
                d.set_item("packet_seconds", c.packet_seconds)?;
                d.set_item("byte_seconds", c.byte_seconds)?;
                d.set_item("delay_sum", c.delay_sum)?;
                d.set_item("delay_squares", c.delay_squares)?;
                d.set_item("last_event_s", c.last_event.as_secs_f64())?;
                Ok(d)
            })
            .collect()
    }

    /// Writes what is due to one trace (an id from `trace_ns2` or
    /// `trace_nam`) and closes its file; the run can go on.
    fn close_trace(&mut self, trace: SinkId) -> PyResult<()> {
        let result = self.guarded(|s| Ok(s.remove_trace(trace)))?;
        result.map_err(|e| SimulationError::new_err(format!("writing a trace failed: {e}")))
    }

    /// Writes the records due so far and flushes every trace file.
    fn flush_traces(&mut self) -> PyResult<()> {
        let result = self.guarded(|s| Ok(s.flush_traces()))?;
        result.map_err(|e| SimulationError::new_err(format!("writing a trace failed: {e}")))
    }

    /// Writes what is due and closes every trace file.
    fn close_traces(&mut self, py: Python<'_>) -> PyResult<()> {
        let result = self.guarded(|s| Ok(s.finish_traces()))?;
        result.map_err(|e| file_err(py, e))
    }

    /// Closes every trace file without writing more: those that no run has
    /// completed yet are removed.
    fn discard_traces(&mut self) -> PyResult<()> {
        self.guarded(|s| {
            s.discard_traces();
            Ok(())
        })
    }

    fn stop(&mut self) {
        self.inner.stop();
    }

    fn link_stats<'py>(&mut self, py: Python<'py>, channel: u32) -> PyResult<Bound<'py, PyDict>> {
        let report = self.guarded(|s| s.link_report(channel))?;
        results::link_dict(py, &report)
    }

    fn flow_stats<'py>(&mut self, py: Python<'py>, flow: u32) -> PyResult<Bound<'py, PyDict>> {
        let report = self.guarded(|s| s.flow_report(flow))?;
        results::flow_dict(py, &report)
    }

    fn occupancy_distribution(&mut self, channel: u32) -> PyResult<Vec<f64>> {
        self.guarded(|s| s.occupancy_distribution(channel))
    }

    fn results<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (links, flows, nodes, nics) = self.guarded(|s| {
            let links = (0..s.channel_count() as u32).map(|c| s.link_report(c)).collect::<Result<Vec<_>, _>>()?;
            let flows = (0..s.flow_count() as u32).map(|f| s.flow_report(f)).collect::<Result<Vec<_>, _>>()?;
            let nodes = (0..s.node_count() as u32).map(|n| s.node_report(n)).collect::<Result<Vec<_>, _>>()?;
            let nics = (0..s.nic_count() as u32).map(|n| s.nic_report(n)).collect::<Result<Vec<_>, _>>()?;
            Ok((links, flows, nodes, nics))
        })?;
        let out = PyDict::new(py);
        out.set_item("sim_time_s", self.inner.now().as_secs_f64())?;
        out.set_item("events", self.inner.events())?;
        out.set_item("seed", self.seed)?;
        out.set_item("replication", self.replication)?;
        out.set_item("links", links.iter().map(|l| results::link_dict(py, l)).collect::<PyResult<Vec<_>>>()?)?;
        out.set_item("flows", flows.iter().map(|f| results::flow_dict(py, f)).collect::<PyResult<Vec<_>>>()?)?;
        out.set_item("nodes", nodes.iter().map(|n| results::node_dict(py, n)).collect::<PyResult<Vec<_>>>()?)?;
        out.set_item("nics", nics.iter().map(|n| results::nic_dict(py, n)).collect::<PyResult<Vec<_>>>()?)?;
        Ok(out)
    }
}

/// A trace file's I/O error as Python's OSError (FileNotFoundError,
/// IsADirectoryError, ...) with its `filename`; other I/O errors as
/// SimulationError.
/// The end of a flow a Python flag names: the server (sink) or the client.
fn side(server: bool) -> Side {
    if server {
        Side::Server
    } else {
        Side::Client
    }
}

fn file_err(py: Python<'_>, e: std::io::Error) -> PyErr {
    let Some(FileError { path, source }) = e.get_ref().and_then(|inner| inner.downcast_ref::<FileError>()) else {
        return SimulationError::new_err(format!("writing a trace failed: {e}"));
    };
    let path = path.display().to_string();
    let errno = source.raw_os_error();
    let strerror = errno.map_or_else(
        || Ok(source.to_string()),
        |n| py.import("os")?.call_method1("strerror", (n,))?.extract::<String>(),
    );
    match strerror {
        Ok(text) => PyOSError::new_err((errno.unwrap_or(0), text, path)),
        Err(e) => e,
    }
}

/// A trace file, opened now so that a bad path is reported before the run:
/// under a temporary name that takes the file's place when it is closed, or,
/// with `append`, the file itself, added to (a Tcl script's own channel).
fn trace_file(py: Python<'_>, path: &str, append: bool) -> PyResult<Output> {
    if append {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| file_err(py, FileError::wrap(std::path::Path::new(path), e)))?;
        return Ok(Box::new(std::io::BufWriter::with_capacity(1 << 16, file)));
    }
    Ok(Box::new(OutputFile::create(path).map_err(|e| file_err(py, e))?))
}

/// A next hop as Python sees it: ("link", channel, neighbour) or ("nic",
/// nic, neighbour).
type PyHop = (&'static str, u32, u32);
/// (time_s, node, destination, next hop).
type PyRouteChange = (f64, u32, u32, Option<PyHop>);

fn hop(s: &Simulation, via: NextHop) -> PyHop {
    match via {
        NextHop::Link(ch) => ("link", ch, s.neighbor(via)),
        NextHop::Nic { nic, neighbor } => ("nic", nic, neighbor),
    }
}

fn flow_label((src_port, dst_port, fid): (u16, u16, u32)) -> FlowLabel {
    FlowLabel { src_port, dst_port, fid }
}

/// A position series as columns: (times_s, xs, ys, zs).
type PositionColumns = (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>);

/// A queue series as columns: (times_s, waiting packets, waiting bytes).
type QueueColumns = (Vec<f64>, Vec<u32>, Vec<u64>);

fn queue_columns(points: &[(Instant, u32, u64)]) -> QueueColumns {
    let mut out = (Vec::new(), Vec::new(), Vec::new());
    for &(t, n, b) in points {
        out.0.push(t.as_secs_f64());
        out.1.push(n);
        out.2.push(b);
    }
    out
}

fn capture(channels: Option<Vec<u32>>, node: Option<u32>, interface: Option<(u32, Option<u32>)>) -> PyResult<Capture> {
    match (channels, node, interface) {
        (Some(c), None, None) => Ok(Capture::Channels(c)),
        (None, Some(n), None) => Ok(Capture::Node(n)),
        (None, None, Some((sent, received))) => Ok(Capture::Interface { sent, received }),
        _ => Err(ConfigError::new_err("capture: give one of channels, node or interface")),
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("UnitError", m.py().get_type::<UnitError>())?;
    m.add("ConfigError", m.py().get_type::<ConfigError>())?;
    m.add("SimulationError", m.py().get_type::<SimulationError>())?;
    // The sender variables ns-2's `tracevar` can follow, in the core's order.
    m.add("NS2_VARS", ackclock_sim::NS2_VARS.to_vec())?;
    m.add_function(wrap_pyfunction!(parse_duration, m)?)?;
    m.add_function(wrap_pyfunction!(parse_bandwidth, m)?)?;
    m.add_function(wrap_pyfunction!(parse_size, m)?)?;
    m.add_function(wrap_pyfunction!(congestion_controls, m)?)?;
    m.add_function(wrap_pyfunction!(index_nam, m)?)?;
    m.add_class::<Sim>()?;
    m.add_class::<Mrg32k3a>()?;
    Ok(())
}
