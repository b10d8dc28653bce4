"""Analyses of the trace files a chapter script writes, run where the script
ran (see ScriptBase's `analysis`): each returns the numbers a study keeps,
so that the run's trace, often hundreds of megabytes, can go."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ackclock.analysis import (
    cwnd_frame,
    packets_delivered_twice,
    read_ns2_trace,
    time_weighted_mean_queue,
)

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
