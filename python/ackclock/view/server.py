"""Serves the viewer and one index from localhost until interrupted.

Routes: `/` (the page), `/viewer.js`, `/viewer.css`, and `/index?size` or
`/index?offset=N&length=M` (bytes of the index file). Only 127.0.0.1 listens.
"""

from __future__ import annotations

import sys
import threading
import webbrowser
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from ackclock.view.index import ViewIndex
from ackclock.view.page import page, static_file

_TYPES = {"js": "text/javascript", "css": "text/css"}


def make_server(index: ViewIndex, port: int = 0) -> ThreadingHTTPServer:
    """A server for `index` on 127.0.0.1:`port` (0: any free port), not yet serving."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
            url = urlsplit(self.path)
            try:
                if url.path == "/":
                    self._send(page(index.title).encode(), "text/html; charset=utf-8")
                elif url.path in ("/viewer.js", "/viewer.css"):
                    self._send(static_file(url.path[1:]), _TYPES[url.path.rsplit(".", 1)[1]])
                elif url.path == "/index":
                    self._send(self._index_bytes(parse_qs(url.query, keep_blank_values=True)))
                else:
                    self.send_error(404)
            except (ValueError, KeyError) as error:
                self.send_error(400, str(error))

        def _index_bytes(self, query: dict[str, list[str]]) -> bytes:
            if "size" in query:
                return str(index.size).encode()
            return index.read(int(query["offset"][0]), int(query["length"][0]))

        def _send(self, body: bytes, kind: str = "application/octet-stream") -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass  # one line per chunk would drown the terminal

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


def serve(
    index: ViewIndex,
    port: int = 0,
    open_browser: bool = True,
    announce: Callable[[str], None] = lambda line: print(line, file=sys.stderr),
) -> None:
    """Serves until Ctrl-C; opens the page in the browser unless told not to."""
    server = make_server(index, port)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    announce(f"viewing {index.title} at {url} (Ctrl-C to stop)")
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
