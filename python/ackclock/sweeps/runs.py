"""One run of a sweep and what came of it.

A `Run` is built in the sweep's own process and executed wherever the
executor puts it (a worker process, a thread, a Dask worker): it and its
`Outcome` are plain picklable data, and `execute` depends on nothing but the
run, so every executor gives the same rows.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Optional, Protocol, Union

from ackclock.sweeps.grid import Point

Scalar = Optional[Union[str, int, float, bool]]
Status = Literal["ok", "failed", "interrupted"]


class Job(Protocol):
    """What a run executes: built from a base and one parameter point."""

    def identity(self) -> dict[str, Any]:
        """Everything that determines the run's results (hashed into the
        scenario hash; JSON-serialisable)."""
        ...

    def __call__(
        self, seed: int, replication: int, workdir: Path
    ) -> tuple[dict[str, Scalar], dict[str, Any]]:
        """Runs in `workdir` (a fresh directory for the run's files); returns
        the scalar results and the time series (pandas DataFrames) by name."""
        ...


def scenario_hash(job: Job) -> str:
    """A hash of the job's identity: the same scenario, parameters and outputs
    give the same hash in every process and on every machine."""
    text = json.dumps(job.identity(), sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Run:
    index: int  # position in the sweep's full list of runs
    parameters: Point
    seed: int
    replication: int
    job: Job
    scenario_hash: str
    keep_files: str | None = None  # a directory to keep the run's files in

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.scenario_hash, self.seed, self.replication)


@dataclass
class Outcome:
    run: Run
    status: Status
    wall_s: float
    results: dict[str, Scalar] = field(default_factory=dict)
    series: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__


def execute(run: Run) -> Outcome:
    """Runs `run` in a fresh directory (kept in `run.keep_files` if asked) and
    times it. A failure is an outcome, not an exception; Ctrl-C during the
    run gives an "interrupted" outcome."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ackclock-run-") as workdir:
        try:
            results, series = run.job(run.seed, run.replication, Path(workdir))
        except KeyboardInterrupt:
            return Outcome(run, "interrupted", time.perf_counter() - started)
        except BaseException as error:  # a run's failure, whatever it is, is its outcome
            return Outcome(run, "failed", time.perf_counter() - started, error=one_line(error))
        wall_s = time.perf_counter() - started
        if run.keep_files is not None and any(Path(workdir).iterdir()):
            shutil.copytree(workdir, run.keep_files, dirs_exist_ok=True)
    return Outcome(run, "ok", wall_s, results, series)
