"""The Python half of an ns-2 object.

ns-2's objects are OTcl objects with a C++ half; in ackclock the other half
is a `Shadow`. Its `cmd_<name>` methods are the object's commands (`-` in a
command's name becomes `_`) that no OTcl instproc defines. Its variables
stay OTcl instance variables (in the object's Tcl namespace), so `$obj set`,
`instvar` and class defaults behave as in ns-2; `variables` says what
ackclock does with the ones it knows (`Var`), and the registry knows the
rest of ns-2's (registry.py).
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from ackclock.tcl import ns2_units
from ackclock.tcl.errors import TclScriptError

if TYPE_CHECKING:
    from ackclock.tcl.world import World

T = TypeVar("T")


class Kind(Enum):
    """How ns-2 binds a variable, and so how it reads back."""

    TEXT = "text"
    INT = "int"
    REAL = "real"
    BANDWIDTH = "bandwidth"  # bit/s: "10Mb", "800Kb" or a number
    TIME = "time"  # seconds: "10ms" or a number
    BOOL = "bool"  # true/false/1/0, read back as 1 or 0


@dataclass(frozen=True)
class Var:
    """A variable ackclock knows: its kind, whether it follows the
    simulation (`live`: read from the core when the script reads it), or why
    ackclock leaves it without effect (`ignored`)."""

    kind: Kind = Kind.TEXT
    live: bool = False
    ignored: str = ""


def ns2_real(x: float) -> str:
    """A double as ns-2's C++ side returns it (%.17g): bound variables, `now`."""
    return format(float(x), ".17g")


def tcl_double(x: float) -> str:
    """A double as ns-2's Tcl prints one (tcl_precision 17): 10000000.0."""
    text = format(float(x), ".17g")
    return text + ".0" if text.lstrip("-").isdigit() else text


def normalize(kind: Kind, value: str, what: str) -> str:
    """`value` as ns-2 reads it back after a script sets it."""
    if kind is Kind.BANDWIDTH:
        return ns2_real(ns2_units.bandwidth(value, what))
    if kind is Kind.TIME:
        return ns2_real(ns2_units.seconds(value, what))
    if kind is Kind.BOOL:
        return "1" if parse_bool(value, what) else "0"
    if kind in (Kind.INT, Kind.REAL):
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise TclScriptError(f"{what} = {value!r} is not {_KIND_TEXT[kind]}")
        return str(int(number)) if kind is Kind.INT else ns2_real(number)
    return value


_KIND_TEXT = {Kind.INT: "a finite number", Kind.REAL: "a finite number"}


def same_value(a: str, b: str) -> bool:
    """Whether two values of a variable are the same to ns-2 (10 and 10.0,
    true and 1)."""
    if a == b:
        return True
    words = {"true": 1.0, "false": 0.0}
    try:
        x = words.get(a.lower(), None)
        y = words.get(b.lower(), None)
        return (float(a) if x is None else x) == (float(b) if y is None else y)
    except ValueError:
        return False


def parse_bool(value: str, what: str) -> bool:
    text = value.strip().lower()
    if text in ("true", "yes", "on"):
        return True
    if text in ("false", "no", "off"):
        return False
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise TclScriptError(f"{what} = {value!r} is not true, false, 1 or 0")
    return number != 0


def whole(text: str, what: str) -> int:
    """A whole number a script gave as an argument."""
    try:
        return int(text)
    except ValueError:
        raise TclScriptError(f"{what}: expected a whole number but got {text!r}") from None


def packet_count(text: str, what: str) -> int:
    """A count ns-2's C++ reads with atoi: a number's leading whole part
    ("2.77" is 2, as `produce` and `advance` take it); text that is no
    number is an error rather than atoi's 0."""
    try:
        float(text)
    except ValueError:
        raise TclScriptError(f"{what}: expected a number but got {text!r}") from None
    digits = re.match(r"\s*([+-]?\d*)", text)
    lead = digits.group(1) if digits else ""
    return int(lead) if lead.strip("+-") else 0


def real(text: str, what: str) -> float:
    """A finite number a script gave as an argument."""
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise TclScriptError(f"{what}: expected a number but got {text!r}")
    return number


class Shadow:
    """An ns-2 object's commands and its view of the object's variables."""

    # The variables this class (and its subclasses) knows, merged along the
    # class hierarchy by `known_variables`.
    variables: ClassVar[dict[str, Var]] = {}
    # Variables a script may change once the simulation took the object's
    # values (`taken`): ones `assigned` applies, and ones ns-2 too reads only
    # when the object starts; merged along the class hierarchy.
    follows: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        """`cls` is the object's class, `ns2_class` the ns-2 class it is (or
        derives from) that this shadow implements; `args` are `new`'s."""
        self.world = world
        self.name = name
        self.cls = cls
        self.ns2_class = ns2_class
        self.namespace = world.tcl.namespace(name)
        # the object's class and the classes it derives from, nearest first
        self.heritage = world.heritage(cls)

    def is_a(self, cls: str) -> bool:
        return cls in self.heritage

    def nearest(self, table: dict[str, T]) -> T:
        """The entry of `table` for the nearest class of this object's."""
        return next(table[c] for c in self.heritage if c in table)

    @classmethod
    def known_variables(cls) -> dict[str, Var]:
        merged: dict[str, Var] = {}
        for klass in reversed(cls.__mro__):
            merged.update(getattr(klass, "variables", {}))
        return merged

    @classmethod
    def followed_variables(cls) -> frozenset[str]:
        return frozenset().union(*(getattr(k, "follows", frozenset()) for k in cls.__mro__))

    def __repr__(self) -> str:
        return f"{self.name} ({self.cls})"

    # --- commands ---------------------------------------------------------

    @classmethod
    def commands(cls) -> list[str]:
        return sorted(m[4:].replace("_", "-") for m in dir(cls) if m.startswith("cmd_"))

    def handler(self, method: str) -> Callable[..., Any] | None:
        return getattr(self, "cmd_" + method.replace("-", "_"), None)

    def command(self, method: str, args: tuple[str, ...]) -> Any:
        handler = self.handler(method)
        if handler is None:
            raise TclScriptError(
                f"{self.cls} has no command {method!r} (supported: {', '.join(self.commands())})"
            )
        try:
            inspect.signature(handler).bind(*args)
        except TypeError:
            raise TclScriptError(
                f'wrong # args: should be "{self.name} {usage(method, handler)}"'
            ) from None
        return handler(*args)

    # --- variables --------------------------------------------------------

    def var(self, name: str) -> str:
        """The variable's value; one ns-2's class has but the script unset
        is an error naming it."""
        value = self.world.tcl.get(f"{self.namespace}::{name}")
        if value is None:
            raise TclScriptError(f"{self} has no variable {name!r}")
        return value

    def set_var(self, name: str, value: str) -> None:
        self.world.tcl.set(f"{self.namespace}::{name}", value)

    def number(self, name: str) -> float:
        value = self.var(name)
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise TclScriptError(f"{self} {name} = {value!r} is not a finite number")
        return number

    def integer(self, name: str) -> int:
        value = self.number(name)
        if not value.is_integer():
            raise TclScriptError(f"{self} {name} = {value!r} is not a whole number")
        return int(value)

    def flag(self, name: str) -> bool:
        return parse_bool(self.var(name), f"{self} {name}")

    def live(self, name: str) -> str | None:
        """A `live` variable's value from the simulation, or None while the
        simulation has nothing to say (the variable keeps its value)."""
        return None

    def assigned(self, name: str, value: str) -> None:
        """The script set one of the variables this class knows."""

    def taken(self) -> str:
        """When the running simulation took this object's variables ("its
        flow started"), or "" while a change still takes effect."""
        return ""

    def changing(self, name: str, old: str, new: str) -> None:
        """The script sets `name` from `old` to `new` during the run: a
        change the simulation cannot follow any more is an error, never
        silently without effect."""
        taken = self.taken()
        spec = self.known_variables().get(name)
        if not taken or name in self.followed_variables() or (spec is not None and spec.ignored):
            return
        what = f"{self} {name}"
        if spec is not None:
            new = normalize(spec.kind, new, what)
        if same_value(old, new):
            return
        raise TclScriptError(
            f"{what} set during the run is not supported: ackclock took its value when {taken}"
        )

    def destroy(self) -> None:
        """The script deleted the object."""


def usage(method: str, handler: Callable[..., Any]) -> str:
    words = [method]
    for p in inspect.signature(handler).parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            words.append(f"?{p.name}...?")
        elif p.default is not p.empty:
            words.append(f"?{p.name}?")
        else:
            words.append(p.name)
    return " ".join(words)
