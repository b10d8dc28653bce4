"""Variables a script changes while the simulation runs (issue 14), against
ns-2 2.35 itself: what ns-2 applies from then on, ackclock applies at the
same packet; what ackclock cannot apply is refused, never ignored."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"

# `ns ns2_midrun.tcl CHANGE` with ns-2 2.35: the LossMonitor's time, bytes_
# and npkts_ every 0.5 s; the change comes at 1.03 s, between two packets.
NS2_CBR = {
    "none": "0.5 6000 20|1 13500 45|1.5 21000 70|2 28500 95|2.5 36000 120|3 43500 145",
    "rate": "0.5 6000 20|1 13500 45|1.5 42600 142|2 73800 246|2.5 105000 350|3 136500 455",
    "interval": "0.5 6000 20|1 13500 45|1.5 33600 112|2 55200 184|2.5 76500 255|3 98100 327",
    "size": "0.5 6000 20|1 13500 45|1.5 21300 55|2 28500 63|2.5 36600 72|3 43800 80",
    "maxpkts": "0.5 6000 20|1 13500 45|1.5 21000 70|2 21000 70|2.5 21000 70|3 21000 70",
    "zero": "0.5 6000 20|1 13500 45|1.5 6900 23|2 14400 48|2.5 21900 73|3 29400 98",
}

# `ns ns2_midrun_sink.tcl`: TCPSink bytes_ zeroed at 1.03 s and 2.2 s.
NS2_SINK = "0.5 23960|1 86360|1.5 59280|2 121680|2.5 37440|3 99840"

# `ns ns2_midrun_telnet.tcl`: ndatapack_ each second; interval_ 20 ms, then
# 2 ms from 4 s, then 50 ms from 8 s.
NS2_TELNET = {4: 180, 8: 2164, 12: 2240}

# `ns ns2_midrun_expoo.tcl`: npkts_ at 200 s and 1000 s; idle_time_ goes
# from 0.2 s to 1.8 s at 200 s (rate_ too, which ns-2 takes at start only).
NS2_EXPOO = {200: 10360, 1000: 18627}


def lines(done: object) -> list[str]:
    assert done.returncode == 0, done.stderr  # type: ignore[attr-defined]
    return done.stdout.strip().splitlines()  # type: ignore[attr-defined]


@pytest.mark.parametrize("change", sorted(NS2_CBR))
def test_cbr_changes_during_the_run_apply_at_ns2s_packet(tmp_path: Path, change: str) -> None:
    done = run_cli("tcl", str(FIXTURES / "ns2_midrun.tcl"), change, cwd=tmp_path)
    assert "|".join(lines(done)) == NS2_CBR[change]


def test_zeroed_tcpsink_bytes_count_on_as_ns2s(tmp_path: Path) -> None:
    done = run_cli("tcl", str(FIXTURES / "ns2_midrun_sink.tcl"), cwd=tmp_path)
    assert "|".join(lines(done)) == NS2_SINK


def phases(counts: dict[int, int]) -> list[int]:
    """Packets sent in each phase between the times of `counts`."""
    ends = sorted(counts)
    return [counts[t] - (counts[s] if s else 0) for s, t in zip([0, *ends], ends)]


def test_telnet_interval_changed_during_the_run_sets_each_phases_rate(tmp_path: Path) -> None:
    # Random gaps (ackclock's draws are not ns-2's): each phase's packet
    # count within 4 standard deviations of the difference of two Poisson
    # counts of ns-2's; keeping 20 ms throughout would send ~200, not ~2000,
    # in the second phase.
    done = run_cli("tcl", str(FIXTURES / "ns2_midrun_telnet.tcl"), cwd=tmp_path)
    ours = {int(float(t)): int(n) for t, n in (line.split() for line in lines(done))}
    for mine, theirs in zip(phases({t: ours[t] for t in NS2_TELNET}), phases(NS2_TELNET)):
        assert abs(mine - theirs) <= 4 * math.sqrt(2 * theirs), (mine, theirs)


def test_exponential_idle_time_changed_during_the_run_as_ns2(tmp_path: Path) -> None:
    # Random periods: each phase within 6% of ns-2's (ns-2 rounds a burst
    # to whole packets, about 3% more); applying rate_ 4Mb, which ns-2
    # ignores until a restart, would send ten times as many.
    done = run_cli("tcl", str(FIXTURES / "ns2_midrun_expoo.tcl"), cwd=tmp_path)
    ours = {int(float(t)): int(n) for t, n in (line.split() for line in lines(done))}
    for mine, theirs in zip(phases(ours), phases(NS2_EXPOO)):
        assert abs(mine - theirs) <= 0.06 * theirs, (mine, theirs)


REFUSED = {
    "$tcp set window_ 50": '"_o10 set window_ 50": _o10 (Agent/TCP) window_ set during the run',
    "[[$ns link $a $b] queue] set limit_ 5": "(Queue/DropTail) limit_ set during the run",
    "$em set rate_ 0.5": "(ErrorModel) rate_ set during the run",
}


@pytest.mark.parametrize("change", sorted(REFUSED))
def test_a_change_the_run_cannot_follow_is_refused(tmp_path: Path, change: str) -> None:
    script = tmp_path / "refused.tcl"
    script.write_text(
        "set ns [new Simulator]\n"
        "set a [$ns node]\n"
        "set b [$ns node]\n"
        "$ns duplex-link $a $b 10Mb 5ms DropTail\n"
        "set em [new ErrorModel]\n"
        "$ns lossmodel $em $a $b\n"
        "set tcp [new Agent/TCP]\n"
        "$ns attach-agent $a $tcp\n"
        "set sink [new Agent/TCPSink]\n"
        "$ns attach-agent $b $sink\n"
        "$ns connect $tcp $sink\n"
        "set ftp [$tcp attach-app FTP]\n"
        '$ns at 0 "$ftp start"\n'
        '$ns at 0.4 "$tcp set window_ 20"\n'  # ns-2's default: no change
        f'$ns at 0.5 "{change}"\n'
        '$ns at 1 "exit 0"\n'
        "$ns run\n"
    )
    done = run_cli("tcl", str(script), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "refused.tcl:15 " in done.stderr
    assert REFUSED[change] in done.stderr
    assert "is not supported: ackclock took its value when" in done.stderr
