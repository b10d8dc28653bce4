"""Validation of plain (unitless) arguments: counts, probabilities, flags, choices.

Each function returns the value in the type the core expects, or raises
`ParameterError` whose message quotes the value, in the same
"'<value>' is not a <what>: <why>" form the core uses for unit strings.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

from ackclock.errors import ParameterError

# The core stores counts and times as 64-bit unsigned integers.
U64_MAX = 2**64 - 1


def is_number(value: Any) -> bool:
    """True for int and float but not bool (which Python counts as an int)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def integer(
    value: Any,
    parameter: str,
    what: str = "count",
    minimum: int = 0,
    maximum: int = U64_MAX,
    floats: bool = True,
) -> int:
    """A whole number in [minimum, maximum]; a float is accepted when it is
    whole, unless not `floats` (for identifiers such as seeds, which a
    scenario file also requires to be integers)."""
    if isinstance(value, float) and not floats:
        raise ParameterError(parameter, f"{value!r} is not a {what}: it must be an integer")
    if not is_number(value) or (isinstance(value, float) and not value.is_integer()):
        raise ParameterError(parameter, f"{value!r} is not a {what}: it must be a whole number")
    if value < minimum:
        raise ParameterError(parameter, f"{value!r} is not a {what}: it must be at least {minimum}")
    if value > maximum:
        raise ParameterError(parameter, f"{value!r} is not a {what}: it is too large")
    return int(value)


def real(
    value: Any,
    parameter: str,
    what: str,
    minimum: float = 0.0,
    maximum: float = math.inf,
    minimum_allowed: bool = True,
) -> float:
    """A finite number in [minimum, maximum] (or (minimum, maximum] if not `minimum_allowed`)."""
    if not is_number(value) or not math.isfinite(value):
        raise ParameterError(parameter, f"{value!r} is not a {what}: it must be a finite number")
    below = value < minimum if minimum_allowed else value <= minimum
    if below or value > maximum:
        low = "[" if minimum_allowed else "("
        high = "]" if math.isfinite(maximum) else ")"
        raise ParameterError(
            parameter,
            f"{value!r} is not a {what}: it must be in {low}{minimum:g}, {maximum:g}{high}",
        )
    return float(value)


def probability(value: Any, parameter: str) -> float:
    return real(value, parameter, "probability", 0.0, 1.0)


def flag(value: Any, parameter: str) -> bool:
    if not isinstance(value, bool):
        raise ParameterError(parameter, f"{value!r} is not a flag: use True or False")
    return value


def choice(value: Any, parameter: str, options: Sequence[str]) -> str:
    if value not in options:
        raise ParameterError(parameter, f"{value!r} is not one of {', '.join(options)}")
    return str(value)


def name(value: Any, parameter: str) -> str:
    """A non-empty name without surrounding whitespace or control characters
    (a NUL or a newline would corrupt traces and messages)."""
    if not isinstance(value, str) or not value.strip() or value != value.strip():
        raise ParameterError(
            parameter,
            f"{value!r} is not a name: it must be a non-empty string without "
            "leading or trailing spaces",
        )
    if not value.isprintable():
        raise ParameterError(
            parameter, f"{value!r} is not a name: it must not contain control characters"
        )
    return value


def file_name(value: Any, parameter: str) -> str:
    """A file name: a non-empty string or path without NUL characters."""
    text = os.fspath(value) if isinstance(value, (str, os.PathLike)) else None
    if not isinstance(text, str) or not text or "\0" in text:
        raise ParameterError(parameter, f"{value!r} is not a file name")
    return text
