"""Signals during a run: Python handlers run, Ctrl-C ends `ackclock run` with
status 130 and whole traces, and an interrupted simulation stays usable."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import ackclock as ac
import pytest
from ackclock import analysis
from conftest import tshark_count


class Alarm(Exception):
    pass


def busy_network() -> ac.Simulator:
    """A CBR flow that keeps the core busy for far longer than any test waits."""
    sim = ac.Simulator(seed=1)
    a, b = sim.node("a"), sim.node("b")
    sim.duplex_link(a, b, "10Mb", "1ms")
    sim.cbr(a, b, rate="5Mb")
    return sim


@pytest.fixture
def alarm_after():
    """Arms SIGALRM to raise `Alarm` after the given seconds; disarms it after the test."""
    previous = signal.getsignal(signal.SIGALRM)

    def raise_alarm(signum, frame):
        raise Alarm

    def arm(seconds: float) -> None:
        signal.signal(signal.SIGALRM, raise_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)

    yield arm
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def test_sigalrm_handler_runs_during_run_and_the_run_can_continue_unchanged(alarm_after):
    sim = busy_network()
    alarm_after(0.2)
    started = time.monotonic()
    with pytest.raises(Alarm):
        sim.run(until="1000000s")
    assert time.monotonic() - started < 1.0
    paused_at = sim.now
    assert 0 < paused_at < 1_000_000
    # Results so far are readable and cover exactly the events run.
    assert sim.results()["sim_time_s"] == paused_at
    # Continuing to a later time gives what one uninterrupted run gives.
    end = f"{int(paused_at) + 1}s"
    assert sim.run(until=end) == "until"
    whole = busy_network()
    whole.run(until=end)
    assert sim.results() == whole.results()
    assert sim.events == whole.events


def test_a_signal_handler_may_look_at_the_running_simulation(alarm_after):
    sim = busy_network()
    seen = []

    def look(signum, frame):
        seen.append((sim.now, sim.events))
        sim.stop()  # a handler's stop() request is not lost either
        raise Alarm

    alarm_after(0.1)
    signal.signal(signal.SIGALRM, look)
    with pytest.raises(Alarm):
        sim.run(until="1000000s")
    assert seen == [(sim.now, sim.events)] and sim.events > 0


def test_progress_is_reported_every_tenth_of_a_second_of_wall_time(alarm_after):
    sim = busy_network()
    reports: list[tuple[float, float, int]] = []
    alarm_after(0.45)
    with pytest.raises(Alarm):
        sim.run(until="1000000s", progress=lambda t, n: reports.append((time.monotonic(), t, n)))
    assert 2 <= len(reports) <= 4
    walls = [wall for wall, _, _ in reports]
    assert all(later - earlier >= 0.1 for earlier, later in zip(walls, walls[1:]))
    assert [t for _, t, _ in reports] == sorted(t for _, t, _ in reports)
    assert all(isinstance(t, float) and isinstance(n, int) and n > 0 for _, t, n in reports)


def test_an_exception_from_progress_ends_the_run_and_leaves_it_usable(tmp_path: Path):
    sim = busy_network()
    sim.trace_all(tmp_path / "out.tr")

    def give_up(t: float, events: int) -> None:
        raise RuntimeError(f"stop at {t}")

    with pytest.raises(RuntimeError, match="stop at"):
        sim.run(until="1000000s", progress=give_up)
    # The trace holds every record up to now, each line whole.
    text = (tmp_path / "out.tr").read_text()
    assert text.endswith("\n")
    packets, _ = analysis.read_ns2_trace(tmp_path / "out.tr")
    assert packets["time"].max() <= sim.now
    assert sim.run(until=sim.now + 0.5) == "until"


def test_progress_must_be_callable(sim):
    with pytest.raises(ac.ConfigError, match="progress: 5 is not callable"):
        sim.run(until=1, progress=5)


SCENARIO = """
[simulation]
until = "100000s"

[[nodes]]
name = "a"

[[nodes]]
name = "b"

[[links]]
from = "a"
to = "b"
bandwidth = "10Mb"
delay = "20ms"
loss = { type = "uniform", p = 0.01 }

[[apps]]
type = "tcp"
from = "a"
to = "b"

[[traces]]
type = "ns2"
file = "all.tr"

[[traces]]
type = "pcap"
file = "a.pcap"
node = "a"
"""


def test_sigint_ends_ackclock_run_within_a_second_with_status_130_and_whole_traces(tmp_path):
    scenario = tmp_path / "long.toml"
    scenario.write_text(SCENARIO)
    out = tmp_path / "out"
    child = subprocess.Popen(
        [sys.executable, "-m", "ackclock", "run", str(scenario), "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Wait until the run is under way: a first buffer of trace bytes is out.
    deadline = time.monotonic() + 30
    while sum(p.stat().st_size for p in out.glob("*")) < 65536:
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the run never started writing its trace"
        time.sleep(0.05)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=10)
    assert time.monotonic() - sent < 1.0
    assert child.returncode == 130, stderr
    assert stderr.strip() == "ackclock: interrupted"  # after a newline that ends the ^C
    assert stdout == ""
    assert sorted(p.name for p in out.iterdir()) == ["a.pcap", "all.tr"]  # no results.json
    text = (out / "all.tr").read_text()
    assert text.endswith("\n")
    packets, variables = analysis.read_ns2_trace(out / "all.tr")
    assert len(packets) > 1000 and len(variables) > 0
    # tshark reads every pcap record (a cut record would be an error).
    assert tshark_count(out / "a.pcap", "frame") > 100
