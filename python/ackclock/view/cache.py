"""Where indexes are kept: one file per source, named by a digest of what it
was made from, so that a second open of the same trace is instant and a
changed trace gets a new index."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

# Indexes beyond this total are removed, least recently used first.
MAX_CACHE_BYTES = 8 * 2**30


def cache_dir() -> Path:
    """$ACKCLOCK_CACHE_DIR, else $XDG_CACHE_HOME/ackclock/view, else ~/.cache/ackclock/view."""
    explicit = os.environ.get("ACKCLOCK_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "ackclock" / "view"


def cached_path(stem: str, *key: object) -> Path:
    """The index for `key` (its parts are compared by their repr)."""
    digest = hashlib.sha256(repr(key).encode()).hexdigest()[:20]
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in stem)[:60]
    return cache_dir() / f"{safe}-{digest}.ackview"


def file_key(path: Path) -> tuple[str, int, int]:
    """What identifies a file's content cheaply: its path, size and mtime."""
    stat = path.stat()
    return (str(path.resolve()), stat.st_size, stat.st_mtime_ns)


def touch(path: Path) -> None:
    """Marks an index as used now (for pruning)."""
    os.utime(path)


def prune(keep: Path, limit: int = MAX_CACHE_BYTES) -> None:
    """Removes the least recently used indexes until the cache fits `limit`."""
    entries = sorted(cache_dir().glob("*.ackview"), key=lambda p: p.stat().st_mtime)
    total = sum(p.stat().st_size for p in entries)
    for path in entries:
        if total <= limit:
            return
        if path != keep:
            total -= path.stat().st_size
            path.unlink(missing_ok=True)
