"""Counting the teeth of the cwnd sawtooth (seed 003, sec. 16.4.2.1,
countpeaks.py).

A *tooth* is a record whose cwnd is smaller than the flow's previous record:
a loss response. It is a *coarse timeout* when cwnd drops to 1 segment
(TCP Reno's other response, fast recovery, halves it). As in countpeaks.py,
records before `start` (default 3.0 s, "wait for slow start to be done") are
ignored entirely, so the first record at or after `start` is never a tooth.

The cwnd can come from an ns-2 trace (`read_ns2_trace`'s variables, records
named ``cwnd_``, one flow per source node.port) or from ackclock
(`TcpFlow.series()`, whose ``cwnd_segments`` is used); see `cwnd_frame`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Union

import numpy as np
import pandas as pd

from ackclock.analysis._common import require_columns
from ackclock.analysis.clusters import cluster_ids

#: What `cwnd_frame` accepts; see there.
CwndSource = Union[pd.DataFrame, Mapping[str, Any], Sequence[Sequence[float]]]

DEFAULT_START = 3.0


def cwnd_frame(
    source: CwndSource, *, variable: str | None = None, flow: str | None = None
) -> pd.DataFrame:
    """A cwnd time series in one shape: ``flow`` (str), ``time`` (s) and
    ``cwnd``, in the source's order (time order within a flow).

    `source` is one of:

    * `read_ns2_trace`'s variables frame: the records named `variable`
      (default ``cwnd_``); ``flow`` is the source "node.port" (records with
      source -1.-1, written before the agent was attached, are left out);
    * a long frame with ``time`` (or ``time_s``), ``variable`` and ``value``
      and optionally ``flow`` (`series_frame`, or ackclock's series CSV): the
      rows of `variable`, default ``cwnd_segments`` if present, else ``cwnd``;
    * a frame with ``time`` and ``cwnd`` (and optionally ``flow``);
    * one flow's series dict ``{name: (times, values)}`` (`TcpFlow.series()`),
      or a dict of them keyed by flow name;
    * a pair ``(times, values)``.

    `flow` names the flow when the source does not (default ``"flow"``).
    """
    label = "flow" if flow is None else flow
    if isinstance(source, pd.DataFrame):
        frame = _from_frame(source, variable, label)
    elif isinstance(source, Mapping):
        frame = _from_mapping(source, variable, label)
    else:
        times, values = source
        frame = _frame(label, times, values)
    return frame.reset_index(drop=True)


def _frame(flow: str, times: Sequence[float], values: Sequence[float]) -> pd.DataFrame:
    if len(times) != len(values):
        raise ValueError(f"{len(times)} times but {len(values)} values")
    return pd.DataFrame(
        {
            "flow": pd.Series([flow] * len(times), dtype=object),
            "time": np.asarray(times, dtype=float),
            "cwnd": np.asarray(values, dtype=float),
        }
    )


def _from_frame(source: pd.DataFrame, variable: str | None, label: str) -> pd.DataFrame:
    frame = source.rename(columns={"time_s": "time"})
    if "name" in frame.columns and "src_node" in frame.columns:
        # Source -1.-1: written by tracevar before the agent was attached to a
        # node (basic2.tcl's initial values); it belongs to no flow.
        attached = (frame["src_node"] != -1) | (frame["src_port"] != -1)
        chosen = frame.loc[(frame["name"] == (variable or "cwnd_")) & attached]
        flows = chosen["src_node"].astype(str) + "." + chosen["src_port"].astype(str)
        values = chosen["value"]
    elif "variable" in frame.columns:
        require_columns(frame, ("time", "value"), "a long series frame")
        if variable is None:
            present = set(frame["variable"].unique())
            variable = "cwnd_segments" if "cwnd_segments" in present else "cwnd"
        chosen = frame.loc[frame["variable"] == variable]
        flows = chosen["flow"] if "flow" in chosen.columns else None
        values = chosen["value"]
    else:
        require_columns(frame, ("time", "cwnd"), "a cwnd frame")
        chosen = frame
        flows = chosen["flow"] if "flow" in chosen.columns else None
        values = chosen["cwnd"]
    if flows is None:
        names = np.full(len(chosen), label, dtype=object)
    else:
        names = flows.astype(str).to_numpy(dtype=object)
    return pd.DataFrame(
        {
            "flow": pd.Series(names, dtype=object),
            "time": chosen["time"].to_numpy(dtype=float),
            "cwnd": values.to_numpy(dtype=float),
        }
    )


def _from_mapping(source: Mapping[str, Any], variable: str | None, label: str) -> pd.DataFrame:
    if source and all(isinstance(value, Mapping) for value in source.values()):
        frames = [_from_series(series, variable, str(name)) for name, series in source.items()]
        return pd.concat(frames, ignore_index=True) if frames else _frame(label, [], [])
    return _from_series(source, variable, label)


def _from_series(series: Mapping[str, Any], variable: str | None, label: str) -> pd.DataFrame:
    if variable is None:
        variable = "cwnd_segments" if "cwnd_segments" in series else "cwnd"
    if variable not in series:
        raise ValueError(f"the series has no {variable!r}; it has {', '.join(series)}")
    times, values = series[variable]
    return _frame(label, times, values)


def teeth(
    source: CwndSource,
    *,
    start: float = DEFAULT_START,
    timeout_cwnd: float = 1.0,
    variable: str | None = None,
) -> pd.DataFrame:
    """Every cwnd decrease at or after `start` (module docstring).

    One row per tooth, in order within each flow: ``flow``, ``time``,
    ``peak`` (the cwnd recorded just before: the top of the tooth), ``cwnd``
    (the value it fell to) and ``timeout`` (cwnd <= `timeout_cwnd`, 1 segment:
    a coarse timeout; countpeaks.py tests ``cwnd == 1.0``).
    """
    frame = cwnd_frame(source, variable=variable)
    frame = frame.loc[frame["time"] >= start]
    previous = frame.groupby("flow", sort=False)["cwnd"].shift()
    decreased = previous.notna() & (frame["cwnd"] < previous)
    result = pd.DataFrame(
        {
            "flow": frame.loc[decreased, "flow"],
            "time": frame.loc[decreased, "time"],
            "peak": previous[decreased],
            "cwnd": frame.loc[decreased, "cwnd"],
            "timeout": frame.loc[decreased, "cwnd"] <= timeout_cwnd,
        }
    )
    return result.reset_index(drop=True)


def count_teeth(
    source: CwndSource,
    *,
    start: float = DEFAULT_START,
    timeout_cwnd: float = 1.0,
    granularity: float | None = None,
    rule: str = "start",
    variable: str | None = None,
) -> pd.DataFrame:
    """Teeth and coarse timeouts per flow (countpeaks.py's two lines).

    One row per flow of the source (flows without teeth included): ``flow``,
    ``teeth``, ``coarse_timeouts`` and, when `granularity` is given,
    ``tooth_clusters``: the teeth clustered as in `drop_clusters` (the
    chapter's visual tooth count, sec. 16.4.1).
    """
    frame = cwnd_frame(source, variable=variable)
    found = teeth(frame, start=start, timeout_cwnd=timeout_cwnd)
    flows = list(pd.unique(frame["flow"]))
    grouped = found.groupby("flow", sort=False)
    table = pd.DataFrame(
        {
            "flow": pd.Series(flows, dtype=object),
            "teeth": grouped.size().reindex(flows, fill_value=0).to_numpy(dtype=np.int64),
            "coarse_timeouts": grouped["timeout"]
            .sum()
            .reindex(flows, fill_value=0)
            .to_numpy(dtype=np.int64),
        }
    )
    if granularity is not None:
        table["tooth_clusters"] = [
            len(np.unique(cluster_ids(found.loc[found["flow"] == flow, "time"], granularity, rule)))
            for flow in flows
        ]
    return table
