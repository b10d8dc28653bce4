"""The Python API: build a network and traffic in ns-2's vocabulary, then run.

    sim = Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    sim.duplex_link(a, b, "10Mb", "10ms")
    flow = sim.cbr(a, b, rate="1Mb", packet_size=1000)
    sim.run(until="10s")
    flow.stats()

Every argument is checked here, so a mistake raises `ConfigError` naming the
parameter and the value before anything reaches the core.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Literal, cast

from ackclock import (
    _native,
    checks,
    nam,
    network_specs,
    specs,
    tcp_specs,
    units,
    wireless,
    workload,
)
from ackclock.errors import ConfigError, ParameterError
from ackclock.handles import (
    EchoFlow,
    Flow,
    Lan,
    Link,
    MessageFlow,
    Monitor,
    Node,
    Radio,
    RadioNic,
    SourceFlow,
    TcpFlow,
    change_links,
)
from ackclock.notices import Notices
from ackclock.results import RunResult, run_result

if TYPE_CHECKING:
    from ackclock._native import QueueSpec, RoutingSpec, SizeSpec, TrafficSpec

RunEnd = Literal["until", "idle", "stopped"]

DEFAULT_QUEUE = specs.DropTail()
DEFAULT_PACKET_SIZE = 1000
DEFAULT_TCP = tcp_specs.TcpParams()
DEFAULT_APP = tcp_specs.Bulk()
PROGRESS_INTERVAL_S = 0.1
DEFAULT_MAX_EVENTS = workload.DEFAULT_MAX_EVENTS


class Simulator:
    """One simulation. `replication` k > 0 draws independent random streams
    from the same `seed`, for independent replications of one experiment.
    `ns2_order=True` runs events at one instant in ns-2's order, computing
    link times in ns-2's doubles (docs/tcl.md), as `ackclock tcl` does."""

    def __init__(
        self,
        seed: int = 1,
        replication: int = 0,
        max_events: int | None = DEFAULT_MAX_EVENTS,
        *,
        ns2_order: bool = False,
    ) -> None:
        self.seed = checks.integer(seed, "seed", "seed", floats=False)
        self.replication = checks.integer(
            replication, "replication", "replication index", floats=False
        )
        self.max_events = max_events
        self.ns2_order = checks.flag(ns2_order, "ns2_order")
        self._native = _native.Sim(self.seed, self.replication)
        if self.ns2_order:
            self._native.use_ns2_order()
        self._nodes: list[Node] = []
        self._links: list[Link] = []
        # The routing `routing()` set for every node, new ones included.
        self._routing: RoutingSpec | None = None
        self._flows: list[Flow] = []
        self._radios: list[Radio] = []
        self._recording_routes = False
        self._callbacks: dict[int, Callable[[], object]] = {}
        self._notices = Notices(self._native)
        self._stop_requested = False
        self._wall_s = 0.0
        self._trace_files: list[Path] = []
        self._loads: list[workload.Load] = []

    # --- state ------------------------------------------------------------------

    @property
    def max_events(self) -> int | None:
        """The most events `run()` may be expected to take: a run estimated to
        take more is refused before it starts (see `ackclock.workload`);
        None removes the bound."""
        return self._max_events

    @max_events.setter
    def max_events(self, value: int | None) -> None:
        self._max_events = (
            None if value is None else checks.integer(value, "max_events", "event count", 1)
        )

    @property
    def now(self) -> float:
        """The simulated time in seconds (with `ns2_order`, the double ns-2's
        clock would hold, which can differ from `now_ps` in the last bits)."""
        return self._native.now_s

    @property
    def now_ps(self) -> int:
        return self._native.now_ps

    @property
    def events(self) -> int:
        """Events processed so far."""
        return self._native.events

    @property
    def ns2_rng(self) -> _native.Mrg32k3a | None:
        """ns-2's default random generator (MRG32k3a), when the TCP flows
        and ns-2's RED queues (`RED(ns2=True)`) are to share it for their
        random send delays (`send_overhead`, ns-2's overhead_) and early
        drops in event order, as ns-2's agents and queues do; None (the
        default) gives each flow and queue its own stream. Reading gives a copy of its state as
        far as the run has drawn; assigning copies the generator in."""
        return self._native.ns2_rng

    @ns2_rng.setter
    def ns2_rng(self, rng: _native.Mrg32k3a | None) -> None:
        self._native.ns2_rng = rng

    @property
    def routing_rng(self) -> _native.Mrg32k3a | None:
        """ns-2's routing generator (its `rtglibRNG`, MRG32k3a), when the DV
        nodes are to share it for their update times in event order, as
        ns-2's DV agents do; None (the default) gives each node its own
        stream. Set it before the run starts the routing; reading and
        assigning copy, as for `ns2_rng`."""
        return self._native.routing_rng

    @routing_rng.setter
    def routing_rng(self, rng: _native.Mrg32k3a | None) -> None:
        self._native.routing_rng = rng

    @property
    def wall_s(self) -> float:
        """Wall-clock seconds spent in `run()` so far."""
        return self._wall_s

    @property
    def nodes(self) -> tuple[Node, ...]:
        return tuple(self._nodes)

    @property
    def links(self) -> tuple[Link, ...]:
        """Every link direction, in creation order."""
        return tuple(self._links)

    @property
    def flows(self) -> tuple[Flow, ...]:
        return tuple(self._flows)

    # --- topology ---------------------------------------------------------------

    def node(
        self, name: str | None = None, processing: network_specs.Processing | None = None
    ) -> Node:
        """A new node; unnamed nodes are called n0, n1, ... by creation order.
        `processing` gives it a processor (see `Node.set_processing`)."""
        name = f"n{len(self._nodes)}" if name is None else checks.name(name, "name")
        if any(node.name == name for node in self._nodes):
            raise ParameterError("name", f"{name!r} is already the name of a node")
        cpu = network_specs.processing_spec(processing, "processing")
        node = Node(self._native, self._native.add_node(name), name)
        self._nodes.append(node)
        if self._routing is not None:
            self._native.set_router(node.id, self._routing)
        if cpu is not None:
            self._native.set_processor(node.id, cpu)
        return node

    def simplex_link(
        self,
        src: Node,
        dst: Node,
        bandwidth: units.Bandwidth,
        delay: units.Duration,
        queue: specs.Queue = DEFAULT_QUEUE,
    ) -> Link:
        """A one-way link src->dst with its own queue."""
        channel = self._checked_channel(src, dst, bandwidth, delay, queue, "src", "dst")
        return self._add_channel(*channel, delay)

    def duplex_link(
        self,
        a: Node,
        b: Node,
        bandwidth: units.Bandwidth,
        delay: units.Duration,
        queue: specs.Queue = DEFAULT_QUEUE,
        reverse: specs.LinkParams | None = None,
    ) -> Link:
        """Two links a->b and b->a with the same parameters, except those that
        `reverse` overrides for b->a. Each direction has its own queue.
        Returns the a->b link; `link(b, a)` gives the other."""
        if reverse is None:
            reverse = specs.LinkParams()
        elif not isinstance(reverse, specs.LinkParams):
            raise ParameterError("reverse", f"{reverse!r} is not an ackclock.LinkParams")
        # Both directions are checked before either is created.
        forward = self._checked_channel(a, b, bandwidth, delay, queue, "a", "b")
        backward = self._checked_channel(
            b,
            a,
            bandwidth if reverse.bandwidth is None else reverse.bandwidth,
            delay if reverse.delay is None else reverse.delay,
            queue if reverse.queue is None else reverse.queue,
            "b",
            "a",
        )
        link = self._add_channel(*forward, delay)
        link.reverse = self._add_channel(
            *backward, delay if reverse.delay is None else reverse.delay
        )
        link.reverse.reverse = link
        return link

    def link(self, src: Node, dst: Node) -> Link:
        """The link direction src->dst (when there are several, use the handles
        that `simplex_link` and `duplex_link` returned)."""
        src = self._own_node(src, "src")
        dst = self._own_node(dst, "dst")
        links = [link for link in self._links if (link.src, link.dst) == (src, dst)]
        if not links:
            raise ConfigError(f"there is no link {src.name}->{dst.name}")
        if len(links) > 1:
            raise ConfigError(
                f"there are {len(links)} links {src.name}->{dst.name}: use the Link that "
                "simplex_link or duplex_link returned"
            )
        return links[0]

    def links_between(self, a: Node, b: Node) -> list[Link]:
        """Every link direction between a and b, both ways, in creation order."""
        a = self._own_node(a, "a")
        b = self._own_node(b, "b")
        links = [link for link in self._links if (link.src, link.dst) in ((a, b), (b, a))]
        if not links:
            raise ConfigError(f"there is no link between {a.name} and {b.name}")
        return links

    def _changing(self, a: Any, b: Any) -> list[Link]:
        """The directions a link change applies to: both of the link `a`
        (b None), each of the links in the list `a`, or every link between
        the nodes a and b."""
        if isinstance(a, (list, tuple)) and b is None:
            return [self._own_link(link, "a") for link in a]
        if isinstance(a, Link) and b is None:
            if a not in self._links:
                raise ParameterError("a", f"{a!r} is not a link of this simulation")
            return [a] if a.reverse is None else [a, a.reverse]
        return self.links_between(a, b)

    def _own_node(self, node: Any, parameter: str) -> Node:
        if not isinstance(node, Node) or not node.belongs_to(self._native):
            raise ParameterError(parameter, f"{node!r} is not a node of this simulator")
        return node

    def _checked_channel(
        self,
        src: Any,
        dst: Any,
        bandwidth: Any,
        delay: Any,
        queue: Any,
        src_parameter: str,
        dst_parameter: str,
    ) -> tuple[Node, Node, int, int, QueueSpec]:
        src = self._own_node(src, src_parameter)
        dst = self._own_node(dst, dst_parameter)
        if src is dst:
            raise ConfigError(f"a link needs two different nodes, got {src.name!r} twice")
        return (
            src,
            dst,
            units.bandwidth_bps(bandwidth, "bandwidth"),
            units.duration_ps(delay, "delay"),
            specs.queue_spec(queue, "queue"),
        )

    def _add_channel(
        self,
        src: Node,
        dst: Node,
        bandwidth_bps: int,
        delay_ps: int,
        queue: QueueSpec,
        delay: units.Duration,
    ) -> Link:
        channel_id = self._native.add_channel(src.id, dst.id, bandwidth_bps, delay_ps, queue)
        if self.ns2_order:
            self._native.set_ns2_delay(channel_id, units.ns2_seconds(delay, "delay"))
        link = Link(self._native, channel_id, src, dst, bandwidth_bps, delay_ps)
        self._links.append(link)
        return link

    def lan(
        self,
        nodes: list[Node],
        bandwidth: units.Bandwidth,
        delay: units.Duration,
        queue_limit: int = 50,
        link_layer_delay: units.Duration = 0,
        mac: str = "switched",
    ) -> Lan:
        """A shared LAN segment joining `nodes`, each through a new NIC that
        queues at most `queue_limit` packets: every frame reaches every other
        NIC `delay` after it starts, and each NIC sends at `bandwidth` without
        contention (no carrier sense, no collisions; docs/architecture.md).
        Packets pass a link layer `link_layer_delay` long each way between a
        node and its NIC. `mac`: "switched" (the above), "ns2" (ns-2's base
        Mac, as ns-2's make-lan builds it: a frame also takes its 64-byte MAC
        header's time to send, and each receiver has it as its first bit
        arrives) or "ns2-802.3" (ns-2's Mac/802_3, CSMA/CD drawing its
        backoffs from `ns2_rng`, which must be set first); docs/tcl.md."""
        own = [self._own_node(node, "nodes") for node in nodes]
        if len(own) < 2:
            raise ParameterError("nodes", "a LAN needs at least two nodes")
        nics = self._native.add_lan(
            [node.id for node in own],
            units.bandwidth_bps(bandwidth, "bandwidth"),
            units.duration_ps(delay, "delay"),
            checks.integer(queue_limit, "queue_limit", "queue limit", minimum=1),
            units.duration_ps(link_layer_delay, "link_layer_delay"),
            checks.choice(mac, "mac", ("switched", "ns2", "ns2-802.3")),
        )
        return Lan(self._native, own, nics)

    def radio(
        self,
        propagation: wireless.Propagation | None = None,
        phy: wireless.WirelessPhy | None = None,
        mac: wireless.Mac80211 | None = None,
        queue_limit: int = 50,
        arp: bool = True,
        ll_delay: units.Duration = "25us",
    ) -> Radio:
        """A radio channel (ns-2's Channel/WirelessChannel with the node-config
        of its nodes): a frame reaches every NIC on it that senses at least
        `phy.cs_threshold` with `propagation` (default `TwoRayGround()`), after
        distance / c. Each NIC runs ns-2's 802.11 DCF MAC (`mac`, default
        `Mac80211()`; docs/mac80211.md) and queues at most `queue_limit`
        packets, routing packets first (docs/wireless.md). Between a node and
        its NIC is ns-2's link layer: packets cross it in `ll_delay` each way
        (ns-2's `LL delay_`), and with `arp` a node resolves each neighbour
        with ARP before its first unicast frame to it (docs/wireless.md)."""
        propagation_spec = wireless.propagation_spec(
            wireless.TwoRayGround() if propagation is None else propagation, "propagation"
        )
        phy_spec = wireless.checked(
            wireless.WirelessPhy() if phy is None else phy,
            wireless.WirelessPhy,
            "phy",
            "ackclock.WirelessPhy(...)",
        )
        mac_spec = wireless.checked(
            wireless.Mac80211() if mac is None else mac,
            wireless.Mac80211,
            "mac",
            "ackclock.Mac80211(...)",
        )
        limit = checks.integer(queue_limit, "queue_limit", "queue limit", minimum=1)
        medium = self._native.add_radio(
            propagation_spec,
            phy_spec,
            mac_spec,
            limit,
            units.duration_ps(ll_delay, "ll_delay"),
            checks.flag(arp, "arp"),
        )
        radio = Radio(self._native, medium, self._own_node)
        self._radios.append(radio)
        return radio

    @property
    def radios(self) -> tuple[Radio, ...]:
        """The radio channels, in the order made."""
        return tuple(self._radios)

    def radio_nic(self, node: Node) -> RadioNic:
        """`node`'s NIC on a radio channel."""
        node = self._own_node(node, "node")
        for radio in self._radios:
            for nic in radio.nics:
                if nic.node is node:
                    return nic
        raise ParameterError("node", f"{node.name!r} has no radio NIC")

    def move(
        self, node: Node, at: units.Duration, destination: Sequence[float], speed: float
    ) -> None:
        """From `at` on, `node` (which has a radio NIC) heads in a straight line
        for `destination` (x, y) at `speed` m/s and stops there: ns-2's
        `$ns at at "$node setdest x y speed"`."""
        node = self._own_node(node, "node")
        at_ps = self._not_in_past(at, "at")
        if not isinstance(destination, (tuple, list)) or len(destination) != 2:
            raise ParameterError(
                "destination", f"{destination!r} is not an (x, y) position in metres"
            )
        x, y = (
            checks.real(v, "destination", "coordinate in metres", -math.inf) for v in destination
        )
        speed = checks.real(speed, "speed", "speed in m/s")
        self._native.schedule_move(node.id, at_ps, x, y, speed)

    def position(self, node: Node) -> tuple[float, float, float]:
        """Where `node`'s radio NIC is now, (x, y, z) in metres."""
        return self._native.position(self._own_node(node, "node").id)

    def position_series(self, node: Node) -> dict[str, list[float]]:
        """{"time_s", "x", "y", "z"}: `node`'s waypoints, exact, at its
        placement and at the start and end of every move that has started
        (the end of the move under way may lie after now); in between it
        moves in a straight line at constant speed, so
        `ackclock.network_series.position_at` gives it at any time."""
        times, xs, ys, zs = self._native.position_series(self._own_node(node, "node").id)
        return {"time_s": times, "x": xs, "y": ys, "z": zs}

    # --- routing and link dynamics ------------------------------------------------

    def routing(self, protocol: network_specs.Routing, nodes: list[Node] | None = None) -> None:
        """How nodes make their routes (like ns-2's `$ns rtproto`): `nodes`, or
        every node, those created later included. The default is
        `StaticRouting()`."""
        spec = network_specs.routing_spec(protocol, "protocol")
        if nodes is None:
            self._routing = spec
            targets = self._nodes
        else:
            targets = [self._own_node(node, "nodes") for node in nodes]
        for node in targets:
            self._native.set_router(node.id, spec)

    def route(self, node: Node, dst: Node, via: Link) -> None:
        """A static route: `node` sends `dst`'s packets on `via` (which must
        leave `node`) instead of along the shortest path."""
        node = self._own_node(node, "node")
        dst = self._own_node(dst, "dst")
        if not isinstance(via, Link) or via not in self._links:
            raise ParameterError("via", f"{via!r} is not a link of this simulation")
        if via.src is not node:
            raise ParameterError("via", f"{via!r} does not leave {node.name}")
        self._native.add_route(node.id, dst.id, via.id)

    def link_down(
        self,
        a: Node | Link | Sequence[Link],
        b: Node | None = None,
        at: units.Duration | None = None,
    ) -> None:
        """Takes every link between the nodes a and b down, both ways (or both
        directions of the link `a`, or the link directions in the list `a`),
        at `at` (absolute; None: now), like ns-2's `rtmodel-at ... down`:
        what they queue or carry is lost."""
        change_links(self._native, self._changing(a, b), {"type": "down"}, at)

    def link_up(
        self,
        a: Node | Link | Sequence[Link],
        b: Node | None = None,
        at: units.Duration | None = None,
    ) -> None:
        """Brings the links `link_down` would take down back up at `at`."""
        change_links(self._native, self._changing(a, b), {"type": "up"}, at)

    def link_failures(
        self,
        a: Node | Link | Sequence[Link],
        b: Node | None = None,
        *,
        failures: network_specs.LinkFailures,
    ) -> None:
        """The links `link_down` would take down fail and recover over and
        over, together (ns-2's `rtmodel`)."""
        if not isinstance(failures, network_specs.LinkFailures):
            raise ParameterError(
                "failures", f"{failures!r} is not a failure model: use ackclock.LinkFailures"
            )
        links = self._changing(a, b)
        self._native.add_failure_model([link.id for link in links], failures.to_native())

    def record_routes(self) -> None:
        """Starts recording every route change (see `route_changes`)."""
        self._native.record_routes()
        self._recording_routes = True

    @property
    def recording_routes(self) -> bool:
        """Whether `record_routes()` was called."""
        return self._recording_routes

    def route_changes(self) -> list[dict[str, Any]]:
        """Every route installed, changed or withdrawn since `record_routes()`,
        by any node's routing (static, session, DV, AODV, DSDV), in time
        order: time_s, node, dst and the new next_hop (a node name, or None
        when the route went away)."""
        name = self._native.node_name
        return [
            {
                "time_s": time_s,
                "node": name(node),
                "dst": name(dst),
                "next_hop": None if hop is None else name(hop[2]),
            }
            for time_s, node, dst, hop in self._native.route_changes()
        ]

    # --- traffic ----------------------------------------------------------------

    def cbr(
        self,
        src: Node,
        dst: Node,
        rate: units.Bandwidth,
        packet_size: specs.PacketSize = DEFAULT_PACKET_SIZE,
        start: units.Duration = 0,
        stop: units.Duration | None = None,
        max_packets: int | None = None,
        name: str | None = None,
        ecn: bool = False,
        label: specs.FlowLabel | None = None,
        jitter: bool = False,
    ) -> SourceFlow:
        """Constant bit rate: one packet every packet_size * 8 / rate seconds
        (with random sizes, their mean); with `jitter` (ns-2's CBR `random_`)
        each gap is that interval times a uniform draw from [0.5, 1.5)."""
        traffic: TrafficSpec = {
            "type": "cbr",
            "rate_bps": units.bandwidth_bps(rate, "rate"),
            "jitter": checks.flag(jitter, "jitter"),
        }
        return self._add_flow(
            "cbr", traffic, src, dst, packet_size, start, stop, max_packets, name, ecn, label
        )

    def poisson(
        self,
        src: Node,
        dst: Node,
        mean_interval: units.Duration,
        packet_size: specs.PacketSize = DEFAULT_PACKET_SIZE,
        start: units.Duration = 0,
        stop: units.Duration | None = None,
        max_packets: int | None = None,
        name: str | None = None,
        ecn: bool = False,
        label: specs.FlowLabel | None = None,
    ) -> SourceFlow:
        """Poisson arrivals: exponential gaps of mean `mean_interval`."""
        traffic: TrafficSpec = {
            "type": "poisson",
            "mean_interval_ps": units.positive_duration_ps(mean_interval, "mean_interval"),
        }
        return self._add_flow(
            "poisson", traffic, src, dst, packet_size, start, stop, max_packets, name, ecn, label
        )

    def on_off(
        self,
        src: Node,
        dst: Node,
        rate: units.Bandwidth,
        on_mean: units.Duration,
        off_mean: units.Duration,
        packet_size: specs.PacketSize = DEFAULT_PACKET_SIZE,
        start: units.Duration = 0,
        stop: units.Duration | None = None,
        max_packets: int | None = None,
        name: str | None = None,
        ecn: bool = False,
        label: specs.FlowLabel | None = None,
    ) -> SourceFlow:
        """Exponential on/off source: sends at `rate` during on periods; on and
        off period lengths are exponential with the given means."""
        traffic: TrafficSpec = {
            "type": "on_off",
            "rate_bps": units.bandwidth_bps(rate, "rate"),
            "on_mean_ps": units.positive_duration_ps(on_mean, "on_mean"),
            "off_mean_ps": units.duration_ps(off_mean, "off_mean"),
        }
        return self._add_flow(
            "on_off", traffic, src, dst, packet_size, start, stop, max_packets, name, ecn, label
        )

    def _add_flow(
        self,
        kind: str,
        traffic: TrafficSpec,
        src: Any,
        dst: Any,
        packet_size: Any,
        start: Any,
        stop: Any,
        max_packets: Any,
        name: Any,
        ecn: Any,
        label: Any,
    ) -> SourceFlow:
        src = self._own_node(src, "src")
        dst = self._own_node(dst, "dst")
        if src is dst:
            raise ConfigError(f"a flow needs two different nodes, got {src.name!r} twice")
        name = self._new_flow_name(name, kind)
        size: SizeSpec = specs.packet_size_spec(packet_size, "packet_size")
        start_ps = self._not_in_past(start, "start")
        stop_ps = None if stop is None else units.duration_ps(stop, "stop")
        if stop_ps is not None and stop_ps <= start_ps:
            raise ParameterError(
                "stop", f"{stop!r} is not a stop time: it must be after start ({start!r})"
            )
        if max_packets is not None:
            max_packets = checks.integer(max_packets, "max_packets", "packet count", minimum=1)
        workload.require_gap(traffic, size)
        flow_id = self._native.add_udp_flow(
            name,
            src.id,
            dst.id,
            traffic,
            size,
            start_ps,
            stop_ps,
            max_packets,
            checks.flag(ecn, "ecn"),
            specs.label_native(label, "label"),
        )
        flow = SourceFlow(self._native, flow_id, name, kind, src, dst, traffic, size, max_packets)
        self._flows.append(flow)
        mean_bytes = size["bytes"] if size["type"] == "fixed" else size["mean_bytes"]
        self._loads.append(
            workload.Load(
                name,
                src.id,
                dst.id,
                start_ps,
                stop_ps,
                workload.udp_packets_per_s(traffic, mean_bytes),
                mean_bytes,
                max_packets,
            )
        )
        return flow

    def tcp(
        self,
        src: Node,
        dst: Node,
        app: tcp_specs.TcpApp = DEFAULT_APP,
        tcp: tcp_specs.TcpParams = DEFAULT_TCP,
        server_tcp: tcp_specs.TcpParams | None = None,
        start: units.Duration = 0,
        server_start: units.Duration = 0,
        read_rate: units.Bandwidth | None = None,
        record: bool = False,
        name: str | None = None,
        label: specs.FlowLabel | None = None,
    ) -> TcpFlow:
        """A TCP connection from a client on `src` to a server on `dst`, driven
        by `app` (default: an unlimited bulk transfer, ns-2's FTP).

        The client connects at `start`; the server listens from `server_start`
        (before that, its port refuses connections with a reset). `tcp`
        configures the client and, unless `server_tcp` is given, the server.
        The server application reads arriving data at `read_rate` (None: at
        once; 0: never, so its window closes). `record` keeps the client's
        window variables over time for `TcpFlow.series()`. `label` sets the
        ports and trace flow id (see `FlowLabel`).
        """
        src = self._own_node(src, "src")
        dst = self._own_node(dst, "dst")
        if src is dst:
            raise ConfigError(f"a flow needs two different nodes, got {src.name!r} twice")
        app_native = tcp_specs.app_spec(app, "app")
        client = tcp_specs.tcp_spec(tcp, "tcp")
        server = None if server_tcp is None else tcp_specs.tcp_spec(server_tcp, "server_tcp")
        start_ps = self._not_in_past(start, "start")
        server_start_ps = self._not_in_past(server_start, "server_start")
        rate_bps = (
            None if read_rate is None else units.bandwidth_or_zero_bps(read_rate, "read_rate")
        )
        record = checks.flag(record, "record")
        name = self._new_flow_name(name, "tcp")
        flow_id = self._native.add_tcp_flow(
            name,
            src.id,
            dst.id,
            client,
            app_native,
            start_ps,
            server_start_ps,
            rate_bps,
            record,
            server,
            specs.label_native(label, "label"),
        )
        mss = tcp_specs.effective_mss(tcp, tcp if server_tcp is None else server_tcp)
        kind = f"tcp_{app_native['type']}"
        flow = TcpFlow(self._native, flow_id, name, kind, src, dst, mss, record, self._notices)
        self._flows.append(flow)
        self._loads.append(workload.tcp_load(name, src.id, dst.id, start_ps, app_native, mss))
        return flow

    def ping(
        self,
        src: Node,
        dst: Node,
        on_reply: Callable[[float], object],
        packet_size: int = 64,
        name: str | None = None,
        label: specs.FlowLabel | None = None,
    ) -> EchoFlow:
        """Echo requests from `src` to `dst` (ns-2's Agent/Ping): each
        `send()` sends a request of `packet_size` bytes; `dst` answers with a
        reply of the same size; when a reply reaches `src`, `on_reply(rtt)`
        is called with its round-trip time in seconds."""
        src, dst, name, ends = self._on_demand_flow(
            src, dst, ("on_reply", on_reply), name, "ping", label
        )
        size = checks.integer(packet_size, "packet_size", "packet size", minimum=1)
        flow_id = self._native.add_echo_flow(name, src.id, dst.id, size, ends)
        flow = EchoFlow(self._native, flow_id, name, "ping", src, dst)
        self._flows.append(flow)
        native = self._native
        self._notices.on_flow(
            flow_id, lambda sent_ps: on_reply((native.now_ps - sent_ps) / units.PS_PER_S)
        )
        return flow

    def messages(
        self,
        src: Node,
        dst: Node,
        on_message: Callable[[Any], object],
        name: str | None = None,
        label: specs.FlowLabel | None = None,
    ) -> MessageFlow:
        """Packets from `src` to `dst` sent on demand (ns-2's `$udp send`
        between two Agent/UDP): each `send(size, data)` sends one packet of
        `size` bytes now; when it reaches `dst`, `on_message(data)` is called
        with the object it carried (None if none)."""
        src, dst, name, ends = self._on_demand_flow(
            src, dst, ("on_message", on_message), name, "udp", label
        )
        flow_id = self._native.add_message_flow(name, src.id, dst.id, ends)
        flow = MessageFlow(self._native, flow_id, name, "udp", src, dst)
        self._flows.append(flow)
        self._notices.on_flow(flow_id, lambda seq: on_message(flow.take(seq)))
        return flow

    def _on_demand_flow(
        self,
        src: Node,
        dst: Node,
        handler: tuple[str, Any],
        name: str | None,
        kind: str,
        label: specs.FlowLabel | None,
    ) -> tuple[Node, Node, str, tuple[int, int, int]]:
        """The checked ends, name and label of a flow whose packets leave on
        demand and whose arrivals call `handler` (its parameter name and value)."""
        src = self._own_node(src, "src")
        dst = self._own_node(dst, "dst")
        parameter, function = handler
        if not callable(function):
            raise ParameterError(parameter, f"{function!r} is not callable")
        name = self._new_flow_name(name, kind)
        ends = specs.label_native(label, "label") or (0, 0, len(self._flows))
        return src, dst, name, ends

    def _not_in_past(self, time: Any, parameter: str) -> int:
        at_ps = units.duration_ps(time, parameter)
        if at_ps < self._native.now_ps:
            raise ParameterError(
                parameter, f"{time!r} is in the past (the simulation is at {self.now:g}s)"
            )
        return at_ps

    def _new_flow_name(self, name: Any, kind: str) -> str:
        """The given name, or kind + index (cbr0, poisson1, ...); names are unique."""
        name = f"{kind}{len(self._flows)}" if name is None else checks.name(name, "name")
        if any(flow.name == name for flow in self._flows):
            raise ParameterError("name", f"{name!r} is already the name of a flow")
        return name

    # --- running ----------------------------------------------------------------

    def at(self, time: units.Duration, callback: Callable[[], object]) -> None:
        """Calls `callback()` when the simulated clock reaches `time` (absolute,
        like ns-2's `$ns at`). Callbacks may schedule more callbacks or stop."""
        at_ps = self._not_in_past(time, "time")
        if not callable(callback):
            raise ParameterError("callback", f"{callback!r} is not callable")
        self._callbacks[self._native.schedule_callback(at_ps)] = callback

    def run(
        self,
        until: units.Duration | None = None,
        *,
        progress: Callable[[float, int], object] | None = None,
    ) -> RunEnd:
        """Processes events up to and including time `until` (absolute), or
        until none remain when None. Returns why it ended: "until", "idle" or
        "stopped" (by `stop()`).

        `progress(sim_time_s, events)` is called about every
        `PROGRESS_INTERVAL_S` of wall time (never more often). Python signal
        handlers run during the run; Ctrl-C raises KeyboardInterrupt within
        milliseconds. An exception from a callback, `progress` or a signal
        handler propagates, leaving the simulation between two events: its
        results so far can be read, its traces are written up to now, and it
        can be run further."""
        until_ps = None if until is None else self._not_in_past(until, "until")
        if progress is not None and not callable(progress):
            raise ParameterError("progress", f"{progress!r} is not callable")
        on_pause = _Pause(self, progress, self._max_events)
        self._check_size(until_ps)
        self._stop_requested = False
        started = time.perf_counter()
        try:
            while True:
                outcome, callback_id = self._native.run(until_ps, on_pause)
                if outcome == "notice":
                    self._notices.dispatch()
                elif outcome == "callback":
                    self._callbacks.pop(cast(int, callback_id))()
                else:
                    return cast(RunEnd, outcome)
                if self._stop_requested:
                    return "stopped"
                on_pause()
        finally:
            self._wall_s += time.perf_counter() - started

    def estimate(self, until: units.Duration | None = None) -> workload.Estimate | None:
        """The events a `run(until)` from now is expected to take (an upper
        bound of the right order; None when no flow sends, or when `until` is
        None and every flow sends forever)."""
        until_ps = None if until is None else units.duration_ps(until, "until")
        return self._estimate(until_ps)

    def _estimate(self, until_ps: int | None) -> workload.Estimate | None:
        capacity = {(link.src.id, link.dst.id): link.bandwidth_bps for link in self.links}
        return workload.estimate(self._loads, capacity, self.now_ps, until_ps)

    def _check_size(self, until_ps: int | None) -> None:
        """Refuses a run that would never end or take more than max_events."""
        endless = workload.endless(self._loads) if until_ps is None else None
        if endless is not None and not self._callbacks:
            raise ConfigError(
                f"this run would never end: flow {endless.flow!r} sends forever; "
                "give until (or the flow a stop time)"
            )
        if self._max_events is None:
            return
        estimate = self._estimate(until_ps)
        if estimate is not None and estimate.events > self._max_events:
            raise ConfigError(
                f"this run would take {estimate.describe()}, more than max_events "
                f"({self._max_events:.3g}); raise max_events if that is intended "
                "(Simulator(max_events=...), [simulation] max_events or "
                "ackclock run --max-events)"
            )

    def stop(self) -> None:
        """Ends the current `run()` when the running callback returns."""
        self._stop_requested = True

    # --- traces -------------------------------------------------------------------

    def trace_all(
        self,
        path: str | os.PathLike[str],
        variables: bool = True,
        traced: list[tuple[Node, int, str]] | None = None,
        radio: wireless.RadioTrace | None = None,
    ) -> None:
        """ns-2's `trace-all`: + - r d records of every link direction, and (with
        `variables`) cwnd_, ssthresh_, ack_, maxseq_, rtt_ and srtt_ of every TCP
        sender, in ns-2's trace format. `traced` instead names (node, port,
        variable) of the senders to trace, like ns-2's `tracevar`. Radio nodes'
        records are in it as `radio` says (default `RadioTrace()`)."""
        self.trace_ns2(path, None, variables, traced, radio=radio or wireless.RadioTrace())

    def trace_queue(self, src: Node, dst: Node, path: str | os.PathLike[str]) -> None:
        """ns-2's `trace-queue`: the records of the src->dst link direction only."""
        self.trace_ns2(path, [self.link(src, dst)], variables=False)

    def trace_ns2(
        self,
        path: str | os.PathLike[str],
        links: list[Link] | None,
        variables: bool = True,
        traced: list[tuple[Node, int, str]] | None = None,
        append: bool = False,
        radio: wireless.RadioTrace | None = None,
        traced_initial: bool = True,
        events: bool = False,
        tcp_header: bool = False,
        lans: list[tuple[Lan, Node]] | None = None,
    ) -> int:
        """One ns-2 trace file: the records of `links` (every link when None),
        those of the NICs on `lans` (h + - d r, as ns-2 writes a LAN's; each
        LAN named by the id of the node paired with it), and the variable
        records that `variables` or `traced` select (the
        `traced` ones' initial values unless `traced_initial` is False), and,
        with `radio`, radio nodes' packet events in ns-2's wireless layouts
        (docs/wireless.md); with `events`, the event-trace lines of the TCP
        flows that ask for them (`TcpFlow.trace_ns2_events`). With `append`,
        records go after what the file holds. `tcp_header` is ns-2's
        `show_tcphdr_`: the records of flows with `ns2_full_tcp` end with the
        TCP header's ACK number (-1 without ACK), flags in hex, header length
        and SACK length. Returns an id for
        `close_trace`."""
        channels = None if links is None else [self._own_link(link, "links").id for link in links]
        selected = None
        if traced is not None:
            selected = [
                (self._own_node(node, "traced").id, checks.integer(port, "traced", "port"), name)
                for node, port, name in traced
            ]
        variables = checks.flag(variables, "variables")
        append = checks.flag(append, "append")
        traced_initial = checks.flag(traced_initial, "traced_initial")
        events = checks.flag(events, "events")
        tcp_header = checks.flag(tcp_header, "tcp_header")
        radio_spec = None if radio is None else wireless.radio_trace_spec(radio, "radio")
        lan_names = [(lan.medium, self._own_node(node, "lans").id) for lan, node in lans or []]
        return self._open_trace(
            path,
            lambda file: self._native.trace_ns2(
                file,
                channels,
                variables,
                selected,
                append,
                radio_spec,
                traced_initial,
                events,
                tcp_header,
                lan_names,
            ),
            append,
        )

    def trace_nam(
        self,
        path: str | os.PathLike[str],
        preamble: str | None = None,
        append: bool = False,
        lans: list[tuple[Lan, Node]] | None = None,
    ) -> int:
        """ns-2's `namtrace-all`: every packet event in nam's format, and
        those of the NICs on `lans` (named as for `trace_ns2`), after
        `preamble`: by default the nodes (labelled with their names) and links
        built so far, so call it after building the topology; or the given
        lines (see `ackclock.nam.preamble`). `append` and the id returned as
        for `trace_ns2`."""
        if preamble is None:
            preamble = self._nam_topology()
        append = checks.flag(append, "append")
        lan_names = [(lan.medium, self._own_node(node, "lans").id) for lan, node in lans or []]
        return self._open_trace(
            path, lambda file: self._native.trace_nam(file, preamble, append, lan_names), append
        )

    def trace_red(
        self,
        path: str | os.PathLike[str],
        link: Link,
        queue: bool = True,
        average: bool = True,
        append: bool = False,
    ) -> int:
        """ns-2's trace of the RED queue of `link` (`$redq trace curq_`,
        `trace ave_`, `attach`): a line `Q TIME CURQ` when the queue an arrival
        finds changes (with `queue`), `a TIME AVE` when the average does (with
        `average`). `append` and the id returned as for `trace_ns2`."""
        channel = self._own_link(link, "link").id
        queue, average = checks.flag(queue, "queue"), checks.flag(average, "average")
        append = checks.flag(append, "append")
        return self._open_trace(
            path,
            lambda file: self._native.trace_red(file, channel, queue, average, append),
            append,
        )

    def trace_link_changes(
        self,
        path: str | os.PathLike[str],
        links: list[tuple[Link, bool]],
        append: bool = False,
    ) -> int:
        """Only links going down and up (ns-2's `$link trace-dynamics`): for
        each (link, nam) in order, that link's changes as `v TIME link-down
        FROM TO` lines of ns-2's trace or, with nam True, as the `l` and `v`
        lines of its nam trace. `append` and the id returned as for
        `trace_ns2`."""
        changes = [
            (self._own_link(link, "links").id, checks.flag(nam, "nam")) for link, nam in links
        ]
        append = checks.flag(append, "append")
        return self._open_trace(
            path,
            lambda file: self._native.trace_link_changes(file, changes, append),
            append,
        )

    def monitor(self, links: list[Link] | None = None) -> Monitor:
        """Counts the packets of `links` (every link direction when None) as
        they arrive at the queue, leave it and are dropped (ns-2's
        QueueMonitor; per flow, its flow monitor): `Monitor.counts()`."""
        channels = None if links is None else [self._own_link(link, "links").id for link in links]
        return Monitor(self._native, self._native.add_monitor(channels))

    def close_trace(self, trace: int) -> None:
        """Writes what is due to one trace (an id from `trace_ns2` or
        `trace_nam`) and closes its file; the simulation can go on."""
        self._native.close_trace(checks.integer(trace, "trace", "trace id"))

    def flush_traces(self) -> None:
        """Writes the records due so far to every trace file (as `run()`
        does whenever it returns)."""
        self._native.flush_traces()

    def trace_view(self, path: str | os.PathLike[str], preamble: str | None = None) -> None:
        """The index `ackclock view` animates: every packet event and the TCP
        senders' cwnd, complete once the traces are closed. `preamble` (nam
        header lines) gives the topology with its drawing hints; by default,
        this simulation's nodes, labelled with their names, and links."""
        if preamble is None:
            preamble = self._nam_topology()
        self._open_trace(path, lambda file: self._native.trace_view(file, preamble))

    def _nam_topology(self) -> str:
        links = []
        pairs = {(link.src.id, link.dst.id) for link in self._links}
        for link in self._links:
            src, dst = link.src.id, link.dst.id
            if (dst, src) not in pairs or src < dst:
                delay_s = link.delay_ps / units.PS_PER_S
                links.append((src, dst, float(link.bandwidth_bps), delay_s, None))
        labels = nam.node_labels((node.id, node.name) for node in self._nodes)
        return labels + nam.preamble([node.id for node in self._nodes], links)

    def tcpdump(
        self,
        path: str | os.PathLike[str],
        node: Node | None = None,
        link: Link | None = None,
        interface: Link | None = None,
    ) -> None:
        """tcpdump-style text of what `node` sends and receives, of what starts
        transmission on `link`, or of one interface (give one; see `pcap`).
        Node n has address 10.0.0.(n+1). A radio NIC's frames go to `pcap`."""
        if isinstance(interface, RadioNic):
            raise ParameterError(
                "interface", "tcpdump text is of links; capture a radio NIC with pcap"
            )
        capture = self._capture(node, link, interface)
        self._open_trace(path, lambda file: self._native.trace_tcpdump(file, *capture))

    def pcap(
        self,
        path: str | os.PathLike[str],
        node: Node | None = None,
        link: Link | None = None,
        snaplen: int = 65535,
        interface: Link | RadioNic | None = None,
    ) -> None:
        """A pcap file for Wireshark/tshark (give one of `node`, `link` and
        `interface`): what `node` sends and receives on its links (a router's
        forwarded packets twice, which Wireshark takes for retransmissions),
        what starts transmission on `link`, or what passes one interface, as
        tcpdump -i would capture it: for `interface=sim.link(r, d)`, what r
        sends to d and receives from d. Exact IPv4/TCP/UDP headers with valid
        checksums, zero payload bytes cut at `snaplen`.

        With `interface=` a radio NIC (`Radio.attach`, `radio_nic`), the file
        holds 802.11 frames (link type IEEE802_11) as a sniffer at that node
        would see them: every frame it sends and every frame that reaches it
        above the carrier-sense threshold, received intact or not, each at
        its first bit there. Data frames have the 24-byte header, LLC/SNAP
        and the IP packet; RTS, CTS and ACK are control frames; node n's MAC
        address is 02:00:00:00:00:n (docs/wireless.md)."""
        snaplen = checks.integer(snaplen, "snaplen", "byte count", minimum=1, maximum=2**32 - 1)
        if isinstance(interface, RadioNic):
            nic = self._own_radio_nic(interface, node, link)
            self._open_trace(path, lambda file: self._native.trace_pcap_nic(file, nic, snaplen))
            return
        channels, node_id, ends = self._capture(node, link, interface)
        self._open_trace(
            path, lambda file: self._native.trace_pcap(file, channels, node_id, snaplen, ends)
        )

    def _own_radio_nic(self, nic: RadioNic, node: Node | None, link: Link | None) -> int:
        if node is not None or link is not None:
            raise ParameterError("node", "give one of node, link and interface")
        if not nic.belongs_to(self._native):
            raise ParameterError("interface", f"{nic!r} is not a radio NIC of this simulation")
        return nic.id

    def close_traces(self) -> None:
        """Writes what is due and closes every trace file. Records are flushed
        whenever `run()` returns; closing also drops transmissions scheduled
        after now."""
        self._trace_files.clear()
        self._native.close_traces()

    def discard_traces(self) -> None:
        """Closes every trace file without writing more, for a run that
        failed: a trace file appears when a `run()` first completes (until
        then it is written under a temporary name beside it), so files that
        no run completed are removed and files already there are untouched."""
        self._trace_files.clear()
        self._native.discard_traces()

    @property
    def trace_files(self) -> tuple[Path, ...]:
        """The open trace files, as absolute paths."""
        return tuple(self._trace_files)

    def _open_trace(
        self, path: Any, open_native: Callable[[str], Any], append: bool = False
    ) -> Any:
        """Opens one trace file, refusing a file that another trace writes,
        and returns what `open_native` does. The file is created under a
        temporary name now (a path that cannot be written is an OSError
        naming it) and appears when `run()` completes; with `append` (a Tcl
        script's own channel, which several traces may share) it is the file
        itself, added to."""
        file = checks.file_name(path, "path")
        if append:
            return open_native(file)
        resolved = Path(file).resolve()
        if resolved in self._trace_files:
            raise ParameterError("path", f"{file!r} is already a trace file of this simulation")
        opened = open_native(file)
        self._trace_files.append(resolved)
        return opened

    def _capture(
        self, node: Node | None, link: Link | None, interface: Link | None
    ) -> tuple[list[int] | None, int | None, tuple[int, int | None] | None]:
        """(channels, node id, (sent, received) channels): the one given."""
        if [node, link, interface].count(None) != 2:
            raise ParameterError("node", "give one of node, link and interface")
        if node is not None:
            return None, self._own_node(node, "node").id, None
        if link is not None:
            return [self._own_link(link, "link").id], None, None
        sent = self._own_link(interface, "interface")
        back = [other for other in self._links if (other.src, other.dst) == (sent.dst, sent.src)]
        return None, None, (sent.id, back[-1].id if back else None)

    def _own_link(self, link: Any, parameter: str) -> Link:
        if not isinstance(link, Link) or link not in self._links:
            raise ParameterError(parameter, f"{link!r} is not a link of this simulation")
        return link

    def results(self) -> RunResult:
        """Every link direction and flow so far (deterministic: no wall time)."""
        return run_result(self._native.results(), [node.name for node in self._nodes])

    def __repr__(self) -> str:
        return (
            f"Simulator(seed={self.seed}, replication={self.replication}, now={self.now:g}s, "
            f"{len(self._nodes)} nodes, {len(self._links)} links, {len(self._flows)} flows)"
        )


class _Pause:
    """What `run()` does between slices of events: reports progress when
    `PROGRESS_INTERVAL_S` of wall time has passed since the run began or the
    last report, and ends a run that has gone past `max_events` events (one
    the estimate could not bound: no until, callbacks that never stop it)."""

    def __init__(
        self, sim: Simulator, report: Callable[[float, int], object] | None, max_events: int | None
    ) -> None:
        self._sim = sim
        self._report = report
        self._due = time.monotonic() + PROGRESS_INTERVAL_S
        self._last_event = None if max_events is None else sim.events + max_events

    def __call__(self) -> None:
        if self._last_event is not None and self._sim.events > self._last_event:
            raise ConfigError(
                f"this run has taken more than max_events ({self._sim.max_events:.3g}) events "
                f"and is at {self._sim.now:g} s; raise max_events if that is intended"
            )
        if self._report is None:
            return
        now = time.monotonic()
        if now >= self._due:
            self._due = now + PROGRESS_INTERVAL_S
            self._report(self._sim.now, self._sim.events)
