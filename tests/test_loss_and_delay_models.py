"""Error models and delay jitter: loss rates against probability theory,
drop lists against the exact packets that arrive."""

import math

import ackclock as ac
import pytest

PACKETS = 20_000


def lossy_link(loss, packets=PACKETS, packet_size=1000):
    """Sends `packets` CBR packets over a fast link with `loss`; returns (flow, link) stats."""
    sim = ac.Simulator(seed=5)
    a, b = sim.node("A"), sim.node("B")
    link = sim.simplex_link(a, b, "1Gb", "1ms", queue=ac.DropTail(limit=None))
    link.set_loss(loss)
    flow = sim.cbr(a, b, rate="100Mb", packet_size=packet_size, max_packets=packets)
    sim.run()
    return flow.stats(), link.stats()


def assert_binomial(count, n, p, sigmas=4.5):
    """`count` is within `sigmas` standard deviations of a Binomial(n, p) mean."""
    assert abs(count - n * p) <= sigmas * math.sqrt(n * p * (1 - p)), (count, n * p)


@pytest.mark.parametrize("p", [0.01, 0.1, 0.5])
def test_uniform_loss_rate_is_binomial_around_p(p):
    flow, link = lossy_link(ac.UniformLoss(p))
    assert_binomial(link["loss_drops"], PACKETS, p)
    assert flow["rx_packets"] == PACKETS - link["loss_drops"]
    assert link["drops"] == link["loss_drops"] and link["queue_drops"] == 0


def test_uniform_loss_extremes_lose_nothing_or_everything():
    assert lossy_link(ac.UniformLoss(0.0), packets=1000)[0]["rx_packets"] == 1000
    assert lossy_link(ac.UniformLoss(1.0), packets=1000)[0]["rx_packets"] == 0


def test_loss_on_the_wire_uses_the_link_and_before_the_queue_does_not():
    _, on_wire = lossy_link(ac.UniformLoss(0.2, position="wire"), packets=5000)
    _, at_queue = lossy_link(ac.UniformLoss(0.2, position="queue"), packets=5000)
    assert on_wire["tx_packets"] == 5000
    assert at_queue["tx_packets"] == 5000 - at_queue["loss_drops"]


@pytest.mark.parametrize(("ber", "size"), [(1e-5, 1000), (1e-6, 1500), (1e-4, 40)])
def test_bit_error_loss_rate_is_one_minus_survival_of_every_bit(ber, size):
    flow, link = lossy_link(ac.BitErrors(ber), packet_size=size)
    assert_binomial(link["loss_drops"], PACKETS, 1 - (1 - ber) ** (8 * size))


def test_gilbert_elliott_loss_rate_is_the_stationary_mix_of_both_states():
    # P(bad) = 0.05 / (0.05 + 0.25) = 1/6; loss = 5/6 * 0.01 + 1/6 * 0.6 = 0.10833.
    model = ac.GilbertElliott(p_good_to_bad=0.05, p_bad_to_good=0.25, loss_good=0.01, loss_bad=0.6)
    flow, link = lossy_link(model, packets=50_000)
    assert link["loss_drops"] / 50_000 == pytest.approx(5 / 6 * 0.01 + 1 / 6 * 0.6, rel=0.08)


def arrivals_with_drop_list(drops, position):
    """Sequence numbers (1-based) of ten 10 ms-spaced packets that arrive."""
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    sim.simplex_link(a, b, "1Mb", "10ms").set_loss(ac.DropList(drops, position=position))
    flow = sim.cbr(a, b, rate="800kb", packet_size=1000, max_packets=10)
    arrived = []

    def check(number):
        # Packet `number` is sent at (number-1) * 10 ms and would arrive 18 ms later.
        if flow.stats()["rx_packets"] > len(arrived):
            arrived.append(number)

    for number in range(1, 11):
        sim.at((number - 1) * 0.010 + 0.019, lambda number=number: check(number))
    sim.run()
    assert flow.stats()["rx_packets"] == len(arrived)
    return arrived


@pytest.mark.parametrize("position", ["wire", "queue"])
def test_drop_list_drops_exactly_the_listed_packets(position):
    assert arrivals_with_drop_list([2, 5, 6], position) == [1, 3, 4, 7, 8, 9, 10]
    assert arrivals_with_drop_list([1, 10], position) == list(range(2, 10))


def test_loss_applies_to_one_direction_only():
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    sim.duplex_link(a, b, "10Mb", "1ms")
    sim.link(a, b).set_loss(ac.UniformLoss(1.0))
    forward = sim.cbr(a, b, "1Mb", max_packets=100)
    backward = sim.cbr(b, a, "1Mb", max_packets=100)
    sim.run()
    assert forward.stats()["rx_packets"] == 0
    assert backward.stats()["rx_packets"] == 100


def delays_with_jitter(jitter, packets=10_000):
    sim = ac.Simulator(seed=2)
    a, b = sim.node("A"), sim.node("B")
    sim.simplex_link(a, b, "1Gb", "10ms").set_jitter(jitter)
    # 1000 B take 8 us at 1 Gb/s; one packet every 10 ms never queues.
    flow = sim.cbr(a, b, rate="800kb", packet_size=1000, max_packets=packets)
    sim.run()
    return flow.stats()


def test_exponential_jitter_adds_its_mean_to_the_delay():
    stats = delays_with_jitter(ac.ExponentialDelay("2ms", reorder=True))
    # Mean of 10,000 exponential draws of mean 2 ms: standard error 0.02 ms.
    assert stats["mean_delay_s"] == pytest.approx(0.010008 + 0.002, abs=1e-4)
    assert stats["rx_packets"] == 10_000


def test_uniform_jitter_stays_within_its_bounds():
    stats = delays_with_jitter(ac.UniformDelay("1ms", "3ms", reorder=True))
    assert stats["mean_delay_s"] == pytest.approx(0.010008 + 0.002, abs=1e-4)
    assert 0.010008 + 0.001 <= stats["delay_p50_s"] * 1.01
    assert stats["max_delay_s"] <= 0.010008 + 0.003 + 1e-12


def test_removing_loss_and_jitter_restores_the_plain_link():
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    link = sim.simplex_link(a, b, "1Mb", "10ms")
    link.set_loss(ac.UniformLoss(1.0))
    link.set_jitter(ac.ExponentialDelay("5ms"))
    link.set_loss(None)
    link.set_jitter(None)
    flow = sim.cbr(a, b, rate="800kb", packet_size=1000, max_packets=10)
    sim.run()
    assert flow.stats()["rx_packets"] == 10
    assert flow.stats()["max_delay_s"] == pytest.approx(0.018, rel=1e-12)


def test_wrong_loss_and_jitter_types_are_refused():
    sim = ac.Simulator()
    link = sim.simplex_link(sim.node(), sim.node(), "1Mb", 0)
    with pytest.raises(ac.ConfigError, match="loss: 0.1 is not a loss model"):
        link.set_loss(0.1)
    with pytest.raises(ac.ConfigError, match="jitter: ac.UniformLoss|jitter: UniformLoss"):
        link.set_jitter(ac.UniformLoss(0.1))
