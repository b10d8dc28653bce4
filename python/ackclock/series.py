"""Time series of a TCP connection's variables, recorded on change.

A series set maps a variable name to `(times_s, values)`: each value holds
from its time until the next one. The core records the client's cwnd,
ssthresh, bytes_in_flight (bytes), srtt and rto (seconds), the server's
advertised window rwnd (bytes), loss_events, the count of congestion
responses (fast retransmits plus timeouts), and pacing_rate (bit/s of
payload) once the algorithm paces (BBR). `with_segments` adds
cwnd_segments = cwnd / MSS.

The functions here are pure: series in, rows or numbers out.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Mapping, Sequence

Series = Mapping[str, tuple[Sequence[float], Sequence[float]]]
Row = tuple[float, str, float]

CSV_HEADER = "time_s,variable,value"


def with_segments(series: Series, mss: int) -> dict[str, tuple[list[float], list[float]]]:
    """The series plus cwnd_segments (cwnd in segments of `mss` bytes),
    placed right after cwnd; pacing_rate only if the flow paced."""
    result: dict[str, tuple[list[float], list[float]]] = {}
    for name, (times, values) in series.items():
        if name == "pacing_rate" and not times:
            continue  # only an algorithm that paces has one
        result[name] = (list(times), list(values))
        if name == "cwnd":
            result["cwnd_segments"] = (list(times), [value / mss for value in values])
    return result


def rows(series: Series) -> list[Row]:
    """Long format: (time_s, variable, value) ordered by time; changes at the
    same time keep the order of the variables in `series`."""
    order = {name: index for index, name in enumerate(series)}
    merged = [
        (time, name, value)
        for name, (times, values) in series.items()
        for time, value in zip(times, values)
    ]
    merged.sort(key=lambda row: (row[0], order[row[1]]))
    return merged


def number_text(value: float) -> str:
    """Shortest text that reads back as the same float; whole numbers without ".0"."""
    if isinstance(value, int):
        return str(value)
    if math.isfinite(value) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def to_csv(series_rows: Sequence[Row]) -> str:
    """CSV text with the columns time_s, variable, value."""
    lines = [CSV_HEADER]
    lines.extend(
        f"{number_text(time)},{name},{number_text(value)}" for time, name, value in series_rows
    )
    return "\n".join(lines) + "\n"


def value_before(series: Series, name: str, time: float) -> float | None:
    """The value `name` held just before `time` (None if it had none yet)."""
    times, values = series[name]
    index = bisect.bisect_left(times, time) - 1
    return values[index] if index >= 0 else None


def loss_peaks(series: Series, variable: str = "cwnd_segments", after: float = 0.0) -> list[float]:
    """`variable` just before each congestion response at or after time
    `after`: with cwnd, the tops of the sawtooth's teeth."""
    times, counts = series["loss_events"]
    peaks = []
    previous = 0.0  # the first point is the count starting at 0
    for time, count in zip(times, counts):
        if count > previous and time >= after:
            value = value_before(series, variable, time)
            if value is not None:
                peaks.append(value)
        previous = count
    return peaks


def csv_file_name(flow_name: str) -> str:
    """series-<flow>.csv, with characters that are unsafe in file names
    (anything but letters, digits, ".", "_" and "-") replaced by "_"."""
    return f"series-{re.sub(r'[^A-Za-z0-9._-]', '_', flow_name)}.csv"
