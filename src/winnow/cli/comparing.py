"""The options of a comparison, shared by ``winnow compare`` and ``winnow evaluate``,
and what they resolve to: typed objects, never a dict of strings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any, TypeVar

import click

from winnow.cli.options import (
    FRACTION,
    build_frontend_options,
    engine_options,
    frontend_options,
    jobs_option,
    max_df_option,
    resolve_kt,
)
from winnow.config import MaxDf, WinnowConfig
from winnow.fileio import DEFAULT_MAX_FILE_BYTES
from winnow.matching import SIMILARITIES, CompareOptions
from winnow.matching.options import default_configs
from winnow.sources.submissions import ReadOptions, SubmissionSource

F = TypeVar("F", bound=Callable[..., Any])

#: The library's defaults are the CLI's (one place to tune them).
DEFAULTS = CompareOptions()


def compare_options(func: F) -> F:
    """Every option of the comparison itself (``compare`` and ``evaluate``),
    read back as a :class:`CompareArgs`."""
    options = [
        click.option("--base", "base", multiple=True, metavar="PATH",
                     help="Starter code (file, folder or archive; repeatable): its "
                          "fingerprints are ignored everywhere (MOSS -b)."),
        max_df_option(DEFAULTS.max_occurrences, "submissions",
                      shown="40% of the submissions, 10 to 200"),
        click.option("--literal-k", "literal_k", type=click.IntRange(0),
                     default=DEFAULTS.literal_k, show_default=True, metavar="K",
                     help="Code: also fingerprint the tokens with every literal (string, "
                          "number) kept as its text, at this k and the same t, and count "
                          "both channels in every score (docs/accuracy.md); 0 = off."),
        click.option("--score", type=click.Choice(SIMILARITIES), default=DEFAULTS.similarity,
                     show_default=True,
                     help="The score that orders pairs (docs/compare.md); the similarity "
                          "shown is always what the passages cover."),
        click.option("--common-as-base", "common_as_base", is_flag=True,
                     help="Treat code many submissions share (a quarter of them, at least "
                          "3; listed in the report) as starter code."),
        click.option("--min-cluster-similarity", "cluster_threshold", type=FRACTION,
                     default=DEFAULTS.cluster_threshold, show_default=True,
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
class CompareArgs:
    """The parsed :func:`compare_options`, one typed field each."""

    base: tuple[str, ...]
    max_df: MaxDf | None
    literal_k: int
    score: str
    common_as_base: bool
    cluster_threshold: float
    merge_gap: int | None
    include: tuple[str, ...]
    exclude: tuple[str, ...]
    max_file_mb: int
    jobs: int
    cross_language: bool
    frontend: str | None
    lang: str | None
    unit: str
    frontend_options: tuple[str, ...]
    k: int | None
    t: int | None
    method: str
    anchors: tuple[str, ...]
    seed: int

    @classmethod
    def take(cls, params: dict[str, Any]) -> CompareArgs:
        """Its fields, removed from a command's keyword arguments ``params``
        (the rest are the command's own)."""
        return cls(**{f.name: params.pop(f.name) for f in fields(cls)})

    def read_options(self) -> ReadOptions:
        """The :class:`ReadOptions` of these options (for loading the submissions)."""
        frontend = self.frontend
        options = build_frontend_options(self.unit, self.frontend_options)
        if self.cross_language and frontend in (None, "structural"):
            frontend = "structural"  # the language-neutral alphabet, and only it
            options = replace(options, lexical=False)
        return ReadOptions(
            frontend=frontend, lang=self.lang,
            options=options,
            include=self.include, exclude=self.exclude,
            max_file_bytes=self.max_file_mb << 20)


@dataclass(frozen=True)
class Reporting:
    """What a command reports of the comparison (``compare``'s own options;
    ``evaluate`` ranks every pair, without passages)."""

    top: int = DEFAULTS.top
    min_similarity: float = DEFAULTS.min_similarity
    passages: bool = DEFAULTS.passages
    passages_top: int = DEFAULTS.passages_top


@dataclass(frozen=True)
class CompareSettings:
    """What the comparison options resolve to."""

    read: ReadOptions
    config: WinnowConfig
    options: CompareOptions
    base: tuple[str, ...]
    jobs: int
    frontend_configs: dict[str, WinnowConfig]


def compare_options_of(args: CompareArgs, reporting: Reporting) -> CompareOptions:
    """The library's :class:`CompareOptions` (raises
    :class:`~winnow.errors.InvalidConfig`, a usage error).  ``-m`` goes through
    as given (a count, a share or 0): the matching stage turns it into a count
    of submissions."""
    return CompareOptions(
        max_occurrences=args.max_df, top=reporting.top,
        min_similarity=reporting.min_similarity, similarity=args.score,
        cluster_threshold=args.cluster_threshold, merge_gap=args.merge_gap,
        passages=reporting.passages, passages_top=reporting.passages_top,
        allow_binary=args.frontend == "bytes", literal_k=args.literal_k,
        common_as_base=args.common_as_base)


def settings(subs: list[SubmissionSource], args: CompareArgs,
             reporting: Reporting) -> CompareSettings:
    """Resolve the options for the batch ``subs``.  Without ``-k`` and ``-t``,
    the library's defaults (:func:`winnow.matching.options.default_configs`):
    each file gets its own front-end's, whatever the other files of the batch;
    ``config``, shown in reports, is that of the front-end most files get.
    Raises :class:`~winnow.errors.InvalidConfig` on bad values."""
    read = args.read_options()
    anchors = args.anchors or None
    config, frontend_configs = default_configs(subs, read, method=args.method,
                                               seed=args.seed, anchors=anchors)
    if args.k is not None or args.t is not None:
        k, t = resolve_kt(args.k, args.t, (config.k, config.t))
        config = WinnowConfig(k=k, t=t, method=args.method, seed=args.seed, anchors=anchors)
        frontend_configs = {}
    return CompareSettings(read, config, compare_options_of(args, reporting), args.base,
                           args.jobs, frontend_configs)
