"""Grouped means of a sweep's results with Student-t confidence intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ackclock.confidence import mean_confidence_interval
from ackclock.errors import SweepError
from ackclock.tables import format_table

if TYPE_CHECKING:
    import pandas as pd

SUMMARY_COLUMNS = ["metric", "n", "mean", "half_width", "low", "high"]


def _varying_numbers(frame: pd.DataFrame, columns: Sequence[str]) -> list[str]:
    import pandas as pd

    chosen = []
    for name in columns:
        values = pd.to_numeric(frame[name], errors="coerce")
        if values.notna().any() and values.nunique(dropna=True) > 1:
            chosen.append(name)
    return chosen


def summarize(
    frame: pd.DataFrame,
    by: Sequence[str] | None = None,
    metrics: Sequence[str] | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """One row per group of `by` (default: the sweep's parameters) and metric
    (default: the numeric results that vary): n runs, the mean, and the
    half-width, low and high end of its `level` confidence interval (NaN with
    one run). Only runs with status "ok" count."""
    import pandas as pd

    parameters = list(frame.attrs.get("parameters", []))
    results = list(frame.attrs.get("results", []))
    by = parameters if by is None else list(by)
    ok = frame[frame["status"] == "ok"] if "status" in frame else frame
    metrics = _varying_numbers(ok, results) if metrics is None else list(metrics)
    for name in [*by, *metrics]:
        if name not in frame.columns:
            raise SweepError(f"no column {name!r} (columns: {', '.join(map(str, frame.columns))})")
    rows = []
    groups = ok.groupby(by, sort=False, dropna=False) if by else [((), ok)]
    for key, group in groups:
        key = key if isinstance(key, tuple) else (key,)
        for metric in metrics:
            values = pd.to_numeric(group[metric], errors="coerce").dropna().tolist()
            if len(values) >= 2:
                ci = mean_confidence_interval(values, level)
                stats = [ci.mean, ci.half_width, ci.low, ci.high]
            elif values:
                stats = [values[0], math.nan, math.nan, math.nan]
            else:
                stats = [math.nan] * 4
            rows.append([*key, metric, len(values), *stats])
    summary = pd.DataFrame(rows, columns=[*by, *SUMMARY_COLUMNS])
    summary.attrs.update(by=by, level=level)
    return summary


def _number(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.6g}"


def format_summary(summary: pd.DataFrame) -> str:
    """The summary as a text table: a row per group, a column per metric
    holding "mean ± half-width"."""
    by = list(summary.attrs.get("by", []))
    level = summary.attrs.get("level", 0.95)
    metrics = list(dict.fromkeys(summary["metric"]))
    rows = []
    groups = summary.groupby(by, sort=False, dropna=False) if by else [((), summary)]
    for key, group in groups:
        key = key if isinstance(key, tuple) else (key,)
        cells = {row.metric: row for row in group.itertuples()}
        count = max((int(row.n) for row in cells.values()), default=0)
        line = [str(value) for value in key] + [str(count)]
        for metric in metrics:
            row = cells.get(metric)
            if row is None or math.isnan(row.mean):
                line.append("-")
            elif math.isnan(row.half_width):
                line.append(_number(row.mean))
            else:
                line.append(f"{_number(row.mean)} ± {_number(row.half_width)}")
        rows.append(line)
    headers = [*by, "n", *metrics]
    table = format_table(headers, rows, "l" * len(by) + "r" * (len(metrics) + 1))
    return f"{table}\nmean ± half-width of the {level:.0%} confidence interval (Student t)\n"
