"""`ackclock view` at scale: the seed chapter's two-sender dumbbell run for
3000 s (`basic2.tcl 0 0.002 8.0 3000`) as a nam trace of tens of millions of
records, opened in headless chromium, then seeked to t = 2500 s. Everything
runs pinned to one core. Prints, in wall seconds:

* first open: indexing the nam text (Rust) + the page loading and drawing;
* second open: the cached index + the page loading and drawing;
* seek to 2500 s: from the call until that instant is drawn (one chunk read).

    python3 benchmarks/view_basic2.py [--nam PATH] [--ackclock] [--keep DIR]

The trace: PATH if given; else basic2.tcl with `namtrace-all` instead of
`trace-all`, run by ns-2 (`ns`, about 4 minutes, 3.8 GB) or, with
--ackclock, by `ackclock tcl`. Needs /usr/bin/chromium and playwright.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from threading import Thread
from typing import Any

HERE = Path(__file__).resolve().parent
READY = "window.ackclockView.ready"


def make_trace(directory: Path, with_ackclock: bool) -> Path:
    script = (HERE / "ns2" / "basic2.tcl").read_text()
    old = "set trace [open basic2.tr w]\n$ns trace-all $trace"
    assert old in script
    nam_script = directory / "basic2nam.tcl"
    nam_script.write_text(
        script.replace(old, "set trace [open basic2.nam w]\n$ns namtrace-all $trace")
    )
    runner = [sys.executable, "-m", "ackclock", "tcl"] if with_ackclock else ["ns"]
    print(f"writing the trace with {' '.join(runner)} ...", file=sys.stderr)
    subprocess.run(
        [*runner, str(nam_script), "0", "0.002", "8.0", "3000"],
        cwd=directory,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return directory / "basic2.nam"


def open_page(browser: Any, index: Any) -> tuple[Any, Any, float]:
    """Serves `index`, loads the page until its first drawing; returns the page,
    the server and the wall seconds the page took."""
    from ackclock.view.server import make_server

    server = make_server(index)
    Thread(target=server.serve_forever, daemon=True).start()
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    start = time.perf_counter()
    page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
    page.evaluate("window.ackclockView.ready.then(() => null)")
    return page, server, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nam", type=Path, help="an existing nam trace to open")
    parser.add_argument("--ackclock", action="store_true", help="write the trace with ackclock")
    parser.add_argument("--keep", type=Path, help="write the trace here and keep it")
    options = parser.parse_args()
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, for us and chromium

    from ackclock.view import index_for
    from ackclock.view.headless import launch
    from playwright.sync_api import sync_playwright

    scratch = Path(tempfile.mkdtemp(prefix="view-basic2-"))
    os.environ["ACKCLOCK_CACHE_DIR"] = str(scratch / "cache")
    try:
        nam = options.nam or make_trace(options.keep or scratch, options.ackclock)
        size = nam.stat().st_size
        with sync_playwright() as p:
            browser = launch(p)
            start = time.perf_counter()
            index = index_for(nam)
            indexing = time.perf_counter() - start
            page, server, first_page = open_page(browser, index)
            page.close()
            server.shutdown()
            start = time.perf_counter()
            index = index_for(nam)
            cached = time.perf_counter() - start
            page, server, second_page = open_page(browser, index)
            start = time.perf_counter()
            t = page.evaluate(
                "window.ackclockView.ready.then(a => a.seek(2500).then(() => a.state().t))"
            )
            seek = time.perf_counter() - start
            in_flight = page.evaluate(
                "window.ackclockView.ready.then(a => a.state().inFlight.length)"
            )
            page.close()
            server.shutdown()
            browser.close()
        h = index.header
        print(f"trace: {nam} ({size / 1e9:.2f} GB, {h['packet_records']:,} packet records)")
        chunks = len(h["chunks"]["t0"])
        first, second = indexing + first_page, cached + second_page
        print(f"index: {index.size / 1e6:.0f} MB, {h['hops']:,} hops in {chunks} chunks")
        print(f"first open:   {first:6.2f} s (indexing {indexing:.2f} s, page {first_page:.2f} s)")
        print(
            f"second open:  {second:6.2f} s (cached index {cached:.3f} s, page {second_page:.2f} s)"
        )
        print(f"seek to 2500: {seek:6.3f} s (now at t = {t}, {in_flight} packets in flight)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
