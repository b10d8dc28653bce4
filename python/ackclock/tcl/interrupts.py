"""Ctrl-C during a script, even inside a Tcl loop that never returns to
Python (`$ns at 0.5 "while 1 {}"`).

Python notes a signal in C and acts on it only when its own code runs next,
which a Tcl loop never lets happen. So while a script runs, the signal also
wakes a thread (through Python's wakeup fd) that cancels the Tcl evaluation
with Tcl_CancelEval (documented as safe from any thread); TCL_CANCEL_UNWIND
makes the cancellation pass through the script's own `catch`. Once back in
Python, KeyboardInterrupt is raised as usual. A cancelled interpreter stays
unusable, so the caller finishes without evaluating Tcl (`interrupted`).
"""

from __future__ import annotations

import os
import signal
import threading
from types import TracebackType

from ackclock.tcl.interp import Interp

TCL_CANCEL_UNWIND = 0x100000


class InterruptWatch:
    def __init__(self, tcl: Interp) -> None:
        self.tcl = tcl
        self.interrupted = False
        self._pipe: tuple[int, int] | None = None
        self._previous_fd = -1
        self._thread: threading.Thread | None = None

    def __enter__(self) -> InterruptWatch:
        if threading.current_thread() is not threading.main_thread():
            return self  # signals only reach the main thread
        reader, writer = os.pipe()
        os.set_blocking(writer, False)
        self._pipe = (reader, writer)
        self._previous_fd = signal.set_wakeup_fd(writer, warn_on_full_buffer=False)
        self._thread = threading.Thread(
            target=self._watch, name="ackclock-tcl-interrupts", daemon=True
        )
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._pipe is None:
            return
        signal.set_wakeup_fd(self._previous_fd)
        reader, writer = self._pipe
        os.close(writer)  # ends the thread's read
        if self._thread is not None:
            self._thread.join()
        os.close(reader)
        if isinstance(error, KeyboardInterrupt):
            self.interrupted = True

    def _watch(self) -> None:
        assert self._pipe is not None
        reader = self._pipe[0]
        while True:
            try:
                data = os.read(reader, 64)
            except OSError:
                return
            if not data:
                return
            if signal.SIGINT in data:
                self.interrupted = True
                cancel_evaluation(self.tcl)


def cancel_evaluation(tcl: Interp) -> None:
    """Tcl_CancelEval(interp, NULL, NULL, TCL_CANCEL_UNWIND), from any thread."""
    import ctypes  # here, not at start-up: only Ctrl-C needs it

    pointer = ctypes.c_void_p
    cancel = tcl.c_function(
        "Tcl_CancelEval", [pointer, pointer, pointer, ctypes.c_int], ctypes.c_int
    )
    cancel(tcl.address(), None, None, TCL_CANCEL_UNWIND)
