"""Where a Tcl error happened, as one line: `script:LINE: "command": message`.

Tcl's errorInfo lists the commands being executed, innermost first, each
with its context: a line of a file, or a line of a procedure's body. A
procedure's line becomes a line of its file through where the script
defined it (interpreter.py records every definition). The innermost
command in a script's file is the one reported.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

_MARKER = re.compile(r"\n    (?:while executing|invoked from within)\n")
_FRAME = re.compile(r'"(.*)"((?:\n    \(.*\))*)\s*$', re.S)
_CONTEXT = re.compile(r"\n    \((.*)\)")
_PROCEDURE = re.compile(r'procedure "(.+)" line (\d+)$')
_FILE = re.compile(r'file "(.+)" line (\d+)$')


@dataclass(frozen=True)
class Where:
    file: str
    line: int
    command: str
    procedure: str | None

    def __str__(self) -> str:
        inside = f" (in {self.procedure})" if self.procedure else ""
        return f'{os.path.basename(self.file)}:{self.line}{inside}: "{self.command}"'


def frames(info: str) -> list[tuple[str, list[str]]]:
    """(command, contexts) of each frame of an errorInfo, innermost first."""
    found = []
    for part in _MARKER.split(info)[1:]:
        match = _FRAME.match(part)
        if match:
            found.append((match.group(1), _CONTEXT.findall(match.group(2))))
        else:
            found.append((part.strip('"'), []))
    return found


def locate(info: str, definitions: dict[str, tuple[str, int]]) -> Where | None:
    """The innermost command of the error that is on a line of a script
    file; `definitions` maps procedure names to where they were defined."""
    for command, contexts in frames(info):
        for context in contexts:
            proc = _PROCEDURE.match(context)
            if proc:
                name = proc.group(1).lstrip(":")
                if name in definitions:
                    file, line = definitions[name]
                    return Where(file, line + int(proc.group(2)) - 1, _short(command), name)
                continue
            source = _FILE.match(context)
            if source:
                return Where(source.group(1), int(source.group(2)), _short(command), None)
    return None


def innermost(info: str, definitions: dict[str, tuple[str, int]]) -> str:
    """The innermost command of an errorInfo that the script ran itself (not
    inside one of the front end's own procedures)."""
    for command, contexts in frames(info):
        procs = [m.group(1).lstrip(":") for c in contexts if (m := _PROCEDURE.match(c))]
        internal = command.startswith(("{::", "::otcl::", "::ackclock::"))
        if not internal and all(name in definitions for name in procs):
            return _short(command)
    return ""


def _short(command: str) -> str:
    first = command.strip().split("\n")[0]
    return first if len(first) <= 100 else first[:97] + "..."


def clean_message(message: str) -> str:
    """Tcl's message without the OTcl calling convention: a method's usage
    reads "A foo x ?y?" rather than "{::A instproc foo} self class proc x ?y?"."""
    message = re.sub(
        r"\{::([^{}]+?) (?:inst)?proc ([^{}]+)\} self class proc ?", r"\1 \2 ", message
    )
    # A variable's trace refused a value; its own message names the object.
    message = re.sub(r"^can't (?:set|read) \"::otcl::v::\d+::[^\"]*\": ", "", message)
    return " ".join(message.split())
