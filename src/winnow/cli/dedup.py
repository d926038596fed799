"""``winnow dedup``: near-duplicate and contained records of text corpora."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from winnow.cli.common import exit_with, fail, output, warn
from winnow.cli.dedup_passages import run_passages
from winnow.cli.options import FRACTION, format_option, jobs_option, max_df_option
from winnow.cli.outputs import check_outputs
from winnow.cli.progress import ProgressBar
from winnow.cli.sharding import engine_choice, sharding_options
from winnow.config import MaxDf
from winnow.corpus import BadRecord, DedupSettings, Fields, find_duplicates, read_back
from winnow.corpus.dedup import DedupRun, DuplicateRow
from winnow.corpus.passages import DEFAULT_MIN_TOKENS
from winnow.corpus.readers import (
    MAX_RECORD_BYTES,
    kind_of,
    parquet_schema_differs,
)
from winnow.errors import EXIT_OK, EXIT_SKIPPED, InputError
from winnow.reports.dedup import DedupRows, JsonlCorpus, ParquetCorpus, compressed_output
from winnow.reports.writers import write

#: Options of ``winnow dedup-files`` (exact duplicate files of an index):
#: given here, they get a usage error that names that command.
FILE_OPTIONS = ("--db", "--link", "--delete", "--apply", "--dry-run")


def _file_option(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    if value:
        raise click.UsageError(
            f"{param.opts[0]} is an option of `winnow dedup-files` (exact duplicate files "
            "of an index); `winnow dedup` de-duplicates the records of JSONL, Parquet and "
            "text-folder corpora", ctx)


def _file_options(func: Any) -> Any:
    for name in FILE_OPTIONS:
        func = click.option(name, is_flag=name != "--db", default=None, hidden=True,
                            expose_value=False, callback=_file_option)(func)
    return func


#: The library's defaults are the CLI's (one place to tune them).
DEFAULTS = DedupSettings()

#: What the progress bars count: records fingerprinted (tqdm shows records/s),
#: then the pairs counted (the sharded engine's pair and merge tasks; in memory one
#: step), the clustering (one step) and the records read back and written.
UNITS = {"records": "rec", "pairs": "task", "merge": "task", "clustering": "step",
         "writing": "rec"}


@click.command("dedup")
@click.argument("data", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--text-field", default="text", show_default=True, metavar="F",
              help="The JSON key or Parquet column of each record's text.")
@click.option("--id-field", default=None, metavar="F",
              help="The key or column naming each record (default: FILE:LINE; a text "
                   "file's path in its folder).")
@click.option("--min-similarity", "similarity", type=FRACTION, default=DEFAULTS.similarity,
              show_default=True,
              help="Resemblance (Jaccard of word pairs, of the pairs that share "
                   "fingerprints) from which two records are near-duplicates.")
@click.option("--min-containment", "containment", type=FRACTION,
              default=DEFAULTS.containment, show_default=True,
              help="Share of the smaller record's fingerprints found in the larger one from "
                   "which it counts as contained.")
@click.option("--min-fingerprints", type=click.IntRange(1), default=DEFAULTS.min_fingerprints,
              show_default=True, help="Records with fewer fingerprints are never contained.")
@max_df_option(DEFAULTS.max_occurrences, "records")
@click.option("-k", "k", type=click.IntRange(1), default=DEFAULTS.k, show_default=True,
              help="Noise threshold: k-gram length in normalised characters.")
@click.option("-t", "t", type=click.IntRange(1), default=DEFAULTS.t, show_default=True,
              help="Guarantee threshold: every shared passage this long is found.")
@click.option("--max-record-size", "max_record_mib", type=click.IntRange(1),
              default=MAX_RECORD_BYTES >> 20, show_default=True, metavar="MIB",
              help="Records (a JSON line, a text file, a Parquet text) larger than this many "
                   "MiB are bad records, named and never read whole.")
@click.option("--keep-records", "keep", type=click.Choice(["representative", "first"]),
              default=None,
              help="Write the de-duplicated corpus to -o OUT: every record but the "
                   "non-representative members of clusters (representative); with "
                   "--passages, every record with each repeated passage cut but its "
                   "first occurrence (first).")
@click.option("--passages", is_flag=True,
              help="Report repeated passages instead of records: every passage of at "
                   "least --min-tokens words found in two records or twice in one "
                   "(rows id, start, end, occurrences, first_id, kept; byte offsets "
                   "into the text field).")
@click.option("--min-tokens", type=click.IntRange(6), default=DEFAULT_MIN_TOKENS,
              show_default=True,
              metavar="N", help="With --passages: the shortest passage, in words.")
@click.option("--clusters", "clusters_path", type=click.Path(path_type=Path), default=None,
              metavar="FILE", help="With --keep-records: also write the cluster rows to FILE.")
@format_option("jsonl", result="winnow.reports.dedup.DedupRows")
@click.option("-o", "--output", "out_path", type=click.Path(path_type=Path), default=None,
              metavar="FILE", help="Where the cluster rows go (default: standard output; "
                                   "a *.parquet file is Parquet); with --keep-records, the "
                                   "de-duplicated corpus.")
@sharding_options
@jobs_option("Worker processes (0: every usable core).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
@_file_options
def dedup_command(data: tuple[Path, ...], text_field: str, id_field: str | None,
                  similarity: float, containment: float, min_fingerprints: int,
                  max_df: MaxDf, k: int, t: int, max_record_mib: int,
                  keep: str | None, passages: bool, min_tokens: int,
                  clusters_path: Path | None, fmt: str, out_path: Path | None,
                  jobs: int, quiet: bool, **params: Any) -> None:
    """Cluster the near-duplicate records of DATA, and the records contained in
    others: JSON Lines files (plain, .gz, .bz2, .xz or .zst), Parquet files
    and folders of text files (each file a record).

    Each record is fingerprinted by winnowing (the text front-end: case,
    spaces and punctuation ignored); two records that share a passage of at
    least -t characters share a fingerprint.  A pair is linked when its
    resemblance reaches --min-similarity or the smaller record's containment
    in the larger reaches --min-containment; clusters are the linked groups, and a
    cluster's representative is its record with the most fingerprints (the
    first one on a tie).  Output: one row per clustered record (id, cluster,
    representative, kept, similarity, containment, match, fingerprints,
    source, line); Parquet to a *.parquet file.  Bad records (not JSON,
    invalid UTF-8, no text field, a text that is not a string) are named on
    standard error with their file and line and kept in the de-duplicated
    corpus (exit 1).  Details: docs/dedup.md.  (Identical files of an index:
    `winnow dedup-files`.)

    With --passages: every passage of at least --min-tokens words repeated
    across records or within one, extended to its exact extent, repeats with
    a few edited words joined; --keep-records first -o OUT cuts every repeat but its
    first occurrence.
    """
    if passages:
        check_outputs([out_path], inputs=data)
        run_passages(data, Fields(text_field, id_field, max_record_mib << 20), min_tokens,
                     keep, fmt, out_path,
                     engine_choice(params, jobs), jobs, quiet)
        return
    if keep == "first":
        raise click.UsageError("--keep-records first goes with --passages")
    if clusters_path is not None and keep is None:
        raise click.UsageError("--clusters goes with --keep-records (without it, -o gets the "
                               "clusters)")
    if fmt == "parquet" and (out_path is None or keep is not None):
        raise click.UsageError("--format parquet writes the cluster rows to -o FILE "
                               "(a *.parquet name also selects it)")
    if keep is not None and out_path is None:
        raise click.UsageError("--keep-records representative needs -o OUT for the "
                               "de-duplicated corpus")
    corpus_kind = _corpus_kind(data) if keep else None
    report_path = clusters_path if keep else out_path
    check_outputs([out_path, clusters_path] if keep else [out_path], inputs=data)
    chosen = engine_choice(params, jobs)
    settings = DedupSettings(
        Fields(text_field, id_field, max_record_mib << 20), k, t, similarity=similarity,
        containment=containment,
        min_fingerprints=min_fingerprints, max_occurrences=max_df,
        engine=chosen.engine, partitions=chosen.partitions,
        workdir=None if chosen.workdir is None else str(chosen.workdir),
        ray_address=chosen.ray_address, jobs=jobs)
    bar = ProgressBar(not quiet and sys.stderr.isatty(), UNITS)
    started = time.perf_counter()
    try:
        run = find_duplicates([str(p) for p in data], settings, progress=bar)
    finally:
        bar.close()
    for problem in run.problems:
        fail(problem)
    bad = _BadCounter()
    try:
        if keep is not None and out_path is not None:
            rows = _write_corpus(run, out_path, corpus_kind == "parquet", bad, bar)
        else:
            rows = read_back(run, on_bad=bad,
                             progress=lambda done, total: bar("writing", done, total))
    finally:
        bar.close()
    if report_path is not None or keep is None:
        _write_rows(rows, report_path, fmt)
    if not quiet:
        _summary(run, bad.count, time.perf_counter() - started)
    exit_with(EXIT_SKIPPED if run.problems or bad.count else EXIT_OK)


class _BadCounter:
    """Names each bad record on standard error and counts them."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, bad: BadRecord) -> None:
        self.count += 1
        where = f"{bad.path}:{bad.line}" if bad.line else bad.path
        fail(InputError(where, f"bad record, {bad.reason}"))


def _corpus_kind(data: tuple[Path, ...]) -> str:
    """``parquet`` when every input is a Parquet file, ``jsonl`` when none is."""
    kinds = {"parquet" if p.exists() and kind_of(p) == "parquet" else "jsonl" for p in data}
    if len(kinds) > 1:
        raise click.UsageError("--keep-records: the inputs must be all Parquet files or none "
                               "(the de-duplicated corpus keeps their format)")
    kind = kinds.pop()
    differs = parquet_schema_differs([str(p) for p in data]) if kind == "parquet" else None
    if differs is not None:
        raise differs
    return kind


def _write_corpus(run: DedupRun, out_path: Path, parquet: bool,
                  bad: _BadCounter, bar: ProgressBar) -> list[DuplicateRow]:
    if parquet != out_path.name.lower().endswith(".parquet"):
        raise click.UsageError(f"-o {out_path}: the de-duplicated corpus of "
                               f"{'Parquet' if parquet else 'JSON Lines'} inputs is "
                               f"{'a *.parquet file' if parquet else 'JSON Lines'}")
    def writing(done: int, total: int) -> None:
        bar("writing", done, total)

    with compressed_output(out_path) as handle:
        if parquet:
            sink = ParquetCorpus(handle)
            rows = read_back(run, on_bad=bad, sink=sink, progress=writing)
            sink.close()
        else:
            rows = read_back(run, on_bad=bad, sink=JsonlCorpus(handle, run.settings.fields),
                             progress=writing)
    return rows


def _write_rows(rows: list[DuplicateRow], path: Path | None, fmt: str) -> None:
    """The cluster rows to ``path`` (Parquet for a ``*.parquet`` name) or standard output."""
    if path is not None and path.suffix.lower() == ".parquet":
        fmt = "parquet"
    with output(path) as out:
        write(DedupRows(rows), fmt, out)


def _summary(run: DedupRun, bad: int, seconds: float) -> None:
    clusters = run.clusters
    rate = run.records / seconds if seconds > 0 else 0.0
    warn_or_note = (f"{run.records:,} records, {clusters.count:,} clusters of "
                    f"{clusters.members:,} records ({clusters.removed:,} not representatives), "
                    f"{bad:,} bad; {seconds:.1f} s, {rate:,.0f} records/s ({run.engine})")
    if bad or run.problems:
        warn(warn_or_note)
    else:
        click.echo(f"winnow: {warn_or_note}", err=True)
