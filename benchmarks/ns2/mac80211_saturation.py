"""ns-2 2.35's 802.11 under saturation: the reference numbers of mac80211.rs's contention test.

Runs benchmarks/ns2/mac80211_saturation.tcl (four stations 50 m around a sink, each offering
200 packets/s) for seeds 1..30 and counts, between 1 s and 11 s, the data frames received at
the MAC, the RTS frames sent and the RTS frames the sink's MAC trace drops as collided (COL).
Seeds where AODV did not give every sender a direct route (one relays through another, or never
finds the sink) are left out: that is routing, not the MAC.
Usage: python3 benchmarks/ns2/mac80211_saturation.py
"""

import statistics
import subprocess
import tempfile
from pathlib import Path

SCRIPT = Path(__file__).with_name("mac80211_saturation.tcl")
SENDERS = {"_1_", "_2_", "_3_", "_4_"}


def count(trace: Path) -> tuple[int, int, int] | None:
    """(data frames received, RTS sent, RTS lost to collisions at the sink) in [1, 11) s, or
    None unless all four send straight to 0."""
    received = rts = collided = 0
    senders: set[str] = set()
    for line in trace.read_text().splitlines():
        f = line.split()
        if len(f) < 7 or f[3] != "MAC" or not 1.0 <= float(f[1]) < 11.0:
            continue
        if f[0] == "r" and f[6] == "cbr":
            if f[2] != "_0_":
                return None
            received += 1
        elif f[0] == "s" and f[6] == "RTS":
            rts += 1
        elif f[0] == "s" and f[6] == "cbr":
            senders.add(f[2])
        elif f[0] == "D" and f[2] == "_0_" and f[4] == "COL" and f[6] == "RTS":
            collided += 1
    return (received, rts, collided) if senders == SENDERS else None


def main() -> None:
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, 31):
            subprocess.run(["ns", str(SCRIPT), str(seed)], cwd=tmp, check=True, capture_output=True)
            counted = count(Path(tmp) / "mac80211_saturation.tr")
            if counted:
                runs.append(counted)
    received = [r for r, _, _ in runs]
    failed = [rts - r for r, rts, _ in runs]
    collided = [c for _, _, c in runs]
    print(f"{len(runs)} of 30 seeds with four direct senders")
    for name, values in (
        ("data frames received", received),
        ("RTS beyond them", failed),
        ("RTS dropped as COL at the sink", collided),
    ):
        print(f"{name}: mean {statistics.mean(values):.2f}, {min(values)}..{max(values)}")


if __name__ == "__main__":
    main()
