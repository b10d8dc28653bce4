"""Drop clusters and loss events (seed 003, sec. 16.4 and 16.4.4).

Losses close together in time are one *cluster* (a loss event). Following the
chapter's teeth.py (sec. 16.4.2.1, 16.4.4): "If a new cluster starts at time
T, all teeth/drops by time T + granularity are part of the same cluster; the
next tooth/drop after T + granularity starts the next new cluster" -- the
``"start"`` rule. The first cluster starts at the first loss. The ``"gap"``
rule instead joins a loss to the cluster when it follows the previous loss by
at most `granularity`, so a cluster can last longer than `granularity`.

A cluster is *shared* when it holds losses of two or more flows.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ackclock.analysis._common import Link, link_mask, positive, require_columns, require_packets

RULES = ("start", "gap")


def cluster_ids(
    times: Sequence[float] | np.ndarray | pd.Series, granularity: float, rule: str = "start"
) -> np.ndarray:
    """The cluster number (0, 1, ...) of each time; `times` must be sorted."""
    width = positive(granularity, "granularity")
    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(RULES)}, got {rule!r}")
    values = np.asarray(times, dtype=float)
    if len(values) and np.any(np.diff(values) < 0):
        raise ValueError("the times must be sorted")
    if rule == "gap":
        return np.concatenate(([0], np.cumsum(np.diff(values) > width))).astype(np.int64)[
            : len(values)
        ]
    ids = np.empty(len(values), dtype=np.int64)
    first, number = 0, 0
    while first < len(values):
        # every time <= T + granularity belongs to the cluster starting at T
        after = int(np.searchsorted(values, values[first] + width, side="right"))
        ids[first:after] = number
        first, number = after, number + 1
    return ids


def _drops(
    packets: pd.DataFrame, link: Link | None, start: float | None, end: float | None
) -> pd.DataFrame:
    require_packets(packets, "event", "time", "fid", "from_node", "to_node")
    mask = (packets["event"] == "d") & link_mask(packets, link)
    if start is not None:
        mask &= packets["time"] >= start
    if end is not None:
        mask &= packets["time"] < end
    return packets.loc[mask].sort_values("time", kind="stable")


def _fid_column(fid: object) -> str:
    return f"drops_fid{fid}"


def drop_clusters(
    packets: pd.DataFrame,
    granularity: float,
    *,
    rule: str = "start",
    link: Link | None = None,
    start: float | None = None,
    end: float | None = None,
) -> pd.DataFrame:
    """Clusters of ``d`` records (module docstring), optionally only those on
    `link` and in [start, end).

    One row per cluster: ``cluster`` (0, 1, ...), ``start`` and ``end`` (times
    of its first and last drop), ``drops``, and ``drops_fid<k>`` for every
    flow id k in the trace: that flow's drops in the cluster (the chapter's
    (d0, d1) pairs).
    """
    drops = _drops(packets, link, start, end)
    fids = sorted(packets["fid"].unique().tolist())
    ids = cluster_ids(drops["time"].to_numpy(), granularity, rule)
    grouped = drops.groupby(ids)
    table = pd.DataFrame(
        {
            "cluster": np.arange(grouped.ngroups, dtype=np.int64),
            "start": grouped["time"].min().to_numpy(dtype=float),
            "end": grouped["time"].max().to_numpy(dtype=float),
            "drops": grouped.size().to_numpy(dtype=np.int64),
        }
    )
    per_fid = pd.crosstab(ids, drops["fid"].to_numpy()).reindex(
        index=range(grouped.ngroups), columns=fids, fill_value=0
    )
    for fid in fids:
        table[_fid_column(fid)] = per_fid[fid].to_numpy(dtype=np.int64)
    return table


def cluster_counts(clusters: pd.DataFrame) -> pd.DataFrame:
    """How often each combination of per-flow drops occurs (the chapter's
    ``clusterdict``): the ``drops_fid<k>`` columns of `drop_clusters` and
    ``clusters``, the number of clusters with those counts, most frequent
    first."""
    columns = [column for column in clusters.columns if str(column).startswith("drops_fid")]
    if not columns:
        raise ValueError("cluster_counts needs the drops_fid<k> columns of drop_clusters")
    counts = clusters.groupby(columns).size().rename("clusters").reset_index()
    counts = counts.sort_values(["clusters", *columns], ascending=[False] + [True] * len(columns))
    return counts.reset_index(drop=True)


def loss_events(
    losses: pd.DataFrame,
    granularity: float,
    *,
    rule: str = "start",
    link: Link | None = None,
    start: float | None = None,
    end: float | None = None,
) -> pd.DataFrame:
    """Loss events per flow, and how many of them the flows share.

    `losses` is either a packet frame (its ``d`` records are the losses, the
    flow is the ``fid``; `link`, `start` and `end` select them as in
    `drop_clusters`) or any frame with ``time`` and ``flow`` columns, such as
    `teeth` (then the losses are loss responses and the selection arguments
    must be left out).

    All losses are clustered together. One row per flow (every fid of a
    packet frame, the flows present otherwise), with ``flow``, ``losses``,
    ``events`` (clusters with at least one loss of this flow), ``alone``
    (clusters with losses of this flow only) and ``shared`` (events - alone:
    clusters that hit another flow too).
    """
    if "event" in losses.columns:
        drops = _drops(losses, link, start, end)
        flows = sorted(losses["fid"].unique().tolist())
        times, owners = drops["time"].to_numpy(), drops["fid"].to_numpy()
    else:
        require_columns(losses, ("time", "flow"), "loss_events on loss responses")
        if link is not None or start is not None or end is not None:
            raise ValueError("link, start and end select drops from a packet frame only")
        ordered = losses.sort_values("time", kind="stable")
        flows = list(pd.unique(ordered["flow"]))
        times, owners = ordered["time"].to_numpy(), ordered["flow"].to_numpy()
    ids = cluster_ids(times, granularity, rule)
    hits = pd.crosstab(ids, owners) if len(ids) else pd.DataFrame(columns=flows)
    hits = hits.reindex(columns=flows, fill_value=0)
    flows_hit = (hits > 0).sum(axis=1)
    rows = []
    for flow in flows:
        hit = hits[flow] > 0
        events = int(hit.sum())
        alone = int((hit & (flows_hit == 1)).sum())
        rows.append(
            {
                "flow": flow,
                "losses": int(hits[flow].sum()),
                "events": events,
                "alone": alone,
                "shared": events - alone,
            }
        )
    return pd.DataFrame(rows, columns=["flow", "losses", "events", "alone", "shared"])
