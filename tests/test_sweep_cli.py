"""`ackclock sweep` and `ackclock results` from the command line: scripts,
sweep files, Ctrl-C in the middle and resuming, exports and errors."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_cli
from test_sweeps import TCL

SLOW = """import time
from pathlib import Path

def run(sim, index_, sleep):
    Path(f"started-{index_}").touch()
    time.sleep(sleep)
    return {"twice": 2 * index_}
"""


def _rows(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return sorted(connection.execute("SELECT index_, status, finished_at FROM runs"))


def _count(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        try:
            return connection.execute("SELECT count(*) FROM runs").fetchone()[0]
        except sqlite3.OperationalError:  # the file exists, its table not yet
            return 0


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "cbr.tcl"
    path.write_text(TCL)
    return path


def test_a_script_sweep_then_its_results_and_exports(tmp_path: Path, script: Path) -> None:
    done = run_cli(
        "sweep", str(script), "{bw}", "-p", "bw=0.5,2", "-r", "2", "--columns", "packets,-",
        "--db", "s.db", "-q", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("4 runs, 4 ok, 0 failed, ")
    assert done.stdout.endswith("results in s.db (ackclock results s.db)\n")
    shown = run_cli("results", "s.db", "--metric", "packets", "--export", "runs.csv", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].split() == ["bw", "n", "packets"]
    assert lines[2].split()[:2] == ["0.5", "2"]
    assert lines[-2] == "wrote runs.csv" or lines[-1] == "wrote runs.csv"
    exported = pd.read_csv(tmp_path / "runs.csv")
    assert len(exported) == 4 and set(exported["bw"]) == {0.5, 2}


def test_a_sweep_file_gives_the_base_parameters_and_database(tmp_path: Path, script: Path) -> None:
    (tmp_path / "study.toml").write_text(
        'script = "cbr.tcl"\nargv = ["{bw}"]\ncolumns = ["packets", "bytes"]\n'
        "replications = 1\n[parameters]\nbw = [1, 2]\n"
    )
    done = run_cli("sweep", "study.toml", "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "results in study.db" in done.stdout
    frame = pd.read_sql(
        "SELECT bw, packets FROM runs ORDER BY bw", sqlite3.connect(tmp_path / "study.db")
    )
    assert frame["bw"].tolist() == [1, 2]


def _start_slow_sweep(tmp_path: Path, runs: int, sleep: float) -> subprocess.Popen[str]:
    (tmp_path / "slow.py").write_text(SLOW)
    command = [
        sys.executable, "-m", "ackclock", "sweep", "slow.py:run", "-p", f"index_=0:{runs - 1}:1",
        "-p", f"sleep={sleep}", "-j", "2", "--db", "slow.db", "-q",
    ]  # fmt: skip
    return subprocess.Popen(
        command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip


def test_ctrl_c_keeps_finished_runs_and_the_same_command_resumes(tmp_path: Path) -> None:
    SLOW_RUNS = 12
    process = _start_slow_sweep(tmp_path, SLOW_RUNS, 0.4)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until a few runs are in the database
        if (tmp_path / "slow.db").exists() and _count(tmp_path / "slow.db") >= 3:
            break
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: every process of the group
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    before = _rows(tmp_path / "slow.db")
    assert 3 <= len(before) < SLOW_RUNS
    assert all(status == "ok" for _, status, _ in before)
    assert f"interrupted: {len(before)} of {SLOW_RUNS} runs are in slow.db" in stderr
    assert "Traceback" not in stderr
    rerun = _start_slow_sweep(tmp_path, SLOW_RUNS, 0.4)
    stdout, _ = rerun.communicate(timeout=120)
    assert rerun.returncode == 0
    assert stdout.startswith(f"{SLOW_RUNS} runs, {SLOW_RUNS} ok")
    after = _rows(tmp_path / "slow.db")
    assert len(after) == SLOW_RUNS
    assert set(before) <= set(after)  # the finished runs were not run again


def test_ctrl_c_to_the_sweep_alone_interrupts_its_workers(tmp_path: Path) -> None:
    # As from a notebook: only the sweep's process gets SIGINT; it passes it
    # on, so the hour-long runs end at once.
    process = _start_slow_sweep(tmp_path, 4, 3600)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob("started-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted: 0 of 4 runs are in slow.db" in stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sweep", "cbr.tcl", "-p", "0:4:1"], "'0:4:1' is not NAME=VALUES"),
        (["sweep", "x.tcl"], "x.tcl: no such file"),
        (["sweep", "cbr.tcl", "1", "-p", "bw=1,2"], "parameter 'bw' does not reach the script"),
        (["sweep", "cbr.tcl", "{bw}", "-p", "bw=1", "--shard", "3/3"], "shard '3/3' is not i/n"),
        (["sweep", "cbr.tcl", "{bw}", "-p", "bw=1", "--dask", "nowhere"], "is not an executor"),
        (["sweep", "nothing.txt"], "the base is a scenario or sweep file"),
        (["results", "missing.db"], "missing.db: no such results database"),
        (["results", "x.db", "--export", "runs.xlsx"], "runs.xlsx: give a .csv or .parquet file"),
    ],
)
def test_mistakes_get_one_line_and_status_2(tmp_path, script, args, message) -> None:
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("ackclock: error: ") and message in done.stderr
    assert done.stderr.count("\n") == 1


def test_results_refuses_an_unknown_metric(tmp_path: Path, script: Path) -> None:
    assert run_cli("sweep", "cbr.tcl", "{bw}", "-p", "bw=1", "-q", cwd=tmp_path).returncode == 0
    done = run_cli("results", "cbr.db", "--metric", "nope", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("ackclock: error: no column 'nope' (columns: bw, seed")
