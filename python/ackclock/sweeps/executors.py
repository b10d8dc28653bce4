"""Where a sweep's runs execute: a local process pool (the default, one
worker per core), a thread pool, or a Dask cluster. All three are
`concurrent.futures` executors running `runs.execute`, so the same runs give
the same rows on each.

Ctrl-C: a local worker ignores SIGINT except while it runs a run, which then
ends as "interrupted" (a terminal's Ctrl-C reaches the workers and the
scripts they run; `interrupt` sends it when it did not come from one).
Threads finish the runs they have; a Dask cluster cancels its running runs.
"""

from __future__ import annotations

import concurrent.futures as cf
import logging
import multiprocessing
import os
import signal
from collections.abc import Sequence
from typing import Any, Union

from ackclock.errors import SweepError
from ackclock.sweeps.runs import Run, execute

ExecutorSpec = Union[str, Any]  # "processes", "threads", "local[:N]", "tcp://host:port" or a Client


def default_jobs() -> int:
    """The cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _execute_in_worker(run: Run) -> Any:
    # Ctrl-C interrupts the run (KeyboardInterrupt), never the idle worker.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return execute(run)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


class Executor:
    """A pool that runs `Run`s, with as many in flight as it has `slots`."""

    name = ""

    def __init__(self, pool: cf.Executor, slots: int) -> None:
        self.pool = pool
        self.slots = slots

    def submit(self, run: Run) -> cf.Future[Any]:
        return self.pool.submit(execute, run)

    def interrupt(self, running: Sequence[cf.Future[Any]]) -> None:
        """Asks the running runs to stop (the default: let them finish)."""

    def close(self, abandon: bool = False) -> None:
        self.pool.shutdown(wait=not abandon, cancel_futures=True)


class Processes(Executor):
    name = "processes"

    def __init__(self, jobs: int) -> None:
        self.others = {child.pid for child in multiprocessing.active_children()}
        super().__init__(cf.ProcessPoolExecutor(jobs, initializer=_ignore_ctrl_c), jobs)

    def submit(self, run: Run) -> cf.Future[Any]:
        return self.pool.submit(_execute_in_worker, run)

    def _workers(self) -> list[Any]:
        return [c for c in multiprocessing.active_children() if c.pid not in self.others]

    def interrupt(self, running: Sequence[cf.Future[Any]]) -> None:
        for worker in self._workers():
            if worker.pid is not None:
                os.kill(worker.pid, signal.SIGINT)

    def close(self, abandon: bool = False) -> None:
        if abandon:
            for worker in self._workers():
                worker.terminate()
        super().close(abandon)


class Threads(Executor):
    name = "threads"

    def __init__(self, jobs: int) -> None:
        super().__init__(cf.ThreadPoolExecutor(jobs), jobs)


class Dask(Executor):
    name = "dask"

    def __init__(self, client: Any, owned: Sequence[Any] = ()) -> None:
        self.client = client
        self.owned = owned  # a client and cluster this sweep started, closed with it
        threads = sum(client.nthreads().values()) or 1
        super().__init__(client.get_executor(pure=False), 2 * threads)

    def interrupt(self, running: Sequence[cf.Future[Any]]) -> None:
        for future in running:
            future.cancel()

    def close(self, abandon: bool = False) -> None:
        self.pool.shutdown(wait=not abandon)
        for resource in self.owned:
            resource.close()


def make_executor(spec: ExecutorSpec = "processes", jobs: int | None = None) -> Executor:
    """The executor `spec` names: "processes" or "threads" (`jobs` workers,
    default one per core), "local" or "local:N" (a Dask LocalCluster started
    for the sweep, N workers), a scheduler address "tcp://host:8786", or a
    `dask.distributed.Client`."""
    jobs = jobs or default_jobs()
    if spec == "processes":
        return Processes(jobs)
    if spec == "threads":
        return Threads(jobs)
    if not isinstance(spec, str):
        return Dask(spec)
    from ackclock.extras import require

    require("dask", "running on Dask")
    from distributed import Client, LocalCluster

    if spec == "local" or spec.startswith("local:"):
        count = spec.partition(":")[2] or str(jobs)
        if not count.isdigit() or int(count) < 1:
            raise SweepError(f"{spec!r}: give local:N with N workers, e.g. local:2")
        # The cluster's own logs (a CommClosedError as workers shut down after
        # a long sweep) are not the user's business: one line per outcome is.
        cluster = LocalCluster(
            n_workers=int(count),
            threads_per_worker=1,
            dashboard_address=None,
            processes=True,
            silence_logs=logging.CRITICAL,
        )
        client = Client(cluster)
        return Dask(client, owned=(client, cluster))
    if "://" not in spec:
        raise SweepError(
            f"{spec!r} is not an executor: use processes, threads, local[:N] or a "
            "Dask scheduler address such as tcp://host:8786"
        )
    try:
        client = Client(spec, timeout="10s")
    except OSError as error:
        raise SweepError(f"cannot reach the Dask scheduler at {spec}: {error}") from None
    return Dask(client, owned=(client,))
