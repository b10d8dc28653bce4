"""Runs an ns-2 script in CPython's own Tcl interpreter (tkinter.Tcl, no C
build needed): plain Tcl runs as Tcl; `new`, the classes and the objects are
commands implemented by `World`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ackclock.errors import ConfigError, UnitError
from ackclock.tcl import classes
from ackclock.tcl.errors import ScriptExit, TclScriptError
from ackclock.tcl.world import RngObject, TclObject, World

try:
    import tkinter
except ImportError:  # pragma: no cover - depends on how Python was built
    tkinter = None  # type: ignore[assignment]


class TclRun:
    """One script: the interpreter, its objects, and the first failure."""

    def __init__(self, seed: int, replication: int = 0) -> None:
        if tkinter is None:
            raise TclScriptError(
                "this Python has no Tcl (tkinter); install it, e.g. apt-get install python3-tk"
            )
        self.tcl = tkinter.Tcl()
        self.paths: dict[str, str] = {}
        self.failure: BaseException | None = None
        self.world = World(
            seed,
            eval_global=lambda script: self.tcl.call("uplevel", "#0", script),
            channel_path=self.channel_path,
            register=self.register,
            split_list=lambda text: list(self.tcl.splitlist(text)),
            replication=replication,
        )
        self._install()

    def _install(self) -> None:
        self.command("new", self.new)
        self.command("delete", lambda name: None)
        self.command("exit", self.exit)
        self.command("ns-random", self.ns_random)
        self.tcl.eval("namespace eval ::ackclock {}")
        self.tcl.eval("rename open ::ackclock::open")
        self.command("open", self.open)
        for name in classes.names():
            self.command(name, lambda *args, cls=name: self.class_command(cls, args))
        # ns-2 creates its default generator at start-up and seeds it with 1
        # (here: with the run's seed, 1 unless --seed says otherwise).
        rng = self.world.new("RNG")
        assert isinstance(rng, RngObject)
        self.world.default_rng = rng
        rng.cmd_seed(str(self.world.seed))
        self.tcl.setvar("defaultRNG", rng.name)

    def command(self, name: str, handler: Any) -> None:
        """A Tcl command whose Python errors are remembered for the report."""

        def run(*args: str) -> Any:
            try:
                result = handler(*args)
            except BaseException as error:
                if self.failure is None:
                    self.failure = error
                raise
            return "" if result is None else result

        self.tcl.createcommand(name, run)

    def register(self, obj: TclObject) -> None:
        self.command(obj.name, lambda method, *args: obj.command(method, args))

    def new(self, cls: str, *args: str) -> str:
        return self.world.new(cls).name

    def class_command(self, cls: str, args: tuple[str, ...]) -> str:
        if len(args) in (2, 3) and args[0] == "set":
            if len(args) == 3:
                self.world.class_vars.set(cls, args[1], args[2])
                return args[2]
            return self.world.class_vars.require(cls, args[1])
        raise TclScriptError(f"{cls} {' '.join(args[:1])}: classes support only 'set'")

    def ns_random(self, *seed: str) -> str:
        """`ns-random N` seeds ns-2's default generator; `ns-random` draws from it."""
        rng = self.world.default_rng
        assert rng is not None
        if seed:
            rng.cmd_seed(seed[0])
            return seed[0]
        return rng.cmd_next_random()

    def exit(self, status: str = "0") -> None:
        raise ScriptExit(int(status))

    def open(self, *args: str) -> str:
        channel = str(self.tcl.call("::ackclock::open", *args))
        if args and not args[0].startswith("|"):
            self.paths[channel] = os.path.abspath(args[0])
        return channel

    def channel_path(self, channel: str) -> str:
        if channel not in self.paths:
            raise TclScriptError(f"{channel!r} is not a file the script opened with 'open'")
        return self.paths[channel]

    # --- running --------------------------------------------------------------

    def run(self, script: Path, args: list[str]) -> int:
        """Runs the script; returns its exit status. Raises TclScriptError (with
        the script line) for what cannot run."""
        self.tcl.setvar("argv0", str(script))
        self.tcl.setvar("argv", self.tcl.call("list", *args))
        self.tcl.setvar("argc", str(len(args)))
        try:
            self.tcl.call("source", str(script))
            status = 0
        except tkinter.TclError as error:
            status = self._status_or_raise(error, script)
        finally:
            self._close()
        return status

    def _status_or_raise(self, error: Exception, script: Path) -> int:
        failure = self.failure
        if isinstance(failure, ScriptExit):
            return failure.status
        if isinstance(failure, TclScriptError | ConfigError | UnitError):
            message = str(failure)
        elif failure is not None:
            raise failure
        else:
            message = str(error)
        raise TclScriptError(f"{script.name}:{self._where()}: {message}") from None

    def _where(self) -> str:
        """The script line, and the command and procedure, from errorInfo."""
        info = str(self.tcl.getvar("errorInfo"))
        lines = re.findall(r'\(file "[^"]*" line (\d+)\)', info)
        command = re.search(r'while executing\n"([^"\n]*)', info)
        procedure = re.findall(r'\(procedure "([^"]+)" line (\d+)\)', info)
        where = lines[-1] if lines else "?"
        if procedure:
            where += f" (in procedure {procedure[0][0]!r}, its line {procedure[0][1]})"
        if command:
            where += f': "{command.group(1)}"'
        return where

    def _close(self) -> None:
        if self.world.sim is not None:
            self.world.sim.close_traces()
        self.tcl.eval("flush stdout; flush stderr")


def run_script(
    script: Path, args: list[str], seed: int = 1, replication: int = 0, view: Path | None = None
) -> int:
    """Runs an ns-2 script with `args` as its argv; returns its exit status.
    `replication` k > 0 gives the run independent random streams from `seed`.
    `view`: also write the index `ackclock view` reads there."""
    run = TclRun(seed, replication)
    if view is not None:
        run.world.view_paths.append(os.fspath(view))
    return run.run(script, args)
