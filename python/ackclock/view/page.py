"""The viewer's page: the built files in static/ (from viewer/), with the
title filled in and, for an offline copy, the index inlined."""

from __future__ import annotations

import base64
import html
from importlib import resources
from pathlib import Path

from ackclock.errors import ConfigError
from ackclock.files import write_atomically
from ackclock.view.index import ViewIndex

# An offline page carries its whole index; past this it is no longer a file to mail.
MAX_EXPORT_BYTES = 200 * 2**20


def static_file(name: str) -> bytes:
    return resources.files("ackclock.view").joinpath("static", name).read_bytes()


def page(title: str, index: bytes | None = None) -> str:
    """index.html for `title`; with `index`, one self-contained file: styles,
    script and the index inlined (base64), nothing fetched."""
    text = static_file("index.html").decode()
    text = text.replace("{{TITLE}}", html.escape(title, quote=True))
    if index is None:
        return text
    css = static_file("viewer.css").decode()
    js = static_file("viewer.js").decode().replace("</script", "<\\/script")
    data = base64.b64encode(index).decode()
    text = text.replace('<link rel="stylesheet" href="viewer.css">', f"<style>\n{css}</style>")
    text = text.replace(
        "<!--DATA-->",
        f'<script type="application/octet-stream" id="ackclock-index">{data}</script>',
    )
    return text.replace('<script src="viewer.js"></script>', f"<script>\n{js}</script>")


def export(index: ViewIndex, out: Path) -> None:
    """Writes `out`: the viewer and the whole index in one HTML file."""
    if index.size > MAX_EXPORT_BYTES:
        raise ConfigError(
            f"{index.title}: its index is {index.size / 2**20:.0f} MiB, too large for one "
            f"offline page (at most {MAX_EXPORT_BYTES // 2**20} MiB); view it with the server"
        )
    write_atomically(out, page(index.title, index.read(0, index.size)).encode())
