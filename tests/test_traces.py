"""Trace output from the Python API and scenario files: ns-2 text read back by
an independent parser, tcpdump text, pcap files checked by tshark, queue series."""

from __future__ import annotations

from pathlib import Path

import ackclock as ac
import pytest
from ackclock import analysis
from conftest import run_cli, tshark_count, two_node_scenario


def lossy_transfer(tmp_path: Path, **trace: object) -> tuple[ac.Simulator, ac.Flow]:
    """A 300 kB Reno transfer over a link losing 5% of data packets."""
    sim = ac.Simulator(seed=3)
    a, b = sim.node("a"), sim.node("b")
    sim.duplex_link(a, b, "10Mb", "20ms")
    sim.link(a, b).set_loss(ac.UniformLoss(0.05))
    flow = sim.tcp(a, b, app=ac.Bulk(bytes=300_000), tcp=ac.TcpParams(cc="reno"))
    return sim, flow


def test_trace_all_writes_ns2_records_that_an_independent_parser_reads(tmp_path: Path) -> None:
    sim, flow = lossy_transfer(tmp_path)
    sim.trace_all(tmp_path / "out.tr")
    sim.run()
    sim.close_traces()
    packets, variables = analysis.read_ns2_trace(tmp_path / "out.tr")
    assert set(packets["event"]) == {"+", "-", "r", "d"}
    assert packets["time"].is_monotonic_increasing
    drops = packets[packets["event"] == "d"]
    stats = flow.stats()
    # Every wire loss of a data packet shows as a 'd' record.
    assert len(drops) == sim.link(*sim.nodes).stats()["loss_drops"]
    assert {"cwnd_", "ssthresh_", "ack_", "maxseq_"} <= set(variables["name"])
    # The last ack_ value counts the segments acknowledged (the last one short).
    last_ack = variables[variables["name"] == "ack_"]["value"].iloc[-1]
    assert last_ack == -(-stats["bytes_delivered"] // stats["mss"])


def test_trace_queue_covers_one_direction_only(tmp_path: Path) -> None:
    sim, _ = lossy_transfer(tmp_path)
    a, b = sim.nodes
    sim.trace_queue(b, a, tmp_path / "acks.tr")
    sim.run()
    sim.close_traces()
    packets, variables = analysis.read_ns2_trace(tmp_path / "acks.tr")
    assert set(zip(packets["from_node"], packets["to_node"])) == {(b.id, a.id)}
    assert variables.empty


def test_tcpdump_text_shows_the_handshake_and_options(tmp_path: Path) -> None:
    sim, _ = lossy_transfer(tmp_path)
    sim.tcpdump(tmp_path / "a.txt", node=sim.nodes[0])
    sim.run()
    sim.close_traces()
    lines = (tmp_path / "a.txt").read_text().splitlines()
    assert " > 10.0.0.2." in lines[0] and ": S " in lines[0] and "<mss 1460,sackOK" in lines[0]
    assert ": S " in lines[1] and " ack " in lines[1]
    assert any(": F" in line for line in lines), "the connection closes with a FIN"


def test_pcap_opens_cleanly_in_tshark_with_our_retransmission_count(tmp_path: Path) -> None:
    sim, flow = lossy_transfer(tmp_path)
    pcap = tmp_path / "a.pcap"
    sim.pcap(pcap, node=sim.nodes[0])
    sim.run()
    sim.close_traces()
    assert tshark_count(pcap, "_ws.malformed") == 0
    assert tshark_count(pcap, "_ws.expert.severity == error") == 0
    assert tshark_count(pcap, "tcp.checksum.status == 0 || ip.checksum.status == 0") == 0
    retransmits = flow.stats()["retransmits"]
    assert retransmits > 0
    assert tshark_count(pcap, "tcp.analysis.retransmission") == retransmits
    assert (
        tshark_count(pcap, "tcp")
        == flow.stats()["tx_packets"] + sim.link(*reversed(sim.nodes)).stats()["tx_packets"]
    )


def test_capture_needs_exactly_one_of_node_link_and_interface(tmp_path: Path) -> None:
    sim, _ = lossy_transfer(tmp_path)
    with pytest.raises(ac.ConfigError, match="give one of node, link and interface"):
        sim.pcap(tmp_path / "x.pcap")
    a, b = sim.nodes
    with pytest.raises(ac.ConfigError, match="give one of node, link and interface"):
        sim.pcap(tmp_path / "x.pcap", node=a, interface=sim.link(a, b))


def test_interface_captures_of_a_router_show_tshark_the_flows_own_retransmissions(
    tmp_path: Path,
) -> None:
    # A -> R -> B with 3% loss on R->B: a capture of the router's node holds each
    # forwarded segment twice (received from A, sent to B), which tshark counts
    # as retransmissions; each interface alone holds what tcpdump -i would.
    sim = ac.Simulator(seed=2)
    a, r, b = sim.node("A"), sim.node("R"), sim.node("B")
    sim.duplex_link(a, r, "10Mb", "5ms")
    sim.duplex_link(r, b, "2Mb", "20ms", queue=ac.DropTail(limit=20))
    sim.link(r, b).set_loss(ac.UniformLoss(0.03))
    flow = sim.tcp(a, b, app=ac.Bulk(bytes=400_000), tcp=ac.TcpParams(cc="reno"))
    sim.pcap(tmp_path / "r.pcap", node=r)
    sim.pcap(tmp_path / "r-a.pcap", interface=sim.link(r, a))
    sim.pcap(tmp_path / "r-b.pcap", interface=sim.link(r, b))
    assert sim.run() == "idle"
    sim.close_traces()
    retransmits = flow.stats()["retransmits"]
    assert retransmits > 5
    # Wireshark calls a segment it sees again a retransmission or, when it
    # comes sooner than its RTT estimate at the capture point, out of order.
    again = "tcp.analysis.retransmission || tcp.analysis.out_of_order"
    assert tshark_count(tmp_path / "r.pcap", again) > 3 * retransmits
    for name in ("r-a.pcap", "r-b.pcap"):
        assert tshark_count(tmp_path / name, again) == retransmits, name
        assert tshark_count(tmp_path / name, "_ws.malformed || _ws.expert.severity == error") == 0
    # R's interface to B: the segments R sent to B and every ACK B sent to R
    sent, acks = sim.link(r, b).stats()["tx_packets"], sim.link(b, r).stats()["tx_packets"]
    assert tshark_count(tmp_path / "r-b.pcap", "frame") == sent + acks


def test_queue_series_is_recorded_on_change(tmp_path: Path) -> None:
    sim = ac.Simulator(seed=1)
    a, b = sim.node("a"), sim.node("b")
    sim.simplex_link(a, b, "8Mb", "0ms", queue=ac.DropTail(limit=None))
    sim.link(a, b).record_queue()
    # A burst of three 1000-byte packets (1 ms each at 8 Mbit/s) at t = 0.
    sim.cbr(a, b, rate="8Gb", packet_size=1000, max_packets=3)
    sim.run(until="5ms")
    series = sim.link(a, b).queue_series()
    assert series["packets"] == [0, 1, 2, 1, 0]
    assert series["time_s"][-2:] == [pytest.approx(0.001), pytest.approx(0.002)]


def test_scenario_traces_are_written_to_the_out_directory(tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text(
        """
[simulation]
until = "2s"
[[nodes]]
name = "A"
[[nodes]]
name = "B"
[[links]]
from = "A"
to = "B"
bandwidth = "1Mb"
delay = "10ms"
[[apps]]
type = "tcp"
from = "A"
to = "B"
app = { type = "bulk", bytes = 20000 }
[[traces]]
type = "ns2"
file = "all.tr"
[[traces]]
type = "pcap"
file = "a.pcap"
node = "A"
[[traces]]
type = "tcpdump"
file = "ab.txt"
link = ["A", "B"]
[[traces]]
type = "pcap"
file = "b-a.pcap"
interface = ["B", "A"]
[[traces]]
type = "nam"
file = "out.nam"
"""
    )
    out = tmp_path / "out"
    done = run_cli("run", str(scenario), "--out", str(out))
    assert done.returncode == 0, done.stderr
    packets, _ = analysis.read_ns2_trace(out / "all.tr")
    assert len(packets) > 50
    assert tshark_count(out / "a.pcap", "tcp") > 20
    lines = (out / "ab.txt").read_text().splitlines()
    assert len(lines) >= 16, "SYN, 14 data segments and FIN leave on A->B"
    assert all("10.0.0.1.20000 > 10.0.0.2.40000" in line for line in lines)
    assert tshark_count(out / "b-a.pcap", "tcp") == tshark_count(out / "a.pcap", "tcp")
    animation = (out / "out.nam").read_text().splitlines()
    topology = [line for line in animation if line.startswith(("n -t *", "l -t *"))]
    assert topology == [
        "n -t * -a 0 -s 0 -S UP -v circle -c black -i black",
        "n -t * -a 1 -s 1 -S UP -v circle -c black -i black",
        "l -t * -s 0 -d 1 -S UP -r 1000000 -D 0.01 -c black",
    ]
    assert sum(line.startswith("r -t ") for line in animation) == len(
        packets[packets["event"] == "r"]
    )


@pytest.mark.parametrize(
    ("trace", "message"),
    [
        ('type = "nam"\nfile = "x.nam"\nnode = "A"', "traces[0].node: an nam trace covers links"),
        ('type = "nam"\nfile = "x.nam"\nlink = ["A", "B"]', "a nam trace covers the whole network"),
        ('type = "pcap"\nfile = "x.pcap"\ninterface = ["A"]', "['A'] is not [node, peer]"),
        ('type = "pcap"\nfile = "x.pcap"\ninterface = ["A", "C"]', "unknown node 'C'"),
    ],
)
def test_a_bad_trace_table_is_one_line_naming_the_field(tmp_path, trace, message) -> None:
    scenario = tmp_path / "s.toml"
    text = two_node_scenario("1s").replace('"a"', '"A"').replace('"b"', '"B"')
    scenario.write_text(
        f'{text}\n[[apps]]\ntype = "cbr"\nfrom = "A"\nto = "B"\nrate = "1Mb"\n[[traces]]\n{trace}\n'
    )
    done = run_cli("run", str(scenario), "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert message in done.stderr and done.stderr.count("\n") == 1


def linux_sack_transfer(seed: int, out: Path) -> None:
    """A linux-profile transfer (SACK, RACK-TLP, PRR, timestamps) over a
    lossy, reordering link, traced as ns-2 text and as pcap into `out`."""
    sim = ac.Simulator(seed=seed)
    a, b = sim.node("a"), sim.node("b")
    sim.duplex_link(a, b, "10Mb", "20ms")
    sim.link(a, b).set_loss(ac.UniformLoss(0.03))
    sim.link(a, b).set_jitter(ac.ExponentialDelay("2ms", reorder=True))
    sim.tcp(a, b, app=ac.Bulk(bytes=400_000), tcp=ac.TcpParams(profile="linux"))
    out.mkdir()
    sim.trace_all(out / "all.tr")
    sim.pcap(out / "a.pcap", node=a)
    sim.run()
    sim.close_traces()


def test_same_seed_writes_the_same_trace_bytes_and_another_seed_does_not(tmp_path: Path) -> None:
    for name, seed in (("first", 11), ("again", 11), ("other", 12)):
        linux_sack_transfer(seed, tmp_path / name)
    for file in ("all.tr", "a.pcap"):
        first, again, other = (
            (tmp_path / n / file).read_bytes() for n in ("first", "again", "other")
        )
        assert first == again
        assert first != other
