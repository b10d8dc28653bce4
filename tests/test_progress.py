"""The progress bar of a long `ackclock run`: on a terminal only, after a
second or two, with simulated time, events per second and time left."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from test_signals import SCENARIO


def _run_on_a_terminal(tmp_path: Path, *options: str, seconds: float) -> str:
    """Runs the long scenario with stderr on a pseudo-terminal, interrupts it
    after `seconds` and returns what reached the terminal."""
    scenario = tmp_path / "long.toml"
    scenario.write_text(SCENARIO)  # 100000 s of TCP with traces
    controller, terminal = pty.openpty()
    # 24 rows, 100 columns: a terminal of no width shows no bar
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    child = subprocess.Popen(
        [sys.executable, "-m", "ackclock", "run", str(scenario), "--out", str(tmp_path), *options],
        stdout=subprocess.DEVNULL,
        stderr=terminal,
    )
    os.close(terminal)
    shown = b""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            child.send_signal(signal.SIGINT)
            deadline = time.monotonic() + 30  # then read until the child is gone
        ready, _, _ = select.select([controller], [], [], max(left, 0.05))
        if ready:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            shown += chunk
    child.wait(timeout=30)
    os.close(controller)
    assert child.returncode == 130
    return shown.decode(errors="replace")


def test_a_long_run_on_a_terminal_shows_simulated_time_rate_and_time_left(tmp_path):
    shown = _run_on_a_terminal(tmp_path, seconds=4.0)
    assert "/100000.0 simulated s [" in shown  # n of 100000 simulated seconds
    assert "events/s" in shown and "<" in shown  # elapsed<remaining
    assert "%|" in shown
    assert shown.rstrip().endswith("the results are partial")


def test_quiet_or_short_runs_show_no_bar(tmp_path):
    shown = _run_on_a_terminal(tmp_path, "--quiet", seconds=2.5)
    assert "simulated s" not in shown
    assert shown.strip().startswith("ackclock: interrupted at ")
