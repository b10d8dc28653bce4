"""DelayBuffer, seed 004's router buffer that holds each packet for a random
time, so that packets overtake one another: with no delay it is a FIFO of
the same size; with delays of about a round trip Tahoe's throughput falls
as the study describes."""

from __future__ import annotations

import ackclock as ac
from ackclock.specs import Queue


def tahoe_through(queue: Queue) -> dict:
    """One Tahoe transfer over 1 Mbit/s and a 42 ms round trip, 60 s."""
    sim = ac.Simulator(seed=1)
    a, r, b = sim.node("A"), sim.node("R"), sim.node("B")
    sim.duplex_link(a, r, "100Mb", "1ms")
    sim.duplex_link(r, b, "1Mb", "20ms", queue=queue)
    flow = sim.tcp(a, b, app=ac.Bulk(), tcp=ac.TcpParams(cc="tahoe"))
    sim.run(until=60)
    return flow.stats()


def test_without_delay_the_buffer_is_a_fifo_of_its_size() -> None:
    assert tahoe_through(ac.DelayBuffer(mean=0, limit=5)) == tahoe_through(ac.DropTail(limit=5))


def test_delays_of_a_round_trip_reorder_packets_and_cut_tahoes_throughput() -> None:
    # Seed 004: utilization falls from 25% to 4.9% with a mean delay of one
    # RTT, through duplicate ACKs and timeouts (a toy model; the direction
    # and the mechanism are what carry over).
    fifo = tahoe_through(ac.DelayBuffer(mean=0, limit=5))
    delayed = tahoe_through(ac.DelayBuffer(mean="45ms", limit=5))
    assert delayed["goodput_bps"] < 0.5 * fifo["goodput_bps"]
    assert delayed["timeouts"] > fifo["timeouts"]


def test_the_scenario_file_names_it_delay_buffer(tmp_path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(
        """
[simulation]
until = "10s"
[[nodes]]
name = "A"
[[nodes]]
name = "B"
[[links]]
from = "A"
to = "B"
bandwidth = "1Mb"
delay = "20ms"
queue = { type = "delay_buffer", mean = "40ms", cap = "120ms", limit = 10 }
[[apps]]
type = "tcp"
from = "A"
to = "B"
"""
    )
    sim = ac.load_scenario(path).run()
    assert sim.results()["flows"][0]["bytes_delivered"] > 0
