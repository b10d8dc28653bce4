"""A fuzzer for `ackclock tcl`: ns-2 scripts from a grammar of the commands
scripts use (valid and invalid uses mixed), and mutations of real scripts.

A case passes when the run ends as the front end promises: the script's exit
status, or one line `script:LINE: ...` (TclScriptError, exit status 2) -- never
another exception, an internal error, or an error without its line.

    python tests/tcl_fuzz.py [--cases 2000] [--seed 1] [--budget 5]

runs that many cases (`make fuzz`); a failing case is written to
tests/fixtures/tcl_fuzz/ to become a regression test (test_tcl_fuzz.py).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CRASHES = HERE / "fixtures" / "tcl_fuzz"
# Real scripts to mutate: the chapter's and the corpus's.
SEEDS = sorted((ROOT / "benchmarks" / "ns2").glob("*.tcl")) + sorted(
    (HERE / "tcl_corpus").glob("*.tcl")
)
ERROR = re.compile(r"^[^:\n]+\.tcl:\d+[ :]")


# --- the grammar ---------------------------------------------------------------


class Script:
    """One generated script: lines, and the Tcl names it made so far."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[str] = []
        self.nodes: list[str] = []
        self.agents: dict[str, str] = {}  # variable -> class
        self.readable: list[str] = []  # "$obj set var" reads that are valid
        self.apps: list[str] = []
        self.models: list[str] = []
        self.count = 0

    def name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def add(self, line: str) -> None:
        self.lines.append(line)

    def pick(self, options: list[str], broken: list[str] | None = None) -> str:
        """Mostly a valid option, sometimes a broken one."""
        if broken and self.rng.random() < 0.015:
            return self.rng.choice(broken)
        return self.rng.choice(options)


BANDWIDTHS = ["1Mb", "10Mb", "1.5Mb", "800Kb", "64kb", "2e6", "100Mbps", "1MB"]
BAD_BANDWIDTHS = ["", "fast", "-1Mb", "0", "1Mx", "1e400"]
DELAYS = ["1ms", "10ms", "2.5ms", "0.02", "100us", "0"]
BAD_DELAYS = ["", "soon", "-1ms", "1e400"]
QUEUES = ["DropTail", "RED", "DRR", "SFQ"]
BAD_QUEUES = ["CBQ", "Queue", ""]
TCPS = ["Agent/TCP", "Agent/TCP/Reno", "Agent/TCP/Newreno", "Agent/TCP/Sack1", "Agent/TCP/Fack"]
SINKS = [
    "Agent/TCPSink",
    "Agent/TCPSink/DelAck",
    "Agent/TCPSink/Sack1",
    "Agent/TCPSink/Sack1/DelAck",
]
BAD_CLASSES = ["Agent/TCP/Vegas", "Agent/TCP/Rneo", "Agent/SCTP", "Queue/CBQ", "Nothing", "Agent"]
TCP_VARS = {
    "window_": ["20", "64", "1", "3.5"],
    "packetSize_": ["1000", "536", "1460", "40"],
    "windowInit_": ["1", "2", "4"],
    "tcpTick_": ["0.01", "0.1", "0.5"],
    "maxburst_": ["0", "4"],
    "overhead_": ["0", "0.001"],
    "fid_": ["0", "1", "2"],
    "class_": ["1", "3"],
    "precisionReduce_": ["true"],
}
BAD_VALUES = ["", "abc", "-5", "1e400", "{", "[", "$", "nan"]


def topology(s: Script) -> None:
    rng = s.rng
    if rng.random() < 0.5:
        s.add("set f [open out.tr w]")
        s.add("$ns trace-all $f")
    if rng.random() < 0.2:
        s.add("set nf [open out.nam w]")
        s.add("$ns namtrace-all $nf")
    for _ in range(rng.randint(2, 5)):
        node = s.name("n")
        s.add(f"set {node} [$ns node]")
        s.nodes.append(node)
    for a, b in zip(s.nodes, s.nodes[1:]):
        kind = s.pick(["duplex-link"], ["simplex-link"])
        bandwidth = s.pick(BANDWIDTHS, BAD_BANDWIDTHS)
        delay = s.pick(DELAYS, BAD_DELAYS)
        queue = s.pick(QUEUES, BAD_QUEUES)
        s.add(f"$ns {kind} ${a} ${b} {bandwidth} {delay} {queue}")
        if rng.random() < 0.3:
            s.add(f"$ns queue-limit ${a} ${b} {s.pick(['5', '10', '50', '2'], ['0', '-1', 'x'])}")
        if rng.random() < 0.2:
            s.add(f"$ns duplex-link-op ${a} ${b} {rng.choice(['orient right', 'queuePos 0.5'])}")


def error_models(s: Script) -> None:
    rng = s.rng
    if len(s.nodes) < 2 or rng.random() > 0.4:
        return
    model = s.name("em")
    kind = s.pick(
        ["ErrorModel", "ErrorModel/List", "ErrorModel/Periodic", "ErrorModel/Uniform 0.01"],
        ["ErrorModel/Nothing", "ErrorModel/TwoState"],
    )
    s.add(f"set {model} [new {kind}]")
    if "List" in kind:
        s.add(f"${model} droplist {{{rng.randint(0, 9)} {rng.randint(10, 30)}}}")
    elif "Periodic" in kind:
        s.add(f"${model} set period_ {rng.randint(1, 20)}")
    else:
        s.add(f"${model} set rate_ {s.pick(['0.01', '0.1', '0'], BAD_VALUES)}")
    s.add(f"${model} unit {s.pick(['pkt', 'bit', 'byte'], ['time', 'furlong'])}")
    a, b = s.nodes[0], s.nodes[1]
    s.add(f"$ns {rng.choice(['lossmodel', 'link-lossmodel'])} ${model} ${a} ${b}")


def traffic(s: Script) -> None:
    rng = s.rng
    for _ in range(rng.randint(1, 3)):
        src, dst = rng.sample(s.nodes, 2) if len(s.nodes) > 1 else (s.nodes[0], s.nodes[0])
        if rng.random() < 0.6:
            agent, sink = s.name("tcp"), s.name("sink")
            s.add(f"set {agent} [new {s.pick(TCPS, BAD_CLASSES)}]")
            for var in rng.sample(list(TCP_VARS), rng.randint(0, 3)):
                var = s.pick([var], ["windw_", "npkts_", "bytes"])
                s.add(f"${agent} set {var} {s.pick(TCP_VARS.get(var, ['1']), BAD_VALUES)}")
            s.add(f"set {sink} [new {s.pick(SINKS)}]")
            s.readable += [
                f"${agent} set {rng.choice(['ack_', 'cwnd_', 'maxseq_'])}",
                f"${sink} set bytes_",
            ]
            app = s.name("ftp")
            kind = s.pick(["FTP", "FTP", "Telnet"], ["Traffic/CBR"])
        else:
            agent, sink = s.name("udp"), s.name("null")
            s.add(f"set {agent} [new Agent/UDP]")
            s.add(f"set {sink} [new Agent/LossMonitor]")
            s.readable += [f"${sink} set {rng.choice(['npkts_', 'bytes_'])}"]
            app = s.name("cbr")
            kind = s.pick(["Traffic/CBR", "Traffic/Exponential"], ["FTP"])
        s.add(f"$ns attach-agent ${src} ${agent}")
        s.add(f"$ns attach-agent ${dst} ${sink}")
        if rng.random() < 0.95:
            s.add(f"$ns connect ${agent} ${sink}")
        s.add(f"set {app} [new Application/{kind}]")
        s.add(f"${app} attach-agent ${agent}")
        if "CBR" in kind:
            var, value = rng.choice(
                [
                    ("rate_", "100Kb"),
                    ("interval_", "0.01"),
                    ("packetSize_", "500"),
                    ("packet_size_", "300"),
                    ("maxpkts_", "20"),
                    ("random_", "0"),
                ]
            )
            s.add(f"${app} set {var} {s.pick([value], BAD_VALUES)}")
        start = round(rng.uniform(0, 0.5), 3)
        s.add(f'$ns at {s.pick([str(start)], ["-1", "x"])} "${app} start"')
        if rng.random() < 0.3:
            s.add(f'$ns at {start + 0.5} "${app} stop"')
        s.agents[agent] = kind
        s.apps.append(app)


def otcl(s: Script) -> None:
    rng = s.rng
    if rng.random() > 0.4:
        return
    base, derived = s.name("Base"), s.name("Derived")
    s.add(f"Class {base}")
    s.add(f"{base} instproc init {{args}} {{ $self set n_ 0; eval $self next $args }}")
    s.add(f"{base} instproc bump {{}} {{ $self instvar n_; incr n_; return $n_ }}")
    s.add(f"Class {derived} -superclass {s.pick([base, f'{{{base} Object}}'], ['NoSuch'])}")
    s.add(f"{derived} instproc bump {{}} {{ return [expr {{[$self next] * 2}}] }}")
    obj = s.name("obj")
    s.add(f"set {obj} [new {derived}]")
    s.add(f"puts [${obj} {s.pick(['bump', 'bump', 'info class'], ['frob', 'next'])}]")
    if rng.random() < 0.3:
        s.add(f"Agent/TCP instproc {s.name('helper')} {{}} {{ return [$self set window_] }}")


def monitors(s: Script) -> None:
    if len(s.nodes) < 2 or s.rng.random() > 0.3:
        return
    a, b = s.nodes[0], s.nodes[1]
    s.add(f"set qm [$ns monitor-queue ${a} ${b} [open qm.out w] 0.1]")
    s.add("set fm [$ns makeflowmon Fid]")
    s.add(f"$ns attach-fmon [$ns link ${a} ${b}] $fm")


def finish(s: Script) -> None:
    rng = s.rng
    reads = [f"[{read}]" for read in s.readable]
    if rng.random() < 0.05:
        reads.append(
            f"[${rng.choice(list(s.agents) or ['ns'])} set {rng.choice(['npkts_', 'x_'])}]"
        )
    reads += ["[$qm set pdrops_]"] if any("qm" in line for line in s.lines) else []
    names = {read.split()[0][1:] for read in s.readable} | set(s.agents)
    s.add("proc finish {} {")
    s.add(f"    global ns qm {' '.join(sorted(names))}")
    s.add(f'    puts "{" ".join(reads)}"')
    s.add(f"    exit {s.pick(['0', '0', '1'], ['x'])}")
    s.add("}")
    s.add(f'$ns at {round(rng.uniform(0.5, 2.0), 3)} "finish"')
    s.add(s.pick(["$ns run"], ["$ns run extra", "$ns rnu"]))


def generate(rng: random.Random) -> str:
    s = Script(rng)
    s.add("set ns [new Simulator]")
    for part in (topology, error_models, traffic, otcl, monitors, finish):
        part(s)
    return "\n".join(s.lines) + "\n"


# --- mutations of real scripts ---------------------------------------------------


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 4)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        op = rng.randrange(6)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 2:
            words = lines[i].split(" ")
            j = rng.randrange(len(words))
            words[j] = rng.choice(BAD_VALUES + ["0", "-1", "1e9", "{}", '""', "\\"])
            lines[i] = " ".join(words)
        elif op == 3:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        elif op == 4:
            numbers = re.findall(r"\b\d+(?:\.\d+)?\b", lines[i])
            if numbers:
                lines[i] = lines[i].replace(
                    rng.choice(numbers), rng.choice(["0", "-3", "0.000001"]), 1
                )
        else:
            lines.insert(i, rng.choice(["}", "{", "frobnicate", "$ns", "set", "new", "Class"]))
    return "\n".join(lines) + "\n"


# --- running cases -----------------------------------------------------------------


class Crash(Exception):
    pass


def run_case(text: str, budget_s: float, run: Callable[..., int]) -> str:
    """Runs a script in a scratch directory; returns how it ended ("exit N",
    "error", "timeout"); raises Crash if it broke the front end's promise."""
    from ackclock.tcl.errors import TclScriptError

    with tempfile.TemporaryDirectory(prefix="tcl-fuzz-") as tmp:
        script = Path(tmp) / "s.tcl"
        script.write_text(text)
        cwd = os.getcwd()
        os.chdir(tmp)
        # The run is interrupted (as by Ctrl-C) when its time is up.
        previous = signal.signal(signal.SIGALRM, lambda *_: os.kill(os.getpid(), signal.SIGINT))
        signal.setitimer(signal.ITIMER_REAL, budget_s)
        try:
            status = run(script, [])
            return f"exit {status}"
        except TclScriptError as error:
            message = str(error)
            if "\n" in message or "internal error" in message or not ERROR.match(message):
                raise Crash(message) from error
            return "error"
        except KeyboardInterrupt:
            return "timeout"
        except Exception as error:
            raise Crash(f"{type(error).__name__}: {error}") from error
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            os.chdir(cwd)


def case(seed: int, index: int) -> str:
    """Case `index` of the run with `seed`: a generated script, or (one in
    three) a mutated real one."""
    rng = random.Random(f"{seed}/{index}")
    if SEEDS and index % 3 == 2:
        return mutate(rng.choice(SEEDS).read_text(), rng)
    return generate(rng)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=5.0, help="seconds per case")
    opts = ap.parse_args()
    from ackclock.tcl import run_script

    outcomes: dict[str, int] = {}
    crashes = 0
    started = time.monotonic()
    # What the scripts print is not looked at.
    stdout = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    for index in range(opts.cases):
        text = case(opts.seed, index)
        try:
            outcome = run_case(text, opts.budget, run_script)
        except Crash as crash:
            crashes += 1
            outcome = "crash"
            CRASHES.mkdir(parents=True, exist_ok=True)
            path = CRASHES / f"seed{opts.seed}-case{index}.tcl"
            path.write_text(text)
            print(f"crash: {path.name}: {crash}", file=sys.stderr)
        outcomes[outcome.split()[0]] = outcomes.get(outcome.split()[0], 0) + 1
    took = time.monotonic() - started
    os.dup2(stdout, 1)
    print(f"{opts.cases} cases in {took:.0f} s: {outcomes}; {crashes} crashes")
    sys.exit(1 if crashes else 0)


if __name__ == "__main__":
    main()
