"""Time series of the network layer: route changes (`Simulator.route_changes`),
radio interface queues (`RadioNic.queue_series`) and node positions
(`Simulator.position_series`), and their CSV files.

A position series holds a node's waypoints; between two it moves in a
straight line at constant speed, so `position_at` is exact at any time. A
queue series holds each value from its time until the next one.

The functions here are pure: series in, numbers or text out.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import Any

from ackclock.series import number_text

Position = tuple[float, float, float]

ROUTES_FILE = "routes.csv"
POSITIONS_FILE = "positions.csv"
QUEUES_FILE = "radio-queues.csv"


def position_at(series: Mapping[str, Sequence[float]], time: float) -> Position:
    """Where the node of a position series is at `time` (s): interpolated
    between the waypoints around it; at its first waypoint before it, at
    its last after it; after a jump at `time`, where it jumped to."""
    times = series["time_s"]
    if not times:
        raise ValueError("the position series is empty")
    after = bisect.bisect_right(times, time)
    if after == 0 or after == len(times):
        i = 0 if after == 0 else len(times) - 1
        return (series["x"][i], series["y"][i], series["z"][i])
    t0, t1 = times[after - 1], times[after]
    share = (time - t0) / (t1 - t0)  # t0 <= time < t1

    def axis(name: str) -> float:
        before, next_ = series[name][after - 1], series[name][after]
        return before + share * (next_ - before)

    return (axis("x"), axis("y"), axis("z"))


def routes_csv(changes: Sequence[Mapping[str, Any]]) -> str:
    """time_s,node,dst,next_hop: one line per route change (`route_changes()`),
    next_hop empty when the route went away."""
    lines = ["time_s,node,dst,next_hop"]
    lines.extend(
        f"{number_text(c['time_s'])},{c['node']},{c['dst']},{c['next_hop'] or ''}" for c in changes
    )
    return "\n".join(lines) + "\n"


def _by_time(
    header: str, series: Mapping[str, Mapping[str, Sequence[float]]], columns: Sequence[str]
) -> str:
    """Long format: one line per point of each node's series, ordered by time;
    points at the same time keep the order of the nodes in `series`."""
    rows = [
        (time, order, node, [values[column][i] for column in columns])
        for order, (node, values) in enumerate(series.items())
        for i, time in enumerate(values["time_s"])
    ]
    rows.sort(key=lambda row: (row[0], row[1]))
    lines = [header]
    lines.extend(
        ",".join([number_text(time), node, *(number_text(v) for v in values)])
        for time, _, node, values in rows
    )
    return "\n".join(lines) + "\n"


def positions_csv(series: Mapping[str, Mapping[str, Sequence[float]]]) -> str:
    """time_s,node,x,y,z: every node's waypoints ({node name: position series})."""
    return _by_time("time_s,node,x,y,z", series, ("x", "y", "z"))


def queues_csv(series: Mapping[str, Mapping[str, Sequence[float]]]) -> str:
    """time_s,node,packets,bytes: every radio NIC's interface queue ({node
    name: queue series})."""
    return _by_time("time_s,node,packets,bytes", series, ("packets", "bytes"))
