"""Re-creates the viewer screenshots in docs/img (docs/viewer.md, README):

    python3 docs/img/make_screenshots.py

basic1.tcl (the seed chapter's single Reno flow, run by `ackclock tcl`) at the
second burst of drops and in its sawtooth, and real ns-2's nam trace of the
seed's wireless.tcl (tests/fixtures). Needs /usr/bin/chromium and playwright."""

from __future__ import annotations

import gzip
import os
import shutil
import tempfile
from pathlib import Path
from threading import Thread
from typing import Any

from ackclock.view import index_for
from ackclock.view.headless import launch
from ackclock.view.server import make_server
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "img"


def shoot(browser: Any, source: Path, shots: list[tuple[float, str, str]]) -> None:
    server = make_server(index_for(source))
    Thread(target=server.serve_forever, daemon=True).start()
    page = browser.new_page(viewport={"width": 1400, "height": 760})
    page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
    for t, window, name in shots:
        page.select_option("#window", window)
        page.evaluate(f"window.ackclockView.ready.then(a => a.seek({t}))")
        page.wait_for_timeout(500)  # the panels' chunks
        page.screenshot(path=str(OUT / name))
        print(f"wrote docs/img/{name}")
    page.close()
    server.shutdown()


def main() -> None:
    scratch = Path(tempfile.mkdtemp())
    os.environ["ACKCLOCK_CACHE_DIR"] = str(scratch / "cache")
    os.chdir(scratch)
    shutil.copy(ROOT / "benchmarks" / "ns2" / "basic1.tcl", scratch)
    wireless = scratch / "wireless.nam"
    wireless.write_bytes(
        gzip.decompress((ROOT / "tests/fixtures/wireless-10s.nam.gz").read_bytes())
    )
    with sync_playwright() as p:
        browser = launch(p)
        shoot(
            browser,
            scratch / "basic1.tcl",
            [(0.7445, "all", "view-basic1-drops.png"), (5.62, "10", "view-basic1-sawtooth.png")],
        )
        shoot(browser, wireless, [(6.3, "10", "view-wireless.png")])
        browser.close()
    shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
