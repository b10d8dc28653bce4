"""The errors of sweeps and their results stores."""

from __future__ import annotations

from typing import Any


class SweepError(ValueError):
    """A sweep that cannot run as given (bad parameters, base or store); the
    message is one line naming what is wrong."""


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a sweep. `results` holds the rows of the runs that are
    finished (all are in the results database); running the sweep again
    runs the rest."""

    def __init__(self, results: Any, total: int) -> None:
        done = int((results["status"] == "ok").sum()) if len(results) else 0
        super().__init__(f"interrupted with {done} of {total} runs finished")
        self.results = results
        self.total = total
        self.finished = done
