"""Run the experiments and write the report: ``experiments.md`` and its PNG plots.

:data:`FULL` sizes follow the papers where this is feasible on a laptop
(8 MB of random text, k = 50, w = 100); :data:`QUICK` ones are small enough
for the test suite.  Every random input has a fixed seed, so a run gives the
same numbers (times aside) on any machine.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from winnow.errors import InputError
from winnow.experiments import (
    EXPERIMENTS,
    frequency,
    html_corpus,
    low_entropy,
    lower_bound,
    parameters,
    random_text,
    sif_index,
)
from winnow.experiments.corpus import DEFAULT_CORPUS, Corpus, load_corpus
from winnow.experiments.parameters import Grid
from winnow.experiments.report import Section, report_markdown
from winnow.parallel import Progress

REPORT_NAME, PLOT_DIR = "experiments.md", "experiments"


@dataclass(frozen=True)
class Sizes:
    """How big each experiment's input is."""

    random_bytes: int
    low_entropy_units: int
    corpus_files: int | None
    lower_windows: range
    lower_length: int
    sif_files: int | None
    sif_trials: int
    grids: dict[str, Grid] = field(default_factory=dict)


FULL: Final = Sizes(
    random_bytes=8_000_000, low_entropy_units=1_000_000, corpus_files=None,
    lower_windows=range(2, 8), lower_length=200_000, sif_files=None, sif_trials=50,
    grids={"code": Grid((5, 8, 10, 12, 15, 20), (1, 4, 8)),
           "prose": Grid((5, 8, 12, 16, 20, 30, 40), (1, 4, 8, 16))})
QUICK: Final = Sizes(
    random_bytes=200_000, low_entropy_units=20_000, corpus_files=20,
    lower_windows=range(2, 4), lower_length=20_000, sif_files=40, sif_trials=3,
    grids={"code": Grid((8, 10), (1,)), "prose": Grid((12, 16), (1, 8))})


@dataclass(frozen=True)
class Settings:
    """Where the inputs are and how big the run is.

    ``corpus``: a folder of HTML pages (``None``: :data:`DEFAULT_CORPUS` when
    installed, else experiments 2 and 4 are skipped with a note); ``data``: the
    labelled sets (``None``: experiment 7 is skipped with a note).
    """

    corpus: Path | None = None
    data: Path | None = None
    quick: bool = False
    seed: int = 0

    @property
    def sizes(self) -> Sizes:
        return QUICK if self.quick else FULL



class _Inputs:
    """The HTML corpus, read once for the experiments that share it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._corpus: Corpus | None = None

    def corpus(self) -> Corpus | str:
        """The corpus, or why there is none."""
        root = self.settings.corpus
        if root is None:
            if not DEFAULT_CORPUS.is_dir():
                return (f"no HTML corpus: install one with scripts/experiments-corpus.sh "
                        f"(Debian's python3.11-doc, {DEFAULT_CORPUS}) or give --corpus DIR")
            root = DEFAULT_CORPUS
        if self._corpus is None:
            self._corpus = load_corpus(root, self.settings.sizes.corpus_files)
        return self._corpus


def _run_one(name: str, settings: Settings, inputs: _Inputs) -> Section:
    sizes, seed = settings.sizes, settings.seed
    if name == "random":
        return random_text.run(sizes.random_bytes, seed)
    if name == "lowentropy":
        return low_entropy.run(sizes.low_entropy_units, seed)
    if name == "lowerbound":
        return lower_bound.run(sizes.lower_windows, sizes.lower_length, seed)
    if name == "sif":
        return sif_index.run(sizes.sif_files, sizes.sif_trials, seed)
    if name == "parameters":
        if settings.data is None or not settings.data.is_dir():
            return Section(name, parameters.TITLE, parameters.INTRO,
                           skipped="no labelled data folder (give --data DIR)")
        return parameters.run(settings.data, sizes.grids)
    corpus = inputs.corpus()
    if name == "html":
        if isinstance(corpus, str):
            return Section(name, html_corpus.TITLE, html_corpus.INTRO, skipped=corpus)
        return html_corpus.run(corpus)
    if isinstance(corpus, str):
        return Section(name, frequency.TITLE, frequency.INTRO, skipped=corpus)
    return frequency.run(corpus)


def run_experiments(names: Sequence[str], settings: Settings,
                    progress: Progress | None = None) -> list[Section]:
    """Run the named experiments in report order; ``progress(name, done, total)``
    is called after each (its CPU time is in its section's ``cpu_seconds``)."""
    unknown = sorted(set(names) - set(EXPERIMENTS))
    if unknown:
        raise InputError(", ".join(unknown), f"no such experiment (known: "
                         f"{', '.join(EXPERIMENTS)})")
    inputs = _Inputs(settings)
    sections = []
    chosen = [n for n in EXPERIMENTS if n in names]
    for name in chosen:
        started = time.process_time()
        section = _run_one(name, settings, inputs)
        section.cpu_seconds = time.process_time() - started
        sections.append(section)
        if progress is not None:
            progress(name, len(sections), len(chosen))
    return sections


def preface(settings: Settings) -> list[str]:
    """The report's opening paragraphs: what it is and the line that regenerates it."""
    size = "`--quick` (small inputs, not the papers' sizes)" if settings.quick else (
        "full sizes")
    return [
        "The experiments of the winnowing paper (Schleimer, Wilkerson, Aiken, SIGMOD 2003) "
        "and of sif (Manber, USENIX 1994) run on winnow's own engine, front-ends and index, "
        "each figure beside the paper's.  Generated by `winnow experiments`; to regenerate "
        "this page and its plots:",
        "```\nbash scripts/experiments-corpus.sh       # once, as root: the HTML corpus\n"
        ".venv/bin/pip install -e '.[experiments]'\n"
        ".venv/bin/winnow experiments --out docs --data ../shared/data\n```",
        f"This run: {size}, seed {settings.seed}.  Random inputs are seeded, so the numbers "
        "are the same on every machine; CPU times are those of the machine that ran it.  "
        "`--only NAME` runs one experiment, `--quick` uses small inputs, "
        "`--corpus DIR` any folder of HTML pages, `--data DIR` the labelled sets; the "
        "figures are also printed (`--format csv|json|jsonl`; see [the command-line "
        "reference](cli.md#winnow-experiments)).",
    ]


def write_report(sections: Sequence[Section], settings: Settings, out_dir: Path) -> Path:
    """Write ``experiments.md`` and ``experiments/*.png`` under ``out_dir``; the report's path."""
    from winnow.experiments.plots import draw

    plot_dir = out_dir / PLOT_DIR
    plot_dir.mkdir(parents=True, exist_ok=True)
    for section in sections:
        for plot in section.plots:
            draw(plot, plot_dir / f"{plot.name}.png")
    path = out_dir / REPORT_NAME
    path.write_text(report_markdown("Reproducing the papers' experiments", preface(settings),
                                    sections, PLOT_DIR), encoding="utf-8")
    return path
