"""Goodput, throughput and link utilization from a packet trace.

Definitions (seed 003, sec. 16.2.1: "the goodput of a TCP connection is,
properly, the number of application bytes received"; throughput counts
headers and retransmissions too):

* a *delivery* is an ``r`` record of a data packet (any type but ``ack``) at
  its destination: ``to_node == dst_node``, or the records on one given
  ``link=(from_node, to_node)``;
* a packet is identified by its connection (source and destination node.port)
  and sequence number; its *first delivery* is the earliest such record.
  Later copies (a retransmission of a packet that had arrived) are not
  goodput;
* goodput over [start, end) = the bytes (trace ``size``, minus
  ``header_bytes`` per packet) of the packets whose first delivery lies in the
  window, divided by end - start. Goodputs of adjacent windows add up.
* with ``in_order=True`` a packet counts only once it *and every packet
  before it* (sequence numbers from 0, the SYN) have arrived, at the time the
  receiver could hand it to the application: what ns-2's TCPSink ``bytes_``
  counts (the chapter's recv0/recv1 and "ACKed" are round(bytes_/1000)).
  Packets above a hole that is still open at `end` are left out.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ackclock.analysis._common import (
    CONNECTION,
    PACKET_KEY,
    Link,
    in_window,
    is_data,
    link_mask,
    positive,
    require_packets,
    time_window,
)


def first_deliveries(
    packets: pd.DataFrame, fid: int | None = None, link: Link | None = None
) -> pd.DataFrame:
    """The first delivery record of every distinct data packet (see the module
    docstring), in trace order; `fid` keeps one flow id."""
    require_packets(packets, "event", "time", "type", "fid", *PACKET_KEY, "from_node", "to_node")
    arrived = packets["event"] == "r"
    if link is None:
        where = packets["to_node"] == packets["dst_node"]
    else:
        where = link_mask(packets, link)
    mask = arrived & where & is_data(packets)
    if fid is not None:
        mask &= packets["fid"] == fid
    return packets.loc[mask].drop_duplicates(subset=PACKET_KEY, keep="first")


def in_order_deliveries(
    packets: pd.DataFrame, fid: int | None = None, link: Link | None = None
) -> pd.DataFrame:
    """`first_deliveries` of the packets that became deliverable in order,
    with ``time`` set to that moment: the latest first-delivery time of the
    packet and of all packets of its connection with smaller sequence numbers
    (which start at 0). Packets after a sequence number that never arrived are
    left out. Ordered by connection and sequence number."""
    delivered = first_deliveries(packets, fid, link).sort_values([*CONNECTION, "seq"])
    expected = delivered.groupby(CONNECTION, sort=False).cumcount()
    # Distinct sorted seqs are >= their position; equal exactly until the first gap.
    contiguous = delivered.loc[delivered["seq"].to_numpy() == expected.to_numpy()].copy()
    contiguous["time"] = contiguous.groupby(CONNECTION, sort=False)["time"].cummax()
    return contiguous


def _deliveries(
    packets: pd.DataFrame, fid: int | None, link: Link | None, in_order: bool
) -> pd.DataFrame:
    if in_order:
        return in_order_deliveries(packets, fid, link)
    return first_deliveries(packets, fid, link)


def goodput(
    packets: pd.DataFrame,
    fid: int | None = None,
    *,
    link: Link | None = None,
    start: float | None = None,
    end: float | None = None,
    header_bytes: int = 0,
    in_order: bool = False,
) -> float:
    """Goodput in bytes per second: bytes of distinct data packets first
    delivered in [start, end), over end - start (module docstring).

    `fid` selects one flow id (None: all flows); `link` counts deliveries on
    that link instead of at each packet's destination; `start` defaults to 0
    and `end` to the last record's time (that record included);
    `header_bytes` is subtracted per packet (40 for ns-2's TCP/IP header gives
    application bytes). The SYN is a 40-byte data packet. `in_order` counts
    only data deliverable in order (as ns-2's TCPSink ``bytes_``).
    """
    first, last = time_window(packets, start, end)
    delivered = _deliveries(packets, fid, link, in_order)
    inside = delivered.loc[in_window(delivered["time"], first, last, end is not None)]
    payload = inside["size"].sum() - header_bytes * len(inside)
    return float(payload) / (last - first)


def goodput_by_flow(
    packets: pd.DataFrame,
    *,
    link: Link | None = None,
    start: float | None = None,
    end: float | None = None,
    header_bytes: int = 0,
    in_order: bool = False,
) -> pd.DataFrame:
    """`goodput` of every flow id: one row per fid (sorted) with ``packets``
    (distinct data packets first delivered in the window, or deliverable in
    order with `in_order`), ``bytes`` and ``bytes_per_s``."""
    first, last = time_window(packets, start, end)
    delivered = _deliveries(packets, None, link, in_order)
    inside = delivered.loc[in_window(delivered["time"], first, last, end is not None)]
    fids = np.sort(packets.loc[is_data(packets), "fid"].unique())
    grouped = inside.groupby("fid")["size"].agg(["count", "sum"]).reindex(fids, fill_value=0)
    table = pd.DataFrame(
        {
            "fid": fids.astype(np.int64),
            "packets": grouped["count"].to_numpy(dtype=np.int64),
            "bytes": (grouped["sum"] - header_bytes * grouped["count"]).to_numpy(dtype=np.int64),
        }
    )
    table["bytes_per_s"] = table["bytes"] / (last - first)
    return table


def link_utilization(
    packets: pd.DataFrame,
    from_node: int,
    to_node: int,
    bandwidth_bps: float,
    start: float | None = None,
    end: float | None = None,
) -> float:
    """Fraction of [start, end) during which the link from_node -> to_node
    was transmitting.

    Each ``-`` (dequeue) record on the link starts a transmission lasting
    size * 8 / bandwidth_bps seconds; the busy intervals are clipped to the
    window (a transmission that started before `start` counts its part
    inside). Defaults: `start` 0, `end` the last record's time.
    """
    require_packets(packets, "event", "time", "from_node", "to_node", "size")
    bandwidth = positive(bandwidth_bps, "bandwidth_bps")
    first, last = time_window(packets, start, end)
    sent = packets.loc[(packets["event"] == "-") & link_mask(packets, (from_node, to_node))]
    begin = sent["time"].to_numpy(dtype=float)
    finish = begin + sent["size"].to_numpy(dtype=float) * 8.0 / bandwidth
    busy = np.clip(finish, first, last) - np.clip(begin, first, last)
    return float(busy.sum()) / (last - first)


def throughput_series(
    packets: pd.DataFrame,
    *,
    link: Link | None = None,
    fid: int | None = None,
    bin: float = 1.0,
    start: float | None = None,
    end: float | None = None,
) -> pd.DataFrame:
    """Throughput per time bin: bytes of all ``r`` records (headers and
    retransmissions included) on `link`, or of data packets arriving at their
    destination when `link` is None, per flow id.

    Long format, one row per (bin, fid), zeros included: ``time`` (the bin's
    start, s), ``fid``, ``bytes`` and ``bits_per_s`` (bytes * 8 / bin).
    Bins are [start + k*bin, start + (k+1)*bin) covering [start, end); the
    last one may reach past `end` (its rate is still bytes * 8 / bin).
    """
    require_packets(packets, "event", "time", "from_node", "to_node", "size", "fid", "type")
    width = positive(bin, "bin")
    first, last = time_window(packets, start, end)
    arrived = packets["event"] == "r"
    if link is None:
        mask = arrived & (packets["to_node"] == packets["dst_node"]) & is_data(packets)
        fids = packets.loc[is_data(packets), "fid"]
    else:
        mask = arrived & link_mask(packets, link)
        fids = packets.loc[link_mask(packets, link), "fid"]
    if fid is not None:
        mask &= packets["fid"] == fid
        fids = fids[fids == fid]
    records = packets.loc[mask & (packets["time"] >= first) & (packets["time"] < last)]
    bins = int(np.ceil((last - first) / width))
    index = ((records["time"].to_numpy() - first) // width).astype(np.int64)
    all_fids = np.sort(fids.unique()).astype(np.int64)
    frames = []
    for flow in all_fids:
        chosen = (records["fid"] == flow).to_numpy()
        counts = np.bincount(
            index[chosen], weights=records["size"].to_numpy()[chosen], minlength=bins
        )
        frames.append(
            pd.DataFrame(
                {
                    "time": first + width * np.arange(bins),
                    "fid": flow,
                    "bytes": counts[:bins].astype(np.int64),
                }
            )
        )
    if not frames:
        table = pd.DataFrame(
            {
                "time": pd.Series(dtype=float),
                "fid": pd.Series(dtype=np.int64),
                "bytes": pd.Series(dtype=np.int64),
            }
        )
    else:
        table = pd.concat(frames, ignore_index=True)
    table["bits_per_s"] = table["bytes"] * 8.0 / width
    return table


__all__ = [
    "first_deliveries",
    "in_order_deliveries",
    "goodput",
    "goodput_by_flow",
    "link_utilization",
    "throughput_series",
]
