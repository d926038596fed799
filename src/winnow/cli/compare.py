"""``winnow compare``: rank the suspicious pairs of a batch of submissions.

Exit codes: those of every command (:mod:`winnow.errors`); 1 when the
comparison completed but some input was skipped (each named in a warning on
standard error), 3 when the HTML report could not be written (the output
still is).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click

from winnow.cli.common import exit_with, fail, warn
from winnow.cli.common import output as common_output
from winnow.cli.options import (
    FRACTION,
    build_frontend_options,
    engine_options,
    format_option,
    frontend_options,
    jobs_option,
    output_option,
    resolve_kt,
)
from winnow.cli.outputs import check_outputs
from winnow.cli.sharding import engine_choice, sharding_options
from winnow.config import WinnowConfig
from winnow.errors import EXIT_FAILED, EXIT_OK, EXIT_SKIPPED, InvalidConfig, WinnowError
from winnow.fileio import DEFAULT_MAX_FILE_BYTES
from winnow.matching import SIMILARITIES, CompareOptions, ComparisonResult, compare
from winnow.matching.options import default_configs
from winnow.reports.table import safe
from winnow.reports.writers import write
from winnow.sharded.compare import ShardedTable
from winnow.sources.archives import RunBudget
from winnow.sources.submissions import ReadOptions, SubmissionSource, load_submissions

F = TypeVar("F", bound=Callable[..., Any])

#: The library's defaults are the CLI's (one place to tune them).
_DEFAULTS = CompareOptions()


def _max_occurrences(value: str) -> float:
    try:
        number = float(value)
    except ValueError as error:
        raise click.BadParameter(f"{value!r} is not a number") from error
    if not math.isfinite(number):
        raise click.BadParameter(f"{value!r} is not a finite number")
    return int(number) if number >= 1 and number == int(number) else number


def compare_options(func: F) -> F:
    """Every option of the comparison itself (shared with ``winnow evaluate``)."""
    options = [
        click.option("--base", "base", multiple=True, metavar="PATH",
                     help="Starter code (file, folder or archive; repeatable): its "
                          "fingerprints are ignored everywhere (MOSS -b)."),
        click.option("-m", "--max-occurrences", "max_occurrences", metavar="N",
                     default=str(_DEFAULTS.max_occurrences), show_default=True,
                     callback=lambda c, p, v: _max_occurrences(v),
                     help="Ignore fingerprints found in more than N submissions (MOSS -m); "
                          "a fraction below 1 means that share of the submissions; 0 = no cap."),
        click.option("--literal-k", "literal_k", type=click.IntRange(0),
                     default=_DEFAULTS.literal_k, show_default=True, metavar="K",
                     help="Code: also fingerprint the tokens with every literal (string, "
                          "number) kept as its text, at this k and the same t, and count "
                          "both channels in every score (docs/accuracy.md); 0 = off."),
        click.option("--similarity", type=click.Choice(SIMILARITIES),
                     default=_DEFAULTS.similarity,
                     show_default=True, help="The score that ranks pairs (docs/compare.md)."),
        click.option("--cluster-threshold", type=FRACTION,
                     default=_DEFAULTS.cluster_threshold,
                     show_default=True,
                     help="Pairs at or above this similarity link submissions into clusters."),
        click.option("--merge-gap", type=click.IntRange(0), default=None,
                     help="Merge matches at most this many units apart into one passage "
                          "(default k)."),
        click.option("--include", multiple=True, metavar="GLOB",
                     help="Only files matching GLOB (path in the submission or base name; "
                          "repeatable)."),
        click.option("--exclude", multiple=True, metavar="GLOB",
                     help="Leave out files matching GLOB (repeatable)."),
        click.option("--max-file-size", "max_file_mb", type=click.IntRange(1),
                     default=DEFAULT_MAX_FILE_BYTES >> 20, show_default=True, metavar="MIB",
                     help="Skip files (and archive members) larger than this many MiB, "
                          "with a note naming each."),
        jobs_option("Processes fingerprinting files (0 = all cores)."),
        click.option("--cross-language", "cross_language", is_flag=True,
                     help="Compare programs across languages: every file through the "
                          "structural front-end's language-neutral alphabet (automatic "
                          "when the files are in several of its languages; "
                          "docs/frontends.md)."),
        frontend_options,
        engine_options,
    ]
    for option in reversed(options):
        func = option(func)
    return func


@dataclass(frozen=True)
class CompareSettings:
    """What the comparison options resolve to."""

    read: ReadOptions
    config: WinnowConfig
    options: CompareOptions
    base: tuple[str, ...]
    jobs: int
    frontend_configs: dict[str, WinnowConfig]


def settings(subs: list[SubmissionSource], params: dict[str, Any]) -> CompareSettings:
    """Resolve the parsed :func:`compare_options` (plus ``top``, ``min_similarity``
    and ``passages``) for the batch ``subs``.  Without ``-k`` and ``-t``, the
    library's defaults (:func:`winnow.matching.options.default_configs`): each
    file gets its own front-end's, whatever the other files of the batch;
    ``config``, shown in reports, is that of the front-end most files get.
    Raises :class:`click.UsageError` on bad values."""
    read = read_options_of(params)
    try:
        anchors = tuple(params.get("anchors", ())) or None
        config, frontend_configs = default_configs(subs, read, method=params["method"],
                                                   seed=params["seed"], anchors=anchors)
        if params["k"] is not None or params["t"] is not None:
            k, t = resolve_kt(params["k"], params["t"], (config.k, config.t))
            config = WinnowConfig(k=k, t=t, method=params["method"], seed=params["seed"],
                                  anchors=anchors)
            frontend_configs = {}
        options = CompareOptions(
            max_occurrences=params["max_occurrences"], top=params.get("top", 0),
            min_similarity=params.get("min_similarity", 0.0),
            similarity=params["similarity"], cluster_threshold=params["cluster_threshold"],
            merge_gap=params["merge_gap"], passages=params.get("passages", True),
            passages_top=params.get("passages_top", _DEFAULTS.passages_top),
            allow_binary=params["frontend"] == "bytes", literal_k=params["literal_k"],
        )
    except InvalidConfig as error:
        raise click.UsageError("; ".join(error.problems)) from error
    return CompareSettings(read, config, options, tuple(params["base"]), params["jobs"],
                           frontend_configs)


def read_options_of(params: dict[str, Any]) -> ReadOptions:
    """The :class:`ReadOptions` of the parsed options (for loading the submissions)."""
    frontend = params["frontend"]
    if params.get("cross_language") and frontend is None:
        frontend = "structural"
    return ReadOptions(
        frontend=frontend, lang=params["lang"],
        options=build_frontend_options(params["unit"], params["keep"]),
        include=tuple(params["include"]), exclude=tuple(params["exclude"]),
        max_file_bytes=params["max_file_mb"] << 20,
    )


class ProgressBar:
    """A tqdm bar per stage on standard error, only when it is a terminal;
    ``units`` names what each stage counts (default: files, and pairs for
    ``passages``)."""

    def __init__(self, enabled: bool, units: dict[str, str] | None = None) -> None:
        self.enabled = enabled
        self.units = {"passages": "pair"} if units is None else units
        self.stage: str | None = None
        self.bar: Any = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if stage != self.stage:
            from tqdm import tqdm

            tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked
            self.close()
            self.stage = stage
            self.bar = tqdm(total=total, desc=stage, unit=self.units.get(stage, "file"),
                            leave=False, file=sys.stderr)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def run_compare(paths: tuple[str, ...], each: bool, archive: tuple[str, ...],
                params: dict[str, Any], progress: ProgressBar) -> ComparisonResult:
    """Load the submissions and compare them, as the options say."""
    table = ShardedTable(engine_choice(params, params["jobs"]), progress)
    read = read_options_of(params)
    run = RunBudget(read.limits.max_run_bytes)  # one archive budget for the whole run
    subs = load_submissions(paths, each=each, read_options=read, run=run)
    subs += load_submissions(archive, each=each, role="archive", read_options=read, run=run)
    if _cross_language(subs, params):  # read again, every file in the neutral alphabet
        params = {**params, "cross_language": True}
        read = read_options_of(params)
        run = RunBudget(read.limits.max_run_bytes)
        subs = load_submissions(paths, each=each, read_options=read, run=run)
        subs += load_submissions(archive, each=each, role="archive", read_options=read,
                                 run=run)
    chosen = settings(subs, params)
    base = load_submissions(chosen.base, role="base", read_options=chosen.read, run=run)
    if progress.enabled:
        say_if_compiling()
    try:
        return compare(subs, chosen.config, chosen.options, base=base, jobs=chosen.jobs,
                       progress=progress, frontend_configs=chosen.frontend_configs,
                       table=table)
    finally:
        progress.close()


def _cross_language(subs: list[SubmissionSource], params: dict[str, Any]) -> bool:
    """Whether the batch is compared across languages (``--cross-language``, or
    files in several languages of the structural front-end with no
    ``--frontend``/``--lang``); says so on standard error, naming the alphabet."""
    from winnow.frontends.structural import ALPHABET_NAME, languages_in

    if params["frontend"] not in (None, "structural") or params["lang"] is not None:
        return False
    found = languages_in(f.location for sub in subs for f in sub.files)
    if not params.get("cross_language") and len(found) < 2:
        return False
    listed = ", ".join(sorted(found)) or "none"
    click.echo(f"winnow: comparing across languages ({listed}) in the language-neutral "
               f"alphabet {ALPHABET_NAME} (structural front-end)", err=True)
    return params["frontend"] is None and not params.get("cross_language")


def say_if_compiling() -> None:
    """On a first run, say that the compiled kernels are being built."""
    from winnow.compiled import uncached
    from winnow.engine._kernels import rolling_hashes, winnow_fused
    from winnow.matching._kernels import extend_seeds, pair_sums

    if uncached(winnow_fused, rolling_hashes, pair_sums, extend_seeds):
        click.echo("winnow: first run: compiling the fingerprinting kernels "
                   "(about 10 s; cached for later runs)", err=True)


def check_lang(result: ComparisonResult, lang: str | None) -> None:
    """A ``--lang`` that leaves most files shorter than k is a usage error with
    a hint (a lexer that makes each file a few tokens), not an empty result."""
    files = sum(len(sub.files) for sub in result.submissions)
    short = sum(1 for issue in result.issues if issue.reason.startswith("shorter than k"))
    if lang is not None and files and 2 * short > files:
        raise click.UsageError(
            f"--lang {lang} leaves {short} of {files} files shorter than "
            f"k = {result.config['k']} units, so they cannot match; check the language "
            "(`winnow tokens --lang ... FILE` shows the units), use --lang text or "
            "--frontend text for prose, or a smaller -k")


def _report_issues(result: ComparisonResult, notes: int = 10) -> None:
    """Warn about every skipped input; show the first ``notes`` other notes."""
    other = [issue for issue in result.issues if not issue.skipped]
    for issue in result.issues:
        if issue.skipped:
            warn(f"{safe(issue.path)}: {safe(issue.reason)}")
    for issue in other[:notes]:
        warn(f"{safe(issue.path)}: {safe(issue.reason)} (note)")
    if len(other) > notes:
        warn(f"... and {len(other) - notes} more notes (all in --format json/jsonl)")


@click.command("compare")
@click.argument("paths", nargs=-1, required=True)
@click.option("--each", is_flag=True,
              help="Each entry of a folder PATH is one submission (one folder per student).")
@click.option("--archive", multiple=True, metavar="PATH",
              help="Earlier submissions (repeatable): compared with the new ones, never "
                   "with each other.")
@compare_options
@sharding_options
@click.option("-n", "--top", type=click.IntRange(0), default=_DEFAULTS.top, show_default=True,
              help="Report the N best pairs; 0 = every pair that shares anything.")
@click.option("--min-similarity", type=FRACTION, default=0.0, show_default=True,
              help="Leave out pairs below this similarity.")
@click.option("--no-passages", is_flag=True, help="Scores only: skip the passages pass.")
@click.option("--passages-top", type=click.IntRange(0), default=_DEFAULTS.passages_top,
              show_default=True, metavar="N",
              help="Compute passages (coverage, lines, longest) for the N best reported "
                   "pairs only; the others get scores, their passage columns left empty. "
                   "0 = every reported pair.")
@format_option(result="winnow.matching.model.ComparisonResult")
@output_option("output")
@click.option("--report", type=click.Path(path_type=Path),
              help="Also write the HTML report: a folder, or one FILE.html.")
@click.option("--anonymize", is_flag=True,
              help="Stable pseudonyms instead of names in the HTML report; the key "
                   "(pseudonym, name) goes to a CSV file of its own (--pseudonyms).")
@click.option("--anonymize-all", is_flag=True,
              help="Pseudonyms in the output (table, CSV, JSON) too, and in the report.")
@click.option("--pseudonyms", type=click.Path(dir_okay=False, path_type=Path),
              metavar="FILE.csv",
              help="Where the pseudonym key goes (default: beside the report, or -o, "
                   "as NAME.pseudonyms.csv).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def compare_command(
    paths: tuple[str, ...], each: bool, archive: tuple[str, ...], top: int,
    min_similarity: float, no_passages: bool, passages_top: int, fmt: str,
    output: Path | None, report: Path | None, anonymize: bool, anonymize_all: bool,
    pseudonyms: Path | None, quiet: bool, **params: Any,
) -> None:
    """Compare submissions all against all and rank the suspicious pairs.

    Each PATH is one submission: a file, a folder (all its files) or a zip/tar
    archive; with --each, every entry of a folder PATH is one.  Pairs inside one
    submission are never reported.  Without -k/-t, each file gets the defaults
    of its own front-end (see `winnow.frontends.default_params`), not the
    engine's.  Scores, options and outputs: docs/compare.md.

    Exit codes: 0 all input compared; 1 done, but some input was skipped (each
    named on standard error); 2 usage error; 3 failed (e.g. output not writable).
    """
    params.update(top=top, min_similarity=min_similarity, passages=not no_passages,
                  passages_top=passages_top)
    progress = ProgressBar(enabled=not quiet and sys.stderr.isatty())
    key_file = None
    if pseudonyms is not None and not (anonymize or anonymize_all):
        raise click.UsageError("--pseudonyms goes with --anonymize or --anonymize-all")
    if anonymize or anonymize_all:
        key_file = pseudonym_key_path(report, output, pseudonyms, anonymize_all)
    report_failed = False
    keys = [] if key_file is None else [key_file]
    check_outputs([output, *keys], inputs=[*paths, *archive, *params["base"]], report=report)
    result = run_compare(paths, each, archive, params, progress)
    check_lang(result, params["lang"])
    _report_issues(result)
    if len(result.submissions) < 2:
        warn("fewer than two submissions: nothing to compare")
    shown = result if key_file is None else _anonymized(result, key_file, anonymize_all)
    if report is not None:  # before the output, which is still written if this fails
        report_failed = _write_report(result, report, key_file is not None)
    with common_output(output) as out:
        write(shown, fmt, out)
    exit_with(EXIT_FAILED if report_failed else EXIT_SKIPPED if result.skipped else EXIT_OK)


def pseudonym_key_path(report: Path | None, output: Path | None, given: Path | None,
                       everywhere: bool) -> Path:
    """Where ``--anonymize`` writes its key: ``given``, else beside the report (or
    ``-o``), its name less the extension plus ``.pseudonyms.csv``; never inside a report.  Raises
    :class:`click.UsageError` when there is no such place or nothing to anonymize."""
    if report is None and not everywhere:
        raise click.UsageError("--anonymize applies to --report; --anonymize-all also "
                               "anonymizes the output")
    if given is None:
        beside = report if report is not None else output
        if beside is None:
            raise click.UsageError("--anonymize-all to standard output needs --pseudonyms "
                                   "FILE.csv (where the key goes)")
        stem = beside if beside.name else beside.resolve()
        stem = stem.with_suffix("")
        given = stem.with_name(stem.name + ".pseudonyms.csv")
    if report is not None:
        inside = given.resolve() == report.resolve() or report.resolve() in given.resolve().parents
        if inside:
            raise click.UsageError(f"--pseudonyms {given}: the key must not go inside the "
                                   "report, which it would de-anonymize")
    return given


def _anonymized(result: ComparisonResult, key_file: Path, everywhere: bool) -> ComparisonResult:
    """Write the pseudonym key; ``result`` with pseudonyms when ``everywhere``."""
    from winnow.reports.anonymize import anonymize_result, key_rows, pseudonyms_of, write_key

    pseudo = pseudonyms_of(result)
    write_key(key_file, key_rows(result, pseudo))
    click.echo(f"winnow: pseudonym key written to {key_file}", err=True)
    return anonymize_result(result, pseudo) if everywhere else result


def _write_report(result: ComparisonResult, report: Path, anonymize: bool) -> bool:
    """Write the HTML report; on failure say so (naming ``report``) and return True."""
    from winnow.reports.html import write_report

    try:
        page = write_report(result, report, anonymize=anonymize)
    except WinnowError as error:
        fail(error)
        return True
    click.echo(f"winnow: report written to {page}", err=True)
    return False
