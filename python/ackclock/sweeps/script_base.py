"""An ns-2 script as the base of a sweep, run as `ackclock tcl` runs it.

Parameters reach the script through its argv: `{name}` in an argument is
replaced by the parameter's value. Each run is its own process
(`python -m ackclock tcl --seed S --replication R SCRIPT ARGS...`) in a fresh
directory, so that the files the script writes and its `exit` stay its own.

Result columns come from what the script prints on standard output:
* every `name=number` printed becomes a column `name` (the last one printed
  wins), except a name that is a parameter: that is the script echoing its
  input;
* `columns` names the whitespace-separated fields of the last line that has
  exactly that many fields (`-` skips a field): basic2.tcl's final line
  "0.000000 0.000000 14863 14771 1.000000 ..." with columns
  `-,-,recv0,recv1,...`.
Fields that read as numbers are stored as numbers, others as text.

An `analysis` ("module:function", importable in every worker) reads the
files the script wrote: `analysis(workdir)` returns further results as a
function base's do (numbers and strings are columns, DataFrames time
series), so that a study keeps what it needs from a trace and not the trace.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ackclock.errors import SweepError
from ackclock.sweeps.function_base import function_results, resolve, source_of
from ackclock.sweeps.grid import Point, Value, scalar
from ackclock.sweeps.runs import Scalar

SKIP = "-"
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_NAMED_NUMBER = re.compile(r"(?<![\w.])([A-Za-z_]\w*)=(\S+)")
_INTERRUPTED = 130  # what `ackclock tcl` exits with on Ctrl-C


def _text(value: Value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def parse_output(
    stdout: str, columns: Sequence[str] | None, parameters: Sequence[str]
) -> dict[str, Scalar]:
    """The result columns of a script's standard output (see the module doc)."""
    results: dict[str, Scalar] = {}
    for name, text in _NAMED_NUMBER.findall(stdout):
        value = scalar(text)
        if name not in parameters and not isinstance(value, (str, bool)):
            results[name] = value
    if columns:
        lines = [line.split() for line in stdout.splitlines()]
        matching = [fields for fields in lines if len(fields) == len(columns)]
        if not matching:
            raise ValueError(
                f"no line of the script's output has {len(columns)} fields to name "
                f"{','.join(columns)}"
            )
        for name, text in zip(columns, matching[-1]):
            if name != SKIP:
                results[name] = scalar(text)
    return results


@dataclass(frozen=True)
class ScriptJob:
    script: str
    text: str
    argv: tuple[str, ...]
    columns: tuple[str, ...] | None
    parameters: Point
    analysis: str | None = None
    analysis_source: str = ""

    def identity(self) -> dict[str, Any]:
        identity = {
            "script": self.text,
            "argv": list(self.argv),
            "columns": None if self.columns is None else list(self.columns),
            "parameters": self.parameters,
        }
        if self.analysis is not None:  # absent otherwise, so that older stores stay valid
            identity["analysis"] = [self.analysis, self.analysis_source]
        return identity

    def __call__(
        self, seed: int, replication: int, workdir: Path
    ) -> tuple[dict[str, Scalar], dict[str, Any]]:
        command = [sys.executable, "-m", "ackclock", "tcl", "--seed", str(seed)]
        command += ["--replication", str(replication), self.script, *self.argv]
        done = subprocess.run(command, cwd=workdir, capture_output=True, text=True)
        if done.returncode == _INTERRUPTED:
            raise KeyboardInterrupt
        if done.returncode != 0:
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            raise RuntimeError(lines[-1] if lines else f"the script exited with {done.returncode}")
        results = parse_output(done.stdout, self.columns, list(self.parameters))
        if self.analysis is None:
            return results, {}
        scalars, series = function_results(resolve(self.analysis)(workdir))
        return {**results, **scalars}, series


class ScriptBase:
    """An ns-2 script with its argv, `{name}` standing for parameter `name`,
    and optionally an analysis of the files it writes ("module:function")."""

    kind = "script"
    default_seed = 1

    def __init__(
        self,
        script: str | Path,
        argv: Sequence[str] = (),
        columns: Sequence[str] | None = None,
        analysis: str | None = None,
    ) -> None:
        self.script = Path(script).resolve()
        try:
            self.text = self.script.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise SweepError(f"{script}: no such file") from None
        except (OSError, UnicodeDecodeError) as error:
            raise SweepError(f"{script}: cannot read the script ({error})") from None
        self.argv = tuple(str(argument) for argument in argv)
        self.columns = None if columns is None else tuple(columns)
        if self.columns is not None and not self.columns:
            raise SweepError("columns: give at least one name")
        self.analysis = analysis
        self.analysis_source = "" if analysis is None else source_of(resolve(analysis))

    def check(self, names: list[str]) -> None:
        used = {name for argument in self.argv for name in _PLACEHOLDER.findall(argument)}
        for name in sorted(used - set(names)):
            raise SweepError(f"the script's argv uses {{{name}}}, which is not a parameter")
        for name in names:
            if name not in used:
                raise SweepError(
                    f"parameter {name!r} does not reach the script: put {{{name}}} in its argv"
                )
        for name in self.columns or ():
            if name in names:
                raise SweepError(f"column {name!r} is also a parameter: name it differently")

    def job(self, point: Point) -> ScriptJob:
        argv = tuple(
            _PLACEHOLDER.sub(lambda match: _text(point[match.group(1)]), argument)
            for argument in self.argv
        )
        return ScriptJob(
            str(self.script),
            self.text,
            argv,
            self.columns,
            point,
            self.analysis,
            self.analysis_source,
        )
