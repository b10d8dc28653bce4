"""ns-2's wireless nodes (seed 003, sec. 16.6) on ackclock's radio.

`$ns node-config` chooses how the nodes created after it are built; with an
ad hoc routing protocol they are mobile nodes with one radio interface. Each
such node keeps, from the moment it is created (as ns-2's objects copy their
class defaults then), what its interface is: propagation, PHY and MAC
parameters from the class variables (`Phy/WirelessPhy set Pt_ ...`,
`Mac/802_11 set dataRate_ 2Mb`, `Antenna/OmniAntenna set Z_ ...`) and the
interface queue's length. `$ns run` turns them into one `sim.radio(...)` per
channel, `radio.attach` per node, `sim.move` per `setdest` and
`sim.routing(AODV() or DSDV())` (`build`, the one place that calls the API).

Options, models and variables ackclock does not model are refused with one
line naming them; docs/tcl.md lists what is supported.
"""

from __future__ import annotations

import difflib
import math
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ackclock import nam
from ackclock.network_specs import AODV, DSDV
from ackclock.tcl import ns2_units, registry
from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.nodes import NodeObject
from ackclock.tcl.shadow import Kind, Shadow, Var, ns2_real, parse_bool, real, whole
from ackclock.wireless import Mac80211, RadioTrace, WirelessPhy

if TYPE_CHECKING:
    from ackclock.handles import Node, Radio
    from ackclock.simulator import Simulator
    from ackclock.tcl.world import World

# --- what a radio interface is, as the Python API takes it ----------------------


@dataclass(frozen=True)
class PropagationParams:
    """`model` names the ackclock class (TwoRayGround, FreeSpace, Shadowing)."""

    model: str
    shadowing: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class RadioParams:
    """One node's interface; the nodes of one channel must agree on it."""

    propagation: PropagationParams
    phy: WirelessPhy
    mac: Mac80211
    queue_limit: int
    ll_delay_ps: int  # LL's delay_


# --- the ns-2 classes node-config takes, and their variables ---------------------

# DumbAgent sends each packet straight to its destination: static routing.
ROUTING = ("AODV", "DSDV", "DumbAgent")
ROUTING_REFUSED = {
    "DSR": "DSR",
    "TORA": "TORA",
    "AOMDV": "AOMDV",
    "PUMA": "PUMA",
    "MDART": "M-DART",
    "DIFFUSION/RATE": "directed diffusion",
    "DIFFUSION/PROB": "directed diffusion",
    "Directed_Diffusion": "directed diffusion",
    "FLOODING": "flooding",
    "OMNIMCAST": "omnicast",
    "ManualRtg": "manual routing",
}
PROPAGATION = {
    "Propagation/TwoRayGround": "TwoRayGround",
    "Propagation/FreeSpace": "FreeSpace",
    "Propagation/Shadowing": "Shadowing",
}
# option -> (the one class modelled, what it is)
CLASS_OPTIONS = {
    "llType": ("LL", "link layer"),
    "macType": ("Mac/802_11", "MAC"),
    "ifqType": ("Queue/DropTail/PriQueue", "interface queue"),
    "antType": ("Antenna/OmniAntenna", "antenna"),
    "phyType": ("Phy/WirelessPhy", "PHY"),
    "channelType": ("Channel/WirelessChannel", "channel"),
}
TRACE_OPTIONS = ("agentTrace", "routerTrace", "macTrace", "movementTrace", "phyTrace", "eotTrace")
# options ns-2 accepts that ackclock does not model: why (given any value but OFF)
REFUSED_OPTIONS = {
    "mobileIP": "Mobile IP is not modelled",
    "energyModel": "the energy model is not modelled",
    "initialEnergy": "the energy model is not modelled",
    "txPower": "the energy model is not modelled (node-config's txPower is the power it "
    "drains; the radio's transmit power is Phy/WirelessPhy set Pt_)",
    "rxPower": "the energy model is not modelled",
    "idlePower": "the energy model is not modelled",
    "sleepPower": "the energy model is not modelled",
    "sleepTime": "the energy model is not modelled",
    "transitionPower": "the energy model is not modelled",
    "transitionTime": "the energy model is not modelled",
    "IncomingErrProc": "error models on wireless interfaces are not modelled",
    "OutgoingErrProc": "error models on wireless interfaces are not modelled",
    "FECProc": "forward error correction is not modelled",
    "satNodeType": "satellite nodes are not modelled",
    "downlinkBW": "satellite nodes are not modelled",
    "stopTime": "satellite nodes are not modelled",
    "rtAgentFunction": "routing agents of the script's own are not modelled",
    "diffusionFilter": "directed diffusion is not modelled",
    "MPLS": "MPLS is not modelled",
    "PGM": "PGM (reliable multicast) is not modelled",
    "LMS": "LMS (reliable multicast) is not modelled",
}
OPTIONS = sorted(
    [
        "adhocRouting",
        "addressType",
        "channel",
        "ifqLen",
        "propInstance",
        "propType",
        "topoInstance",
        "toraDebug",
        "wiredRouting",
        *CLASS_OPTIONS,
        *TRACE_OPTIONS,
        *REFUSED_OPTIONS,
    ]
)

# ns-2 variable -> parameter, per class
PHY_VARIABLES = {
    "Pt_": "tx_power",
    "freq_": "frequency",
    "RXThresh_": "rx_threshold",
    "CSThresh_": "cs_threshold",
    "CPThresh_": "capture_threshold",
    "L_": "system_loss",
}
ANTENNA_VARIABLES = {"Z_": "antenna_height"}
MAC_RATES = {"dataRate_": "data_rate", "basicRate_": "basic_rate"}
MAC_COUNTS = {
    "RTSThreshold_": "rts_threshold",
    "ShortRetryLimit_": "short_retry_limit",
    "LongRetryLimit_": "long_retry_limit",
    "CWMin_": "cw_min",
    "CWMax_": "cw_max",
}
SHADOWING_VARIABLES = {
    "pathlossExp_": "path_loss_exponent",
    "std_db_": "deviation_db",
    "dist0_": "reference_distance",
}
# variables that change nothing ackclock computes, per class, with the reason
IGNORED = {
    "Mac/802_11": {
        **{
            var: "infrastructure mode only (ad hoc nodes neither scan nor send beacons)"
            for var in (
                "BeaconInterval_",
                "ScanType_",
                "ProbeDelay_",
                "ChannelTime_",
                "MaxChannelTime_",
                "MinChannelTime_",
            )
        },
        "debug_": "debugging output",
    },
    "Phy/WirelessPhy": {"bandwidth_": "ns-2's 802.11 takes its rates from Mac/802_11"},
    "Channel/WirelessChannel": {"delay_": "the radio's delay is distance / c"},
    "LL": {"debug_": "debugging output"},
    "Propagation/Shadowing": {"seed_": "shadowing draws from ackclock's generator"},
    # ns-2 prints these only to a trace target that node-config does not give
    "Agent/DSDV": {"verbose_": "debugging output", "trace_wst_": "debugging output"},
}
ROUTING_AGENTS = {"AODV": "Agent/AODV", "DSDV": "Agent/DSDV"}
# the variables of Agent/DSDV that ac.DSDV takes (`routing_protocol`)
DSDV_VARIABLES = ("perup_", "min_update_periods_", "wst0_", "alpha_", "use_mac_", "be_random_")
AXES = ("X_", "Y_", "Z_")


# --- node-config -------------------------------------------------------------------


@dataclass
class NodeConfig:
    """What `$ns node-config` said so far (ns-2 keeps each option until it is
    given again)."""

    routing: str = ""
    classes: dict[str, str] = field(default_factory=dict)  # option -> class
    queue_limit: int | None = None
    propagation: str = ""  # a Propagation object
    channel: str = ""  # a Channel/WirelessChannel object
    topography: str = ""  # a Topography object
    # -agentTrace, -routerTrace and -macTrace as given (ns-2's defaults: ON, OFF, OFF)
    traced: dict[str, bool] = field(default_factory=dict)


@dataclass
class Wireless:
    """The script's wireless state (one per World)."""

    config: NodeConfig = field(default_factory=NodeConfig)
    # the channel `-channelType` makes, shared by the nodes configured so
    typed_channel: str = ""
    newtrace: bool = False  # `$ns use-newtrace`
    field_size: tuple[float, float] | None = None  # namtrace-all-wireless's X and Y
    node_sizes: dict[int, float] = field(default_factory=dict)  # initial_node_pos
    # each channel's radio, as built, with its nodes' interface
    radios: list[tuple[Radio, RadioParams]] = field(default_factory=list)

    def radio_trace(self) -> RadioTrace:
        """What `trace-all` shows of the wireless nodes (as node-config said
        last, which ns-2 applies to every node made after)."""
        traced = self.config.traced
        return RadioTrace(
            newtrace=self.newtrace,
            agent=traced.get("agentTrace", True),
            router=traced.get("routerTrace", False),
            mac=traced.get("macTrace", False),
        )

    def wireless_nodes(self) -> bool:
        """Whether `$ns node` makes a mobile node (ns-2: an ad hoc routing protocol is set)."""
        return self.config.routing != ""


def node_config(world: World, args: tuple[str, ...]) -> None:
    """`$ns node-config -option value ...`."""
    if len(args) % 2:
        raise TclScriptError(f"node-config: option {args[-1]} has no value")
    for option, value in zip(args[::2], args[1::2]):
        _configure(world, option.removeprefix("-"), value)
    config = world.wireless.config
    if config.channel and "channelType" in config.classes:
        raise TclScriptError("node-config: give -channel or -channelType, not both (as in ns-2)")


def _configure(world: World, name: str, value: str) -> None:
    config = world.wireless.config
    if name not in OPTIONS:
        close = difflib.get_close_matches(name, OPTIONS, n=2, cutoff=0.6)
        hint = f" (did you mean {' or '.join('-' + c for c in close)}?)" if close else ""
        raise TclScriptError(
            f"node-config -{name}: no such option{hint}; ns-2's options are "
            + ", ".join("-" + o for o in OPTIONS)
        )
    if name in REFUSED_OPTIONS:
        if value.upper() != "OFF" and value != "":
            raise TclScriptError(f"node-config -{name} {value}: {REFUSED_OPTIONS[name]}")
    elif name == "adhocRouting":
        if value in ROUTING_REFUSED:
            raise TclScriptError(
                f"node-config -adhocRouting {value}: {ROUTING_REFUSED[value]} is not modelled "
                f"(supported: {', '.join(ROUTING)})"
            )
        if value not in ROUTING and value != "":
            raise TclScriptError(
                f"node-config -adhocRouting {value}: no such routing protocol "
                f"(supported: {', '.join(ROUTING)})"
            )
        config.routing = value
    elif name in CLASS_OPTIONS:
        modelled, what = CLASS_OPTIONS[name]
        _require_class(name, value)
        if value != modelled:
            raise TclScriptError(
                f"node-config -{name} {value}: only {modelled} is modelled as the {what}"
            )
        config.classes[name] = value
    elif name == "propType":
        _require_class(name, value)
        if value not in PROPAGATION:
            raise TclScriptError(
                f"node-config -propType {value}: not modelled (supported: {', '.join(PROPAGATION)})"
            )
        # ns-2 makes one propagation object, at the first -propType, unless
        # the script gave its own (-propInstance)
        if not config.propagation:
            config.propagation = world.tcl.call("new", value)
    elif name == "propInstance":
        config.propagation = world.shadow(value, PropagationObject, "a Propagation object").name
    elif name == "ifqLen":
        config.queue_limit = whole(value, "node-config -ifqLen")
        if config.queue_limit < 1:
            raise TclScriptError(f"node-config -ifqLen {value}: must be 1 or more")
    elif name == "channel":
        config.channel = world.shadow(value, ChannelObject, "a Channel/WirelessChannel").name
    elif name == "topoInstance":
        config.topography = world.shadow(value, TopographyObject, "a Topography").name
    elif name == "wiredRouting":
        if parse_bool(value, "node-config -wiredRouting"):
            raise TclScriptError(
                "node-config -wiredRouting ON: wired-cum-wireless (base stations) is not modelled"
            )
    elif name == "addressType":
        if value not in ("flat", "def", "expanded", "hierarchical"):
            raise TclScriptError(
                f"node-config -addressType {value}: use flat, def, expanded or hierarchical"
            )
    elif name in ("agentTrace", "routerTrace", "macTrace"):
        config.traced[name] = parse_bool(value, f"node-config -{name}")
    else:  # the other trace options, toraDebug
        parse_bool(value, f"node-config -{name}")


def _require_class(option: str, value: str) -> None:
    if value not in registry.NS2:
        raise TclScriptError(f"node-config -{option} {value}: there is no class {value}")


# --- reading class variables ---------------------------------------------------------


def class_variable(world: World, cls: str, var: str) -> str:
    """`cls`'s value of `var` (its own or its nearest superclass's), as a
    script set it with `Class set var value` or ns-2's default."""
    for owner in world.heritage(cls):
        value = world.tcl.get(f"{world.tcl.call('::otcl::vars', owner)}::{var}")
        if value is not None:
            return value
    raise TclScriptError(f"{cls} has no variable {var!r}")


def _check_unmodelled(cls: str, values: dict[str, str], used: set[str], what: str = "") -> None:
    """Refuses a variable of `cls`'s own (not its superclasses') that ackclock
    neither maps nor ignores, at a value other than ns-2's default."""
    ignored = IGNORED.get(cls, {})
    for var, default in registry.NS2[cls].defaults.items():
        if var in used or var in ignored:
            continue
        value = values[var]
        if not registry.same_value(value, default):
            raise TclScriptError(
                f"{what or cls} {var} {value} is not supported: ackclock does not model "
                f"{cls}'s {var} (only ns-2's default {default})"
            )


def _class_values(world: World, cls: str) -> dict[str, str]:
    return {var: class_variable(world, cls, var) for var in registry.NS2[cls].defaults}


def _number(values: dict[str, str], var: str, cls: str, minimum: float = 0.0) -> float:
    number = real(values[var], f"{cls} {var}")
    if number < minimum:
        raise TclScriptError(f"{cls} {var} {values[var]}: must be at least {minimum:g}")
    return number


def _count(values: dict[str, str], var: str, cls: str) -> int:
    number = _number(values, var, cls)
    if not number.is_integer():
        raise TclScriptError(f"{cls} {var} {values[var]}: must be a whole number")
    return int(number)


def _rate(values: dict[str, str], var: str, cls: str) -> str:
    return f"{ns2_units.bandwidth_bps(values[var], f'{cls} {var}')}bps"


def phy_params(world: World, phy_cls: str, antenna_cls: str) -> WirelessPhy:
    """The PHY and antenna class variables as ac.WirelessPhy's parameters."""
    phy = _class_values(world, phy_cls)
    antenna = _class_values(world, antenna_cls)
    _check_unmodelled(phy_cls, phy, set(PHY_VARIABLES))
    _check_unmodelled(antenna_cls, antenna, set(ANTENNA_VARIABLES))
    params = {field: _number(phy, var, phy_cls) for var, field in PHY_VARIABLES.items()}
    params["antenna_height"] = _number(antenna, "Z_", antenna_cls)
    return WirelessPhy(**params)


def routing_protocol(world: World, routing: str) -> AODV | DSDV | None:
    """The routing agent's class variables as its protocol's parameters
    (None for DumbAgent, which has neither)."""
    if routing == "DumbAgent":
        return None
    agent = ROUTING_AGENTS[routing]
    values = _class_values(world, agent)
    if routing == "AODV":
        _check_unmodelled(agent, values, set())
        return AODV()
    _check_unmodelled(agent, values, set(DSDV_VARIABLES))
    period = _number(values, "perup_", agent)
    if period == 0:
        raise TclScriptError(f"{agent} perup_ {values['perup_']}: must be more than 0")
    alpha = _number(values, "alpha_", agent)
    if alpha > 1:
        raise TclScriptError(f"{agent} alpha_ {values['alpha_']}: must be at most 1")
    return DSDV(
        periodic_update_interval=period,
        min_update_periods=_count(values, "min_update_periods_", agent),
        wst0=_number(values, "wst0_", agent),
        alpha=alpha,
        use_mac=parse_bool(values["use_mac_"], f"{agent} use_mac_"),
        be_random=parse_bool(values["be_random_"], f"{agent} be_random_"),
    )


def mac_params(world: World, mac_cls: str) -> Mac80211:
    """The 802.11 class variables as ac.Mac80211's parameters."""
    mac = _class_values(world, mac_cls)
    _check_unmodelled(mac_cls, mac, set(MAC_RATES) | set(MAC_COUNTS))
    rates = {field: _rate(mac, var, mac_cls) for var, field in MAC_RATES.items()}
    counts = {field: _count(mac, var, mac_cls) for var, field in MAC_COUNTS.items()}
    return Mac80211(**rates, **counts)


# --- objects --------------------------------------------------------------------------


class TopographyObject(Shadow):
    """`new Topography`; `load_flatgrid X Y ?resolution?` gives its size."""

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.size: tuple[float, float] | None = None

    def cmd_load_flatgrid(self, x: str, y: str, resolution: str = "1") -> None:
        width, height = real(x, "load_flatgrid x"), real(y, "load_flatgrid y")
        if width <= 0 or height <= 0:
            raise TclScriptError(f"load_flatgrid {x} {y}: the field must be larger than 0 x 0")
        real(resolution, "load_flatgrid resolution")
        self.size = (width, height)

    def cmd_load_demfile(self, *args: str) -> None:
        raise TclScriptError("load_demfile: terrain (DEM) topographies are not modelled")

    def contains(self, x: float, y: float) -> bool:
        """Whether ns-2's setdest accepts (x, y): strictly inside the field."""
        assert self.size is not None
        return 0 < x < self.size[0] and 0 < y < self.size[1]


class GodObject(Shadow):
    """ns-2's General Operations Director (`create-god N`): ackclock's routing
    needs no global view, so only the node count is kept."""

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.nodes = 0

    def cmd_num_nodes(self, nodes: str) -> None:
        self.nodes = whole(nodes, "create-god")
        if self.nodes <= 0:
            raise TclScriptError(f"create-god {nodes}: God needs at least one node")
        self.world.c_print(f"num_nodes is set {self.nodes}")

    def cmd_set_dist(self, a: str, b: str, hops: str) -> None:
        """The shortest hop count between two nodes, which movement files tell
        ns-2's God for its statistics: checked, not needed."""
        for value, what in ((a, "node"), (b, "node"), (hops, "hop count")):
            whole(value, f"God set-dist {what}")


class ChannelObject(Shadow):
    """`new Channel/WirelessChannel`: the nodes given it share one radio medium."""


class PropagationObject(Shadow):
    """`new Propagation/TwoRayGround|FreeSpace|Shadowing` (or -propType's)."""

    variables = {var: Var(Kind.REAL) for var in SHADOWING_VARIABLES}

    def cmd_topography(self, topography: str) -> None:
        self.world.shadow(topography, TopographyObject, "a Topography")

    def cmd_seed(self, *how: str) -> None:
        """Shadowing's generator (`seed predef|raw|heuristic N`): ackclock draws
        from a stream of the run's seed instead."""
        if len(how) != 2 or how[0] not in ("predef", "raw", "heuristic"):
            raise TclScriptError(f"{self} seed: give predef, raw or heuristic and a number")
        whole(how[1], f"{self} seed")

    def params(self) -> PropagationParams:
        model = self.nearest(PROPAGATION)
        if model != "Shadowing":
            return PropagationParams(model)
        values = {var: self.var(var) for var in registry.NS2[self.ns2_class].defaults}
        _check_unmodelled(self.ns2_class, values, set(SHADOWING_VARIABLES), str(self))
        shadowing = tuple(
            (field, real(values[var], f"{self} {var}"))
            for var, field in SHADOWING_VARIABLES.items()
        )
        return PropagationParams(model, shadowing)


class MobileNode(NodeObject):
    """A node made after `node-config -adhocRouting ...`: a position (X_ Y_
    Z_, read from the simulation while it runs), `setdest`, one radio."""

    variables = {axis: Var(Kind.REAL, live=True) for axis in AXES}

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        config = world.wireless.config
        self.routing = config.routing
        self.radio, self.channel, self.topography = _interface(world)
        # ns-2's agent copies its class variables when the node is made
        self.protocol = routing_protocol(world, self.routing)

    def live(self, name: str) -> str | None:
        sim = self.world.sim
        if sim is None or self.handle is None:
            return None
        return ns2_real(sim.position(self.handle)[AXES.index(name)])

    def assigned(self, name: str, value: str) -> None:
        if self.world.sim is not None:
            raise TclScriptError(
                f"{self} set {name}: a node's position is set before $ns run (then use setdest)"
            )

    def position(self) -> tuple[float, float, float]:
        x, y, z = (self.number(axis) for axis in AXES)
        return (x, y, z)

    def cmd_random_motion(self, on: str) -> None:
        """ns-2's random motion of a node (off unless turned on): only off is
        modelled here; ackclock.random_waypoint moves nodes at random."""
        if parse_bool(on, f"{self} random-motion"):
            raise TclScriptError(
                f"{self} random-motion {on}: not modelled in the Tcl front end (use setdest, "
                "or ackclock.random_waypoint from Python)"
            )

    def cmd_setdest(self, x: str, y: str, speed: str) -> None:
        """ns-2's setdest: a straight line at `speed` m/s to (x, y), then stop;
        the destination must lie strictly inside the topography."""
        what = f"{self} setdest {x} {y} {speed}"
        dest = (real(x, f"{what}: x"), real(y, f"{what}: y"))
        rate = real(speed, f"{what}: speed")
        if rate < 0:
            raise TclScriptError(f"{what}: the speed must be 0 m/s or more")
        topography = self.world.shadow(self.topography, TopographyObject, "a Topography")
        if topography.size is None:
            raise TclScriptError(f"{what}: the topography has no size (use load_flatgrid)")
        if not topography.contains(*dest):
            width, height = topography.size
            raise TclScriptError(
                f"{what}: the destination must lie inside the topography "
                f"(0 < x < {width:g}, 0 < y < {height:g}), as ns-2 requires"
            )

        def move() -> None:
            sim = self.world.built()
            assert self.handle is not None
            sim.move(self.handle, f"{sim.now_ps}ps", dest, rate)

        self.world.when_running(move)


def _interface(world: World) -> tuple[RadioParams, str, str]:
    """The interface a new mobile node gets from node-config and the class
    variables now; one line naming what node-config still lacks."""
    config = world.wireless.config
    needed = {
        **{option: config.classes.get(option, "") for option in CLASS_OPTIONS},
        "ifqLen": config.queue_limit,
        "propType": config.propagation,
        "topoInstance": config.topography,
    }
    needed.pop("channelType")
    if not (config.channel or config.classes.get("channelType")):
        needed["channel"] = ""
    missing = [option for option, value in needed.items() if not value]
    if missing:
        raise TclScriptError(
            f"$ns node: a wireless node needs node-config {', '.join('-' + m for m in missing)}"
        )
    channel = config.channel
    if not channel:
        if not world.wireless.typed_channel:
            world.wireless.typed_channel = world.tcl.call("new", config.classes["channelType"])
        channel = world.wireless.typed_channel
    ll = _class_values(world, config.classes["llType"])
    _check_unmodelled(config.classes["llType"], ll, {"delay_"})
    for cls in (config.classes["ifqType"], "Channel/WirelessChannel"):
        _check_unmodelled(cls, _class_values(world, cls), set())
    assert config.queue_limit is not None
    propagation = world.shadow(config.propagation, PropagationObject, "a Propagation object")
    radio = RadioParams(
        propagation=propagation.params(),
        phy=phy_params(world, config.classes["phyType"], config.classes["antType"]),
        mac=mac_params(world, config.classes["macType"]),
        queue_limit=config.queue_limit,
        ll_delay_ps=ns2_units.duration_ps(ll["delay_"], "LL delay_"),
    )
    return radio, channel, config.topography


# --- the Simulator's wireless commands -------------------------------------------------


class WirelessCommands:
    """The Simulator's commands for wireless scripts (mixed into SimulatorObject)."""

    world: World

    def cmd_node_config(self, *args: str) -> None:
        self.world.unbuilt("node-config")
        node_config(self.world, args)

    def cmd_namtrace_all_wireless(self, channel: str, x: str, y: str) -> None:
        """A nam trace of the wireless nodes, their moves and packets."""
        self.world.wireless.field_size = (
            real(x, "namtrace-all-wireless x"),
            real(y, "namtrace-all-wireless y"),
        )
        self.world.unbuilt("traces")
        self.world.channels.require_writable(channel)
        self.world.nam.channels.append(channel)

    def cmd_initial_node_pos(self, node: str, size: str) -> None:
        """Where nam first draws the node, and how large."""
        mobile = self.world.shadow(node, MobileNode, "a wireless node")
        self.world.wireless.node_sizes[mobile.id] = real(size, "initial_node_pos size")

    def cmd_nam_end_wireless(self, stoptime: str) -> None:
        """The nam trace's end record (`W -t stoptime`)."""
        self.world.nam_line(f"W -t {stoptime}")

    def cmd_use_newtrace(self) -> None:
        """ns-2's tagged layout for wireless records."""
        self.world.unbuilt("use-newtrace")
        self.world.wireless.newtrace = True


# --- building ------------------------------------------------------------------------------


def nam_preamble(world: World) -> str | None:
    """The header of a `namtrace-all-wireless` trace (None without one)."""
    if world.wireless.field_size is None:
        return None
    placed = [
        (node.id, *node.position(), world.wireless.node_sizes[node.id])
        for node in world.nodes
        if isinstance(node, MobileNode) and node.id in world.wireless.node_sizes
    ]
    width, height = world.wireless.field_size
    return nam.wireless_preamble(
        placed, width, height, world.nam.colors, world.nam.node_colors.items()
    )


SPEED_OF_LIGHT = 3.0e8  # m/s, as ns-2 (propagation.h) turns frequency into wavelength


def carrier_sense_report(world: World) -> list[str]:
    """The lines ns-2's wireless channel prints when a radio first sends:
    the highest antenna and the range within which a frame is sensed (the
    distance at which the received power falls to the carrier-sense
    threshold, which ns-2's Shadowing does not bound); none if no radio
    sent. ns-2 computes it once, for the channel of the first frame."""
    for radio, params in world.wireless.radios:
        if not any(nic["tx_packets"] for nic in radio.stats()):
            continue
        phy = params.phy
        height = max(phy.antenna_height, 0.0)
        model = params.propagation.model
        if model == "TwoRayGround":
            distance = (phy.tx_power * height**4 / phy.cs_threshold) ** 0.25
        elif model == "FreeSpace":
            wavelength = SPEED_OF_LIGHT / phy.frequency
            power = phy.tx_power * wavelength**2 / (phy.system_loss * phy.cs_threshold)
            distance = math.sqrt(power) / (4 * math.pi)
        else:
            distance = sys.float_info.max
        return [
            "channel.cc:sendUp - Calc highestAntennaZ_ and distCST_",
            f"highestAntennaZ_ = {height:.1f},  distCST_ = {distance:.1f}",
        ]
    return []


def endless(world: World) -> bool:
    """Whether mobile nodes run ad hoc routing, whose timers go on for ever,
    so that only the script's exit ends a run, as in ns-2."""
    return any(isinstance(node, MobileNode) for node in world.nodes)


def build(world: World, sim: Simulator) -> None:
    """The radios, positions and routing of the script's mobile nodes."""
    import ackclock as ac

    mobile = [node for node in world.nodes if isinstance(node, MobileNode)]
    by_channel: dict[str, list[MobileNode]] = {}
    for node in mobile:
        registry.check_defaults(node)
        by_channel.setdefault(node.channel, []).append(node)
    for channel, nodes in by_channel.items():
        params = nodes[0].radio
        for node in nodes[1:]:
            if node.radio != params:
                raise TclScriptError(
                    f"nodes {nodes[0].id} and {node.id} share {channel} but were configured "
                    "differently (node-config or class variables changed between them): "
                    "ackclock gives the nodes of one channel one configuration"
                )
        radio = sim.radio(
            propagation=getattr(ac, params.propagation.model)(**dict(params.propagation.shadowing)),
            phy=params.phy,
            mac=params.mac,
            queue_limit=params.queue_limit,
            ll_delay=f"{params.ll_delay_ps}ps",
        )
        for node in nodes:
            radio.attach(node.handle, position=node.position())
        world.wireless.radios.append((radio, params))
    by_protocol: dict[AODV | DSDV | None, list[Node]] = {}
    for node in mobile:
        assert node.handle is not None
        by_protocol.setdefault(node.protocol, []).append(node.handle)
    for protocol, handles in by_protocol.items():
        if protocol is not None:
            sim.routing(protocol, nodes=handles)
