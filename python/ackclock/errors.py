"""The exceptions ackclock raises.

`ConfigError`, `UnitError` and `SimulationError` come from the Rust core so that
the same classes are raised whichever layer finds the problem. `ParameterError`
is the `ConfigError` the Python layer raises for one named parameter; it keeps
the parameter apart so that scenario files can report the full field path.
`ScenarioError` is for scenario files: its message is one line naming the file,
the field path and the offending value. `SweepError` and `SweepInterrupted`
are the sweeps' (kept here so that the CLI can name them without importing
the sweeps, whose dependencies cost every command about 0.4 s to import).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ackclock._native import ConfigError, SimulationError, UnitError

if TYPE_CHECKING:
    from ackclock.simulator import Simulator

__all__ = [
    "ConfigError",
    "ParameterError",
    "RunInterrupted",
    "ScenarioError",
    "ScenarioWarning",
    "SimulationError",
    "SweepError",
    "SweepInterrupted",
    "UnitError",
]


class ParameterError(ConfigError):
    """An invalid argument; the message reads ``"<parameter>: <problem>"``."""

    def __init__(self, parameter: str, problem: str) -> None:
        super().__init__(f"{parameter}: {problem}")
        self.parameter = parameter
        self.problem = problem


class ScenarioError(ValueError):
    """A scenario file is missing, malformed or describes an invalid network."""


class ScenarioWarning(UserWarning):
    """A scenario file that is valid but probably not what was meant (an app
    that starts after the run ends); one line naming the file and field."""


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a scenario's run; `simulator` holds it as it was then:
    its results so far can be read (and its trace files are closed)."""

    def __init__(self, simulator: Simulator) -> None:
        super().__init__(f"interrupted at {simulator.now:g} s simulated")
        self.simulator = simulator


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
