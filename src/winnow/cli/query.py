"""``winnow query``: sif's one-against-all search against a prebuilt index."""

from __future__ import annotations

from pathlib import Path

import click

from winnow.cli.common import exit_with, fail, output, warn
from winnow.cli.options import db_option, format_option, output_option, threshold_option
from winnow.cli.outputs import check_outputs
from winnow.errors import EXIT_OK, EXIT_SKIPPED, IndexMissing, WinnowError
from winnow.index import FingerprintIndex
from winnow.reports.sif import QueryReport
from winnow.reports.writers import write
from winnow.sif.query import Measure, QueryResult, query_file, score


def hint_if_empty(result: QueryResult, threshold: float, measure: Measure) -> None:
    """On standard error: nothing passed ``threshold`` (a fraction), but the
    best file left out shares this much, under ``measure`` and under ``max``."""
    best = result.best_excluded
    if result.matches or best is None:
        return
    here, either = score(best, measure), score(best, "max")
    also = f" ({100.0 * either:.1f}% under --measure max)" if measure != "max" else ""
    warn(f"{result.query}: no file at --threshold {threshold:g} ({measure}); the best is "
         f"{best.match} at {100.0 * here:.1f}% {measure}{also}")


@click.command("query")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(path_type=Path, readable=False))
@db_option()
@threshold_option("Minimum similarity (of --measure), a fraction (0.5 = 50%).")
@click.option("--measure", type=click.Choice(["contained", "contains", "max"]),
              default="contained", show_default=True,
              help="contained: share of the query found in the file (sif's figure); "
                   "contains: share of the file found in the query; max: either.")
@click.option("--include-self", is_flag=True, help="Also list the query file's own entry.")
@click.option("--top", type=click.IntRange(1), default=None,
              help="Show only the best N matches of each query.")
@format_option(result="winnow.reports.sif.QueryReport")
@output_option()
def query_command(files: tuple[Path, ...], db: Path, threshold: float, measure: Measure,
                  include_self: bool, top: int | None, fmt: str,
                  out_path: Path | None) -> None:
    """List the indexed files similar to each FILE, best first.

    FILE need not be indexed; it is fingerprinted with the index's parameters.
    When nothing reaches the threshold, standard error names the best file
    left out and its score.
    contained and contains are shares of distinct fingerprints (percents in the
    table, fractions in CSV/JSON); CSV/JSON add sif's occurrence-based figure
    (sif_similarity), which can pass 1 when fingerprints repeat.
    """
    check_outputs([out_path], inputs=files, index=db)
    results: list[QueryResult] = []
    failed = False
    with FingerprintIndex(db, read_only=True) as index:
        params = index.params
        if params is None:
            raise IndexMissing(f"{db}: the index is empty (run `winnow index` first)")
        for path in files:
            try:
                results.append(query_file(index, params, str(path),
                                          threshold=threshold, measure=measure,
                                          include_self=include_self, limit=top))
                hint_if_empty(results[-1], threshold, measure)
            except WinnowError as error:  # this FILE is skipped, the others are queried
                fail(error)
                failed = True
    with output(out_path) as out:
        write(QueryReport(results, threshold), fmt, out)
    exit_with(EXIT_SKIPPED if failed else EXIT_OK)
