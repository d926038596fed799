"""``winnow contamination``: which evaluation items occur in a training corpus."""

from __future__ import annotations

import glob
import sys
from pathlib import Path
from typing import Any

import click

from winnow.cli.common import exit_with, fail, output, warn
from winnow.cli.options import format_option
from winnow.cli.outputs import check_outputs
from winnow.corpus.contamination import ContaminationRun, ContaminationSettings, scan
from winnow.corpus.contamination.options import (
    DEFAULT_GAP,
    DEFAULT_K,
    DEFAULT_LOCATIONS,
    DEFAULT_MIN_TOKENS,
    DEFAULT_T,
)
from winnow.corpus.readers import BadRecord, Fields
from winnow.errors import EXIT_OK, EXIT_SKIPPED, InputError
from winnow.reports.contamination import ContaminationRows
from winnow.reports.writers import write


def expand_patterns(paths: tuple[Path, ...]) -> tuple[Path, ...]:
    """Each path that does not exist and holds ``*``, ``?`` or ``[`` replaced by
    the paths it matches, sorted (``--corpus`` takes one value, so a shell's
    expansion of ``--corpus shards/*`` would hand the other shards to EVAL); a
    pattern that matches nothing stays, to be named as missing."""
    out: list[Path] = []
    for path in paths:
        text = str(path)
        matches = ([] if path.exists() or not any(c in text for c in "*?[")
                   else sorted(glob.glob(text, recursive=True)))
        out += [Path(m) for m in matches] if matches else [path]
    return tuple(out)


class BytesBar:
    """A tqdm bar of the corpus's input bytes (MB/s) on standard error, only
    when it is a terminal."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.bar: Any = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            from tqdm import tqdm

            tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked
            self.bar = tqdm(total=total, desc=stage, unit="B", unit_scale=True,
                            unit_divisor=1000, leave=False, file=sys.stderr)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class _BadCounter:
    """Names each bad item or record on standard error."""

    def __call__(self, bad: BadRecord) -> None:
        where = f"{bad.path}:{bad.line}" if bad.line else bad.path
        fail(InputError(where, f"bad record, {bad.reason}"))


@click.command("contamination")
@click.argument("eval_paths", metavar="EVAL...", nargs=-1, required=True,
                type=click.Path(path_type=Path))
@click.option("--corpus", "corpus_paths", multiple=True, required=True, metavar="DATA",
              type=click.Path(path_type=Path),
              help="A corpus file or folder to scan, or a quoted glob pattern "
                   "('shards/*.jsonl.zst'); repeat the option for several.")
@click.option("--text-field", default="text", show_default=True, metavar="F",
              help="The JSON key or Parquet column of each evaluation item's text.")
@click.option("--id-field", default=None, metavar="F",
              help="The key or column naming each item (default: FILE:LINE; a text "
                   "file's path in its folder).")
@click.option("--corpus-text-field", default="text", show_default=True, metavar="F",
              help="The key or column of each corpus record's text.")
@click.option("--corpus-id-field", default=None, metavar="F",
              help="The key or column naming each corpus record (default: FILE:LINE).")
@click.option("-k", "k", type=click.IntRange(1), default=DEFAULT_K, show_default=True,
              help="Noise threshold: k-gram length in words; shorter shared runs are "
                   "never seen.")
@click.option("-t", "t", type=click.IntRange(1), default=DEFAULT_T, show_default=True,
              help="Guarantee threshold: every shared run of this many words is found.")
@click.option("--min-tokens", type=click.IntRange(1), default=DEFAULT_MIN_TOKENS,
              show_default=True, help="Equal words a span needs to be reported.")
@click.option("--gap", type=click.IntRange(0), default=DEFAULT_GAP, show_default=True,
              help="Words an edit may change (in the item and in the record) between "
                   "two equal runs of one span.")
@click.option("--locations", type=click.IntRange(0), default=DEFAULT_LOCATIONS,
              show_default=True, help="Locations listed per item.")
@format_option("jsonl", result="winnow.reports.contamination.ContaminationRows")
@click.option("-o", "--output", "out_path", type=click.Path(path_type=Path), default=None,
              metavar="FILE", help="Where the item rows go (default: standard output).")
@click.option("-j", "--jobs", type=click.IntRange(0), default=0, show_default=True,
              help="Worker processes (0: every usable core); with --ray and no "
                   "--ray-address, the CPUs of the local Ray cluster.")
@click.option("--ray", "on_ray", is_flag=True,
              help="Scan the corpus shards as Ray tasks: on a local Ray cluster, or the "
                   "one at --ray-address (needs the ray extra).")
@click.option("--ray-address", default=None, metavar="ADDR",
              help="Join the Ray cluster at ADDR ('auto': the one running on this "
                   "machine); implies --ray.  Every machine must read the corpus at the "
                   "paths given.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
def contamination_command(eval_paths: tuple[Path, ...], corpus_paths: tuple[Path, ...],
                          text_field: str, id_field: str | None, corpus_text_field: str,
                          corpus_id_field: str | None, k: int, t: int, min_tokens: int,
                          gap: int, locations: int, fmt: str, out_path: Path | None,
                          jobs: int, on_ray: bool, ray_address: str | None,
                          quiet: bool) -> None:
    """Find the evaluation items of EVAL in a training corpus: the longest
    shared span, coverage and locations of each item.

    EVAL and the corpus (--corpus, repeated for several) are JSON Lines files
    (plain, .gz, .bz2, .xz or .zst), Parquet files or folders of text files.
    Texts are compared as words (case, punctuation and spaces ignored).
    Every k-gram of the items is indexed; the corpus records are winnowed,
    so every run of at least -t words that an item shares with a record is
    found; each hit is extended over the words themselves to the full equal
    run and on across edits of at most --gap words.  A span counts when it
    holds --min-tokens equal words.  Output, one row per item, most covered
    first: id, tokens, longest (the longest span, in words), coverage (the
    share of the item's words inside spans), records (corpus records that
    hold a span), locations (the first few: record id, byte offsets into its
    text).  Bad records are named on standard error with their file and line
    (exit 1).  Details: docs/contamination.md.
    """
    corpus_paths = expand_patterns(corpus_paths)
    check_outputs([out_path], inputs=[*eval_paths, *corpus_paths])
    settings = ContaminationSettings(  # InvalidConfig: a usage error, exit 2
        Fields(text_field, id_field), Fields(corpus_text_field, corpus_id_field), k, t,
        min_tokens=min_tokens, gap=gap, locations=locations, jobs=jobs)
    bar = BytesBar(not quiet and sys.stderr.isatty())
    runner = None
    if on_ray or ray_address is not None:  # the same shard tasks as Ray tasks
        from winnow.sharded.runners import RayRunner

        runner = RayRunner(ray_address, jobs, "--ray")
    try:
        run = scan([str(p) for p in eval_paths], [str(p) for p in corpus_paths], settings,
                   progress=bar, on_bad=_BadCounter(),
                   mapper=None if runner is None else runner.map)
    finally:
        bar.close()
        if runner is not None:
            runner.close()
    for problem in run.problems:
        fail(problem)
    with output(out_path) as out:
        write(ContaminationRows(run.rows), fmt, out)
    if not quiet:
        _summary(run)
    exit_with(EXIT_SKIPPED if run.problems or run.bad else EXIT_OK)


def _size(count: int) -> str:
    """Bytes in B, kB, MB or GB (powers of 1000, as the progress bar counts)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:,.1f} {unit}"
    return f"{count} B"


def _summary(run: ContaminationRun) -> None:
    rate = run.text_bytes / 1e6 / run.seconds if run.seconds > 0 else 0.0
    items = len(run.rows)
    line = (f"{items:,} item{'' if items == 1 else 's'}, {run.found:,} found in the corpus; "
            f"{run.records:,} records, {_size(run.text_bytes)} of text, {run.bad:,} bad; "
            f"{run.seconds:.1f} s, {rate:,.1f} MB/s")
    if run.bad or run.problems:
        warn(line)
    else:
        click.echo(f"winnow: {line}", err=True)
