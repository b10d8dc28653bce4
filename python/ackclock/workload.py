"""A run's size, estimated before it starts.

A CBR source at 1000 Tb/s or a telnet app writing every picosecond would keep
the simulator busy for days; `Simulator.run` estimates the events a run will
take and refuses one above `max_events`, with the estimate, rather than
appear to hang. The estimate is an upper bound of the right order: each packet
costs an event where it is sent and one at every hop (twice for TCP, whose
ACKs travel back), a TCP flow sends at most what the slowest link of its path
carries, and a UDP source what it offers.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ackclock.errors import ParameterError
from ackclock.units import PS_PER_S

DEFAULT_MAX_EVENTS = 10**10
"""About a quarter of an hour at ten million events per second."""

# The IPv4 and TCP headers a TCP segment adds to its payload.
TCP_HEADER_BYTES = 40
# The smallest datagram a UDP source sends (IPv4 and UDP headers).
MIN_UDP_PACKET_BYTES = 28


@dataclass(frozen=True)
class Load:
    """What one flow offers while it is active, from `start_ps` to `stop_ps`
    (None: to the end of the run)."""

    flow: str
    src: int
    dst: int
    start_ps: int
    stop_ps: int | None
    packets_per_s: float
    """Packets it offers per second; inf for a TCP sender that sends as fast
    as its path carries packets of `packet_bytes`."""
    packet_bytes: float
    max_packets: float | None
    """None: no limit."""
    tcp: bool = False
    wakeups_per_s: float = 0.0
    """Application events besides packets (a telnet app's writes)."""


@dataclass(frozen=True)
class Estimate:
    events: float
    largest: Load
    """The flow that contributes most."""
    packets_per_s: float
    seconds: float | None
    hops: int

    def describe(self) -> str:
        duration = "" if self.seconds is None else f" for {self.seconds:g} s"
        return (
            f"about {self.events:.2g} events, most for flow {self.largest.flow!r}: "
            f"{self.packets_per_s:.3g} packets/s{duration} over {self.hops} "
            f"link{'s' if self.hops != 1 else ''}"
        )


def udp_packets_per_s(traffic: Mapping[str, Any], mean_bytes: float) -> float:
    """The mean packets per second a UDP source sends while active."""
    if traffic["type"] == "poisson":
        return PS_PER_S / traffic["mean_interval_ps"]
    rate = traffic["rate_bps"] / (8 * mean_bytes)
    if traffic["type"] == "on_off":
        on, off = traffic["on_mean_ps"], traffic["off_mean_ps"]
        rate *= on / (on + off)
    return rate


def tcp_load(
    flow: str, src: int, dst: int, start_ps: int, app: Mapping[str, Any], mss: int
) -> Load:
    """What a TCP connection driven by `app` (its native dict) offers."""
    rate, wakeups, packets = math.inf, 0.0, None
    if app["type"] == "bulk" and app["bytes"] is not None:
        packets = math.ceil(app["bytes"] / mss)
    elif app["type"] == "telnet":
        rate = wakeups = PS_PER_S / app["mean_interval_ps"]
    elif app["type"] == "request_response":
        exchange = math.ceil(app["request"] / mss) + math.ceil(app["response"] / mss)
        packets = app["count"] * exchange
    segment = mss + TCP_HEADER_BYTES
    return Load(flow, src, dst, start_ps, None, rate, segment, packets, True, wakeups)


def require_gap(traffic: Mapping[str, Any], size: Mapping[str, Any]) -> None:
    """Refuses a rate so fast that packets would leave under 1 ps apart."""
    gap_ps = smallest_gap_ps(traffic, size)
    if gap_ps is not None and gap_ps < 1:
        raise ParameterError(
            "rate",
            f"{traffic['rate_bps']:.3g} bit/s is too fast: its packets would leave "
            f"{gap_ps:.3g} ps apart, and the clock counts whole picoseconds",
        )


def smallest_gap_ps(traffic: Mapping[str, Any], size: Mapping[str, Any]) -> float | None:
    """The shortest time between two packets of a source sending at a rate
    (CBR, on-off): that of its smallest packet (for CBR with random sizes,
    its mean, which sets its interval). None for Poisson sources."""
    if traffic["type"] == "poisson":
        return None
    if size["type"] == "fixed":
        smallest = size["bytes"]
    elif traffic["type"] == "cbr":
        smallest = size["mean_bytes"]
    else:
        smallest = MIN_UDP_PACKET_BYTES
    return smallest * 8 * PS_PER_S / traffic["rate_bps"]


def endless(loads: Iterable[Load]) -> Load | None:
    """A flow that sends for as long as the run lasts, if there is one."""
    return next((load for load in loads if load.stop_ps is None and load.max_packets is None), None)


def estimate(
    loads: Iterable[Load],
    links: Mapping[tuple[int, int], int],
    now_ps: int,
    until_ps: int | None,
) -> Estimate | None:
    """The events from `now_ps` to `until_ps` (None: until the flows end; a
    flow that never ends is then left out) over `links` ((src, dst) -> bit/s),
    or None when no flow can send."""
    neighbours: dict[int, list[int]] = {}
    for a, b in links:
        neighbours.setdefault(a, []).append(b)
    total, largest = 0.0, None
    for load in loads:
        path = _path(neighbours, load.src, load.dst)
        if path is None:
            continue  # unreachable: run() reports it
        rate = load.packets_per_s
        if load.tcp:
            carried = min(links[hop] for hop in path) / (8 * load.packet_bytes)
            rate = min(rate, carried)
        end = _earliest(until_ps, load.stop_ps)
        seconds = None if end is None else max(0, end - max(now_ps, load.start_ps)) / PS_PER_S
        packets = math.inf if seconds is None else rate * seconds
        if load.max_packets is not None:
            packets = min(packets, load.max_packets)
        if math.isinf(packets):
            continue  # sends forever and the run has no end: nothing to bound
        wakeups = 0.0 if seconds is None else load.wakeups_per_s * seconds
        events = packets * (len(path) + 1) * (2 if load.tcp else 1) + wakeups
        total += events
        if largest is None or events > largest.events:
            largest = Estimate(events, load, max(rate, load.wakeups_per_s), seconds, len(path))
    if largest is None:
        return None
    return Estimate(total, largest.largest, largest.packets_per_s, largest.seconds, largest.hops)


def _earliest(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def _path(neighbours: Mapping[int, list[int]], src: int, dst: int) -> list[tuple[int, int]] | None:
    """The links of a shortest path from src to dst (breadth first)."""
    came_from: dict[int, int] = {src: src}
    queue = deque([src])
    while queue:
        node = queue.popleft()
        if node == dst:
            path = []
            while node != src:
                path.append((came_from[node], node))
                node = came_from[node]
            return path[::-1]
        for nxt in neighbours.get(node, []):
            if nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    return None
