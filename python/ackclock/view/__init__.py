"""`ackclock view`: packets in the browser, as nam showed them.

A nam trace, a scenario, an ns-2 script or a results directory becomes an
index (`index.py`, written by the Rust core) that the browser viewer
(`static/`, built from `viewer/`) reads a chunk at a time, served from
localhost (`server.py`) or inlined into one offline HTML file (`export.py`).
"""

from ackclock.view.index import ViewIndex, index_for

__all__ = ["ViewIndex", "index_for"]
