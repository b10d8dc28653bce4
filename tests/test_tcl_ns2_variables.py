"""ns-2 agent variables whose old values ns-2.35's validation suites still
set, against ns-2 2.35 itself (tests/fixtures/ns2_precision_reduce.tcl)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

SCRIPT = Path(__file__).parent / "fixtures" / "ns2_agent_variable.tcl"

# `ns ns2_agent_variable.tcl VARIABLE VALUE AGENT QUEUE` with ns-2 2.35.
# precisionReduce_ false halves cwnd_ in whole packets; bugFix_ false allows
# a second fast retransmit within a window: each false run here differs from
# the default's (the true runs).
NS2 = {
    ("precisionReduce_", "false", "Agent/TCP/Reno", "5"): "8749 8772 1 9117720 8",
    ("precisionReduce_", "true", "Agent/TCP/Reno", "5"): "8810 8824 1 9167640 14.145",
    ("precisionReduce_", "false", "Agent/TCP/Reno", "10"): "9386 9406 1 9767720 20.3153",
    ("precisionReduce_", "true", "Agent/TCP/Reno", "10"): "9431 9445 1 9813480 14.3047",
    ("precisionReduce_", "false", "Agent/TCP/Newreno", "5"): "8744 8758 1 9099000 14.3732",
    ("precisionReduce_", "true", "Agent/TCP/Newreno", "5"): "8797 8807 1 9154120 10.3813",
    ("precisionReduce_", "false", "Agent/TCP/Sack1", "5"): "6837 6853 52 7110520 16.9338",
    ("bugFix_", "false", "Agent/TCP", "5"): "3169 3174 0 3299960 1",
    ("bugFix_", "false", "Agent/TCP/Reno", "3"): "8244 8257 1 8579000 13.1962",
    ("bugFix_", "false", "Agent/TCP/Newreno", "3"): "8237 8248 1 8570680 11.0436",
    ("bugFix_", "false", "Agent/TCP/Newreno", "10"): "9356 9372 2 9735480 16.887",
}


@pytest.mark.parametrize("args", sorted(NS2))
def test_old_agent_defaults_give_ns2s_windows(tmp_path: Path, args: tuple[str, ...]) -> None:
    done = run_cli("tcl", str(SCRIPT), *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == NS2[args]
