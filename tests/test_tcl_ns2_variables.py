"""ns-2 agent variables whose old values ns-2.35's validation suites still
set, against ns-2 2.35 itself (tests/fixtures/ns2_precision_reduce.tcl)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

SCRIPT = Path(__file__).parent / "fixtures" / "ns2_precision_reduce.tcl"

# `ns ns2_precision_reduce.tcl PRECISION AGENT QUEUE` with ns-2 2.35:
# precisionReduce_ false halves cwnd_ in whole packets, so every run but the
# last differs from the default's.
NS2 = {
    ("false", "Agent/TCP/Reno", "5"): "8749 8772 1 9117720 8",
    ("true", "Agent/TCP/Reno", "5"): "8810 8824 1 9167640 14.145",
    ("false", "Agent/TCP/Reno", "10"): "9386 9406 1 9767720 20.3153",
    ("true", "Agent/TCP/Reno", "10"): "9431 9445 1 9813480 14.3047",
    ("false", "Agent/TCP/Newreno", "5"): "8744 8758 1 9099000 14.3732",
    ("true", "Agent/TCP/Newreno", "5"): "8797 8807 1 9154120 10.3813",
    ("false", "Agent/TCP/Sack1", "5"): "6837 6853 52 7110520 16.9338",
}


@pytest.mark.parametrize("args", sorted(NS2))
def test_precision_reduce_gives_ns2s_windows(tmp_path: Path, args: tuple[str, str, str]) -> None:
    done = run_cli("tcl", str(SCRIPT), *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == NS2[args]
