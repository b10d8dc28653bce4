"""`ackclock tcl` and the script's files and signals (issue 12): traces go
into the script's own channels as ns-2 writes them, and Ctrl-C ends a run
at once with complete traces."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli

# A CBR flow over one link, traced into channel $f (opened by each test).
NETWORK = """
set ns [new Simulator]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n1 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set interval_ 0.01
$ns at 0.0 "$cbr start"
"""


def run_tcl(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "s.tcl").write_text(body)
    return run_cli("tcl", "s.tcl", cwd=tmp_path)


def record_times(lines: list[str]) -> list[float]:
    return [float(line.split()[1]) for line in lines if line[:1] in "+-rd"]


def test_a_channel_opened_for_reading_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    keep = tmp_path / "keep.txt"
    keep.write_text("precious\n")
    done = run_tcl(tmp_path, "set f [open keep.txt r]\n" + NETWORK + "$ns run\n")
    assert done.returncode == 2
    assert "s.tcl:4:" in done.stderr and "opened for reading only" in done.stderr
    assert keep.read_text() == "precious\n"


def test_append_mode_keeps_the_file_and_orders_the_scripts_lines_with_the_records(
    tmp_path: Path,
) -> None:
    (tmp_path / "app.tr").write_text("old line\n")
    script = (
        "set f [open app.tr a]\n"
        'puts $f "before the run"\n'
        + NETWORK
        + '$ns at 0.5 {puts $f "at half a second"}\n'
        + '$ns at 1.0 "close $f; exit 0"\n'
        + "$ns run\n"
    )
    assert run_tcl(tmp_path, script).returncode == 0
    lines = (tmp_path / "app.tr").read_text().splitlines()
    assert lines[:2] == ["old line", "before the run"]
    half = lines.index("at half a second")
    before, after = record_times(lines[:half]), record_times(lines[half + 1 :])
    assert before and after
    # As in ns-2, the script's event at 0.5 s comes before the packets of 0.5 s.
    assert max(before) < 0.5 <= min(after)


def test_closing_the_channel_ends_the_trace_with_a_complete_record(tmp_path: Path) -> None:
    script = (
        "set f [open out.tr w]\n"
        + NETWORK
        + '$ns at 0.5 "close $f"\n'
        + '$ns at 1.0 "exit 0"\n'
        + "$ns run\n"
    )
    assert run_tcl(tmp_path, script).returncode == 0
    text = (tmp_path / "out.tr").read_text()
    assert text.endswith("\n")
    times = record_times(text.splitlines())
    assert max(times) < 0.5
    assert len(times) > 100


@pytest.mark.parametrize(
    "where",
    [
        # inside a Tcl loop that never returns to Python
        '$ns at 0.5 "while 1 {}"\n',
        # inside the simulation itself (a long run)
        "$cbr set interval_ 0.00001\n",
    ],
    ids=["tcl_loop", "simulation"],
)
def test_sigint_exits_130_within_a_second_with_complete_traces(tmp_path: Path, where: str) -> None:
    (tmp_path / "s.tcl").write_text("set f [open out.tr w]\n" + NETWORK + where + "$ns run\n")
    child = subprocess.Popen(
        [sys.executable, "-m", "ackclock", "tcl", "s.tcl"],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
    )
    trace = tmp_path / "out.tr"
    deadline = time.monotonic() + 60
    while not (trace.exists() and trace.stat().st_size > 10_000) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # well inside the loop or the run
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    _, errors = child.communicate(timeout=10)
    took = time.monotonic() - sent
    assert child.returncode == 130, errors
    assert took < 1.0
    text = trace.read_text()
    assert text.endswith("\n")
    assert all(len(line.split()) == 12 for line in text.splitlines()[-10:])


def test_the_scripts_own_lines_in_a_file_opened_with_w_do_not_overwrite_records(
    tmp_path: Path,
) -> None:
    script = (
        "set f [open out.tr w]\n"
        + NETWORK
        + '$ns at 0.5 {puts $f "mid-run line"}\n'
        + '$ns at 1.0 "close $f; exit 0"\n'
        + "$ns run\n"
    )
    assert run_tcl(tmp_path, script).returncode == 0
    lines = (tmp_path / "out.tr").read_text().splitlines()
    assert lines[0].startswith("+ 0 0 1 cbr")
    middle = lines.index("mid-run line")
    assert all(len(line.split()) == 12 for line in lines[:middle] + lines[middle + 1 :])
