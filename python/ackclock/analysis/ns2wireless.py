"""Reading ns-2's wireless trace files (seed 003, sec. 16.6) into a DataFrame.

A mobile node's trace (cmu-trace) comes in two formats, and `read_wireless_trace`
reads both, line by line (a wireless trace mixes record layouts by level and
packet type, which a fixed-column reader cannot take):

* the *new* format (``$ns use-newtrace``): an event letter, then tag/value
  pairs, ``d -t 25.014212333 -Hs 0 -Hd 5 -Ni 0 ... -Nl RTR -Nw CBK ... -Is 0.0
  -Id 5.0 -It cbr -Il 532 ... -Ii 1224 ...``. 802.11 control frames carry no
  ``-It`` (their type is then empty); ARP names itself in ``-P arp`` (read as ``ARP``,
  as the old format names it);
* the *old* format, positional: ``D 25.014212333 _0_ RTR  CBK 1224 cbr 532
  [13a 1 0 800] ------- [0:0 5:0 29 1] [1224] 0 0`` -- event, time, ``_node_``,
  level, reason, uid, type, size, the MAC header in brackets, then (for IP
  packets) flags and ``[src:port dst:port ttl next-hop]``.

Movement records (``M ...``) and blank lines are skipped.
"""

from __future__ import annotations

import io
import os
from typing import IO, cast

import numpy as np
import pandas as pd

from ackclock.analysis.clusters import cluster_ids
from ackclock.analysis.ns2trace import PathOrFile, TraceFormatError, _open_binary

#: Columns of `read_wireless_trace`'s frame, in order.
WIRELESS_COLUMNS = (
    "event",
    "time",
    "node",
    "level",
    "reason",
    "type",
    "size",
    "uid",
    "src_node",
    "src_port",
    "dst_node",
    "dst_port",
)
#: Event letters: send, receive, forward, drop (the old format writes a drop ``D``).
_EVENTS = {"s": "s", "r": "r", "f": "f", "d": "d", "D": "d"}
_SKIPPED = ("M",)


def read_wireless_trace(path_or_file: PathOrFile) -> pd.DataFrame:
    """One row per event record, in file order, with `WIRELESS_COLUMNS`:
    ``event`` (``s r f d``), ``time`` (s), ``node`` (where it was logged),
    ``level`` (``AGT RTR IFQ MAC``), ``reason`` (``---`` or a drop reason such
    as ``CBK``, ``IFQ``, ``TTL``, ``NRTE``), ``type`` (``cbr``, ``AODV``,
    ``RTS``, ...), ``size`` (bytes at that level), ``uid``, and the IP source and
    destination split into node and port (<NA> for frames without an IP header;
    node -1 is the IP broadcast).

    `path_or_file` is a path (``.gz``, ``.bz2``, ``.xz`` decompressed) or an
    open file. A line in neither format raises `TraceFormatError`."""
    if isinstance(path_or_file, (str, os.PathLike)):
        name = os.fspath(path_or_file)
        with _open_binary(name) as file:
            return _read(name, file)
    return _read(str(getattr(path_or_file, "name", "<trace>")), path_or_file)


def _read(name: str, file: IO[str] | IO[bytes]) -> pd.DataFrame:
    if _is_binary(file):
        # The wrapper is let go of afterwards: the caller's file stays its own.
        text = io.TextIOWrapper(cast(IO[bytes], file), encoding="latin-1")
        try:
            rows = _rows(name, text)
        finally:
            text.detach()
    else:
        rows = _rows(name, cast(IO[str], file))
    frame = pd.DataFrame(rows, columns=list(WIRELESS_COLUMNS))
    for column in ("src_node", "src_port", "dst_node", "dst_port"):
        frame[column] = frame[column].astype("Int64")
    return frame.astype({"time": "float64", "node": "int64", "size": "int64", "uid": "int64"})


def _rows(name: str, text: IO[str]) -> list[tuple]:
    rows = []
    for number, line in enumerate(text, start=1):
        fields = line.split()
        if not fields or fields[0] in _SKIPPED:
            continue
        try:
            rows.append(_record(fields))
        except (KeyError, ValueError, IndexError) as error:
            raise TraceFormatError(
                name, number, line.rstrip("\n"), f"not a wireless trace record ({error})"
            ) from None
    return rows


def _is_binary(file: IO[str] | IO[bytes]) -> bool:
    return isinstance(file, (io.RawIOBase, io.BufferedIOBase)) or "b" in getattr(file, "mode", "")


def _record(fields: list[str]) -> tuple:
    event = _EVENTS[fields[0]]
    if len(fields) > 1 and fields[1] == "-t":
        return (event, *_new_format(fields))
    return (event, *_old_format(fields))


def _new_format(fields: list[str]) -> tuple:
    if len(fields) % 2 == 0:
        raise ValueError("a tag without a value")
    tags = dict(zip(fields[1::2], fields[2::2]))
    kind = tags.get("-It") or tags.get("-P", "").upper()
    has_ip = "-It" in tags
    src = _address(tags["-Is"], ".") if has_ip else (None, None)
    dst = _address(tags["-Id"], ".") if has_ip else (None, None)
    return (
        float(tags["-t"]),
        int(tags["-Ni"]),
        tags["-Nl"],
        tags["-Nw"],
        kind,
        int(tags.get("-Il", 0)),
        int(tags.get("-Ii", 0)),
        *src,
        *dst,
    )


def _old_format(fields: list[str]) -> tuple:
    node = fields[2]
    if not (node.startswith("_") and node.endswith("_")):
        raise ValueError(f"node field {node!r} is not _N_")
    src: tuple[int | None, int | None] = (None, None)
    dst: tuple[int | None, int | None] = (None, None)
    # the IP header follows the flags field (-------) that comes after the MAC header
    if "-------" in fields:
        ip = fields.index("-------") + 1
        if fields[ip].startswith("[") and ":" in fields[ip]:
            src = _address(fields[ip][1:], ":")
            dst = _address(fields[ip + 1], ":")
    return (
        float(fields[1]),
        int(node.strip("_")),
        fields[3],
        fields[4],
        fields[6],
        int(fields[7]),
        int(fields[5]),
        *src,
        *dst,
    )


def _address(text: str, separator: str) -> tuple[int, int]:
    node, port = text.split(separator)
    return int(node), int(port)


def gap_clusters(times: pd.Series | np.ndarray, gap: float) -> pd.DataFrame:
    """Clusters of sorted event times: a time at most `gap` after the previous
    one joins its cluster. One row per cluster: ``start``, ``end``, ``size``."""
    values = np.asarray(times, dtype=float)
    ids = cluster_ids(values, gap, "gap")
    grouped = pd.Series(values).groupby(ids)
    return pd.DataFrame(
        {
            "start": grouped.min().to_numpy(dtype=float),
            "end": grouped.max().to_numpy(dtype=float),
            "size": grouped.size().to_numpy(dtype=np.int64),
        }
    )
