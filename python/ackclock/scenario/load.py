"""Reading a scenario file and building its simulation through the Python API.

Every problem becomes one `ScenarioError` line: the file, the field path
(`links[1].bandwidth`), what is wrong with the value, and where the line can
be found, the line number.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable

from pydantic import ValidationError

from ackclock import checks, units
from ackclock.errors import (
    ConfigError,
    ParameterError,
    RunInterrupted,
    ScenarioError,
    ScenarioWarning,
)
from ackclock.handles import Link, Node, RadioNic
from ackclock.network_specs import AODV, DSDV, DV, Routing, SessionRouting, StaticRouting
from ackclock.scenario.lines import PathPart, line_of
from ackclock.scenario.schema import (
    AppTable,
    BandwidthChangeTable,
    DynamicsTable,
    FailuresTable,
    LanTable,
    LinkDownTable,
    LinkTable,
    RadioTable,
    ReverseTable,
    RouteTable,
    RoutingTable,
    ScenarioFile,
    SpecTable,
    TcpFlowTable,
    TraceTable,
)
from ackclock.simulator import Simulator
from ackclock.specs import LinkParams
from ackclock.units import Duration

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


class _FieldProblem(Exception):
    """A problem with the value at `path` (before the file name is known)."""

    def __init__(self, path: tuple[PathPart, ...], problem: str) -> None:
        super().__init__(problem)
        self.path = path
        self.problem = problem


def format_path(path: Sequence[PathPart]) -> str:
    """("links", 1, "bandwidth") -> "links[1].bandwidth"."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else part
    return text


@contextmanager
def _at(*path: PathPart, key: dict[str, str] | None = None) -> Iterator[None]:
    """Attributes API errors raised inside the block to the field at `path`;
    `key` maps API parameter names to the file's keys where they differ."""
    try:
        yield
    except ParameterError as error:
        field = (key or {}).get(error.parameter, error.parameter)
        raise _FieldProblem((*path, field), error.problem) from None
    except ConfigError as error:
        raise _FieldProblem(path, str(error)) from None


def _short_repr(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _validation_problem(error: ValidationError, data: Any) -> _FieldProblem:
    """The first pydantic error as a field path (in the file's terms) and a message."""
    detail = error.errors(include_url=False)[0]
    path: list[PathPart] = []
    # pydantic puts the tag of a tagged union ("droptail") into the location,
    # right after the table it tags; walking the data beside it tells keys and
    # list indices from tags (a key may be named like its table's tag: the
    # "tcp" key of an app of type "tcp").
    tagged = False  # whether the tag of the current table was passed
    for part in detail["loc"]:
        if isinstance(part, int) and isinstance(data, list) and part < len(data):
            path.append(part)
            data, tagged = data[part], False
        elif isinstance(data, dict) and not tagged and part == data.get("type"):
            tagged = True
        elif isinstance(data, dict) and part in data:
            path.append(part)
            data, tagged = data[part], False
        elif isinstance(data, dict):
            path.append(part)  # a missing key
            data = None
    kind, context = detail["type"], detail.get("ctx", {})
    if kind == "unknown_key":
        return _FieldProblem((*path, context["key"]), detail["msg"])
    if kind == "bad_type":
        return _FieldProblem((*path, "type"), detail["msg"])
    if kind == "missing":
        return _FieldProblem(tuple(path), "required key is missing")
    if kind == "invalid_value":
        return _FieldProblem(tuple(path), detail["msg"])
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return _FieldProblem(
            tuple(path), f"{_short_repr(detail['input'])} is not valid: expected a table"
        )
    message = detail["msg"][:1].lower() + detail["msg"][1:]
    return _FieldProblem(tuple(path), f"{_short_repr(detail['input'])} is not valid: {message}")


def _scenario_error(path: Path, text: str, problem: _FieldProblem) -> ScenarioError:
    line = line_of(text, problem.path)
    where = f" (line {line})" if line is not None else ""
    return ScenarioError(f"{path}: {format_path(problem.path)}: {problem.problem}{where}")


class Scenario:
    """A validated scenario file, ready to be built into a `Simulator`."""

    def __init__(self, path: Path, text: str, spec: ScenarioFile) -> None:
        self.path = path
        self.text = text
        self.spec = spec

    @property
    def until(self) -> Duration | None:
        """The file's `simulation.until` (None: until no events remain)."""
        return self.spec.simulation.until

    def build(
        self, seed: int | None = None, trace_dir: Path | None = None, trace_anywhere: bool = False
    ) -> Simulator:
        """The simulation the file describes; `seed` overrides the file's seed.
        Trace files go to `trace_dir` (default: the current directory) and
        must stay inside it unless `trace_anywhere`."""
        trace_dir = Path.cwd() if trace_dir is None else trace_dir
        sim = None
        try:
            sim, named = self._build(seed)
            for index, trace in enumerate(self.spec.traces):
                path = _trace_path(self.path, index, trace, trace_dir, trace_anywhere)
                _build_trace(sim, named, index, trace, path)
            return sim
        except _FieldProblem as problem:
            if sim is not None:
                sim.discard_traces()
            raise _scenario_error(self.path, self.text, problem) from None

    def run(
        self,
        seed: int | None = None,
        until: Duration | None = None,
        trace_dir: Path | None = None,
        trace_anywhere: bool = False,
        progress: Callable[[float, int], object] | None = None,
    ) -> Simulator:
        """Builds and runs the simulation to `until` (default: the file's), then
        closes its trace files; see `run_built`."""
        sim = self.build(seed, trace_dir, trace_anywhere)
        return self.run_built(sim, until, progress)

    def run_built(
        self,
        sim: Simulator,
        until: Duration | None = None,
        progress: Callable[[float, int], object] | None = None,
    ) -> Simulator:
        """Runs `sim`, built by `build`, to `until` (default: the file's) and
        closes its trace files. A run that fails leaves no trace file; Ctrl-C
        keeps every record up to then and raises `RunInterrupted`, which holds
        the simulation so far. `progress` is `Simulator.run`'s."""
        until = self.until if until is None else until
        if until is not None:
            self._warn_of_apps_after(units.duration_ps(until, "until"), until)
        try:
            sim.run(until, progress=progress)
        except ConfigError as error:  # e.g. an app whose destination is unreachable
            sim.discard_traces()
            raise ScenarioError(f"{self.path}: {error}") from None
        except KeyboardInterrupt:
            sim.close_traces()
            raise RunInterrupted(sim) from None
        except BaseException:
            sim.discard_traces()
            raise
        sim.close_traces()
        return sim

    def _warn_of_apps_after(self, until_ps: int, until: Duration) -> None:
        for index, app in enumerate(self.spec.apps):
            if app.start is not None and units.duration_ps(app.start, "start") > until_ps:
                line = line_of(self.text, ("apps", index, "start"))
                warnings.warn(
                    f"{self.path}: apps[{index}].start: {app.start!r} is after the end of "
                    f"the run ({until!r}): the app never sends (line {line})",
                    ScenarioWarning,
                    stacklevel=3,
                )

    def _build(self, seed: int | None) -> tuple[Simulator, dict[str, Link]]:
        """The simulation and its links by name."""
        settings = self.spec.simulation.given("until")
        if seed is not None:
            settings["seed"] = seed
        with _at("simulation"):
            sim = Simulator(**settings)
        nodes: dict[str, Node] = {}
        for index, node in enumerate(self.spec.nodes):
            processing = (
                None
                if node.processing is None
                else _spec(node.processing, "nodes", index, "processing")
            )
            with _at("nodes", index):
                nodes[node.name] = sim.node(node.name, processing=processing)
            if node.route_wait is not None:
                with _at("nodes", index, "route_wait"):
                    nodes[node.name].wait_for_routes(
                        node.route_wait.packets, node.route_wait.timeout
                    )
        named: dict[str, Link] = {}
        for index, link in enumerate(self.spec.links):
            _build_link(sim, nodes, named, index, link)
        for index, lan in enumerate(self.spec.lans):
            _build_lan(sim, nodes, index, lan)
        for index, radio in enumerate(self.spec.radios):
            _build_radio(sim, nodes, index, radio)
        for index, move in enumerate(self.spec.moves):
            mover = _node(nodes, move.node, "moves", index, "node")
            with _at("moves", index, key={"destination": "to"}):
                sim.move(mover, move.at, move.to, move.speed)
        if self.spec.routing is not None:
            _build_routing(sim, nodes, self.spec.routing)
        for index, route in enumerate(self.spec.routes):
            _build_route(sim, nodes, named, index, route)
        for index, change in enumerate(self.spec.dynamics):
            _build_dynamics(sim, nodes, named, index, change)
        for index, app in enumerate(self.spec.apps):
            _build_app(sim, nodes, index, app)
        return sim, named


def _build_link(
    sim: Simulator, nodes: dict[str, Node], named: dict[str, Link], index: int, link: LinkTable
) -> None:
    where = ("links", index)
    src, dst = _node(nodes, link.from_, *where, "from"), _node(nodes, link.to, *where, "to")
    if link.name is not None and link.name in named:
        raise _FieldProblem((*where, "name"), f"{link.name!r} is already the name of a link")
    options = link.given("name", "from_", "to", "duplex", "loss", "jitter", "reverse", "cost")
    if link.queue is not None:
        options["queue"] = _spec(link.queue, *where, "queue")
    reverse = link.reverse
    if reverse is not None and not link.duplex:
        raise _FieldProblem((*where, "reverse"), "only a duplex link has a reverse direction")
    if link.duplex:
        overrides = reverse.given("loss", "jitter", "cost") if reverse is not None else {}
        if reverse is not None and reverse.queue is not None:
            overrides["queue"] = _spec(reverse.queue, *where, "reverse", "queue")
        with _at(*where, "reverse"):
            options["reverse"] = LinkParams(**overrides)
        with _at(*where):
            forward = sim.duplex_link(src, dst, **options)
    else:
        with _at(*where):
            forward = sim.simplex_link(src, dst, **options)
    if link.name is not None:
        named[link.name] = forward
    # Error models, jitter and costs belong to one direction, as in ns-2.
    _set_direction(forward, link, where)
    if reverse is not None and forward.reverse is not None:
        _set_direction(forward.reverse, reverse, (*where, "reverse"))
    elif link.cost is not None and forward.reverse is not None:
        with _at(*where):
            forward.reverse.set_cost(link.cost)


def _build_lan(sim: Simulator, nodes: dict[str, Node], index: int, lan: LanTable) -> None:
    where = ("lans", index)
    members = [_node(nodes, name, *where, "nodes") for name in lan.nodes]
    with _at(*where):
        sim.lan(members, **lan.given("nodes"))


def _build_radio(sim: Simulator, nodes: dict[str, Node], index: int, radio: RadioTable) -> None:
    where = ("radios", index)
    options: dict[str, Any] = radio.given("propagation", "phy", "mac", "nodes", "record")
    for key in ("propagation", "phy", "mac"):
        table = getattr(radio, key)
        if table is not None:
            options[key] = _spec(table, *where, key)
    with _at(*where):
        channel = sim.radio(**options)
    for member_index, member in enumerate(radio.nodes):
        at = (*where, "nodes", member_index)
        node = _node(nodes, member.node, *at, "node")
        with _at(*at):
            nic = channel.attach(node, member.position)
        if radio.record:
            nic.record_queue()


def _build_routing(sim: Simulator, nodes: dict[str, Node], routing: RoutingTable) -> None:
    where = ("routing",)
    options = routing.given("protocol", "nodes", "record")
    if routing.protocol != "dv" and options:
        key = sorted(options)[0]
        raise _FieldProblem((*where, key), f"only the dv protocol takes {key!r}")
    spec: Routing
    with _at(*where):
        if routing.protocol == "dv":
            spec = DV(**options)
        else:
            spec = {
                "static": StaticRouting,
                "session": SessionRouting,
                "aodv": AODV,
                "dsdv": DSDV,
            }[routing.protocol]()
    members = None
    if routing.nodes is not None:
        members = [_node(nodes, name, *where, "nodes") for name in routing.nodes]
    with _at(*where):
        sim.routing(spec, members)
    if routing.record:
        sim.record_routes()


def _build_route(
    sim: Simulator, nodes: dict[str, Node], named: dict[str, Link], index: int, route: RouteTable
) -> None:
    where = ("routes", index)
    node, dst = _node(nodes, route.node, *where, "node"), _node(nodes, route.to, *where, "to")
    if (route.via is None) == (route.link is None):
        raise _FieldProblem(where, "give either via (the next node) or link (a link's name)")
    if route.link is not None:
        via = _named_link(named, route.link, *where, "link")
    else:
        neighbour = _node(nodes, route.via or "", *where, "via")
        with _at(*where, "via"):
            via = sim.link(node, neighbour)
    with _at(*where):
        sim.route(node, dst, via)


def _build_dynamics(
    sim: Simulator,
    nodes: dict[str, Node],
    named: dict[str, Link],
    index: int,
    change: DynamicsTable,
) -> None:
    where = ("dynamics", index)
    if isinstance(change.link, str):
        a: Node | Link = _named_link(named, change.link, *where, "link")
        b = None
    elif len(change.link) == 2:
        a, b = (_node(nodes, name, *where, "link") for name in change.link)
    else:
        raise _FieldProblem((*where, "link"), f"{change.link!r} is not a link name or [a, b]")
    with _at(*where):
        if isinstance(change, FailuresTable):
            sim.link_failures(a, b, failures=_spec(change, *where))
        elif isinstance(change, BandwidthChangeTable):
            links = [a] if b is None else sim.links_between(a, b)  # type: ignore[arg-type]
            for link in links:
                link.set_bandwidth(change.bandwidth, change.at)  # type: ignore[union-attr]
        elif isinstance(change, LinkDownTable):
            sim.link_down(a, b, change.at)
        else:
            sim.link_up(a, b, change.at)


def _build_app(sim: Simulator, nodes: dict[str, Node], index: int, app: AppTable) -> None:
    if isinstance(app, TcpFlowTable):
        _build_tcp(sim, nodes, index, app)
        return
    where = ("apps", index)
    options = app.given("type", "from_", "to")
    if isinstance(app.packet_size, SpecTable):
        options["packet_size"] = _spec(app.packet_size, *where, "packet_size")
    src, dst = _node(nodes, app.from_, *where, "from"), _node(nodes, app.to, *where, "to")
    with _at(*where):
        getattr(sim, app.type)(src, dst, **options)  # sim.cbr, sim.poisson or sim.on_off


def _build_tcp(sim: Simulator, nodes: dict[str, Node], index: int, app: TcpFlowTable) -> None:
    where = ("apps", index)
    options = app.given("type", "from_", "to", "app", "tcp", "server_tcp")
    for key in ("app", "tcp", "server_tcp"):
        table = getattr(app, key)
        if table is not None:
            options[key] = _spec(table, *where, key)
    src, dst = _node(nodes, app.from_, *where, "from"), _node(nodes, app.to, *where, "to")
    with _at(*where):
        sim.tcp(src, dst, **options)


def _trace_path(
    scenario: Path, index: int, trace: TraceTable, trace_dir: Path, anywhere: bool
) -> Path:
    """Where a trace goes, checked: a file name, inside `trace_dir` unless
    `anywhere`, never the scenario file itself; its directory is created."""
    where = ("traces", index)
    with _at(*where, key={"path": "file"}):
        name = checks.file_name(trace.file, "path")
    path = trace_dir / name
    if not anywhere and not path.resolve().is_relative_to(trace_dir.resolve()):
        raise _FieldProblem(
            (*where, "file"),
            f"{name!r} is outside the output directory '{trace_dir}' "
            "(ackclock run --trace-anywhere allows it)",
        )
    if path.resolve() == scenario.resolve():
        raise _FieldProblem((*where, "file"), f"{name!r} is the scenario file itself")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _FieldProblem(
            (*where, "file"), f"cannot create the directory of {name!r}: {error.strerror}"
        ) from None
    return path


def _build_trace(
    sim: Simulator, named: dict[str, Link], index: int, trace: TraceTable, path: Path
) -> None:
    where = ("traces", index)
    nodes = {node.name: node for node in sim.nodes}
    node = None if trace.node is None else _node(nodes, trace.node, *where, "node")
    link = _trace_link(sim, nodes, named, trace.link, (*where, "link"), "a link name or [from, to]")
    interface = _trace_link(
        sim, nodes, None, trace.interface, (*where, "interface"), "[node, peer]"
    )
    captured: Link | RadioNic | None = interface
    if trace.radio is not None:
        if trace.type != "pcap" or interface is not None:
            why = (
                "only a pcap trace captures a radio NIC"
                if trace.type != "pcap"
                else "give one of interface and radio"
            )
            raise _FieldProblem((*where, "radio"), why)
        with _at(*where, key={"node": "radio"}):
            captured = sim.radio_nic(_node(nodes, trace.radio, *where, "radio"))
    if trace.type in ("ns2", "nam"):
        for key, value in (("node", node), ("interface", interface)):
            if value is not None:
                raise _FieldProblem(
                    (*where, key), f"an {trace.type} trace covers links, not a {key}"
                )
    if trace.type == "nam" and link is not None:
        raise _FieldProblem((*where, "link"), "a nam trace covers the whole network")
    try:
        with _at(*where, key={"path": "file"}):
            if trace.type == "ns2" and link is not None:
                sim.trace_queue(link.src, link.dst, path)
            elif trace.type == "ns2":
                sim.trace_all(path, variables=trace.variables is not False)
            elif trace.type == "nam":
                sim.trace_nam(path)
            elif trace.type == "tcpdump":
                sim.tcpdump(path, node=node, link=link, interface=interface)
            else:
                snaplen = trace.snaplen or 65535
                sim.pcap(path, node=node, link=link, snaplen=snaplen, interface=captured)
    except OSError as error:
        raise _FieldProblem(
            (*where, "file"), f"cannot write {trace.file!r}: {error.strerror or error}"
        ) from None


def _trace_link(
    sim: Simulator,
    nodes: dict[str, Node],
    named: dict[str, Link] | None,
    names: str | list[str] | None,
    path: tuple[PathPart, ...],
    shape: str,
) -> Link | None:
    """The link direction a trace's `link` or `interface` gives: two node
    names, or a link's name where `named` links are allowed."""
    if names is None:
        return None
    if isinstance(names, str) and named is not None:
        return _named_link(named, names, *path)
    if isinstance(names, str) or len(names) != 2:
        raise _FieldProblem(path, f"{names!r} is not {shape}")
    ends = [_node(nodes, name, *path) for name in names]
    with _at(*path):
        return sim.link(ends[0], ends[1])


def _set_direction(link: Link, table: LinkTable | ReverseTable, path: tuple[PathPart, ...]) -> None:
    if table.loss is not None:
        link.set_loss(_spec(table.loss, *path, "loss"))
    if table.jitter is not None:
        link.set_jitter(_spec(table.jitter, *path, "jitter"))
    if table.cost is not None:
        with _at(*path):
            link.set_cost(table.cost)


def _named_link(named: dict[str, Link], name: str, *path: PathPart) -> Link:
    if name not in named:
        known = f"links are {', '.join(named)}" if named else "no link has a name"
        raise _FieldProblem(path, f"unknown link {name!r} ({known})")
    return named[name]


def _spec(table: SpecTable, *path: PathPart) -> Any:
    with _at(*path):
        return table.to_spec()


def _node(nodes: dict[str, Node], name: str, *path: PathPart) -> Node:
    if name not in nodes:
        known = f"nodes are {', '.join(nodes)}" if nodes else "no nodes are defined"
        raise _FieldProblem(path, f"unknown node {name!r} ({known})")
    return nodes[name]


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Reads and validates a scenario file; raises `ScenarioError` (one line)."""
    path = Path(path)
    return scenario_from_data(path, *read_toml(path))


def read_toml(path: Path) -> tuple[str, dict[str, Any]]:
    """The text of a TOML file and its data; raises `ScenarioError` (one line)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not a UTF-8 text file") from None
    except OSError as error:
        raise ScenarioError(f"{path}: cannot read it: {error.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(f"{path}: invalid TOML: {error}") from None
    except RecursionError:
        raise ScenarioError(f"{path}: tables or arrays are nested too deeply") from None
    return text, data


def scenario_from_data(path: Path, text: str, data: dict[str, Any]) -> Scenario:
    """Validates the TOML `data` of the file `path` (which a sweep may have
    changed); errors name the field and its line in `text`."""
    try:
        spec = ScenarioFile.model_validate(data)
    except ValidationError as error:
        raise _scenario_error(path, text, _validation_problem(error, data)) from None
    except RecursionError:
        raise ScenarioError(f"{path}: tables or arrays are nested too deeply") from None
    if not spec.apps:
        raise ScenarioError(f"{path}: there are no [[apps]]: nothing would happen")
    return Scenario(path, text, spec)
