"""Plots: labelled axes with units, valid PNG and SVG files, no pyplot."""

from __future__ import annotations

import gzip
import io
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pandas as pd
import pytest
from ackclock.analysis import read_ns2_trace
from ackclock.plots import plot_cwnd, plot_queue, plot_throughput, save_figure
from matplotlib.figure import Figure

FIXTURE = Path(__file__).parent / "fixtures" / "basic1.tr.gz"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def trace() -> tuple[pd.DataFrame, pd.DataFrame]:
    return read_ns2_trace(io.BytesIO(gzip.decompress(FIXTURE.read_bytes())))


def labels(figure: Figure) -> tuple[str, str]:
    (axes,) = figure.axes
    return axes.get_xlabel(), axes.get_ylabel()


def test_each_plot_has_time_and_a_quantity_with_units(
    trace: tuple[pd.DataFrame, pd.DataFrame],
) -> None:
    packets, variables = trace
    assert labels(plot_cwnd(variables)) == ("time (s)", "cwnd (segments)")
    assert labels(plot_throughput(packets, link=(1, 2), bin=0.5)) == (
        "time (s)",
        "throughput (Mbit/s)",
    )
    assert labels(plot_queue(packets, 1, 2)) == ("time (s)", "queue (packets)")


def test_plots_show_the_data(trace: tuple[pd.DataFrame, pd.DataFrame]) -> None:
    packets, variables = trace
    (line,) = plot_cwnd(variables, title="basic1").axes[0].get_lines()
    assert max(line.get_ydata()) == 29.0  # the slow-start peak before the first drop
    (queue,) = plot_queue(packets, 1, 2).axes[0].get_lines()
    assert max(queue.get_ydata()) == 6  # limit 7 = 6 waiting + 1 in transmission
    (axes,) = plot_throughput(packets, link=(1, 2), bin=1.0).axes
    (steps,) = axes.patches
    # The bottleneck (800 kb/s) carries at most 0.8 Mbit/s.
    assert steps.get_data().values.max() <= 0.8


def test_two_flows_get_a_legend() -> None:
    series = {"cwnd_segments": ([0.0, 1.0], [1.0, 2.0])}
    figure = plot_cwnd({"a": series, "b": series})
    texts = [text.get_text() for text in figure.axes[0].get_legend().get_texts()]
    assert texts == ["flow a", "flow b"]


def test_save_figure_writes_png_and_svg_by_suffix(
    trace: tuple[pd.DataFrame, pd.DataFrame], tmp_path: Path
) -> None:
    packets, variables = trace
    figure = plot_queue(packets, 1, 2)
    png = save_figure(figure, tmp_path / "plots" / "queue.png")
    svg = save_figure(figure, tmp_path / "plots" / "queue.SVG")
    assert png.read_bytes().startswith(PNG_SIGNATURE)
    root = ElementTree.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "queue (packets)" in svg.read_text()
    assert sorted(path.name for path in png.parent.iterdir()) == ["queue.SVG", "queue.png"]


def test_saving_twice_gives_the_same_bytes(
    trace: tuple[pd.DataFrame, pd.DataFrame], tmp_path: Path
) -> None:
    _, variables = trace
    for suffix in (".png", ".svg", ".pdf"):
        first = save_figure(plot_cwnd(variables), tmp_path / f"a{suffix}").read_bytes()
        second = save_figure(plot_cwnd(variables), tmp_path / f"b{suffix}").read_bytes()
        assert first == second


def test_an_unknown_suffix_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"use .png, .svg or .pdf"):
        save_figure(Figure(), tmp_path / "plot.gif")
    assert not list(tmp_path.iterdir())


def test_pyplot_is_never_imported(tmp_path: Path) -> None:
    # In a fresh interpreter: other tests may import pyplot themselves.
    code = (
        "import sys\n"
        "from ackclock.plots import plot_cwnd, save_figure\n"
        f"save_figure(plot_cwnd(([0.0, 1.0], [1.0, 2.0])), {str(tmp_path / 'c.png')!r})\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
