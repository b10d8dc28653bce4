"""The header of an ns-2 nam trace: what `$ns namtrace-all` writes before the
packet events (which `_native.Sim.trace_nam` writes after it).

ns-2 2.35 writes its nodes, links and queue positions in Tcl's hash order; nam
does not care, so these lines come in the order given.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Optional, Union

Link = tuple[int, int, float, float, Optional[str]]
"""A duplex link: (src, dst, bandwidth_bps, delay_s, orient or None)."""
QueuePos = tuple[int, int, Union[float, str]]
"""(src, dst, pos) of `duplex-link-op $src $dst queuePos $pos` (one direction)."""
Color = tuple[int, str]
"""(flow id, colour name) of `$ns color $fid $name`."""

LanConfig = tuple[int, str, str, list[int]]
"""A LAN as ns-2's nam header shows it: (its node id, its bandwidth and delay
as the script wrote them, its members' ids)."""

# Flat addressing, whatever the node count.
_HEADER = (
    "V -t * -v 1.0a5 -a 0\n"
    "A -t * -n 1 -p 0 -o 0x7fffffff -c 30 -a 1\n"
    "A -t * -h 1 -m 1073741823 -s 0\n"
)


def tcl_double(x: float) -> str:
    """A double as ns-2's Tcl prints it (tcl_precision 17): 0.01 -> "0.01",
    0.05 -> "0.050000000000000003", 2.0 -> "2", 1e-5 -> "1.0000000000000001e-05"."""
    return format(x, ".17g")


def preamble(
    nodes: Iterable[int],
    links: Iterable[Link] = (),
    queues: Iterable[QueuePos] = (),
    colors: Iterable[Color] = (),
    lans: Iterable[LanConfig] = (),
) -> str:
    """The V, A, c, n, l, X, L and q lines of a nam trace, as ns-2 2.35 writes
    them.

    Each duplex link gets one `l` line, in the direction given. To match ns-2's
    digits, pass the double ns-2 computes: it parses "50ms" as 50 * 1e-3 (which
    is 0.05, but "123.456ms" is not 0.123456). A queue position is printed as
    given, as ns-2 echoes the script's token ("1.0" stays "1.0").
    """
    lines = [_HEADER]
    lines += [f"c -t * -i {fid} -n {name}\n" for fid, name in colors]
    lines += [f"n -t * -a {n} -s {n} -S UP -v circle -c black -i black\n" for n in nodes]
    for src, dst, bandwidth_bps, delay_s, orient in links:
        where = "" if orient is None else f" -o {orient}"
        lines.append(
            f"l -t * -s {src} -d {dst} -S UP -r {tcl_double(bandwidth_bps)}"
            f" -D {tcl_double(delay_s)} -c black{where}\n"
        )
    for lan, bandwidth, delay, members in lans:
        # a LAN's node, then a line to each member, drawn above and below in turn
        lines.append(f"X -t * -n {lan} -r {bandwidth} -D {delay} -o left\n")
        lines += [
            f"L -t * -s {lan} -d {m} -o {('up', 'down')[i % 2]}\n" for i, m in enumerate(members)
        ]
    lines += [f"q -t * -s {src} -d {dst} -a {pos}\n" for src, dst, pos in queues]
    return "".join(lines)


MobileNode = tuple[int, float, float, float, float]
"""A wireless node as `initial_node_pos` shows it: (id, x, y, z, size)."""


def wireless_preamble(
    nodes: Iterable[MobileNode],
    width: float,
    height: float,
    colors: Iterable[Color] = (),
    node_colors: Iterable[tuple[int, str]] = (),
) -> str:
    """The header of `namtrace-all-wireless`, as ns-2 2.35 writes it: each
    node `initial_node_pos` placed, then V, the field's size (W) and the
    address format; then the flows' and the nodes' colours."""
    lines = [
        f"n -t * -s {n}  -x {x:g} -y {y:g} -Z {z:g} -z {size:g}  -v circle -c black\n"
        for n, x, y, z, size in nodes
    ]
    header = _HEADER.splitlines(keepends=True)
    lines += [header[0], f"W -t * -x {width:g} -y {height:g}\n", *header[1:]]
    lines += [f"c -t * -i {fid} -n {name}\n" for fid, name in colors]
    lines += [f"n -t 0 -s {n} -S COLOR -c {c} -o {c} -i {c} -I {c}\n" for n, c in node_colors]
    return "".join(lines)


def node_labels(labels: Iterable[tuple[int, str]]) -> str:
    """`$node label NAME` before the run, as ns-2 2.35 writes it (at time 0,
    ahead of the header)."""
    return "".join(f'n -t 0 -s {node} -S DLABEL -l "{name}" -L ""\n' for node, name in labels)
