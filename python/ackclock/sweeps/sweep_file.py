"""Sweep files: a sweep written down in TOML (see docs/sweeps.md).

    script = "basic2.tcl"            # or scenario = "x.toml", or function = "mod:f"
    argv = ["{delayB}", "0", "0.8", "300"]
    columns = ["-", "-", "recv0", "recv1", "-", "-", "-", "ratio1", "ratio2"]
    replications = 1
    [parameters]
    delayB = "0:400:5"

Paths are relative to the sweep file; the database defaults to the file's
name with .db.
"""

from pathlib import Path
from typing import Any, Optional, Union

from ackclock.errors import SweepError

BASE_KEYS = ("scenario", "script", "function")

Values = Union[str, int, float, bool, list[Union[str, int, float, bool]]]


def is_sweep_file(data: dict[str, Any]) -> bool:
    """A TOML file with a base key is a sweep file, not a scenario file."""
    return any(key in data for key in BASE_KEYS)


def _model() -> Any:
    from pydantic import BaseModel, ConfigDict, Field

    class SweepFile(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)

        scenario: Optional[str] = None
        script: Optional[str] = None
        function: Optional[str] = None
        argv: list[str] = []
        columns: Optional[list[str]] = None
        until: Optional[Union[str, int, float]] = None
        parameters: dict[str, Values] = {}
        zip: list[dict[str, Values]] = Field(default_factory=list)
        replications: int = Field(default=1, ge=1)
        seed: Optional[int] = Field(default=None, ge=0)
        db: Optional[str] = None

    return SweepFile


def load_sweep_file(path: Path, data: dict[str, Any]) -> Any:
    """The validated sweep file `path` (its TOML `data`), paths resolved."""
    from pydantic import ValidationError

    try:
        spec = _model().model_validate(data)
    except ValidationError as error:
        detail = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in detail["loc"])
        raise SweepError(f"{path}: {where}: {detail['msg']}") from None
    given = [key for key in BASE_KEYS if getattr(spec, key) is not None]
    if len(given) != 1:
        raise SweepError(f"{path}: give one of scenario, script or function (it has {given})")
    directory = path.parent
    for key in ("scenario", "script"):
        if getattr(spec, key) is not None:
            setattr(spec, key, str(directory / getattr(spec, key)))
    if spec.function is not None and spec.function.partition(":")[0].endswith(".py"):
        spec.function = str(directory / spec.function)
    spec.db = str(directory / (spec.db or path.with_suffix(".db").name))
    return spec
