"""Shared helpers for the Python test suite."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import ackclock as ac
import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Runs `python -m ackclock ARGS` in a fresh process (as a user would)."""
    return subprocess.run(
        [sys.executable, "-m", "ackclock", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def tshark() -> str:
    """tshark's path, installing Debian's package if it is missing."""
    path = shutil.which("tshark")
    if path is None:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in (
            ["apt-get", "update", "-qq"],
            ["apt-get", "install", "-y", "-qq", "tshark"],
        ):
            subprocess.run(command, env=env, check=False, capture_output=True)
        path = shutil.which("tshark")
    assert path is not None, "tshark is needed (apt-get install tshark)"
    return path


def tshark_count(pcap: Path, display_filter: str) -> int:
    out = subprocess.run(
        [
            tshark(),
            "-r",
            str(pcap),
            "-o",
            "tcp.check_checksum:TRUE",
            "-o",
            "ip.check_checksum:TRUE",
            "-Y",
            display_filter,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return len([line for line in out.stdout.splitlines() if line.strip()])


def check_scenario_variant(path: Path, base: str, old: str, new: str, message: str | None) -> None:
    """Writes `base` with `old` replaced by `new` to `path` and runs it: a
    valid variation (`message` None) must run; any other must fail with one
    line naming the file and containing `message`."""
    assert old in base
    path.write_text(base.replace(old, new, 1))
    if message is None:
        ac.load_scenario(path).run()
        return
    with pytest.raises(ac.ScenarioError) as caught:
        ac.load_scenario(path).run()
    text = str(caught.value)
    assert text.startswith(f"{path}: ")
    assert message in text
    assert "\n" not in text


@pytest.fixture
def sim() -> ac.Simulator:
    return ac.Simulator(seed=1)
