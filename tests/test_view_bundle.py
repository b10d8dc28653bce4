"""The viewer bundle shipped in the package (python/ackclock/view/static) is
built from the current sources in viewer/: its first line carries the digest
of those sources (viewer/build.mjs computes it the same way), so this needs
no node. `make test` also rebuilds it with npm and compares byte for byte."""

from __future__ import annotations

import hashlib

from conftest import ROOT

VIEWER = ROOT / "viewer"
BUNDLE = ROOT / "python" / "ackclock" / "view" / "static" / "viewer.js"


def source_digest() -> str:
    sources = [p for p in (VIEWER / "src").rglob("*") if p.is_file()]
    sources += [
        VIEWER / name for name in ("index.html", "style.css", "build.mjs", "package-lock.json")
    ]
    digest = hashlib.sha256()
    for path in sorted(p.relative_to(VIEWER).as_posix() for p in sources):
        digest.update(path.encode() + b"\0")
        digest.update((VIEWER / path).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def test_the_shipped_bundle_is_built_from_the_current_viewer_sources() -> None:
    first_line = BUNDLE.read_text().split("\n", 1)[0]
    assert first_line.endswith(f"sources sha256 {source_digest()}"), (
        "python/ackclock/view/static is stale: run `npm run build` in viewer/"
    )


def test_the_page_and_styles_shipped_are_the_sources() -> None:
    static = BUNDLE.parent
    for name, source in [("index.html", "index.html"), ("viewer.css", "style.css")]:
        assert (static / name).read_bytes() == (VIEWER / source).read_bytes(), name


def test_the_package_includes_the_static_files() -> None:
    from importlib import resources

    files = {p.name for p in resources.files("ackclock.view").joinpath("static").iterdir()}
    assert {"index.html", "viewer.js", "viewer.css"} <= files
