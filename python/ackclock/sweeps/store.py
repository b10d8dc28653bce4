"""The results store of a study: one SQLite database (the standard library's
sqlite3), one row per run, time series as Parquet files beside it.

Table `runs` has the run's key (scenario_hash, seed, replication), its
status ("ok" or "failed"), error, wall time, when it finished and with which
ackclock, then one column per parameter and per scalar result, added as they
first appear. Table `columns` says which columns are parameters, results and
series. A series is the file `<db>.series/<hash>-<seed>-<replication>/<name>.parquet`;
its column `series.<name>` holds that path relative to the database.

Each run is written in one transaction, after its series files are complete
and with Ctrl-C held back, so an interrupted sweep loses nothing finished and
leaves nothing half-written. Re-running a sweep skips its "ok" runs.
"""

from __future__ import annotations

import datetime
import io
import signal
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ackclock.errors import SweepError
from ackclock.files import write_atomically
from ackclock.sweeps.runs import Outcome

if TYPE_CHECKING:
    import pandas as pd

KEY = ("scenario_hash", "seed", "replication")
META = (*KEY, "status", "error", "wall_s", "finished_at", "ackclock_version")
ROLES = ("parameter", "result", "series")
SERIES_PREFIX = "series."

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    scenario_hash TEXT NOT NULL,
    seed INTEGER NOT NULL,
    replication INTEGER NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    wall_s REAL,
    finished_at TEXT,
    ackclock_version TEXT,
    PRIMARY KEY (scenario_hash, seed, replication)
);
CREATE TABLE IF NOT EXISTS columns (name TEXT PRIMARY KEY, role TEXT NOT NULL);
"""


def check_parameter_names(parameters: Sequence[str]) -> None:
    for name in parameters:
        if name in META or name.startswith(SERIES_PREFIX):
            raise SweepError(f"parameter {name!r} is a column the results store uses")


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@contextmanager
def _holding_back_ctrl_c() -> Iterator[None]:
    """Delays SIGINT until the block is done (in the main thread, where it lands)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "pthread_sigmask"
    ):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Store:
    """A study's database; `None` keeps it in memory (and drops series)."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = None if path is None else Path(path)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(":memory:" if self.path is None else self.path, timeout=60)
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as error:
            raise SweepError(f"{self.path}: not an ackclock results database ({error})") from None
        self.roles = dict(self.db.execute("SELECT name, role FROM columns").fetchall())
        self._require_runs_table()

    def _require_runs_table(self) -> None:
        present = [row[1] for row in self.db.execute("PRAGMA table_info(runs)")]
        if any(name not in present for name in META):
            raise SweepError(f"{self.path}: not an ackclock results database (no runs table)")

    def close(self) -> None:
        self.db.close()

    @property
    def series_dir(self) -> Path | None:
        return None if self.path is None else self.path.with_name(self.path.name + ".series")

    def finished(self) -> set[tuple[str, int, int]]:
        """Keys of the runs that finished ("ok")."""
        rows = self.db.execute(
            "SELECT scenario_hash, seed, replication FROM runs WHERE status='ok'"
        )
        return {tuple(row) for row in rows}  # type: ignore[misc]

    def check_names(self, parameters: Sequence[str]) -> None:
        """Parameter names must not be the store's own columns or known results."""
        check_parameter_names(parameters)
        for name in parameters:
            if self.roles.get(name, "parameter") != "parameter":
                raise SweepError(f"parameter {name!r} is a result column in {self.path}")

    def record(self, outcome: Outcome, version: str) -> None:
        """Writes one run: its series files, then its row, in one transaction."""
        run = outcome.run
        values: dict[str, Any] = dict(zip(KEY, run.key))
        values.update(
            status=outcome.status,
            error=outcome.error,
            wall_s=outcome.wall_s,
            finished_at=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            ackclock_version=version,
        )
        roles = {name: "parameter" for name in run.parameters}
        clash = next((name for name in outcome.results if name in META or name in roles), None)
        if clash is not None:
            values.update(status="failed", error=f"result {clash!r} clashes with a run column")
        else:
            roles.update(dict.fromkeys(outcome.results, "result"))
        columns = {**run.parameters, **(outcome.results if clash is None else {})}
        if self.series_dir is not None and clash is None:
            for name, frame in outcome.series.items():
                path = self._write_series(run.key, name, frame)
                columns[SERIES_PREFIX + name] = path
                roles[SERIES_PREFIX + name] = "series"
        with _holding_back_ctrl_c(), self.db:
            self._add_columns(roles)
            names = [*values, *columns]
            self.db.execute(
                f"INSERT OR REPLACE INTO runs ({', '.join(map(quoted, names))}) "
                f"VALUES ({', '.join('?' * len(names))})",
                [*values.values(), *columns.values()],
            )

    def _write_series(self, key: tuple[str, int, int], name: str, frame: pd.DataFrame) -> str:
        from ackclock.extras import require

        require("parquet", "storing time series")
        assert self.path is not None and self.series_dir is not None
        safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in name)
        path = self.series_dir / "-".join(map(str, key)) / f"{safe}.parquet"
        buffer = io.BytesIO()
        frame.to_parquet(buffer, index=False)
        write_atomically(path, buffer.getvalue())
        return str(path.relative_to(self.path.parent))

    def _add_columns(self, roles: dict[str, str]) -> None:
        for name, role in roles.items():
            known = self.roles.get(name)
            if known is None:
                self.db.execute(f"ALTER TABLE runs ADD COLUMN {quoted(name)}")
                self.db.execute("INSERT INTO columns (name, role) VALUES (?, ?)", (name, role))
                self.roles[name] = role
            elif known != role:
                raise SweepError(f"column {name!r} is a {known} in {self.path}, not a {role}")

    def frame(self, keys: Iterable[tuple[str, int, int]] | None = None) -> pd.DataFrame:
        """The runs (all, or those with `keys` in that order) as a DataFrame:
        parameters, seed, replication, status, results, then the rest."""
        import pandas as pd

        cursor = self.db.execute("SELECT * FROM runs ORDER BY rowid")
        names = [description[0] for description in cursor.description]
        frame = pd.DataFrame(cursor.fetchall(), columns=names)
        if keys is not None:
            # Rows picked by position: moving the key columns in and out of the
            # index would insert columns into a frame of one block per column.
            rows = {key: i for i, key in enumerate(frame[list(KEY)].itertuples(index=False))}
            frame = frame.iloc[[rows[key] for key in keys if key in rows]]
        order = [name for name in names if self.roles.get(name) == "parameter"]
        order += ["seed", "replication", "status"]
        # Result columns appear as runs finish, in no fixed order on a
        # cluster: by name, so that the same runs give the same frame.
        order += sorted(name for name in names if self.roles.get(name) in ("result", "series"))
        order += [name for name in names if name not in order]
        return with_roles(frame[order].reset_index(drop=True), self.roles)


def with_roles(frame: pd.DataFrame, roles: dict[str, str]) -> pd.DataFrame:
    """Notes in `frame.attrs` which columns are parameters, results and series."""
    for role in ROLES:
        frame.attrs[role + "s"] = [c for c in frame.columns if roles.get(c) == role]
    return frame


def load(*paths: str | Path) -> pd.DataFrame:
    """The runs of one or more databases (e.g. the shards of a study)."""
    import pandas as pd

    frames, roles = [], {}
    if not paths:
        raise SweepError("give at least one results database")
    for path in paths:
        if not Path(path).is_file():
            raise SweepError(f"{path}: no such results database")
        store = Store(path)
        try:
            frames.append(store.frame())
            roles.update(store.roles)
        finally:
            store.close()
    return with_roles(pd.concat(frames, ignore_index=True), roles)
