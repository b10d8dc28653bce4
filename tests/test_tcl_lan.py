"""ns-2's wired LAN (`$ns make-lan`, docs/tcl.md "LANs") against ns-2 2.35's
own traces of two scripts of ours (tests/fixtures/lan_cbr.tcl and
lan_tcp.tcl; the traces `ns` wrote are lan_cbr.tr.gz and lan_tcp.tr.gz, see
tests/fixtures/README.md): CBR flows across a 4-node LAN and a link behind
it, with interface-queue and link drops, and FTP over TCP Reno across a
3-node LAN with the Mac's rate and the Channel's delay set by the script,
whose nam trace (lan_tcp.nam.gz) is compared too; and ns-2's Mac/802_3
(lan_8023.tcl: collisions, backoffs, a packet given up)."""

from __future__ import annotations

import gzip
import re
from collections import Counter
from pathlib import Path

import ackclock as ac
import pytest
from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"


def counts(trace: str) -> Counter[tuple[str, str, str]]:
    """(event, from, to) -> records: h + - d r per link and LAN interface."""
    return Counter(tuple(line.split()[:1] + line.split()[2:4]) for line in trace.splitlines())


def run_script(name: str, tmp_path: Path) -> tuple[str, str]:
    (tmp_path / f"{name}.tcl").write_text((FIXTURES / f"{name}.tcl").read_text())
    done = run_cli("tcl", f"{name}.tcl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stdout, (tmp_path / f"{name}.tr").read_text()


@pytest.mark.parametrize(
    ("name", "printed", "records"),
    [
        ("lan_cbr", "lan 4 nodes 6\n", 1583),
        ("lan_tcp", "acked 210\n", 4043),
        ("lan_8023", "", 7382),
    ],
)
def test_lan_script_traces_what_ns2_traced_byte_for_byte(
    name: str, printed: str, records: int, tmp_path: Path
) -> None:
    theirs = gzip.decompress((FIXTURES / f"{name}.tr.gz").read_bytes()).decode()
    assert len(theirs.splitlines()) == records
    stdout, ours = run_script(name, tmp_path)
    assert stdout == printed
    assert counts(ours) == counts(theirs)
    assert ours == theirs


def nam_lines(text: str) -> tuple[list[str], list[str]]:
    """A nam trace's header lines, sorted (ns-2 writes its nodes in Tcl's hash
    order), and its events with times to the microsecond: ns-2 prints the
    doubles it summed (1.45502000000001), ackclock the exact time."""
    header, events = [], []
    for line in text.splitlines():
        m = re.match(r"(\S) -t (\S+) (.*)", line)
        if m is None or m.group(2) == "*":
            header.append(line)
        else:
            events.append(f"{m.group(1)} -t {float(m.group(2)):.6f} {m.group(3)}")
    return sorted(header), events


def test_lan_nam_trace_shows_the_lan_as_ns2s_does(tmp_path: Path) -> None:
    theirs = gzip.decompress((FIXTURES / "lan_tcp.nam.gz").read_bytes()).decode()
    run_script("lan_tcp", tmp_path)
    ours = (tmp_path / "lan_tcp.nam").read_text()
    header, events = nam_lines(ours)
    assert "X -t * -n 3 -r 100Mb -D 2ms -o left" in header
    assert not any(line.startswith("n -t * -a 3 ") for line in header), "the LAN is no node"
    assert (header, events) == nam_lines(theirs)
    assert len(events) == 5044


def test_lan_cbr_counts_show_each_part_of_ns2s_lan(tmp_path: Path) -> None:
    # The LAN's node is 4, the node made after it 5. Node 1's 94 packets
    # meet its interface queue of 5 (ns-2's DropTail: 4 wait): 74 are sent,
    # 20 dropped. A frame is also a drop at each NIC it is not for: n1 drops
    # n0's 100 and n3's 22 besides its own 20; n0 takes n3's frames (for it)
    # and drops n1's.
    _, ours = run_script("lan_cbr", tmp_path)
    c = counts(ours)
    assert (c[("h", "1", "4")], c[("+", "1", "4")], c[("-", "1", "4")]) == (94, 94, 74)
    assert c[("r", "4", "2")] == 74
    assert c[("d", "1", "4")] == 20 + 100 + 22
    assert (c[("r", "4", "0")], c[("d", "0", "4")]) == (22, 74)
    assert c[("d", "3", "5")] == 19, "the link behind the LAN drops too"


def test_lan_8023_counts_show_collisions_as_ns2s(tmp_path: Path) -> None:
    # ns-2's 802.3: node 0's 251 packets meet collisions and backoffs, so
    # only 112 leave its queue; 139 are dropped there and one more after 16
    # attempts ("BEB limit exceeded"); a frame for another node is no drop.
    _, ours = run_script("lan_8023", tmp_path)
    c = counts(ours)
    assert (c[("+", "0", "4")], c[("-", "0", "4")], c[("d", "0", "4")]) == (251, 112, 140)
    assert c[("d", "1", "4")] == 0
    assert c[("r", "4", "3")] == 407


def test_make_lan_with_an_unmodelled_mac_is_one_line(tmp_path: Path) -> None:
    script = tmp_path / "csma.tcl"
    script.write_text(
        "set ns [new Simulator]\n"
        "set a [$ns node]\nset b [$ns node]\n"
        '$ns make-lan "$a $b" 10Mb 1ms LL Queue/DropTail Mac/802_11\n'
    )
    done = run_cli("tcl", "csma.tcl", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert "802.11 on a wired LAN is not modelled" in done.stderr


def test_python_api_lan_with_ns2s_mac_writes_ns2s_records(tmp_path: Path) -> None:
    # ns-2's make-lan "n0 n1 n2 n3" BW 2ms, one 500-byte packet n0 -> n3 at
    # 0.1 s: h and + - after the LL's 2 ms, d at the two NICs it is not for
    # 4 us later (the Channel), r after n3's LL (ns-2 2.35's records).
    sim = ac.Simulator(ns2_order=True)
    nodes = [sim.node(f"n{i}") for i in range(4)]
    named = sim.node("lan")  # ns-2's LanNode: the id that names the LAN
    lan = sim.lan(nodes, "2Mb", "4us", link_layer_delay="2ms", mac="ns2")
    sim.cbr(nodes[0], nodes[3], "4Mb", packet_size=500, start="0.1s", max_packets=1)
    sim.trace_ns2(tmp_path / "lan.tr", [], variables=False, lans=[(lan, named)])
    sim.run()
    sim.close_traces()
    records = [line.split()[:4] for line in (tmp_path / "lan.tr").read_text().splitlines()]
    assert records == [
        ["h", "0.1", "0", "4"],
        ["+", "0.102", "0", "4"],
        ["-", "0.102", "0", "4"],
        ["d", "0.102004", "2", "4"],
        ["d", "0.102004", "1", "4"],
        ["r", "0.104004", "4", "3"],
    ]
    assert [nic["tx_packets"] for nic in lan.stats()] == [1, 0, 0, 0]
