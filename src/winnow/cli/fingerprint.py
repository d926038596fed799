"""``winnow fingerprint``: show the fingerprints the engine selects for files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import numpy as np

from winnow.cli.common import build_config, engine_options, exit_with, fail
from winnow.config import WinnowConfig
from winnow.engine import fingerprint
from winnow.errors import InputError, WinnowError


def read_bytes(path: Path) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The file's bytes as a uint8 array, or an :class:`InputError` saying why not."""
    if not path.exists():
        raise InputError(str(path), "no such file")
    if path.is_dir():
        raise InputError(str(path), "is a directory (give files)")
    try:
        return np.fromfile(path, dtype=np.uint8)
    except PermissionError as error:
        raise InputError(str(path), "permission denied") from error
    except OSError as error:
        raise InputError(str(path), error.strerror or str(error)) from error


def describe(path: Path, config: WinnowConfig) -> dict[str, Any]:
    """Fingerprints of one file, as plain data."""
    units = read_bytes(path)
    selected = fingerprint(units, config)
    n_kgrams = max(0, units.size - config.k + 1)
    return {
        "path": str(path),
        "size": int(units.size),
        "kgrams": n_kgrams,
        "density": (len(selected) / n_kgrams) if n_kgrams else 0.0,
        "config": config.as_dict(),
        "fingerprints": [
            {"hash": int(h), "start": int(p), "end": int(p) + config.k}
            for h, p in zip(selected["hash"], selected["pos"], strict=True)
        ],
    }


def print_table(result: dict[str, Any]) -> None:
    fps = result["fingerprints"]
    click.echo(
        f"== {result['path']}: {result['size']} bytes, {result['kgrams']} k-grams, "
        f"{len(fps)} fingerprints, density {result['density']:.6f}"
    )
    click.echo(f"{'hash':>20}  {'start':>10}  {'end':>10}")
    for fp in fps:
        click.echo(f"{fp['hash']:>20}  {fp['start']:>10}  {fp['end']:>10}")


@click.command("fingerprint")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(path_type=Path, readable=False))
@engine_options
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="Output format.")
def fingerprint_command(
    files: tuple[Path, ...], k: int | None, t: int | None, method: str, seed: int, fmt: str
) -> None:
    """Print the fingerprints selected for each FILE, with positions and density.

    Positions are byte offsets: a fingerprint covers bytes [start, end).
    A file that cannot be read is reported and skipped; the exit code is then 1.
    """
    config = build_config(k, t, method, seed)
    results: list[dict[str, Any]] = []
    failed = False
    for path in files:
        try:
            result = describe(path, config)
        except WinnowError as error:
            fail(error)
            failed = True
            continue
        if fmt == "table":
            print_table(result)
        else:
            results.append(result)
    if fmt == "json":
        click.echo(json.dumps(results, indent=2))
    exit_with(1 if failed else 0)
