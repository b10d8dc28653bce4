"""Handles to the parts of a simulation: small objects holding the native
simulation and an id, returned by `Simulator` and passed back to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ackclock import specs, units
from ackclock.results import FlowResult, LinkResult, flow_result, link_result

if TYPE_CHECKING:
    from ackclock._native import Sim


class Node:
    """A node (host or router)."""

    def __init__(self, native: Sim, node_id: int, name: str) -> None:
        self._native = native
        self.id = node_id
        self.name = name

    def belongs_to(self, native: Sim) -> bool:
        return self._native is native

    def __repr__(self) -> str:
        return f"Node({self.name!r})"


class Link:
    """One direction of a link (a duplex link is two of these)."""

    def __init__(
        self, native: Sim, channel_id: int, src: Node, dst: Node, bandwidth_bps: int, delay_ps: int
    ) -> None:
        self._native = native
        self.id = channel_id
        self.src = src
        self.dst = dst
        self.bandwidth_bps = bandwidth_bps
        self.delay_ps = delay_ps

    def set_loss(self, loss: specs.LossModel | None) -> None:
        """Attaches an error model to this direction (None removes it)."""
        self._native.set_loss(self.id, specs.loss_spec(loss, "loss"))

    def set_jitter(self, jitter: specs.Jitter | None) -> None:
        """Adds random delay to this direction (None removes it)."""
        self._native.set_jitter(self.id, specs.jitter_spec(jitter, "jitter"))

    def stats(self) -> LinkResult:
        return link_result(self._native.link_stats(self.id), self.src.name, self.dst.name)

    def occupancy_distribution(self) -> list[float]:
        """Fraction of time with n packets in the system (waiting or being
        sent) for n = 0, 1, 2, ..."""
        return self._native.occupancy_distribution(self.id)

    def __repr__(self) -> str:
        return (
            f"Link({self.src.name}->{self.dst.name}, {units.format_bandwidth(self.bandwidth_bps)}, "
            f"{units.format_duration(self.delay_ps)})"
        )


class Flow:
    """A traffic source on `src` sending UDP packets to a sink on `dst`."""

    def __init__(
        self, native: Sim, flow_id: int, name: str, kind: str, src: Node, dst: Node
    ) -> None:
        self._native = native
        self.id = flow_id
        self.name = name
        self.kind = kind
        self.src = src
        self.dst = dst

    def stats(self) -> FlowResult:
        return flow_result(self._native.flow_stats(self.id), self.src.name, self.dst.name)

    def __repr__(self) -> str:
        return f"Flow({self.name!r}, {self.kind}, {self.src.name}->{self.dst.name})"
