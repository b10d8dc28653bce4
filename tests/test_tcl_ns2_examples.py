"""What ns-2.35's tcl/ex examples use, against ns-2 2.35's own output: link
changes traced per link (`trace-dynamics`), the RNG's normal draws and
substreams, the small API pieces (VC module, rtsize_, `$link link`, the
Simulator's link_ array, variables a script's instprocs keep, CBR random_),
queue integrators, DV's update times from ns-2's routing generator,
what ns-2's C++ prints for wireless scripts, and one-line refusals of what
ackclock does not model. The scripts are tests/fixtures/ns2_*.tcl; the
fixtures beside them are what `ns SCRIPT` printed and wrote."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest
from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"


def run_fixture(tmp_path: Path, script: str, *args: str) -> str:
    shutil.copy(FIXTURES / script, tmp_path / script)
    done = run_cli("tcl", script, *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_trace_dynamics_prints_each_links_changes_as_ns2_does(tmp_path: Path) -> None:
    # rtmodel-at on one link, a Deterministic model on another; both of
    # ns-2's formats for one link, in the order the tracers were added, and
    # a link's two directions in the order ns-2 changes them
    out = run_fixture(tmp_path, "ns2_trace_dynamics.tcl")
    assert out == (FIXTURES / "ns2_trace_dynamics.out").read_text()


def test_normal_draws_share_the_spare_sample_and_substreams_are_ns2s(tmp_path: Path) -> None:
    out = run_fixture(tmp_path, "ns2_rng_normal.tcl")
    assert out == (FIXTURES / "ns2_rng_normal.out").read_text()


def test_example_api_pieces_and_cbr_jitter_give_ns2s_trace(tmp_path: Path) -> None:
    out = run_fixture(tmp_path, "ns2_example_apis.tcl")
    assert out == (FIXTURES / "ns2_example_apis.out").read_text()
    ours = (tmp_path / "out.tr").read_text().splitlines()
    theirs = gzip.decompress((FIXTURES / "ns2_example_apis.tr.gz").read_bytes()).decode()
    theirs_lines = theirs.splitlines()
    assert len(ours) == len(theirs_lines) == 1153
    for mine, ns2 in zip(ours, theirs_lines):
        a, b = mine.split(), ns2.split()
        assert a[0] == b[0] and a[2:] == b[2:], (mine, ns2)
        # ackclock's clock counts picoseconds, ns-2's adds doubles: a time
        # may round to the other side of a microsecond in the trace
        assert abs(float(a[1]) - float(b[1])) <= 1.0000001e-6, (mine, ns2)


def test_queue_integrators_stop_at_the_last_queue_change_as_ns2s(tmp_path: Path) -> None:
    # read between the queue's changes (and after a reset): ns-2's sum_
    # leaves out the time since the last one; ns-2 prints %.9g of a sum of
    # doubles, ackclock's clock counts picoseconds
    out = run_fixture(tmp_path, "ns2_integrator.tcl").split()
    ns2 = (FIXTURES / "ns2_integrator.out").read_text().split()
    assert len(out) == len(ns2) == 15
    for mine, theirs in zip(out, ns2):
        assert float(mine) == pytest.approx(float(theirs), rel=1e-5), (mine, theirs)


def test_dv_updates_come_when_ns2s_routing_generator_says(tmp_path: Path) -> None:
    # every record as ns-2 writes it but for the routing agents' ports
    # (ns-2's DV agent is attached after the script's agents; ackclock
    # writes port 1) and ns-2's second copy of each link change (it traces
    # the change once per trace it registered for the link)
    run_fixture(tmp_path, "ns2_dv_updates.tcl")
    ours = (tmp_path / "out.tr").read_text().splitlines()
    theirs = gzip.decompress((FIXTURES / "ns2_dv_updates.tr.gz").read_bytes()).decode()
    theirs_lines = theirs.splitlines()
    assert len(theirs_lines) == 1466

    def fields(line: str) -> list[str]:
        words = line.split()
        if words[4] == "rtProtoDV":
            words[8], words[9] = words[8].split(".")[0], words[9].split(".")[0]
        return words

    packets = [fields(line) for line in ours if not line.startswith("v ")]
    assert packets == [fields(line) for line in theirs_lines if not line.startswith("v ")]
    changes = [line for line in ours if line.startswith("v ")]
    assert changes == [line for line in theirs_lines if line.startswith("v ")][::2]


@pytest.mark.parametrize("model", ["TwoRayGround", "Shadowing"])
def test_wireless_scripts_print_what_ns2s_cpp_prints(tmp_path: Path, model: str) -> None:
    # God's node count, then the carrier-sense range once a radio has sent
    # (Shadowing's is unbounded: DBL_MAX), after the script's own lines
    out = run_fixture(tmp_path, "ns2_wireless_prints.tcl", model)
    assert out == (FIXTURES / f"ns2_wireless_prints_{model}.out").read_text()


def test_the_free_space_carrier_sense_range_is_ns2s(tmp_path: Path) -> None:
    # ns-2's FreeSpace also prints a debugging line per frame received,
    # which ackclock does not: only the range is compared
    out = run_fixture(tmp_path, "ns2_wireless_prints.tcl", "FreeSpace")
    ns2 = (FIXTURES / "ns2_wireless_prints_FreeSpace.out").read_text().splitlines()
    assert ns2[5] == "highestAntennaZ_ = 2.0,  distCST_ = 6201.3"
    assert out.splitlines()[-1] == ns2[5]


TOPOLOGY = (
    "set ns [new Simulator]\nset a [$ns node]\nset b [$ns node]\n"
    "$ns duplex-link $a $b 1Mb 10ms DropTail\n"
    "set u [new Agent/UDP]\n$ns attach-agent $a $u\nset c [new Application/Traffic/CBR]\n"
    "$c attach-agent $u\nset z [new Agent/Null]\n$ns attach-agent $b $z\n$ns connect $u $z\n"
)


@pytest.mark.parametrize(
    ("before", "line", "message"),
    [
        (
            "remove-all-packet-headers\nadd-packet-header IP Message\n",
            "$ns run",
            "(Agent/UDP): ns-2's UDP agents need the RTP packet header (add-packet-header RTP)",
        ),
        ("Node set multiPath_ 1\n", "$ns run", "(Node) multiPath_ 1 is not supported"),
        ("", "Node enable-module MPLS", "Node enable-module MPLS: ackclock routes as ns-2's"),
        ("", "$ns namtrace-config [open n.nam w]", "namtrace-config: a nam file of configuration"),
    ],
)
def test_what_ns2s_examples_use_but_ackclock_does_not_model_is_one_line(
    tmp_path: Path, before: str, line: str, message: str
) -> None:
    (tmp_path / "s.tcl").write_text(before + TOPOLOGY + line + "\n")
    done = run_cli("tcl", "s.tcl", cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_headers_a_udp_agent_needs_kept_after_removing_all_run(tmp_path: Path) -> None:
    before = "remove-all-packet-headers\nadd-packet-header IP RTP\n"
    (tmp_path / "s.tcl").write_text(before + TOPOLOGY + "$ns at 0.1 {exit 0}\n$ns run\n")
    done = run_cli("tcl", "s.tcl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
