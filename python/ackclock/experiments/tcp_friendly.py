"""Seed 000, section 5.1: the TCP-friendly formula. A TCP Reno sender
(delayed ACKs off) sends 10^9 bits to a receiver over a 1 Gbit/s path with a
fixed RTT of 60 ms; the downstream link drops packets at random with
probability p. Throughput (bytes over the time from opening to closing the
connection) against 1.22 * MSS / (RTT * sqrt(p)), for MSS 1460 and 536 bytes
and receive windows of 64 KB (65535 bytes: at most 1066.67 KB/s over 60 ms)
and 128 KB (which the paper used for MSS 1460 at loss up to 0.5%); ten seeds
per point, the mean with its 95% confidence interval. The paper gives its
results as a figure (5-2): close to the formula up to about 1.5% loss, below
it beyond (by about half at 5%, which it blames on its TCP model)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from ackclock.confidence import mean_confidence_interval
from ackclock.experiments.study import Options, markdown_table, run_sweep, save_report
from ackclock.simulator import Simulator
from ackclock.specs import UniformLoss
from ackclock.sweeps import Function
from ackclock.tcp_specs import Bulk, TcpParams

LINK_BPS = 1_000_000_000
RTT_S = 0.06
TIME_LIMIT_S = 100_000
AGREES = 0.15  # a relative difference from the formula that gets a sentence
HIGH_LOSS = 0.04  # where the paper found the formula about twice its simulation


def transfer(sim: Simulator, loss: float, mss: int, rwnd: int, bits: int) -> None:
    """One transfer of `bits` over the paper's path (a sweep's run)."""
    sender, receiver = sim.node("sender"), sim.node("receiver")
    sim.duplex_link(sender, receiver, LINK_BPS, f"{RTT_S / 2}s")
    if loss > 0:
        sim.link(sender, receiver).set_loss(UniformLoss(loss))
    tcp = TcpParams(
        profile="rfc",
        cc="reno",
        mss=mss,
        delayed_ack=False,
        receive_buffer=rwnd,
        window_scale=rwnd > 65535,
    )
    sim.tcp(sender, receiver, app=Bulk(bits // 8), tcp=tcp, name="transfer")
    sim.run(until=TIME_LIMIT_S)


def formula_bytes_per_s(mss: int, loss: float) -> float:
    return math.inf if loss == 0 else 1.22 * mss / (RTT_S * math.sqrt(loss))


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    grid = {
        "mss": params["mss"],
        "rwnd": params["rwnd"],
        "loss": params["loss"],
        "bits": params["bits"],
    }
    return run_sweep(Function(transfer), grid, options, replications=params["seeds"])


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    frame = frame.assign(
        throughput=frame["flow.transfer.bytes_delivered"] / frame["flow.transfer.completion_time_s"]
    )
    rows, numbers, notes = [], [], []
    off: dict[tuple[int, int, str], list[tuple[float, float, float]]] = defaultdict(list)
    for (mss, rwnd, loss), runs in frame.groupby(["mss", "rwnd", "loss"], sort=True):
        ci = mean_confidence_interval(runs["throughput"].tolist())
        formula = formula_bytes_per_s(mss, loss)
        cap = rwnd / RTT_S
        expected = min(formula, cap)
        ratio = ci.mean / expected
        timeouts = float(runs["flow.transfer.timeouts"].mean())
        rows.append(
            [
                mss,
                rwnd,
                f"{100 * loss:g}",
                "∞" if math.isinf(formula) else f"{formula / 1e3:.1f}",
                f"{cap / 1e3:.1f}",
                f"{ci.mean / 1e3:.1f} ± {ci.half_width / 1e3:.1f}",
                f"{ratio:.3f}",
                f"{timeouts:.1f}",
            ]
        )
        numbers.append(
            {
                "mss": int(mss),
                "rwnd": int(rwnd),
                "loss": float(loss),
                "throughput": ci.mean,
                "half_width": ci.half_width,
                "formula": None if math.isinf(formula) else formula,
                "window_limit": cap,
                "timeouts": timeouts,
            }
        )
    for number in numbers:
        if number["formula"] is None:
            continue
        ratio = number["throughput"] / min(number["formula"], number["window_limit"])
        if abs(ratio - 1) > AGREES:
            reason = "window" if _window_bound(number, numbers) else "timeouts"
            off[(number["mss"], number["rwnd"], reason)].append(
                (100 * number["loss"], ratio - 1, number["timeouts"])
            )
    for (mss, rwnd, reason), cases in off.items():
        first, last = cases[0], cases[-1]
        losses = f"{first[0]:g}%" + ("" if len(cases) == 1 else f" to {last[0]:g}%")
        gaps = f"{first[1]:+.0%}" + ("" if len(cases) == 1 else f" to {last[1]:+.0%}")
        if reason == "window":
            why = (
                "a larger receive window brings it back to the formula, so the window cuts off "
                "the sawtooth's higher peaks (random losses spread them): the gap the paper saw "
                "with MSS 1460 and 64 KB before it doubled the window"
            )
        else:
            count = f"{first[2]:.0f}" + ("" if len(cases) == 1 else f" to {last[2]:.0f}")
            why = (
                f"{count} retransmission timeouts a run, which the formula (one halving of the "
                "window per loss) does not count"
            )
        notes.append(f"- MSS {mss}, window {rwnd}, loss {losses}: {gaps} from the formula; {why}.")
    worst = max(numbers, key=lambda n: n["loss"])
    if worst["loss"] >= HIGH_LOSS:
        notes.append(
            f"- At {100 * worst['loss']:g}% loss the formula is "
            f"{worst['formula'] / worst['throughput']:.1f} times ackclock's throughput (MSS "
            f"{worst['mss']}): the paper found about 2 there and blamed its TCP model; a Reno "
            "whose losses often end in timeouts shows the same."
        )
    markdown = "\n\n".join(
        [
            "# The TCP-friendly formula (seed 000, §5.1)",
            f"Reno over 1 Gbit/s, RTT 60 ms, random downstream loss; {params['bits']:.0e} bits "
            f"per run, {params['seeds']} seeds per point (mean ± 95% CI, Student t). "
            "Throughput in KB/s (1000 bytes); the window limit is the receive window per RTT. "
            "The paper gives a figure, not numbers: its simulation follows the formula up to "
            "about 1.5% loss.",
            markdown_table(
                [
                    "MSS",
                    "rwnd (B)",
                    "loss %",
                    "formula KB/s",
                    "window limit KB/s",
                    "ackclock KB/s",
                    "ackclock / min(formula, limit)",
                    "timeouts a run",
                ],
                rows,
            ),
            *notes,
        ]
    )
    headline = {"bits": params["bits"], "seeds": params["seeds"], "rows": numbers}
    return save_report(out, markdown + "\n", headline, {"tcp_friendly": _figure(numbers)})


def _window_bound(number: Mapping[str, Any], numbers: list[dict[str, Any]]) -> bool:
    """Whether a run with a larger receive window, same MSS and loss, meets the
    formula: then the window, not the losses, held this one back."""
    return any(
        other["mss"] == number["mss"]
        and other["loss"] == number["loss"]
        and other["rwnd"] > number["rwnd"]
        and abs(other["throughput"] / other["formula"] - 1) <= AGREES
        for other in numbers
    )


def _figure(numbers: list[dict[str, Any]]) -> Figure:
    figure = Figure(figsize=(8, 5), layout="constrained")
    axes = figure.subplots()
    series = pd.DataFrame(numbers)
    for (mss, rwnd), points in series.groupby(["mss", "rwnd"], sort=True):
        loss = points["loss"] * 100
        shown = axes.errorbar(
            loss,
            points["throughput"] / 1e3,
            yerr=points["half_width"] / 1e3,
            marker="s",
            capsize=3,
            label=f"ackclock, MSS {mss}, rwnd {rwnd}",
        )
        lossy = points[points["loss"] > 0]
        axes.plot(
            lossy["loss"] * 100,
            [formula_bytes_per_s(mss, p) / 1e3 for p in lossy["loss"]],
            color=shown[0].get_color(),
            linewidth=0.8,
            alpha=0.6,
        )
    axes.set(xlabel="packet loss (%)", ylabel="throughput (KB/s)", yscale="log")
    axes.set_title("TCP-friendly formula (thin lines) against ackclock, RTT 60 ms")
    axes.legend(fontsize="small")
    return figure
