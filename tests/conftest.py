"""Shared helpers for the Python test suite."""

from __future__ import annotations

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


@pytest.fixture
def sim() -> ac.Simulator:
    return ac.Simulator(seed=1)
