"""ns-2's packet headers (`remove-all-packet-headers`, `add-packet-header`,
`remove-packet-header`): ackclock's packets carry every header, which
changes nothing while the agents keep the headers they write. ns-2's UDP
agents write an RTP header; without it they write its sequence number over
the packet's size (and its source id over the packet type), which ackclock
does not model, so that case is refused when the simulation is built."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ackclock.tcl.errors import TclScriptError

if TYPE_CHECKING:
    from ackclock.tcl.world import World


@dataclass
class PacketHeaders:
    # the headers kept after remove-all-packet-headers (None: all of them)
    kept: set[str] | None = None
    removed: set[str] = field(default_factory=set)

    def command(self, op: str, *names: str) -> None:
        """`::ackclock::packet_headers remove-all|add-all|add|remove ?NAME ...?`."""
        if op in ("remove-all", "add-all"):
            self.kept = set() if op == "remove-all" else None
            self.removed = set()
        elif op == "add":
            self.kept = None if self.kept is None else self.kept | set(names)
            self.removed -= set(names)
        else:
            self.removed |= set(names)

    def has(self, name: str) -> bool:
        return name not in self.removed and (self.kept is None or name in self.kept)

    def check(self, world: World) -> None:
        from ackclock.tcl.agents import UdpAgent

        if self.has("RTP"):
            return
        udp = next((s for s in world.shadows.values() if isinstance(s, UdpAgent)), None)
        if udp is not None:
            raise TclScriptError(
                f"{udp}: ns-2's UDP agents need the RTP packet header (add-packet-header RTP); "
                "without it ns-2 writes their sequence numbers over the packet sizes, which "
                "ackclock does not model"
            )
