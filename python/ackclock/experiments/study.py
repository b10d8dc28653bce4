"""What the registry's studies share: how they run (a sweep into the results
store in their output directory, so that a rerun runs nothing and only
redraws) and how they report (report.md for people, report.json with the
headline numbers for tests and scripts, each figure as PNG and SVG)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from ackclock.files import write_atomically
from ackclock.plots import save_figure
from ackclock.sweeps import sweep
from ackclock.sweeps.study import BaseSpec

RUNS_DB = "runs.db"


class StudyRunsFailed(RuntimeError):
    """Some of a study's runs failed; the message is one line naming the first."""


@dataclass(frozen=True)
class Options:
    out: Path
    seed: int = 1
    executor: str = "processes"  # "threads", "local:N" or a Dask scheduler address
    progress: bool | None = None  # None: a bar when stderr is a terminal


def run_sweep(
    base: BaseSpec,
    parameters: Mapping[str, Any],
    options: Options,
    replications: int = 1,
    zips: Sequence[Mapping[str, Any]] = (),
) -> pd.DataFrame:
    """The sweep's rows, all of them ok (runs finished earlier come from the store);
    each of `zips` is a group of parameters that vary together."""
    frame = sweep(
        base,
        parameters,
        zips=zips,
        replications=replications,
        seed=options.seed,
        db=options.out / RUNS_DB,
        executor=options.executor,
        progress=options.progress,
    )
    failed = frame[frame["status"] != "ok"]
    if len(failed):
        first = failed.iloc[0]
        raise StudyRunsFailed(
            f"{len(failed)} of {len(frame)} runs failed (they run again next time); "
            f"the first: {first['error']}"
        )
    return frame


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    def cell(value: Any) -> str:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "–"
        return str(value)

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows]
    return "\n".join(lines)


def save_report(
    out: Path,
    markdown: str,
    headline: Mapping[str, Any],
    figures: Mapping[str, Figure] | None = None,
) -> list[Path]:
    """Writes report.md, report.json (`headline`) and each figure as NAME.png
    and NAME.svg into `out`; returns the paths written."""
    paths = [out / "report.md", out / "report.json"]
    write_atomically(paths[0], markdown.encode())
    write_atomically(paths[1], (json.dumps(headline, indent=2, allow_nan=False) + "\n").encode())
    for name, figure in (figures or {}).items():
        paths += [save_figure(figure, out / f"{name}.{suffix}") for suffix in ("png", "svg")]
    return paths
