"""Input that used to hang, lie or end in a traceback (issue 12): each case now
gets one clear line naming the field and the value, or a warning."""

from __future__ import annotations

import math
from pathlib import Path

import ackclock as ac
import pytest
from conftest import run_cli, two_node_scenario

TWO_NODES = two_node_scenario("10s")


def scenario_error(tmp_path: Path, text: str) -> str:
    """Runs the scenario `text` through `ackclock run`: one error line, status 2."""
    path = tmp_path / "scenario.toml"
    path.write_text(text)
    result = run_cli("run", str(path))
    assert result.returncode == 2, result.stdout
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    prefix = f"ackclock: error: {path}: "
    assert result.stderr.startswith(prefix), result.stderr
    return result.stderr[len(prefix) :].rstrip("\n")


def line(text: str, fragment: str) -> int:
    """The line of `text` where `fragment` first appears."""
    return text[: text.index(fragment)].count("\n") + 1


def app(**keys: object) -> str:
    lines = "".join(f"{key} = {value}\n" for key, value in keys.items())
    return f'\n[[apps]]\nfrom = "a"\nto = "b"\n{lines}'


def test_a_cbr_source_faster_than_the_clock_is_refused_not_looped_on(tmp_path):
    text = TWO_NODES + app(type='"cbr"', rate="1e18")
    assert scenario_error(tmp_path, text) == (
        "apps[0].rate: 1e+18 bit/s is too fast: its packets would leave 0.008 ps apart, "
        f"and the clock counts whole picoseconds (line {line(text, 'rate')})"
    )


@pytest.mark.parametrize(
    ("keys", "estimate"),
    [
        (
            {"type": '"cbr"', "rate": '"1000Tb"'},
            "about 2.5e+12 events, most for flow 'cbr0': 1.25e+11 packets/s",
        ),
        (
            {
                "type": '"tcp"',
                "app": '{ type = "telnet", mean_interval = "1ps", packet_size = 100 }',
            },
            "about 1e+13 events, most for flow 'tcp0': 1e+12 packets/s for 10 s over 1 link",
        ),
    ],
)
def test_a_run_of_a_trillion_events_is_refused_with_the_estimate(tmp_path, keys, estimate):
    error = scenario_error(tmp_path, TWO_NODES + app(**keys))
    assert error.startswith(f"this run would take {estimate}")
    assert "more than max_events (1e+10); raise max_events if that is intended" in error


def test_max_events_is_configurable_in_the_file_and_on_the_command_line(tmp_path):
    path = tmp_path / "scenario.toml"
    path.write_text(TWO_NODES + app(type='"cbr"', rate='"1Mb"'))
    result = run_cli("run", str(path), "--max-events", "100")
    assert result.returncode == 2 and "about 2.5e+03 events" in result.stderr
    assert "more than max_events (100)" in result.stderr
    path.write_text(TWO_NODES.replace('until = "10s"', 'until = "10s"\nmax_events = 100'))
    path.write_text(path.read_text() + app(type='"cbr"', rate='"1Mb"'))
    assert "more than max_events (100)" in run_cli("run", str(path)).stderr
    assert run_cli("run", str(path), "--max-events", "3000").returncode == 0


def test_the_estimate_is_of_the_right_order_for_a_tcp_dumbbell():
    sim = ac.load_scenario(Path(__file__).parent.parent / "examples" / "dumbbell.toml").build()
    estimate = sim.estimate("1000s")
    sim.run("1000s")
    assert sim.events <= estimate.events <= 10 * sim.events


def test_a_run_that_would_never_end_is_refused(tmp_path, sim):
    error = scenario_error(tmp_path, TWO_NODES.replace('until = "10s"', "") + app(type='"tcp"'))
    assert error == (
        "this run would never end: flow 'tcp0' sends forever; give until (or the flow a stop time)"
    )
    a, b = sim.node(), sim.node()
    sim.duplex_link(a, b, "1Mb", "1ms")
    sim.cbr(a, b, rate="100kb")
    with pytest.raises(ac.ConfigError, match="would never end"):
        sim.run()
    sim.at(2, sim.stop)  # a callback may end it
    assert sim.run() == "stopped" and sim.now == 2


def test_a_delay_that_would_saturate_the_clock_is_refused(tmp_path):
    text = TWO_NODES.replace('"10ms"', '"18446744s"') + app(type='"tcp"')
    assert scenario_error(tmp_path, text) == (
        "links[0].delay: '18446744s' is not a duration: it must be at most 4611686s (about "
        f"53 days, so that no time on the picosecond clock overflows) (line {line(text, 'delay')})"
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            '"1.5B"',
            "'1.5B' is not a size: it is not a whole number of bytes (the nearest are 1B and 2B)",
        ),
        ('"1.0001KB"', "(the nearest are 1000B and 1001B)"),
    ],
)
def test_unit_strings_are_exact_or_refused(tmp_path, value, message):
    error = scenario_error(tmp_path, TWO_NODES + app(type='"cbr"', rate='"1Mb"', packet_size=value))
    assert error.startswith("apps[0].packet_size: ") and message in error


def test_one_thousand_nested_arrays_are_one_line(tmp_path):
    error = scenario_error(tmp_path, "x = " + "[" * 1000 + "]" * 1000)
    assert error == "tables or arrays are nested too deeply"


def test_red_min_th_zero_names_the_field_and_its_line(tmp_path):
    text = TWO_NODES.replace(
        'delay = "10ms"', 'delay = "10ms"\nqueue = { type = "red", min_th = 0 }'
    )
    error = scenario_error(tmp_path, text + app(type='"tcp"'))
    assert error == (
        "links[0].queue.min_th: 0.0 is not a threshold: it must be in (0, inf) "
        f"(line {line(text, 'queue')})"
    )


def test_on_off_on_mean_zero_names_the_parameter_not_the_core_field(tmp_path):
    keys = {"type": '"on_off"', "rate": '"1Mb"', "on_mean": 0, "off_mean": 1}
    text = TWO_NODES + app(**keys)
    assert scenario_error(tmp_path, text) == (
        f"apps[0].on_mean: 0 is not a duration: it must be greater than zero "
        f"(line {line(text, 'on_mean')})"
    )


def test_a_seed_beyond_64_bits_is_blamed_on_the_option():
    result = run_cli("run", "any.toml", "--seed", "18446744073709551616")
    assert result.returncode == 2
    assert result.stderr == (
        "ackclock: error: Invalid value for '--seed': 18446744073709551616 is not in the "
        "range 0<=x<=18446744073709551615.\n"
    )


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: ac.TcpParams(bogus=1), "TcpParams(): got an unexpected keyword argument 'bogus'"),
        (lambda: ac.Telnet(), "Telnet(): missing a required argument: 'mean_interval'"),
        (lambda: ac.LinkParams(1, 2, 3, 4), "LinkParams(): too many positional arguments"),
        (lambda: ac.Simulator(seed=1.0), "seed: 1.0 is not a seed: it must be an integer"),
        (lambda: ac.Simulator(replication=2.0), "replication: 2.0 is not a replication index"),
        (lambda: ac.Simulator().node("a\0b"), "name: 'a\\x00b' is not a name: it must not"),
        (lambda: ac.Simulator().node("a\nb"), "name: 'a\\nb' is not a name: it must not"),
        (
            lambda: ac.mean_confidence_interval([math.nan, 1]),
            "samples: nan is not a sample: it must be a finite number",
        ),
        (lambda: ac.mean_confidence_interval([1, 2], level=1), "level: 1.0 is not a"),
    ],
)
def test_api_mistakes_raise_the_packages_error(make, message):
    with pytest.raises(ac.ConfigError) as caught:
        make()
    assert str(caught.value).startswith(message)


def test_a_nul_in_a_node_name_of_a_file_is_refused(tmp_path):
    text = TWO_NODES.replace('name = "b"', 'name = "b\\u0000"') + app(type='"tcp"')
    error = scenario_error(tmp_path, text)
    assert error.startswith("nodes[1].name: 'b\\x00' is not a name")


def test_an_empty_scenario_is_refused_rather_than_run_for_zero_seconds(tmp_path):
    assert scenario_error(tmp_path, "") == "there are no [[apps]]: nothing would happen"
    assert scenario_error(tmp_path, TWO_NODES) == "there are no [[apps]]: nothing would happen"


def test_an_app_starting_after_the_run_is_warned_about(tmp_path):
    path = tmp_path / "scenario.toml"
    path.write_text(TWO_NODES + app(type='"cbr"', rate='"1Mb"', start='"20s"'))
    result = run_cli("run", str(path))
    assert result.returncode == 0
    assert result.stderr == (
        f"ackclock: warning: {path}: apps[0].start: '20s' is after the end of the run "
        f"('10s'): the app never sends (line {line(path.read_text(), 'start')})\n"
    )
    with pytest.warns(ac.ScenarioWarning, match="apps.0..start: '20s' is after the end"):
        ac.load_scenario(path).run()
