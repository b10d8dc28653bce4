"""How a script stops: a mistake in it, its own `exit`, or a Tcl error that
passed through Python on its way out."""

from __future__ import annotations


class TclScriptError(Exception):
    """Something in the script that ackclock cannot run; the message names
    the command or class and what is supported instead."""


class ScriptExit(Exception):
    """The script called `exit`: unwinds through Python with its status."""

    def __init__(self, status: int) -> None:
        super().__init__(f"exit {status}")
        self.status = status


class NestedTclError(Exception):
    """A Tcl error in a script Python ran (a `$ns at` script), carried back
    to the Tcl command that started the run with its Tcl stack."""

    def __init__(self, message: str, info: str, code: str) -> None:
        super().__init__(message)
        self.info = info
        self.code = code
        # (file, line) where the failing script was scheduled, if known
        self.site: tuple[str, int] | None = None
