"""AODV and DSDV (docs/aodv.md, docs/dsdv.md) through the Python API, over
the contention-free LAN, where everyone hears everyone: their messages go
through the engine and the routes they find carry the packets."""

import ackclock as ac
import pytest


def lan_of_three(routing):
    sim = ac.Simulator(seed=1)
    sim.routing(routing)
    a, b, c = sim.node("A"), sim.node("B"), sim.node("C")
    sim.lan([a, b, c], "10Mb", "1ms")
    return sim, a, b, c


def test_aodv_discovers_a_route_while_the_first_packet_waits():
    sim, a, b, c = lan_of_three(ac.AODV())
    flow = sim.cbr(a, c, rate="100kb", start="1s", stop="2s")
    sim.run(until="3s")
    stats = flow.stats()
    assert stats["rx_packets"] == stats["tx_packets"] > 0
    assert a.routes()["C"] == "C" and c.routes()["A"] == "A"
    assert a.routes()["B"] is None, "nobody asked for B"
    # The first packet waits for A's request and C's reply, neither
    # jittered. A LAN has no broadcast adjacency: the request goes as one
    # 48-byte copy per neighbour, B's first, at 10 Mb/s, then 1 ms; the reply
    # is 44 bytes.
    discovery = 2 * 48 * 8 / 10e6 + 0.001 + 44 * 8 / 10e6 + 0.001
    # AODV adds ns-2's 20-byte IP header to the packets its node sends.
    size = stats["tx_bytes"] / stats["tx_packets"] + 20
    crossing = size * 8 / 10e6 + 0.001
    # (the median comes from the delay histogram, to a fraction of a microsecond)
    assert stats["delay_p50_s"] == pytest.approx(crossing, abs=1e-6)
    assert stats["max_delay_s"] == pytest.approx(discovery + crossing, abs=1e-9)
    assert {n["name"]: n["routing"] for n in sim.results()["nodes"]} == dict.fromkeys("ABC", "aodv")


def test_dsdv_routes_after_the_first_updates():
    sim, a, b, c = lan_of_three(ac.DSDV())
    flow = sim.cbr(a, c, rate="100kb", start="3s", stop="4s")
    sim.run(until="5s")
    assert flow.stats()["rx_packets"] == flow.stats()["tx_packets"] > 0
    assert a.routes() == {"B": "B", "C": "C"}, "neighbours heard in their first dumps (within 2 s)"


def test_bad_parameters_name_the_field():
    with pytest.raises(ac.ConfigError, match="alpha: 2 is not a probability"):
        ac.DSDV(alpha=2)
    with pytest.raises(ac.ConfigError, match="ttl_start: 0 is not a hop count"):
        ac.AODV(ttl_start=0)
    with pytest.raises(ac.ConfigError, match="active_route_timeout"):
        ac.AODV(active_route_timeout=0)
    with pytest.raises(ac.ConfigError, match="use_mac: 1 is not a flag"):
        ac.DSDV(use_mac=1)
