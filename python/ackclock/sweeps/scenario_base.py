"""A scenario file (TOML) as the base of a sweep: each parameter is a field
path into the file (`links[2].bandwidth`, `apps[0].tcp.cc`,
`simulation.until`) whose value the point replaces.

Results are every scalar of the run's results, flattened: `sim_time_s`,
`events`, `link.A->R.utilization`, `flow.tcp0.goodput_bps`, ...; the window
variables of TCP flows with `record = true` are time series `flow.NAME`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ackclock.errors import ScenarioError, SweepError
from ackclock.results import RunResult
from ackclock.scenario.load import read_toml, scenario_from_data
from ackclock.sweeps.grid import Point, Value
from ackclock.sweeps.runs import Scalar
from ackclock.units import Duration

_PART = re.compile(r"([A-Za-z_][\w-]*)|\[(\d+)\]")
_PATH = re.compile(r"[A-Za-z_][\w-]*(\[\d+\])*(\.[A-Za-z_][\w-]*(\[\d+\])*)*")
# Set by the sweep for each run, not by parameters.
_RESERVED = ("simulation.seed", "simulation.replication")


def parse_path(name: str) -> list[str | int]:
    """ "links[2].bandwidth" -> ["links", 2, "bandwidth"]."""
    if not _PATH.fullmatch(name):
        raise SweepError(f"{name!r} is not a field path of a scenario file (e.g. links[0].delay)")
    return [key if key else int(index) for key, index in _PART.findall(name)]


def set_field(data: dict[str, Any], name: str, value: Value) -> None:
    """Sets the field at path `name` to `value`, creating missing tables; a
    list index must exist."""
    parts = parse_path(name)
    node: Any = data
    for depth, (part, following) in enumerate(zip(parts, [*parts[1:], None])):
        where = name if following is None else _prefix(parts[: depth + 1])
        if isinstance(part, int):
            if not isinstance(node, list) or part >= len(node):
                count = len(node) if isinstance(node, list) else 0
                raise SweepError(f"{name}: {where} does not exist (the file has {count})")
        elif not isinstance(node, dict):
            raise SweepError(f"{name}: {_prefix(parts[:depth])} is not a table")
        if following is None:
            node[part] = value
        else:
            if isinstance(part, str) and part not in node:
                node[part] = {}
            node = node[part]


def _prefix(parts: list[str | int]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else part
    return text


def flatten(result: RunResult) -> dict[str, Scalar]:
    """Every scalar of a run's results under a dotted name (a flow's drops by
    link are `flow.NAME.link_drops.FROM->TO`)."""
    flat: dict[str, Scalar] = {"sim_time_s": result["sim_time_s"], "events": result["events"]}
    for link in result["links"]:
        _put(flat, f"link.{link['from']}->{link['to']}", link, ("from", "to"))
    for flow in result["flows"]:
        _put(flat, f"flow.{flow['id']}", flow, ("id", "src", "dst", "kind"))
    return flat


def _put(
    flat: dict[str, Scalar], prefix: str, values: Mapping[str, Any], skip: tuple[str, ...]
) -> None:
    for key, value in values.items():
        if isinstance(value, Mapping):
            _put(flat, f"{prefix}.{key}", value, ())
        elif key not in skip:
            flat[f"{prefix}.{key}"] = value


@dataclass(frozen=True)
class ScenarioJob:
    path: str
    text: str
    data: dict[str, Any]
    parameters: Point

    def identity(self) -> dict[str, Any]:
        return {"scenario": self.data, "parameters": self.parameters}

    def __call__(
        self, seed: int, replication: int, workdir: Path
    ) -> tuple[dict[str, Scalar], dict[str, Any]]:
        import pandas as pd

        from ackclock.handles import TcpFlow

        data = copy.deepcopy(self.data)
        data.setdefault("simulation", {}).update(seed=seed, replication=replication)
        sim = scenario_from_data(Path(self.path), self.text, data).run(trace_dir=workdir)
        series = {
            f"flow.{flow.name}": pd.DataFrame(
                flow.series_rows(), columns=["time_s", "variable", "value"]
            )
            for flow in sim.flows
            if isinstance(flow, TcpFlow) and flow.record
        }
        return flatten(sim.results()), series


class ScenarioBase:
    """A scenario file whose fields the parameters set."""

    kind = "scenario"

    def __init__(self, path: str | Path, until: Duration | None = None) -> None:
        """`until` replaces the file's `simulation.until`."""
        self.path = Path(path)
        try:
            self.text, self.data = read_toml(self.path)
            if until is not None:
                self.data.setdefault("simulation", {})["until"] = until
            scenario_from_data(self.path, self.text, self.data)
        except ScenarioError as error:
            raise SweepError(str(error)) from None
        self.default_seed = int(self.data.get("simulation", {}).get("seed", 1))

    def check(self, names: list[str]) -> None:
        for name in names:
            parse_path(name)
            if name in _RESERVED:
                raise SweepError(f"{name} is set by the sweep: use its seed and replications")

    def job(self, point: Point) -> ScenarioJob:
        data = copy.deepcopy(self.data)
        for name, value in point.items():
            set_field(data, name, value)
        try:
            scenario_from_data(self.path, self.text, data)
        except ScenarioError as error:
            setting = ", ".join(f"{name}={value!r}" for name, value in point.items())
            raise SweepError(f"with {setting}: {error}") from None
        data.get("simulation", {}).pop("seed", None)
        data.get("simulation", {}).pop("replication", None)
        return ScenarioJob(str(self.path), self.text, data, point)
