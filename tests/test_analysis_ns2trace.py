"""read_ns2_trace: columns, types, the variable-record quirks and errors."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from ackclock.analysis import (
    PACKET_COLUMNS,
    VARIABLE_COLUMNS,
    TraceFormatError,
    ns2trace,
    read_ns2_trace,
)

FIXTURE = Path(__file__).parent / "fixtures" / "basic1.tr.gz"

# The first lines of the chapter's basic1.tr, byte for byte (trailing blanks
# after cwnd_ values of width < 6, destination -1 -1 for the initial values),
# plus a port >= 10 to show that node.port is split as text, not as a number.
HEAD = (
    "0.00000  0  0  -1 -1 cwnd_ 1.000 \n"
    "0.00000  0  0  -1 -1 ssthresh_ 20\n"
    "0.00000  0  0  2  0  ssthresh_ 100\n"
    "+ 0 0 1 tcp 40 ------- 0 0.0 2.0 0 0\n"
    "- 0 0 1 tcp 40 ------- 0 0.0 2.0 0 0\n"
    "0.00000  0  0  2  0  maxseq_ 0\n"
    "r 0.010032 0 1 tcp 40 ------- 0 0.0 2.0 0 0\n"
    "+ 0.795792 0 1 tcp 1000 ---A--- 7 12.3 2.10 28 96\n"
    "0.12086  0  0  2  0  cwnd_ 2.000 \n"
    "999.99573 0  0  2  0  maxseq_ 94932\n"
)


def test_packets_have_named_typed_columns_with_node_and_port_split() -> None:
    packets, _ = read_ns2_trace(io.StringIO(HEAD))
    assert tuple(packets.columns) == PACKET_COLUMNS
    assert packets["event"].tolist() == ["+", "-", "r", "+"]
    assert packets["time"].tolist() == [0.0, 0.0, 0.010032, 0.795792]
    last = packets.iloc[3]
    assert (last["from_node"], last["to_node"], last["type"], last["size"]) == (0, 1, "tcp", 1000)
    assert (last["flags"], last["fid"], last["seq"], last["uid"]) == ("---A---", 7, 28, 96)
    endpoints = last[["src_node", "src_port", "dst_node", "dst_port"]].tolist()
    assert endpoints == [12, 3, 2, 10]
    for column in PACKET_COLUMNS:
        if column not in ("event", "type", "flags"):
            assert np.issubdtype(packets[column].dtype, np.number), column


def test_variables_keep_order_and_read_padded_lines() -> None:
    _, variables = read_ns2_trace(io.StringIO(HEAD))
    assert tuple(variables.columns) == VARIABLE_COLUMNS
    assert variables["name"].tolist() == ["cwnd_", "ssthresh_", "ssthresh_", "maxseq_"] + [
        "cwnd_",
        "maxseq_",
    ]
    assert variables["value"].tolist() == [1.0, 20.0, 100.0, 0.0, 2.0, 94932.0]
    assert variables[["dst_node", "dst_port"]].iloc[0].tolist() == [-1, -1]
    assert variables["time"].iloc[-1] == 999.99573
    assert variables["value"].dtype == np.float64


def test_paths_binary_files_gzip_blank_and_annotation_lines(tmp_path: Path) -> None:
    text = "\n" + HEAD + "v 1.0 eval {set sim_annotation {hello}}\n\n"
    plain, zipped = tmp_path / "a.tr", tmp_path / "a.tr.gz"
    plain.write_text(text.rstrip("\n"))  # no final newline
    zipped.write_bytes(gzip.compress(text.encode()))
    expected_packets, expected_variables = read_ns2_trace(io.StringIO(HEAD))
    for source in (plain, str(zipped), io.BytesIO(text.encode())):
        packets, variables = read_ns2_trace(source)
        assert packets.equals(expected_packets)
        assert variables.equals(expected_variables)


def test_more_than_one_blank_between_fields_is_accepted() -> None:
    packets, variables = read_ns2_trace(io.StringIO("r  1.5 0 1 tcp 40 -- 0 0.0 2.0 0 0\n"))
    assert packets["time"].tolist() == [1.5]
    assert variables.empty


def test_an_empty_trace_gives_empty_typed_frames() -> None:
    packets, variables = read_ns2_trace(io.StringIO(""))
    assert tuple(packets.columns) == PACKET_COLUMNS and packets.empty
    assert tuple(variables.columns) == VARIABLE_COLUMNS and variables.empty
    assert packets["time"].dtype == np.float64 and packets["seq"].dtype == np.int64


@pytest.mark.parametrize(
    ("bad_line", "problem"),
    [
        ("r 0.5 0 1 tcp 40 ------- 0 0.0 2.0 0", "event record has 12 fields, this line has 11"),
        ("r 0.5 0 1 tcp 40 ------- 0 0.0 2.0 0 0 9", "this line has 13"),
        ("r 0.5 0 1 tcp forty ------- 0 0.0 2.0 0 0", "field 6 (size)"),
        ("r 0.5 0 1 tcp 40 ------- 0 0 2.0 0 0", "field 9 (source node.port)"),
        ("0.5 0 0 2 0 cwnd_ big", "field 7 (value)"),
        ("-t 0.5 -Hs 0 -Hd -1", "not an event record"),
    ],
)
def test_a_malformed_line_is_reported_with_file_line_and_text(
    tmp_path: Path, bad_line: str, problem: str
) -> None:
    path = tmp_path / "bad.tr"
    path.write_text(HEAD + bad_line + "\n" + HEAD)
    with pytest.raises(TraceFormatError) as raised:
        read_ns2_trace(path)
    error = raised.value
    assert isinstance(error, ValueError)
    assert (error.line_number, error.line, error.source) == (11, bad_line, str(path))
    assert problem in error.problem
    assert str(error).startswith(f"{path}, line 11: ")
    assert repr(bad_line) in str(error)


def test_the_chapter_trace_has_its_documented_record_counts() -> None:
    # docs/ns2-reference.md: 12342 lines; 722 ack_, 727 cwnd_, 831 maxseq_ and
    # 5 ssthresh_ records; 30 of the 10057 event records carry ---A---.
    packets, variables = read_ns2_trace(FIXTURE)
    assert len(packets) == 10057
    assert variables["name"].value_counts().to_dict() == {
        "maxseq_": 831,
        "cwnd_": 727,
        "ack_": 722,
        "ssthresh_": 5,
    }
    assert (packets["flags"] == "---A---").sum() == 30
    first_drop = packets.loc[packets["event"] == "d"].iloc[0]
    assert (first_drop["time"], first_drop["seq"], first_drop["uid"]) == (0.58616, 28, 43)
    last_ack = variables.loc[variables["name"] == "ack_"].iloc[-1]
    assert (last_ack["time"], last_ack["value"]) == (9.98029, 808.0)


def test_reading_in_small_blocks_gives_the_same_frames_and_line_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole, head = read_ns2_trace(FIXTURE), read_ns2_trace(io.StringIO(HEAD))
    monkeypatch.setattr(ns2trace, "BLOCK_SIZE", 60_000)  # 10 blocks
    packets, variables = read_ns2_trace(FIXTURE)
    pd.testing.assert_frame_equal(packets, whole[0])
    pd.testing.assert_frame_equal(variables, whole[1])
    monkeypatch.setattr(ns2trace, "BLOCK_SIZE", 30)  # shorter than most lines
    packets, variables = read_ns2_trace(io.StringIO(HEAD))
    pd.testing.assert_frame_equal(packets, head[0])
    pd.testing.assert_frame_equal(variables, head[1])
    monkeypatch.setattr(ns2trace, "BLOCK_SIZE", 500)
    text = HEAD * 30 + "r 0.5 0 1 tcp 40\n" + HEAD
    with pytest.raises(TraceFormatError, match=r"<trace>, line 301: ") as raised:
        read_ns2_trace(io.StringIO(text))
    assert raised.value.line == "r 0.5 0 1 tcp 40"
