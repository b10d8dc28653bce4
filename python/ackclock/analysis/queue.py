"""Queue length over time from a packet trace (seed 003, sec. 16.2.6.3).

The queue of the link from_node -> to_node holds the packets that were
enqueued (``+``) and neither dequeued (``-``, the start of transmission) nor
dropped from it: a ``d`` record counts when the same packet (uid) had a ``+``
and no ``-`` on that link before it, which covers drop-tail and RED drops
(ns-2 writes ``+`` and then ``d``) but not the losses of an error model in
front of the queue (a ``d`` with no ``+``). The packet being transmitted is
not in the queue. With ``to_node=None`` the queues of all of from_node's
outgoing links are added up, as the chapter's queuesize.py does.

The trace must start with the queue empty (as a whole ns-2 trace does).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ackclock.analysis._common import require_packets, step_integral, time_window

_CHANGES = {"+": 1, "-": -1, "d": -1}


def queue_changes(
    packets: pd.DataFrame, from_node: int, to_node: int | None = None
) -> pd.DataFrame:
    """The records that change the queue, in trace order: ``time`` and
    ``change`` (+1 for ``+``, -1 for ``-`` and for a drop from the queue)."""
    require_packets(packets, "event", "time", "from_node", "to_node", "uid")
    at_queue = (packets["from_node"] == from_node) & packets["event"].isin(list(_CHANGES))
    if to_node is not None:
        at_queue &= packets["to_node"] == to_node
    records = packets.loc[at_queue, ["event", "time", "from_node", "to_node", "uid"]]
    records = records.sort_values("time", kind="stable")  # a no-op on a whole trace
    event = records["event"]
    keys = [records["from_node"], records["to_node"], records["uid"]]
    enqueued = (event == "+").astype(np.int64).groupby(keys).cumsum()
    dequeued = (event == "-").astype(np.int64).groupby(keys).cumsum()
    counted = (event != "d") | (enqueued > dequeued)
    records = records.loc[counted]
    return pd.DataFrame(
        {
            "time": records["time"].to_numpy(dtype=float),
            "change": records["event"].map(_CHANGES).to_numpy(dtype=np.int64),
        }
    )


def queue_series(packets: pd.DataFrame, from_node: int, to_node: int | None = None) -> pd.DataFrame:
    """Queue length (packets) as a step function: ``time`` and ``queue``, the
    length from that time until the next row. Changes at the same instant are
    merged (a packet enqueued and dequeued at once leaves no row with 1), and
    a row appears only where the length differs from the row before."""
    changes = queue_changes(packets, from_node, to_node)
    length = changes["change"].cumsum()
    series = pd.DataFrame({"time": changes["time"], "queue": length})
    series = series.groupby("time", sort=False, as_index=False).last()
    changed = series["queue"].ne(series["queue"].shift(fill_value=0))
    return series.loc[changed].reset_index(drop=True)


def time_weighted_mean_queue(
    packets: pd.DataFrame,
    from_node: int,
    to_node: int | None = None,
    start: float | None = None,
    end: float | None = None,
) -> float:
    """Time average of the queue length over [start, end]:
    (1 / (end - start)) * integral of queue(t) dt.

    Defaults: `start` 0 and `end` the time of the trace's last record (of
    any link), the denominator queuesize.py uses. queuesize.py stops adding at
    the queue's own last record; this integrates up to `end`, so the two agree
    when the trace ends with a record of this queue or with it empty.
    """
    first, last = time_window(packets, start, end)
    changes = queue_changes(packets, from_node, to_node)
    times = changes["time"].to_numpy(dtype=float)
    lengths = np.cumsum(changes["change"].to_numpy(dtype=float))
    return step_integral(times, lengths, first, last) / (last - first)
