"""Runs ns-2 scripts unmodified: `ackclock tcl SCRIPT.tcl ARGS...`.

The supported ns-2 API and how it maps onto ackclock are in docs/tcl.md.
"""

from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.interpreter import run_script

__all__ = ["TclScriptError", "run_script"]
