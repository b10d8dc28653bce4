"""Optional dependencies, installed as pip extras: `pip install 'ackclock[plot]'`.

One registry maps each extra to the modules it provides, so that a feature
needing one says in one line which extra to install:

    try:
        import matplotlib
    except ModuleNotFoundError as error:
        raise missing("plot", "plotting") from error
"""

from __future__ import annotations

import importlib

EXTRAS = {
    "plot": ("matplotlib",),
    "parquet": ("pyarrow",),
    "dask": ("dask", "distributed"),
}


class MissingExtraError(ImportError):
    """A feature needs an optional dependency that is not installed."""


def missing(extra: str, feature: str) -> MissingExtraError:
    """The error for `feature`, which needs the modules of `extra`."""
    modules = " and ".join(EXTRAS[extra])
    return MissingExtraError(
        f"{feature} needs {modules}, not installed: pip install 'ackclock[{extra}]'"
    )


def require(extra: str, feature: str) -> None:
    """Imports the modules of `extra`, for a feature that uses them through
    another library; raises `missing(extra, feature)` if one is not installed."""
    for module in EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            raise missing(extra, feature) from error
