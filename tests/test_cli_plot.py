"""`ackclock plot`: figures from ns-2 traces and recorded series, and its errors."""

from __future__ import annotations

import subprocess
from pathlib import Path

import ackclock as ac
import pytest
from conftest import run_cli


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """20 s of seed 003's basic1 (A-R-B, queue 7 at R) traced in ns-2 format."""
    path = tmp_path_factory.mktemp("plot") / "basic1.tr"
    sim = ac.Simulator(seed=1)
    a, r, b = sim.node("A"), sim.node("R"), sim.node("B")
    sim.duplex_link(a, r, "10Mb", "10ms")
    sim.duplex_link(r, b, "800Kb", "50ms", queue=ac.DropTail(limit=7, ns2_limit=True))
    params = ac.TcpParams(profile="ns2", cc="reno", mss=960, max_window="unlimited")
    sim.tcp(a, b, tcp=params)
    sim.trace_all(path)
    sim.run(until="20s")
    sim.close_traces()
    return path


def plot(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("plot", *args)


@pytest.mark.parametrize(
    ("kind", "extra", "suffix", "magic"),
    [
        ("cwnd", [], ".png", b"\x89PNG"),
        ("throughput", ["--bin", "0.5"], ".svg", b"<?xml"),
        ("queue", ["--link", "1", "2"], ".png", b"\x89PNG"),
        ("cwnd", [], ".pdf", b"%PDF"),
    ],
)
def test_plot_writes_an_image_of_the_asked_format(
    trace: Path, tmp_path: Path, kind: str, extra: list[str], suffix: str, magic: bytes
) -> None:
    out = tmp_path / f"{kind}{suffix}"
    done = plot(kind, str(trace), "-o", str(out), *extra)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(magic)


def test_plot_cwnd_reads_a_series_csv_from_run_out(tmp_path: Path) -> None:
    example = Path(__file__).parent.parent / "examples" / "basic1.toml"
    run = run_cli("run", str(example), "--until", "20s", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    (series,) = tmp_path.glob("series-*.csv")
    done = plot("cwnd", str(series), "-o", str(tmp_path / "cwnd.svg"))
    assert done.returncode == 0, done.stderr
    assert "cwnd (segments)" in (tmp_path / "cwnd.svg").read_text()


def test_plot_refuses_an_unknown_image_suffix_in_one_line(trace: Path, tmp_path: Path) -> None:
    done = plot("queue", str(trace), "--link", "1", "2", "-o", str(tmp_path / "q.gif"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "'.gif'" in done.stderr
    assert "Traceback" not in done.stderr


def test_plot_names_a_malformed_trace_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tr"
    bad.write_text("+ 0.1 0 1 tcp forty ------- 0 0.0 1.0 0 0\n")
    done = plot("throughput", str(bad), "-o", str(tmp_path / "t.png"))
    assert done.returncode == 2
    assert "line 1" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("kind", "extra"),
    [("cwnd", []), ("throughput", ["--link", "1", "2"]), ("queue", ["--link", "1", "2"])],
)
def test_plot_takes_a_title_and_a_time_window(trace: Path, tmp_path: Path, kind, extra) -> None:
    out = tmp_path / f"{kind}.svg"
    window = ["--start", "5", "--end", "15"]
    done = plot(kind, str(trace), "-o", str(out), "--title", "Reno at R", *window, *extra)
    assert done.returncode == 0, done.stderr
    svg = out.read_text()
    assert "Reno at R" in svg
    whole = tmp_path / f"{kind}-whole.svg"
    assert plot(kind, str(trace), "-o", str(whole), *extra).returncode == 0
    assert svg != whole.read_text()


@pytest.mark.parametrize("kind", ["queue", "throughput"])
def test_plot_names_a_link_the_trace_does_not_have(trace: Path, tmp_path: Path, kind) -> None:
    done = plot(kind, str(trace), "--link", "2", "7", "-o", str(tmp_path / "q.png"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "has no records of a link 2 7 (its links: 0 1, 1 0, 1 2, 2 1)" in done.stderr
    assert not (tmp_path / "q.png").exists()


def test_plot_refuses_an_empty_time_window(trace: Path, tmp_path: Path) -> None:
    done = plot("cwnd", str(trace), "--start", "9", "--end", "3", "-o", str(tmp_path / "c.png"))
    assert done.returncode == 2 and "3 is not after --start 9" in done.stderr
