"""Packets delivered more than once (seed 003, sec. 16.2.6.4, dup_counter.py).

Every dropped packet is sent twice, but classical TCP theory says few packets
should *arrive* twice; in slow start many do (13 in the chapter's basic1 run).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ackclock.analysis._common import CONNECTION, PACKET_KEY, is_data, require_packets


def packets_delivered_twice(
    packets: pd.DataFrame,
    *,
    fid: int | None = None,
    node: int | None = None,
    min_size: int | None = None,
) -> pd.DataFrame:
    """The data packets received two or more times at their destination.

    A reception is an ``r`` record of a data packet (type other than ``ack``)
    with ``to_node == dst_node``, or ``to_node == node`` when `node` is given;
    `fid` keeps one flow id; `min_size` keeps records of at least that many
    bytes (dup_counter.py uses ``size >= 1000`` where this uses the type).
    Packets are told apart by connection and sequence number.

    One row per such packet, ordered by connection and ``seq``: ``fid``,
    ``src_node``, ``src_port``, ``dst_node``, ``dst_port``, ``seq`` and
    ``copies`` (how many times it arrived, >= 2). ``len()`` of the result is
    the count dup_counter.py reports.
    """
    require_packets(packets, "event", "type", "size", "fid", "to_node", *PACKET_KEY)
    mask = (packets["event"] == "r") & is_data(packets)
    if node is None:
        mask &= packets["to_node"] == packets["dst_node"]
    else:
        mask &= packets["to_node"] == node
    if fid is not None:
        mask &= packets["fid"] == fid
    if min_size is not None:
        mask &= packets["size"] >= min_size
    received = packets.loc[mask]
    counts = received.groupby(PACKET_KEY, sort=True).agg(
        fid=("fid", "first"), copies=("event", "size")
    )
    twice = counts.loc[counts["copies"] >= 2].reset_index()
    columns = ["fid", *CONNECTION, "seq", "copies"]
    twice = twice[columns].astype({column: np.int64 for column in columns})
    return twice.reset_index(drop=True)
