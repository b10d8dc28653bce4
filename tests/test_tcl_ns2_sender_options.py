"""ns-2's timerfix_, control_increase_, QOption_ and EnblRTTCtr_ against
ns-2 2.35 itself: tests/fixtures/ns2_sender_options.json holds what ns-2
prints for tests/fixtures/ns2_timer_restart.tcl (timeouts after drops in a
small window) and ns2_app_limited.tcl (an application that gives a packet
every 10 ms, a burst, a pause), with the arguments listed there."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"
CASES = json.loads((FIXTURES / "ns2_sender_options.json").read_text())
NS2 = {tuple(case["argv"]): case["stdout"] for case in CASES}
DROPS = "30 31 120 400"


@pytest.mark.parametrize("argv", sorted(NS2), ids=" ".join)
def test_sender_option_runs_print_ns2s_lines(tmp_path: Path, argv: tuple[str, ...]) -> None:
    shutil.copy(FIXTURES / argv[0], tmp_path)
    done = run_cli("tcl", *argv, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == NS2[argv]


def test_each_option_changes_ns2s_numbers() -> None:
    # The runs above would pass with the option ignored if it changed
    # nothing in them.
    timer = ("ns2_timer_restart.tcl", "Agent/TCP", "3", "2 7 9 10 11")
    assert NS2[(*timer, "false")] != NS2[(*timer, "true")]
    plain = ("ns2_app_limited.tcl", "Agent/TCP", DROPS, "0")
    assert NS2[(*plain, "control_increase_", "1")] != NS2[plain]
    qoption = (*plain, "QOption_", "1")
    assert NS2[qoption] != NS2[plain]
    assert NS2[(*qoption, "EnblRTTCtr_", "1")] != NS2[qoption]


def test_qoption_on_other_agents_is_refused(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "ns2_app_limited.tcl", tmp_path)
    argv = ("ns2_app_limited.tcl", "Agent/TCP/Reno", DROPS, "0", "QOption_", "1")
    done = run_cli("tcl", *argv, cwd=tmp_path)
    assert done.returncode == 2
    assert "QOption_ 1 is not supported: ackclock models it for Agent/TCP only" in done.stderr
