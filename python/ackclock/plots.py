"""Plots of a run: cwnd, throughput and queue length against time.

Each function returns a new `matplotlib.figure.Figure` (Agg backend, no
pyplot and no global state) and never shows it; `save_figure` writes PNG or
SVG, atomically. The data come from `ackclock.analysis`.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Union

import numpy as np
import pandas as pd

from ackclock.extras import missing

try:
    import matplotlib
    from matplotlib.axes import Axes
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
except ModuleNotFoundError as error:
    raise missing("plot", "plotting") from error

from ackclock.analysis._common import Link
from ackclock.analysis.queue import queue_series
from ackclock.analysis.teeth import CwndSource, cwnd_frame
from ackclock.analysis.throughput import throughput_series
from ackclock.files import write_atomically

__all__ = [
    "CWND_LABEL",
    "QUEUE_LABEL",
    "THROUGHPUT_LABEL",
    "TIME_LABEL",
    "plot_cwnd",
    "plot_queue",
    "plot_throughput",
    "save_figure",
]

TIME_LABEL = "time (s)"
CWND_LABEL = "cwnd (segments)"
THROUGHPUT_LABEL = "throughput (Mbit/s)"
QUEUE_LABEL = "queue (packets)"

FIGURE_SIZE = (8.0, 4.0)
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
# No dates in the files, so that the same figure gives the same bytes.
_METADATA = {"png": {}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}

PathLike = Union[str, "os.PathLike[str]"]


def _axes(title: str | None, ylabel: str) -> tuple[Figure, Axes]:
    figure = Figure(figsize=FIGURE_SIZE, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.set_xlabel(TIME_LABEL)
    axes.set_ylabel(ylabel)
    if title:
        axes.set_title(title)
    axes.grid(True, alpha=0.3)
    return figure, axes


def _finish(figure: Figure, axes: Axes, lines: int) -> Figure:
    """A legend when there is more than one line; the y axis from zero."""
    if lines > 1:
        axes.legend()
    axes.set_ylim(bottom=0)
    return figure


def plot_cwnd(
    source: CwndSource,
    *,
    variable: str | None = None,
    start: float | None = None,
    end: float | None = None,
    title: str | None = None,
) -> Figure:
    """cwnd (segments) against time, one step line per flow (each value holds
    until the next record). `source` is anything `cwnd_frame` takes: an ns-2
    variables frame, `TcpFlow.series()`, a long series frame, ..."""
    frame = cwnd_frame(source, variable=variable)
    if start is not None:
        frame = frame.loc[frame["time"] >= start]
    if end is not None:
        frame = frame.loc[frame["time"] <= end]
    figure, axes = _axes(title, CWND_LABEL)
    flows = list(dict.fromkeys(frame["flow"]))
    for flow in flows:
        part = frame.loc[frame["flow"] == flow]
        axes.plot(part["time"], part["cwnd"], drawstyle="steps-post", label=f"flow {flow}")
    return _finish(figure, axes, len(flows))


def plot_throughput(
    packets: pd.DataFrame,
    *,
    link: Link | None = None,
    fid: int | None = None,
    bin: float = 1.0,
    start: float | None = None,
    end: float | None = None,
    title: str | None = None,
) -> Figure:
    """Throughput (Mbit/s) per `bin` seconds against time, one line per flow
    id, from `throughput_series` (bytes received on `link`, or data arriving
    at its destination when `link` is None)."""
    series = throughput_series(packets, link=link, fid=fid, bin=bin, start=start, end=end)
    figure, axes = _axes(title, THROUGHPUT_LABEL)
    fids = list(dict.fromkeys(series["fid"]))
    for flow in fids:
        part = series.loc[series["fid"] == flow]
        edges = np.append(part["time"].to_numpy(), part["time"].to_numpy()[-1] + bin)
        axes.stairs(part["bits_per_s"].to_numpy() / 1e6, edges, baseline=None, label=f"fid {flow}")
    return _finish(figure, axes, len(fids))


def plot_queue(
    packets: pd.DataFrame,
    from_node: int,
    to_node: int | None = None,
    *,
    start: float | None = None,
    end: float | None = None,
    title: str | None = None,
) -> Figure:
    """Queue length (packets waiting, `queue_series`) of the link from_node ->
    to_node (all of from_node's links when to_node is None) against time,
    from `start` (default 0) to `end` (default: the trace's last record)."""
    series = queue_series(packets, from_node, to_node)
    if end is None:
        end = float(packets["time"].max()) if len(packets) else 0.0
    # A step function from (0, 0), held at its last length until `end`.
    times = np.concatenate(([0.0], series["time"].to_numpy(dtype=float), [end]))
    lengths = series["queue"].to_numpy()
    lengths = np.concatenate(([0], lengths, lengths[-1:] if len(lengths) else [0]))
    figure, axes = _axes(title, QUEUE_LABEL)
    label = f"{from_node} -> {to_node}" if to_node is not None else f"node {from_node}"
    axes.plot(times, lengths, drawstyle="steps-post", label=label)
    axes.set_xlim(left=start or 0.0, right=end)
    return _finish(figure, axes, 1)


def save_figure(figure: Figure, path: PathLike) -> Path:
    """Writes `figure` as PNG, SVG or PDF, chosen by the file's suffix, atomically
    (`ackclock.files.write_atomically`); returns the path. The same figure
    gives the same bytes every time (no dates, fixed SVG ids)."""
    target = Path(path)
    file_format = FORMATS.get(target.suffix.lower())
    if file_format is None:
        raise ValueError(
            f"{str(target)!r}: cannot tell the image format from the suffix "
            f"{target.suffix!r}; use .png, .svg or .pdf"
        )
    if not isinstance(figure.canvas, FigureCanvasAgg):
        FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "ackclock"}):
        figure.savefig(buffer, format=file_format, metadata=_METADATA[file_format])
    write_atomically(target, buffer.getvalue())
    return target
