"""Fairness between flows (seed 003, sec. 16.3).

Jain's fairness index (Jain 1991, cited by seed 000) and the chapter's
comparison of two competing flows: the goodput ratio of the short-RTT flow
to the long-RTT flow against the RTT ratio long/short. The synchronized-loss
model (sec. 14.3) predicts goodput ratio = RTT_ratio**2; the chapter's basic2.tcl
prints ratio1 = goodput_ratio / RTT_ratio and ratio2 = goodput_ratio /
RTT_ratio**2, and sec. 16.3.10.1 fits goodput_ratio = K * RTT_ratio**alpha.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pandas as pd

from ackclock.analysis._common import require_columns


def jain_fairness(values: Iterable[float]) -> float:
    """Jain's index (sum x)**2 / (n * sum x**2) of n non-negative allocations
    (e.g. goodputs): 1 when all are equal, 1/n when one flow has everything."""
    allocations = np.asarray(list(values), dtype=float)
    if allocations.size == 0:
        raise ValueError("Jain's index needs at least one value")
    if np.any(~np.isfinite(allocations)) or np.any(allocations < 0):
        raise ValueError(f"Jain's index needs finite values >= 0, got {allocations.tolist()}")
    squares = float(np.sum(allocations**2))
    if squares == 0:
        raise ValueError("Jain's index is undefined when every value is 0")
    return float(np.sum(allocations)) ** 2 / (allocations.size * squares)


def goodput_ratio_vs_rtt_ratio(
    runs: pd.DataFrame,
    *,
    goodput: tuple[str, str] = ("goodput0", "goodput1"),
    rtt: tuple[str, str] = ("rtt0", "rtt1"),
) -> pd.DataFrame:
    """The chapter's ratios for each run (row) of two competing flows.

    `goodput` and `rtt` name the columns of flow 0 (the short path, A-D) and
    flow 1 (the long path, B-D); any unit, the same for both flows. The
    chapter uses the packets received (recv0, recv1) and RTTnoLoad estimates
    (220 ms and 220 + 2*delayB ms).

    Returns a copy of `runs` with ``rtt_ratio`` = rtt1 / rtt0,
    ``rtt_ratio2`` = rtt_ratio**2, ``goodput_ratio`` = goodput0 / goodput1
    (note the reversed order), ``ratio1`` = goodput_ratio / rtt_ratio and
    ``ratio2`` = goodput_ratio / rtt_ratio2.
    """
    require_columns(runs, [*goodput, *rtt], "goodput_ratio_vs_rtt_ratio")
    result = runs.copy()
    result["rtt_ratio"] = runs[rtt[1]] / runs[rtt[0]]
    result["rtt_ratio2"] = result["rtt_ratio"] ** 2
    result["goodput_ratio"] = runs[goodput[0]] / runs[goodput[1]]
    result["ratio1"] = result["goodput_ratio"] / result["rtt_ratio"]
    result["ratio2"] = result["goodput_ratio"] / result["rtt_ratio2"]
    return result


def fit_power_law(ratios: pd.DataFrame) -> tuple[float, float]:
    """(K, alpha) of goodput_ratio = K * rtt_ratio**alpha, by least squares on
    log goodput_ratio = log K + alpha * log rtt_ratio, over the rows of
    `goodput_ratio_vs_rtt_ratio` where both ratios are positive and finite
    (sec. 16.3.10.1 finds alpha of about 1.58 for Reno)."""
    require_columns(ratios, ["rtt_ratio", "goodput_ratio"], "fit_power_law")
    x = ratios["rtt_ratio"].to_numpy(dtype=float)
    y = ratios["goodput_ratio"].to_numpy(dtype=float)
    usable = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    log_x, log_y = np.log(x[usable]), np.log(y[usable])
    if log_x.size < 2 or np.ptp(log_x) == 0:
        raise ValueError("fitting a power law needs at least two different RTT ratios")
    alpha, log_k = np.polyfit(log_x, log_y, 1)
    return math.exp(float(log_k)), float(alpha)
