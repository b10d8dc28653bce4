"""Means over independent replications with Student-t confidence intervals.

`mean_confidence_interval` is `ackclock.confidence`'s, re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ackclock.analysis._common import require_columns
from ackclock.confidence import ConfidenceInterval, mean_confidence_interval

__all__ = ["ConfidenceInterval", "confidence_table", "mean_confidence_interval"]


def confidence_table(
    frame: pd.DataFrame,
    value: str,
    by: str | Sequence[str] | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """`mean_confidence_interval` of column `value` for each group of `by`
    (one row per replication in `frame`), or of the whole column.

    Columns: the `by` columns, then ``mean``, ``half_width``, ``low``,
    ``high``, ``level`` and ``samples``. A group needs >= 2 samples
    (ValueError otherwise).
    """
    keys = [by] if isinstance(by, str) else list(by or [])
    require_columns(frame, [*keys, value], "confidence_table")

    def row(samples: pd.Series) -> dict[str, float]:
        ci = mean_confidence_interval(samples.astype(float).tolist(), level)
        return {
            "mean": ci.mean,
            "half_width": ci.half_width,
            "low": ci.low,
            "high": ci.high,
            "level": ci.level,
            "samples": ci.samples,
        }

    if not keys:
        return pd.DataFrame([row(frame[value])])
    rows = [
        {**dict(zip(keys, group if isinstance(group, tuple) else (group,))), **row(part[value])}
        for group, part in frame.groupby(keys, sort=True)
    ]
    table = pd.DataFrame(rows)
    return table.astype({"samples": "int64"})
