"""``winnow compare``: rank the suspicious pairs of a batch of submissions.

Exit codes: those of every command (:mod:`winnow.errors`); 1 when the
comparison completed but some input was skipped (each named in a warning on
standard error), 3 when the HTML report could not be written (the output
still is).
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from winnow.api import cross_language_note, relative_names
from winnow.cli.common import exit_with, fail, warn
from winnow.cli.common import output as common_output
from winnow.cli.comparing import (
    DEFAULTS,
    CompareArgs,
    Reporting,
    compare_options,
    settings,
)
from winnow.cli.options import FRACTION, format_option, output_option
from winnow.cli.outputs import check_outputs
from winnow.cli.progress import ProgressBar, say_if_compiling
from winnow.cli.sharding import engine_choice, sharding_options
from winnow.errors import EXIT_FAILED, EXIT_OK, EXIT_SKIPPED, WinnowError
from winnow.matching import ComparisonResult, compare
from winnow.pairs import EngineChoice
from winnow.reports.records import chosen_columns, needs_passages
from winnow.reports.table import safe
from winnow.reports.writers import write
from winnow.sources.archives import RunBudget
from winnow.sources.submissions import SubmissionSource, load_submissions


def run_compare(paths: tuple[str, ...], each: bool, archive: tuple[str, ...],
                args: CompareArgs, reporting: Reporting, engine: EngineChoice,
                progress: ProgressBar, full_paths: bool = False) -> ComparisonResult:
    """Load the submissions and compare them, as the options say (a usage error,
    :func:`check_inputs`, when the PATHs cannot give two submissions); names
    relative to the inputs' common folder unless ``full_paths``."""
    check_inputs(paths, each, archive)
    read = args.read_options()
    run = RunBudget(read.limits.max_run_bytes)  # one archive budget for the whole run
    subs = load_submissions(paths, each=each, read_options=read, run=run)
    subs += load_submissions(archive, each=each, role="archive", read_options=read, run=run)
    reread, across = _cross_language(subs, args)
    if reread:  # read again, every file in the neutral alphabet
        args = replace(args, cross_language=True)
        read = args.read_options()
        run = RunBudget(read.limits.max_run_bytes)
        subs = load_submissions(paths, each=each, read_options=read, run=run)
        subs += load_submissions(archive, each=each, role="archive", read_options=read,
                                 run=run)
    if not full_paths:
        subs = relative_names(subs)
    chosen = settings(subs, args, reporting)
    base = load_submissions(chosen.base, role="base", read_options=chosen.read, run=run)
    if progress.enabled:
        say_if_compiling()
    try:
        result = compare(subs, chosen.config, chosen.options, base=base, jobs=chosen.jobs,
                         progress=progress, frontend_configs=chosen.frontend_configs,
                         engine=engine)
    finally:
        progress.close()
    if across is None:
        return result
    # the JSON header and the HTML report's run facts say so too
    return replace(result, parameters={**result.parameters, "cross_language": across})


def _cross_language(subs: list[SubmissionSource], args: CompareArgs
                    ) -> tuple[bool, dict[str, Any] | None]:
    """Whether the batch must be read again to be compared across languages
    (:func:`winnow.api.cross_language_note`; ``--cross-language`` reads it so
    from the start), said on standard error, naming the alphabet; and the
    note for the result's parameters, ``None`` when not across languages."""
    note = cross_language_note(subs, args.frontend, args.lang, args.cross_language)
    if note is None:
        return False, None
    listed = ", ".join(note["languages"]) or "none"
    click.echo(f"winnow: comparing across languages ({listed}) in the language-neutral "
               f"alphabet {note['alphabet']} (structural front-end)", err=True)
    return not args.cross_language, note  # read again without the lexer's tokens


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


def _columns(ctx: click.Context, param: click.Parameter,
             value: str | None) -> tuple[str, ...] | None:
    """``--columns``: the CSV columns named, checked (:func:`chosen_columns`)."""
    if value is None:
        return None
    try:
        return chosen_columns(value)
    except ValueError as error:
        raise click.BadParameter(str(error), ctx, param) from None


@click.command("compare")
@click.argument("paths", nargs=-1, required=True)
@click.option("--each", is_flag=True,
              help="Each entry of a folder PATH is one submission (one folder per student).")
@click.option("--archive", multiple=True, metavar="PATH",
              help="Earlier submissions (repeatable): compared with the new ones, never "
                   "with each other.")
@compare_options
@sharding_options
@click.option("-n", "--top", type=click.IntRange(0), default=DEFAULTS.top, show_default=True,
              help="Report the N best pairs; 0 = every pair that shares anything.")
@click.option("--min-similarity", type=FRACTION, default=DEFAULTS.min_similarity,
              show_default=True,
              help="Leave out pairs below this similarity.")
@click.option("--no-passages", is_flag=True, help="Scores only: skip the passages pass.")
@click.option("--passages-top", type=click.IntRange(0), default=DEFAULTS.passages_top,
              show_default=True, metavar="N",
              help="Compute passages (coverage, lines, longest) for the N best reported "
                   "pairs only; the others get scores, their passage columns left empty. "
                   "0 = every reported pair.")
@format_option(result="winnow.matching.model.ComparisonResult")
@click.option("--columns", callback=_columns, metavar="NAME,...",
              help="With --format csv: only these columns, in this order (e.g. "
                   "file_a,file_b,similarity; all of them by default, docs/compare.md). "
                   "Without a passage column (similarity, coverage, lines, longest, "
                   "passages), --report or --score coverage, the passages pass is "
                   "skipped.")
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
@click.option("--full-paths", is_flag=True,
              help="Name submissions by their paths as given (default: relative to the "
                   "--each folder, or to the folder all inputs share).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def compare_command(
    paths: tuple[str, ...], each: bool, archive: tuple[str, ...], top: int,
    min_similarity: float, no_passages: bool, passages_top: int, fmt: str,
    columns: tuple[str, ...] | None, output: Path | None, report: Path | None,
    anonymize: bool, anonymize_all: bool, pseudonyms: Path | None, full_paths: bool,
    quiet: bool, **params: Any,
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
    args = CompareArgs.take(params)
    engine = engine_choice(params, args.jobs)
    if columns is not None and fmt != "csv":
        raise click.UsageError(f"--columns goes with --format csv (not {fmt})")
    passages = not no_passages and (columns is None or needs_passages(columns)
                                    or report is not None)
    reporting = Reporting(top, min_similarity, passages, passages_top)
    progress = ProgressBar(enabled=not quiet and sys.stderr.isatty())
    key_file = None
    if pseudonyms is not None and not (anonymize or anonymize_all):
        raise click.UsageError("--pseudonyms goes with --anonymize or --anonymize-all")
    if anonymize or anonymize_all:
        key_file = pseudonym_key_path(report, output, pseudonyms, anonymize_all)
    report_failed = False
    keys = [] if key_file is None else [key_file]
    check_outputs([output, *keys], inputs=[*paths, *archive, *args.base], report=report)
    result = run_compare(paths, each, archive, args, reporting, engine, progress, full_paths)
    check_lang(result, args.lang)
    _report_issues(result)
    if len(result.submissions) < 2:
        warn("fewer than two submissions: nothing to compare")
    shown = result if key_file is None else _anonymized(result, key_file, anonymize_all)
    if report is not None:  # before the output, which is still written if this fails
        report_failed = _write_report(result, report, key_file is not None)
    with common_output(output) as out:
        write(shown, fmt, out, **({} if columns is None else {"columns": columns}))
    exit_with(EXIT_FAILED if report_failed else EXIT_SKIPPED if result.skipped else EXIT_OK)


def check_inputs(paths: tuple[str, ...], each: bool, archive: tuple[str, ...]) -> None:
    """A usage error, with the fix, when the PATHs cannot give two submissions to
    compare: none of them exists, or one folder is given without ``--each``."""
    if not any(os.path.lexists(p) for p in paths):
        missing = ", ".join(paths)
        raise click.UsageError(f"no such file or folder: {missing} (check the path; "
                               "a folder of submissions goes with --each)")
    if len(paths) == 1 and not each and not archive and os.path.isdir(paths[0]):
        raise click.UsageError(
            f"{paths[0]} is one folder, so one submission: nothing to compare it with. "
            f"To compare its entries (one per student) with each other: "
            f"winnow compare --each {shlex.quote(paths[0])}")


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
