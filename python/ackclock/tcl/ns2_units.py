"""Bandwidths and times written as ns-2 reads them.

ns-2 parses "65.536k", "1.5Mb", "10Mbps", "1MB" (bytes: x8), "10ms", "1us",
"2.5msec" with C's strtod and a multiplier, so a value is the double ns-2
computes ("1us" is 9.9999999999999995e-07 s). Where ns-2 would silently
take the leading number of anything else ("1x" as 1), ackclock refuses
the value instead. The core then gets whole bit/s and picoseconds.
"""

from __future__ import annotations

import re

from ackclock.tcl.errors import TclScriptError

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_BANDWIDTH = re.compile(rf"^\s*({_NUMBER})\s*([kKmMgG]?)(b|B)?(?:ps)?\s*$")
_TIME = re.compile(rf"^\s*({_NUMBER})\s*(s|sec|ms|msec|m|us|usec|ns|nsec|ps|psec)?\s*$")

_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "g": 1e9, "G": 1e9}
_SECONDS = {
    None: None,
    "s": None,
    "sec": None,
    "m": 1e-3,
    "ms": 1e-3,
    "msec": 1e-3,
    "us": 1e-6,
    "usec": 1e-6,
    "ns": 1e-9,
    "nsec": 1e-9,
    "ps": 1e-12,
    "psec": 1e-12,
}


def bandwidth(text: str, what: str) -> float:
    """Bit/s, as ns-2's bound bandwidth variables and links read `text`."""
    match = _BANDWIDTH.match(text)
    if match is None:
        raise TclScriptError(
            f"{what} {text!r} is not a bandwidth (like 10Mb, 1.5Mbps, 64kb, 1MB or bit/s)"
        )
    number, prefix, unit = match.groups()
    value = float(number) * _PREFIX[prefix] if prefix else float(number)
    if unit == "B" and prefix:
        value *= 8  # ns-2 counts "kB", "MB", "GB" in bytes
    return value


def seconds(text: str, what: str) -> float:
    """Seconds, as ns-2 reads `text` (10ms, 1us, 2.5msec or a number)."""
    match = _TIME.match(text)
    if match is None:
        raise TclScriptError(f"{what} {text!r} is not a time (like 10ms, 1us or seconds)")
    number, unit = match.groups()
    scale = _SECONDS[unit]
    return float(number) if scale is None else float(number) * scale


# What the core's whole bit/s and picoseconds hold (u64).
MAX_BPS = 1e18
MAX_SECONDS = 1.8e7


def bandwidth_bps(text: str, what: str) -> int:
    value = bandwidth(text, what)
    if not 0 < value <= MAX_BPS:
        raise TclScriptError(f"{what} {text!r} must be more than 0 and at most 1e18 bit/s")
    return round(value)


def duration_ps(text: str, what: str) -> int:
    value = seconds(text, what)
    if not 0 <= value <= MAX_SECONDS:
        raise TclScriptError(f"{what} {text!r} must be between 0 and {MAX_SECONDS:g} s")
    return round(value * 1e12)
