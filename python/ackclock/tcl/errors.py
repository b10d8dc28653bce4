"""How a script stops: a mistake in it, or its own `exit`."""

from __future__ import annotations


class TclScriptError(Exception):
    """Something in the script that ackclock cannot run; the message names
    the command or class and what is supported instead."""


class ScriptExit(Exception):
    """The script called `exit`: unwinds the Tcl stack with its status."""

    def __init__(self, status: int) -> None:
        super().__init__(f"exit {status}")
        self.status = status
