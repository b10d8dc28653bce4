"""read_wireless_trace on real ns-2 2.35 lines of the chapter's wireless.tcl
(seed 003, sec. 16.6), in both trace formats; gap_clusters."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from ackclock.analysis import TraceFormatError, gap_clusters, read_wireless_trace

# The same two events (the mover's first cbr delivery, the first drop) written by
# `ns wireless.tcl` with use-newtrace and without it (the old format).
NEW = (
    "M 0.00000 5 (0.00, 200.00, 0.00), (800.00, 200.00), 8.01\n"
    "r -t 0.012816166 -Hs 5 -Hd 5 -Ni 5 -Nx 0.10 -Ny 200.00 -Nz 0.00 -Ne -1.000000 -Nl AGT"
    " -Nw --- -Ma 13a -Md 5 -Ms 0 -Mt 800 -Is 0.0 -Id 5.0 -It cbr -Il 532 -If 0 -Ii 0 -Iv 30"
    " -Pn cbr -Pi 0 -Pf 1 -Po 0 \n"
    "d -t 25.014212333 -Hs 0 -Hd 5 -Ni 0 -Nx 0.00 -Ny 50.00 -Nz 0.00 -Ne -1.000000 -Nl RTR"
    " -Nw CBK -Ma 13a -Md 5 -Ms 0 -Mt 800 -Is 0.0 -Id 5.0 -It cbr -Il 532 -If 0 -Ii 1219"
    " -Iv 30 -Pn cbr -Pi 1219 -Pf 0 -Po 0 \n"
)
OLD = (
    "M 0.00000 5 (0.00, 200.00, 0.00), (800.00, 200.00), 8.01\n"
    "r 0.012816166 _5_ AGT  --- 0 cbr 532 [13a 5 0 800] ------- [0:0 5:0 30 5] [0] 1 0\n"
    "D 25.014212333 _0_ RTR  CBK 1219 cbr 532 [13a 5 0 800] ------- [0:0 5:0 30 5] [1219] 0 0\n"
)


def test_both_formats_read_the_same_events() -> None:
    new, old = read_wireless_trace(io.StringIO(NEW)), read_wireless_trace(io.StringIO(OLD))
    pd.testing.assert_frame_equal(new, old)
    drop = new.iloc[1]
    assert (drop["event"], drop["node"], drop["level"], drop["reason"]) == ("d", 0, "RTR", "CBK")
    assert (drop["type"], drop["size"], drop["uid"]) == ("cbr", 532, 1219)
    assert drop["time"] == pytest.approx(25.014212333, abs=1e-12)
    assert (drop["src_node"], drop["src_port"], drop["dst_node"], drop["dst_port"]) == (0, 0, 5, 0)


def test_frames_without_an_ip_header_have_no_addresses() -> None:
    lines = (
        # old format: RTS and ARP request (two-node run with macTrace ON)
        "s 0.003087000 _0_ MAC  --- 0 RTS 44 [52e 1 0 0] \n"
        "s 0.002023500 _1_ MAC  --- 0 ARP 86 [0 ffffffff 1 806] ------- [REQUEST 1/1 0/0]\n"
        # new format: the same RTS (no -It tag) and ARP request (-P arp)
        "s -t 0.003087000 -Hs 0 -Hd -2 -Ni 0 -Nx 0.00 -Ny 50.00 -Nz 0.00 -Ne -1.000000 -Nl MAC"
        " -Nw --- -Ma 52e -Md 1 -Ms 0 -Mt 0 \n"
        "s -t 0.002023500 -Hs 1 -Hd -2 -Ni 1 -Nx 0.04 -Ny 200.00 -Nz 0.00 -Ne -1.000000 -Nl MAC"
        " -Nw --- -Ma 0 -Md ffffffff -Ms 1 -Mt 806 -P arp -Po REQUEST -Pms 1 -Ps 1 -Pmd 0 -Pd 0 \n"
    )
    frame = read_wireless_trace(io.StringIO(lines))
    assert frame["type"].tolist() == ["RTS", "ARP", "", "ARP"]
    assert frame["size"].tolist() == [44, 86, 0, 0]
    assert frame["dst_node"].isna().all()


def test_broadcast_destination_is_node_minus_one() -> None:
    line = (
        "s 0.000000000 _0_ RTR  --- 0 AODV 48 [0 0 0 0] ------- [0:255 -1:255 30 0]"
        " [0x2 1 1 [1 0] [0 4]] (REQUEST)\n"
    )
    row = read_wireless_trace(io.StringIO(line)).iloc[0]
    assert (row["type"], row["dst_node"], row["dst_port"]) == ("AODV", -1, 255)


def test_a_line_in_neither_format_names_its_line_number() -> None:
    text = OLD + "r 0.5 0 1 tcp 40 ------- 0 0.0 2.0 0 0\n"
    with pytest.raises(TraceFormatError, match=r"line 4: not a wireless trace record"):
        read_wireless_trace(io.StringIO(text))


def test_gap_clusters_join_times_at_most_the_gap_apart() -> None:
    clusters = gap_clusters([25.0, 25.0, 25.5, 26.5, 28.0, 29.1], 1.0)
    assert clusters["start"].tolist() == [25.0, 28.0, 29.1]
    assert clusters["end"].tolist() == [26.5, 28.0, 29.1]
    assert clusters["size"].tolist() == [4, 1, 1]
