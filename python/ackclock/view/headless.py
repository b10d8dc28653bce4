"""Debian's chromium run headless through Playwright, for the viewer's browser
tests, benchmark and screenshots: Playwright drives the system browser
(`apt-get install chromium`) and downloads none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def launch(playwright: Any) -> Any:
    """A headless chromium browser from a started `sync_playwright()`."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
