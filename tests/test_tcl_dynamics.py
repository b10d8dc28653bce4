"""`$ns rtproto`, `rtmodel` and `rtmodel-at` against ns-2 2.35: the
tutorial's seven-node ring with the link n1-n2 failing, under DV and Session
routing (tests/fixtures/dv_ring_dynamics.tcl)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_cli

SCRIPT = Path(__file__).parent / "fixtures" / "dv_ring_dynamics.tcl"


@pytest.mark.parametrize(
    ("args", "ns2"),
    [
        # `ns dv_ring_dynamics.tcl PROTOCOL MODEL` with ns-2 2.35.
        (("DV", "at"), "sink 793 drops 3"),
        (("DV", "deterministic"), "sink 777 drops 9"),
        (("Session", "at"), "sink 798 drops 3"),
        (("Session", "deterministic"), "sink 792 drops 9"),
    ],
)
def test_routing_around_a_failing_link_delivers_what_ns2_delivers(
    tmp_path: Path, args: tuple[str, str], ns2: str
) -> None:
    shutil.copy(SCRIPT, tmp_path / "ring.tcl")
    done = run_cli("tcl", "ring.tcl", *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ns2


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("$ns rtproto LS", "rtproto LS: not supported (supported: Static, Manual, Algorithmic,"),
        ("$ns rtmodel Trace trace.txt $a $b", "rtmodel Trace: not supported (supported:"),
        (
            "$ns rtmodel Deterministic {1 2 3 4 5} $a $b",
            "give {start up down ?finish?} or {up down}",
        ),
        ("$ns rtmodel-at 1.0 sideways $a $b", "the operation is up or down"),
        ("$ns rtmodel-at 1.0 down $a $b $a", "names one node (all its links) or two"),
    ],
)
def test_a_bad_routing_or_failure_command_is_one_line(
    tmp_path: Path, line: str, message: str
) -> None:
    body = "set ns [new Simulator]\nset a [$ns node]\nset b [$ns node]\n"
    body += "$ns duplex-link $a $b 1Mb 10ms DropTail\n" + line + "\n$ns run\n"
    (tmp_path / "s.tcl").write_text(body)
    done = run_cli("tcl", "s.tcl", cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_an_empty_rtmodel_parameter_list_takes_ns2s_defaults(tmp_path: Path) -> None:
    # ns-2.35's tcl/ex/simple-dyn.tcl: `$ns rtmodel Deterministic {} $n0 $n1`
    # is up 2 s from 0.5 s, then down 1 s (rtModel/Deterministic's defaults);
    # ns-2 2.35 traces this script's link going down at 2.5 and 5.5 s, up at 3.5 s.
    body = "set ns [new Simulator]\nset f [open out.tr w]\n$ns trace-all $f\n"
    body += "set a [$ns node]\nset b [$ns node]\n$ns duplex-link $a $b 1Mb 10ms DropTail\n"
    body += "$ns rtmodel Deterministic {} $a $b\n$ns at 6.0 {close $f; exit 0}\n$ns run\n"
    (tmp_path / "s.tcl").write_text(body)
    done = run_cli("tcl", "s.tcl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    events = [line.split()[:3] for line in (tmp_path / "out.tr").read_text().splitlines()]
    changes = sorted((float(t), what) for v, t, what in events if v == "v")
    assert changes == [(2.5, "link-down")] * 2 + [(3.5, "link-up")] * 2 + [(5.5, "link-down")] * 2
