"""Sec. 16.3.7: phase effects and telnet traffic. basic2.tcl (two Reno
senders, 800 kbit/s, queue 20) with a telnet connection beside each bulk one
(250-byte packets at exponential intervals, each using the fraction
"density" of the bottleneck; basic2-telnet.tcl), delayB 25 to 55 ms: ratio1
against delayB and its mean deviation. The chapter (3000 s): the deviation
falls from 1.36 without telnet to 0.084 at a density of 1%."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ackclock.experiments.chapter.basic2 import basic2_telnet
from ackclock.experiments.chapter.oscillation import Randomizer, write_oscillation_report
from ackclock.experiments.study import Options, run_sweep

PUBLISHED_END_S = 3000


def telnet_runs(
    densities: Sequence[float],
    overheads: Sequence[float],
    delays: Any,
    end_s: int,
    options: Options,
) -> pd.DataFrame:
    """basic2-telnet.tcl DELAYB OVERHEAD 0.8 END 20 DENSITY for each delay and
    each (density, overhead) pair; density 0 is basic2.tcl itself."""
    argv = ["{delayB}", "{overhead}", "0.8", str(end_s), "20", "{density}"]
    pairs = {"density": list(densities), "overhead": list(overheads)}
    return run_sweep(basic2_telnet(argv, options.out), {"delayB": delays}, options, zips=[pairs])


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    densities = params["density"]
    return telnet_runs(densities, [0.0] * len(densities), params["delayB"], params["end"], options)


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    end = params["end"]
    length = "" if end == PUBLISHED_END_S else f" These runs last {end} s, the chapter's 3000 s."
    telnet = Randomizer(
        "density",
        "telnet density {value}",
        {0.0: 1.36, 0.01: 0.084},
        "the chapter prints neither its telnet script nor the delays its curve samples, and "
        "with telnet each run is one draw of ns-2's generator." + length,
    )
    return write_oscillation_report(
        frame,
        telnet,
        "Phase effects and telnet traffic (seed 003, §16.3.7)",
        f"ackclock tcl basic2-telnet.tcl DELAYB 0 0.8 {end} 20 DENSITY",
        out,
    )
