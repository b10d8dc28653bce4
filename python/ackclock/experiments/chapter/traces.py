"""Analyses of the trace files a chapter script writes, run where the script
ran (see ScriptBase's `analysis`): each returns the numbers a study keeps,
so that the run's trace, often hundreds of megabytes, can go."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ackclock.analysis import (
    cluster_counts,
    cwnd_frame,
    drop_clusters,
    packets_delivered_twice,
    read_ns2_trace,
    teeth,
    time_weighted_mean_queue,
)
from ackclock.analysis.ns2wireless import read_wireless_trace

# The router R is node 1 in basic1.tcl and basic1-long.tcl (A = 0, B = 2).
ROUTER = 1


def mean_queue(workdir: Path) -> dict[str, Any]:
    """queuesize.py's time-averaged queue at R (sec. 16.2.6.3)."""
    packets, _ = read_ns2_trace(workdir / "basic1-long.tr")
    return {"avg_queue": time_weighted_mean_queue(packets, ROUTER)}


def delivered_twice(workdir: Path) -> dict[str, Any]:
    """dup_counter.py's count of data packets B received twice (sec. 16.2.6.4)."""
    packets, _ = read_ns2_trace(workdir / "basic1.tr")
    twice = packets_delivered_twice(packets, fid=0)
    return {"delivered_twice": len(twice), "seqnos": ",".join(map(str, twice["seq"]))}


def cwnd_series(workdir: Path) -> dict[str, Any]:
    """Both senders' cwnd_ records of renovegas.tcl, as a time series (sec. 16.5)."""
    _, variables = read_ns2_trace(workdir / "renovegas.tr")
    return {"cwnd": cwnd_frame(variables)}


# Sec. 16.4.2.1 and 16.4.4: teeth.py counts from STARTPOINT (after slow start)
# and clusters drops with a granularity of 1.5 to 2 s.
STARTPOINT_S = 3.0
DC_GRANULARITY_S = 2.0


def drop_cluster_counts(workdir: Path) -> dict[str, Any]:
    """teeth.py's clusterdict for basic2.tcl's trace: "d0,d1:count" pairs,
    most frequent first, and the number of clusters."""
    packets, _ = read_ns2_trace(workdir / "basic2.tr")
    clusters = drop_clusters(packets, DC_GRANULARITY_S, start=STARTPOINT_S)
    counts = cluster_counts(clusters)
    pairs = [
        f"{row.drops_fid0},{row.drops_fid1}:{row.clusters}"
        for row in counts.itertuples(index=False)
    ]
    return {"clusterdict": " ".join(pairs), "loss_events": len(clusters)}


def loss_responses(workdir: Path) -> dict[str, Any]:
    """Sec. 16.4.2.1's count for basic2.tcl: each flow's loss responses
    (cwnd decreases after STARTPOINT) and how many were coarse timeouts
    (cwnd down to 1)."""
    _, variables = read_ns2_trace(workdir / "basic2.tr")
    cwnd = cwnd_frame(variables)
    found = teeth(cwnd, start=STARTPOINT_S)
    counts: dict[str, Any] = {}
    # the flows as the trace names them, A's (flow 0) first
    for index, flow in enumerate(sorted(cwnd["flow"].unique(), key=float)):
        mine = found[found["flow"] == flow]
        counts[f"responses{index}"] = len(mine)
        counts[f"timeouts{index}"] = int(mine["timeout"].sum())
    return counts


def sawtooth(workdir: Path) -> dict[str, Any]:
    """basic1.tcl's sender after slow start (sec. 16.2.6.5): packets ACKed,
    loss responses (cwnd decreases from STARTPOINT), the highest peak, and
    cwnd's time average from STARTPOINT to the last record."""
    _, variables = read_ns2_trace(workdir / "basic1.tr")
    cwnd = cwnd_frame(variables)
    found = teeth(cwnd, start=STARTPOINT_S)
    after = cwnd[cwnd["time"] >= STARTPOINT_S]
    times, values = after["time"].to_numpy(), after["cwnd"].to_numpy()
    mean = float(np.sum(values[:-1] * np.diff(times)) / (times[-1] - times[0]))
    acks = variables[variables["name"] == "ack_"]["value"]
    return {
        "acked": int(acks.iloc[-1]),
        "loss_events": len(found),
        "peak": float(found["peak"].max()),
        "mean_cwnd": mean,
    }


def wireless_delivery(workdir: Path) -> dict[str, Any]:
    """wireless.tcl's trace (sec. 16.6): CBR packets the mover received and
    when, and when CBR packets were dropped."""
    records = read_wireless_trace(workdir / "wireless.tr")
    cbr = records[records["type"] == "cbr"]
    mover = int(records["node"].max())
    received = cbr[(cbr["event"] == "r") & (cbr["level"] == "AGT") & (cbr["node"] == mover)]
    sent = cbr[(cbr["event"] == "s") & (cbr["level"] == "AGT")]
    drops = cbr[cbr["event"] == "d"]
    times = lambda rows: " ".join(f"{t:.6f}" for t in rows["time"])  # noqa: E731
    return {
        "sent": len(sent),
        "delivered": len(received),
        "delivered_times": times(received),
        "drop_times": times(drops),
    }
