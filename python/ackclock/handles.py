"""Handles to the parts of a simulation: small objects holding the native
simulation and an id, returned by `Simulator` and passed back to it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable

from ackclock import checks, network_specs, specs, units, workload
from ackclock.errors import ConfigError, ParameterError
from ackclock.results import (
    FlowResult,
    LinkResult,
    NicResult,
    NodeResult,
    flow_result,
    link_result,
    nic_result,
    node_result,
)
from ackclock.series import Row, rows, with_segments

if TYPE_CHECKING:
    from ackclock._native import LinkChangeSpec, MonitorCounts, Sim, SizeSpec, TrafficSpec
    from ackclock.notices import Notices


class Node:
    """A node (host or router)."""

    def __init__(self, native: Sim, node_id: int, name: str) -> None:
        self._native = native
        self.id = node_id
        self.name = name

    def belongs_to(self, native: Sim) -> bool:
        return self._native is native

    def set_processing(self, processing: network_specs.Processing | None) -> None:
        """Gives the node a processor that handles each packet it receives or
        sends for a service time, one at a time (None removes it)."""
        self._native.set_processor(self.id, network_specs.processing_spec(processing, "processing"))

    def wait_for_routes(self, packets: int, timeout: units.Duration) -> None:
        """Packets without a route wait here, at most `packets` of them (the
        oldest make room) for at most `timeout` each, and leave when a route
        comes; by default they are dropped."""
        capacity = checks.integer(packets, "packets", "packet count")
        self._native.set_route_wait(self.id, capacity, units.duration_ps(timeout, "timeout"))

    def routes(self) -> dict[str, str | None]:
        """{destination: the neighbour this node sends its packets to, or None}
        for every other node, now."""
        hops = self._native.routes(self.id)
        name = self._native.node_name
        return {
            name(dst): None if hop is None else name(hop[2])
            for dst, hop in enumerate(hops)
            if dst != self.id
        }

    def stats(self) -> NodeResult:
        return node_result(self._native.node_stats(self.id))

    def __repr__(self) -> str:
        return f"Node({self.name!r})"


class Link:
    """One direction of a link (a duplex link is two of these)."""

    def __init__(
        self, native: Sim, channel_id: int, src: Node, dst: Node, bandwidth_bps: int, delay_ps: int
    ) -> None:
        self._native = native
        self.id = channel_id
        self.src = src
        self.dst = dst
        self.bandwidth_bps = bandwidth_bps
        self.delay_ps = delay_ps
        self.reverse: Link | None = None
        """The other direction of a duplex link."""

    def down(self, at: units.Duration | None = None) -> None:
        """Takes this direction down at `at` (absolute; None: now): what it
        queues or carries is lost and packets are dropped until it is up."""
        change_links(self._native, [self], {"type": "down"}, at)

    def up(self, at: units.Duration | None = None) -> None:
        """Brings this direction back up at `at` (None: now)."""
        change_links(self._native, [self], {"type": "up"}, at)

    def set_bandwidth(self, bandwidth: units.Bandwidth, at: units.Duration | None = None) -> None:
        """Changes this direction's rate at `at` (None: now); the packet being
        sent then finishes at the old rate."""
        bps = units.bandwidth_bps(bandwidth, "bandwidth")
        change_links(self._native, [self], {"type": "bandwidth", "bandwidth_bps": bps}, at)

    def set_cost(self, cost: int) -> None:
        """The routing cost of this direction (ns-2's `$ns cost`, default 1):
        paths minimise the sum of costs."""
        self._native.set_cost(self.id, checks.integer(cost, "cost", "cost", minimum=1))

    def set_loss(self, loss: specs.LossModel | None) -> None:
        """Attaches an error model to this direction (None removes it)."""
        self._native.set_loss(self.id, specs.loss_spec(loss, "loss"))

    def add_loss(
        self, loss: specs.LossModel, flows: list[Flow] | None = None, all_but: bool = False
    ) -> int:
        """Adds an error model for the packets of `flows` (every flow when
        None; every flow but those with `all_but`), after the models already
        there: each model a packet meets may lose it (ns-2's lossmodel,
        link-lossmodel and ErrorModule). Returns an index for `add_loss_flow`."""
        spec = specs.loss_spec(loss, "loss")
        if spec is None:
            raise ConfigError("add_loss: give a loss model (set_loss(None) removes them all)")
        ids = None if flows is None else [self._flow_id(flow) for flow in flows]
        return self._native.add_loss(self.id, spec, ids, checks.flag(all_but, "all_but"))

    def add_loss_flow(self, index: int, flow: Flow) -> None:
        """Names one more flow in the filter of the error model `index`."""
        index = checks.integer(index, "index", "index")
        self._native.add_loss_flow(self.id, index, self._flow_id(flow))

    def _flow_id(self, flow: Flow) -> int:
        if not isinstance(flow, Flow) or not flow.belongs_to(self._native):
            raise ConfigError(f"{flow!r} is not a flow of this simulation")
        return flow.id

    def set_jitter(self, jitter: specs.Jitter | None) -> None:
        """Adds random delay to this direction (None removes it)."""
        self._native.set_jitter(self.id, specs.jitter_spec(jitter, "jitter"))

    def set_duplication(self, p: float) -> None:
        """The far end receives each packet twice with probability `p` (0 turns it off)."""
        self._native.set_duplication(self.id, checks.probability(p, "p"))

    def stats(self) -> LinkResult:
        return link_result(self._native.link_stats(self.id), self.src.name, self.dst.name)

    def queue_now(self) -> tuple[int, int, float | None]:
        """(packets, bytes) waiting now, and RED's average queue (None for a
        queue without one), in the unit of its limit."""
        return self._native.queue_now(self.id)

    def record_queue(self) -> None:
        """Starts recording this direction's queue length at every change."""
        self._native.record_queue(self.id)

    def queue_series(self) -> dict[str, list[float] | list[int]]:
        """{"time_s", "packets", "bytes"}: the waiting queue at every change since
        `record_queue()` (empty lists if it was never called)."""
        times, packets, size = self._native.queue_series(self.id)
        return {"time_s": times, "packets": packets, "bytes": size}

    def occupancy_distribution(self) -> list[float]:
        """Fraction of time with n packets in the system (waiting or being
        sent) for n = 0, 1, 2, ..."""
        return self._native.occupancy_distribution(self.id)

    def __repr__(self) -> str:
        return (
            f"Link({self.src.name}->{self.dst.name}, {units.format_bandwidth(self.bandwidth_bps)}, "
            f"{units.format_duration(self.delay_ps)})"
        )


def change_links(
    native: Sim, links: list[Link], change: LinkChangeSpec, at: units.Duration | None
) -> None:
    """Changes link directions now, or at the absolute time `at`."""
    channels = [link.id for link in links]
    if at is None:
        native.change_links(channels, change)
    else:
        native.schedule_link_change(units.duration_ps(at, "at"), channels, change)


class Lan:
    """A shared LAN segment (`Simulator.lan`): a NIC on each of its nodes."""

    def __init__(self, native: Sim, nodes: list[Node], nics: list[int]) -> None:
        self._native = native
        self.nodes = tuple(nodes)
        self._nics = nics
        self.medium: int = native.nic_stats(nics[0])["medium"]

    def stats(self) -> list[NicResult]:
        """Each node's NIC on the segment, in the order of `nodes`."""
        return [
            nic_result(self._native.nic_stats(nic), node.name)
            for nic, node in zip(self._nics, self.nodes)
        ]

    def __repr__(self) -> str:
        return f"Lan({', '.join(node.name for node in self.nodes)})"


class Radio:
    """A radio channel (`Simulator.radio`; ns-2's Channel/WirelessChannel with
    its node-config): nodes join it with `attach`."""

    def __init__(
        self,
        native: Sim,
        medium: int,
        own_node: Callable[[Any, str], Node],
    ) -> None:
        self._native = native
        self._medium = medium
        self._own_node = own_node  # the simulator's check that a node is its own
        self.nics: list[RadioNic] = []

    def attach(self, node: Node, position: Sequence[float]) -> RadioNic:
        """Gives `node` a NIC on this channel, at `position` (x, y, z) in
        metres; a node has at most one radio NIC."""
        node = self._own_node(node, "node")
        if not isinstance(position, (tuple, list)) or len(position) != 3:
            raise ParameterError("position", f"{position!r} is not an (x, y, z) position in metres")
        x, y, z = (checks.real(v, "position", "coordinate in metres", -math.inf) for v in position)
        nic = RadioNic(
            self._native, self._native.attach_radio(self._medium, node.id, x, y, z), node
        )
        self.nics.append(nic)
        return nic

    def stats(self) -> list[NicResult]:
        """Each attached node's NIC, in the order they were attached."""
        return [nic.stats() for nic in self.nics]

    def __repr__(self) -> str:
        return f"Radio({', '.join(nic.node.name for nic in self.nics)})"


class RadioNic:
    """A node's NIC on a radio channel (`Radio.attach`)."""

    def __init__(self, native: Sim, nic: int, node: Node) -> None:
        self._native = native
        self.id = nic
        self.node = node
        self.recording = False

    def belongs_to(self, native: Sim) -> bool:
        return self._native is native

    def stats(self) -> NicResult:
        return nic_result(self._native.nic_stats(self.id), self.node.name)

    def record_queue(self) -> None:
        """Starts recording the interface queue (ns-2's IFQ, a PriQueue) at
        every change."""
        self._native.record_nic_queue(self.id)
        self.recording = True

    def queue_series(self) -> dict[str, list[float] | list[int]]:
        """{"time_s", "packets", "bytes"}: the packets waiting in the interface
        queue after each instant that changed it, since `record_queue()` (empty
        lists if it was never called). The packet the MAC is sending or
        retrying has left the queue, as in ns-2; a packet the MAC takes at
        the instant it is queued never shows."""
        times, packets, size = self._native.nic_queue_series(self.id)
        return {"time_s": times, "packets": packets, "bytes": size}

    def __repr__(self) -> str:
        return f"RadioNic({self.node.name})"


class Flow:
    """A traffic source on `src` sending to `dst`: UDP packets to a sink, or
    (a `TcpFlow`) a TCP connection."""

    def __init__(
        self, native: Sim, flow_id: int, name: str, kind: str, src: Node, dst: Node
    ) -> None:
        self._native = native
        self.id = flow_id
        self.name = name
        self.kind = kind
        self.src = src
        self.dst = dst

    def belongs_to(self, native: Sim) -> bool:
        return self._native is native

    def stats(self) -> FlowResult:
        stats = self._native.flow_stats(self.id)
        names = {channel: self._link_name(channel) for channel, _ in stats["link_drops"]}
        return flow_result(stats, self.src.name, self.dst.name, names)

    def _link_name(self, channel: int) -> str:
        link = self._native.link_stats(channel)
        return f"{self._native.node_name(link['src'])}->{self._native.node_name(link['dst'])}"

    def shape(self, shaper: specs.TokenBucket) -> None:
        """Puts a token bucket (ns-2's TBF) between a UDP source and its
        node, before the flow starts."""
        if not isinstance(shaper, specs.TokenBucket):
            raise ParameterError("shaper", f"{shaper!r} is not an ackclock.TokenBucket(...)")
        self._native.shape_flow(self.id, shaper.to_native())

    def stop(self) -> None:
        """Stops the sender now (ns-2's `$app stop`): a UDP source sends no
        more; a TCP application writes no more, what it wrote still arrives."""
        self._native.stop_flow(self.id)

    def detach(self, sink: bool = False) -> None:
        """Takes the source (or, with `sink`, the sink) off its node now, as
        ns-2's `detach-agent`: it sends and receives nothing more; packets
        already in the network still travel and arrive to nobody."""
        self._native.detach(self.id, checks.flag(sink, "sink"))

    def __repr__(self) -> str:
        return f"Flow({self.name!r}, {self.kind}, {self.src.name}->{self.dst.name})"


# SourceFlow.retune's traffic parameters: the field each sets and its check.
_TRAFFIC_FIELDS: dict[str, tuple[str, Callable[[Any, str], Any]]] = {
    "rate": ("rate_bps", units.bandwidth_bps),
    "jitter": ("jitter", checks.flag),
    "mean_interval": ("mean_interval_ps", units.positive_duration_ps),
    "on_mean": ("on_mean_ps", units.positive_duration_ps),
    "off_mean": ("off_mean_ps", units.duration_ps),
}


class SourceFlow(Flow):
    """A UDP traffic source (`Simulator.cbr`, `.poisson`, `.on_off`) whose
    parameters may change while it runs."""

    def __init__(
        self,
        native: Sim,
        flow_id: int,
        name: str,
        kind: str,
        src: Node,
        dst: Node,
        traffic: TrafficSpec,
        size: SizeSpec,
        max_packets: int | None,
    ) -> None:
        super().__init__(native, flow_id, name, kind, src, dst)
        self._traffic = traffic
        self._size = size
        self._max_packets = max_packets

    def retune(
        self,
        *,
        rate: units.Bandwidth | None = None,
        packet_size: specs.PacketSize | None = None,
        max_packets: int | None = None,
        jitter: bool | None = None,
        mean_interval: units.Duration | None = None,
        on_mean: units.Duration | None = None,
        off_mean: units.Duration | None = None,
    ) -> None:
        """The source sends with the parameters given from now on (the others
        keep their values), as ns-2's CBR, which reads them at every packet:
        the departure already scheduled keeps its time; its size and the gaps
        after it follow the new values. An on-off source keeps its current
        on or off period."""
        traffic: Any = dict(self._traffic)  # one of the TypedDicts, edited by key
        given = {
            "rate": rate,
            "jitter": jitter,
            "mean_interval": mean_interval,
            "on_mean": on_mean,
            "off_mean": off_mean,
        }
        for parameter, value in given.items():
            if value is None:
                continue
            field, check = _TRAFFIC_FIELDS[parameter]
            if field not in traffic:
                raise ParameterError(parameter, f"a {self.kind} source has no {parameter}")
            traffic[field] = check(value, parameter)
        size = self._size
        if packet_size is not None:
            size = specs.packet_size_spec(packet_size, "packet_size")
        limit = self._max_packets
        if max_packets is not None:
            limit = checks.integer(max_packets, "max_packets", "packet count", minimum=1)
        workload.require_gap(traffic, size)
        self._native.retune_flow(self.id, traffic, size, limit)
        self._traffic, self._size, self._max_packets = traffic, size, limit


class EchoFlow(Flow):
    """Echo requests from `src`, answered by `dst` (ns-2's Agent/Ping pair);
    see `Simulator.ping`."""

    def send(self) -> None:
        """Sends one echo request now."""
        self._native.ping(self.id)


class MessageFlow(Flow):
    """Packets from `src` to `dst` sent on demand, each handed with the
    object it carries to the flow's `on_message` on arrival; see
    `Simulator.messages`."""

    def __init__(self, native: Sim, flow_id: int, name: str, kind: str, src: Node, dst: Node):
        super().__init__(native, flow_id, name, kind, src, dst)
        # sequence number -> the object its packet carries
        self._carried: dict[int, Any] = {}

    def send(self, size: int, data: Any = None) -> None:
        """Sends one packet of `size` bytes now, carrying `data`."""
        size = checks.integer(size, "size", "packet size", minimum=1)
        seq = self._native.post_message(self.id, size)
        if data is not None:
            self._carried[seq] = data

    def take(self, seq: int) -> Any:
        """What packet `seq` carried (None if nothing), once."""
        return self._carried.pop(seq, None)


class TcpFlow(Flow):
    """A TCP connection: the client on `src` and the server on `dst`.

    `mss` is the payload size the client sends with (after MSS negotiation).
    `record` says whether its window variables are recorded over time.
    """

    def __init__(
        self,
        native: Sim,
        flow_id: int,
        name: str,
        kind: str,
        src: Node,
        dst: Node,
        mss: int,
        record: bool,
        notices: Notices,
    ) -> None:
        super().__init__(native, flow_id, name, kind, src, dst)
        self.mss = mss
        self.record = record
        self._notices = notices

    def write(self, nbytes: int | None, server: bool = False) -> None:
        """The client (with `server`, the server) application writes `nbytes`
        more (None: without end); for flows with the `Manual` application."""
        size = None if nbytes is None else checks.integer(nbytes, "nbytes", "byte count")
        self._native.tcp_write(self.id, size, checks.flag(server, "server"))

    def set_telnet_interval(self, mean_interval: units.Duration) -> None:
        """A `Telnet` application's mean gap between writes from its next
        write on (ns-2's Telnet reads interval_ at every packet)."""
        mean_ps = units.positive_duration_ps(mean_interval, "mean_interval")
        self._native.set_telnet_interval(self.id, mean_ps)

    def when_received(
        self, nbytes: int, callback: Callable[[], object], server: bool = True
    ) -> None:
        """Calls `callback()` at the instant the server (or, without `server`,
        the client) has received `nbytes` bytes in order since the connection
        opened (ns-2's TcpApp runs a message's code so)."""
        count = checks.integer(nbytes, "nbytes", "byte count", minimum=1)
        if not callable(callback):
            raise ParameterError("callback", f"{callback!r} is not callable")
        self._notices.when_received(self.id, checks.flag(server, "server"), count, callback)

    def close(self, server: bool = False) -> None:
        """The client (with `server`, the server) application closes its
        side: FIN after its data."""
        self._native.tcp_close(self.id, checks.flag(server, "server"))

    def sequence(self, server: bool = False) -> tuple[int, int]:
        """(highest byte acknowledged, highest byte sent) by the client (with
        `server`, the server), in sequence space from its initial sequence
        number (SYN and FIN count one)."""
        return self._native.tcp_sequence(self.id, checks.flag(server, "server"))

    def state(self, server: bool = False) -> str:
        """The client's (with `server`, the server's) connection state, RFC
        9293's name in lower case: "established", "close-wait", "closed"..."""
        return self._native.tcp_state(self.id, checks.flag(server, "server"))

    def trace_ns2_events(self, fast_retransmit: str = "FAST_RETX") -> None:
        """Writes ns-2's event-trace lines of the client (`$ns eventtrace-all`)
        into the ns-2 traces opened with `events=True`: TIMEOUT, its fast
        retransmit as ns-2's agent names it (FAST_RETX for Agent/TCP,
        RENO_FAST_RETX, NEWRENO_FAST_RETX, FAST_RECOVERY for Sack1) and the
        SLOW_START of the window cut after either."""
        names = ("FAST_RETX", "RENO_FAST_RETX", "NEWRENO_FAST_RETX", "FAST_RECOVERY")
        name = checks.choice(fast_retransmit, "fast_retransmit", names)
        self._native.trace_tcp_events(self.id, name)

    def ns2_vars(self) -> dict[str, float | int]:
        """The client's variables now in ns-2's units: cwnd_ (packets),
        ssthresh_, ack_, maxseq_ (packets), rtt_ (ticks), srtt_ (ticks/8),
        rttvar_ (ticks/4) and backoff_ (the RTO multiplier)."""
        return self._native.ns2_vars(self.id)

    def series(self) -> dict[str, tuple[list[float], list[float]]]:
        """{variable: (times_s, values)}, each value holding until the next:
        cwnd, cwnd_segments (cwnd / mss), ssthresh, srtt, rto,
        bytes_in_flight, rwnd, loss_events and, for an algorithm that paces,
        pacing_rate (see `ackclock.series`)."""
        if not self.record:
            raise ConfigError(
                f"flow {self.name!r} was not recorded: pass record=True to Simulator.tcp() "
                "(record = true in a scenario file) to keep its time series"
            )
        return with_segments(self._native.tcp_series(self.id), self.mss)

    def series_rows(self) -> list[Row]:
        """The series in long format: (time_s, variable, value) rows ordered by time."""
        return rows(self.series())

    def __repr__(self) -> str:
        return f"TcpFlow({self.name!r}, {self.kind}, {self.src.name}->{self.dst.name})"


class Monitor:
    """Counts of the packets arriving at, leaving and dropped from link
    queues (ns-2's queue and flow monitors); see `Simulator.monitor`."""

    def __init__(self, native: Sim, monitor_id: int) -> None:
        self._native = native
        self.id = monitor_id

    def counts(self) -> list[MonitorCounts]:
        """One row per link direction, flow id, source and destination node
        seen so far: arrivals, departures, drops (packets and bytes), the
        departures marked Congestion Experienced, what waits now, its time
        integrals and the summed waits of departures."""
        return self._native.monitor_counts(self.id)

    def __repr__(self) -> str:
        return f"Monitor({self.id})"
