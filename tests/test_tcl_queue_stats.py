"""ns-2's queue summary statistics (`summarystats_`, `$queue printstats`)
against ns-2 2.35's output for tests/fixtures/ns2_printstats.tcl."""

import re
import shutil
from pathlib import Path

import pytest
from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"
LINE = re.compile(r"True average queue: ([0-9.]+)( \(in bytes\))? time: ([0-9.]+)")


def test_printstats_gives_ns2s_time_averaged_queues_in_packets_and_bytes(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "ns2_printstats.tcl", tmp_path / "s.tcl")
    done = run_cli("tcl", "s.tcl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    ours = [LINE.fullmatch(line).groups() for line in done.stdout.splitlines()]
    theirs = [
        LINE.fullmatch(line).groups()
        for line in (FIXTURES / "ns2_printstats.out").read_text().splitlines()
    ]
    assert [unit for _, unit, _ in ours] == [unit for _, unit, _ in theirs]
    for (average, _, time), (ns2_average, _, ns2_time) in zip(ours, theirs):
        # ns-2 averages up to the queue's last change, ackclock up to now;
        # the same-instant order of a CBR source's packets differs slightly.
        assert float(average) == pytest.approx(float(ns2_average), rel=1e-3)
        assert float(time) == pytest.approx(float(ns2_time), abs=0.002)
    # The queue without summarystats_ prints ns-2's zeros.
    assert ours[2] == theirs[2] == ("0.000", None, "0.000")
