"""Real Linux TCP on a dumbbell in network namespaces: the oracle for
ackclock's `linux` profile (README.md here says how to run and reuse it).

Three namespaces, sender - router - receiver, joined by veth pairs with every
offload off (so the queue sees 1500-byte packets, as in a simulation). The
router's egress towards the receiver is the bottleneck: HTB at the rate with a
pfifo of the queue limit in packets. The round trip's delay sits on the ACK
path: the router routes packets for the sender through a TUN device whose
reader (`--role delay`, in the router) writes each back after the delay (the
kernel here has no netem), so the data path's only queue is the bottleneck's.
One bulk TCP connection runs for the duration with the chosen congestion
control; the sender samples its socket's `tcp_info` every few milliseconds
and the receiver counts what arrives. `--stall-at`/`--stall-s` hold the ACK
path for a while (a delay spike that outlasts the RTO makes it spurious), and
`--sysctl` sets the end hosts' TCP (`net.ipv4.tcp_timestamps=0`); the sender's
undo counters (nstat's TcpExtTCPSpuriousRTOs, ...) go into the document.

    sudo python3 benchmarks/linux/live.py --cc reno --out run.json
    python3 benchmarks/linux/live.py --summarize run.json

Writes one JSON document: the configuration, the kernel, the sampled series
(time, cwnd and ssthresh in packets, srtt, retransmissions, timeouts), the
bottleneck's drop count and the summary of `sawtooth.py`.
"""

from __future__ import annotations

import argparse
import collections
import fcntl
import json
import os
import platform
import select
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from sawtooth import summarize  # noqa: E402

PORT = 5201
CHUNK = 1 << 16
# struct tcp_info (include/uapi/linux/tcp.h): the fields read, by byte offset.
TCP_INFO_FIELDS = {
    "ca_state": (1, "B"),
    "retransmits": (2, "B"),
    "rto_us": (8, "I"),
    "snd_mss": (16, "I"),
    "sacked": (28, "I"),
    "lost": (32, "I"),
    "rtt_us": (68, "I"),
    "rttvar_us": (72, "I"),
    "snd_ssthresh": (76, "I"),
    "snd_cwnd": (80, "I"),
    "total_retrans": (100, "I"),
    "bytes_acked": (120, "Q"),
    "min_rtt_us": (148, "I"),
    "delivery_rate": (160, "Q"),
    "delivered": (192, "I"),
    "delivered_ce": (196, "I"),
    "dsack_dups": (216, "I"),
    "total_rto": (240, "H"),
    "total_rto_recoveries": (242, "H"),
}
TCP_INFO_BYTES = 256
UNDO_COUNTERS = (
    "TcpExtTCPSpuriousRTOs",
    "TcpExtTCPLossUndo",
    "TcpExtTCPFullUndo",
    "TcpExtTCPPartialUndo",
    "TcpExtTCPDSACKUndo",
)


def sh(*args: str, check: bool = True) -> str:
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise SystemExit(f"live.py: {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def netns(ns: str, *args: str, check: bool = True) -> str:
    return sh("ip", "netns", "exec", ns, *args, check=check)


class Dumbbell:
    """The three namespaces and their links; a context manager that removes them."""

    def __init__(self, tag: str, args: argparse.Namespace) -> None:
        self.snd, self.rtr, self.rcv = (f"ac{tag}-{n}" for n in ("snd", "rtr", "rcv"))
        self.rate, self.delay_ms, self.queue = args.rate, args.rtt_ms, args.queue
        self.ecn = args.ecn
        self.stall = ["--stall-at", str(args.stall_at), "--stall-s", str(args.stall_s)]
        self.sysctls = args.sysctl

    def __enter__(self) -> Dumbbell:
        try:
            self._build()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _build(self) -> None:
        for ns in (self.snd, self.rtr, self.rcv):
            sh("ip", "netns", "add", ns)
        links = [(self.snd, "s0", "10.77.1.1/24", self.rtr, "r0", "10.77.1.2/24")]
        links.append((self.rcv, "d0", "10.77.2.1/24", self.rtr, "r1", "10.77.2.2/24"))
        for ns_a, a, addr_a, ns_b, b, addr_b in links:
            sh("ip", "link", "add", a, "netns", ns_a, "type", "veth", "peer", b, "netns", ns_b)
            for ns, dev, addr in ((ns_a, a, addr_a), (ns_b, b, addr_b)):
                netns(ns, "ip", "addr", "add", addr, "dev", dev)
                netns(ns, "ip", "link", "set", dev, "up")
                netns(ns, "ethtool", "-K", dev, "tso", "off", "gso", "off", "gro", "off")
        for ns in (self.snd, self.rtr, self.rcv):
            netns(ns, "ip", "link", "set", "lo", "up")
        netns(self.snd, "ip", "route", "add", "default", "via", "10.77.1.2")
        netns(self.rcv, "ip", "route", "add", "default", "via", "10.77.2.2")
        netns(self.rtr, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        for ns in (self.snd, self.rcv):
            netns(ns, "sysctl", "-qw", "net.ipv4.tcp_no_metrics_save=1")
            netns(ns, "sysctl", "-qw", f"net.ipv4.tcp_ecn={1 if self.ecn else 0}")
            for setting in self.sysctls:
                netns(ns, "sysctl", "-qw", setting)
        # The bottleneck: HTB at the rate, a FIFO of `queue` packets. The size
        # table's -14 leaves the Ethernet header out: the rate is of IP bytes,
        # as on a simulated link.
        tc = "tc qdisc add dev r1 root handle 1: stab overhead -14 htb default 1"
        netns(self.rtr, *tc.split())
        rate = f"rate {self.rate} ceil {self.rate} burst 1514b cburst 1514b"
        netns(self.rtr, *f"tc class add dev r1 parent 1: classid 1:1 htb {rate}".split())
        fifo = f"tc qdisc add dev r1 parent 1:1 handle 10: pfifo limit {self.queue}"
        netns(self.rtr, *fifo.split())
        # The round trip's delay, on the ACK path: packets for the sender go
        # through the TUN device; what the delay line writes back leaves by r0.
        netns(self.rtr, "ip", "tuntap", "add", "dev", "dly", "mode", "tun")
        netns(self.rtr, "ip", "link", "set", "dly", "up")
        netns(self.rtr, "sysctl", "-qw", "net.ipv4.conf.all.rp_filter=0")
        netns(self.rtr, "sysctl", "-qw", "net.ipv4.conf.dly.rp_filter=0")
        netns(self.rtr, "ip", "route", "add", "10.77.1.1/32", "dev", "dly")
        netns(self.rtr, "ip", "route", "add", "10.77.1.1/32", "dev", "r0", "table", "100")
        netns(self.rtr, "ip", "rule", "add", "iif", "dly", "lookup", "100")
        me = str(Path(__file__).resolve())
        self.delay_line = subprocess.Popen(
            [
                "ip",
                "netns",
                "exec",
                self.rtr,
                sys.executable,
                me,
                "--role",
                "delay",
                "--rtt-ms",
                str(self.delay_ms),
                *self.stall,
            ]
        )
        time.sleep(0.3)

    def bottleneck_stats(self) -> dict[str, int]:
        text = netns(self.rtr, "tc", "-s", "-j", "qdisc", "show", "dev", "r1")
        fifo = next(q for q in json.loads(text) if q["kind"] == "pfifo")
        return {"sent_packets": fifo["packets"], "drops": fifo["drops"]}

    def undo_counters(self) -> dict[str, int]:
        """The sender's counters of undone reductions (its namespace's MIB)."""
        text = netns(self.snd, "nstat", "-asz", *UNDO_COUNTERS)
        rows = (line.split() for line in text.splitlines() if not line.startswith("#"))
        return {name: int(value) for name, value, *_ in rows}

    def __exit__(self, *exc: object) -> None:
        if getattr(self, "delay_line", None) is not None:
            self.delay_line.kill()
            self.delay_line.wait()
        for ns in (self.snd, self.rtr, self.rcv):
            sh("ip", "netns", "del", ns, check=False)


def tcp_info(sock: socket.socket) -> dict[str, int]:
    raw = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_BYTES)
    raw = raw.ljust(TCP_INFO_BYTES, b"\0")
    return {k: struct.unpack_from("<" + f, raw, off)[0] for k, (off, f) in TCP_INFO_FIELDS.items()}


TUNSETIFF = 0x400454CA
IFF_TUN, IFF_NO_PI = 0x0001, 0x1000


def delay_line(delay_s: float, stall_at: float, stall_s: float) -> None:
    """Run inside the router namespace: every packet read from the TUN
    device is written back to it `delay_s` later (a constant delay keeps
    FIFO order). What arrives in the `stall_s` seconds from `stall_at` after
    the first TCP packet (the SYN-ACK) is held until they end."""
    fd = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", b"dly", IFF_TUN | IFF_NO_PI))
    held: collections.deque[tuple[float, bytes]] = collections.deque()
    start = None
    while True:
        wait = max(0.0, held[0][0] - time.monotonic()) if held else None
        if select.select([fd], [], [], wait)[0]:
            now, packet = time.monotonic(), os.read(fd, 65536)
            if start is None and packet[0] >> 4 == 4 and packet[9] == socket.IPPROTO_TCP:
                start = now
            stall_end = (start or now) + stall_at + stall_s
            sent = stall_end if stall_end - stall_s <= now < stall_end else now
            held.append((sent + delay_s, packet))
        now = time.monotonic()
        while held and held[0][0] <= now:
            os.write(fd, held.popleft()[1])


def receiver(seconds: float) -> None:
    """Run inside the receiver namespace: accept one connection, read for
    `seconds` after its first byte, print the bytes received per 100 ms."""
    with socket.create_server(("0.0.0.0", PORT)) as server:
        conn, _ = server.accept()
        buf = bytearray(CHUNK)
        start, bins = None, []
        with conn:
            while True:
                n = conn.recv_into(buf)
                if n == 0:
                    break
                now = time.monotonic()
                start = start or now
                k = int((now - start) / 0.1)
                if k >= len(bins):
                    bins.extend([0] * (k + 1 - len(bins)))
                bins[k] += n
                if now - start > seconds:
                    break
    print(json.dumps(bins))


def sender(host: str, cc: str, seconds: float, sample_s: float) -> None:
    """Run inside the sender namespace: send for `seconds`, sampling tcp_info."""
    sock = socket.socket()
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
    sock.connect((host, PORT))
    samples: list[list[float]] = []
    stop = threading.Event()
    t0 = time.monotonic()

    def sample() -> None:
        while not stop.is_set():
            info = tcp_info(sock)
            samples.append([round(time.monotonic() - t0, 6), *info.values()])
            time.sleep(sample_s)

    thread = threading.Thread(target=sample)
    thread.start()
    data = b"\0" * CHUNK
    while time.monotonic() - t0 < seconds:
        sock.send(data)
    stop.set()
    thread.join()
    sock.close()
    print(json.dumps({"fields": ["t", *TCP_INFO_FIELDS], "samples": samples}))


def run(args: argparse.Namespace) -> dict:
    tag = str(os.getpid())
    with Dumbbell(tag, args) as net:
        me = str(Path(__file__).resolve())
        receive = ["--role", "receiver", "--duration", str(args.duration)]
        rx = subprocess.Popen(
            ["ip", "netns", "exec", net.rcv, sys.executable, me, *receive],
            stdout=subprocess.PIPE,
            text=True,
        )
        time.sleep(0.5)
        tx = netns(
            net.snd,
            sys.executable,
            me,
            "--role",
            "sender",
            "--cc",
            args.cc,
            "--duration",
            str(args.duration),
            "--sample",
            str(args.sample),
        )
        bins = json.loads(rx.communicate(timeout=60)[0])
        stats = net.bottleneck_stats()
        counters = net.undo_counters()
    sent = json.loads(tx)
    fields = sent["fields"]
    rows = [dict(zip(fields, s)) for s in sent["samples"]]
    mss = max(r["snd_mss"] for r in rows)
    # Samples where cwnd changed, to the millisecond: the sawtooth in a few
    # kilobytes (a step series, like a simulated flow's).
    changed = [r for i, r in enumerate(rows) if i == 0 or r["snd_cwnd"] != rows[i - 1]["snd_cwnd"]]
    series = {
        "t": [round(r["t"], 3) for r in changed],
        "cwnd": [r["snd_cwnd"] for r in changed],
        "ssthresh": [min(r["snd_ssthresh"], 10**6) for r in changed],
        "srtt_s": [r["rtt_us"] / 1e6 for r in changed],
    }
    last = rows[-1]
    document = {
        "config": {
            "cc": args.cc, "rate": args.rate, "rtt_ms": args.rtt_ms, "queue_packets": args.queue,
            "duration_s": args.duration, "sample_s": args.sample, "ecn": args.ecn, "mss": mss,
            "stall_at_s": args.stall_at, "stall_s": args.stall_s, "sysctl": args.sysctl,
        },
        "kernel": platform.release(),
        "receiver_bytes_per_100ms": bins,
        "bottleneck": stats,
        "totals": {
            "timeouts": last["total_rto"], "retransmits": last["total_retrans"],
            "bytes_acked": last["bytes_acked"], "min_rtt_s": last["min_rtt_us"] / 1e6,
            "dsack_dups": last["dsack_dups"], "rto_recoveries": last["total_rto_recoveries"],
        },
        "undo_counters": counters,
        "series": series,
    }  # fmt: skip
    document["summary"] = summarize(document)
    return document


def mean_summary(runs: list[dict]) -> dict[str, float]:
    return {k: sum(r["summary"][k] for r in runs) / len(runs) for k in runs[0]["summary"]}


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--cc", default="reno", help="kernel congestion control (reno, cubic, bbr)")
    p.add_argument("--rate", default="10mbit", help="bottleneck rate (tc syntax)")
    p.add_argument("--rtt-ms", type=float, default=40.0, help="base round-trip time")
    p.add_argument("--queue", type=int, default=33, help="bottleneck FIFO in packets")
    p.add_argument("--duration", type=float, default=30.0)
    p.add_argument("--sample", type=float, default=0.005, help="tcp_info sampling period, s")
    p.add_argument("--ecn", action="store_true", help="negotiate ECN (tcp_ecn=1)")
    p.add_argument(
        "--stall-at", type=float, default=0.0, help="hold the ACK path from this time (s)"
    )
    p.add_argument("--stall-s", type=float, default=0.0, help="for this long (0: never)")
    p.add_argument(
        "--sysctl", action="append", default=[], help="set on both ends: net.ipv4.tcp_frto=0"
    )
    p.add_argument(
        "--runs", type=int, default=1, help="repeat the run; the document keeps each and their mean"
    )
    p.add_argument("--out", type=Path, help="write the JSON document here")
    p.add_argument("--summarize", type=Path, help="print the mean summary of a written document")
    p.add_argument("--role", choices=["sender", "receiver", "delay"], help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.role == "delay":
        delay_line(args.rtt_ms / 1000, args.stall_at, args.stall_s)
    elif args.role == "receiver":
        receiver(args.duration)
    elif args.role == "sender":
        sender("10.77.2.1", args.cc, args.duration, args.sample)
    elif args.summarize:
        runs = json.loads(args.summarize.read_text())["runs"]
        for r in runs:
            r["summary"] = summarize(r)
        print(json.dumps(mean_summary(runs), indent=2))
    else:
        runs = [run(args) for _ in range(args.runs)]
        document = {"runs": runs, "mean": mean_summary(runs)}
        if args.out:
            args.out.write_text(json.dumps(document, separators=(",", ":")) + "\n")
        print(json.dumps(document["mean"], indent=2))


if __name__ == "__main__":
    main()
