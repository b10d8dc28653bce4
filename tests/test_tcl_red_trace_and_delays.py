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


def test_flow_monitor_counts_reds_early_drops_apart_as_ns2(tmp_path: Path) -> None:
    # `$ns attach-fmon LINK FMON 1` on a RED queue whose decisions are all
    # certain (weight 1, max_p 1, thresholds 5 and 6 packets of 700 bytes):
    # every drop is early; epdrops_ and the dump's early columns are ns-2's.
    printed = run_fixture("ns2_red_early.tcl", tmp_path)
    assert printed == "pdrops 172 epdrops 172 ebdrops 172000 parrivals 414\n"
    assert (tmp_path / "red_early.fm").read_text() == (FIXTURES / "ns2_red_early.fm").read_text()
    with gzip.open(FIXTURES / "ns2_red_early.tr.gz", "rt") as f:
        assert (tmp_path / "red_early.tr").read_text() == f.read()


def test_without_an_early_drop_target_early_drops_are_plain_drops(tmp_path: Path) -> None:
    # The same run attached without edrop: ns-2 counts no early drops.
    script = (FIXTURES / "ns2_red_early.tcl").read_text()
    script = script.replace(
        "$ns attach-fmon [$ns link $b $c] $fm 1", "$ns attach-fmon [$ns link $b $c] $fm"
    )
    (tmp_path / "plain.tcl").write_text(script)
    done = run_cli("tcl", "plain.tcl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "pdrops 172 epdrops 0 ebdrops 0 parrivals 414\n"
    assert (tmp_path / "red_early.fm").read_text() == (
        "   2.000 1 0 2 1 0 2 269 269000 0 0 414 414000 0 0 172 172000 140 140000 0 0 0\n"
        "   2.000 2 0 2 2 0 2 145 145000 0 0 414 414000 0 0 172 172000 32 32000 0 0 0\n"
    )
