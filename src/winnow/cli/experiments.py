"""``winnow experiments``: reproduce the papers' experiments, write the report.

The report (``experiments.md`` and ``experiments/*.png``) goes to ``--out``;
the figures, each beside the paper's, are printed as the result (``--format``,
``-o``).  The library (and matplotlib) is imported when the command runs, not
when the command line is built.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from winnow.cli.common import output, warn
from winnow.cli.options import format_option, output_option
from winnow.cli.outputs import check_outputs
from winnow.config import DEFAULT_SEED
from winnow.experiments import EXPERIMENTS
from winnow.reports.listings import ExperimentFigures
from winnow.reports.writers import write

#: ``--data`` when not given: the labelled sets beside the project, when present.
DEFAULT_DATA = Path("../shared/data")


def _records(sections: list[Any]) -> list[dict[str, Any]]:
    return [{"experiment": s.key, "figure": f.name, "measured": f.value, "paper": f.paper}
            for s in sections for f in s.figures]


@click.command("experiments")
@click.option("--corpus", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None, help="Folder of HTML pages for experiments 2 and 4 (default: "
              "/usr/share/doc/python3.11/html, installed by scripts/experiments-corpus.sh).")
@click.option("--data", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None,
              help="Labelled sets for experiment 7 (default: ../shared/data when present; "
              "without them experiment 7 is skipped with a note).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("winnow-experiments"), show_default=True,
              help="Folder for experiments.md and experiments/*.png.")
@click.option("--only", multiple=True, type=click.Choice(EXPERIMENTS),
              help="Run only this experiment (repeatable; default: all).")
@click.option("--quick", is_flag=True, help="Small inputs (seconds, not the papers' sizes).")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True,
              help="Seed of every random input.")
@format_option(result="winnow.reports.listings.ExperimentFigures")
@output_option()
def experiments_command(corpus: Path | None, data: Path | None, out_dir: Path,
                        only: tuple[str, ...], quick: bool, seed: int, fmt: str,
                        out_path: Path | None) -> None:
    """Reproduce the winnowing and sif papers' experiments and write a report.

    Random text, real HTML (Figure 3), low entropy, frequency by rank (Figure 4),
    the lower bound for local algorithms, sif's index and random substitutions,
    and accuracy and time as functions of k and t on labelled sets.  Writes
    OUT/experiments.md with PNG plots and prints every figure beside the paper's.
    Needs matplotlib: pip install -e '.[experiments]' in winnow's source folder.
    """
    from winnow.experiments.plots import require_matplotlib
    from winnow.experiments.runner import Settings, run_experiments, write_report

    require_matplotlib()
    if data is None and DEFAULT_DATA.is_dir():
        data = DEFAULT_DATA
    inputs = [p for p in (corpus, data) if p is not None]
    from winnow.experiments.runner import REPORT_NAME

    check_outputs([out_path, out_dir / REPORT_NAME], inputs=inputs, report=out_dir)
    settings = Settings(corpus=corpus, data=data, quick=quick, seed=seed)

    last = time.process_time()

    def progress(name: str, done: int, total: int) -> None:
        nonlocal last
        now = time.process_time()
        click.echo(f"winnow: experiment {name} done ({now - last:.1f} s CPU)", err=True)
        last = now

    sections = run_experiments(only or EXPERIMENTS, settings, progress)
    report = write_report(sections, settings, out_dir)
    click.echo(f"winnow: report written to {report}", err=True)
    for section in sections:
        for message in section.warnings:
            warn(message)
    figures = ExperimentFigures(_records(sections), [(s.key, s.skipped) for s in sections
                                                     if s.skipped is not None])
    with output(out_path) as out:
        write(figures, fmt, out)
