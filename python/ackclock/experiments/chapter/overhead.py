"""Sec. 16.3.6: phase effects and overhead. basic2.tcl (two Reno senders,
800 kbit/s, 300 s) for delayB 25 to 55 ms, with the senders' overhead_
(a uniform random delay of 0 to overhead seconds before each send) at 0,
0.005, 0.01 and 0.02 s: ratio1 against delayB and its mean deviation. The
chapter's deviations: 1.286, 0.638, 0.136, 0.090."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ackclock.experiments.chapter.basic2 import basic2
from ackclock.experiments.chapter.oscillation import Randomizer, write_oscillation_report
from ackclock.experiments.study import Options, run_sweep

OVERHEAD = Randomizer(
    "overhead",
    "overhead {value} s",
    {0.0: 1.286, 0.005: 0.638, 0.01: 0.136, 0.02: 0.090},
    "with overhead > 0 each run is one draw of ns-2's generator, and the chapter's curve "
    "is one draw of many, sampled at its own delays.",
)


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    grid = {"overhead": params["overhead"], "delayB": params["delayB"]}
    return run_sweep(basic2(["{delayB}", "{overhead}"]), grid, options)


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    return write_oscillation_report(
        frame,
        OVERHEAD,
        "Phase effects and overhead (seed 003, §16.3.6)",
        "ackclock tcl basic2.tcl DELAYB OVERHEAD (300 s, 800 kbit/s)",
        out,
    )
