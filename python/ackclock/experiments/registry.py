"""Every experiment `ackclock experiment` knows: its name, the seed section
it reproduces, a one-line summary, and its quick and full parameters.

A study module (`module`) has `run(params, options) -> results` (its runs go
through the sweep machinery into the results store in the output directory,
so a rerun only redraws) and `write_report(results, params, out) -> paths`
(report.md, report.json with the headline numbers, and the figures).
`mm1` and `sack-ber` keep the commands they had (module None): their
options are their own.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Experiment:
    name: str
    section: str  # in the seed documents, e.g. "003 §16.2.6"
    summary: str
    module: str | None = None
    quick: Mapping[str, Any] = field(default_factory=dict)
    full: Mapping[str, Any] = field(default_factory=dict)

    def load(self) -> ModuleType:
        """The study's module (imported on demand: it needs matplotlib and pandas)."""
        if self.module is None:
            raise LookupError(f"experiment {self.name!r} has a command of its own")
        return importlib.import_module(self.module)

    def parameters(self, full: bool) -> Mapping[str, Any]:
        return self.full if full else self.quick


_CHAPTER = "ackclock.experiments.chapter."
# basic1-long.tcl's queue limits in the chapter's table (sec. 16.2.6).
_UTILIZATION_QUEUES = [3, 4, 5, 8, 10, 12, 16, 20, 22, 26, 30]
# basic2.tcl's delayB values in the chapter's table (sec. 16.3.3).
_DELAYB_TABLE = [0, 5, 23, 24, 25, 26, 35, 36, 40, 41, 45, 60, 61, 85, 110]
# Sec. 16.3.8's curves: the chapter's four telnet densities "ranging from 0.5% to 5%"
# (which four it does not say) and its three overhead values.
_OVERHEAD_VS_TELNET = {"density": [0.005, 0.01, 0.02, 0.05], "overhead": [0.01, 0.015, 0.02]}
# Sec. 16.5's Vegas (alpha, beta): renovegas.tcl's 3 and 6, and Vegas's defaults 1 and 3.
_VEGAS = {"alpha_beta": [(3, 6), (1, 3)]}

EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment("mm1", "000 §2.2", "M/M/1 queue: mean response time and job distribution"),
    Experiment(
        "processing-delay",
        "000 §4.1",
        "a processor at both ends of a transfer: goodput against the service time per packet",
        "ackclock.experiments.processing_delay",
        quick={"distribution": ["constant"], "service_us": [0, 100, 600, 1000, 2000]},
        full={
            "distribution": ["constant", "exponential"],
            "service_us": [0, 50, 100, 200, 400, 600, 800, 1000, 1500, 2000],
        },
    ),
    Experiment(
        "tcp-friendly",
        "000 §5.1",
        "Reno over 1 Gbit/s, RTT 60 ms, random loss: throughput against 1.22 MSS/(RTT sqrt(p))",
        "ackclock.experiments.tcp_friendly",
        quick={
            "mss": [1460, 536],
            "rwnd": [65535],
            "loss": [0.002, 0.005, 0.01, 0.02],
            "bits": 10**8,
            "seeds": 3,
        },
        full={
            "mss": [1460, 536],
            "rwnd": [65535, 131072],
            "loss": [*(n / 1000 for n in range(21)), 0.03, 0.04, 0.05],
            "bits": 10**9,
            "seeds": 10,
        },
    ),
    Experiment(
        "asymmetric",
        "000 §5.2",
        "10 Mbit/s down, 28.8 kbit/s up: throughput and mean cwnd against loss, MSS, delayed ACK",
        "ackclock.experiments.asymmetric",
        quick={"mss": [536, 1460], "loss": [0, 0.005, 0.01, 0.02], "bits": 10**8, "seeds": 1},
        full={
            "mss": [536, 1460],
            "loss": [n / 1000 for n in range(21)],
            "bits": 10**9,
            "seeds": 5,
        },
    ),
    Experiment(
        "compound",
        "001",
        "two Compound and two NewReno flows on a dumbbell: receive window, buffer size, fairness",
        "ackclock.experiments.compound",
        quick={"rwnd": [8192, 16384, 65535], "buffers": [10, 100, 400], "end": 100},
        full={
            "rwnd": [8192, 12288, 14600, 16384, 20480, 32768, 65535],
            "buffers": [5, 10, 20, 50, 100, 200, 500, 1000],
            "end": 300,
        },
    ),
    Experiment("sack-ber", "002 §4.1", "TCP Reno with and without SACK over a lossy link"),
    Experiment(
        "utilization",
        "003 §16.2.6",
        "one Reno sender: bottleneck utilization against queue limit (basic1-long.tcl)",
        _CHAPTER + "utilization",
        quick={"queue": [3, 10, 30], "end": 1000},
        full={"queue": _UTILIZATION_QUEUES, "end": 1000},
    ),
    Experiment(
        "queue-average",
        "003 §16.2.6.3",
        "one Reno sender: time-averaged queue for queue limit 40 (basic1-long.tcl)",
        _CHAPTER + "queue_average",
        quick={"queue": [40], "end": 1000},
        full={"queue": [35, 40, 50, 60, 80], "end": 1000},
    ),
    Experiment(
        "delivered-twice",
        "003 §16.2.6.4",
        "one Reno sender: data packets delivered twice in slow start (basic1.tcl)",
        _CHAPTER + "delivered_twice",
        quick={"queue": [7], "end": 10},
        full={"queue": [5, 7, 10, 15], "end": 10},
    ),
    Experiment(
        "loss-vs-cwnd",
        "003 §16.2.6.5",
        "one Reno sender, 1000 s: loss events, p and 1.225/sqrt(p) against the mean cwnd",
        _CHAPTER + "loss_vs_cwnd",
        quick={"queue": [7], "end": 1000},
        full={"queue": [5, 7, 10, 15], "end": 1000},
    ),
    Experiment(
        "delayb-table",
        "003 §16.3.3",
        "two Reno senders, unequal delays: goodputs and their ratio (basic2.tcl)",
        _CHAPTER + "delayb_table",
        quick={"delayB": [0, 5, 35, 36, 110]},
        full={"delayB": _DELAYB_TABLE},
    ),
    Experiment(
        "phase-effects",
        "003 §16.3.4",
        "two Reno senders: goodput ratio against delayB 0-50 ms, period 5 ms (basic2.tcl)",
        _CHAPTER + "phase_effects",
        quick={"delayB": "0:25:1"},
        full={"delayB": "0:50:0.5"},
    ),
    Experiment(
        "overhead",
        "003 §16.3.6",
        "two Reno senders: ratio1 against delayB 25-55 ms for overhead 0 to 0.02 (basic2.tcl)",
        _CHAPTER + "overhead",
        quick={"overhead": [0, 0.02], "delayB": "25:55:2"},
        full={"overhead": [0, 0.005, 0.01, 0.02], "delayB": "25:55:1"},
    ),
    Experiment(
        "telnet",
        "003 §16.3.7",
        "two Reno senders with telnet traffic: ratio1 against delayB 25-55 ms per density",
        _CHAPTER + "telnet",
        quick={"density": [0, 0.01], "delayB": "25:55:3", "end": 1000},
        full={"density": [0, 0.0025, 0.005, 0.01], "delayB": "25:55:1", "end": 3000},
    ),
    Experiment(
        "overhead-vs-telnet",
        "003 §16.3.8",
        "two Reno senders: ratio1 against delayB 0-400 ms, telnet densities against overhead",
        _CHAPTER + "overhead_vs_telnet",
        quick={**_OVERHEAD_VS_TELNET, "delayB": "0:400:100", "end": 1000},
        full={**_OVERHEAD_VS_TELNET, "delayB": "0:400:5", "end": 3000},
    ),
    Experiment(
        "rtt-fairness",
        "003 §16.3.10",
        "two senders at 8 Mbit/s: goodput ratio against RTT ratio, fitted exponent (Reno, SACK)",
        _CHAPTER + "rtt_fairness",
        quick={"end": 300, "reno": "0:400:50", "sack": "0:400:50"},
        full={"end": 3000, "reno": "0:400:1", "sack": "0:400:5"},
    ),
    Experiment(
        "sack-vs-reno",
        "003 §16.4.2",
        "two senders at 8 Mbit/s, SACK against Reno: utilization for delayB 0 and 400 ms",
        _CHAPTER + "sack_vs_reno",
        quick={"delayB": [0, 400], "end": 300},
        full={"delayB": [0, 400], "end": 3000},
    ),
    Experiment(
        "sack-cwnd",
        "003 §16.4.3",
        "two SACK senders at 8 Mbit/s: true average cwnd against K/sqrt(p), per flow and delayB",
        _CHAPTER + "sack_cwnd",
        quick={"delayB": [0, 100, 400], "end": 1000},
        full={"delayB": [0, 10, 20, 40, 70, 100, 150, 200, 250, 300, 350, 400], "end": 3000},
    ),
    Experiment(
        "drop-clusters",
        "003 §16.4.4",
        "two Reno senders, equal paths: drops per flow in each loss event against overhead",
        _CHAPTER + "drop_clusters",
        quick={"overhead": [0, 0.008], "end": 3000},
        full={"overhead": [0, 0.0012, 0.003, 0.0055, 0.008, 0.02], "end": 3000},
    ),
    Experiment(
        "reno-vs-vegas",
        "003 §16.5",
        "Reno against Vegas (alpha/beta 3/6 and 1/3): goodput ratio against queue size, cwnd",
        _CHAPTER + "reno_vs_vegas",
        quick={**_VEGAS, "queue": [10, 20, 60, 220], "seeds": [1], "end": 300},
        full={**_VEGAS, "queue": list(range(10, 221, 10)), "seeds": [1, 2, 3, 4, 5], "end": 300},
    ),
    Experiment(
        "wireless",
        "003 §16.6",
        "a node moving over a row of nodes, 802.11 with AODV and DSDV: CBR delivered, drops",
        _CHAPTER + "wireless",
        quick={"routing": ["AODV", "DSDV"], "finish": [100]},
        full={"routing": ["AODV", "DSDV"], "finish": [10, 100]},
    ),
    Experiment(
        "tahoe-reorder",
        "004",
        "Tahoe through a router buffer that delays each packet exponentially: utilization, drops",
        "ackclock.experiments.tahoe_reorder",
        quick={"seeds": 10},
        full={
            "seeds": 30,
            "grid": {
                "mean": [0, 1, 2],
                "buffer": [5, 10],
                "timeout": [1, 3, 5],
                "cap": [0, 3],
                "rtts": [100, 200],
            },
        },
    ),
)


def find(name: str) -> Experiment | None:
    for experiment in EXPERIMENTS:
        if experiment.name == name:
            return experiment
    return None
