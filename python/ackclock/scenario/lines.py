"""Finds the line of a TOML file where a field is written (best effort), so
that error messages can point at it: ("links", 1, "bandwidth") is the
`bandwidth = ...` line under the second `[[links]]` header."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Union

PathPart = Union[str, int]

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$")


@dataclass
class _Table:
    path: tuple[PathPart, ...]
    header_line: int | None  # 1-based; None for the root table
    body: range  # 0-based indices of the lines that belong to the table


def _tables(lines: Sequence[str]) -> list[_Table]:
    """The tables of a TOML text, with array-of-tables entries numbered."""
    array_lengths: dict[tuple[PathPart, ...], int] = {}

    def concrete(keys: Sequence[str]) -> tuple[PathPart, ...]:
        # "links.reverse" inside the second [[links]] is ("links", 1, "reverse").
        path: tuple[PathPart, ...] = ()
        for key in keys:
            path += (key,)
            if path in array_lengths:
                path += (array_lengths[path] - 1,)
        return path

    starts: list[tuple[tuple[PathPart, ...], int | None, int]] = [((), None, 0)]
    for index, line in enumerate(lines):
        match = _HEADER.match(line)
        if not match:
            continue
        keys = [key.strip().strip("\"'") for key in match.group(2).split(".")]
        if match.group(1) == "[[":
            array = concrete(keys[:-1]) + (keys[-1],)
            array_lengths[array] = array_lengths.get(array, 0) + 1
            path = array + (array_lengths[array] - 1,)
        else:
            path = concrete(keys)
        starts.append((path, index + 1, index + 1))
    ends = [start for _, _, start in starts[1:]] + [len(lines)]
    return [
        _Table(path, header, range(start, end)) for (path, header, start), end in zip(starts, ends)
    ]


def line_of(text: str, path: Sequence[PathPart]) -> int | None:
    """The 1-based line where `path` is set (or its table begins), or None."""
    lines = text.splitlines()
    owners = [table for table in _tables(lines) if tuple(path[: len(table.path)]) == table.path]
    table = max(owners, key=lambda table: len(table.path))
    rest = path[len(table.path) :]
    if rest and isinstance(rest[0], str):
        key = re.compile(rf"^\s*[\"']?{re.escape(rest[0])}[\"']?\s*[.=]")
        for index in table.body:
            if key.match(lines[index]):
                return index + 1
    return table.header_line
