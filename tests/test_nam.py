"""nam traces: the header from ackclock.nam and the packet events from
Sim.trace_nam, checked against real ns-2 2.35 output (tests/fixtures)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import ackclock as ac
import pytest
from ackclock import nam

FIXTURES = Path(__file__).resolve().parent / "fixtures"

# basic1.tcl's nam hints: flow 0 in red, both links to the right, queue R->B at 0.5.
BASIC1_PREAMBLE = nam.preamble(
    nodes=[0, 1, 2],
    links=[(0, 1, 10_000_000, 10 * 1e-3, "right"), (1, 2, 800_000, 50 * 1e-3, "right")],
    queues=[(2, 1, 0.5), (1, 2, 0.5)],
    colors=[(0, "Red")],
)


def basic1(path: Path) -> ac.Simulator:
    """basic1.tcl (examples/basic1.toml) with a nam trace, as ns-2 writes it."""
    sim = ac.Simulator(seed=1)
    a, r, b = sim.node("A"), sim.node("R"), sim.node("B")
    sim.duplex_link(a, r, "10Mb", "10ms", queue=ac.DropTail(limit=50, ns2_limit=True))
    sim.duplex_link(r, b, "800Kb", "50ms", queue=ac.DropTail(limit=7, ns2_limit=True))
    tcp = ac.TcpParams(profile="ns2", cc="reno", mss=960, max_window=96_000)
    sim.tcp(a, b, app=ac.Bulk(), tcp=tcp)
    # No Simulator wrapper yet: the native call is the interface under test.
    sim._native.trace_nam(str(path), BASIC1_PREAMBLE)
    return sim


def events_before(lines: list[str], end_s: float) -> Counter[str]:
    """Packet events before `end_s`, without ports: ns-2 prints its agents' port
    numbers (0.0) where ackclock prints the TCP ports it uses (0.20000)."""
    return Counter(
        re.sub(r"\{(\d+)\.\d+ (\d+)\.\d+ ", r"{\1 \2 ", line)
        for line in lines
        if line[0] in "+-hrd" and float(line.split()[2]) < end_s
    )


def test_basic1_header_matches_ns2() -> None:
    real = (FIXTURES / "basic1-head.nam").read_text().splitlines(keepends=True)
    assert BASIC1_PREAMBLE == "".join(real[:11])


def test_basic1_events_match_ns2_for_the_first_0_6_s(tmp_path: Path) -> None:
    sim = basic1(tmp_path / "basic1.nam")
    sim.run(until="1s")
    sim.close_traces()
    ours = (tmp_path / "basic1.nam").read_text().splitlines()
    real = (FIXTURES / "basic1-head.nam").read_text().splitlines()
    assert ours[:11] == real[:11]
    # Simultaneous events may come in another order; the events are the same,
    # + - h r of data and ACKs and the first two drops included.
    expected = events_before(real, 0.6)
    assert sum(expected.values()) == 346
    assert events_before(ours, 0.6) == expected


def test_each_dequeue_is_followed_by_its_hop_record_and_times_increase(tmp_path: Path) -> None:
    sim = basic1(tmp_path / "basic1.nam")
    sim.run(until="2s")
    sim.close_traces()
    events = [line.split() for line in (tmp_path / "basic1.nam").read_text().splitlines()[11:]]
    times = [float(e[2]) for e in events]
    assert times == sorted(times)
    for i, e in enumerate(events):
        if e[0] == "-":
            hop = events[i + 1]
            assert hop[0] == "h" and hop[1:-3] == e[1:-3] and hop[-2:] == e[-2:]
            assert hop[-3] == "-1"


def test_a_trace_without_packets_still_has_its_header(tmp_path: Path) -> None:
    sim = ac.Simulator()
    sim.node()
    sim.node()
    preamble = nam.preamble([0, 1], [(0, 1, 1_000_000, 0.01, None)])
    sim._native.trace_nam(str(tmp_path / "idle.nam"), preamble)
    sim.run(until="1s")
    sim.close_traces()
    assert (tmp_path / "idle.nam").read_text() == preamble


@pytest.mark.parametrize(
    ("delay_s", "printed"),
    [
        # What ns-2 2.35 prints for `duplex-link ... 1.5Mb $delay DropTail`.
        (10 * 1e-3, "0.01"),
        (50 * 1e-3, "0.050000000000000003"),
        (100 * 1e-3, "0.10000000000000001"),
        (1 * 1e-3, "0.001"),
        (0.5, "0.5"),
        (33 * 1e-3, "0.033000000000000002"),
        (300 * 1e-6, "0.00029999999999999997"),
        (0.3, "0.29999999999999999"),
        (123.456 * 1e-3, "0.12345600000000001"),
        (0.00001, "1.0000000000000001e-05"),
        (2.0, "2"),
        (0, "0"),
    ],
)
def test_link_delays_print_as_ns2s_tcl_does(delay_s: float, printed: str) -> None:
    line = nam.preamble([], [(0, 1, 1_500_000, delay_s, None)]).splitlines()[-1]
    assert line == f"l -t * -s 0 -d 1 -S UP -r 1500000 -D {printed} -c black"


def test_links_without_orientation_and_queue_positions_print_like_ns2() -> None:
    # ns-2 2.35 for a 1.5 b/s link (no orient) and a 33.3Kb one at 45deg, with
    # `simplex-link-op ... queuePos` 0.1, 0.3, 1 and 1.0.
    text = nam.preamble(
        [0, 1, 2],
        [(0, 1, 1.5, 10 * 1e-3, None), (1, 2, 33.3 * 1e3, 10 * 1e-3, "45deg")],
        [(2, 1, "1.0"), (1, 2, 1), (1, 0, 0.3), (0, 1, 0.1)],
    )
    assert text.splitlines()[6:] == [
        "l -t * -s 0 -d 1 -S UP -r 1.5 -D 0.01 -c black",
        "l -t * -s 1 -d 2 -S UP -r 33300 -D 0.01 -c black -o 45deg",
        "q -t * -s 2 -d 1 -a 1.0",
        "q -t * -s 1 -d 2 -a 1",
        "q -t * -s 1 -d 0 -a 0.3",
        "q -t * -s 0 -d 1 -a 0.1",
    ]


def test_the_topology_is_written_as_ns2_writes_it_without_the_scripts_hints(
    tmp_path: Path,
) -> None:
    sim = basic1(tmp_path / "unused.nam")
    sim.trace_nam(tmp_path / "auto.nam")  # the nodes and links built so far
    sim.run(until="0.1s")
    sim.close_traces()
    ours = (tmp_path / "auto.nam").read_text().splitlines()
    real = (FIXTURES / "basic1-head.nam").read_text().splitlines()[:11]
    # the nodes' names, as `$node label` writes them
    assert ours[:3] == [
        f'n -t 0 -s {i} -S DLABEL -l "{name}" -L ""' for i, name in enumerate("ARB")
    ]
    # basic1.tcl adds a colour, link orientations and queue positions
    hints = [line.replace(" -o right", "") for line in real if line[0] not in "cq"]
    assert ours[3 : 3 + len(hints)] == hints
    assert ours[3 + len(hints)].startswith("+ -t 0 ")
