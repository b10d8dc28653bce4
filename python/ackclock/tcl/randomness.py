"""ns-2's RNG and RandomVariable objects: random numbers a script draws
itself (`$rng uniform 0 1`, `$rv value`, `ns-random`).

An RNG is a stream of ns-2's generator, MRG32k3a (`_native.Mrg32k3a`, with
ns-2 2.35's own numbers as test vectors): `new RNG` takes the package's next
stream, `$rng seed N` reseeds the package with N and takes its first stream,
`next-substream` jumps 2^76 draws past the current substream's start, as
ns-2 does; a normal draw's spare sample serves the next normal draw of any
generator, as ns-2 keeps it. `$defaultRNG` is the one ns-2's agents draw
from (each TCP agent's clock phase); from `$ns run` on it lives in the
simulation, which draws the TCP send delays (`overhead_`) and RED's
decisions from it in event order. A random
variable draws from the default RNG unless `use-rng` names another; the
distributions and their parameters are ns-2's (tools/ranvar.cc, rng.h).
"""

from __future__ import annotations

import bisect
import math
from typing import TYPE_CHECKING

from ackclock import _native
from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.shadow import Kind, Shadow, Var, real, whole

if TYPE_CHECKING:
    from ackclock.tcl.world import World

MAX_INT = 0x7FFFFFFF  # ns-2's RNG draws integers in [0, 2^31 - 1)


class RngObject(Shadow):
    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        world.rngs.append(self)
        self.generator = world.new_stream()
        # the state the current substream starts at (ns-2's Bg)
        self.substream = self.generator.state

    def draw(self) -> float:
        """The generator's next number in (0, 1)."""
        sim = self.world.sim
        if self is self.world.default_rng and sim is not None:
            shared = sim.ns2_rng
            assert shared is not None
            u = shared.next_u01()
            sim.ns2_rng = shared
            return u
        return self.generator.next_u01()

    def next_int(self) -> int:
        """ns-2's integer draw, in [0, 2^31)."""
        return int(2147483648.0 * self.draw())

    def uniform(self) -> float:
        """A draw in (0, 1) for the random variables."""
        return (self.next_int() + 1.0) / (MAX_INT + 1.0)

    def normal(self, avg: float, std: float) -> float:
        """The polar method, keeping the second sample for the next call of
        any generator: ns-2 keeps it in one static variable, so that the
        next normal draw, from whichever RNG, is that sample."""
        if std == 0:
            return avg
        if self.world.spare_normal is not None:
            z, self.world.spare_normal = self.world.spare_normal, None
            return z * std + avg
        while True:
            a, b = 2 * self.uniform() - 1, 2 * self.uniform() - 1
            rad = a * a + b * b
            if 0 < rad < 1:
                break
        scale = math.sqrt(-2 * math.log(rad) / rad)
        self.world.spare_normal = b * scale
        return a * scale * std + avg

    def restart(self) -> None:
        """Draws continue from the current substream's start (the default
        RNG's in the simulation too, once it runs)."""
        self.generator = _native.Mrg32k3a(self.substream)
        sim = self.world.sim
        if self is self.world.default_rng and sim is not None:
            sim.ns2_rng = _native.Mrg32k3a(self.substream)

    def cmd_seed(self, *args: str) -> str:
        """ns-2 seeds with N by making (N, ..., N) the package's seed: this
        generator starts there and the next `new RNG` one stream later."""
        if not args:
            return str(self.generator.state[0])
        if len(args) == 2 and args[0] not in ("raw", "predef", "heuristic"):
            raise TclScriptError(f"{self} seed {args[0]}: use raw, predef or heuristic")
        value = whole(args[-1], f"{self} seed")
        if value < 0 or value >= MAX_INT:
            raise TclScriptError(f"{self} seed {value}: a seed is between 0 and {MAX_INT - 1}")
        if self is self.world.default_rng:
            self.world.reseed(value)
        self.generator = self.world.seed_streams(value or self.world.seed)
        self.substream = self.generator.state
        return ""

    def cmd_all_seeds(self) -> str:
        sim = self.world.sim
        shared = sim.ns2_rng if sim is not None and self is self.world.default_rng else None
        return " ".join(str(s) for s in (shared or self.generator).state)

    def cmd_next_random(self) -> int:
        return self.next_int()

    def cmd_next_substream(self) -> None:
        """The next substream, 2^76 draws after the current one's start."""
        self.substream = _native.Mrg32k3a(self.substream).next_substream().state
        self.restart()

    def cmd_reset_start_substream(self) -> None:
        """Back to the start of the current substream."""
        self.restart()

    cmd_reset_next_substream = cmd_next_substream

    def cmd_default(self) -> None:
        self.world.default_rng = self

    def cmd_uniform(self, low: str, high: str) -> float:
        a, b = real(low, "uniform"), real(high, "uniform")
        return a + (b - a) * self.next_int() / MAX_INT

    def cmd_integer(self, k: str) -> int:
        return self.next_int() % abs(_nonzero(whole(k, "integer"), "integer"))

    def cmd_exponential(self, mu: str = "1.0") -> float:
        return -real(mu, "exponential") * math.log(self.uniform())

    def cmd_normal(self, avg: str, std: str) -> str:
        return format(self.normal(real(avg, "normal"), real(std, "normal")), "g")

    def cmd_lognormal(self, avg: str, std: str) -> str:
        return format(math.exp(self.normal(real(avg, "normal"), real(std, "normal"))), "g")

    def cmd_testint(self, n: str) -> int:
        return self.next_int() % abs(_nonzero(whole(n, "testint"), "testint"))


class RandomVariableObject(Shadow):
    """RandomVariable/Uniform, /Exponential, /Pareto, /ParetoII, /Normal,
    /LogNormal, /Constant, /HyperExponential, /Weibull, /Empirical."""

    variables = {
        "min_": Var(Kind.REAL),
        "max_": Var(Kind.REAL),
        "avg_": Var(Kind.REAL),
        "std_": Var(Kind.REAL),
        "shape_": Var(Kind.REAL),
        "scale_": Var(Kind.REAL),
        "val_": Var(Kind.REAL),
        "cov_": Var(Kind.REAL),
        "minCDF_": Var(Kind.REAL),
        "maxCDF_": Var(Kind.REAL),
        "interpolation_": Var(Kind.INT),
        "maxEntry_": Var(Kind.INT, ignored="the CDF table grows as needed"),
    }

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.kind = next((c for c in self.heritage if c.startswith("RandomVariable/")), "")
        if self.kind not in DISTRIBUTIONS:
            raise TclScriptError(f"{cls}: ackclock draws {', '.join(sorted(DISTRIBUTIONS))}")
        self.rng: RngObject | None = None
        self.cdf: list[tuple[float, float]] = []  # (cdf, value), from loadCDF

    def source(self) -> RngObject:
        rng = self.rng or self.world.default_rng
        assert rng is not None
        return rng

    def cmd_use_rng(self, rng: str) -> None:
        self.rng = self.world.shadow(rng, RngObject, "an RNG")

    def cmd_value(self) -> str:
        return format(self.value(), "6e")

    def cmd_test(self, count: str) -> None:
        for _ in range(whole(count, "count")):
            self.world.tcl.call("puts", "stdout", self.cmd_value())

    def cmd_loadCDF(self, path: str) -> int:
        table = []
        try:
            with open(path) as lines:
                for line in lines:
                    fields = line.split()
                    if len(fields) >= 3:
                        table.append((float(fields[2]), float(fields[0])))
        except OSError as error:
            raise TclScriptError(
                f"{self} loadCDF: cannot read {path!r}: {error.strerror}"
            ) from None
        except ValueError:
            raise TclScriptError(f"{self} loadCDF {path!r}: lines are 'value index cdf'") from None
        self.cdf = table
        return len(table)

    def value(self) -> float:
        return DISTRIBUTIONS[self.kind](self, self.source())

    def stretch(self) -> tuple[str, float] | tuple[str, float, float]:
        """This variable as a length the core draws itself (two-state
        error models)."""
        if self.kind == "RandomVariable/Constant":
            return ("constant", self.number("val_"))
        if self.kind == "RandomVariable/Exponential":
            return ("exponential", self.number("avg_"))
        if self.kind == "RandomVariable/Uniform":
            return ("uniform", self.number("min_"), self.number("max_"))
        raise TclScriptError(
            f"{self}: the core draws two-state lengths from Constant, Exponential or Uniform "
            "random variables"
        )

    def empirical(self, rng: RngObject) -> float:
        if not self.cdf:
            return 0.0
        low, high = self.number("minCDF_"), self.number("maxCDF_")
        u = low + (high - low) * rng.uniform()
        cdfs = [c for c, _ in self.cdf]
        i = min(bisect.bisect_left(cdfs, u), len(cdfs) - 1)
        interpolation = self.integer("interpolation_")
        if i and interpolation and u < cdfs[i]:
            (c1, v1), (c2, v2) = self.cdf[i - 1], self.cdf[i]
            x = v1 + (u - c1) * (v2 - v1) / (c2 - c1)
            return math.ceil(x) if interpolation == 2 else x
        return self.cdf[i][1]


def _pareto(rv: RandomVariableObject, rng: RngObject) -> float:
    shape = rv.number("shape_")
    scale = rv.number("avg_") * (shape - 1) / shape
    return scale / rng.uniform() ** (1 / shape)


def _hyperexponential(rv: RandomVariableObject, rng: RngObject) -> float:
    # ns-2's two exponential branches, taken with probability 0.95 and 0.05,
    # whose means keep avg_ and give the coefficient of variation cov_.
    avg, cov, alpha = rv.number("avg_"), rv.number("cov_"), 0.95
    spread = math.sqrt((cov * cov - 1) / (2 * alpha * (1 - alpha)))
    if rng.uniform() < alpha:
        mean = avg - spread * (1 - alpha) * avg
    else:
        mean = avg + spread * alpha * avg
    return -mean * math.log(rng.uniform())


def _weibull(rv: RandomVariableObject, rng: RngObject) -> float:
    # ns-2 passes scale_ and shape_ to a function taking (shape, scale): the
    # roles are swapped, and scripts tuned on ns-2 expect that.
    return (-math.log(rng.uniform())) ** (1 / rv.number("scale_")) * rv.number("shape_")


DISTRIBUTIONS = {
    "RandomVariable/Uniform": lambda rv, rng: (
        rv.number("min_") + (rv.number("max_") - rv.number("min_")) * rng.uniform()
    ),
    "RandomVariable/Exponential": lambda rv, rng: -rv.number("avg_") * math.log(rng.uniform()),
    "RandomVariable/Pareto": _pareto,
    "RandomVariable/ParetoII": lambda rv, rng: (
        rv.number("avg_")
        * (rv.number("shape_") - 1)
        * (1 / rng.uniform() ** (1 / rv.number("shape_")) - 1)
    ),
    "RandomVariable/Normal": lambda rv, rng: rng.normal(rv.number("avg_"), rv.number("std_")),
    "RandomVariable/LogNormal": lambda rv, rng: math.exp(
        rng.normal(rv.number("avg_"), rv.number("std_"))
    ),
    "RandomVariable/Constant": lambda rv, rng: rv.number("val_"),
    "RandomVariable/Weibull": _weibull,
    "RandomVariable/HyperExponential": _hyperexponential,
    "RandomVariable/Empirical": RandomVariableObject.empirical,
}


def _nonzero(value: int, what: str) -> int:
    if value == 0:
        raise TclScriptError(f"{what} 0: the range must not be empty")
    return value
