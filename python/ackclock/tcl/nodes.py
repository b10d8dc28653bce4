"""ns-2's Node: `$ns node` makes one; agents attach to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.shadow import Shadow, whole

if TYPE_CHECKING:
    from ackclock.handles import Node
    from ackclock.tcl.agents import Agent
    from ackclock.tcl.world import World


# ns-2's node modules that route as ackclock's core does: Base, the shortest
# paths; VC, a classifier that looks the same routes up when first needed.
ROUTE_MODULES = ("Base", "VC")


def enable_module(name: str) -> None:
    """`Node enable-module NAME`, for the nodes created afterwards."""
    if name not in ROUTE_MODULES:
        raise TclScriptError(
            f"Node enable-module {name}: ackclock routes as ns-2's "
            f"{' and '.join(ROUTE_MODULES)} modules do; {name} is not modelled"
        )


class NodeObject(Shadow):
    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.id = len(world.nodes)
        # `$ns node 0.1.2` with hierarchical addresses; else the id.
        self.address = args[0] if args else str(self.id)
        self.next_port = 0
        self.agents: list[Agent] = []
        self.handle: Node | None = None
        world.nodes.append(self)
        self.set_var("id_", str(self.id))
        self.set_var("address_", self.address)
        # ns-2 2.35 declares a routing table size but never counts it.
        self.set_var("rtsize_", "0")

    def cmd_id(self) -> int:
        return self.id

    def cmd_node_addr(self) -> str:
        return self.address

    cmd_addr = cmd_node_addr

    def cmd_attach(self, agent: str, port: str = "") -> None:
        self.world.attach(self, self.world.agent(agent), port)

    def cmd_detach(self, agent: str, nullagent: str = "") -> None:
        self.world.detach(self.world.agent(agent))

    def cmd_agent(self, port: str) -> str:
        for agent in self.agents:
            if agent.port == whole(port, f"{self} agent"):
                return agent.name
        return ""

    def cmd_neighbors(self) -> str:
        return " ".join(link.dst.name for link in self.world.links.values() if link.src is self)

    def cmd_reset(self) -> None:
        for agent in self.agents:
            agent.cmd_reset()

    # Routing and classifier internals ackclock has no counterpart for: the
    # core routes every packet on shortest paths from the topology.
    def cmd_entry(self) -> str:
        raise TclScriptError(
            "$node entry: ackclock has no classifier objects; packets are routed by the core "
            "(supported on nodes: " + ", ".join(self.commands()) + ")"
        )

    def cmd_add_route(self, dst: str, target: str) -> None:
        raise TclScriptError(
            "$node add-route: static routes wait for the network layer v2 (issue 16)"
        )

    # Appearance in nam: kept for the nam trace.
    def cmd_color(self, color: str) -> None:
        self.world.nam.node_colors[self.id] = color

    def cmd_shape(self, shape: str) -> None:
        self.world.nam.node_shapes[self.id] = shape

    def cmd_label(self, label: str) -> None:
        self.world.nam.node_labels[self.id] = label

    def cmd_label_color(self, color: str) -> None: ...
    def cmd_label_at(self, where: str) -> None: ...
    def cmd_add_mark(self, *args: str) -> None: ...
    def cmd_delete_mark(self, *args: str) -> None: ...
