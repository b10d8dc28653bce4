"""docs/cc has one page per congestion-control algorithm of the core's
registry, and each page's parameter table is the registry's: the same names,
defaults and ranges. A page names its algorithms on its "Registry name(s):"
line; its table rows are "| `name` | default | min to max | source |"."""

from __future__ import annotations

import re

import ackclock as ac
import pytest
from conftest import ROOT

DOCS = ROOT / "docs"
PAGES = sorted(p for p in (DOCS / "cc").glob("*.md") if p.name != "README.md")
ALGORITHMS = {a["name"]: a for a in ac.congestion_controls()}
NUMBER = r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?"


def names_on(text: str) -> list[str]:
    line = re.search(r"^Registry names?: (.*?)\.", text, re.MULTILINE)
    assert line, "no 'Registry name(s): ...' line"
    return re.findall(r"`([^`]+)`", line.group(1))


def parameter_table(text: str) -> dict[str, tuple[float, ...]]:
    """{name: (default, min, max)} from the rows of the Parameters section."""
    section = text.split("\n## Parameters\n", 1)[1].split("\n## ", 1)[0]
    table = {}
    for row in re.findall(r"^\| `(\w+)` \|(.*)$", section, re.MULTILINE):
        name, cells = row[0], row[1].split("|")
        low_high = re.findall(NUMBER, cells[1])[:2]
        table[name] = (float(cells[0].split()[0]), *map(float, low_high))
    return table


def test_every_registered_algorithm_has_exactly_one_page():
    named = [name for page in PAGES for name in names_on(page.read_text())]
    assert sorted(named) == sorted(ALGORITHMS)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_a_pages_parameter_table_is_the_registrys(page):
    text = page.read_text()
    documented = parameter_table(text)
    for name in names_on(text):
        params = ALGORITHMS[name]["params"]
        assert documented == {p["name"]: (p["default"], p["min"], p["max"]) for p in params}, name


@pytest.mark.parametrize("index", ["cc/README.md", "tcp.md"])
def test_the_index_links_every_page(index):
    text = (DOCS / index).read_text()
    prefix = "" if index.startswith("cc/") else "cc/"
    assert [p.name for p in PAGES if f"]({prefix}{p.name})" not in text] == []
