"""How ns-2's one-way TCP agents start, against ns-2 2.35 itself
(tests/fixtures/ns2_agent_start.tcl): syn_ and delay_growth_ (false: no SYN,
data from packet 0 on), useHeaders_ (false: packetSize_ includes the
40-byte header), windowInitOption_ 2 (an initial window of 4, 3 or 2
packets by packetSize_), bugfix_ss_ (after a lost SYN, and for the first
packet's fast retransmit), a DelAck sink's SYN_immediate_ack_ and
maxburst_."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

SCRIPT = Path(__file__).parent / "fixtures" / "ns2_agent_start.tcl"

# `ns ns2_agent_start.tcl AGENT SYN HEADERS OPTION SIZE BUGFIX_SS QUEUE DROP
# [SINK SYN_IMMEDIATE_ACK [MAXBURST]]`
# with ns-2 2.35: at 0.35 s and 20 s, ack_ maxseq_ nrexmit_ cwnd_ ssthresh_,
# the sink's bytes_ and the bottleneck's drops. DROP is the packet of the
# bottleneck's ErrorModel/List (0: the SYN, or the first data packet
# without one); after a lost SYN the initial window is 1 packet with
# bugfix_ss_, windowInit_ 2 without it or with windowInitOption_ 2.
NS2 = {
    (
        "Agent/TCP/Reno",
        "true",
        "true",
        "1",
        "1000",
        "1",
        "10",
        "-1",
    ): "0.34999999999999998 4 10 0 6 40 6280 0\n20 1788 1805 1 17.3414 10 1864760 28",
    (
        "Agent/TCP/Reno",
        "false",
        "false",
        "1",
        "1000",
        "1",
        "10",
        "-1",
    ): "0.34999999999999998 6 15 0 9 40 12000 0\n20 1858 1879 1 21.0456 10 1865000 29",
    (
        "Agent/TCP",
        "false",
        "false",
        "1",
        "1000",
        "1",
        "10",
        "-1",
    ): "0.34999999999999998 6 15 0 9 40 12000 0\n20 1671 1673 0 2 10 1674000 28",
    (
        "Agent/TCP/Sack1",
        "false",
        "false",
        "2",
        "1000",
        "1",
        "5",
        "-1",
    ): "0.34999999999999998 12 29 0 17 40 18000 4\n20 1783 1797 0 14.9713 8 1789000 23",
    (
        "Agent/TCP/Newreno",
        "false",
        "false",
        "1",
        "1000",
        "1",
        "10",
        "0",
    ): "0.34999999999999998 -1 3 0 2 40 0 1\n20 1602 1621 1 19.2593 10 1608000 8",
    (
        "Agent/TCP/Newreno",
        "false",
        "false",
        "1",
        "1000",
        "0",
        "10",
        "1",
    ): "0.34999999999999998 0 5 0 3 40 1000 1\n20 1854 1875 1 21.6089 10 1861000 10",
    (
        "Agent/TCP/Sack1",
        "true",
        "false",
        "1",
        "1000",
        "1",
        "10",
        "-1",
    ): "0.34999999999999998 4 10 0 6 40 6040 0\n20 1895 1914 0 19.2692 10 1900040 29",
    (
        "Agent/TCP/Reno",
        "true",
        "true",
        "2",
        "500",
        "1",
        "10",
        "-1",
    ): "0.34999999999999998 9 22 0 13 40 6520 0\n20 2982 2999 2 17.1367 15 1615180 21",
    (
        "Agent/TCP/Reno",
        "true",
        "true",
        "2",
        "1500",
        "1",
        "10",
        "-1",
    ): "0.34999999999999998 4 11 0 7 40 10820 0\n20 1218 1231 1 13.2157 8 1880380 25",
    (
        "Agent/TCP/Reno",
        "true",
        "true",
        "2",
        "2500",
        "1",
        "10",
        "-1",
    ): "0.34999999999999998 2 6 0 4 40 10200 0\n20 752 763 1 11.1311 7 1915200 21",
    (
        "Agent/TCP/Reno",
        "true",
        "true",
        "1",
        "1000",
        "1",
        "10",
        "0",
    ): "0.34999999999999998 -1 0 0 1 40 0 1\n20 1536 1551 1 15.5792 10 1602680 8",
    (
        "Agent/TCP/Reno",
        "true",
        "true",
        "1",
        "1000",
        "0",
        "10",
        "0",
    ): "0.34999999999999998 -1 0 0 1 40 0 1\n20 1546 1562 1 16.2713 10 1613080 8",
    (
        "Agent/TCP/Newreno",
        "true",
        "true",
        "2",
        "1000",
        "1",
        "10",
        "0",
    ): "0.34999999999999998 -1 0 0 1 40 0 1\n20 1546 1562 1 16.2713 10 1613080 8",
    (
        "Agent/TCP/Sack1",
        "true",
        "true",
        "1",
        "1000",
        "0",
        "10",
        "2",
    ): "0.34999999999999998 1 6 0 3 40 1080 1\n20 1781 1798 0 17.399 10 1857480 9",
    (
        "Agent/TCP/Newreno",
        "true",
        "true",
        "1",
        "1000",
        "1",
        "10",
        "2",
    ): "0.34999999999999998 1 6 0 3 40 1080 1\n20 1801 1819 0 18.9951 10 1878280 9",
    # DelAck sinks: without a SYN, packet 0 is data, its ACK delayed unless
    # SYN_immediate_ack_ (the first two differ by it).
    (
        "Agent/TCP/Reno",
        "false",
        "false",
        "1",
        "1000",
        "1",
        "10",
        "-1",
        "Agent/TCPSink/DelAck",
        "false",
    ): "0.34999999999999998 3 7 0 4 40 8000 0\n20 1794 1811 1 17.0889 10 1802000 15",
    (
        "Agent/TCP/Reno",
        "false",
        "false",
        "1",
        "1000",
        "1",
        "10",
        "-1",
        "Agent/TCPSink/DelAck",
        "true",
    ): "0.34999999999999998 3 8 0 5 40 9000 0\n20 1793 1810 1 17.0889 10 1801000 15",
    (
        "Agent/TCP/Reno",
        "true",
        "true",
        "1",
        "1000",
        "1",
        "10",
        "-1",
        "Agent/TCPSink/DelAck",
        "true",
    ): "0.34999999999999998 2 5 0 3 40 5240 0\n20 1729 1744 1 15.03 10 1804440 15",
    (
        "Agent/TCP/Reno",
        "false",
        "false",
        "1",
        "1000",
        "1",
        "10",
        "3",
        "Agent/TCPSink/DelAck",
        "false",
    ): "0.34999999999999998 2 6 0 4 40 3000 1\n20 1765 1782 0 17.2639 10 1772000 5",
    (
        "Agent/TCP/Sack1",
        "false",
        "false",
        "1",
        "1000",
        "1",
        "10",
        "4",
        "Agent/TCPSink/Sack1/DelAck",
        "false",
    ): "0.34999999999999998 3 7 0 4 40 4000 1\n20 1766 1782 0 16.9713 10 1773000 5",
    # maxburst_: at most N packets for each ACK, timeout or write (each
    # differs from the run without it).
    (
        "Agent/TCP/Reno",
        "true",
        "true",
        "1",
        "1000",
        "1",
        "5",
        "-1",
        "Agent/TCPSink",
        "true",
        "3",
    ): "0.34999999999999998 4 10 0 6 40 6280 0\n20 1661 1682 1 8.45963 8 1746200 23",
    (
        "Agent/TCP/Newreno",
        "false",
        "false",
        "1",
        "1000",
        "1",
        "5",
        "-1",
        "Agent/TCPSink/DelAck",
        "false",
        "2",
    ): "0.34999999999999998 3 5 0 4 40 6000 0\n20 317 319 0 42.9193 40 320000 0",
    (
        "Agent/TCP",
        "true",
        "true",
        "1",
        "1000",
        "1",
        "5",
        "-1",
        "Agent/TCPSink",
        "true",
        "1",
    ): "0.34999999999999998 2 3 0 4 40 2120 0\n20 172 173 0 43.2213 40 178920 0",
    (
        "Agent/TCP/Sack1",
        "true",
        "true",
        "1",
        "1000",
        "1",
        "10",
        "5",
        "Agent/TCPSink/Sack1",
        "true",
        "1",
    ): "0.34999999999999998 2 3 0 4 40 2120 0\n20 170 171 1 18.4077 3 176840 1",
}


@pytest.mark.parametrize("args", sorted(NS2))
def test_agent_start_variables_give_ns2s_numbers(tmp_path: Path, args: tuple[str, ...]) -> None:
    done = run_cli("tcl", str(SCRIPT), *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == NS2[args]


RENO = ("Agent/TCP/Reno", "true", "true", "1", "1000", "1", "10", "-1")
DELACK = (*RENO, "Agent/TCPSink/DelAck")


@pytest.mark.parametrize(
    ("setting", "args", "message"),
    [
        ("Agent/TCP set syn_ false", RENO, "syn_ 0 with delay_growth_ 1 is not supported"),
        (
            "Agent/TCP set windowInitOption_ 3",
            RENO,
            "windowInitOption_ 3: ns-2 has options 1 and 2",
        ),
        (
            "Agent/TCP set useHeaders_ false; Agent/TCP set packetSize_ 40",
            RENO,
            "packetSize_ 40 with useHeaders_ false",
        ),
        (
            "Agent/TCPSink set SYN_immediate_ack_ false",
            DELACK,
            "SYN_immediate_ack_ false is not supported with its agent's syn_ true",
        ),
    ],
)
def test_agent_start_settings_ackclock_cannot_model_are_one_line_errors(
    tmp_path: Path, setting: str, args: tuple[str, ...], message: str
) -> None:
    script = (SCRIPT.read_text()).replace("lassign $argv", f"{setting}\nlassign $argv")
    script = script.replace("Agent/TCP set syn_ $syn\n", "").replace(
        "Agent/TCP set delay_growth_ $syn\n", ""
    )
    script = script.replace("Agent/TCP set windowInitOption_ $option\n", "")
    script = script.replace("$tcp set packetSize_ $size", "")
    if "useHeaders_" in setting:
        script = script.replace("Agent/TCP set useHeaders_ $headers\n", "")
    (tmp_path / "start.tcl").write_text(script)
    done = run_cli("tcl", "start.tcl", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
