"""``winnow dedup --passages``: repeated passages of text corpora, and the corpus
with every repeat cut but its first occurrence."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from winnow.cli.common import exit_with, fail, output, warn
from winnow.cli.progress import ProgressBar
from winnow.corpus import BadRecord, Fields
from winnow.corpus.passages import PassageRun, PassageSettings, find_passages, keep_first
from winnow.errors import EXIT_OK, EXIT_SKIPPED, InputError
from winnow.pairs.registry import EngineChoice
from winnow.reports.dedup import compressed_output
from winnow.reports.passages import CutCorpus, CutParquet, PassageRows
from winnow.reports.writers import write

if TYPE_CHECKING:
    from winnow.sharded.runners import RayRunner

#: What the progress bars count, stage by stage.
UNITS = {"records": "rec", "seeds": "part", "extend": "shard", "spans": "shard"}


def run_passages(data: tuple[Path, ...], fields: Fields, min_tokens: int, keep: str | None,
                 fmt: str, out_path: Path | None, chosen: EngineChoice, jobs: int,
                 quiet: bool) -> None:
    """Find the repeated passages of ``data``; their rows to ``out_path`` (or
    standard output), or with ``keep == "first"`` the cut corpus to ``out_path``."""
    if keep not in (None, "first"):
        raise click.UsageError("with --passages, --keep-records first (the first occurrence of "
                               "each passage is kept)")
    if keep is not None and out_path is None:
        raise click.UsageError("--keep-records first needs -o OUT for the corpus with its "
                               "repeats cut")
    if fmt == "parquet" or (keep is None and out_path is not None
                            and out_path.suffix.lower() == ".parquet"):
        raise click.UsageError("--passages writes its rows as jsonl, json, csv or table")
    parquet = [p.suffix.lower() == ".parquet" for p in data]
    if keep is not None and out_path is not None and (
            any(parquet) != out_path.suffix.lower().endswith(".parquet") or
            len(set(parquet)) > 1):
        raise click.UsageError("--keep-records first: the corpus of Parquet inputs (all of "
                               "them) is a *.parquet file, of other inputs JSON Lines")
    if chosen.ray_address is not None and chosen.workdir is None:
        raise click.UsageError("--passages --pair-engine ray --ray-address needs --workdir, a "
                               "folder every machine of the cluster sees")
    if chosen.workdir is not None and "://" in str(chosen.workdir):
        raise click.UsageError("--passages needs a --workdir folder (a path; its tasks map "
                               "their files), not a URI")
    settings = PassageSettings(fields, min_tokens,  # InvalidConfig: a usage error, exit 2
                               workdir=None if chosen.workdir is None
                               else str(chosen.workdir),
                               partitions=chosen.partitions, jobs=jobs)
    bar = ProgressBar(not quiet and sys.stderr.isatty(), UNITS)
    started = time.perf_counter()
    runner = None
    if chosen.engine == "ray":  # the same tasks as Ray tasks
        from winnow.sharded.runners import RayRunner

        runner = RayRunner(chosen.ray_address, jobs)
    try:
        _run(data, settings, keep, fmt, out_path, bar, runner, quiet, started)
    finally:
        if runner is not None:
            runner.close()


def _run(data: tuple[Path, ...], settings: PassageSettings, keep: str | None, fmt: str,
         out_path: Path | None, bar: ProgressBar, runner: RayRunner | None, quiet: bool,
         started: float) -> None:
    fields = settings.fields
    with find_passages([str(p) for p in data], settings, progress=bar,
                       mapper=None if runner is None else runner.map) as run:
        bar.close()
        for problem in run.problems:
            fail(problem)
        for bad in run.bad:
            _name_bad(bad)
        emptied = None
        if keep is not None and out_path is not None:
            with compressed_output(out_path) as handle:
                if out_path.suffix.lower() == ".parquet":
                    sink = CutParquet(handle, fields)
                    emptied = keep_first(run, sink)
                    sink.close()
                else:
                    emptied = keep_first(run, CutCorpus(handle, fields))
        else:
            with output(out_path) as out:
                write(PassageRows(run.passages()), fmt, out)
    if not quiet:
        _summary(run, emptied, time.perf_counter() - started)
    exit_with(EXIT_SKIPPED if run.problems or run.bad else EXIT_OK)


def _name_bad(bad: BadRecord) -> None:
    where = f"{bad.path}:{bad.line}" if bad.line else bad.path
    fail(InputError(where, f"bad record, {bad.reason}"))


def _summary(run: PassageRun, emptied: int | None, seconds: float) -> None:
    share = run.removed_bytes / run.text_bytes if run.text_bytes else 0.0
    rate = run.text_bytes / seconds / 1e6 if seconds > 0 else 0.0
    dropped = "" if emptied is None else f", {emptied:,} records left empty and dropped"
    note = (f"{run.records:,} records, {run.text_bytes:,} bytes of text, {run.rows:,} "
            f"passage rows; repeats: {run.removed_bytes:,} bytes ({share:.1%}) beyond their "
            f"first occurrences{dropped}, {len(run.bad):,} bad; {seconds:.1f} s, "
            f"{rate:.1f} MB/s")
    if run.bad or run.problems:
        warn(note)
    else:
        click.echo(f"winnow: {note}", err=True)
