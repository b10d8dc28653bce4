"""Unit strings and plain numbers for durations, bandwidths and sizes."""

import math

import ackclock as ac
import pytest


@pytest.mark.parametrize(
    ("value", "ps"),
    [
        ("50ms", 50 * 10**9),
        ("1.5s", 1_500_000_000_000),
        ("10us", 10**7),
        ("0.1", 10**11),  # a bare number in a string is seconds
        ("2min", 120 * 10**12),
        (2, 2 * 10**12),  # plain numbers are seconds
        (0.1, 10**11),  # 0.1 * 1e12 is 100000000000.00002: a float's rounding
        (0.039999999999999994, 4 * 10**10),
        (1e-12, 1),
        (0, 0),
    ],
)
def test_durations_parse_strings_and_seconds(value, ps):
    assert ac.duration_ps(value) == ps


@pytest.mark.parametrize(
    ("value", "bps"),
    [
        ("10Mb", 10_000_000),
        ("800Kb", 800_000),
        ("28.8kb", 28_800),
        ("1Gbps", 10**9),
        ("1MB", 8_000_000),  # capital B is bytes
        ("64000", 64_000),
        (64000, 64_000),  # plain numbers are bit/s
        (1e6, 1_000_000),
    ],
)
def test_bandwidths_parse_decimal_prefixes_and_bit_per_second(value, bps):
    assert ac.bandwidth_bps(value) == bps


@pytest.mark.parametrize(
    ("value", "size"),
    [("1500", 1500), ("1500B", 1500), ("100MB", 10**8), ("8MiB", 8 << 20), (40, 40)],
)
def test_sizes_parse_decimal_and_binary_units(value, size):
    assert ac.size_bytes(value) == size


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        (-1, "-1 is not a bandwidth: it must not be negative"),
        ("-1Mb", "'-1Mb' is not a bandwidth: it must not be negative"),
        (0, "0 is not a bandwidth: it must be greater than zero"),
        ("0Mb", "'0Mb' is not a bandwidth: it must be greater than zero"),
        (math.nan, "nan is not a bandwidth: it must be finite"),
        (math.inf, "inf is not a bandwidth: it must be finite"),
        (True, "True is not a bandwidth"),
        (None, "None is not a bandwidth"),
        ("10 furlongs", "unknown unit 'furlongs'"),
    ],
)
def test_bad_bandwidths_raise_config_error_naming_parameter_and_value(value, fragment):
    with pytest.raises(ac.ConfigError) as caught:
        ac.bandwidth_bps(value, "bandwidth")
    assert str(caught.value).startswith("bandwidth: ")
    assert fragment in str(caught.value)


@pytest.mark.parametrize("value", [-0.5, "-5ms", math.nan, False, "fast", [1]])
def test_bad_durations_raise_config_error(value):
    with pytest.raises(ac.ConfigError, match="^delay: "):
        ac.duration_ps(value, "delay")


def test_fractional_byte_counts_are_refused():
    with pytest.raises(ac.ConfigError, match="whole number of bytes"):
        ac.size_bytes(1000.5, "packet_size")


def test_native_unit_parsers_raise_unit_error_quoting_the_text():
    from ackclock import _native

    with pytest.raises(ac.UnitError, match="'10 furlongs'"):
        _native.parse_bandwidth("10 furlongs")
    assert issubclass(ac.UnitError, ValueError) and issubclass(ac.ConfigError, ValueError)


@pytest.mark.parametrize(
    ("convert", "value", "nearest"),
    [
        (ac.size_bytes, "1.5B", "1B and 2B"),
        (ac.size_bytes, "1.0001KB", "1000B and 1001B"),
        (ac.duration_ps, "1e-15s", "0ps and 1ps"),
        (ac.duration_ps, 1e-15, "0ps and 1ps"),
        (ac.duration_ps, 1.4e-12, "1ps and 2ps"),
        (ac.duration_ps, "0.0000000000015s", "1ps and 2ps"),
        (ac.bandwidth_bps, "28.8001b", "28b and 29b"),
        (ac.bandwidth_bps, 1.5, "1b and 2b"),
    ],
)
def test_values_between_two_whole_units_are_refused_naming_the_nearest(convert, value, nearest):
    with pytest.raises(ac.ConfigError) as caught:
        convert(value, "x")
    assert f"{value!r} is not a " in str(caught.value)
    assert str(caught.value).endswith(f"(the nearest are {nearest})")


@pytest.mark.parametrize("value", ["18446744s", 18446744, "4611687s", 2.0**70])
def test_durations_that_could_overflow_the_clock_are_refused(value):
    with pytest.raises(ac.ConfigError, match="it must be at most 4611686s"):
        ac.duration_ps(value, "delay")
    assert ac.duration_ps("4611686s") == 4611686 * 10**12
