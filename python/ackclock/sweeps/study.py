"""Running a sweep: its runs, skipping those its store has finished, on an
executor, each outcome written to the store as it arrives."""

from __future__ import annotations

import concurrent.futures as cf
import os
import pickle
import signal
import sys
import threading
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Union

from ackclock.errors import SweepError, SweepInterrupted
from ackclock.sweeps.executors import Executor, ExecutorSpec, make_executor
from ackclock.sweeps.function_base import FunctionBase, FunctionJob
from ackclock.sweeps.grid import Grid
from ackclock.sweeps.runs import Outcome, Run, one_line, scenario_hash
from ackclock.sweeps.scenario_base import ScenarioBase
from ackclock.sweeps.script_base import ScriptBase
from ackclock.sweeps.store import Store, check_parameter_names

if TYPE_CHECKING:
    import pandas as pd

Base = Union[ScenarioBase, ScriptBase, FunctionBase]
BaseSpec = Union[Base, str, "os.PathLike[str]", Callable[..., Any]]
Progress = Union[bool, None, Callable[[int, int], None]]


def base_of(spec: BaseSpec) -> Base:
    """A base from a scenario file (.toml), an ns-2 script (.tcl, without
    arguments), a function or "module:function", or a base itself."""
    if isinstance(spec, (ScenarioBase, ScriptBase, FunctionBase)):
        return spec
    if callable(spec):
        return FunctionBase(spec)
    path = Path(spec)
    if path.suffix == ".toml":
        return ScenarioBase(path)
    if path.suffix == ".tcl":
        return ScriptBase(path)
    if ":" in str(spec) and not path.exists():
        return FunctionBase(str(spec))
    raise SweepError(f"{spec}: a sweep's base is a .toml scenario, a .tcl script or a function")


def parse_shard(text: str) -> tuple[int, int]:
    """ "i/n" (0 <= i < n) -> (i, n)."""
    index, slash, count = text.partition("/")
    if not (slash and index.isdigit() and count.isdigit() and int(index) < int(count)):
        raise SweepError(f"shard {text!r} is not i/n with 0 <= i < n (e.g. 0/4)")
    return int(index), int(count)


def plan(
    base: Base,
    grid: Grid,
    replications: int,
    seed: int | None,
    shard: tuple[int, int] | None = None,
    files: Path | None = None,
) -> list[Run]:
    """Every run of the sweep in a fixed order (each point's replications
    together), or the runs of shard (i, n): those at positions i, i+n, ..."""
    if replications < 1:
        raise SweepError(f"replications: {replications} must be at least 1")
    check_parameter_names(grid.names)
    base.check(grid.names)
    seed = base.default_seed if seed is None else seed
    runs = []
    for point in grid.points():
        job = base.job(point)
        digest = scenario_hash(job)
        for replication in range(replications):
            keep = None if files is None else str(files / f"{digest}-{seed}-{replication}")
            runs.append(Run(len(runs), point, seed, replication, job, digest, keep))
    if shard is not None:
        runs = runs[shard[0] :: shard[1]]
    return runs


class _CtrlC:
    """Counts Ctrl-C presses instead of raising, from the second on raising
    KeyboardInterrupt; only in the main thread (elsewhere Python delivers none)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, signum: int, frame: Any) -> None:
        self.count += 1
        if self.count > 1:
            raise KeyboardInterrupt

    @contextmanager
    def installed(self) -> Iterator[_CtrlC]:
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = signal.signal(signal.SIGINT, self)
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, previous)


def _outcome(future: cf.Future[Any], run: Run) -> Outcome:
    if future.cancelled():
        return Outcome(run, "interrupted", 0.0)
    error = future.exception()
    if isinstance(error, KeyboardInterrupt):
        return Outcome(run, "interrupted", 0.0)
    if error is not None:  # e.g. a worker process that died
        return Outcome(run, "failed", 0.0, error=one_line(error))
    return future.result()


def drive(
    executor: Executor,
    runs: Sequence[Run],
    record: Callable[[Outcome], None],
    say: Callable[[str], None],
) -> bool:
    """Runs `runs`, recording each outcome; returns False if Ctrl-C stopped it
    (the running runs are interrupted or, on threads, finished first; a
    second Ctrl-C abandons them)."""
    pending = list(reversed(runs))
    running: dict[cf.Future[Any], Run] = {}
    stopped = False
    with _CtrlC().installed() as ctrl_c:
        while pending or running:
            if ctrl_c.count and not stopped:
                stopped = True
                pending.clear()
                if running:
                    say(f"stopping: waiting for {len(running)} running runs (Ctrl-C again to quit)")
            if stopped:  # again each round, for a run that started after the last time
                executor.interrupt(list(running))
            while pending and len(running) < executor.slots:
                run = pending.pop()
                running[executor.submit(run)] = run
            done, _ = cf.wait(running, timeout=0.2, return_when=cf.FIRST_COMPLETED)
            for future in done:
                outcome = _outcome(future, running.pop(future))
                if outcome.status != "interrupted":
                    record(outcome)
    return not stopped


def _progress_reporter(
    progress: Progress, total: int
) -> tuple[Callable[[], None], Callable[[], None]]:
    """(advance, close) for a progress bar on stderr or a callback(done, total)."""
    if callable(progress):
        done = 0

        def advance_callback() -> None:
            nonlocal done
            done += 1
            progress(done, total)

        return advance_callback, lambda: None
    show = sys.stderr.isatty() if progress is None else progress
    if not show:
        return lambda: None, lambda: None
    from tqdm import tqdm

    bar = tqdm(total=total, unit="run", desc="sweep", file=sys.stderr, dynamic_ncols=True)
    return lambda: bar.update(), bar.close


def sweep(
    base: BaseSpec,
    parameters: Mapping[str, Any] | None = None,
    *,
    zips: Sequence[Mapping[str, Any]] = (),
    replications: int = 1,
    seed: int | None = None,
    db: str | os.PathLike[str] | None = None,
    executor: ExecutorSpec = "processes",
    jobs: int | None = None,
    shard: tuple[int, int] | None = None,
    keep_files: bool = False,
    progress: Progress = None,
    say: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
) -> pd.DataFrame:
    """Runs `base` at every point of the grid `parameters` (each value a list,
    "a,b,c" or a range "start:stop:step"; see docs/sweeps.md), each zip group
    of `zips` varying together, `replications` times each, and returns one
    row per run: the parameters, seed, replication, status, results.

    `base` is a scenario file (parameters are field paths such as
    "links[0].bandwidth"), `Script(path, argv, columns)` for an ns-2 script,
    or a function `f(sim, **point)` that builds and runs the simulation.
    Replication k uses the engine's random streams (seed, k). With `db`,
    the runs are stored there and a repeated call runs only what is not
    finished. `executor`: "processes" (default, `jobs` workers, one per
    core), "threads", "local:N" (a Dask LocalCluster), a Dask scheduler
    address or a `dask.distributed.Client`. `shard=(i, n)` runs every n-th
    run from the i-th. `progress`: a bar on stderr (default: when it is a
    terminal), or a callback(done, total).

    Ctrl-C stops the sweep, keeping every finished run in `db`, and raises
    `SweepInterrupted` (a KeyboardInterrupt) holding the rows so far. `say`
    shows what the sweep tells meanwhile (default: on stderr).
    """
    from importlib.metadata import version

    # Loaded before the workers start, so that forked workers have them.
    import pandas  # noqa: F401

    import ackclock.simulator  # noqa: F401

    if keep_files and db is None:
        raise SweepError("keeping the runs' files needs a results database")
    files = Path(db).with_name(Path(db).name + ".files") if keep_files and db else None
    grid = Grid.of(parameters, zips)
    chosen = base_of(base)
    runs = plan(chosen, grid, replications, seed, shard, files)
    store = Store(db)
    try:
        store.check_names(grid.names)
        finished = store.finished()
        todo = list({run.key: run for run in runs if run.key not in finished}.values())
        if executor == "processes" and isinstance(chosen, FunctionBase):
            _check_picklable(todo)
        ackclock_version = version("ackclock")
        advance, close_progress = _progress_reporter(progress, len(todo))
        dropped_series = []

        def record(outcome: Outcome) -> None:
            if outcome.series and store.path is None:
                dropped_series.append(outcome)
            store.record(outcome, ackclock_version)
            advance()

        complete = True
        pool = make_executor(executor, jobs) if todo else None
        try:
            if pool is not None:
                complete = drive(pool, todo, record, say)
        except KeyboardInterrupt:
            complete = False
            if pool is not None:
                pool.close(abandon=True)
                pool = None
        finally:
            close_progress()
            if pool is not None:
                pool.close()
        if dropped_series:
            warnings.warn("time series are kept only in a results database: give db=", stacklevel=3)
        frame = store.frame([run.key for run in runs])
        if not complete:
            raise SweepInterrupted(frame, len(runs))
        return frame
    finally:
        store.close()


def _check_picklable(runs: Sequence[Run]) -> None:
    for run in runs[:1]:
        job = run.job
        if isinstance(job, FunctionJob) and not isinstance(job.function, str):
            try:
                pickle.dumps(job.function)
            except (pickle.PicklingError, AttributeError, TypeError):
                raise SweepError(
                    f"{job.name} cannot be sent to worker processes (define it at the top "
                    "level of a module, or use executor='threads' or a Dask client)"
                ) from None
