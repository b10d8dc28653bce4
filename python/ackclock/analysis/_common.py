"""Helpers shared by the analysis modules: column checks and time windows."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

#: A link as (from node, to node), as in a trace record's fields 3 and 4.
Link = tuple[int, int]

#: The identity of a packet across hops and retransmissions: its connection
#: (both endpoints) and its sequence number.
PACKET_KEY = ["src_node", "src_port", "dst_node", "dst_port", "seq"]
CONNECTION = ["src_node", "src_port", "dst_node", "dst_port"]

#: Packet types that carry no data (ns-2 names TCP acknowledgements "ack").
ACK_TYPES = ("ack",)


def require_columns(frame: pd.DataFrame, columns: Iterable[str], what: str) -> None:
    """ValueError naming the missing columns unless `frame` has all of them."""
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise ValueError(
            f"{what} needs the columns {', '.join(missing)} (as read_ns2_trace gives); "
            f"this frame has {', '.join(map(str, frame.columns)) or 'none'}"
        )


def require_packets(packets: pd.DataFrame, *columns: str) -> None:
    require_columns(packets, columns or ("event", "time"), "a packet frame")


def positive(value: float, name: str) -> float:
    if not value > 0:
        raise ValueError(f"{name} must be greater than zero, got {value!r}")
    return float(value)


def time_window(
    packets: pd.DataFrame, start: float | None, end: float | None
) -> tuple[float, float]:
    """(start, end) with the defaults 0 and the time of the last record."""
    first = 0.0 if start is None else float(start)
    if end is not None:
        last = float(end)
    elif len(packets):
        last = float(packets["time"].max())
    else:
        last = first
    if not last > first:
        raise ValueError(f"the time window must not be empty: start {first!r}, end {last!r}")
    return first, last


def in_window(times: pd.Series, start: float, end: float, end_given: bool) -> pd.Series:
    """start <= t < end; when `end` defaulted to the last record, that record
    (t == end) is inside."""
    if end_given:
        return (times >= start) & (times < end)
    return (times >= start) & (times <= end)


def link_mask(packets: pd.DataFrame, link: Link | None) -> pd.Series:
    if link is None:
        return pd.Series(True, index=packets.index)
    from_node, to_node = link
    return (packets["from_node"] == from_node) & (packets["to_node"] == to_node)


def is_data(packets: pd.DataFrame) -> pd.Series:
    return ~packets["type"].isin(ACK_TYPES)


def step_integral(
    times: np.ndarray, values: np.ndarray, start: float, end: float, initial: float = 0.0
) -> float:
    """Integral over [start, end] of the step function that is `initial`
    before times[0] and values[i] from times[i] until times[i+1] (times sorted)."""
    edges = np.concatenate(([-np.inf], times, [np.inf]))
    levels = np.concatenate(([initial], values))
    low = np.clip(edges[:-1], start, end)
    high = np.clip(edges[1:], start, end)
    return float(np.sum(levels * (high - low)))
