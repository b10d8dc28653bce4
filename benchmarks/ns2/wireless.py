#!/usr/bin/env python3
"""The ns-2 oracle for wireless: the seed chapter's wireless.tcl (seed 003, sec.
16.6) and variants of it under ns-2 2.35.

    PYTHONPATH=python python3 benchmarks/ns2/wireless.py [--json OUT] [--keep DIR]
    PYTHONPATH=python python3 benchmarks/ns2/wireless.py --compare [--keep DIR]

tests/fixtures/wireless.tcl is the chapter's script as printed. Each variant is
that text with some `set opt(...)` lines given other values (and, for one, MAC
tracing on and the old trace format), run by `ns` in a scratch directory, where
it writes wireless.tr and wireless.nam as the chapter has it. Per variant the
fixture (tests/fixtures/ns2_wireless.json, so the tests need no ns-2) records:

* ``cbr_sent``: ``s`` records of cbr at level AGT at the sender (node 0);
* ``cbr_delivered``: ``r`` records of cbr at level AGT at the mover (the last
  node created, node ``bottomrow``);
* ``drops``: every ``d`` record as [time, level, reason, packet type];
* ``cbr_drop_clusters``: the cbr drops grouped so that a drop at most 1 s after
  the previous one joins its cluster, as [start time, drops];
* ``mac_frames`` (MAC-traced variant only): frames sent at level MAC, by type.

`--compare` runs the same variants under `ackclock tcl` instead and prints
ackclock's numbers beside the fixture's (the MAC-traced variant is left out:
tests/test_wireless_mac_trace.py compares its MAC frames).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from ackclock.analysis.ns2wireless import gap_clusters, read_wireless_trace

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "tests" / "fixtures" / "wireless.tcl"
FIXTURE = ROOT / "tests" / "fixtures" / "ns2_wireless.json"
CLUSTER_GAP = 1.0  # s
CHAPTER_SPEED = "1.0*$opt(x)/$opt(finish)"

# name -> (what it tests, opt values to set, MAC trace on and old trace format)
VARIANTS: dict[str, tuple[str, dict[str, str], bool]] = {
    "chapter": ("wireless.tcl as printed", {}, False),
    "finish10": ("finish 10 s, so the mover crosses 10 times faster", {"finish": "10"}, False),
    "dsdv": ("DSDV instead of AODV", {"adhocRouting": "DSDV"}, False),
    "spacing150": ("bottom-row spacing 150 m", {"spacing": "150"}, False),
    "spacing250": ("bottom-row spacing 250 m (the radio's range)", {"spacing": "250"}, False),
    "slow": (
        "half the chapter's speed (the mover gets half-way in 100 s)",
        {"speed": f"[expr 0.5*{CHAPTER_SPEED}]"},
        False,
    ),
    "fast": (
        "twice the chapter's speed (the mover arrives at 50 s and stops)",
        {"speed": f"[expr 2.0*{CHAPTER_SPEED}]"},
        False,
    ),
    "mac_two_nodes": (
        "two nodes (one bottom-row node, field 201 m wide so the mover goes 0 -> 200 m), "
        "10 s, macTrace ON, old trace format (no use-newtrace)",
        {"bottomrow": "1", "x": "201", "finish": "10"},
        True,
    ),
}


def variant_script(text: str, options: dict[str, str], mac_old_format: bool) -> str:
    """`text` with each `set opt(NAME) ...` line of `options` given its new value."""
    for name, value in options.items():
        pattern = re.compile(rf"^set opt\({name}\)[ \t].*$", re.MULTILINE)
        line = f"set opt({name}) {value}"
        text, count = pattern.subn(lambda _match, line=line: line, text)
        if count != 1:
            raise SystemExit(f"wireless.tcl has {count} lines setting opt({name}), expected 1")
    if mac_old_format:
        for old, new in (("-macTrace OFF", "-macTrace ON"), ("$ns use-newtrace\n", "")):
            if text.count(old) != 1:
                raise SystemExit(f"wireless.tcl has no single {old.strip()!r}")
            text = text.replace(old, new)
    return text


def bottom_row(text: str) -> int:
    match = re.search(r"^set opt\(bottomrow\)\s+(\d+)", text, re.MULTILINE)
    if match is None:
        raise SystemExit("wireless.tcl sets no opt(bottomrow)")
    return int(match.group(1))


NS2 = ["ns"]
ACKCLOCK = [sys.executable, "-m", "ackclock", "tcl"]


def run_variant(text: str, workdir: Path, simulator: list[str] = NS2) -> dict:
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "wireless.tcl").write_text(text)
    done = subprocess.run(
        [*simulator, "wireless.tcl"], cwd=workdir, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{simulator[-1]} failed in {workdir}:\n{done.stderr[-2000:]}")
    trace = read_wireless_trace(workdir / "wireless.tr")
    mover = bottom_row(text)
    cbr_agent = trace[(trace["level"] == "AGT") & (trace["type"] == "cbr")]
    drops = trace[trace["event"] == "d"].sort_values("time", kind="stable")
    clusters = gap_clusters(drops.loc[drops["type"] == "cbr", "time"], CLUSTER_GAP)
    result = {
        "mover": mover,
        "cbr_sent": int(((cbr_agent["event"] == "s") & (cbr_agent["node"] == 0)).sum()),
        "cbr_delivered": int(((cbr_agent["event"] == "r") & (cbr_agent["node"] == mover)).sum()),
        "drops": [
            [round(float(row.time), 9), row.level, row.reason, row.type]
            for row in drops.itertuples(index=False)
        ],
        "cbr_drop_clusters": [
            [round(float(row.start), 9), int(row.size)] for row in clusters.itertuples()
        ],
    }
    mac_sent = trace[(trace["level"] == "MAC") & (trace["event"] == "s")]
    if len(mac_sent):
        result["mac_frames"] = {
            kind: int(count) for kind, count in mac_sent.groupby("type").size().items()
        }
    return result


def dump(results: dict) -> str:
    """JSON with one line per drop and per cluster (the fixture stays readable and small)."""
    text = json.dumps(results, indent=1)
    # join the items of the innermost lists ([time, level, reason, type]) onto one line
    return re.sub(r"\[\n\s+([^\[\]{}]*?)\n\s+\]", _one_line, text) + "\n"


def _one_line(match: re.Match[str]) -> str:
    return "[" + re.sub(r",\n\s+", ", ", match.group(1)) + "]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, default=FIXTURE, help="where to write the results")
    parser.add_argument("--keep", type=Path, help="run in DIR/<variant> and keep the traces")
    parser.add_argument(
        "--compare", action="store_true", help="run ackclock and compare with the fixture"
    )
    args = parser.parse_args()
    if args.compare:
        return compare(args.keep)
    chapter = SCRIPT.read_text()
    results = {}
    with tempfile.TemporaryDirectory(prefix="ns2_wireless_") as scratch:
        base = args.keep or Path(scratch)
        for name, (description, options, mac_old_format) in VARIANTS.items():
            text = variant_script(chapter, options, mac_old_format)
            result = run_variant(text, base / name)
            results[name] = {
                "description": description,
                "options": options,
                "macTrace_old_format": mac_old_format,
                **result,
            }
            clusters = ", ".join(
                f"{start:.3f} ({size})" for start, size in result["cbr_drop_clusters"][:6]
            )
            print(
                f"{name:14} delivered {result['cbr_delivered']:5} of {result['cbr_sent']:5} "
                f"cbr; {len(result['drops']):5} drops; clusters {clusters}"
            )
    args.json.write_text(dump(results))
    print(f"wrote {args.json}")
    return 0


def compare(keep: Path | None) -> int:
    """ackclock on every variant beside ns-2's fixture: delivered packets and
    the first cbr drop clusters."""
    chapter = SCRIPT.read_text()
    oracle = json.loads(FIXTURE.read_text())
    print(
        "| variant | ns-2 delivered | ackclock | difference | ns-2 clusters | ackclock clusters |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory(prefix="ackclock_wireless_") as scratch:
        base = keep or Path(scratch)
        for name, (_, options, mac_old_format) in VARIANTS.items():
            if mac_old_format:
                continue
            ours = run_variant(variant_script(chapter, options, False), base / name, ACKCLOCK)
            theirs = oracle[name]
            diff = ours["cbr_delivered"] / theirs["cbr_delivered"] - 1

            def starts(result: dict) -> str:
                return ", ".join(f"{start:.2f}" for start, _ in result["cbr_drop_clusters"][:4])

            print(
                f"| {name} | {theirs['cbr_delivered']} of {theirs['cbr_sent']} | "
                f"{ours['cbr_delivered']} of {ours['cbr_sent']} | {100 * diff:+.1f}% | "
                f"{starts(theirs)} | {starts(ours)} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
