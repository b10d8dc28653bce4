"""Reading ns-2's default point-to-point trace files into DataFrames.

A trace written by `$ns trace-all` (and ackclock's ns-2 sink) mixes two kinds
of lines (seed 003, sec. 16.2.2; docs/ns2-reference.md):

* event records, 12 fields: ``r 0.58616 0 1 tcp 1000 ------- 0 0.0 2.0 28 43``
  (event, time, from node, to node, type, size, flags, flow id, source and
  destination as node.port, sequence number, packet id);
* variable-trace records, 7 fields: ``0.38333  0  0  2  0  cwnd_ 5.000``
  (time, source node and port, destination node and port, name, value), padded
  with spaces (``cwnd_ 1.000 `` ends in one) and with the destination ``-1 -1``
  for the initial value that `tracevar` writes at time 0.

The file is split into the two kinds with NumPy on its bytes and each kind is
parsed by pandas' C reader: no Python code runs per line, except to find and
report the first bad line when the file is malformed.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import warnings
from collections.abc import Callable, Iterator
from typing import IO, Union, cast

import numpy as np
import pandas as pd

PathOrFile = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]

#: Columns of the packet-event frame, in order.
PACKET_COLUMNS = (
    "event",
    "time",
    "from_node",
    "to_node",
    "type",
    "size",
    "flags",
    "fid",
    "src_node",
    "src_port",
    "dst_node",
    "dst_port",
    "seq",
    "uid",
)
#: Columns of the variable-trace frame, in order.
VARIABLE_COLUMNS = ("time", "src_node", "src_port", "dst_node", "dst_port", "name", "value")

#: Event letters: enqueue, dequeue, receive, drop; then ns-2's rarer ones
#: (error-model loss, collision, hop), accepted so that such traces still load.
EVENT_LETTERS = "+-rdech"

_RAW_EVENT_COLUMNS = (
    "event",
    "time",
    "from_node",
    "to_node",
    "type",
    "size",
    "flags",
    "fid",
    "src",
    "dst",
    "seq",
    "uid",
)
_RAW_EVENT_DTYPES = {
    "event": "str",
    "time": "float64",
    "from_node": "int64",
    "to_node": "int64",
    "type": "str",
    "size": "int64",
    "flags": "str",
    "fid": "int64",
    "src": "str",
    "dst": "str",
    "seq": "int64",
    "uid": "int64",
}
_VARIABLE_DTYPES = {
    "time": "float64",
    "src_node": "int64",
    "src_port": "int64",
    "dst_node": "int64",
    "dst_port": "int64",
    "name": "str",
    "value": "float64",
}
#: Bytes read at a time (the blocks are parsed one by one).
BLOCK_SIZE = 1 << 24
_QUOTE_NONE = 3  # csv.QUOTE_NONE: quotes are ordinary characters in a trace
# What pandas raises for a field that is not a number or a line with too few or
# too many fields (the warning is turned into an error below).
_PARSE_FAILURES = (ValueError, pd.errors.ParserError, pd.errors.ParserWarning)


class TraceFormatError(ValueError):
    """A line of a trace file is neither an event record nor a variable
    record. The message names the file, the line number and the line."""

    def __init__(self, source: str, line_number: int, line: str, problem: str) -> None:
        super().__init__(f"{source}, line {line_number}: {problem}: {line!r}")
        self.source = source
        self.line_number = line_number
        self.line = line
        self.problem = problem


def read_ns2_trace(path_or_file: PathOrFile) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Parses an ns-2 trace file; returns ``(packets, variables)``.

    `path_or_file` is a path (``.gz``, ``.bz2`` and ``.xz`` files are
    decompressed) or an open file, text or binary.

    ``packets`` has one row per event record, in file order, with the columns
    `PACKET_COLUMNS`: ``event`` (``+ - r d``), ``time`` (s), ``from_node``,
    ``to_node``, ``type`` (``tcp``, ``ack``, ...), ``size`` (bytes), ``flags``,
    ``fid``, ``src_node``, ``src_port``, ``dst_node``, ``dst_port`` (the
    node.port fields split), ``seq`` and ``uid``.

    ``variables`` has one row per variable record, in file order, with the
    columns `VARIABLE_COLUMNS`; ``value`` is a float for every variable.

    Blank lines and annotation lines (``v ...``) are skipped. Any other line
    that does not parse raises `TraceFormatError` (a ValueError).

    The file is read in blocks of whole lines, so memory holds the frames and
    one block, not the whole text.
    """
    if isinstance(path_or_file, (str, os.PathLike)):
        path = os.fspath(path_or_file)
        with _open_binary(path) as file:
            return _read(path, file)
    return _read(str(getattr(path_or_file, "name", "<trace>")), path_or_file)


def _read(name: str, file: IO[str] | IO[bytes]) -> tuple[pd.DataFrame, pd.DataFrame]:
    event_parts: list[pd.DataFrame] = []
    variable_parts: list[pd.DataFrame] = []
    lines_before = 0
    for block in _blocks(file):
        events, variables = _split_kinds(block)
        try:
            event_parts.append(_parse_events(events))
            variable_parts.append(_parse_variables(variables))
        except _PARSE_FAILURES as error:
            _raise_first_bad_line(name, block, lines_before)
            raise TraceFormatError(name, 0, "", f"unreadable trace ({error})") from error
        lines_before += block.count(b"\n")
    return (
        _concat(event_parts, PACKET_COLUMNS, _empty_packets),
        _concat(variable_parts, VARIABLE_COLUMNS, _empty_variables),
    )


def _blocks(file: IO[str] | IO[bytes]) -> Iterator[bytes]:
    """The file's content in pieces of about BLOCK_SIZE, each ending with a
    newline (one is added after a last line without)."""
    rest = b""
    while True:
        piece = file.read(BLOCK_SIZE)
        if not piece:
            break
        data = rest + (piece.encode() if isinstance(piece, str) else bytes(piece))
        cut = data.rfind(b"\n") + 1
        if cut:
            yield data[:cut]
        rest = data[cut:]
    if rest:
        yield rest + b"\n"


def _concat(
    parts: list[pd.DataFrame], columns: tuple[str, ...], empty: Callable[[], pd.DataFrame]
) -> pd.DataFrame:
    """The parts one below the other; column by column, each column's pieces
    freed as soon as it is joined, so the peak is about one frame and one column."""
    parts = [part for part in parts if len(part)]
    if not parts:
        return empty()
    if len(parts) == 1:
        return parts[0].reset_index(drop=True)
    joined = {
        column: pd.concat([part.pop(column) for part in parts], ignore_index=True)
        for column in columns
    }
    return pd.DataFrame(joined, copy=False)


def _open_binary(path: str) -> IO[bytes]:
    suffix = os.path.splitext(path)[1]
    if suffix == ".gz":
        return cast("IO[bytes]", gzip.open(path, "rb"))
    if suffix == ".bz2":
        return bz2.open(path, "rb")
    if suffix == ".xz":
        return lzma.open(path, "rb")
    return open(path, "rb")


def _split_kinds(data: bytes) -> tuple[bytes, bytes]:
    """(event lines, variable lines) as two byte strings, in file order.

    An event line starts with an event letter and a blank; a blank line or an
    annotation (``v ``) goes to neither; every other line is taken for a
    variable record (and is reported if it is not one)."""
    if not data:
        return b"", b""
    buffer = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(buffer == ord("\n"))
    starts = np.concatenate(([0], ends[:-1] + 1))
    first = buffer[starts]
    second = buffer[np.minimum(starts + 1, len(buffer) - 1)]
    blank_after = (second == ord(" ")) | (second == ord("\t"))
    is_event = np.isin(first, np.frombuffer(EVENT_LETTERS.encode(), np.uint8)) & blank_after
    skipped = (first == ord("\n")) | (first == ord("\r")) | ((first == ord("v")) & blank_after)
    is_variable = ~(is_event | skipped)
    lengths = ends - starts + 1
    return (
        buffer[np.repeat(is_event, lengths)].tobytes(),
        buffer[np.repeat(is_variable, lengths)].tobytes(),
    )


def _read_table(data: bytes, names: tuple[str, ...], dtypes: dict[str, str]) -> pd.DataFrame:
    """ns-2 separates the fields of an event record by one blank (the faster
    case to parse); a hand-written file may use more."""
    try:
        return _csv(data, names, dtypes, " ")
    except _PARSE_FAILURES:
        return _csv(data, names, dtypes, r"\s+")


def _csv(data: bytes, names: tuple[str, ...], dtypes: dict[str, str], sep: str) -> pd.DataFrame:
    """A line with more fields than `names` would be silently cut (with a
    ParserWarning) or shift the columns into an index: both are errors here."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.ParserWarning)
        return pd.read_csv(
            io.BytesIO(data),
            sep=sep,
            header=None,
            names=list(names),
            index_col=False,
            dtype=dtypes,
            quoting=_QUOTE_NONE,
            na_filter=False,
            engine="c",
        )


def _parse_events(data: bytes) -> pd.DataFrame:
    if not data:
        return _empty_packets()
    raw = _read_table(data, _RAW_EVENT_COLUMNS, _RAW_EVENT_DTYPES)
    src_node, src_port = _node_port(raw["src"])
    dst_node, dst_port = _node_port(raw["dst"])
    raw = raw.drop(columns=["src", "dst"])
    raw["src_node"], raw["src_port"] = src_node, src_port
    raw["dst_node"], raw["dst_port"] = dst_node, dst_port
    return raw[list(PACKET_COLUMNS)]


def _node_port(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Splits "node.port" texts; there are few distinct ones, so only those
    are split, and the results are spread by their codes."""
    codes, uniques = pd.factorize(column)
    nodes = np.empty(len(uniques), dtype=np.int64)
    ports = np.empty(len(uniques), dtype=np.int64)
    for index, text in enumerate(uniques):
        node, dot, port = str(text).partition(".")
        if not dot:
            raise ValueError(f"{text!r} is not node.port")
        nodes[index], ports[index] = int(node), int(port)
    return nodes[codes], ports[codes]


def _parse_variables(data: bytes) -> pd.DataFrame:
    if not data:
        return _empty_variables()
    # Variable records are padded with blanks: always split on runs of them.
    return _csv(data, VARIABLE_COLUMNS, _VARIABLE_DTYPES, r"\s+")


def _empty_packets() -> pd.DataFrame:
    dtypes = {**_RAW_EVENT_DTYPES, **dict.fromkeys(PACKET_COLUMNS[8:12], "int64")}
    return pd.DataFrame({name: pd.Series(dtype=dtypes[name]) for name in PACKET_COLUMNS})


def _empty_variables() -> pd.DataFrame:
    return pd.DataFrame(
        {name: pd.Series(dtype=_VARIABLE_DTYPES[name]) for name in VARIABLE_COLUMNS}
    )


# --- finding the bad line (only when the fast path failed) ---------------------


def _raise_first_bad_line(name: str, data: bytes, lines_before: int) -> None:
    for number, raw in enumerate(data.split(b"\n"), start=lines_before + 1):
        line = raw.decode(errors="replace").rstrip("\r")
        problem = _line_problem(line)
        if problem is not None:
            raise TraceFormatError(name, number, line, problem)


def _line_problem(line: str) -> str | None:
    """Why `line` is not a record (None if it is one, blank or an annotation)."""
    fields = line.split()
    if not fields or line.startswith(("v ", "v\t")):
        return None
    if line[0] in EVENT_LETTERS and len(line) > 1 and line[1] in " \t":
        return _event_problem(fields)
    return _variable_problem(fields)


def _event_problem(fields: list[str]) -> str | None:
    if len(fields) != 12:
        return f"an event record has 12 fields, this line has {len(fields)}"
    checks = [
        (1, "time", _is_float),
        (2, "from node", _is_int),
        (3, "to node", _is_int),
        (5, "size", _is_int),
        (7, "flow id", _is_int),
        (8, "source node.port", _is_node_port),
        (9, "destination node.port", _is_node_port),
        (10, "sequence number", _is_int),
        (11, "packet id", _is_int),
    ]
    return _first_bad_field(fields, checks, "an event record")


def _variable_problem(fields: list[str]) -> str | None:
    if len(fields) != 7:
        return (
            "not an event record (which starts with one of "
            f"{' '.join(EVENT_LETTERS)}) nor a variable record (7 fields)"
        )
    checks = [
        (0, "time", _is_float),
        (1, "source node", _is_int),
        (2, "source port", _is_int),
        (3, "destination node", _is_int),
        (4, "destination port", _is_int),
        (6, "value", _is_float),
    ]
    return _first_bad_field(fields, checks, "a variable record")


def _first_bad_field(
    fields: list[str], checks: list[tuple[int, str, Callable[[str], bool]]], record: str
) -> str | None:
    for index, what, check in checks:
        if not check(fields[index]):
            return f"field {index + 1} ({what}) of {record} is {fields[index]!r}"
    return None


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _is_float(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _is_node_port(text: str) -> bool:
    node, dot, port = text.partition(".")
    return bool(dot) and _is_int(node) and _is_int(port)
