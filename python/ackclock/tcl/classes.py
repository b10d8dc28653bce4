"""ns-2's OTcl classes as far as scripts see them: a name, a parent, and
variables with defaults that `Class set var value` changes for objects
created afterwards (ns-2's instvar defaults).

The defaults are ns-2 2.35's (docs/ns2-reference.md, "ns-2 default values").
"""

from __future__ import annotations

from ackclock.tcl.errors import TclScriptError

# name -> (parent, variables it adds or overrides)
_CLASSES: dict[str, tuple[str | None, dict[str, str]]] = {
    "Simulator": (None, {}),
    "Agent": (None, {"fid_": "0", "packetSize_": "1000"}),
    "Agent/TCP": (
        "Agent",
        {
            "window_": "20",
            "windowInit_": "2",
            "packetSize_": "1000",
            "cwnd_": "1",
            "ssthresh_": "20",
            "tcpTick_": "0.01",
            "minrto_": "0.2",
            "maxrto_": "60",
            "rtxcur_init_": "3",
            "numdupacks_": "3",
            "singledup_": "1",
            "maxburst_": "0",
            "overhead_": "0",
            "syn_": "1",
            "timestamps_": "0",
            "ack_": "-1",
            "maxseq_": "-1",
            "t_seqno_": "0",
            "rtt_": "0",
            "srtt_": "0",
            "ndatapack_": "0",
            "ndatabytes_": "0",
            "nrexmitpack_": "0",
            "nrexmit_": "0",
            "ncwndcuts_": "0",
        },
    ),
    "Agent/TCP/Reno": ("Agent/TCP", {}),
    "Agent/TCP/Newreno": ("Agent/TCP", {}),
    "Agent/TCP/Sack1": ("Agent/TCP", {}),
    "Agent/TCP/Vegas": ("Agent/TCP", {"v_alpha_": "1", "v_beta_": "3", "v_gamma_": "1"}),
    "Agent/TCP/Linux": ("Agent/TCP", {}),
    "Agent/TCPSink": ("Agent", {"packetSize_": "40", "bytes_": "0", "maxSackBlocks_": "3"}),
    "Agent/TCPSink/Sack1": ("Agent/TCPSink", {}),
    "Agent/TCPSink/DelAck": ("Agent/TCPSink", {"interval_": "0.1"}),
    "Agent/TCPSink/Sack1/DelAck": ("Agent/TCPSink/Sack1", {"interval_": "0.1"}),
    "Agent/UDP": ("Agent", {}),
    "Agent/Null": ("Agent", {}),
    "Agent/LossMonitor": (
        "Agent",
        {"npkts_": "0", "bytes_": "0", "nlost_": "0", "lastPktTime_": "0"},
    ),
    "Application": (None, {}),
    "Application/FTP": ("Application", {"maxpkts_": "268435456"}),
    "Application/Telnet": ("Application", {"interval_": "1.0"}),
    "Application/Traffic/CBR": (
        "Application",
        {
            "packetSize_": "210",
            "rate_": "448Kb",
            "random_": "0",
            "maxpkts_": "268435456",
        },
    ),
    "Application/Traffic/Exponential": (
        "Application",
        {"packetSize_": "210", "burst_time_": "0.5", "idle_time_": "0.5", "rate_": "64Kb"},
    ),
    "ErrorModel": (None, {"rate_": "0", "enable_": "1", "bandwidth_": "2Mb"}),
    "ErrorModel/Uniform": ("ErrorModel", {}),
    "ErrorModel/List": ("ErrorModel", {}),
    "Queue": (None, {"limit_": "50"}),
    "Queue/DropTail": ("Queue", {}),
    "Queue/RED": (
        "Queue",
        {
            "thresh_": "5",
            "maxthresh_": "15",
            "q_weight_": "0.002",
            "linterm_": "10",
            "gentle_": "true",
            "setbit_": "false",
            "mean_pktsize_": "500",
        },
    ),
    # RNG is ns-2's generator (MRG32k3a streams); random variables are accepted
    # and draw from ackclock's streams of the run's seed (see docs/tcl.md).
    "RNG": (None, {}),
    "RandomVariable/Uniform": (None, {"min_": "0", "max_": "1"}),
    "RandomVariable/Exponential": (None, {"avg_": "1"}),
}


def names() -> list[str]:
    return sorted(_CLASSES)


def exists(name: str) -> bool:
    return name in _CLASSES


def is_a(name: str, ancestor: str) -> bool:
    """Whether class `name` is `ancestor` or derives from it."""
    current: str | None = name
    while current is not None:
        if current == ancestor:
            return True
        current = _CLASSES[current][0]
    return False


class ClassVariables:
    """Every class's variable defaults, changed by `Class set var value`."""

    def __init__(self) -> None:
        self._set: dict[str, dict[str, str]] = {}

    def set(self, cls: str, var: str, value: str) -> None:
        self._set.setdefault(cls, {})[var] = value

    def get(self, cls: str, var: str) -> str | None:
        """The default an object of class `cls` gets for `var`, if any."""
        current: str | None = cls
        while current is not None:
            for table in (self._set.get(current, {}), _CLASSES[current][1]):
                if var in table:
                    return table[var]
            current = _CLASSES[current][0]
        return None

    def require(self, cls: str, var: str) -> str:
        value = self.get(cls, var)
        if value is None:
            raise TclScriptError(f"{cls} has no variable {var!r}")
        return value
