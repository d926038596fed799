"""The options of a comparison, beside the engine's :class:`~winnow.config.WinnowConfig`.

One frozen, validated object, shared by the library, ``winnow compare`` and
``winnow evaluate``, so tuning is a change of defaults here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Final

from winnow.config import DEFAULT_SEED, WinnowConfig
from winnow.errors import InvalidConfig
from winnow.frontends.options import default_params
from winnow.sources.submissions import ReadOptions, dominant_frontend

if TYPE_CHECKING:
    from winnow.matching.prints import SubmissionLike

#: The scores :attr:`CompareOptions.similarity` can rank by (see docs/compare.md).
SIMILARITIES: Final = (
    "weighted-containment", "weighted-dice", "dice", "jaccard", "containment-max",
    "containment-mean", "weighted", "coverage",
)


@dataclass(frozen=True, slots=True)
class CompareOptions:
    """How submissions are matched, ranked and reported.

    * ``max_occurrences`` — MOSS ``-m``: a fingerprint in more than this many
      submissions is ignored everywhere.  An integer ``>= 1``, a fraction
      ``0 < f < 1`` of the submissions (``ceil(f N)``, at least 2), or ``0``
      for no cap.  Default ``None``: 40 % of the submissions, at least 10
      and at most 200
      (:func:`~winnow.pairs.counting.resolve_cap`; MOSS: 10): a solution
      a third of the class submitted still counts as evidence, and is
      listed among the code many submissions share; a fixed count such as
      10 removes what a task's many copies of one original share (IR-Plag);
      see docs/accuracy.md.
    * ``top`` — pairs reported (and given passages), best first; ``0`` = all
      pairs that share anything.
    * ``min_similarity`` — pairs whose fingerprint estimate of the similarity
      (:attr:`PairScores.estimate <winnow.matching.scores.PairScores.estimate>`)
      is below are not reported.
    * ``similarity`` — the score that orders pairs (``PairResult.score``), one
      of :data:`SIMILARITIES`; ``coverage`` computes passages for every pair
      that shares anything (slower) and orders by the share of both
      submissions they cover.  The similarity shown is always the one the
      passages give (docs/compare.md).
    * ``cluster_threshold`` — pairs at or above link submissions into clusters.
    * ``merge_gap`` — matched runs at most this many units apart in *both*
      files, in the same order, are merged into one passage; ``None`` = ``k``.
    * ``passages`` — compute passages for reported pairs (off: scores only).
    * ``passages_top`` — passages only for this many of the best reported
      pairs (``0`` = every reported pair): ``top=0`` (every pair) then costs
      about what the scores cost; the other pairs have scores only.
    * ``allow_binary`` — compare files sniffed as binary (else skipped with a
      warning: a binary in a code submission is usually a mistake).
    * ``literal_k`` — code only: ``k`` of the second channel, the token stream
      with every literal kept as its own text (:attr:`winnow.model.Stream.literal_units`),
      winnowed with the same guarantee threshold ``t``; its fingerprints join
      the file's set, so every score counts both.  ``0`` = one channel.  See
      docs/accuracy.md for why (copies keep the original's strings and numbers).
    * ``common_as_base`` — treat the code many submissions share (the
      fingerprints of :attr:`ComparisonResult.shared_code`, in at least a
      quarter of the submissions and 3) as starter code (``--base``).
    """

    max_occurrences: float | None = None
    top: int = 250
    min_similarity: float = 0.0
    similarity: str = "weighted-containment"
    cluster_threshold: float = 0.5
    merge_gap: int | None = None
    passages: bool = True
    passages_top: int = 250
    allow_binary: bool = False
    literal_k: int = 6
    common_as_base: bool = False

    def __post_init__(self) -> None:
        problems: list[str] = []
        m = self.max_occurrences
        if m is not None and (isinstance(m, bool) or not isinstance(m, int | float) or m < 0 or (
            m >= 1 and m != int(m)
        )):
            problems.append(
                f"max_occurrences must be 0, an integer >= 1 or a fraction in (0, 1); got {m!r}"
            )
        if isinstance(self.top, bool) or not isinstance(self.top, int) or self.top < 0:
            problems.append(f"top must be an integer >= 0 (0 = all pairs); got {self.top!r}")
        if isinstance(self.passages_top, bool) or not isinstance(self.passages_top, int) or (
            self.passages_top < 0
        ):
            problems.append(
                f"passages_top must be an integer >= 0 (0 = all); got {self.passages_top!r}")
        for name in ("min_similarity", "cluster_threshold"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not (
                0.0 <= value <= 1.0
            ):
                problems.append(f"{name} must be in [0, 1]; got {value!r}")
        if self.similarity not in SIMILARITIES:
            problems.append(
                f"similarity must be one of {', '.join(SIMILARITIES)}; got {self.similarity!r}"
            )
        if self.merge_gap is not None and (
            isinstance(self.merge_gap, bool) or not isinstance(self.merge_gap, int)
            or self.merge_gap < 0
        ):
            problems.append(f"merge_gap must be an integer >= 0; got {self.merge_gap!r}")
        if isinstance(self.literal_k, bool) or not isinstance(self.literal_k, int) or (
            self.literal_k < 0
        ):
            problems.append(f"literal_k must be an integer >= 0 (0 = off); got {self.literal_k!r}")
        if problems:
            raise InvalidConfig(problems)

    def as_dict(self) -> dict[str, Any]:
        """Plain-data form, for JSON output."""
        return asdict(self)


def default_configs(
    submissions: Sequence[SubmissionLike], read_options: ReadOptions | None = None, *,
    method: str = "robust", seed: int = DEFAULT_SEED, **method_params: Any,
) -> tuple[WinnowConfig, dict[str, WinnowConfig]]:
    """The engine settings of a comparison given no ``k`` and ``t``, as
    ``(config, frontend_configs)`` for :func:`~winnow.matching.compare`.

    ``frontend_configs`` gives every front-end its own defaults
    (:func:`winnow.frontends.options.default_params`), so the settings of a
    file never depend on the other files of the batch; ``config``, shown in
    reports (and the default ``merge_gap``), is that of the front-end most
    files get (:func:`winnow.sources.submissions.dominant_frontend`).
    ``read_options`` default to those the files carry
    (:attr:`SourceFile.read_options <winnow.sources.submissions.SourceFile>`).
    ``compare()`` without a config and ``winnow compare`` without ``-k``/``-t``
    both use this.  ``method_params`` are the method's own (``p``, ``bits``,
    ``n``, ``anchors``: :class:`~winnow.config.WinnowConfig`).  Raises
    :class:`~winnow.errors.InvalidConfig` for a bad ``method``, its
    parameters or ``seed``.
    """
    from winnow.frontends import FRONTENDS

    read = read_options or read_options_of(submissions)
    by_frontend = {name: WinnowConfig(*default_params(name, read.options), method=method,
                                      seed=seed, **method_params) for name in FRONTENDS}
    config = WinnowConfig(*default_params(dominant_frontend(submissions, read), read.options),
                          method=method, seed=seed, **method_params)
    return config, by_frontend


def read_options_of(submissions: Sequence[SubmissionLike]) -> ReadOptions:
    """The :class:`ReadOptions` the first file that carries any was loaded with
    (files from :func:`~winnow.sources.submissions.load_submissions` all carry
    theirs); the defaults otherwise."""
    for sub in submissions:
        for file in sub.files:
            found = getattr(file, "read_options", None)
            if isinstance(found, ReadOptions):
                return found
    return ReadOptions()
