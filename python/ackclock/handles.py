"""Handles to the parts of a simulation: small objects holding the native
simulation and an id, returned by `Simulator` and passed back to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ackclock import checks, network_specs, specs, units
from ackclock.errors import ConfigError
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
    from ackclock._native import LinkChangeSpec, Sim


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

    def set_jitter(self, jitter: specs.Jitter | None) -> None:
        """Adds random delay to this direction (None removes it)."""
        self._native.set_jitter(self.id, specs.jitter_spec(jitter, "jitter"))

    def set_duplication(self, p: float) -> None:
        """The far end receives each packet twice with probability `p` (0 turns it off)."""
        self._native.set_duplication(self.id, checks.probability(p, "p"))

    def stats(self) -> LinkResult:
        return link_result(self._native.link_stats(self.id), self.src.name, self.dst.name)

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

    def stats(self) -> list[NicResult]:
        """Each node's NIC on the segment, in the order of `nodes`."""
        return [
            nic_result(self._native.nic_stats(nic), node.name)
            for nic, node in zip(self._nics, self.nodes)
        ]

    def __repr__(self) -> str:
        return f"Lan({', '.join(node.name for node in self.nodes)})"


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

    def stats(self) -> FlowResult:
        stats = self._native.flow_stats(self.id)
        names = {channel: self._link_name(channel) for channel, _ in stats["link_drops"]}
        return flow_result(stats, self.src.name, self.dst.name, names)

    def _link_name(self, channel: int) -> str:
        link = self._native.link_stats(channel)
        return f"{self._native.node_name(link['src'])}->{self._native.node_name(link['dst'])}"

    def stop(self) -> None:
        """Stops the sender now (ns-2's `$app stop`): a UDP source sends no
        more; a TCP application writes no more, what it wrote still arrives."""
        self._native.stop_flow(self.id)

    def __repr__(self) -> str:
        return f"Flow({self.name!r}, {self.kind}, {self.src.name}->{self.dst.name})"


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
    ) -> None:
        super().__init__(native, flow_id, name, kind, src, dst)
        self.mss = mss
        self.record = record

    def ns2_vars(self) -> dict[str, float | int]:
        """The client's variables now in ns-2's units: cwnd_ (packets),
        ssthresh_, ack_, maxseq_ (packets), rtt_ (ticks), srtt_ (ticks/8)."""
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
