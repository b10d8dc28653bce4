"""Sweeps: one base scenario run over a grid of parameter values with
replications, on local processes, threads or a Dask cluster, into a results
database that a repeated sweep resumes (see docs/sweeps.md).

    import ackclock as ac
    frame = ac.sweep("examples/dumbbell.toml", {"links[2].bandwidth": "1Mb,2Mb"},
                     replications=5, db="study.db")
    ac.sweeps.summarize(frame, metrics=["flow.tcp0.goodput_bps"])
"""

from ackclock.errors import SweepError, SweepInterrupted
from ackclock.sweeps.function_base import FunctionBase as Function
from ackclock.sweeps.scenario_base import ScenarioBase as Scenario
from ackclock.sweeps.script_base import ScriptBase as Script
from ackclock.sweeps.store import load
from ackclock.sweeps.study import sweep
from ackclock.sweeps.summary import format_summary, summarize

__all__ = [
    "Function",
    "Scenario",
    "Script",
    "SweepError",
    "SweepInterrupted",
    "format_summary",
    "load",
    "summarize",
    "sweep",
]
