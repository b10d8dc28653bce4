"""The two-sender scripts of sec. 16.3 to 16.5 (basic2.tcl, renovegas.tcl):
their argv and the columns of the line they end with."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ackclock.experiments.chapter.scripts import chapter_script
from ackclock.files import write_atomically
from ackclock.sweeps import Script

# "delayB overhead recv0 recv1 rttratio rttratio2 actualratio ratio1 ratio2";
# recv0 is A's packets received (the short path), recv1 B's.
COLUMNS = ["-", "-", "recv0", "recv1", "rttratio", "rttratio2", "actualratio", "ratio1", "ratio2"]


def basic2(argv: Sequence[str], analysis: str | None = None) -> Script:
    """basic2.tcl [delayB [overhead [bottleneckBW [endtime [queuesize]]]]]."""
    return Script(chapter_script("basic2.tcl"), argv, COLUMNS, analysis)


def renovegas(argv: Sequence[str], analysis: str | None = None) -> Script:
    """renovegas.tcl, basic2.tcl's argv and a sixth, ns-2's generator seed."""
    return Script(chapter_script("renovegas.tcl"), argv, COLUMNS, analysis)


# Sec. 16.4.2: "The SACK TCP sender is specified in ns-2 via Agent/TCP/Sack1 ...
# creating the receiver with Agent/TCPSink/Sack1."
SACK_CHANGES = {
    "[new Agent/TCP/Reno]": "[new Agent/TCP/Sack1]",
    "[new Agent/TCPSink]": "[new Agent/TCPSink/Sack1]",
}


# Sec. 16.3.7: a telnet connection beside each bulk one, A-D and B-D, of
# 210-byte packets (250 with headers) at exponential intervals chosen so that
# each uses the fraction tndensity (a sixth argument) of the bottleneck.
TELNET = """
set tndensity [expr [lindex $argv 5]]
if { $tndensity > 0 } {
    set tninterval [expr 250 * 8.0 / ($tndensity * $bottleneckBW * 1e6)]
    foreach {src name} [list $A 0 $B 1] {
        set tntcp($name) [new Agent/TCP]
        $tntcp($name) set packetSize_ 210
        $ns attach-agent $src $tntcp($name)
        set tnsink($name) [new Agent/TCPSink]
        $ns attach-agent $D $tnsink($name)
        $ns connect $tntcp($name) $tnsink($name)
        set telnet($name) [new Application/Telnet]
        $telnet($name) set interval_ $tninterval
        $telnet($name) attach-agent $tntcp($name)
        $ns at 0.0 "$telnet($name) start"
    }
}
"""
TELNET_AFTER = '$ns at 0.0 "$ftp1 start"\n'


def _variant(name: str, changes: dict[str, str], count: int, directory: Path) -> Path:
    """basic2.tcl with each `changes` key (found `count` times) replaced,
    written into `directory` (the study's output directory) as `name`."""
    text = chapter_script("basic2.tcl").read_text()
    for old, new in changes.items():
        if text.count(old) != count:
            raise ValueError(f"basic2.tcl no longer has {old!r} {count} times: cannot make {name}")
        text = text.replace(old, new)
    path = directory / name
    write_atomically(path, text.encode())
    return path


def basic2_sack(argv: Sequence[str], directory: Path, analysis: str | None = None) -> Script:
    """basic2.tcl with both connections SACK TCP, as the chapter changes it."""
    path = _variant("basic2-sack.tcl", SACK_CHANGES, 2, directory)
    return Script(path, argv, COLUMNS, analysis)


def basic2_telnet(argv: Sequence[str], directory: Path) -> Script:
    """basic2.tcl with telnet traffic beside each bulk connection; argv's
    sixth argument is the telnet density (0: none)."""
    changes = {TELNET_AFTER: TELNET_AFTER + TELNET}
    return Script(_variant("basic2-telnet.tcl", changes, 1, directory), argv, COLUMNS)
