"""ns-2's wired LAN: `$ns make-lan "NODES" BW DELAY ?LL? ?IFQ? ?MAC? ?CHANNEL?
?PHY?` and `$ns newLan NODES BW DELAY -llType LL ...` (tcl/lan/vlan.tcl).

ns-2 makes a LanNode, a virtual node whose id comes from the nodes' (so the
next `$ns node` gets the id after it) and which traces name the LAN by; each
member node reaches it through a link layer (LL: the LAN's DELAY each way),
a DropTail interface queue and a MAC on a Channel whose `delay_` (4 us)
brings every frame to the other NICs. The base Mac's transmission time is
the packet plus a 64-byte header at `Mac set bandwidth_` (2 Mb/s; the LAN's
BW is not used); Mac/802_3 sends at BW (CSMA/CD). The core's LAN with the
MAC "ns2" or "ns2-802.3" is that LAN; this module reads the classes'
settings when the LAN is made, as ns-2 creates its objects then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ackclock.tcl import ns2_units
from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.nodes import NodeObject
from ackclock.tcl.shadow import real, whole
from ackclock.tcl.wireless import class_variable

if TYPE_CHECKING:
    from ackclock.handles import Lan, Node
    from ackclock.simulator import Simulator
    from ackclock.tcl.world import World

# The classes a LAN may be made of: the one ackclock models for each part.
_PARTS = {
    "llType": "LL",
    "ifqType": "Queue/DropTail",
    "macType": "Mac",
    "chanType": "Channel",
    "phyType": "Phy/WiredPhy",
}
_REFUSED_MACS = {
    "Mac/Csma/Cd": "Mac/Csma/Cd is out of date (ns-2 runs Mac/802_3 for it): use Mac/802_3",
    "Mac/802_11": "802.11 on a wired LAN is not modelled (use node-config for wireless)",
}


class LanNodeObject(NodeObject):
    """`$ns make-lan`'s result."""

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, ())
        self.members: list[NodeObject] = []
        self.mac_bps = 0
        self.channel_delay_s = 0.0
        self.ll_delay_s = 0.0
        self.queue_limit = 0
        # the trace-all channels when it was made: ns-2 traces its interfaces then
        self.trace_channels = list(world.trace_all)
        self.lan: Lan | None = None
        self.bandwidth_text = self.delay_text = ""
        self.ethernet = False
        world.lans.append(self)

    def join(
        self, members: list[NodeObject], bandwidth: str, delay: str, parts: dict[str, str]
    ) -> None:
        """Makes the LAN's interfaces on `members` from `parts` (make-lan's
        class names, "" for ns-2's default)."""
        if len(members) < 2:
            raise TclScriptError("make-lan: a LAN needs at least two nodes")
        for node in members:
            if isinstance(node, LanNodeObject):
                raise TclScriptError(f"make-lan: {node.name} is a LAN, not a node")
            if members.count(node) > 1:
                raise TclScriptError(f"make-lan: node {node.id} appears twice")
        unknown = set(parts) - set(_PARTS) - {"ifqLen", "address", "mactrace"}
        if unknown:
            known = ", ".join(f"-{p}" for p in (*_PARTS, "ifqLen", "address", "mactrace"))
            raise TclScriptError(f"newLan: unknown option -{min(unknown)} (supported: {known})")
        chosen = {part: parts.get(part) or default for part, default in _PARTS.items()}
        for part, cls in chosen.items():
            if self.world.tcl.call("::otcl::is_class", cls) != "1":
                raise TclScriptError(f"make-lan: {part} {cls!r} is not a class")
            if cls in _REFUSED_MACS:
                raise TclScriptError(f"make-lan: {_REFUSED_MACS[cls]} (supported: Mac, Mac/802_3)")
            # the class itself, or a script's subclass of it
            if _PARTS[part] not in self.world.heritage(cls):
                raise TclScriptError(
                    f"make-lan: {part} {cls} is not modelled (supported: {_PARTS[part]})"
                )

        def setting(cls: str, var: str) -> str:
            return class_variable(self.world, chosen[cls], var)

        # Mac/802_3 sends at the LAN's rate (ns-2's WiredPhy bandwidth_),
        # the base Mac at its own bandwidth_.
        self.ethernet = "Mac/802_3" in self.world.heritage(chosen["macType"])
        if self.ethernet and parts.get("mactrace") in ("true", "on"):
            raise TclScriptError("make-lan -trace on: 802.3's collision records are not modelled")
        mac_delay = ns2_units.seconds(setting("macType", "delay_"), "Mac delay_")
        if mac_delay != 0:
            raise TclScriptError(
                f"Mac delay_ {setting('macType', 'delay_')} is not supported: ackclock "
                "models the base Mac's hand-up without delay (only ns-2's default 0us)"
            )
        rate = bandwidth if self.ethernet else setting("macType", "bandwidth_")
        self.mac_bps = ns2_units.bandwidth_bps(rate, "Mac bandwidth_")
        self.channel_delay_s = ns2_units.seconds(setting("chanType", "delay_"), "Channel delay_")
        self.ll_delay_s = ns2_units.seconds(delay, "make-lan delay")
        limit = parts.get("ifqLen") or setting("ifqType", "limit_")
        # ns-2's DropTail refuses a packet that would make its queue limit_
        # long: limit_ - 1 wait besides the one the Mac sends.
        self.queue_limit = whole(limit, "make-lan ifqLen") - 1
        if self.queue_limit < 1:
            raise TclScriptError(
                f"make-lan: an interface queue limit of {limit} is not supported "
                "(ns-2's DropTail then drops every packet; give 2 or more)"
            )
        ns2_units.bandwidth(bandwidth, "make-lan bandwidth")
        self.members = members
        # as the script wrote them (ns-2's LanNode keeps the words)
        self.bandwidth_text, self.delay_text = bandwidth, delay
        self.set_var("bw_", bandwidth)
        self.set_var("delay_", delay)
        self.set_var("nodelist_", " ".join(node.name for node in members))

    def build(self, sim: Simulator) -> None:
        if not self.members:
            raise TclScriptError(f"{self.name} has no nodes: make LANs with $ns make-lan")
        handles: list[Node] = []
        for node in self.members:
            assert node.handle is not None
            handles.append(node.handle)
        self.lan = sim.lan(
            handles,
            f"{self.mac_bps}bps",
            self.channel_delay_s,
            queue_limit=self.queue_limit,
            link_layer_delay=self.ll_delay_s,
            mac="ns2-802.3" if self.ethernet else "ns2",
        )

    # Agents attach to the LAN's nodes; ns-2's LanNode ignores them.
    def cmd_attach(self, agent: str, port: str = "") -> None:
        raise TclScriptError(f"{self.name} is a LAN: attach agents to its nodes")

    def cmd_neighbors(self) -> str:
        return " ".join(node.name for node in self.members)

    def cmd_cost(self, cost: str) -> None:
        """Routes cross a LAN as one hop (ns-2's default cost 1)."""
        if real(cost, f"{self.name} cost") != 1:
            raise TclScriptError(
                f"{self.name} cost {cost}: LAN costs other than 1 are not modelled"
            )
