"""Fuzzing the Python API with generated call sequences.

A hypothesis state machine builds a simulation call by call (nodes, links,
specs, flows, traces, callbacks, runs, results) with arguments drawn from
what a user might pass, good and bad, including None and foreign objects.
Every call must succeed or raise the package's `ConfigError` (or `OSError`
for a trace file that cannot be written), never another exception, a core
panic (`SimulationError`) or a hang (an alarm ends any `run()` that takes
longer than `HANG_S`); results stay readable after every step.
"""

from __future__ import annotations

import shutil
import signal
import tempfile
from pathlib import Path

import ackclock as ac
from fuzz_values import (
    ANYTHING,
    BANDWIDTHS,
    COUNTS,
    DURATIONS,
    NAMES,
    PROBABILITIES,
    SIZES,
    THRESHOLDS,
    mostly,
)
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

HANG_S = 20
ALLOWED = (ac.ConfigError, OSError)
# Any Python value at all, including some a file cannot hold.
ARGUMENT = st.one_of(ANYTHING, st.none(), st.just(object()), st.just(ac.Simulator()))


class Hang(Exception):
    pass


def maybe(strategy: st.SearchStrategy) -> st.SearchStrategy:
    return mostly(strategy, ARGUMENT)


def keywords(**strategies: st.SearchStrategy) -> st.SearchStrategy[dict]:
    """A dict of some of the given keyword arguments."""
    return st.fixed_dictionaries({}, optional={k: maybe(v) for k, v in strategies.items()})


QUEUE_KEYWORDS = {
    "limit": COUNTS,
    "unit": st.sampled_from(["packets", "bytes"]),
    "ns2_limit": st.booleans(),
}
RED_KEYWORDS = {
    **QUEUE_KEYWORDS,
    "min_th": THRESHOLDS,
    "max_th": THRESHOLDS,
    "max_p": PROBABILITIES,
    "weight": PROBABILITIES,
    "gentle": st.booleans(),
    "ecn": st.booleans(),
    "mean_packet_size": SIZES,
}
TCP_KEYWORDS = {
    "profile": st.sampled_from(["rfc", "linux", "ns2"]),
    "cc": st.sampled_from(["tahoe", "reno", "newreno"]),
    "mss": SIZES,
    "initial_window": COUNTS,
    "max_window": st.one_of(SIZES, st.just("unlimited")),
    "sack": st.booleans(),
    "timestamps": st.booleans(),
    "delayed_ack": st.booleans(),
    "min_rto": DURATIONS,
    "max_rto": DURATIONS,
    "receive_buffer": SIZES,
    "bogus": st.integers(),
}
FLOW_KEYWORDS = {
    "packet_size": SIZES,
    "start": DURATIONS,
    "stop": DURATIONS,
    "max_packets": COUNTS,
    "name": NAMES,
    "ecn": st.booleans(),
}
SPECS = st.one_of(
    st.tuples(st.just(ac.DropTail), keywords(**QUEUE_KEYWORDS)),
    st.tuples(st.just(ac.RED), keywords(**RED_KEYWORDS)),
    st.tuples(st.just(ac.UniformLoss), keywords(p=PROBABILITIES, position=st.just("wire"))),
    st.tuples(st.just(ac.BitErrors), keywords(ber=PROBABILITIES)),
    st.tuples(st.just(ac.GilbertElliott), keywords(p_good_to_bad=PROBABILITIES)),
    st.tuples(st.just(ac.DropList), keywords(drops=st.lists(st.integers(-1, 30)))),
    st.tuples(st.just(ac.ExponentialDelay), keywords(mean=DURATIONS, reorder=st.booleans())),
    st.tuples(st.just(ac.UniformDelay), keywords(low=DURATIONS, high=DURATIONS)),
    st.tuples(st.just(ac.ExponentialSize), keywords(mean=SIZES)),
    st.tuples(st.just(ac.TcpParams), keywords(**TCP_KEYWORDS)),
    st.tuples(st.just(ac.Bulk), keywords(bytes=SIZES)),
    st.tuples(st.just(ac.Telnet), keywords(mean_interval=DURATIONS, packet_size=SIZES)),
    st.tuples(st.just(ac.RequestResponse), keywords(request=SIZES, response=SIZES)),
    st.tuples(st.just(ac.LinkParams), keywords(bandwidth=BANDWIDTHS, delay=DURATIONS)),
    st.tuples(st.just(ac.FlowLabel), keywords(src_port=COUNTS, dst_port=COUNTS, fid=COUNTS)),
)


class ApiUser(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="ackclock-fuzz-"))
        self.sim = ac.Simulator(seed=1, max_events=200_000)
        self.made: list[object] = []  # specs built so far, good ones

    def attempt(self, call, *args, **kwargs) -> object:
        """Calls `call`; a mistake must be the package's error."""
        try:
            result = call(*args, **kwargs)
        except ALLOWED as error:
            event(f"{call.__name__}: {type(error).__name__}")
            return None
        event(f"{call.__name__}: done")
        return result

    def pick(self, data, things: list, fallback: st.SearchStrategy = ARGUMENT) -> object:
        return data.draw(mostly(st.sampled_from(things), fallback) if things else fallback)

    def ends(self, data) -> tuple[object, object]:
        """Two different nodes, mostly."""
        nodes = list(self.sim.nodes)
        if len(nodes) >= 2 and data.draw(mostly(st.just(True), st.just(False))):
            src, dst = data.draw(st.permutations(nodes))[:2]
            return src, dst
        return self.pick(data, nodes), self.pick(data, nodes)

    @initialize(data=st.data(), bandwidth=BANDWIDTHS, delay=DURATIONS)
    def chain(self, data, bandwidth, delay):
        """Three nodes a - b - c, as most simulations start."""
        a, b, c = (self.sim.node(name) for name in "abc")
        self.attempt(self.sim.duplex_link, a, b, "10Mb", "1ms")
        self.attempt(self.sim.duplex_link, b, c, bandwidth, delay)

    @rule(name=maybe(NAMES))
    def node(self, name):
        self.attempt(self.sim.node, name)

    @rule(data=st.data(), duplex=st.booleans(), bandwidth=BANDWIDTHS, delay=DURATIONS)
    def link(self, data, duplex, bandwidth, delay):
        src, dst = self.ends(data)
        extra = {}
        if data.draw(st.booleans()):
            extra["queue"] = self.pick(data, self.made)
        add = self.sim.duplex_link if duplex else self.sim.simplex_link
        self.attempt(add, src, dst, bandwidth, delay, **extra)

    @rule(spec=SPECS)
    def make_spec(self, spec):
        cls, kwargs = spec
        made = self.attempt(cls, **kwargs)
        if made is not None:
            self.made.append(made)

    @rule(
        data=st.data(),
        kind=st.sampled_from(["cbr", "poisson", "on_off"]),
        rate=BANDWIDTHS,
        interval=DURATIONS,
        options=keywords(**FLOW_KEYWORDS),
    )
    def udp_flow(self, data, kind, rate, interval, options):
        src, dst = self.ends(data)
        if kind == "cbr":
            self.attempt(self.sim.cbr, src, dst, rate, **options)
        elif kind == "poisson":
            self.attempt(self.sim.poisson, src, dst, interval, **options)
        else:
            self.attempt(self.sim.on_off, src, dst, rate, interval, interval, **options)

    @rule(data=st.data(), start=DURATIONS, read_rate=st.one_of(st.none(), BANDWIDTHS))
    def tcp_flow(self, data, start, read_rate):
        src, dst = self.ends(data)
        options = {"start": start, "read_rate": read_rate}
        for key in ("app", "tcp", "server_tcp", "label"):
            if data.draw(st.booleans()):
                options[key] = self.pick(data, self.made)
        self.attempt(self.sim.tcp, src, dst, **options)

    @rule(data=st.data(), what=st.sampled_from(["loss", "jitter", "duplication", "record"]))
    def change_link(self, data, what):
        if not self.sim.links:
            return
        link = data.draw(st.sampled_from(list(self.sim.links)))
        if what == "loss":
            self.attempt(link.set_loss, self.pick(data, self.made + [None]))
        elif what == "jitter":
            self.attempt(link.set_jitter, self.pick(data, self.made + [None]))
        elif what == "duplication":
            self.attempt(link.set_duplication, data.draw(maybe(PROBABILITIES)))
        else:
            self.attempt(link.record_queue)

    @rule(
        data=st.data(),
        kind=st.sampled_from(["all", "queue", "nam", "tcpdump", "pcap"]),
        name=st.one_of(st.sampled_from(["a.tr", "b.tr", "sub/c.tr", ".", ""]), ARGUMENT),
    )
    def trace(self, data, kind, name):
        path = self.dir / name if isinstance(name, str) and name else name
        nodes, links = list(self.sim.nodes), list(self.sim.links)
        if kind == "all":
            self.attempt(self.sim.trace_all, path, variables=data.draw(maybe(st.booleans())))
        elif kind == "queue":
            src, dst = self.ends(data)
            self.attempt(self.sim.trace_queue, src, dst, path)
        elif kind == "nam":
            self.attempt(self.sim.trace_nam, path)
        else:
            where = {"node": self.pick(data, nodes)} if data.draw(st.booleans()) else {}
            if data.draw(st.booleans()):
                where["link"] = self.pick(data, links)
            self.attempt(getattr(self.sim, kind), path, **where)

    @rule(data=st.data(), time=DURATIONS)
    def at(self, data, time):
        callback = data.draw(st.sampled_from([self.sim.stop, lambda: None, "not callable"]))
        self.attempt(self.sim.at, time, callback)

    @rule(step=st.one_of(st.sampled_from([0.001, 0.05, 0.3, 1.0]), ARGUMENT), none=st.booleans())
    def run(self, step, none):
        until = None if none else self.sim.now + step if isinstance(step, float) else step

        def hang(signum, frame):
            raise Hang(f"run(until={until!r}) took more than {HANG_S} s")

        previous = signal.signal(signal.SIGALRM, hang)
        signal.alarm(HANG_S)
        try:
            self.attempt(self.sim.run, until, progress=lambda t, n: None)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)

    @rule(data=st.data())
    def stop_flow(self, data):
        if self.sim.flows:
            self.attempt(data.draw(st.sampled_from(list(self.sim.flows))).stop)

    @rule(close=st.booleans())
    def end_traces(self, close):
        self.attempt(self.sim.close_traces if close else self.sim.discard_traces)

    @invariant()
    def results_are_readable(self):
        results = self.sim.results()
        assert results["sim_time_s"] == self.sim.now
        for link in self.sim.links:
            link.stats()
        for flow in self.sim.flows:
            flow.stats()

    def teardown(self) -> None:
        self.attempt(self.sim.discard_traces)
        shutil.rmtree(self.dir, ignore_errors=True)


TestApiUser = ApiUser.TestCase
# A case is a sequence of calls: fewer cases than the other fuzzers, each longer.
TestApiUser.settings = settings(
    settings.default, max_examples=settings.default.max_examples // 2, stateful_step_count=30
)
