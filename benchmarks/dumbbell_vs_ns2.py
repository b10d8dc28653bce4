#!/usr/bin/env python3
"""ackclock vs ns-2 on the seed chapter's two-sender dumbbell, side by side in one run.

The topology is seed 003 sec. 16.3's basic2.tcl with `bottleneckBW 8.0`: A--R and B--R
80 Mbit/s with 10 ms delay, R--D 8 Mbit/s with 100 ms delay and a 20-packet DropTail
queue, two Reno bulk (FTP) flows A->D and B->D with 960-byte segments and window_ 65000,
for 3000 simulated seconds (the sec. 16.3.10 run).

    python3 benchmarks/dumbbell_vs_ns2.py [--sim-seconds 3000] [--repeat 3]
                                          [--skip-ns2-trace] [--python PY] [--json OUT]

Runs, each in a fresh child process (wall time and peak RSS are those of the child):

  ackclock             ackclock._native.Sim (the Rust engine; no per-packet Python),
                       the same network as crates/ackclock-sim/benches/tcp_dumbbell.rs
  ns-2, no trace       a temporary copy of benchmarks/ns2/basic2.tcl with its trace output
                       disabled (see NOTRACE_SUBSTITUTIONS); the chapter's script is not
                       modified
  ns-2, trace-all      benchmarks/ns2/basic2.tcl as it is: it writes a ~1.8 GB trace
                       file (skip with --skip-ns2-trace; needs that much space in $TMPDIR)

ns-2 runs `ns basic2.tcl 0 0 8.0 SECONDS` (delayB 0, overhead 0, so that both simulate
the same deterministic traffic; benchmarks/tcl_vs_ns2.py runs the script with `overhead_`)
in a scratch directory. If `ns` or /usr/bin/time is missing it
installs the Debian packages ns2 and time with apt-get. Peak RSS is measured by GNU time.
"Delivered packets" are data packets delivered in order to the receiving application: for
ns-2 the sum of the two TCPSinks' bytes_ / 1000 as basic2.tcl prints it (recv0 + recv1), for
ackclock the sum of bytes_delivered / 960.

Use a release build of the extension for the ackclock side (`pip install .` or
`maturin build --release`; an editable `pip install -e .` may be a debug build); --python
selects the interpreter that has it. The worker loads the compiled module ackclock._native
directly, without the Python front end's imports (pydantic, numpy), so the RSS is the
engine's plus a bare interpreter's.

Needs only the Python standard library (and ns-2). Prints a results table, the traffic
both simulators carried (so a reader can see they simulate comparable traffic), and the
speed ratio against ns-2.
"""

from __future__ import annotations

import argparse
import glob
import importlib.machinery
import importlib.util
import json
import os
import struct
import sys
import time

# The worker child (whose memory is measured) imports only the modules above; the driver's
# other modules (platform, re, shutil, statistics, subprocess, tempfile) are imported in the
# functions that use them.

HERE = os.path.dirname(os.path.abspath(__file__))
BASIC2 = os.path.join(HERE, "ns2", "basic2.tcl")
GNU_TIME = "/usr/bin/time"

MSS = 960  # Agent/TCP packetSize_ in basic2.tcl
WIRE = 1000  # bytes on the wire per data packet (960 + 40 bytes TCP/IP header)
BOTTLENECK_BPS = 8_000_000
PS_PER_S = 10**12
PS_PER_MS = 10**9

# How the untraced ns-2 copy is made: each line of basic2.tcl matching one of these
# patterns is changed as shown. The trace channel is opened on /dev/null (`finish`
# still flushes and closes it), and the lines that route output into it (trace-all,
# the agents' attach and tracevar) are commented out. Tracing does not change the
# simulation: the two runs print the same line, which the script checks.
NOTRACE_SUBSTITUTIONS = [
    # (regex on a whole line, replacement, how many lines must match)
    (r"^set trace \[open basic2\.tr w\]$", "set trace [open /dev/null w]", 1),
    (r"^\$ns trace-all \$trace$", r"# [notrace] \g<0>", 1),
    (r"^\$tcp[01] attach \$trace$", r"# [notrace] \g<0>", 2),
    (r"^\$tcp[01] tracevar \w+$", r"# [notrace] \g<0>", 4),
]


# ----------------------------------------------------------------------------- worker


def load_native():
    """Import ackclock._native without running the ackclock package's __init__."""
    spec = importlib.util.find_spec("ackclock")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(
            f"ackclock is not installed for {sys.executable}; "
            "pip install . (a release build) or pass --python"
        )
    for d in spec.submodule_search_locations:
        for so in sorted(
            glob.glob(os.path.join(d, "_native*.so")) + glob.glob(os.path.join(d, "_native*.pyd"))
        ):
            loader = importlib.machinery.ExtensionFileLoader("ackclock._native", so)
            mspec = importlib.util.spec_from_loader("ackclock._native", loader)
            mod = importlib.util.module_from_spec(mspec)
            loader.exec_module(mod)
            return mod, so
    raise SystemExit(f"no compiled ackclock._native in {spec.submodule_search_locations}")


def elf_has_debug_info(path):
    """True if the shared object has a .debug_info section (a debug-profile build)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if data[:4] != b"\x7fELF" or data[4] != 2:  # 64-bit ELF only
        return None
    e = "<" if data[5] == 1 else ">"
    (shoff,) = struct.unpack_from(e + "Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x3A)
    (names_off,) = struct.unpack_from(e + "Q", data, shoff + shstrndx * shentsize + 0x18)
    for i in range(shnum):
        (name_idx,) = struct.unpack_from(e + "I", data, shoff + i * shentsize)
        start = names_off + name_idx
        name = data[start : data.index(b"\0", start)]
        if name == b".debug_info":
            return True
    return False


def build_dumbbell(native):
    """The network of crates/ackclock-sim/benches/tcp_dumbbell.rs, via the Python binding."""
    sim = native.Sim(1, 0)
    a, b, r, d = (sim.add_node(name) for name in ("A", "B", "R", "D"))
    channels = {}

    def duplex(x, y, bps, delay_ms, limit):
        queue = {"type": "droptail", "limit": limit, "ns2_limit": True}
        for src, dst in ((x, y), (y, x)):
            channels[(src, dst)] = sim.add_channel(src, dst, bps, delay_ms * PS_PER_MS, queue)

    duplex(a, r, 80_000_000, 10, 100)
    duplex(b, r, 80_000_000, 10, 100)
    duplex(r, d, BOTTLENECK_BPS, 100, 20)
    tcp = {"profile": "ns2", "cc": "reno", "mss": MSS, "max_window": 65_000 * MSS}
    app = {"type": "bulk", "bytes": None}
    flows = [sim.add_tcp_flow(f"reno{i}", src, d, tcp, app) for i, src in enumerate((a, b))]
    return sim, flows, channels[(r, d)]


def proc_status_kib(field):
    """A memory field of /proc/self/status (VmRSS, VmHWM) in KiB, or None."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def worker_ackclock(sim_seconds):
    t0 = time.perf_counter()
    native, so = load_native()
    t1 = time.perf_counter()
    rss_before = proc_status_kib("VmRSS")
    sim, flows, bottleneck = build_dumbbell(native)
    t2 = time.perf_counter()
    outcome = sim.run(sim_seconds * PS_PER_S)
    t3 = time.perf_counter()
    stats = [sim.flow_stats(f) for f in flows]
    link = sim.link_stats(bottleneck)
    out = {
        "module": so,
        "debug_info": elf_has_debug_info(so),
        "outcome": list(outcome),
        "events": sim.events,
        "import_s": t1 - t0,
        "rss_before_build_kib": rss_before,
        "hwm_kib": proc_status_kib("VmHWM"),
        "build_s": t2 - t1,
        "run_s": t3 - t2,
        "recv": [s["bytes_delivered"] // MSS for s in stats],
        "flows": [
            {
                k: s.get(k)
                for k in (
                    "name",
                    "bytes_delivered",
                    "tx_packets",
                    "retransmits",
                    "fast_retransmits",
                    "timeouts",
                    "rtt_mean_s",
                )
            }
            for s in stats
        ],
        "bottleneck": {
            k: link[k]
            for k in ("tx_packets", "tx_bytes", "drops", "utilization", "mean_queue_packets")
        },
    }
    json.dump(out, sys.stdout)


# ----------------------------------------------------------------------------- driver


def log(msg=""):
    print(msg, flush=True)


def ensure_tools():
    """Install ns-2 (Debian package ns2) and GNU time (package time) if missing."""
    import shutil
    import subprocess

    need = []
    if not shutil.which("ns"):
        need.append("ns2")
    if not os.access(GNU_TIME, os.X_OK):
        need.append("time")
    if not need:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    log(
        f"missing {', '.join(need)}: installing with apt-get "
        f"({' '.join(sudo + ['apt-get', 'install', '-y'] + need)}) ..."
    )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq"] + need, check=True, env=env)
    if not shutil.which("ns") or not os.access(GNU_TIME, os.X_OK):
        raise SystemExit(f"installing {' '.join(need)} did not provide ns and {GNU_TIME}")


def write_notrace_copy(dst):
    import re

    lines = open(BASIC2).read().split("\n")
    for pattern, repl, expected in NOTRACE_SUBSTITUTIONS:
        rx = re.compile(pattern)
        hits = [i for i, line in enumerate(lines) if rx.match(line)]
        if len(hits) != expected:
            raise SystemExit(
                f"{BASIC2}: expected {expected} line(s) matching {pattern!r}, "
                f"found {len(hits)}; update NOTRACE_SUBSTITUTIONS"
            )
        for i in hits:
            lines[i] = rx.sub(repl, lines[i])
    with open(dst, "w") as f:
        f.write("# basic2.tcl with trace output disabled by benchmarks/dumbbell_vs_ns2.py\n")
        f.write("\n".join(lines))


def measure(cmd, cwd):
    """Run cmd in a fresh child; return (stdout, wall seconds, peak RSS in KiB).

    The peak RSS comes from GNU time, not from this process's wait4(): Linux carries the
    high-water RSS of the address space a process had before exec() into its ru_maxrss,
    so a child spawned by this (larger) Python process would report at least our size.
    """
    import subprocess
    import tempfile

    with tempfile.NamedTemporaryFile(mode="w+", suffix=".rss") as rss:
        t0 = time.perf_counter()
        p = subprocess.run(
            [GNU_TIME, "-f", "%M", "-o", rss.name] + cmd, cwd=cwd, capture_output=True, text=True
        )
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            raise SystemExit(
                f"command failed ({p.returncode}): {' '.join(cmd)}\n{p.stdout}{p.stderr}"
            )
        peak_kib = int(rss.read().split()[-1])
    return p.stdout, wall, peak_kib


def run_ackclock(python, sim_seconds):
    cmd = [
        python,
        os.path.abspath(__file__),
        "--worker",
        "ackclock",
        "--sim-seconds",
        str(sim_seconds),
    ]
    stdout, wall, rss = measure(cmd, HERE)
    return json.loads(stdout), wall, rss


def run_ns2(script, workdir, sim_seconds):
    import subprocess

    cmd = ["ns", script, "0", "0", "8.0", str(sim_seconds)]
    stdout, wall, rss = measure(cmd, workdir)
    fields = stdout.strip().split("\n")[-1].split()
    res = {"output": stdout.strip(), "recv": [int(fields[2]), int(fields[3])]}
    trace = os.path.join(workdir, "basic2.tr")
    if os.path.exists(trace):
        res["trace_bytes"] = os.path.getsize(trace)
        drops = subprocess.run(["grep", "^d ", trace], capture_output=True, text=True).stdout
        per_flow = {}
        for line in drops.splitlines():
            fid = line.split()[7]
            per_flow[fid] = per_flow.get(fid, 0) + 1
        res["drops"] = sum(per_flow.values())
        res["drops_per_flow"] = per_flow
        os.remove(trace)
    return res, wall, rss


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--sim-seconds",
        type=int,
        default=3000,
        help="simulated seconds (default 3000, the chapter's sec. 16.3.10 run)",
    )
    ap.add_argument(
        "--skip-ns2-trace",
        action="store_true",
        help="skip the slow ns-2 run with trace-all (a ~1.8 GB trace file)",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs per simulator, interleaved; the table shows medians",
    )
    ap.add_argument(
        "--python",
        default=sys.executable,
        help="interpreter with a release build of ackclock (default: this one)",
    )
    ap.add_argument("--json", help="also write all measurements here as JSON")
    ap.add_argument("--worker", choices=["ackclock"], help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker_ackclock(a.sim_seconds)
        return
    import platform
    import statistics
    import tempfile

    T = a.sim_seconds
    ensure_tools()

    log(
        f"two-sender dumbbell (seed 003 sec. 16.3, bottleneckBW 8.0), {T} simulated seconds, "
        f"{a.repeat} run(s) each"
    )
    log(
        f"machine: {os.cpu_count()} CPUs, {cpu_model()}; python {platform.python_version()} "
        f"({a.python})"
    )
    sims = [("ackclock", None), ("ns-2, no trace", "notrace")]
    if not a.skip_ns2_trace:
        sims.append(("ns-2, trace-all", "trace"))
    runs = {name: [] for name, _ in sims}
    with tempfile.TemporaryDirectory(prefix="dumbbell-ns2-") as work:
        notrace = os.path.join(work, "basic2-notrace.tcl")
        write_notrace_copy(notrace)
        for rep in range(a.repeat):
            for name, kind in sims:
                if kind is None:
                    res, wall, rss = run_ackclock(a.python, T)
                else:
                    script = notrace if kind == "notrace" else BASIC2
                    res, wall, rss = run_ns2(script, work, T)
                runs[name].append({"wall_s": wall, "rss_kib": rss, **res})
                log(
                    f"  run {rep + 1}/{a.repeat} {name:<16} wall {wall:8.3f} s, "
                    f"peak RSS {rss / 1024:7.1f} MiB, delivered {sum(res['recv'])}"
                )

    ack = runs["ackclock"][0]
    if ack["debug_info"]:
        log(
            f"WARNING: {ack['module']} has debug info: probably a debug build; "
            "the ackclock numbers are not representative (use pip install . or --python)"
        )
    for name, rs in runs.items():
        if any(r["recv"] != rs[0]["recv"] for r in rs):
            raise SystemExit(
                f"{name}: delivered counts differ between runs: {[r['recv'] for r in rs]}"
            )
    if (
        "ns-2, trace-all" in runs
        and runs["ns-2, trace-all"][0]["recv"] != runs["ns-2, no trace"][0]["recv"]
    ):
        raise SystemExit("ns-2 with and without trace delivered different counts")

    summary = {}
    for name, rs in runs.items():
        delivered = sum(rs[0]["recv"])
        wall = statistics.median(r["wall_s"] for r in rs)
        summary[name] = {
            "wall_s": wall,
            "wall_s_all": [r["wall_s"] for r in rs],
            "peak_rss_mib": statistics.median(r["rss_kib"] for r in rs) / 1024,
            "delivered": delivered,
            "pkts_per_wall_s": delivered / wall,
        }
    base = summary["ns-2, no trace"]["pkts_per_wall_s"]
    base_tr = summary.get("ns-2, trace-all", {}).get("pkts_per_wall_s")

    log()
    stat = "median of " + str(a.repeat) if a.repeat > 1 else "1 run"
    log(f"Results ({stat}; wall = whole child process, start to exit)")
    head = (
        f"{'simulator':<16} {'wall s':>8} {'peak RSS MiB':>12} {'delivered pkts':>14} "
        f"{'pkts/wall s':>12} {'vs ns-2':>8}"
    )
    if base_tr:
        head += f" {'vs ns-2 traced':>14}"
    log(head)
    log("-" * len(head))
    for name, s in summary.items():
        row = (
            f"{name:<16} {s['wall_s']:8.3f} {s['peak_rss_mib']:12.1f} "
            f"{s['delivered']:14d} {s['pkts_per_wall_s']:12.0f} "
            f"{s['pkts_per_wall_s'] / base:7.2f}x"
        )
        if base_tr:
            row += f" {s['pkts_per_wall_s'] / base_tr:13.2f}x"
        log(row)
    log("('vs ns-2' = delivered packets per wall second relative to ns-2 without trace)")
    run_s = statistics.median(r["run_s"] for r in runs["ackclock"])
    log(
        f"ackclock engine alone: Sim.run {run_s:.3f} s (median), {ack['events']} events; "
        f"import {ack['import_s']:.3f} s, build {ack['build_s'] * 1e3:.2f} ms; "
        f"module {ack['module']}"
    )
    if ack.get("rss_before_build_kib"):
        log(
            f"ackclock memory: {ack['rss_before_build_kib'] / 1024:.1f} MiB resident after "
            "interpreter start-up and the module import, before the simulation is built"
        )

    capacity = BOTTLENECK_BPS * T / (8 * WIRE)  # data packets the bottleneck can carry
    log()
    log(f"Traffic carried (bottleneck capacity {capacity:.0f} packets of {WIRE} bytes in {T} s)")
    ns = runs.get("ns-2, trace-all", runs["ns-2, no trace"])[0]
    log(f"{'':<16} {'flow 0':>9} {'flow 1':>9} {'total':>9} {'goodput util':>12}  other")
    for name, r in (("ackclock", ack), ("ns-2", ns)):
        d = sum(r["recv"])
        if name == "ackclock":
            bn = r["bottleneck"]
            fl = r["flows"]
            other = (
                f"R->D busy {100 * bn['utilization']:.2f}%, drops {bn['drops']}, "
                f"mean queue {bn['mean_queue_packets']:.2f} pkts; retransmits "
                f"{fl[0]['retransmits']}/{fl[1]['retransmits']}, fast retransmits "
                f"{fl[0]['fast_retransmits']}/{fl[1]['fast_retransmits']}, timeouts "
                f"{fl[0]['timeouts']}/{fl[1]['timeouts']}"
            )
        elif "drops" in r:
            other = (
                f"drops {r['drops']} (per flow {r['drops_per_flow']}), "
                f"trace {r['trace_bytes'] / 1e6:.0f} MB"
            )
        else:
            other = "(drops need the traced run)"
        log(
            f"{name:<16} {r['recv'][0]:9d} {r['recv'][1]:9d} {d:9d} "
            f"{100 * d / capacity:11.2f}%  {other}"
        )
    log(f"ns-2 output: {ns['output'].splitlines()[-1]}")

    if a.json:
        with open(a.json, "w") as f:
            json.dump(
                {
                    "sim_seconds": T,
                    "repeat": a.repeat,
                    "cpu": cpu_model(),
                    "nproc": os.cpu_count(),
                    "summary": summary,
                    "runs": runs,
                },
                f,
                indent=1,
            )
            f.write("\n")
        log(f"wrote {a.json}")


def cpu_model():
    import platform

    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    main()
