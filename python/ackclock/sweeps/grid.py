"""The parameter points of a sweep: axes crossed with each other, and groups of
axes that vary together (zips).

Values are written the same way on the command line, in a sweep file and in
Python: a list is the values; a string is either a comma-separated list
("1Mb,2Mb,4Mb") or an inclusive range "start:stop:step" ("0:400:5" is 0, 5,
..., 400); any other value is a single value. Items of a string list become
numbers or booleans when they read as such ("5" -> 5, "0.8" -> 0.8, "true").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Union

from ackclock.errors import SweepError

Value = Union[str, int, float, bool]
Point = dict[str, Value]

_INTEGER = re.compile(r"[+-]?\d+")
_RANGE = re.compile(r"([^:,]+):([^:,]+):([^:,]+)")


def scalar(text: str) -> Value:
    """A command-line item as the number or boolean it reads as, else the string."""
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    if _INTEGER.fullmatch(text):
        return int(text)
    try:
        return float(text)
    except ValueError:
        return text


def _decimal(text: str, name: str) -> Decimal:
    try:
        number = Decimal(text.strip())
    except InvalidOperation:
        raise SweepError(f"{name}: {text!r} in a range is not a number") from None
    if not number.is_finite():
        raise SweepError(f"{name}: {text!r} in a range is not a finite number")
    return number


def _range(start: str, stop: str, step: str, name: str) -> list[Value]:
    """start, start + step, ... up to stop inclusive, in exact decimal steps
    (so 0:1:0.1 ends at 1.0, not 0.9999999999999999)."""
    first, last, stride = (_decimal(text, name) for text in (start, stop, step))
    if stride == 0 or (last - first) * stride < 0:
        raise SweepError(f"{name}: the range {start}:{stop}:{step} has no values")
    count = int((last - first) / stride) + 1
    numbers = [first + i * stride for i in range(count)]
    if all(number == number.to_integral_value() for number in (first, stride)):
        return [int(number) for number in numbers]
    return [float(number) for number in numbers]


def values_of(name: str, spec: Any) -> list[Value]:
    """The values a parameter takes, from a list, a string (list or range) or a value."""
    if isinstance(spec, str):
        match = _RANGE.fullmatch(spec.strip())
        if match:
            return _range(*match.groups(), name)
        if any(not item.strip() for item in spec.split(",")):
            raise SweepError(f"{name}: an empty value in {spec!r}")
        items = [scalar(item) for item in spec.split(",")]
    elif isinstance(spec, (Sequence, range)) or hasattr(spec, "tolist"):  # numpy arrays too
        items = list(spec.tolist() if hasattr(spec, "tolist") else spec)
    else:
        items = [spec]
    for item in items:
        if not isinstance(item, (str, int, float, bool)):
            raise SweepError(f"{name}: {item!r} is not a value (use numbers, strings or booleans)")
    if not items:
        raise SweepError(f"{name}: no values")
    return items


def parse_assignment(text: str) -> tuple[str, list[Value]]:
    """ "name=values" as on the command line."""
    name, equals, spec = text.partition("=")
    name = name.strip()
    if not equals or not name:
        raise SweepError(f"{text!r} is not NAME=VALUES (e.g. delayB=0:400:5 or bw=1Mb,2Mb)")
    return name, values_of(name, spec)


@dataclass(frozen=True)
class Grid:
    """`axes` are crossed (the last varies fastest); each zip group is one more
    axis whose parameters take their i-th values together."""

    axes: tuple[tuple[str, tuple[Value, ...]], ...] = ()
    zips: tuple[tuple[tuple[str, tuple[Value, ...]], ...], ...] = ()

    @classmethod
    def of(
        cls, parameters: Mapping[str, Any] | None = None, zips: Sequence[Mapping[str, Any]] = ()
    ) -> Grid:
        axes = tuple(
            (name, tuple(values_of(name, spec))) for name, spec in (parameters or {}).items()
        )
        groups = []
        for group in zips:
            columns = tuple((name, tuple(values_of(name, spec))) for name, spec in group.items())
            lengths = {len(values) for _, values in columns}
            if len(lengths) > 1:
                described = ", ".join(f"{name} has {len(values)}" for name, values in columns)
                raise SweepError(f"zipped parameters need as many values each: {described}")
            groups.append(columns)
        grid = cls(axes, tuple(groups))
        names = grid.names
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise SweepError(f"parameter {repeated[0]!r} is given twice")
        return grid

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.axes] + [name for group in self.zips for name, _ in group]

    def points(self) -> list[Point]:
        """Every combination, in a fixed order: the grid's product, each zip a
        further axis (a grid without parameters has one empty point)."""
        choices: list[list[Point]] = [
            [{name: value} for value in values] for name, values in self.axes
        ]
        for group in self.zips:
            names = [name for name, _ in group]
            choices.append([dict(zip(names, row)) for row in zip(*(values for _, values in group))])
        return [
            {name: value for part in combination for name, value in part.items()}
            for combination in itertools.product(*choices)
        ]
