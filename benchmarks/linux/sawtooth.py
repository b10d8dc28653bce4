"""The numbers a live Linux run and an ackclock run are compared by: goodput,
the mean congestion window over the steady state, the teeth of the sawtooth
(peak, trough, period) and the timeouts. Both runs are first put in one
shape: the document `live.py` writes (see `from_ackclock` for a simulated
flow), with cwnd sampled on a regular grid.

A tooth is a fall of cwnd below `FALL` of the highest value since the last
trough; its trough is the lowest value before cwnd grows again by `RISE`
packets. PRR lowers cwnd over a round trip rather than at once, so a tooth
is found by its depth, not by a single step down.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

FALL = 0.75
RISE = 2.0
STEADY_FROM_S = 5.0


def sample_steps(
    times: Sequence[float], values: Sequence[float], dt: float, end: float
) -> tuple[list, list]:
    """A step series (each value holds until the next time) sampled every `dt` up to `end`."""
    grid, out, k = [], [], 0
    t = 0.0
    while t <= end:
        while k + 1 < len(times) and times[k + 1] <= t:
            k += 1
        if times and times[0] <= t:
            grid.append(round(t, 9))
            out.append(values[k])
        t += dt
    return grid, out


def teeth(times: Sequence[float], cwnd: Sequence[float]) -> list[dict[str, float]]:
    """Each tooth: when cwnd was last at its peak, the peak and the trough."""
    found = []
    peak, peak_t, trough, falling = None, None, None, False
    for t, c in zip(times, cwnd):
        if not falling:
            if peak is None or c >= peak:
                peak, peak_t = c, t
            elif c < FALL * peak:
                falling, trough = True, c
        elif c < trough:
            trough = c
        elif c >= trough + RISE:
            found.append({"time": peak_t, "peak": peak, "trough": trough})
            falling, peak, peak_t = False, c, t
    return found


def summarize(doc: dict) -> dict[str, float]:
    """Goodput, steady-state cwnd mean, median tooth, period, timeouts, drops.
    The cwnd series is a step series (each value holds until the next)."""
    cfg = doc["config"]
    duration = cfg["duration_s"]
    t, cwnd = sample_steps(doc["series"]["t"], doc["series"]["cwnd"], cfg["sample_s"], duration)
    bins = doc["receiver_bytes_per_100ms"][: int(round(duration * 10))]
    steady = [(s, c) for s, c in zip(t, cwnd) if STEADY_FROM_S <= s <= duration]
    found = [x for x in teeth(t, cwnd) if STEADY_FROM_S <= x["time"] <= duration]
    gaps = [b["time"] - a["time"] for a, b in zip(found, found[1:])]
    return {
        "goodput_bps": sum(bins) * 8 / duration,
        "cwnd_mean": statistics.fmean(c for _, c in steady),
        "teeth": len(found),
        "peak_median": statistics.median(x["peak"] for x in found) if found else 0.0,
        "trough_median": statistics.median(x["trough"] for x in found) if found else 0.0,
        "period_s": statistics.fmean(gaps) if gaps else 0.0,
        "timeouts": doc["totals"]["timeouts"],
        "retransmits": doc["totals"]["retransmits"],
        "drops": doc["bottleneck"]["drops"],
    }


def from_ackclock(sim, flow, bottleneck, config: dict) -> dict:
    """A simulated flow (`record=True`) in the shape of a live run's document."""
    duration = config["duration_s"]
    t, cwnd = flow.series()["cwnd_segments"]
    received = flow.stats()["bytes_delivered"]
    stats = flow.stats()
    doc = {
        "config": config,
        # Only the total is known; spread evenly it gives the same goodput.
        "receiver_bytes_per_100ms": [received / (duration * 10)] * int(round(duration * 10)),
        "bottleneck": {
            "drops": bottleneck.stats()["queue_drops"],
            "sent_packets": bottleneck.stats()["tx_packets"],
        },
        "totals": {"timeouts": stats["timeouts"], "retransmits": stats["retransmits"]},
        "series": {"t": list(t), "cwnd": list(cwnd)},
    }
    doc["summary"] = summarize(doc)
    return doc
