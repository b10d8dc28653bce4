"""`ackclock view` in a real browser: Debian's chromium, headless, driven by
Playwright (the system browser; Playwright downloads none). The page loads a
known trace, is stepped to given times, and what it reports it draws (its
read-only `window.ackclockView` state) is checked against the trace itself;
screenshots must show the packets. Without /usr/bin/chromium these tests are
skipped, unless ACKCLOCK_REQUIRE_BROWSER is set (CI sets it)."""

from __future__ import annotations

import gzip
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from threading import Thread
from typing import Any

import pytest
from ackclock.view import index_for, page
from ackclock.view.headless import CHROMIUM, launch
from ackclock.view.server import make_server
from conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
if not CHROMIUM.exists() and not os.environ.get("ACKCLOCK_REQUIRE_BROWSER"):
    pytest.skip("no /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ACKCLOCK_CACHE_DIR", str(tmp_path / "cache"))


class View:
    """One page of the viewer, on a trace served from localhost."""

    def __init__(self, browser: Any, source: Path, args: list[str] | None = None) -> None:
        self.server = make_server(index_for(source, args))
        Thread(target=self.server.serve_forever, daemon=True).start()
        self.page = browser.new_page(viewport={"width": 1280, "height": 720})
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(f"http://127.0.0.1:{self.server.server_address[1]}/")
        self.page.evaluate("window.ackclockView.ready.then(() => null)")

    def at(self, t: float) -> dict[str, Any]:
        """Seeks to `t` and returns what the page shows."""
        script = f"window.ackclockView.ready.then(a => a.seek({t}).then(() => a.state()))"
        return self.page.evaluate(script)

    def state(self) -> dict[str, Any]:
        return self.page.evaluate("window.ackclockView.ready.then(a => a.state())")

    def close(self) -> None:
        assert self.errors == []
        self.page.close()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def view(browser: Any) -> Iterator[Any]:
    opened: list[View] = []

    def open_view(source: Path, args: list[str] | None = None) -> View:
        opened.append(View(browser, source, args))
        return opened[-1]

    yield open_view
    for v in opened:
        v.close()


Record = tuple[str, float, int, int, int]


def nam_records(path: Path) -> list[Record]:
    """(event, time, from, to, packet id) of each packet record, read plainly."""
    out = []
    for line in path.read_text().splitlines():
        if line[:2] in ("+ ", "- ", "r ", "d "):
            w = line.split()
            flag = {w[i]: w[i + 1] for i in range(1, len(w) - 1, 2) if w[i].startswith("-")}
            out.append((w[0], float(flag["-t"]), int(flag["-s"]), int(flag["-d"]), int(flag["-i"])))
    return out


def expected_queue(records: list[Record], link: tuple[int, int], t: float) -> int:
    mine = [r[0] for r in records if (r[2], r[3]) == link and r[1] <= t]
    return mine.count("+") - mine.count("-") - mine.count("d")


def red_pixels(png: bytes) -> int:
    """Pixels of ns-2's Red (pure red, as basic1.tcl colours flow 0)."""
    import io

    import numpy as np
    from PIL import Image  # matplotlib's dependency

    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    return int(((rgb[..., 0] > 200) & (rgb[..., 1] < 60) & (rgb[..., 2] < 60)).sum())


def test_a_real_ns2_nam_trace_plays_with_its_queue_and_drops(view: Any) -> None:
    records = nam_records(FIXTURES / "basic1-head.nam")
    v = view(FIXTURES / "basic1-head.nam")
    for t in (0.2, 0.45, 0.58, 0.5863):
        state = v.at(t)
        waiting = [p["uid"] for p in state["queues"].get("1-2", [])]
        assert len(waiting) == expected_queue(records, (1, 2), t), t
    # Data[28] (packet id 43) is dropped at R at 0.58616 and falls from the queue.
    state = v.at(0.5863)
    assert [(p["uid"], p["seq"], p["from"], p["to"]) for p in state["falling"]] == [(43, 28, 1, 2)]
    in_flight = {p["uid"] for p in state["inFlight"]}
    sent = {r[4] for r in records if r[0] == "-" and r[1] <= 0.5863 and (r[2], r[3]) == (1, 2)}
    arrived = {r[4] for r in records if r[0] == "r" and r[1] <= 0.5863 and (r[2], r[3]) == (1, 2)}
    assert {p["uid"] for p in state["inFlight"] if (p["from"], p["to"]) == (1, 2)} == sent - arrived
    assert in_flight
    shot = v.page.locator("#network").screenshot()
    assert red_pixels(shot) > 500  # the red packets and queue are drawn
    # Playing moves time on.
    v.page.evaluate("window.ackclockView.ready.then(a => { a.setSpeed(0.1); a.play(); })")
    v.page.wait_for_timeout(400)
    assert v.state()["t"] > 0.5863


def test_clicking_a_packet_and_a_link_shows_their_fields_and_counters(view: Any) -> None:
    v = view(FIXTURES / "basic1-head.nam")
    state = v.at(0.5863)
    queued = state["queues"]["1-2"][0]
    box = v.page.locator("#network").bounding_box()
    v.page.mouse.click(box["x"] + queued["x"], box["y"] + queued["y"])
    info = v.state()["info"]
    assert info.startswith(f"packet {queued['uid']}: tcp, 1000 bytes, flow 0")
    assert f"seq {queued['seq']}" in info and "0.0 → 2.0" in info
    a, b = state["nodes"]["1"], state["nodes"]["2"]
    # Beside the link, beyond its packets' lane (which is within half a node radius).
    beside = 0.75 * state["nodeRadius"]
    v.page.mouse.click(box["x"] + (a["x"] * 0.3 + b["x"] * 0.7), box["y"] + a["y"] - beside)
    info = v.state()["info"]
    assert info.startswith("link 1–2: 800kb/s, 50 ms")
    assert "1→2: " in info and "1 dropped" in info


def test_basic1_tcl_shows_the_chapters_slow_start_drops_and_sawtooth(
    view: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The acceptance test of `ackclock view benchmarks/ns2/basic1.tcl`.
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "benchmarks" / "ns2" / "basic1.tcl", tmp_path)
    v = view(tmp_path / "basic1.tcl")
    # Slow start: one, then two, then four packets in flight from A.
    assert [p["seq"] for p in v.at(0.0005)["inFlight"]] == [0]
    two = v.at(0.122)["inFlight"]
    assert sorted(p["seq"] for p in two if p["ptype"] == "tcp") == [1, 2]
    # The drops at R: Data[28] at 0.58616 and Data[30] at 0.59616 (the chapter's),
    assert [p["seq"] for p in v.at(0.5862)["falling"]] == [28]
    assert [p["seq"] for p in v.at(0.5962)["falling"]] == [28, 30]
    # then packets 42 ... 56 from 0.707392 to 0.777392, "a tumbling series of red squares".
    falling = set()
    for k in range(8):
        falling |= {p["seq"] for p in v.at(0.707392 + 0.01 * k + 0.0001)["falling"]}
    assert falling == {42, 44, 46, 48, 50, 52, 54, 56}
    # The sawtooth: cwnd is traced, and R's queue fills before each loss.
    late = v.at(8.0)
    assert 5 <= late["variables"]["cwnd_ 0.0"] <= 21
    lengths = [len(v.at(4.0 + 0.1 * k)["queues"].get("1-2", [])) for k in range(20)]
    assert max(lengths) == 6 and min(lengths) <= 1


def test_a_real_ns2_wireless_trace_moves_the_mover_and_hops_packets(
    view: Any, tmp_path: Path
) -> None:
    nam = tmp_path / "wireless.nam"
    nam.write_bytes(gzip.decompress((FIXTURES / "wireless-10s.nam.gz").read_bytes()))
    v = view(nam)
    early, late = v.at(1.0), v.at(6.0)
    # The mover (node 5) crosses at 80.1 m/s; the row nodes stay put.
    assert late["nodes"]["5"]["x"] > early["nodes"]["5"]["x"] + 100
    assert late["nodes"]["5"]["y"] == early["nodes"]["5"]["y"]
    assert late["nodes"]["1"] == early["nodes"]["1"]
    # CBR packets hop from node 0 towards the mover, through the row when it is far.
    hops = set()
    for k in range(50):
        flying = v.at(6.0 + 0.01 * k)["inFlight"]
        hops |= {(p["from"], p["to"]) for p in flying if p["ptype"] == "cbr"}
    assert (0, 1) in hops or (0, 5) in hops
    assert any(to == 5 for _, to in hops)
    assert v.page.locator("#network").screenshot()  # drawn without errors


def test_the_exported_page_works_offline(browser: Any, tmp_path: Path) -> None:
    page.export(index_for(FIXTURES / "basic1-head.nam"), tmp_path / "basic1.html")
    p = browser.new_page()
    requests: list[str] = []
    p.on("request", lambda r: requests.append(r.url))
    p.goto((tmp_path / "basic1.html").as_uri())
    state = p.evaluate("window.ackclockView.ready.then(a => a.seek(0.5863).then(() => a.state()))")
    assert [f["uid"] for f in state["falling"]] == [43]
    assert all(url.startswith(("file:", "data:")) for url in requests)
    p.close()
