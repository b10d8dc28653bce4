#!/usr/bin/python3
"""Minimal reader for ns-2 wired trace files (event and variable-trace records).

The seed chapter (§16.2.4 "Reading the Tracefile in Python") documents only the
programmer interface of its nstrace.py module; the module itself is not in the text.
This is an independent implementation of that interface so that the chapter's
analysis scripts (queuesize.py, dup_counter.py, countpeaks.py) run unmodified:

  nsopen(filename)  opens the tracefile (and reads its first line)
  isEvent()         current line is a 12-field event record (r, d, +, -)
  isVar()           current line is a 7-field variable-trace record
  isEOF()           no more lines
  getEvent()        12-tuple of typed event fields, then advances to the next line;
                    fields 9 and 10 ("node.port") are returned as (node, port) tuples
  getVar()          7-tuple (time, snode, sport, dnode, dport, name, value), then advances
  skipline()        advances to the next line

As the chapter says, the format checks by regular expression are slow and disabled by
default (set CHECK_RE = True to enable them). The chapter's §16.4.4 fragment also calls
istrace()/gettrace(); they are provided as aliases of isEvent()/getEvent().
"""

import re

CHECK_RE = False

_NUM = r"-?[0-9]+"
_FLOAT = r"-?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?"
_EVENT_RE = re.compile(
    r"^[rd+\-] "
    + _FLOAT
    + r" "
    + _NUM
    + r" "
    + _NUM
    + r" \S+ "
    + _NUM
    + r" \S+ "
    + _NUM
    + r" "
    + _NUM
    + r"\."
    + _NUM
    + r" "
    + _NUM
    + r"\."
    + _NUM
    + r" "
    + _NUM
    + r" "
    + _NUM
    + r"\s*$"
)
_VAR_RE = re.compile(
    r"^"
    + _FLOAT
    + r"\s+"
    + _NUM
    + r"\s+"
    + _NUM
    + r"\s+"
    + _NUM
    + r"\s+"
    + _NUM
    + r"\s+\S+\s+"
    + _FLOAT
    + r"\s*$"
)

_file = None
_line = ""
_fields = []


def nsopen(filename):
    """Open a trace file; the first line becomes the current line."""
    global _file
    if _file is not None:
        _file.close()
    _file = open(filename)
    _advance()


def nsclose():
    global _file, _line, _fields
    if _file is not None:
        _file.close()
    _file, _line, _fields = None, "", []


def _advance():
    global _line, _fields
    if _file is None:
        raise RuntimeError("nstrace: no file open")
    _line = _file.readline()
    _fields = _line.split()


def isEOF():
    return _line == ""


def isEvent():
    if len(_fields) != 12:
        return False
    return (not CHECK_RE) or bool(_EVENT_RE.match(_line))


def isVar():
    if len(_fields) != 7:
        return False
    return (not CHECK_RE) or bool(_VAR_RE.match(_line))


def _pair(s):
    node, port = s.split(".")
    return (int(node), int(port))


def getEvent():
    f = _fields
    ev = (
        f[0],
        float(f[1]),
        int(f[2]),
        int(f[3]),
        f[4],
        int(f[5]),
        f[6],
        int(f[7]),
        _pair(f[8]),
        _pair(f[9]),
        int(f[10]),
        int(f[11]),
    )
    _advance()
    return ev


def getVar():
    f = _fields
    var = (float(f[0]), int(f[1]), int(f[2]), int(f[3]), int(f[4]), f[5], float(f[6]))
    _advance()
    return var


def skipline():
    _advance()


# names used by the chapter's §16.4.4 drop-cluster fragment
istrace = isEvent
gettrace = getEvent
