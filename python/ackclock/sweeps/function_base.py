"""A Python function as the base of a sweep: `function(sim, **point)` builds
the network on `sim` (a `Simulator` with the run's seed and replication) and
runs it; it may return a mapping of further results.

Results are the simulator's flattened results (as for scenario files) and
the returned mapping: numbers, strings, booleans and None are columns, a
pandas DataFrame is a time series stored as Parquet.

On the command line (and for Dask workers that cannot unpickle a function
defined in a script) a function is named "module:function" or
"path/to/file.py:function".
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ackclock.errors import SweepError
from ackclock.sweeps.grid import Point
from ackclock.sweeps.runs import Scalar
from ackclock.sweeps.scenario_base import flatten

Function = Callable[..., Any]


def resolve(reference: str) -> Function:
    """The function "module:function" or "file.py:function" names."""
    target, colon, name = reference.rpartition(":")
    if not colon or not target or not name:
        raise SweepError(f"{reference!r} is not module:function or file.py:function")
    if target.endswith(".py"):
        path = Path(target).resolve()
        # A name of its own per file, the same in every process.
        module_name = "ackclock_sweep_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
        module = sys.modules.get(module_name)
        if module is None:
            spec = importlib.util.spec_from_file_location(module_name, path)
            if spec is None or spec.loader is None or not path.is_file():
                raise SweepError(f"{target}: no such Python file")
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(target)
        except ImportError as error:
            raise SweepError(f"{reference}: cannot import {target} ({error})") from None
    function = getattr(module, name, None)
    if not callable(function):
        raise SweepError(f"{reference}: {target} has no function {name!r}")
    return function


def source_of(function: Function) -> str:
    """The function's source, so that editing it makes its runs new."""
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def function_results(returned: Any) -> tuple[dict[str, Scalar], dict[str, Any]]:
    import pandas as pd

    if returned is None:
        return {}, {}
    if not isinstance(returned, Mapping):
        raise TypeError(f"the function returned {type(returned).__name__}: return a dict or None")
    scalars: dict[str, Scalar] = {}
    series: dict[str, Any] = {}
    for name, value in returned.items():
        if isinstance(value, pd.DataFrame):
            series[str(name)] = value
        elif value is None or isinstance(value, (str, int, float, bool)):
            scalars[str(name)] = value
        elif hasattr(value, "item"):  # a numpy scalar
            scalars[str(name)] = value.item()
        else:
            raise TypeError(
                f"result {name!r} is a {type(value).__name__}: return a number, a string "
                "or a pandas DataFrame (a time series)"
            )
    return scalars, series


@dataclass(frozen=True)
class FunctionJob:
    function: Function | str
    name: str
    source: str
    parameters: Point

    def identity(self) -> dict[str, Any]:
        return {"function": self.name, "source": self.source, "parameters": self.parameters}

    def __call__(
        self, seed: int, replication: int, workdir: Path
    ) -> tuple[dict[str, Scalar], dict[str, Any]]:
        from ackclock.simulator import Simulator

        function = resolve(self.function) if isinstance(self.function, str) else self.function
        sim = Simulator(seed=seed, replication=replication)
        scalars, series = function_results(function(sim, **self.parameters))
        results = flatten(sim.results())
        clashes = sorted(set(scalars) & set(results))
        if clashes:
            raise ValueError(f"result {clashes[0]!r} is also one of the simulator's results")
        return {**results, **scalars}, series


class FunctionBase:
    kind = "function"
    default_seed = 1

    def __init__(self, function: Function | str) -> None:
        self.function = function
        resolved = resolve(function) if isinstance(function, str) else function
        if not callable(resolved):
            raise SweepError(f"{function!r} is not a function")
        self.name = f"{resolved.__module__}.{resolved.__qualname__}"
        self.source = source_of(resolved)
        self.signature = inspect.signature(resolved)

    def check(self, names: list[str]) -> None:
        parameters = list(self.signature.parameters.values())
        if not parameters or parameters[0].kind not in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
        ):
            raise SweepError(f"{self.name} must take the simulator as its first argument")
        try:
            self.signature.bind(None, **dict.fromkeys(names))
        except TypeError as error:
            raise SweepError(f"{self.name} cannot take the parameters {names}: {error}") from None

    def job(self, point: Point) -> FunctionJob:
        return FunctionJob(self.function, self.name, self.source, point)
