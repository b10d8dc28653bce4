"""Value objects for wireless: how radio signals propagate, the radio's
physical layer and its MAC. Defaults are ns-2 2.35's (ns-default.tcl);
docs/wireless.md explains the models.

Like `ackclock.specs`, each is a frozen dataclass validated on construction
whose `to_native()` returns the dict `ackclock._native` takes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from ackclock import checks, units
from ackclock.specs import Spec, _not_a

if TYPE_CHECKING:
    from ackclock._native import MacSpec, PhySpec, PropagationSpec


class FreeSpace(Spec):
    """Friis free-space propagation: power falls with the square of the
    distance (ns-2's Propagation/FreeSpace)."""

    def to_native(self) -> PropagationSpec:
        return {"type": "free_space"}


class TwoRayGround(Spec):
    """Friis up to the crossover distance 4 pi ht hr / lambda (86.14 m with
    ns-2's antennas), then the two-ray ground reflection model, whose power
    falls with the fourth power of the distance (ns-2's
    Propagation/TwoRayGround). With ns-2's `WirelessPhy` defaults a frame is
    received up to 250 m away and sensed up to 550 m."""

    def to_native(self) -> PropagationSpec:
        return {"type": "two_ray_ground"}


class Shadowing(Spec):
    """Log-normal shadowing (ns-2's Propagation/Shadowing): the free-space
    power at `reference_distance` metres, falling by 10 `path_loss_exponent`
    dB per decade of distance beyond it, plus a normal draw of
    `deviation_db` dB per frame and receiver."""

    path_loss_exponent: float = 2.0
    deviation_db: float = 4.0
    reference_distance: float = 1.0

    def to_native(self) -> PropagationSpec:
        return {
            "type": "shadowing",
            "path_loss_exponent": checks.real(
                self.path_loss_exponent, "path_loss_exponent", "path-loss exponent", -math.inf
            ),
            "deviation_db": checks.real(self.deviation_db, "deviation_db", "deviation in dB"),
            "reference_distance": checks.real(
                self.reference_distance,
                "reference_distance",
                "distance in metres",
                minimum_allowed=False,
            ),
        }


Propagation = Union[FreeSpace, TwoRayGround, Shadowing]


def propagation_spec(propagation: Any, parameter: str) -> PropagationSpec:
    if not isinstance(propagation, (FreeSpace, TwoRayGround, Shadowing)):
        raise _not_a(
            propagation,
            parameter,
            "a propagation model",
            "ackclock.FreeSpace(), TwoRayGround() or Shadowing(...)",
        )
    return propagation.to_native()


class WirelessPhy(Spec):
    """A radio's physical layer with an omni antenna (ns-2's Phy/WirelessPhy
    and Antenna/OmniAntenna): transmit power in watts, carrier frequency in
    Hz, the power below which a frame is only noise (`rx_threshold`) and
    below which it is not sensed at all (`cs_threshold`), the capture ratio,
    the system loss and the antenna's height above the node in metres."""

    tx_power: float = 0.28183815
    frequency: float = 914e6
    rx_threshold: float = 3.652e-10
    cs_threshold: float = 1.559e-11
    capture_threshold: float = 10.0
    system_loss: float = 1.0
    antenna_height: float = 1.5

    def to_native(self) -> PhySpec:
        def positive(value: Any, parameter: str, what: str) -> float:
            return checks.real(value, parameter, what, minimum_allowed=False)

        return {
            "tx_power": positive(self.tx_power, "tx_power", "power in watts"),
            "frequency": positive(self.frequency, "frequency", "frequency in Hz"),
            "rx_threshold": positive(self.rx_threshold, "rx_threshold", "power in watts"),
            "cs_threshold": positive(self.cs_threshold, "cs_threshold", "power in watts"),
            "capture_threshold": positive(self.capture_threshold, "capture_threshold", "ratio"),
            "system_loss": positive(self.system_loss, "system_loss", "loss factor"),
            "antenna_height": checks.real(
                self.antenna_height, "antenna_height", "height in metres"
            ),
        }


class Mac80211(Spec):
    """The 802.11 DCF MAC with ns-2's Mac/802_11 defaults: data and control
    rates, the frame size from which RTS/CTS precedes a unicast frame (0:
    always), the retry limits and the contention window bounds
    (docs/mac80211.md)."""

    data_rate: units.Bandwidth = "1Mb"
    basic_rate: units.Bandwidth = "1Mb"
    rts_threshold: int = 0
    short_retry_limit: int = 7
    long_retry_limit: int = 4
    cw_min: int = 31
    cw_max: int = 1023

    def to_native(self) -> MacSpec:
        cw_min = checks.integer(self.cw_min, "cw_min", "window", minimum=1)
        cw_max = checks.integer(self.cw_max, "cw_max", "window", minimum=cw_min)
        return {
            "data_rate_bps": units.bandwidth_bps(self.data_rate, "data_rate"),
            "basic_rate_bps": units.bandwidth_bps(self.basic_rate, "basic_rate"),
            "rts_threshold": checks.integer(self.rts_threshold, "rts_threshold", "size in bytes"),
            "short_retry_limit": checks.integer(
                self.short_retry_limit, "short_retry_limit", "retry limit", minimum=1
            ),
            "long_retry_limit": checks.integer(
                self.long_retry_limit, "long_retry_limit", "retry limit", minimum=1
            ),
            "cw_min": cw_min,
            "cw_max": cw_max,
        }


@dataclass(frozen=True)
class RadioTrace:
    """What an ns-2 trace shows of radio nodes: ns-2's old wireless layout or
    the tagged one (`newtrace`, ns-2's `use-newtrace`), whether the agents'
    (AGT) and the routing layer's (RTR) sends and receives are in it (ns-2's
    node-config `-agentTrace` and `-routerTrace`; their drops always are), and
    whether the 802.11 MAC's frames and drops are (`mac`, ns-2's `-macTrace`:
    RTS, CTS, ACK and data frames sent and received, and COL, RET, DUP, BSY
    and STA drops)."""

    newtrace: bool = False
    agent: bool = True
    router: bool = True
    mac: bool = False


def radio_trace_spec(value: Any, parameter: str) -> tuple[bool, bool, bool, bool]:
    if not isinstance(value, RadioTrace):
        raise _not_a(value, parameter, "a RadioTrace", "ackclock.RadioTrace(...)")
    return (
        checks.flag(value.newtrace, "newtrace"),
        checks.flag(value.agent, "agent"),
        checks.flag(value.router, "router"),
        checks.flag(value.mac, "mac"),
    )


def checked(value: Any, kind: type[Spec], parameter: str, use: str) -> Any:
    """`value`'s native dict, if it is a `kind`."""
    if not isinstance(value, kind):
        raise _not_a(value, parameter, f"a {kind.__name__}", use)
    return value.to_native()
