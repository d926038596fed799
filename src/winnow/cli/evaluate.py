"""``winnow evaluate``: score the comparison's ranking against labelled pairs.

Takes every option of ``winnow compare`` (the same decorator), so a setting
tuned here is used as is there.  Exit codes: those of every command
(:mod:`winnow.errors`); 1 when some labelled file could not be used (named on
standard error; its pairs score 0), 2 for an unusable labels file
(:class:`~winnow.errors.InvalidLabels`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from winnow.cli.common import exit_with, warn
from winnow.cli.common import output as common_output
from winnow.cli.comparing import CompareArgs, Reporting, compare_options, settings
from winnow.cli.options import format_option, output_option
from winnow.cli.outputs import check_outputs
from winnow.cli.progress import ProgressBar
from winnow.errors import EXIT_OK, EXIT_SKIPPED
from winnow.evaluation import (
    Evaluation,
    LabelSet,
    compare_labelled,
    evaluate,
    evaluation_rows,
    labelled_submissions,
    load_labels,
    unread_files,
)
from winnow.matching import ComparisonResult
from winnow.reports.evaluation import EvaluationSummary
from winnow.reports.table import safe
from winnow.reports.writers import write
from winnow.sources.submissions import load_submissions


def _conditions(values: tuple[str, ...]) -> dict[str, str]:
    conditions = {}
    for value in values:
        column, sep, wanted = value.partition("=")
        if not sep or not column:
            raise click.BadParameter(f"{value!r} is not COLUMN=VALUE", param_hint="--where")
        conditions[column.strip()] = wanted.strip()
    return conditions


def select(labels: LabelSet, where: tuple[str, ...], group: tuple[str, ...]) -> LabelSet:
    """The rows kept by ``--where``, checking the ``--group`` columns exist."""
    unknown = sorted(set(group) - set(labels.extra_columns))
    if unknown:
        raise click.BadParameter(f"no such column {', '.join(unknown)} (the labels file has: "
                                 f"{', '.join(labels.extra_columns) or 'none'})",
                                 param_hint="--group")
    try:
        kept = labels.where(_conditions(where))
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--where") from error
    if not kept.pairs:
        raise click.BadParameter("no labelled pair matches", param_hint="--where")
    return kept


def summary(labels_path: Path, root: Path, evaluation: Evaluation,
            result: ComparisonResult) -> EvaluationSummary:
    """Everything ``--format json`` prints."""
    rows = evaluation_rows(evaluation)
    return EvaluationSummary(labels=str(labels_path), root=str(root),
                             files=len(result.submissions),
                             unread=list(evaluation.missing_files), config=dict(result.config),
                             parameters=dict(result.parameters), overall=rows[0],
                             groups=rows[1:])


def run_evaluation(labels_path: Path, root: Path, where: tuple[str, ...],
                   group: tuple[str, ...], args: CompareArgs,
                   progress: ProgressBar, output: Path | None = None) -> EvaluationSummary:
    """Load the labels, check ``output`` against them, compare their files (every
    pair ranked, no passages), score."""
    labels = select(load_labels(labels_path), where, group)
    check_outputs([output], inputs=[labels_path, *args.base,
                                    *(root / name for name in labels.files())])
    subs = labelled_submissions(labels, root, args.read_options())
    chosen = settings(subs, args, Reporting(top=0, passages=False))
    base = load_submissions(chosen.base, role="base", read_options=chosen.read)
    try:
        similarity, result = compare_labelled(subs, chosen.config, chosen.options, base=base,
                                              jobs=chosen.jobs, progress=progress,
                                              frontend_configs=chosen.frontend_configs)
    finally:
        progress.close()
    for issue in result.issues:
        if issue.skipped:
            warn(f"{safe(issue.path)}: {safe(issue.reason)}")
    unread = unread_files(result)
    if unread:
        warn(f"{len(unread)} labelled file(s) could not be compared; their pairs score 0")
    evaluation = evaluate(labels, similarity, group_columns=group or None,
                          missing_files=unread)
    return summary(labels_path, root, evaluation, result)


@click.command("evaluate")
@click.argument("labels", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--root", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder the labels' paths are relative to.")
@click.option("--where", multiple=True, metavar="COLUMN=VALUE",
              help="Only the labelled pairs whose COLUMN equals VALUE (repeatable).")
@click.option("--group", multiple=True, metavar="COLUMN",
              help="Break the scores down by this extra column (repeatable; default: "
                   "every extra column).")
@compare_options
@format_option(result="winnow.reports.evaluation.EvaluationSummary")
@output_option("output")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def evaluate_command(labels: Path, root: Path, where: tuple[str, ...], group: tuple[str, ...],
                     fmt: str, output: Path | None, quiet: bool, **params: Any) -> None:
    """Score the ranking of `winnow compare` against labelled pairs.

    LABELS is a CSV `file_a,file_b,label[,extra columns]` (label 1 = copied,
    0 = independent), paths relative to --root.  Every file it names is one
    submission; the comparison takes the same options as `winnow compare`.
    Prints ROC AUC, PR AUC (average precision) and the best F1 with its
    threshold, overall and per value of each extra column (a value holding
    only positive pairs is scored against every negative pair).
    """
    progress = ProgressBar(enabled=not quiet and sys.stderr.isatty())
    data = run_evaluation(labels, root, where, group, CompareArgs.take(params), progress,
                          output)
    with common_output(output) as out:
        write(data, fmt, out)
    exit_with(EXIT_SKIPPED if data.unread else EXIT_OK)
