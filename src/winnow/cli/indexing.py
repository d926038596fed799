"""The index parameters and the indexing run that ``index``, ``scan`` and
``dircmp`` share, and the end-of-run summary."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TypeVar

import click
from tqdm import tqdm

from winnow.cli.common import fail
from winnow.cli.options import anchor_option, frontend_option_flag, parse_frontend_options
from winnow.config import METHODS
from winnow.errors import InputError
from winnow.index import FingerprintIndex, IndexParams
from winnow.index.params import DEFAULT_FRONTEND, SIF_DEFAULT, WINDOW
from winnow.parallel import worker_count
from winnow.sif.build import BuildSummary, fingerprint_pool, update_index
from winnow.sif.fingerprinting import MAX_FINGERPRINT_BYTES
from winnow.sources.walk import NOT_FOUND

F = TypeVar("F", bound=Callable[..., Any])


def params_options(func: F) -> F:
    """How fingerprints are made; omitted options mean "what the index has"."""
    options = [
        click.option("-k", "k", type=int, default=None,
                     help=f"k-gram length in front-end units (sif default {SIF_DEFAULT.k} "
                          "bytes)."),
        click.option("-t", "t", type=int, default=None,
                     help=f"Guarantee threshold for winnowing methods (default k + "
                          f"{WINDOW - 1})."),
        click.option("--method", "--selection", "method", type=click.Choice(METHODS),
                     default=None,
                     help=f"Fingerprint selection (default {SIF_DEFAULT.method}: hash's last "
                          "--bits bits zero, no overlaps)."),
        click.option("--bits", type=int, default=None,
                     help="sif selection: keep about one k-gram in 2^bits (default "
                          f"{SIF_DEFAULT.bits})."),
        anchor_option,
        click.option("--seed", type=int, default=None,
                     help=f"Hash seed (default {SIF_DEFAULT.seed})."),
        click.option("--frontend", default=None,
                     help=f"Front-end: {DEFAULT_FRONTEND} (default, sif's way), text, code, "
                          "auto ..."),
        frontend_option_flag,
    ]
    for option in reversed(options):
        func = option(func)
    return func


def build_params(k: int | None, t: int | None, method: str | None, bits: int | None,
                 seed: int | None, frontend: str | None,
                 frontend_options: tuple[str, ...], anchors: tuple[str, ...] = ()
                 ) -> IndexParams | None:
    """The requested parameters (defaults: :meth:`IndexParams.create`), or
    ``None`` when none was given."""
    if all(v is None for v in (k, t, method, bits, seed, frontend)) and not (
            frontend_options or anchors):
        return None
    fe_options = parse_frontend_options(frontend_options)
    from winnow.frontends import FRONTENDS  # the front-ends: only when parameters are given

    known = ("auto", *FRONTENDS)
    if frontend is not None and frontend not in known:
        raise click.UsageError(f"unknown front-end {frontend!r}; choose from {', '.join(known)}")
    return IndexParams.create(k=k, t=t, method=method, seed=seed, frontend=frontend,
                              frontend_options=fe_options, bits=bits, anchors=anchors or None)


def run_index(db: Path, paths: tuple[Path, ...], params: IndexParams | None, jobs: int | None,
              follow_links: bool, quiet: bool,
              max_file_bytes: int = MAX_FINGERPRINT_BYTES) -> BuildSummary:
    """Index ``paths``, with a progress bar on a terminal unless ``quiet``."""
    workers = worker_count(jobs or 0)
    with ExitStack() as stack:
        # the pool first: its workers fork before any database or tqdm thread exists
        pool = stack.enter_context(fingerprint_pool(workers)) if workers > 1 else None
        bar = stack.enter_context(tqdm(total=0, unit="B", unit_scale=True, desc="indexing",
                                       leave=False, disable=quiet or not sys.stderr.isatty()))

        def progress(stage: str, done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        index = stack.enter_context(FingerprintIndex(db))
        return update_index(index, list(paths), params, executor=pool,
                            follow_links=follow_links, progress=progress,
                            max_file_bytes=max_file_bytes)


def print_summary(s: BuildSummary, show_skipped: bool = False, command: str = "index") -> None:
    """The indexing summary on standard error, each line headed ``winnow COMMAND:``
    (``dircmp`` and ``scan`` index too, into a file the user may not know of)."""
    head = f"winnow {command}:"
    click.echo(
        f"{head} {s.files_seen} files, {s.bytes_total / 1e6:.1f} MB in {s.seconds:.1f} s "
        f"({s.mb_per_s:.1f} MB/s); {s.added} added, {s.updated} updated, "
        f"{s.unchanged} unchanged, {s.removed} removed; {s.bytes_read / 1e6:.1f} MB read",
        err=True)
    if s.checksum_only:
        click.echo(f"{head} {s.checksum_only} files over the size limit were "
                   f"checksummed only (found when identical, never as similar)", err=True)
    if s.skipped:
        reasons = Counter(item.reason for item in s.skipped)
        listed = ", ".join(f"{n} {reason}" for reason, n in reasons.most_common())
        click.echo(f"{head} skipped {len(s.skipped)}: {listed}", err=True)
        for item in s.skipped if show_skipped else []:
            click.echo(f"  skipped {item.path!r}: {item.reason}", err=True)


def report_missing(summary: BuildSummary) -> bool:
    """Name on standard error each given PATH that does not exist; True if any."""
    missing = [s.path for s in summary.skipped if s.reason == NOT_FOUND]
    for path in missing:
        fail(InputError(path, NOT_FOUND))
    return bool(missing)
