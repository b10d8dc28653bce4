"""ns-2's RED variable trace and error models that delay packets, against
ns-2 2.35 itself (tests/fixtures/README.md says how each file was made)."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"


def run_fixture(script: str, tmp_path: Path) -> str:
    shutil.copy(FIXTURES / script, tmp_path)
    done = run_cli("tcl", script, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_red_trace_writes_ns2s_lines_for_curq_and_ave(tmp_path: Path) -> None:
    # `$redq trace curq_; $redq trace ave_; $redq attach $f` on a queue in
    # bytes that fills to its limit (forced drops, no early ones): ns-2's
    # `a TIME AVE` and `Q TIME CURQ` lines, only when a value changes.
    run_fixture("ns2_red_trace.tcl", tmp_path)
    ours = (tmp_path / "red_trace.q").read_text()
    assert ours == (FIXTURES / "ns2_red_trace.q").read_text()


def test_red_trace_of_a_variable_ackclock_does_not_follow_is_one_line(tmp_path: Path) -> None:
    script = (FIXTURES / "ns2_red_trace.tcl").read_text()
    (tmp_path / "prob.tcl").write_text(script.replace("$redq trace ave_", "$redq trace prob_"))
    done = run_cli("tcl", "prob.tcl", cwd=tmp_path)
    assert done.returncode == 2
    assert "trace prob_: ackclock traces RED's curq_ and ave_" in done.stderr
    assert "Traceback" not in done.stderr


def test_delayed_packets_give_ns2s_trace_and_window(tmp_path: Path) -> None:
    # ErrorModel/List with delay_pkt_ true and delay_ 35 ms at the link
    # head: the two picked packets enter the queue 35 ms late, the receiver
    # sees them out of order and the sender fast-retransmits once.
    printed = run_fixture("ns2_delay_pkt.tcl", tmp_path)
    assert printed == "ack 329 maxseq 349 cwnd 26.0569 ssthresh 10\n"
    with gzip.open(FIXTURES / "ns2_delay_pkt.tr.gz", "rt") as f:
        theirs = f.read()
    assert (tmp_path / "delay_pkt.tr").read_text() == theirs


def test_delay_pkt_after_the_queue_is_one_line(tmp_path: Path) -> None:
    script = (FIXTURES / "ns2_delay_pkt.tcl").read_text()
    after = script.replace("$ns lossmodel $em $s $r", "$ns link-lossmodel $em $s $r")
    (tmp_path / "after.tcl").write_text(after)
    done = run_cli("tcl", "after.tcl", cwd=tmp_path)
    assert done.returncode == 2
    assert "delay_pkt_: ackclock delays packets at the link head" in done.stderr
    assert "Traceback" not in done.stderr
