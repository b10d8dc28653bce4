"""CPython's own Tcl interpreter (tkinter.Tcl, Tcl 8.6) as the front end
uses it: variables by name, calls, and OTcl objects' namespaces."""

from __future__ import annotations

from typing import Any

from ackclock.tcl.errors import NestedTclError, TclScriptError

try:
    import _tkinter
except ImportError:  # pragma: no cover - depends on how Python was built
    _tkinter = None  # type: ignore[assignment]


class Interp:
    def __init__(self) -> None:
        if _tkinter is None:
            raise TclScriptError(
                "this Python has no Tcl (tkinter); install it, e.g. apt-get install python3-tk"
            )
        # An interpreter without Tk whose results are strings, as Tcl sees them.
        self.tk = _tkinter.create(None, "ackclock", "Tk", False, False, False, False, None)

    def eval(self, script: str) -> str:
        return self.call("eval", script)

    def call(self, *words: Any) -> str:
        """A Tcl command's result; its Tcl error, with Tcl's stack, as a
        NestedTclError."""
        try:
            return str(self.tk.call(*words))
        except _tkinter.TclError as error:
            info = str(self.tk.globalgetvar("errorInfo"))
            code = str(self.tk.globalgetvar("errorCode"))
            raise NestedTclError(str(error), info, code) from None

    def eval_global(self, script: str) -> str:
        """Runs `script` in the global scope, as ns-2 runs `$ns at` scripts."""
        return self.call("uplevel", "#0", script)

    def get(self, name: str) -> str | None:
        """A variable's value (fully qualified name), None if it has none."""
        if self.call("info", "exists", name) == "0":
            return None
        return self.call("set", name)

    def set(self, name: str, value: str) -> None:
        self.call("set", name, value)

    def split(self, text: str) -> list[str]:
        return [str(word) for word in self.tk.splitlist(text)]

    def namespace(self, obj: str) -> str:
        """Where an OTcl object keeps its variables."""
        return self.call("::otcl::vars", obj)

    def command(self, name: str, handler: Any) -> None:
        self.tk.createcommand(name, handler)

    def c_function(self, name: str, argtypes: list[Any], restype: Any = None) -> Any:
        """A function of Tcl's C library, for what must not evaluate Tcl."""
        import ctypes

        function = getattr(ctypes.CDLL(_tkinter.__file__), name)
        function.argtypes = argtypes
        function.restype = restype
        return function

    def address(self) -> int:
        """The Tcl_Interp pointer."""
        return int(self.tk.interpaddr())
