"""Quantities with units: durations, bandwidths and sizes.

A value is either a unit string, parsed exactly by the core ("50ms", "1.5s",
"10Mb", "28.8kb", "1500B"), or a plain number in the base unit: seconds, bit/s
or bytes. Results are the integers the core takes: picoseconds, bit/s, bytes.
A value that is not a whole number of the integer unit is refused, naming the
two nearest that are: exactly for strings; a float may differ from a whole
number by a float's own rounding (one part in a billion), so that 0.1 seconds
is 100_000_000_000 ps.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Union

from ackclock import _native
from ackclock.checks import U64_MAX, is_number
from ackclock.errors import ParameterError, UnitError

Duration = Union[str, int, float]
"""A time: a string such as "50ms" or "1.5s", or a number of seconds."""
Bandwidth = Union[str, int, float]
"""A bit rate: a string such as "10Mb" or "28.8kb", or a number of bit/s."""
Size = Union[str, int, float]
"""A size: a string such as "1500B" or "64KB", or a number of bytes."""

PS_PER_S = 10**12
# Every duration (and so every absolute time) stays below a quarter of the
# 64-bit picosecond clock, so that a time plus a few delays never overflows.
MAX_DURATION_PS = 2**62
# How far a float may be from a whole number of the unit: a float's own
# rounding (0.1 * 1e12 is 100000000000.00002), not a sub-unit amount.
FLOAT_TOLERANCE = 1e-9


def _parsed(text: str, parse: Callable[[str], int], parameter: str) -> int:
    try:
        return parse(text)
    except UnitError as error:
        raise ParameterError(parameter, str(error)) from None


def _plain_number(value: Any, parameter: str, what: str, example: str) -> float:
    """Checks a number given instead of a unit string and returns it."""
    if not is_number(value):
        raise ParameterError(
            parameter, f"{value!r} is not a {what}: give a number or a string such as {example!r}"
        )
    if not math.isfinite(value):
        raise ParameterError(parameter, f"{value!r} is not a {what}: it must be finite")
    if value < 0:
        raise ParameterError(parameter, f"{value!r} is not a {what}: it must not be negative")
    return value


def _within(amount: float, limit: int, value: Any, parameter: str, what: str) -> None:
    if amount > limit:
        raise ParameterError(parameter, f"{value!r} is not a {what}: it is too large")


def _whole(amount: float, value: Any, parameter: str, what: str, unit: tuple[str, str]) -> int:
    """`amount` (finite) as a whole number, if it is one up to a float's rounding."""
    if isinstance(amount, int):
        return amount
    nearest = round(amount)
    if abs(amount - nearest) > amount * FLOAT_TOLERANCE:
        name, suffix = unit
        below = math.floor(amount)
        raise ParameterError(
            parameter,
            f"{value!r} is not a {what}: it is not a whole number of {name} "
            f"(the nearest are {below}{suffix} and {below + 1}{suffix})",
        )
    return nearest


def duration_ps(value: Duration, parameter: str = "value") -> int:
    """A duration in picoseconds, at most `MAX_DURATION_PS`; numbers are seconds."""
    if isinstance(value, str):
        ps: float = _parsed(value, _native.parse_duration, parameter)
    else:
        ps = _plain_number(value, parameter, "duration", "50ms") * PS_PER_S
    if ps > MAX_DURATION_PS:
        raise ParameterError(
            parameter,
            f"{value!r} is not a duration: it must be at most {MAX_DURATION_PS // PS_PER_S}s "
            "(about 53 days, so that no time on the picosecond clock overflows)",
        )
    if isinstance(ps, float):
        return _whole(ps, value, parameter, "duration", ("picoseconds", "ps"))
    return ps


def positive_duration_ps(value: Duration, parameter: str = "value") -> int:
    """A duration in picoseconds like `duration_ps`, greater than zero."""
    ps = duration_ps(value, parameter)
    if ps == 0:
        raise ParameterError(
            parameter, f"{value!r} is not a duration: it must be greater than zero"
        )
    return ps


# ns-2's time units and its factors for them (tcl/lib/ns-lib.tcl, time_parse).
_NS2_TIME_FACTORS = {"": 1.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}


def ns2_seconds(value: Duration, parameter: str = "value") -> float:
    """A duration in seconds as ns-2 reads it, in doubles: the number times
    its unit's factor ("71ms" is 71 * 1e-3, one bit above the double nearest
    0.071). Call after `duration_ps` has checked the value."""
    if not isinstance(value, str):
        return float(value)
    match = re.fullmatch(r"\s*([-+0-9.eE]+)\s*([a-z]*)\s*", value)
    if match is None or match.group(2).removesuffix("ec") not in _NS2_TIME_FACTORS:
        raise ParameterError(parameter, f"{value!r} is not a duration ns-2 reads")
    return float(match.group(1)) * _NS2_TIME_FACTORS[match.group(2).removesuffix("ec")]


def bandwidth_bps(value: Bandwidth, parameter: str = "value") -> int:
    """A bit rate in bit/s, greater than zero; numbers are bit/s."""
    if isinstance(value, str):
        return _parsed(value, _native.parse_bandwidth, parameter)
    number = _plain_number(value, parameter, "bandwidth", "10Mb")
    _within(number, U64_MAX, value, parameter, "bandwidth")
    bps = _whole(number, value, parameter, "bandwidth", ("bit/s", "b"))
    if bps == 0:
        raise ParameterError(
            parameter, f"{value!r} is not a bandwidth: it must be greater than zero"
        )
    return bps


def bandwidth_or_zero_bps(value: Bandwidth, parameter: str = "value") -> int:
    """A bit rate in bit/s like `bandwidth_bps`, where zero is allowed too."""
    if is_number(value) and value == 0:
        return 0
    try:
        return bandwidth_bps(value, parameter)
    except ParameterError as error:
        # A well-formed zero ("0", "0Mb") is refused only for being zero.
        if isinstance(value, str) and error.problem.endswith("it must be greater than zero"):
            return 0
        raise


def size_bytes(value: Size, parameter: str = "value") -> int:
    """A whole number of bytes; numbers are bytes."""
    if isinstance(value, str):
        return _parsed(value, _native.parse_size, parameter)
    size = _plain_number(value, parameter, "size", "1500B")
    if isinstance(size, float) and not size.is_integer():
        raise ParameterError(
            parameter, f"{value!r} is not a size: it must be a whole number of bytes"
        )
    _within(size, U64_MAX, value, parameter, "size")
    return int(size)


def mean_size_bytes(value: Size, parameter: str = "value") -> float:
    """A mean size in bytes, greater than zero; it need not be whole."""
    size = size_bytes(value, parameter) if isinstance(value, str) else value
    mean = _plain_number(size, parameter, "mean size", "2000B")
    if mean == 0:
        raise ParameterError(
            parameter, f"{value!r} is not a mean size: it must be greater than zero"
        )
    return float(mean)


def format_duration(ps: int) -> str:
    """A short readable duration: 10ms, 1.5s, 250us."""
    if ps == 0:
        return "0s"
    for unit, scale in (("s", PS_PER_S), ("ms", 10**9), ("us", 10**6), ("ns", 10**3)):
        if ps >= scale:
            return f"{ps / scale:g}{unit}"
    return f"{ps}ps"


def format_size(size: int) -> str:
    """A short readable size with decimal prefixes: 960B, 1.5kB, 91.9MB."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if size >= scale:
            return f"{size / scale:.4g}{unit}"
    return f"{size}B"


def format_bandwidth(bps: int) -> str:
    """A short readable bit rate in ns-2's notation: 10Mb, 28.8kb."""
    for unit, scale in (("Gb", 10**9), ("Mb", 10**6), ("kb", 10**3)):
        if bps >= scale:
            return f"{bps / scale:g}{unit}"
    return f"{bps}b"
