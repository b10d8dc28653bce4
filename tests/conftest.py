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
