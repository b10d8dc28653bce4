"""The chapter's scripts and real ns-2's outputs for them, in the source tree
(benchmarks/ns2/): the chapter studies need a checkout of ackclock."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pandas as pd

from ackclock.errors import ConfigError
from ackclock.experiments.study import Options, run_sweep
from ackclock.sweeps import Script

NS2_DIR = Path(__file__).resolve().parents[4] / "benchmarks" / "ns2"


def chapter_script(name: str) -> Path:
    path = NS2_DIR / name
    if not path.is_file():
        raise ConfigError(
            f"{path}: the chapter's script is missing (the ns-2 chapter's studies run "
            "from a checkout of ackclock's source tree)"
        )
    return path


def one_sender_runs(
    script: str, analysis: str, params: dict[str, Any], options: Options
) -> pd.DataFrame:
    """basic1.tcl or basic1-long.tcl (QUEUE END) over the grid of queue limits
    and end times, each run's trace read by `analysis` (a function of
    experiments/chapter/traces.py)."""
    base = Script(
        chapter_script(script),
        ["{queue}", "{end}"],
        analysis=f"ackclock.experiments.chapter.traces:{analysis}",
    )
    return run_sweep(base, {"queue": params["queue"], "end": params["end"]}, options)


@cache
def ns2_reference() -> dict[str, Any]:
    """benchmarks/ns2/reference.json: ns-2 2.35's outputs for the chapter's
    scripts (written by benchmarks/ns2/reference.py)."""
    return json.loads(chapter_script("reference.json").read_text())


@cache
def ns2_fixture(name: str) -> dict[str, Any]:
    """tests/fixtures/NAME: ns-2 2.35's runs of a chapter script, written by
    a benchmarks/ns2/ script's `record` (ns2_vegas.json: reno_vegas.py;
    ns2_overhead_telnet.json: overhead_telnet.py); empty if absent."""
    path = NS2_DIR.parents[1] / "tests" / "fixtures" / name
    return json.loads(path.read_text()) if path.is_file() else {}
