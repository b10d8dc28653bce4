"""The M/M/1 queue of seed 000, section 2.2, simulated with a real link queue.

Jobs are packets: a Poisson source (mean gap 3 s, so lambda = 1/3 per s) sends
packets of exponential size (mean 2000 B) over an 8000 bit/s link with an
unlimited FIFO queue and no propagation delay, so service times are
exponential with mean 2 s (mu = 1/2 per s). A job's response time is its
packet's delay; P_n is the fraction of time with n packets at the link.
Theory: mean response time 1/(mu - lambda) = 6 s and P_n = (1 - rho) rho^n
with rho = lambda/mu = 2/3. As in the seed, 50 replications of 10,000 jobs;
here replication k is the same seed with independent random streams, run by
the sweep machinery (all cores; with --out, stored in DIR/runs.db so that a
rerun only redraws).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ackclock.extras import missing

try:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
except ModuleNotFoundError as error:
    raise missing("plot", "the mm1 experiment's figures") from error

from ackclock.confidence import ConfidenceInterval, mean_confidence_interval
from ackclock.errors import SimulationError
from ackclock.files import write_atomically
from ackclock.simulator import Simulator
from ackclock.specs import DropTail, ExponentialSize
from ackclock.sweeps import Function, sweep
from ackclock.tables import format_table

MEAN_INTERARRIVAL_S = 3
MEAN_SERVICE_S = 2
ARRIVAL_RATE = 1 / MEAN_INTERARRIVAL_S  # lambda
SERVICE_RATE = 1 / MEAN_SERVICE_S  # mu
RHO = ARRIVAL_RATE / SERVICE_RATE
THEORY_RESPONSE_S = 1 / (SERVICE_RATE - ARRIVAL_RATE)
SERVER_BANDWIDTH_BPS = 8000
MEAN_JOB_BYTES = MEAN_SERVICE_S * SERVER_BANDWIDTH_BPS // 8
STATES = 11  # P_n is reported for n = 0..10

DEFAULT_REPLICATIONS = 50
DEFAULT_JOBS = 10_000


def theory_occupancy(n: int) -> float:
    """P_n = (1 - rho) rho^n."""
    return (1 - RHO) * RHO**n


@dataclass(frozen=True)
class Replication:
    mean_response_s: float
    occupancy: list[float]  # P_n for n = 0..STATES-1


@dataclass(frozen=True)
class MM1Result:
    seed: int
    jobs: int
    replications: list[Replication]
    response: ConfidenceInterval  # of the replications' mean response times
    occupancy: list[float]  # P_n averaged over replications, n = 0..STATES-1


def serve_jobs(sim: Simulator, jobs: int) -> dict[str, float]:
    """One replication on `sim`: `jobs` jobs, until the queue has drained.
    Returns the mean response time and P_n as "p0" ... (a sweep's columns)."""
    source, server = sim.node("source"), sim.node("server")
    link = sim.simplex_link(source, server, SERVER_BANDWIDTH_BPS, 0, queue=DropTail(limit=None))
    flow = sim.poisson(
        source,
        server,
        mean_interval=MEAN_INTERARRIVAL_S,
        packet_size=ExponentialSize(MEAN_JOB_BYTES),
        max_packets=jobs,
        name="jobs",
    )
    sim.run()
    stats = flow.stats()
    if stats["rx_packets"] != jobs or stats["mean_delay_s"] is None:
        raise SimulationError(f"M/M/1: {stats['rx_packets']} of {jobs} jobs were served")
    occupancy = link.occupancy_distribution()[:STATES]
    occupancy += [0.0] * (STATES - len(occupancy))
    return {"mean_response_s": stats["mean_delay_s"]} | {
        f"p{n}": p for n, p in enumerate(occupancy)
    }


def run(
    seed: int = 1,
    replications: int = DEFAULT_REPLICATIONS,
    jobs: int = DEFAULT_JOBS,
    db: Path | None = None,
    executor: str = "processes",
) -> MM1Result:
    """`replications` replications of `seed` through the sweep machinery;
    with `db`, a results store that a repeated run reuses."""
    frame = sweep(
        Function(serve_jobs),
        {"jobs": jobs},
        replications=replications,
        seed=seed,
        db=db,
        executor=executor,
    )
    failed = frame[frame["status"] != "ok"]
    if len(failed):
        raise SimulationError(
            f"M/M/1: {len(failed)} replications failed: {failed['error'].iloc[0]}"
        )
    runs = [
        Replication(row["mean_response_s"], [row[f"p{n}"] for n in range(STATES)])
        for _, row in frame.sort_values("replication").iterrows()
    ]
    occupancy = [sum(r.occupancy[n] for r in runs) / len(runs) for n in range(STATES)]
    response = mean_confidence_interval([r.mean_response_s for r in runs])
    return MM1Result(seed, jobs, runs, response, occupancy)


def format_report(result: MM1Result) -> str:
    ci = result.response
    verdict = "inside" if THEORY_RESPONSE_S in ci else "OUTSIDE"
    rows = [
        [
            str(n),
            f"{measured:.4f}",
            f"{theory_occupancy(n):.4f}",
            f"{measured - theory_occupancy(n):+.4f}",
        ]
        for n, measured in enumerate(result.occupancy)
    ]
    table = format_table(["n", "measured P_n", "(1-rho) rho^n", "difference"], rows)
    return (
        f"M/M/1: lambda = 1/{MEAN_INTERARRIVAL_S} per s, mu = 1/{MEAN_SERVICE_S} per s, "
        f"rho = {RHO:.4f}; {len(result.replications)} replications x {result.jobs} jobs, "
        f"seed {result.seed}\n\n"
        f"mean response time {ci.mean:.4f} s, {ci.level:.0%} CI [{ci.low:.4f}, {ci.high:.4f}] "
        f"(Student t, {ci.samples - 1} dof); theory 1/(mu - lambda) = {THEORY_RESPONSE_S:g} s "
        f"is {verdict}\n\n"
        f"Job distribution (fraction of time with n jobs in the system)\n{table}\n"
    )


def to_json(result: MM1Result) -> dict[str, Any]:
    ci = result.response
    return {
        "experiment": "mm1",
        "seed": result.seed,
        "replications": len(result.replications),
        "jobs": result.jobs,
        "lambda_per_s": ARRIVAL_RATE,
        "mu_per_s": SERVICE_RATE,
        "rho": RHO,
        "mean_response_s": {
            "mean": ci.mean,
            "ci_low": ci.low,
            "ci_high": ci.high,
            "level": ci.level,
            "theory": THEORY_RESPONSE_S,
        },
        "occupancy": [
            {"n": n, "measured": measured, "theory": theory_occupancy(n)}
            for n, measured in enumerate(result.occupancy)
        ],
        "replication_mean_response_s": [r.mean_response_s for r in result.replications],
    }


def plot(result: MM1Result) -> Figure:
    """Job distribution (measured vs theory) and the replications' mean
    response times with their confidence interval and the theoretical value."""
    figure = Figure(figsize=(10, 4), layout="constrained")
    distribution, response = figure.subplots(1, 2, width_ratios=[3, 2])
    states = range(STATES)
    distribution.bar([n - 0.2 for n in states], result.occupancy, width=0.4, label="simulation")
    distribution.bar(
        [n + 0.2 for n in states],
        [theory_occupancy(n) for n in states],
        width=0.4,
        label=r"theory $(1-\rho)\,\rho^n$",
    )
    distribution.set(xlabel="jobs in the system n", ylabel="$P_n$", xticks=list(states))
    distribution.set_title(rf"Job distribution, $\rho$ = {RHO:.3f}")
    distribution.legend()

    ci = result.response
    means = [r.mean_response_s for r in result.replications]
    response.plot(range(len(means)), means, ".", color="grey", label="replication means")
    response.axhspan(ci.low, ci.high, alpha=0.3, label=f"{ci.level:.0%} CI of the mean")
    response.axhline(
        THEORY_RESPONSE_S, color="black", linestyle="--", label=r"theory $1/(\mu-\lambda)$"
    )
    response.set(xlabel="replication", ylabel="mean response time (s)")
    response.set_title(f"Mean response time {ci.mean:.3f} s")
    response.legend()
    return figure


def write_outputs(result: MM1Result, out_dir: Path) -> list[Path]:
    """Writes mm1.png and mm1.json into `out_dir`; returns their paths."""
    figure_path, json_path = out_dir / "mm1.png", out_dir / "mm1.json"
    image = io.BytesIO()
    FigureCanvasAgg(plot(result)).print_png(image)
    write_atomically(figure_path, image.getvalue())
    write_atomically(json_path, (json.dumps(to_json(result), indent=2) + "\n").encode())
    return [figure_path, json_path]
