"""ackclock's own results as DataFrames.

`Simulator.results()` (a `RunResult` dict) becomes one row per link or flow;
`TcpFlow.series()` (``{variable: (times, values)}``) becomes a long frame
like ackclock's series CSV.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Union

import pandas as pd

from ackclock.results import RunResult
from ackclock.series import rows

SeriesDict = Mapping[str, Any]
Results = Union[RunResult, Sequence[RunResult]]


def series_frame(series: SeriesDict, flow: str | None = None) -> pd.DataFrame:
    """Long format: ``time`` (s), ``variable``, ``value``, ordered by time
    (changes at the same time in the order of the variables, as
    `ackclock.series.rows`).

    `series` is one flow's ``{variable: (times, values)}`` or a dict of them
    keyed by flow name; a ``flow`` column comes first when there are several
    flows or `flow` names the one.
    """
    if series and all(isinstance(value, Mapping) for value in series.values()):
        frames = [series_frame(inner, str(name)) for name, inner in series.items()]
        return pd.concat(frames, ignore_index=True)
    frame = pd.DataFrame(rows(series), columns=["time", "variable", "value"])
    frame = frame.astype({"time": "float64", "value": "float64"})
    if flow is not None:
        frame.insert(0, "flow", flow)
    return frame


def _runs(results: Results) -> list[RunResult]:
    if isinstance(results, Mapping):
        return [results]
    return list(results)


def links_frame(results: Results) -> pd.DataFrame:
    """One row per link of each run: ``seed``, ``replication``, then the
    `LinkResult` fields (``from``, ``to``, ``bandwidth_bps``, ...)."""
    return pd.DataFrame(
        [
            {"seed": run["seed"], "replication": run["replication"], **link}
            for run in _runs(results)
            for link in run["links"]
        ]
    )


def flows_frame(results: Results) -> pd.DataFrame:
    """One row per flow of each run: ``seed``, ``replication``, then the
    `FlowResult` fields (``id``, ``src``, ``dst``, ``kind``, ...); fields of
    TCP flows are missing (NaN) for the others."""
    return pd.DataFrame(
        [
            {"seed": run["seed"], "replication": run["replication"], **flow}
            for run in _runs(results)
            for flow in run["flows"]
        ]
    )
