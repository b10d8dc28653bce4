"""ns-2's event trace (`$ns eventtrace-all`) against ns-2 2.35 itself:
tests/fixtures/ns2_eventtrace.json holds, for each agent, what
`ns ns2_eventtrace.tcl AGENT` printed, its E lines, and the length and
SHA-256 of the whole trace file it wrote."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"
NS2 = json.loads((FIXTURES / "ns2_eventtrace.json").read_text())


@pytest.mark.parametrize("agent", sorted(NS2))
def test_event_lines_and_trace_are_ns2s(agent: str, tmp_path: Path) -> None:
    # A 1 Mb/s bottleneck with a 12-packet queue and a 40-packet window:
    # fast retransmits (each agent names its own), Reno's and Newreno's
    # timeout, the slow starts after them, Newreno's recovery events.
    shutil.copy(FIXTURES / "ns2_eventtrace.tcl", tmp_path)
    done = run_cli("tcl", "ns2_eventtrace.tcl", agent, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == NS2[agent]["printed"]
    trace = (tmp_path / "events.tr").read_bytes()
    events = [line for line in trace.decode().splitlines() if line.startswith("E ")]
    assert events == NS2[agent]["events"]
    assert trace.count(b"\n") == NS2[agent]["lines"]
    assert hashlib.sha256(trace).hexdigest() == NS2[agent]["sha256"], "the whole trace"


def test_eventtrace_all_without_a_trace_file_is_one_line(tmp_path: Path) -> None:
    script = (FIXTURES / "ns2_eventtrace.tcl").read_text()
    (tmp_path / "bare.tcl").write_text(script.replace("$ns trace-all $tf\n", ""))
    done = run_cli("tcl", "bare.tcl", "Agent/TCP/Reno", cwd=tmp_path)
    assert done.returncode == 2
    assert "eventtrace-all: give a channel (or call trace-all first)" in done.stderr
    assert "Traceback" not in done.stderr
