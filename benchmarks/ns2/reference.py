#!/usr/bin/python3
"""Run the chapter's ns-2 scripts and collect the ns-2 ground-truth numbers.

Called by run_reference.sh (which installs ns-2 first). Runs every experiment of
docs/ns2-reference.md in a scratch directory, prints a short summary per experiment and
writes the machine-readable numbers as JSON (reference.json).

    python3 reference.py --workdir DIR [--json OUT.json] [--skip-long-basic2]

Needs only the Python standard library, `ns` (Debian ns2 2.35) and /usr/bin/time.
"""

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable or "python3"

# The chapter's published values (seed 003, sec. 16.2 and 16.3), for side-by-side output.
CHAPTER = {
    "basic1_10s": {
        "final_ack": 808,
        "final_ack_time": 9.98029,
        "final_maxseq": 829,
        "final_maxseq_time": 9.99029,
        "cwnd_peaks_first3": [20.931, 20.934, 20.934],
        "first_drop": {"time": 0.58616, "seqno": 28, "pktid": 43},
        "drops_after_slow_start": [3.963408, 5.909568, 7.855728],
        "delivered_twice": [43, 45, 47, 49, 51, 53, 55, 57, 58, 59, 60, 61, 62],
    },
    "basic1_1000s": {
        "packets_acked": 94915,
        "loss_events": 512,
        "cwnd_peak": 20.935,
        "peak_spacing": 1.946,
        "utilization_pct": 94.9,
    },
    "long_table": {
        3: 79767,
        4: 80903,
        5: 83313,
        8: 87169,
        10: 89320,
        12: 91382,
        16: 94570,
        20: 97261,
        22: 98028,
        26: 99041,
        30: 99567,
    },
    "long_table_pct": {
        3: 79.8,
        4: 80.9,
        5: 83.3,
        8: 87.2,
        10: 89.3,
        12: 91.4,
        16: 94.6,
        20: 97.3,
        22: 98.0,
        26: 99.0,
        30: 99.6,
    },
    "avg_queue_q40": 23.76,
    "basic2_default": {"recv0": 14863, "recv1": 14771, "utilization_pct": 98.8, "teeth": 67},
    # sec. 16.3.3 table: delayB -> (A-D goodput, B-D goodput)
    "basic2_delayB": {
        0: (14863, 14771),
        5: (4229, 24545),
        23: (22142, 6879),
        24: (17683, 9842),
        25: (14958, 13754),
        26: (24034, 5137),
        35: (16932, 11395),
        36: (25790, 3603),
        40: (20005, 8580),
        41: (24977, 4215),
        45: (18437, 10211),
        60: (18891, 9891),
        61: (25834, 3135),
        85: (20463, 8206),
        110: (22624, 5941),
    },
    "basic2_fast_3000_utilization_pct": 77.5,
}

STARTPOINT = 3.0  # as countpeaks.py: ignore slow start


def log(msg=""):
    print(msg, flush=True)


def run(cmd, cwd, capture=True):
    """Run a command, fail loudly (with its output) if it fails."""
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(f"command failed: {' '.join(cmd)}\n{p.stdout}{p.stderr}")
        sys.exit(1)
    return p.stdout


def rm(*paths):
    for p in paths:
        if os.path.exists(p):
            os.remove(p)


# ---------------------------------------------------------------------------- basic1


def analyze_basic1(trace, endtime, bottleneck_pkts_per_s=100.0):
    """One pass over a basic1-style trace (A=0, R=1, B=2, one flow)."""
    last = {}
    cwnd_prev = None
    decreases = []  # (time, value before, value after)
    first_drop = None
    drops = 0
    drop_times_after = []
    data_on_bottleneck = 0  # data packets dequeued onto R->B (includes retransmissions)
    recv_count = {}  # seqno -> times received at B (data, flow 0)
    first_data_after_2 = None
    with open(trace) as f:
        for line in f:
            fl = line.split()
            if len(fl) == 12:
                ev = fl[0]
                if ev == "d":
                    drops += 1
                    t = float(fl[1])
                    if first_drop is None:
                        first_drop = {
                            "time": t,
                            "from_node": int(fl[2]),
                            "to_node": int(fl[3]),
                            "size": int(fl[5]),
                            "seqno": int(fl[10]),
                            "pktid": int(fl[11]),
                            "record": line.strip(),
                        }
                    if t >= STARTPOINT:
                        drop_times_after.append((t, int(fl[10]), int(fl[11])))
                elif ev == "-" and fl[2] == "1" and fl[3] == "2" and int(fl[5]) >= 1000:
                    data_on_bottleneck += 1
                elif ev == "r" and fl[3] == "2" and int(fl[5]) >= 1000 and fl[7] == "0":
                    s = int(fl[10])
                    recv_count[s] = recv_count.get(s, 0) + 1
                elif (
                    ev == "+"
                    and fl[2] == "0"
                    and first_data_after_2 is None
                    and float(fl[1]) >= 2.0
                    and int(fl[5]) >= 1000
                ):
                    first_data_after_2 = {"time": float(fl[1]), "seqno": int(fl[10])}
            elif len(fl) == 7:
                name = fl[5]
                t = float(fl[0])
                v = float(fl[6])
                last[name] = (t, v)
                if name == "cwnd_":
                    if cwnd_prev is not None and v < cwnd_prev:
                        decreases.append((t, cwnd_prev, v))
                    cwnd_prev = v
    after = [d for d in decreases if d[0] >= STARTPOINT]
    peaks = [round(d[1], 3) for d in after]
    peak_times = [d[0] for d in after]
    spacing = [round(b - a, 5) for a, b in zip(peak_times, peak_times[1:])]
    twice = sorted(s for s, c in recv_count.items() if c > 1)
    final_ack = int(last["ack_"][1])
    capacity = bottleneck_pkts_per_s * endtime
    res = {
        "final_ack": final_ack,
        "final_ack_time": last["ack_"][0],
        "final_maxseq": int(last["maxseq_"][1]),
        "final_maxseq_time": last["maxseq_"][0],
        "final_cwnd": last["cwnd_"][1],
        "final_ssthresh": int(last["ssthresh_"][1]),
        "packets_acked": final_ack,
        "first_drop": first_drop,
        "drops_total": drops,
        "drops_after_slow_start": len(drop_times_after),
        "first_drops_after_slow_start": [
            {"time": t, "seqno": s, "pktid": p} for (t, s, p) in drop_times_after[:3]
        ],
        "cwnd_decreases_total": len(decreases),
        "slow_start_decreases": [
            {"time": t, "from": a, "to": b} for (t, a, b) in decreases if t < STARTPOINT
        ],
        "loss_events": len(after),
        "coarse_timeouts_after_slow_start": sum(1 for d in after if d[2] == 1.0),
        "cwnd_peaks": peaks,
        "cwnd_peak_min": min(peaks) if peaks else None,
        "cwnd_peak_max": max(peaks) if peaks else None,
        "cwnd_peak_first_time": peak_times[0] if peak_times else None,
        "cwnd_peak_spacing_min": min(spacing) if spacing else None,
        "cwnd_peak_spacing_max": max(spacing) if spacing else None,
        "delivered_twice": {"count": len(twice), "seqnos": twice},
        "distinct_data_received": len(recv_count),
        "data_packets_on_bottleneck": data_on_bottleneck,
        "first_data_send_after_t2": first_data_after_2,
        "utilization_pct": round(100.0 * final_ack / capacity, 2),
        "bottleneck_busy_pct": round(100.0 * data_on_bottleneck / capacity, 2),
    }
    return res


def dup_counter(workdir, trace):
    out = run([PY, os.path.join(HERE, "dup_counter.py"), trace], workdir)
    return [int(line.split()[0]) for line in out.split("\n") if line.strip()]


def basic1_runs(workdir, results):
    script = os.path.join(HERE, "basic1.tcl")
    for args, endtime, key in (([], 10.0, "basic1_10s"), (["7", "1000"], 1000.0, "basic1_1000s")):
        cmd = ["ns", "basic1.tcl"] + args
        run(["ns", script] + args, workdir)
        r = analyze_basic1(os.path.join(workdir, "basic1.tr"), endtime)
        r["command"] = " ".join(cmd)
        r["dup_counter_py"] = dup_counter(workdir, "basic1.tr")
        results[key] = r
        rm(os.path.join(workdir, "basic1.tr"), os.path.join(workdir, "basic1.nam"))
        peaks = r["cwnd_peaks"]
        log(f"== {key}  ({r['command']})")
        log(
            f"  final ack_ {r['final_ack']:d} @{r['final_ack_time']:.5f}, "
            f"final maxseq_ {r['final_maxseq']:d} @{r['final_maxseq_time']:.5f}, "
            f"final cwnd_ {r['final_cwnd']:.3f}"
        )
        fd = r["first_drop"]
        log(
            f"  first drop: t={fd['time']} seqno {fd['seqno']:d} pktid {fd['pktid']:d} "
            f"({fd['record']})"
        )
        log(
            f"  drops: {r['drops_total']:d} total, {r['drops_after_slow_start']:d} after "
            f"t={STARTPOINT:.0f}; cwnd_ decreases {r['cwnd_decreases_total']:d} total, "
            f"loss events after t={STARTPOINT:.0f}: {r['loss_events']:d} "
            f"(coarse timeouts {r['coarse_timeouts_after_slow_start']:d})"
        )
        log(
            f"  cwnd peaks: n={len(peaks):d} first {peaks[:4]} min {r['cwnd_peak_min']:.3f} "
            f"max {r['cwnd_peak_max']:.3f}; spacing {r['cwnd_peak_spacing_min']}.."
            f"{r['cwnd_peak_spacing_max']} s"
        )
        log(
            f"  delivered twice (dup_counter.py): {len(r['dup_counter_py']):d} "
            f"{r['dup_counter_py']}"
        )
        log(
            f"  acked {r['packets_acked']:d} => utilization {r['utilization_pct']:.2f}% "
            f"(R->B busy incl. retransmits {r['bottleneck_busy_pct']:.2f}%)"
        )


def basic1_long_runs(workdir, results):
    script = os.path.join(HERE, "basic1-long.tcl")
    rows = []
    log("== basic1-long utilization table (ns basic1-long.tcl Q 1000)")
    log(
        f"  {'Q':>5} {'received':>9} {'chapter':>9} {'util%':>8} {'chap%':>8} "
        f"{'final_ack':>9} {'maxseq':>8}"
    )
    for q in sorted(CHAPTER["long_table"]) + [40]:
        out = run(["ns", script, str(q), "1000"], workdir)
        m = re.search(r"final ack: (-?\d+), final seq num: (-?\d+)", out)
        acked = int(re.search(r"ACKed: (\d+)", out).group(1))
        row = {
            "queue_limit": q,
            "received": acked,
            "utilization_pct": round(acked / 1000.0, 3),
            "final_ack": int(m.group(1)),
            "final_maxseq": int(m.group(2)),
            "command": f"ns basic1-long.tcl {q:d} 1000",
        }
        if q in CHAPTER["long_table"]:
            row["chapter_received"] = CHAPTER["long_table"][q]
            row["chapter_utilization_pct"] = CHAPTER["long_table_pct"][q]
        tr = os.path.join(workdir, "basic1-long.tr")
        if q == 40:
            out = run([PY, os.path.join(HERE, "queuesize.py"), "basic1-long.tr"], workdir)
            avg = float(out.split()[-1])
            row["avg_queue"] = avg
            results["basic1_long_q40"] = dict(row, chapter_avg_queue=CHAPTER["avg_queue_q40"])
        else:
            rows.append(row)
        rm(tr, os.path.join(workdir, "basic1-long.nam"))
        log(
            f"  {q:5d} {acked:9d} {row.get('chapter_received', '-')!s:>9} "
            f"{row['utilization_pct']:8.2f} {row.get('chapter_utilization_pct', '-')!s:>8} "
            f"{row['final_ack']:9d} {row['final_maxseq']:8d}"
        )
    results["basic1_long_utilization"] = rows
    log(
        f"  queue 40: queuesize.py avg queue = {results['basic1_long_q40']['avg_queue']:.4f} "
        "(chapter: about 23.76)"
    )


# ---------------------------------------------------------------------------- basic2


def parse_basic2(out):
    line = out.strip().split("\n")[-1].split()
    return {
        "delayB": float(line[0]),
        "overhead": float(line[1]),
        "recv0": int(line[2]),
        "recv1": int(line[3]),
        "rttratio": float(line[4]),
        "rttratio2": float(line[5]),
        "actualratio": float(line[6]),
        "ratio1": float(line[7]),
        "ratio2": float(line[8]),
        "output": out.strip(),
    }


def countpeaks(workdir, trace):
    out = run([PY, os.path.join(HERE, "countpeaks.py"), trace], workdir)
    nums = [int(x) for x in re.findall(r":\s*(\d+)", out)]
    return {
        "teeth0": nums[0],
        "teeth1": nums[1],
        "coarse_timeouts0": nums[2],
        "coarse_timeouts1": nums[3],
        "output": out.strip(),
    }


def drops_per_flow(trace, startpoint=STARTPOINT):
    total = {}
    after = {}
    with open(trace) as f:
        for line in f:
            if line.startswith("d "):
                fl = line.split()
                k = fl[7]
                total[k] = total.get(k, 0) + 1
                if float(fl[1]) >= startpoint:
                    after[k] = after.get(k, 0) + 1
    return {"drops_total": total, "drops_after_t3": after}


def basic2_runs(workdir, results, skip_long):
    script = os.path.join(HERE, "basic2.tcl")
    trace = os.path.join(workdir, "basic2.tr")
    out = run(["ns", script], workdir)
    r = parse_basic2(out)
    r["command"] = "ns basic2.tcl"
    r["utilization_pct"] = round(100.0 * (r["recv0"] + r["recv1"]) / 30000.0, 2)
    r.update(countpeaks(workdir, "basic2.tr"))
    r.update(drops_per_flow(trace))
    results["basic2_default"] = r
    rm(trace)
    log("== basic2 default (ns basic2.tcl: delayB 0, overhead 0, 0.8Mb, 300 s, queue 20)")
    log("  " + r["output"].replace("\n", "\n  "))
    log(
        f"  recv0 {r['recv0']:d} recv1 {r['recv1']:d} => utilization "
        f"{r['utilization_pct']:.2f}%; countpeaks: teeth {r['teeth0']:d}/{r['teeth1']:d}, "
        f"coarse timeouts {r['coarse_timeouts0']:d}/{r['coarse_timeouts1']:d}; drops per flow "
        f"(all / t>=3): {r['drops_total']} / {r['drops_after_t3']}"
    )

    rows = []
    log("== basic2 delayB table (ns basic2.tcl DELAYB), sec. 16.3.3")
    log(f"  {'delayB':>6} {'recv0':>7} {'chap0':>7} {'recv1':>7} {'chap1':>7} {'ratio':>9}")
    for d in sorted(CHAPTER["basic2_delayB"]):
        r = parse_basic2(run(["ns", script, str(d)], workdir))
        c0, c1 = CHAPTER["basic2_delayB"][d]
        rows.append(
            {
                "delayB": d,
                "recv0": r["recv0"],
                "recv1": r["recv1"],
                "actualratio": r["actualratio"],
                "chapter_recv0": c0,
                "chapter_recv1": c1,
                "command": f"ns basic2.tcl {d:d}",
            }
        )
        log(f"  {d:6d} {r['recv0']:7d} {c0:7d} {r['recv1']:7d} {c1:7d} {r['actualratio']:9.3f}")
    rm(trace)
    results["basic2_delayB_table"] = rows

    if skip_long:
        return
    cmd = ["ns", script, "0", "0.002", "8.0", "3000"]
    tfile = os.path.join(workdir, "time-v.txt")
    out = run(["/usr/bin/time", "-v", "-o", tfile] + cmd, workdir)
    tv = open(tfile).read()
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", tv)
    parts = [float(x) for x in m.group(1).split(":")]
    wall = sum(p * 60**i for i, p in enumerate(reversed(parts)))
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", tv).group(1))
    user = float(re.search(r"User time \(seconds\): (\S+)", tv).group(1))
    sysx = float(re.search(r"System time \(seconds\): (\S+)", tv).group(1))
    r = parse_basic2(out)
    r["command"] = "ns basic2.tcl 0 0.002 8.0 3000"
    r["utilization_pct"] = round(100.0 * (r["recv0"] + r["recv1"]) / 3000000.0, 2)
    r["trace_bytes"] = os.path.getsize(trace)
    r["wall_s"] = wall
    r["user_s"] = user
    r["sys_s"] = sysx
    r["peak_rss_kb"] = rss_kb
    r.update(countpeaks(workdir, "basic2.tr"))
    r.update(drops_per_flow(trace))
    rm(trace)
    results["basic2_fast_3000"] = r
    log(f"== basic2 fast ({r['command']})")
    log("  " + r["output"].replace("\n", "\n  "))
    log(
        f"  recv0 {r['recv0']:d} recv1 {r['recv1']:d} => utilization "
        f"{r['utilization_pct']:.2f}% (of 3,000,000 pkts); teeth {r['teeth0']:d}/"
        f"{r['teeth1']:d}, coarse timeouts {r['coarse_timeouts0']:d}/"
        f"{r['coarse_timeouts1']:d}; drops per flow {r['drops_total']}"
    )
    log(
        f"  ns-2 cost: wall {wall:.2f} s (user {user:.2f}, sys {sysx:.2f}), peak RSS "
        f"{rss_kb:d} KiB, trace {r['trace_bytes'] / 1e6:.0f} MB"
    )


# ---------------------------------------------------------------------------- probes


def probe_defaults(workdir, results):
    out = run(["ns", os.path.join(HERE, "probe_defaults.tcl")], workdir)
    d = {}
    for line in out.split("\n"):
        fl = line.split()
        if len(fl) == 3:
            d.setdefault(fl[0], {})[fl[1]] = fl[2]
    results["defaults"] = d
    reno = d["Agent/TCP/Reno"]
    keys = [
        "window_",
        "windowInit_",
        "syn_",
        "delay_growth_",
        "packetSize_",
        "tcpip_base_hdr_size_",
        "tcpTick_",
        "minrto_",
        "maxrto_",
        "rtxcur_init_",
        "srtt_init_",
        "rttvar_init_",
        "T_SRTT_BITS",
        "T_RTTVAR_BITS",
        "rttvar_exp_",
        "numdupacks_",
        "singledup_",
        "maxburst_",
        "overhead_",
        "timestamps_",
        "decrease_num_",
        "increase_num_",
    ]
    log("== defaults (ns probe_defaults.tcl)")
    log("  Agent/TCP/Reno: " + ", ".join(f"{k} {reno[k]}" for k in keys))
    vegas = d["Agent/TCP/Vegas"]
    log(
        f"  Agent/TCPSink/DelAck interval_ {d['Agent/TCPSink/DelAck']['interval_']}; "
        f"Queue/DropTail limit_ {d['Queue/DropTail']['limit_']}; Vegas v_alpha_ "
        f"{vegas['v_alpha_']} v_beta_ {vegas['v_beta_']} v_gamma_ {vegas['v_gamma_']}"
    )


def variant(src, dst, subs):
    s = open(src).read()
    for a, b in subs:
        assert a in s, (src, a)
        s = s.replace(a, b, 1)
    open(dst, "w").write(s)


def events(trace):
    with open(trace) as f:
        for line in f:
            fl = line.split()
            if len(fl) == 12:
                yield fl


def probe_semantics(workdir, results):
    """Small behaviour checks on variants of basic1.tcl (written into workdir)."""
    b1 = os.path.join(HERE, "basic1.tcl")
    tr = os.path.join(workdir, "basic1.tr")
    sem = {}
    new_sim = "set ns [new Simulator]\n"

    # queue limit and link timing, on the default basic1 run
    run(["ns", b1], workdir)
    q = 0
    waiting_at_drop = set()
    deq = {}
    deltas = set()
    for fl in events(tr):
        if fl[2] == "1" and fl[3] == "2":
            if fl[0] == "+":
                q += 1
            elif fl[0] in "-d":
                q -= 1
            if fl[0] == "d":
                waiting_at_drop.add(q)
            if fl[0] == "-":
                deq[fl[11]] = float(fl[1])
            if fl[0] == "r":
                deltas.add((int(fl[5]), round(float(fl[1]) - deq[fl[11]], 9)))
    sem["queue_limit_7_waiting_when_drop"] = sorted(waiting_at_drop)
    sem["RB_dequeue_to_arrival_by_size"] = sorted([list(x) for x in deltas])
    flags = {}
    for fl in events(tr):
        flags[fl[6]] = flags.get(fl[6], 0) + 1
    sem["flags_counts_basic1_10s"] = flags

    # limited transmit around the first fast retransmit after slow start
    lt = []
    for fl in events(tr):
        t = float(fl[1])
        if 4.13 < t < 4.18 and (
            (fl[0] == "r" and fl[2] == "1" and fl[3] == "0") or (fl[0] == "+" and fl[2] == "0")
        ):
            lt.append(" ".join(fl))
    sem["limited_transmit_window_4.13_4.18"] = lt
    rm(tr, os.path.join(workdir, "basic1.nam"))

    # windowInit_: cwnd_ records after the SYN's ACK
    for w in (1, 3, 4):
        v = os.path.join(workdir, "probe_wi.tcl")
        variant(b1, v, [(new_sim, new_sim + f"Agent/TCP set windowInit_ {w:d}\n")])
        run(["ns", v], workdir)
        cw = []
        nsent = 0
        with open(tr) as f:
            for line in f:
                fl = line.split()
                if len(fl) == 7 and fl[5] == "cwnd_" and 0.1 < float(fl[0]) < 0.13:
                    cw.append(float(fl[6]))
                if len(fl) == 12 and fl[0] == "+" and fl[2] == "0" and fl[1] == "0.120864":
                    nsent += 1
        sem[f"windowInit_{w:d}"] = {"cwnd_records_at_syn_ack": cw, "packets_sent_then": nsent}
    # initial RTO and backoff: queue-limit 1 on A->R drops every packet (even the SYN)
    v = os.path.join(workdir, "probe_rto.tcl")
    variant(
        b1,
        v,
        [
            (
                "$ns queue-limit $R $B $queuesize\n",
                "$ns queue-limit $R $B $queuesize\n$ns queue-limit $A $R 1\n",
            )
        ],
    )
    run(["ns", v, "7", "100"], workdir)
    sem["syn_send_times_all_dropped"] = [float(fl[1]) for fl in events(tr) if fl[0] == "+"]
    # Vegas: packet sizes, no SYN
    v = os.path.join(workdir, "probe_vegas.tcl")
    variant(b1, v, [("[new Agent/TCP/Reno]", "[new Agent/TCP/Vegas]")])
    run(["ns", v], workdir)
    sem["vegas_first_sends"] = [" ".join(fl) for fl in events(tr) if fl[0] == "+" and fl[2] == "0"][
        :3
    ]
    # DelAck: ACK departures vs data arrivals at B
    v = os.path.join(workdir, "probe_delack.tcl")
    variant(b1, v, [("[new Agent/TCPSink]", "[new Agent/TCPSink/DelAck]")])
    run(["ns", v], workdir)
    sem["delack_first"] = [
        f"{fl[0]} {fl[1]} {fl[4]} {fl[10]}"
        for fl in events(tr)
        if float(fl[1]) < 0.5
        and ((fl[0] == "r" and fl[3] == "2") or (fl[0] == "+" and fl[2] == "2"))
    ]
    # ErrorModel via lossmodel on R->B
    v = os.path.join(workdir, "probe_em.tcl")
    variant(
        b1,
        v,
        [
            (
                "$ns queue-limit $R $B $queuesize\n",
                "$ns queue-limit $R $B $queuesize\nset em [new ErrorModel]\n"
                "$em set rate_ 0.05\n$em unit pkt\n"
                "$em ranvar [new RandomVariable/Uniform]\n"
                "$em drop-target [new Agent/Null]\n$ns lossmodel $em $R $B\n",
            )
        ],
    )
    run(["ns", v], workdir)
    evs = list(events(tr))
    d0 = next(fl for fl in evs if fl[0] == "d" and fl[5] == "1000")
    sem["errormodel_first_data_loss"] = [
        " ".join(fl) for fl in evs if fl[11] == d0[11] and fl[10] == d0[10]
    ]
    rm(tr, os.path.join(workdir, "basic1.nam"))
    results["semantics"] = sem

    log("== semantics probes (variants of basic1.tcl)")
    log(
        f"  queue-limit 7: packets waiting when a drop happens: "
        f"{sem['queue_limit_7_waiting_when_drop']}"
    )
    log(f"  R->B dequeue-to-arrival (size, s): {sem['RB_dequeue_to_arrival_by_size']}")
    log(f"  trace flag fields in basic1 10 s: {sem['flags_counts_basic1_10s']}")
    for w in (1, 3, 4):
        wi = sem[f"windowInit_{w:d}"]
        log(
            f"  windowInit_ {w:d}: cwnd_ records at SYN-ACK {wi['cwnd_records_at_syn_ack']}, "
            f"data packets sent then {wi['packets_sent_then']:d}"
        )
    log(f"  all-dropped SYN send times: {sem['syn_send_times_all_dropped']}")
    log(f"  Vegas first sends: {sem['vegas_first_sends']}")
    log(f"  DelAck (r data at B / + ack at B, t<0.5): {sem['delack_first']}")
    log(f"  ErrorModel lost packet: {sem['errormodel_first_data_loss']}")
    log("  limited transmit 4.13-4.18 s:\n    " + "\n    ".join(lt))


# ---------------------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--json", help="write the results here as JSON")
    ap.add_argument(
        "--skip-long-basic2",
        action="store_true",
        help="skip the 3000 s basic2 run (about 40 s of ns-2, 1.8 GB trace)",
    )
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    ver = run(["ns", os.path.join(HERE, "probe_defaults.tcl")], a.workdir)
    results = {"ns_version": re.search(r"ns-version\s+(\S+)", ver).group(1)}
    try:
        pkg = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Version}", "ns2"], stdout=subprocess.PIPE, text=True
        ).stdout.strip()
    except OSError:
        pkg = ""
    results["debian_package"] = "ns2 " + pkg if pkg else "ns2 (version unknown)"
    results["chapter"] = {
        k: (v if not isinstance(v, dict) else {str(kk): vv for kk, vv in v.items()})
        for k, v in CHAPTER.items()
    }
    basic1_runs(a.workdir, results)
    basic1_long_runs(a.workdir, results)
    basic2_runs(a.workdir, results, a.skip_long_basic2)
    probe_defaults(a.workdir, results)
    probe_semantics(a.workdir, results)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
            f.write("\n")
        log(f"== wrote {a.json}")


if __name__ == "__main__":
    main()
