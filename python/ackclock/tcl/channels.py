"""The files a script opens, as ackclock's traces write into them.

ns-2 writes trace records into the script's Tcl channel, between the
script's own `puts` lines. ackclock's core writes traces itself, into the
same file opened for appending: the script's channel is flushed before the
core writes and the core's records are flushed before the script runs
again, so both keep their order. A channel opened only for reading is
refused; closing a channel ends the traces written to it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.interp import Interp

# What ns-2 scripts name as trace channels besides their own files.
STANDARD = {"stdout": "/dev/stdout", "stderr": "/dev/stderr"}


@dataclass
class Opened:
    path: str
    writable: bool


class Channels:
    def __init__(self, tcl: Interp) -> None:
        self.tcl = tcl
        self.opened: dict[str, Opened] = {}
        # called with a channel the script is about to close
        self.on_close: Callable[[str], None] = lambda channel: None

    def record_open(self, channel: str, args: tuple[str, ...]) -> None:
        """`open NAME ?ACCESS? ?PERMISSIONS?` returned `channel`."""
        if not args or args[0].startswith("|"):
            return
        self.opened[channel] = Opened(os.path.abspath(args[0]), _writable(args[1:2]))

    def record_close(self, channel: str) -> None:
        self.on_close(channel)
        self.opened.pop(channel, None)

    def require_writable(self, channel: str) -> str:
        """The path of a channel the script opened for writing."""
        if channel in STANDARD:
            return STANDARD[channel]
        opened = self.opened.get(channel)
        if opened is None:
            raise TclScriptError(
                f"{channel!r} is not a file the script opened with 'open' "
                "(traces go to a file opened for writing, or stdout)"
            )
        if not opened.writable:
            raise TclScriptError(
                f"{channel!r} ({opened.path}) was opened for reading only: "
                "open it with 'w' or 'a' to write a trace into it"
            )
        return opened.path

    def flush(self, channels: list[str]) -> None:
        """Writes what the script put into these channels so far."""
        for channel in channels:
            if channel in self.opened or channel in STANDARD:
                self.tcl.call("flush", channel)

    def flush_all(self, tcl_usable: bool) -> None:
        """Flushes every channel of the script and the standard ones; after
        an interrupt (which leaves Tcl unable to evaluate) through Tcl's C
        library."""
        names = list(self.opened) + ["stdout", "stderr"]
        for channel in names:
            if tcl_usable:
                try:
                    self.tcl.call("flush", channel)
                except Exception:  # closed, or opened for reading only
                    continue
            else:
                flush_channel(self.tcl, channel)


def flush_channel(tcl: Interp, channel: str) -> None:
    """Tcl_Flush(Tcl_GetChannel(interp, channel)), without evaluating Tcl."""
    import ctypes

    pointer = ctypes.c_void_p
    get = tcl.c_function("Tcl_GetChannel", [pointer, ctypes.c_char_p, pointer], pointer)
    handle = get(tcl.address(), channel.encode(), None)
    if handle:
        tcl.c_function("Tcl_Flush", [pointer], ctypes.c_int)(handle)


def _writable(access: tuple[str, ...]) -> bool:
    if not access:
        return False  # "r" by default
    mode = access[0]
    if mode[:1] in ("w", "a") or "+" in mode:
        return True
    return any(flag in mode.split() for flag in ("WRONLY", "RDWR"))
