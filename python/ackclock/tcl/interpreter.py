"""Runs an ns-2 script in CPython's own Tcl (tkinter.Tcl, no C build): plain
Tcl runs as Tcl, OTcl is otcl.tcl, ns-2's classes are OTcl classes whose
objects have a Python half (registry.py), bridged by ::ackclock:: commands.

Every way a script can fail ends in one line naming the script's line and
command (locate.py); `exit` and Ctrl-C end the run with traces complete.
"""

from __future__ import annotations

import os
import re
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ackclock.errors import ConfigError, UnitError
from ackclock.tcl import nodes, ns2_units, registry
from ackclock.tcl.channels import Channels
from ackclock.tcl.errors import NestedTclError, ScriptExit, TclScriptError
from ackclock.tcl.interp import Interp
from ackclock.tcl.interrupts import InterruptWatch
from ackclock.tcl.locate import Where, clean_message, innermost, locate
from ackclock.tcl.shadow import normalize, tcl_double
from ackclock.tcl.world import World

HERE = Path(__file__).parent

# Errors that are the script's (or its numbers'), reported as its mistake.
SCRIPT_ERRORS = (TclScriptError, ConfigError, UnitError)
EXIT_CODE = "ACKCLOCK EXIT"
# Calls a Python command, which answers {0 result} or {1 message errorinfo
# errorcode}, and returns its result or raises its error.
BRIDGED = "::ackclock::bridged"
BRIDGED_PROC = f"""proc {BRIDGED} {{command args}} {{
    lassign [$command {{*}}$args] failed result info code
    if {{!$failed}} {{
        return $result
    }}
    if {{$info ne ""}} {{
        return -code error -errorinfo $info -errorcode $code $result
    }}
    return -code error -errorcode $code $result
}}"""


class TclRun:
    """One script: the interpreter, its objects and its channels."""

    def __init__(self, seed: int, replication: int = 0) -> None:
        self.tcl = Interp()
        self.channels = Channels(self.tcl)
        self.world = World(self.tcl, seed, self.channels, replication)
        self.channels.on_close = self.world.close_channel
        self.world.run_script = self.run_nested
        self.exit_status: int | None = None
        self.internal: str | None = None
        self.watch = InterruptWatch(self.tcl)
        # the last Tcl error that came back through Python (a failing `$ns at`)
        self.nested: NestedTclError | None = None
        self._install()

    # --- setting up the interpreter ---------------------------------------------

    def _install(self) -> None:
        tcl = self.tcl
        tcl.eval("set tcl_precision 17")  # ns-2 prints doubles with 17 digits
        tcl.eval("namespace eval ::ackclock {}")
        tcl.eval(BRIDGED_PROC)
        self._bridge("create", lambda obj, *args: self.world.create(obj, args) and None)
        self._bridge("destroy", self.world.destroy)
        self._bridge("cmd", self.command)
        self._bridge("has", lambda obj, method: int(self._has(obj, method)))
        self._bridge("live", self.live)
        self._bridge("typed", self.typed)
        self._bridge("check_variable", self.check_variable)
        self._bridge("changing", self.changing)
        self._bridge("bw_parse", lambda text: tcl_double(ns2_units.bandwidth(text, "bw_parse")))
        self._bridge("time_parse", lambda text: tcl_double(ns2_units.seconds(text, "time_parse")))
        self._bridge("no_class", self.no_class)
        self._bridge("simulator", self.simulator)
        self._bridge("exit", self.exit)
        self._bridge("opened", lambda channel, *args: self.channels.record_open(channel, args))
        self._bridge("closing", self.channels.record_close)
        self._bridge("defined", self.defined)
        self._bridge("suggest", self.suggest)
        self._bridge("ns_random", self.ns_random)
        self._bridge("enable_module", nodes.enable_module)
        self._bridge("packet_headers", self.world.headers.command)
        tcl.eval((HERE / "otcl.tcl").read_text())
        tcl.call("::otcl::define_classes", registry.class_definitions())
        tcl.eval((HERE / "ns2.tcl").read_text())
        tcl.eval((HERE / "script.tcl").read_text())
        # ns-2 creates its default generator at start-up and seeds it with 1
        # (here: with the run's seed, 1 unless --seed says otherwise).
        tcl.eval("set defaultRNG [new RNG]")
        self.world.default_rng = self.world.rngs[0]
        self.world.default_rng.cmd_seed(str(self.world.seed))
        self.definitions: dict[str, tuple[str, int]] = {}

    def _bridge(self, name: str, handler: Callable[..., Any]) -> None:
        """::ackclock::NAME, a Tcl command running `handler`. Python errors
        become Tcl errors with their message (tkinter would give an empty
        one), so a script's `catch` sees them as in ns-2."""

        def call(*args: str) -> tuple[Any, ...]:
            if self.exit_status is not None:
                return (1, f"exit {self.exit_status}", "", EXIT_CODE)
            try:
                result = handler(*args)
            except ScriptExit as done:
                return (1, f"exit {done.status}", "", EXIT_CODE)
            except NestedTclError as nested:
                self.nested = nested
                return (1, nested.args[0], nested.info, nested.code)
            except SCRIPT_ERRORS as error:
                return (1, str(error), "", "ACKCLOCK ERROR")
            except KeyboardInterrupt:
                # (The interrupt watch may not have seen the signal yet.)
                self.watch.interrupted = True
                raise
            except Exception as error:  # a bug in ackclock: say so
                self.internal = "".join(traceback.format_exception(error))
                return (1, f"internal error: {type(error).__name__}: {error}", "", "ACKCLOCK BUG")
            return (0, "" if result is None else result)

        self.tcl.command(f"::ackclock::py_{name}", call)
        self.tcl.call(
            "interp", "alias", "", f"::ackclock::{name}", "", BRIDGED, f"::ackclock::py_{name}"
        )

    # --- the bridge ---------------------------------------------------------------

    def command(self, obj: str, method: str, *args: str) -> Any:
        shadow = self.world.shadows.get(obj)
        if shadow is None:
            # An ns-2 object whose init did not reach SplitObject's: create
            # its Python half now, without arguments.
            shadow = self.world.create(obj, ())
        return shadow.command(method, args)

    def _has(self, obj: str, method: str) -> bool:
        shadow = self.world.shadows.get(obj)
        return shadow is not None and shadow.handler(method) is not None

    def live(self, obj: str, var: str, *trace: str) -> None:
        """A read trace on a variable that follows the simulation."""
        shadow = self.world.shadows.get(obj)
        value = None if shadow is None else shadow.live(var)
        if shadow is not None and value is not None:
            shadow.set_var(var, value)

    def typed(self, obj: str, var: str, *trace: str) -> None:
        """A write trace: the value as ns-2 reads it back (10Mb -> 10000000)."""
        shadow = self.world.shadows.get(obj)
        spec = None if shadow is None else shadow.known_variables().get(var)
        if shadow is None or spec is None:
            return
        value = self.tcl.get(f"{shadow.namespace}::{var}")
        if value is not None:
            value = normalize(spec.kind, value, f"{shadow} {var}")
            shadow.set_var(var, value)
            shadow.assigned(var, value)

    def changing(self, obj: str, var: str, new: str) -> None:
        """`$obj set var new` during the run, before the variable changes."""
        shadow = self.world.shadows.get(obj)
        old = None if shadow is None else self.tcl.get(f"{shadow.namespace}::{var}")
        if shadow is not None and old is not None:
            shadow.changing(var, old, new)

    def check_variable(self, obj: str, var: str) -> None:
        shadow = self.world.shadows.get(obj)
        if shadow is not None:
            registry.check_object_variable(
                registry.own_class(shadow), type(shadow), var, str(shadow)
            )

    def no_class(self, cls: str) -> None:
        suggestion = self.suggest(cls)
        raise TclScriptError(f"new {cls}: there is no class {cls}{suggestion}")

    def suggest(self, name: str) -> str:
        """ " (did you mean ...?)" for a command or class that does not exist."""
        import difflib

        known = self.tcl.split(self.tcl.call("info", "commands"))
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.7)
        return f" (did you mean {' or '.join(close)}?)" if close else ""

    def simulator(self) -> str:
        if self.world.simulator is None:
            raise TclScriptError("Simulator instance: no Simulator was created yet")
        return self.world.simulator.name

    def exit(self, status: str = "0") -> None:
        try:
            self.exit_status = int(status)
        except ValueError:
            raise TclScriptError(f'exit {status}: expected an integer but got "{status}"') from None
        raise ScriptExit(self.exit_status)

    def defined(self, name: str) -> None:
        """Remembers where the procedure (or method) `name` was defined."""
        for level in range(1, int(self.tcl.call("info", "frame"))):
            frame = self.tcl.split(self.tcl.call("info", "frame", -level))
            fields = dict(zip(frame[::2], frame[1::2]))
            if "file" in fields and "line" in fields:
                self.definitions[name.lstrip(":")] = (fields["file"], int(fields["line"]))
                return

    def ns_random(self, *seed: str) -> str | int:
        """`ns-random N` seeds ns-2's default generator; `ns-random` draws from it."""
        rng = self.world.default_rng
        assert rng is not None
        if seed:
            rng.cmd_seed(seed[0])
            return seed[0]
        return rng.cmd_next_random()

    def run_nested(self, script: str) -> None:
        """Runs a scheduled script in the global scope; a Tcl error in it
        travels back (with its stack) to the command that runs the simulation."""
        try:
            self.tcl.eval_global(script)
        except NestedTclError:
            if self.exit_status is not None:
                raise ScriptExit(self.exit_status) from None
            raise
        finally:
            self.world.flush_script_channels()

    # --- running ----------------------------------------------------------------

    def run(self, script: Path, args: list[str]) -> int:
        """Runs the script; returns its exit status. Raises TclScriptError (one
        line naming the script line) for what cannot run."""
        tcl = self.tcl
        tcl.set("::argv0", str(script))
        tcl.set("::argv", tcl.call("list", *args))
        tcl.set("::argc", str(len(args)))
        watch = self.watch
        try:
            with watch:
                try:
                    tcl.call("source", str(script))
                    return 0
                except NestedTclError as error:
                    if watch.interrupted:
                        raise KeyboardInterrupt from None
                    if self.exit_status is not None:
                        return self.exit_status
                    raise self._failure(script, error) from None
        finally:
            self.world.finish(tcl_usable=not watch.interrupted)

    def _failure(self, script: Path, error: NestedTclError) -> TclScriptError:
        message = clean_message(str(error))
        if self.internal is not None:
            message = f"internal error in ackclock's Tcl front end (please report it): {message}"
        where = None
        nested = self.nested
        if nested is not None and str(nested) == str(error):
            # the error of a scheduled script: where it failed, else where
            # it was scheduled
            where = locate(nested.info, self.definitions)
            if where is None and nested.site is not None:
                where = Where(
                    *nested.site,
                    innermost(nested.info, self.definitions),
                    "a script scheduled here",
                )
        where = where or locate(error.info, self.definitions) or loose_control(script, message)
        prefix = str(where) if where else f"{script.name}"
        return TclScriptError(f"{prefix}: {message}")


def loose_control(script: Path, message: str) -> Where | None:
    """Tcl reports a `break` or `continue` outside a loop without its line:
    the first line starting with one."""
    keyword = re.match(r'invoked "(break|continue)" outside of a loop', message)
    if keyword is None:
        return None
    for number, line in enumerate(script.read_text(errors="replace").splitlines(), 1):
        if line.strip().split(" ")[:1] == [keyword.group(1)]:
            return Where(str(script), number, line.strip(), None)
    return None


def run_script(
    script: Path, args: list[str], seed: int = 1, replication: int = 0, view: Path | None = None
) -> int:
    """Runs an ns-2 script with `args` as its argv; returns its exit status.
    `replication` k > 0 gives the run independent random streams from `seed`.
    `view`: also write the index `ackclock view` reads there. Raises
    TclScriptError with one line for anything that goes wrong."""
    try:
        run = TclRun(seed, replication)
        if view is not None:
            run.world.view_paths.append(os.fspath(view))
        return run.run(script, args)
    except (TclScriptError, KeyboardInterrupt):
        raise
    except Exception as error:  # a bug in ackclock: still one line
        raise TclScriptError(
            f"{script.name}: internal error in ackclock's Tcl front end (please report it): "
            f"{type(error).__name__}: {error}"
        ) from error
