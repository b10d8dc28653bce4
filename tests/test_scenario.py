"""Scenario files: validation messages (field path, value, line) and building
through the Python API."""

import textwrap

import ackclock as ac
import pytest
from ackclock.scenario.lines import line_of
from conftest import check_scenario_variant

VALID = """\
[simulation]
seed = 4
until = "2s"

[[nodes]]
name = "A"
[[nodes]]
name = "R"
[[nodes]]
name = "B"

[[links]]
from = "A"
to = "R"
bandwidth = "10Mb"
delay = "10ms"
queue = { type = "droptail", limit = 50, unit = "packets", ns2_limit = false }

[[links]]
from = "R"
to = "B"
bandwidth = "800Kb"
delay = "50ms"
queue = { type = "red", limit = 30, ecn = true }
loss = { type = "uniform", p = 0.01 }
jitter = { type = "exponential", mean = "2ms", reorder = true }
[links.reverse]
bandwidth = "28.8kb"
queue = { type = "droptail", limit = 5 }

[[apps]]
name = "cbr1"
type = "cbr"
from = "A"
to = "B"
rate = "1Mb"
packet_size = 1000
start = "0s"
stop = "1.5s"
ecn = true

[[apps]]
type = "poisson"
from = "A"
to = "B"
mean_interval = "30ms"
packet_size = { type = "exponential", mean = 500 }
"""


def write(tmp_path, text, name="scenario.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def same_network_through_the_api():
    sim = ac.Simulator(seed=4)
    a, r, b = sim.node("A"), sim.node("R"), sim.node("B")
    sim.duplex_link(a, r, "10Mb", "10ms", queue=ac.DropTail(limit=50))
    sim.duplex_link(
        r,
        b,
        "800Kb",
        "50ms",
        queue=ac.RED(limit=30, ecn=True),
        reverse=ac.LinkParams(bandwidth="28.8kb", queue=ac.DropTail(limit=5)),
    )
    sim.link(r, b).set_loss(ac.UniformLoss(0.01))
    sim.link(r, b).set_jitter(ac.ExponentialDelay("2ms", reorder=True))
    sim.cbr(a, b, "1Mb", packet_size=1000, start=0, stop=1.5, name="cbr1", ecn=True)
    sim.poisson(a, b, mean_interval=0.03, packet_size=ac.ExponentialSize(500))
    sim.run(until=2)
    return sim.results()


def test_scenario_builds_the_same_simulation_as_the_api(tmp_path):
    sim = ac.load_scenario(write(tmp_path, VALID)).run()
    assert sim.results() == same_network_through_the_api()
    assert [f.name for f in sim.flows] == ["cbr1", "poisson1"]
    assert sim.now == 2.0


def test_seed_and_until_can_be_overridden(tmp_path):
    scenario = ac.load_scenario(write(tmp_path, VALID))
    sim = scenario.run(seed=11, until="1s")
    assert (sim.seed, sim.now) == (11, 1.0)


def test_minimal_file_runs_until_idle(tmp_path):
    text = """\
        [[nodes]]
        name = "A"
        [[nodes]]
        name = "B"
        [[links]]
        from = "A"
        to = "B"
        duplex = false
        bandwidth = 8000
        delay = 0
        queue = { type = "droptail", limit = "unlimited" }
        [[apps]]
        type = "cbr"
        from = "A"
        to = "B"
        rate = 8000
        max_packets = 3
        """
    sim = ac.load_scenario(write(tmp_path, textwrap.dedent(text))).run()
    assert sim.seed == 1  # the API's default
    assert len(sim.links) == 1
    assert sim.flows[0].stats()["rx_packets"] == 3
    assert sim.now == 3.0  # 1000-byte packets, one per second, 1 s each


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'bandwidth = "800Kb"',
            'bandwidth = "0Mb"',
            "links[1].bandwidth: '0Mb' is not a bandwidth: it must be greater than zero (line 22)",
        ),
        (
            'bandwidth = "800Kb"',
            "bandwidth = -5",
            "links[1].bandwidth: -5 is not a bandwidth: it must not be negative (line 22)",
        ),
        ('bandwidth = "800Kb"', "bandwidth = true", "links[1].bandwidth: True is not a bandwidth"),
        ('to = "R"\n', 'to = "Z"\n', "links[0].to: unknown node 'Z' (nodes are A, R, B) (line 14)"),
        (
            'type = "droptail", limit = 50',
            'type = "fifo", limit = 50',
            "links[0].queue.type: unknown queue type 'fifo' (use droptail, red, "
            "step_mark, codel, fq_codel, pie, drr, sfq, fq or delay_buffer) (line 17)",
        ),
        (
            'type = "droptail", limit = 50',
            "limit = 50",
            "links[0].queue.type: missing (the queue type: droptail, red, "
            "step_mark, codel, fq_codel, pie, drr, sfq, fq or delay_buffer) (line 17)",
        ),
        (
            "limit = 50,",
            "limit = -3,",
            "links[0].queue.limit: -3 is not a queue limit: it must be at least 0 (line 17)",
        ),
        ("limit = 50,", 'limit = "lots",', "links[0].queue.limit: 'lots' is not a queue limit"),
        (
            "p = 0.01",
            "p = 1.5",
            "links[1].loss.p: 1.5 is not a probability: it must be in [0, 1] (line 25)",
        ),
        (
            "p = 0.01",
            'p = "0.01"',
            "links[1].loss.p: '0.01' is not valid: input should be a valid number (line 25)",
        ),
        (
            'type = "uniform"',
            'type = "random"',
            "links[1].loss.type: unknown loss model type 'random' "
            "(use uniform, ber, gilbert_elliott, list or segments)",
        ),
        (
            'delay = "50ms"',
            'delay = "50 parsecs"',
            "links[1].delay: '50 parsecs' is not a duration: unknown unit 'parsecs'",
        ),
        ('to = "R"\n', "", "links[0].to: required key is missing (line 12)"),
        (
            'bandwidth = "28.8kb"',
            'bandwidth = "28.8kb"\nspeed = 3',
            "links[1].reverse.speed: unknown key "
            "(allowed: bandwidth, delay, queue, loss, jitter, cost) (line 29)",
        ),
        (
            "seed = 4",
            'seed = 4\ncolour = "red"',
            "simulation.colour: unknown key (allowed: seed, replication, until, max_events) "
            "(line 3)",
        ),
        (
            "seed = 4",
            "seed = -1",
            "simulation.seed: -1 is not a seed: it must be at least 0 (line 2)",
        ),
        (
            'type = "cbr"',
            'type = "ftp"',
            "apps[0].type: unknown app type 'ftp' (use cbr, poisson, on_off or tcp) (line 33)",
        ),
        ("packet_size = 1000", "packet_size = 10", "apps[0].packet_size: 10 is not a packet size"),
        (
            "mean = 500 }",
            "mean = -1 }",
            "apps[1].packet_size.mean: -1 is not a mean size: it must not be negative (line 47)",
        ),
        ('name = "B"', 'name = "A"', "nodes[2].name: 'A' is already the name of a node (line 10)"),
        (
            'stop = "1.5s"',
            'stop = "0s"',
            "apps[0].stop: '0s' is not a stop time: it must be after start ('0s') (line 39)",
        ),
        (
            "ecn = true\n",
            'ecn = "yes"\n',
            "apps[0].ecn: 'yes' is not valid: input should be a valid boolean (line 40)",
        ),
        ('[[links]]\nfrom = "A"', '[[links]]\nduplex = false\nfrom = "A"', None),
    ],
)
def test_bad_values_give_one_line_with_field_path_value_and_line(tmp_path, old, new, message):
    check_scenario_variant(tmp_path / "scenario.toml", VALID, old, new, message)


def test_reverse_on_a_simplex_link_is_refused(tmp_path):
    path = write(
        tmp_path, VALID.replace('from = "R"\nto = "B"', 'from = "R"\nto = "B"\nduplex = false')
    )
    with pytest.raises(
        ac.ScenarioError, match=r"links\[1\]\.reverse: only a duplex link has a reverse direction"
    ):
        ac.load_scenario(path).build()


def test_toml_syntax_errors_give_the_line(tmp_path):
    path = write(tmp_path, VALID.replace("seed = 4", "seed = = 4"))
    with pytest.raises(ac.ScenarioError, match=r"invalid TOML: .*line 2"):
        ac.load_scenario(path)


def test_missing_file_is_a_scenario_error(tmp_path):
    with pytest.raises(ac.ScenarioError, match="nope.toml: no such file"):
        ac.load_scenario(tmp_path / "nope.toml")


def test_unreachable_destination_names_the_app_and_nodes(tmp_path):
    text = VALID.replace('from = "A"\nto = "R"', 'from = "A"\nto = "R"\nduplex = false', 1)
    text += '\n[[apps]]\nname = "home"\ntype = "cbr"\nfrom = "R"\nto = "A"\nrate = "1Mb"\n'
    with pytest.raises(ac.ScenarioError) as caught:
        ac.load_scenario(write(tmp_path, text)).run()
    assert all(name in str(caught.value) for name in ("'home'", "'R'", "'A'"))


def test_line_of_finds_keys_in_tables_arrays_and_subtables():
    text = VALID
    assert line_of(text, ("simulation", "until")) == 3
    assert line_of(text, ("links", 0)) == 12
    assert line_of(text, ("links", 1, "queue", "limit")) == 24
    assert line_of(text, ("links", 1, "reverse", "queue")) == 29
    assert line_of(text, ("apps", 1, "mean_interval")) == 46
    assert line_of(text, ("nowhere",)) is None
