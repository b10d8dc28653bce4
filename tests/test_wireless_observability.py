"""What a wireless run records besides its results: node positions (the
waypoints of every move), each radio NIC's interface queue, every route
change, and pcap captures of 802.11 frames. Timings are ns-2's 802.11 at
1 Mb/s (docs/mac80211.md): RTS 352 us, CTS and ACK 304 us, SIFS 10 us, a
500-byte packet with 58 bytes of PLCP and MAC header 4464 us; frames travel
distance / c."""

import math
import struct
import subprocess

import ackclock as ac
import pytest
from ackclock.network_series import position_at
from conftest import EXAMPLES, run_cli, tshark

C = 3e8  # ns-2's speed of light
US = 1e-6


def chain(names="abc", spacing=200.0, **radio):
    """Radio nodes on a line `spacing` metres apart (two-ray ground reaches
    250 m: each hears only its neighbours)."""
    sim = ac.Simulator(seed=1)
    nodes = [sim.node(name) for name in names]
    channel = sim.radio(**radio)
    nics = [channel.attach(node, (spacing * i, 0, 0)) for i, node in enumerate(nodes)]
    return sim, nodes, nics


def read_pcap(path):
    """(link type, [(time_s, frame bytes)]) of a pcap file with nanosecond stamps."""
    data = path.read_bytes()
    magic, _, _, _, _, _, link_type = struct.unpack("<IHHiIII", data[:24])
    assert magic == 0xA1B23C4D
    frames, at = [], 24
    while at < len(data):
        seconds, nanos, caplen, _ = struct.unpack("<IIII", data[at : at + 16])
        frames.append((seconds + nanos * 1e-9, data[at + 16 : at + 16 + caplen]))
        at += 16 + caplen
    return link_type, frames


KINDS = {0x08: "data", 0xB4: "rts", 0xC4: "cts", 0xD4: "ack"}


def test_the_position_series_is_the_waypoints_and_interpolates_to_the_position():
    sim, (a, b), _ = chain("ab", spacing=0.0)
    sim.move(b, 2, (30, 40), 5.0)  # 50 m: would arrive at 12 s
    sim.move(b, 7, (15, 0), 4.0)  # cut short at (15, 20); 20 m: arrives at 12 s
    seen = {}
    for t in (5.0, 9.5, 20.0):
        sim.at(t, lambda t=t: seen.setdefault(t, sim.position(b)))
    sim.run(until=30)
    series = sim.position_series(b)
    assert series == {
        "time_s": [0.0, 2.0, 7.0, 12.0],
        "x": [0.0, 0.0, pytest.approx(15.0, abs=1e-9), 15.0],
        "y": [0.0, 0.0, pytest.approx(20.0, abs=1e-9), 0.0],
        "z": [0.0, 0.0, 0.0, 0.0],
    }
    assert sim.position_series(a)["time_s"] == [0.0], "placed once, never moved"
    for t, where in seen.items():
        assert position_at(series, t) == pytest.approx(where, abs=1e-9)
    assert seen[9.5] == pytest.approx((15.0, 10.0, 0.0))


def test_a_move_under_way_ends_in_the_series_at_its_arrival():
    sim, (_, b), _ = chain("ab")
    sim.move(b, 1, (200, 100), 10.0)  # 100 m: arrives at 11 s
    sim.run(until=5)
    series = sim.position_series(b)
    assert (series["time_s"], series["y"]) == ([0.0, 1.0, 11.0], [0.0, 0.0, 100.0])
    assert position_at(series, 5.0) == pytest.approx(sim.position(b))


def test_route_changes_on_an_aodv_chain_come_when_the_request_and_reply_arrive(tmp_path):
    # a finds c through b: b learns a (reverse route) when a's request
    # reaches it, c learns a when b's rebroadcast does, then the reply
    # gives b and a their routes to c as it arrives, hop by hop.
    sim, (a, b, c), _ = chain()
    sim.routing(ac.AODV())
    sim.record_routes()
    sim.trace_all(tmp_path / "chain.tr", radio=ac.RadioTrace())
    flow = sim.cbr(a, c, rate="8kb", packet_size=500, start=1.0, max_packets=3)
    sim.run(until=3)
    sim.close_traces()
    assert flow.stats()["rx_packets"] == 3
    arrivals = {}  # (node, REQUEST or REPLY) -> time of the routing layer's first receive
    for line in (tmp_path / "chain.tr").read_text().splitlines():
        fields = line.split()
        if fields[0] == "r" and fields[3] == "RTR" and fields[6] == "AODV":
            arrivals.setdefault(
                (int(fields[2].strip("_")), fields[-1].strip("()")), float(fields[1])
            )
    changes = sim.route_changes()
    assert [(r["node"], r["dst"], r["next_hop"]) for r in changes] == [
        ("b", "a", "a"),
        ("c", "a", "b"),
        ("b", "c", "c"),
        ("a", "c", "b"),
    ]
    expected = [(1, "REQUEST"), (2, "REQUEST"), (1, "REPLY"), (0, "REPLY")]
    for change, key in zip(changes, expected):
        assert change["time_s"] == pytest.approx(arrivals[key], abs=1e-9), key


def test_route_changes_are_kept_only_when_asked():
    sim, (a, _, c), _ = chain()
    sim.routing(ac.AODV())
    sim.cbr(a, c, rate="8kb", packet_size=500, start=1.0, max_packets=1)
    sim.run(until=2)
    assert sim.route_changes() == []


def burst(tmp_path):
    """a queues 10 packets 10 us apart for b behind a 5-packet interface
    queue, and captures its frames (ARP off: b's address is known)."""
    sim, (a, b), (nic, _) = chain("ab", spacing=100.0, queue_limit=5, arp=False)
    nic.record_queue()
    sim.pcap(tmp_path / "a.pcap", interface=nic)
    sim.cbr(a, b, rate="400Mb", packet_size=500, start=1.0, max_packets=10)
    sim.run(until=2)
    sim.close_traces()
    return nic


def test_the_interface_queue_series_fills_to_its_limit_and_drains_one_per_ack(tmp_path):
    nic = burst(tmp_path)
    series = nic.queue_series()
    # The first packet goes to the idle MAC at once; the next five queue,
    # the last four are refused; each after the link layer's 25 us.
    assert series["packets"] == [0, 1, 2, 3, 4, 5, 4, 3, 2, 1, 0]
    assert series["bytes"] == [500 * n for n in series["packets"]]
    assert series["time_s"][:6] == pytest.approx(
        [0.0, *(1.0 + 25 * US + k * 10 * US for k in range(1, 6))], abs=1e-12
    )
    assert nic.stats()["queue_drops"] == 4
    # The MAC takes the next packet as the previous exchange's ACK ends at a.
    _, frames = read_pcap(tmp_path / "a.pcap")
    acks = [t + 304 * US for t, f in frames if KINDS[f[0]] == "ack"]
    assert series["time_s"][6:] == pytest.approx(acks[:5], abs=2e-9)


def test_an_unrecorded_queue_has_an_empty_series():
    _, _, (nic, _) = chain("ab")
    assert nic.queue_series() == {"time_s": [], "packets": [], "bytes": []}


def test_a_radio_nic_capture_holds_one_rts_cts_data_ack_exchange_at_its_timing(tmp_path):
    distance = 200.0
    sim, (a, b), (nic, _) = chain("ab", spacing=distance, arp=False)
    sim.pcap(tmp_path / "a.pcap", interface=nic)
    sim.cbr(a, b, rate="100kb", packet_size=500, max_packets=1)
    sim.run(until=1)
    sim.close_traces()
    link_type, frames = read_pcap(tmp_path / "a.pcap")
    assert link_type == 105  # LINKTYPE_IEEE802_11
    assert [KINDS[f[0]] for _, f in frames] == ["rts", "cts", "data", "ack"]
    (rts, _), (cts, _), (data, frame), (ack, _) = frames
    hop = distance / C
    assert cts - rts == pytest.approx((352 + 10) * US + 2 * hop, abs=2e-9)
    assert data - cts == pytest.approx((304 + 10) * US, abs=2e-9)
    assert ack - data == pytest.approx((4464 + 10) * US + 2 * hop, abs=2e-9)
    assert frame[4:10] == bytes([2, 0, 0, 0, 0, 1]) and frame[10:16] == bytes([2, 0, 0, 0, 0, 0])
    assert frame[24:32] == bytes([0xAA, 0xAA, 3, 0, 0, 0, 8, 0]), "LLC/SNAP, IPv4"
    assert len(frame) == 24 + 8 + 500 and frame[32] == 0x45


def test_tshark_decodes_the_802_11_frames_and_the_packets_in_them(tmp_path):
    burst(tmp_path)
    out = subprocess.run(
        [
            tshark(),
            "-r",
            str(tmp_path / "a.pcap"),
            "-T",
            "fields",
            "-e",
            "wlan.fc.type_subtype",
            "-e",
            "udp.length",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    rows = [line.split("\t") for line in out if line]
    kinds = [int(kind, 16) for kind, _ in rows]
    # 6 exchanges: RTS (0x1b), CTS (0x1c), data (0x20) with its 480-byte
    # datagram (500 bytes of IP), ACK (0x1d).
    assert kinds == [0x1B, 0x1C, 0x20, 0x1D] * 6
    assert {length for _, length in rows if length} == {"480"}


def test_captures_and_series_are_the_same_for_the_same_seed(tmp_path):
    runs = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        sim, (a, b, c), nics = chain()
        sim.routing(ac.AODV())
        sim.record_routes()
        for nic in nics:
            nic.record_queue()
        sim.pcap(tmp_path / name / "b.pcap", interface=nics[1])
        sim.move(c, 0.5, (300, 100), 20.0)
        sim.cbr(a, c, rate="200kb", packet_size=500, start=1.0, stop=3.0)
        sim.run(until=4)
        sim.close_traces()
        queues = [nic.queue_series() for nic in nics]
        runs.append(
            (
                sim.route_changes(),
                queues,
                sim.position_series(c),
                (tmp_path / name / "b.pcap").read_bytes(),
            )
        )
    assert runs[0] == runs[1]


def test_a_radio_nic_is_captured_by_pcap_only_and_alone():
    sim, (a, _), (nic, _) = chain("ab")
    with pytest.raises(ac.ConfigError, match="interface: tcpdump text is of links"):
        sim.tcpdump("x.txt", interface=nic)
    with pytest.raises(ac.ConfigError, match="give one of node, link and interface"):
        sim.pcap("x.pcap", node=a, interface=nic)
    other, _, (foreign, _) = chain("ab")
    with pytest.raises(ac.ConfigError, match="is not a radio NIC of this simulation"):
        sim.pcap("x.pcap", interface=foreign)
    with pytest.raises(ac.ConfigError, match="node: 'x' has no radio NIC"):
        other.radio_nic(other.node("x"))


SCENARIO = """\
[simulation]
until = "4s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[nodes]]
name = "c"
[[radios]]
record = true
nodes = [
  { node = "a", position = [0, 0, 0] },
  { node = "b", position = [200, 0, 0] },
  { node = "c", position = [400, 0, 0] },
]
[[moves]]
node = "c"
at = 0.5
to = [300, 100]
speed = 20
[routing]
protocol = "aodv"
record = true
[[apps]]
type = "cbr"
from = "a"
to = "c"
rate = "200kb"
packet_size = 500
start = 1.0
stop = 3.0
[[traces]]
type = "pcap"
file = "b.pcap"
radio = "b"
"""


def test_a_scenario_writes_routes_queues_positions_and_the_radio_capture(tmp_path):
    (tmp_path / "s.toml").write_text(SCENARIO)
    out = tmp_path / "out"
    result = run_cli("run", str(tmp_path / "s.toml"), "--out", str(out))
    assert result.returncode == 0, result.stderr
    for name in ("routes.csv", "radio-queues.csv", "positions.csv"):
        assert f"time series written to {out / name}" in result.stdout
    scenario = ac.load_scenario(tmp_path / "s.toml")
    sim = scenario.build(None, tmp_path / "api", False)
    scenario.run_built(sim, None)
    sim.close_traces()
    routes = (out / "routes.csv").read_text().splitlines()
    assert routes[0] == "time_s,node,dst,next_hop"
    assert [line.split(",") for line in routes[1:]] == [
        [repr(r["time_s"]), r["node"], r["dst"], r["next_hop"] or ""] for r in sim.route_changes()
    ]
    positions = [line.split(",") for line in (out / "positions.csv").read_text().splitlines()]
    assert positions[0] == ["time_s", "node", "x", "y", "z"]
    c = [row for row in positions[1:] if row[1] == "c"]
    assert c[:2] == [["0", "c", "400", "0", "0"], ["0.5", "c", "400", "0", "0"]]
    assert c[2][1:] == ["c", "300", "100", "0"], "the arrival, after the run's end"
    assert float(c[2][0]) == pytest.approx(0.5 + math.hypot(100, 100) / 20, abs=1e-12)
    queues = [line.split(",") for line in (out / "radio-queues.csv").read_text().splitlines()]
    assert queues[0] == ["time_s", "node", "packets", "bytes"]
    expected = sorted(
        (t, i, nic.node.name, n)
        for i, nic in enumerate(sim.radios[0].nics)
        for t, n in zip(nic.queue_series()["time_s"], nic.queue_series()["packets"])
    )
    assert [(float(row[0]), row[1], int(row[2])) for row in queues[1:]] == [
        (t, name, n) for t, _, name, n in expected
    ]
    assert (out / "b.pcap").read_bytes() == (tmp_path / "api" / "b.pcap").read_bytes()


def test_a_radio_capture_in_a_file_must_be_a_pcap_of_a_radio_node(tmp_path):
    for change, message in [
        (
            ('type = "pcap"', 'type = "tcpdump"'),
            "traces[0].radio: only a pcap trace captures a radio NIC",
        ),
        (('radio = "b"', 'radio = "d"'), "traces[0].radio: unknown node 'd'"),
    ]:
        (tmp_path / "s.toml").write_text(SCENARIO.replace(*change))
        result = run_cli("run", str(tmp_path / "s.toml"))
        assert result.returncode == 2, result.stderr
        assert message in result.stderr and result.stderr.count("\n") == 1


def test_a_wired_dv_scenario_writes_when_routes_move_around_the_failed_link(tmp_path):
    # examples/dv_ring.toml: n1-n2 is down from 1 s to 2 s. n1 withdraws its
    # route to n3 at once; n0 hears n1's triggered update (7 bytes: 56 us at
    # 1 Mb/s) 10 ms later and turns to n6; when the link returns, n2's update
    # reaches n1 after the same 10.056 ms and n1's reaches n0 after as much.
    scenario = (EXAMPLES / "dv_ring.toml").read_text()
    (tmp_path / "dv.toml").write_text(
        scenario.replace('sizes = "ns2"', 'sizes = "ns2"\nrecord = true')
    )
    result = run_cli("run", str(tmp_path / "dv.toml"), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    rows = [line.split(",") for line in (tmp_path / "out" / "routes.csv").read_text().splitlines()]
    after_start = [
        (row[0], row[1], row[3]) for row in rows[1:] if row[2] == "n3" and float(row[0]) >= 0.5
    ]
    assert [row for row in after_start if row[1] == "n0"] == [
        ("1.010056", "n0", "n6"),
        ("2.020112", "n0", "n1"),
    ]
    n1 = [row for row in after_start if row[1] == "n1"]
    assert n1[0] == ("1", "n1", "") and n1[-1] == ("2.010056", "n1", "n2")
