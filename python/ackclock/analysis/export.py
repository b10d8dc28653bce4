"""Writing frames to CSV and Parquet atomically (`ackclock.files`): a reader
never sees half a file."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Union

import pandas as pd

from ackclock.extras import require
from ackclock.files import write_atomically

PathLike = Union[str, "os.PathLike[str]"]


def to_csv(frame: pd.DataFrame, path: PathLike, *, index: bool = False) -> Path:
    """Writes `frame` as CSV (UTF-8, header row, "\\n" line ends); returns the path."""
    target = Path(path)
    text = frame.to_csv(index=index, lineterminator="\n")
    write_atomically(target, text.encode())
    return target


def to_parquet(frame: pd.DataFrame, path: PathLike, *, index: bool = False) -> Path:
    """Writes `frame` as Parquet (pyarrow); returns the path."""
    require("parquet", "writing Parquet")
    target = Path(path)
    buffer = io.BytesIO()
    frame.to_parquet(buffer, engine="pyarrow", index=index)
    write_atomically(target, buffer.getvalue())
    return target
