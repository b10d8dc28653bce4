"""The viewer's index of a trace, and how each kind of input gets one.

An index is written by the Rust core (`_native.index_nam` from nam text,
`Simulator.trace_view` during a run); its layout is in
crates/ackclock-trace/src/view/mod.rs. This module finds or makes the index
for what the user named: a nam trace, a scenario (.toml), an ns-2 script
(.tcl, run with its arguments) or a results directory holding a nam trace.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ackclock import __version__ as version
from ackclock import _native
from ackclock.errors import ConfigError
from ackclock.view import cache

_MAGIC = b"ACKVIEW1"
_END_MAGIC = b"ACKVEND1"
FORMAT_VERSION = 1


class ViewIndex:
    """An index file: its JSON header and byte ranges of its chunks."""

    def __init__(self, path: Path, title: str) -> None:
        self.path = path
        self.title = title
        self.size = path.stat().st_size
        with path.open("rb") as f:
            head = f.read(len(_MAGIC))
            f.seek(max(0, self.size - 24))
            trailer = f.read(24)
            if head != _MAGIC or len(trailer) < 24 or trailer[16:] != _END_MAGIC:
                raise ConfigError(f"{path}: not a complete ackclock view index")
            offset = int.from_bytes(trailer[:8], "little")
            length = int.from_bytes(trailer[8:16], "little")
            f.seek(offset)
            self.header: dict[str, Any] = json.loads(f.read(length))
        if self.header.get("format") != FORMAT_VERSION:
            raise ConfigError(
                f"{path}: index format {self.header.get('format')} is not {FORMAT_VERSION}"
            )

    def read(self, offset: int, length: int) -> bytes:
        """Bytes [offset, offset + length) of the file, checked to lie within it."""
        if offset < 0 or length < 0 or offset + length > self.size:
            raise ValueError(f"range {offset}+{length} is outside the index ({self.size} bytes)")
        with self.path.open("rb") as f:
            f.seek(offset)
            return f.read(length)


def index_for(
    source: Path, args: list[str] | None = None, seed: int | None = None, fresh: bool = False
) -> ViewIndex:
    """The index of `source` (made now unless cached and `fresh` is false).
    `seed` overrides a scenario's; a script runs with it (default 1)."""
    if not source.exists():
        raise ConfigError(f"{source}: no such file or directory")
    if source.is_dir():
        return index_for(_trace_in(source), fresh=fresh)
    if args and source.suffix != ".tcl":
        raise ConfigError(f"{source}: arguments ({' '.join(args)}) are for ns-2 scripts only")
    if source.suffix == ".ackview":
        return ViewIndex(source, source.name)
    if source.suffix == ".toml":
        key: tuple[object, ...] = ("toml", source.read_bytes(), seed)
        make = _scenario_maker(source, seed)
    elif source.suffix == ".tcl":
        key = ("tcl", source.resolve(), source.read_bytes(), tuple(args or ()), seed)
        make = _script_maker(source, list(args or ()), seed)
    else:
        key = ("nam", cache.file_key(source))
        make = _nam_maker(source)
    path = cache.cached_path(source.name, version, FORMAT_VERSION, *key)
    title = " ".join([source.name, *(args or ())])
    if fresh or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        make(path)
        cache.prune(keep=path)
    else:
        cache.touch(path)
    return ViewIndex(path, title)


def _trace_in(directory: Path) -> Path:
    traces = sorted(directory.glob("*.nam"))
    if len(traces) == 1:
        return traces[0]
    if not traces:
        raise ConfigError(
            f"{directory}: no nam trace (*.nam) in this directory; a scenario writes one "
            'with [[traces]] type = "nam"'
        )
    names = ", ".join(p.name for p in traces)
    raise ConfigError(f"{directory}: several nam traces ({names}); name the one to view")


def _nam_maker(source: Path) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        size_mb = source.stat().st_size / 1e6
        if size_mb > 100:
            print(f"indexing {source} ({size_mb:.0f} MB), once", file=sys.stderr)
        _native.index_nam(str(source), str(path))

    return make


def _scenario_maker(source: Path, seed: int | None) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        from ackclock.scenario import load_scenario

        scenario = load_scenario(source)
        # The scenario's own trace files are not what the user asked for here.
        with tempfile.TemporaryDirectory() as scratch:
            sim = scenario.build(seed, trace_dir=Path(scratch))
            sim.trace_view(path)
            sim.run(scenario.until)
            sim.close_traces()

    return make


def _script_maker(source: Path, args: list[str], seed: int | None) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        from ackclock.tcl import run_script

        status = run_script(source, args, 1 if seed is None else seed, view=path)
        if not path.exists():
            raise ConfigError(f"{source}: the script exited ({status}) before running a simulation")

    return make
