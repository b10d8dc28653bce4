"""Hypothesis strategies shared by the fuzz tests: for each kind of parameter,
values a user might write, mostly good and sometimes bad, and anything at all."""

from __future__ import annotations

import math

from hypothesis import strategies as st

# Anything a TOML file can hold (the API fuzzer adds None and objects).
ANYTHING = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.sampled_from(["type", "x"]), st.integers(), max_size=2),
)


# How often (percent) a value of one case is bad, drawn once per case: a case
# has dozens of values, and a run gets somewhere only if nearly all are good.
FAULT_PERCENT = st.shared(st.sampled_from([0, 0, 0, 1, 3, 10, 50]), key="fault percent")


def fault(percent: int, roll: int) -> bool:
    return roll < percent


@st.composite
def mostly(draw: st.DrawFn, good: st.SearchStrategy, bad: st.SearchStrategy) -> object:
    """`good`, or at the case's fault rate `bad` or anything."""
    if fault(draw(FAULT_PERCENT), draw(st.integers(0, 99))):
        return draw(st.one_of(bad, ANYTHING))
    return draw(good)


DURATIONS = mostly(
    st.one_of(
        st.sampled_from(["1ns", "10us", "1ms", "20ms", "0.25s", "1s", "0.1", "1_000us"]),
        st.sampled_from([1, 0.01, 0.5]),
    ),
    st.one_of(
        st.sampled_from(["0s", 0, "1ps", "1e-15s", "1.5ps", "18446744s", "4611686s", "-5ms"]),
        st.sampled_from(["5 parsecs"]),
        st.sampled_from(["1e400s", "", "2min"]),
        st.floats(min_value=-1e-3, max_value=3.0),
        st.floats(min_value=1e-16, max_value=1e-11),
    ),
)
BANDWIDTHS = mostly(
    st.sampled_from(["10Mb", "1Mb", "100kb", "28.8kb", "1Gbps", "1MB", 64000, 1e6]),
    st.one_of(
        st.sampled_from(["0Mb", "1.5b", "1000Tb", "-1Mb", "10 furlongs", "0.5b", 1e18, 0, -1]),
        st.integers(min_value=1, max_value=10**13),
        st.floats(min_value=0.0, max_value=1e19),
    ),
)
SIZES = mostly(
    st.sampled_from([40, 500, 1000, "1500B", "1KB", "1500", 64_000]),
    st.one_of(
        st.sampled_from(["1.5B", "1.0001KB", "8MiB", "0", "-1B", "unlimited", 1e12, 2**33]),
        st.integers(min_value=-1, max_value=70_000),
        st.floats(min_value=0.0, max_value=2000.0),
    ),
)
PROBABILITIES = mostly(
    st.floats(min_value=0.0, max_value=0.2),
    st.one_of(st.sampled_from([1, -0.1, 1.5, math.nan]), st.floats(min_value=0.0, max_value=1.0)),
)
COUNTS = mostly(
    st.integers(min_value=1, max_value=40),
    st.one_of(st.integers(min_value=-1, max_value=10**6), st.sampled_from([2**32, 2**64])),
)
THRESHOLDS = mostly(
    st.floats(min_value=1.0, max_value=30.0), st.floats(min_value=-1.0, max_value=100.0)
)
FILES = mostly(
    st.sampled_from(["all.tr", "x.pcap", "sub/t.txt", "q.tr"]),
    st.sampled_from(["../up.tr", "/tmp/abs.tr", "", "results.json", ".", "a\0b", "/dev/null"]),
)
NAMES = mostly(
    st.sampled_from(["a", "b", "c", "d"]),
    st.sampled_from(["", " a", "a\0b", "n\n", "ü", "x" * 300, "router 1"]),
)
CHOICES = {
    "unit": st.sampled_from(["packets", "bytes"]),
    "position": st.sampled_from(["queue", "wire"]),
    "profile": st.sampled_from(["rfc", "linux", "ns2"]),
    "cc": st.sampled_from(["tahoe", "reno", "newreno"]),
}
