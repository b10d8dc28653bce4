"""ns-2's one-way agents' ECN (ecn_, old_ecn_, RED's setbit_ and mark_p_)
and a flow monitor's marks, DelAck sinks without RFC2581_immediate_ack_,
Agent/TCP's noFastRetrans_, packet 0's size with useHeaders_ and
Agent/TCP/Newreno's partial_window_deflation_, newreno_changes1_ and
exit_recovery_fix_,
against ns-2 2.35 itself: what it prints and the SHA-256 of its whole trace
(tests/fixtures/ns2_ecn_and_acks.json, from ns2_ecn.tcl and
ns2_class_variable.tcl)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"
NS2 = json.loads((FIXTURES / "ns2_ecn_and_acks.json").read_text())


def run_and_compare(script: str, args: str, tmp_path: Path) -> list[str]:
    """Runs the fixture as ns-2 did (trace to t.tr), checks its output and
    trace against ns-2's, and returns the trace's lines."""
    expected = NS2[script][args]
    words = [str(tmp_path / "t.tr") if w == "t.tr" else w for w in args.split()]
    done = run_cli("tcl", str(FIXTURES / script), *words)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected["stdout"]
    trace = (tmp_path / "t.tr").read_bytes()
    lines = trace.decode().splitlines()
    assert len(lines) == expected["trace_lines"]
    assert hashlib.sha256(trace).hexdigest() == expected["trace_sha256"]
    return lines


@pytest.mark.parametrize("args", sorted(NS2["ns2_ecn.tcl"]))
def test_ecn_agents_and_sinks_write_ns2s_trace_byte_for_byte(args: str, tmp_path: Path) -> None:
    # Packet 0 asks with ECN-Echo (C), the rest are ECN-capable (N), RED
    # marks (E), sinks echo until a packet says the window was cut (A);
    # Tahoe, Reno, Newreno and Sack1 halve once per window and cut no
    # further for duplicate ACKs and timeouts soon after (ns-2's ecn()).
    lines = run_and_compare("ns2_ecn.tcl", args, tmp_path)
    flags = {line.split()[6] for line in lines if line[0] in "+-rd"}
    assert {"------N", "C------", "---A--N"} <= flags
    # mark_p_ 1.0: ns-2 marks only below it, so the probability 1 drops.
    assert ("----E-N" in flags) == (not args.endswith(" 1.0"))


CLASS_VARIABLE = sorted(NS2["ns2_class_variable.tcl"])
HEADERS = [args for args in CLASS_VARIABLE if "useHeaders_" in args]
NEWRENO = [a for a in CLASS_VARIABLE if "Agent/TCP/Newreno " in a and a not in HEADERS]


@pytest.mark.parametrize("args", [a for a in CLASS_VARIABLE if a not in HEADERS + NEWRENO])
def test_delack_gap_fills_and_no_fast_retransmit_match_ns2(args: str, tmp_path: Path) -> None:
    # RFC2581_immediate_ack_ false: a segment that fills the first of two
    # gaps, or repeats the cumulative ACK point below one, waits for the
    # delayed ACK; noFastRetrans_ true: Agent/TCP waits for the timeout.
    run_and_compare("ns2_class_variable.tcl", args, tmp_path)


@pytest.mark.parametrize("args", NEWRENO)
def test_newreno_partial_ack_and_exit_variables_match_ns2(args: str, tmp_path: Path) -> None:
    # Agent/TCP/Newreno's own variables: partial_window_deflation_ 0 ends
    # the inflation on a partial ACK, newreno_changes1_ 0 restarts the timer
    # on each, exit_recovery_fix_ 1 ends recovery at min(ssthresh_, the
    # packets out + 1); each run drops several packets.
    lines = run_and_compare("ns2_class_variable.tcl", args, tmp_path)
    assert sum(line.startswith("d ") for line in lines) >= 10


@pytest.mark.parametrize("args", HEADERS)
def test_packet0_without_a_syn_gets_no_header_bytes_as_in_ns2(args: str, tmp_path: Path) -> None:
    # useHeaders_ true, syn_ false: ns-2 adds the 40 header bytes to every
    # data packet but packet 0 (tcp.cc's output), and the sink's bytes_
    # counts it so.
    lines = run_and_compare("ns2_class_variable.tcl", args, tmp_path)
    sizes = {line.split()[10]: line.split()[5] for line in lines if line.startswith("+ 0 0 1 tcp")}
    assert (sizes["0"], sizes["1"]) == ("1000", "1040")


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            "set tcp [new Agent/TCP/Vegas]\n$tcp set ecn_ 1",
            "ecn_ 1 is not supported: ackclock models ns-2's ECN for Agent/TCP, /Reno, "
            "/Newreno and /Sack1",
        ),
        (
            "set tcp [new Agent/TCP]\n$tcp set noFastRetrans_ true",
            "noFastRetrans_ true with singledup_ 1 is not supported",
        ),
    ],
)
def test_unmodelled_combinations_are_refused_by_name(
    setting: str, message: str, tmp_path: Path
) -> None:
    script = tmp_path / "refused.tcl"
    script.write_text(
        "set ns [new Simulator]\nset a [$ns node]\nset b [$ns node]\n"
        "$ns duplex-link $a $b 1Mb 10ms DropTail\n"
        f"{setting}\n$ns attach-agent $a $tcp\nset sink [new Agent/TCPSink]\n"
        "$ns attach-agent $b $sink\n$ns connect $tcp $sink\n"
        "set ftp [$tcp attach-app FTP]\n$ns at 0 {$ftp start}\n$ns at 1 {exit 0}\n$ns run\n"
    )
    done = run_cli("tcl", str(script))
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
