"""The validated settings of a corpus de-duplication run."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final, Literal

from winnow.config import DEFAULT_SEED, MaxDf, WinnowConfig, check_max_df, max_df_count
from winnow.corpus.readers import Fields
from winnow.errors import InvalidConfig
from winnow.pairs.registry import ENGINE_NAMES, EngineName

#: Noise threshold ``k`` and guarantee threshold ``t`` of corpus runs, in
#: normalised characters (the text front-end drops case, spaces and
#: punctuation): every shared passage of at least 40 characters (about eight
#: words) shares a fingerprint.  Fewer fingerprints than ``compare``'s
#: ``k = 16, t = 23`` (density ``2 / (w + 1) = 0.095``), so shards and pair
#: counts stay small, and 20-character k-grams rarely recur by chance.  Chosen
#: with a similarity of 0.4 on ``benchmarks/scale.py``'s planted pairs:
#: ``k = 25, t = 50`` found 0.81 of the near-duplicates, ``k = 20, t = 40``
#: 0.87, both with precision 1.0 (docs/dedup.md).
DEFAULT_K: Final = 20
DEFAULT_T: Final = 40
#: A pair is a near-duplicate at this resemblance of its word pairs
#: ``|Pa ∩ Pb| / |Pa ∪ Pb|`` (:mod:`winnow.corpus.words`), chosen with
#: ``benchmarks/dedup_threshold.py``: from 0.25 to 0.4 it finds the same
#: planted near-duplicates of ``benchmarks/scale.py`` (0.9996) and links no
#: two answers written independently in Clough & Stevenson's corpus (the
#: highest of 3,739 such pairs: 0.188); of the 57 answers revised from a
#: source text it links 18 with their source at 0.4 (as many as the
#: fingerprints' 0.25 did, one fewer cut-and-pasted), 22 at 0.35 (at least as
#: many of each kind), 27 at 0.25.  0.35 keeps 1.9 times the closest
#: independent pair's resemblance, so that text on one topic is not taken for a copy.
DEFAULT_SIMILARITY: Final = 0.35
#: A pair is a candidate, its word pairs read, at this resemblance of its
#: fingerprints ``|Fa ∩ Fb| / |Fa ∪ Fb|`` (or when linked by containment): low
#: enough that nearly every copy with 10 % of its words edited reaches it
#: (their fingerprints' resemblance: 0.04 at the lowest, 0.15 at the 1st
#: percentile, on ``benchmarks/scale.py``'s corpus), high enough that few pairs
#: of unrelated records do (they grow with the square of the corpus).
DEFAULT_CANDIDATE_SIMILARITY: Final = 0.08
#: ... and one record is contained in the other at this containment
#: ``|Fa ∩ Fb| / min(|Fa|, |Fb|)``.
DEFAULT_CONTAINMENT: Final = 0.8
#: Records with fewer fingerprints never count as contained (a few words
#: that occur everywhere are not a duplicate of anything).
DEFAULT_MIN_FINGERPRINTS: Final = 3
#: A fingerprint in more records than this links none of them (MOSS ``-m``):
#: boilerplate and very common phrases create no pairs.
DEFAULT_MAX_OCCURRENCES: Final = 100


#: What ``similarity`` measures: the word pairs' resemblance of the candidate
#: pairs (``words``), or the fingerprints' resemblance (``fingerprints``: no
#: second reading of the candidates' texts; winnow 0.x's measure).
Measure = Literal["words", "fingerprints"]
MEASURES: Final = ("words", "fingerprints")


@dataclass(frozen=True)
class DedupSettings:
    """What a run does.  ``similarity`` and ``containment`` are the thresholds
    (a pair passing either is linked), ``max_occurrences`` the ``-m`` cap (a
    count >= 2, a share ``0 < f < 1`` of the records or ``0`` for none,
    made a count by :meth:`for_records`), ``measure`` what ``similarity``
    applies to (:data:`Measure`), ``candidate_similarity`` the fingerprint
    resemblance from which a pair's word pairs are compared,
    ``engine`` the pair counter (``auto``: see
    :meth:`winnow.pairs.EngineChoice.resolve`), ``workdir`` the sharded
    engine's folder, ``jobs`` worker processes (``0``: every core)."""

    fields: Fields = field(default_factory=Fields)
    k: int = DEFAULT_K
    t: int = DEFAULT_T
    seed: int = DEFAULT_SEED
    similarity: float = DEFAULT_SIMILARITY
    containment: float = DEFAULT_CONTAINMENT
    min_fingerprints: int = DEFAULT_MIN_FINGERPRINTS
    max_occurrences: MaxDf = DEFAULT_MAX_OCCURRENCES
    measure: Measure = "words"
    candidate_similarity: float = DEFAULT_CANDIDATE_SIMILARITY
    engine: EngineName = "auto"
    workdir: str | None = None
    partitions: int | None = None
    ray_address: str | None = None
    jobs: int = 0

    def __post_init__(self) -> None:
        problems = []
        for name in ("similarity", "containment", "candidate_similarity"):
            value = getattr(self, name)
            if not 0 < value <= 1:
                problems.append(f"{name} must be in (0, 1], got {value!r}")
        problem = check_max_df(self.max_occurrences)
        if problem is not None:
            problems.append(problem.replace("max_df", "max_occurrences"))
        elif self.max_occurrences == 1:
            problems.append("max_occurrences must be >= 2 (a fingerprint in one record "
                            "pairs none), 0 or a fraction; got 1")
        for name, low in (("min_fingerprints", 1), ("partitions", 1), ("jobs", 0)):
            value = getattr(self, name)
            if name == "partitions" and value is None:
                continue  # chosen from the input's size
            if not isinstance(value, int) or value < low:
                problems.append(f"{name} must be an integer >= {low}, got {value!r}")
        if self.measure not in MEASURES:
            problems.append(f"measure must be one of {', '.join(MEASURES)}, "
                            f"not {self.measure!r}")
        if self.engine not in ENGINE_NAMES:
            problems.append(f"engine must be one of {', '.join(ENGINE_NAMES)}, "
                            f"not {self.engine!r}")
        if self.ray_address is not None and self.engine != "ray":
            problems.append("a Ray address needs the ray engine")
        try:
            self.config  # noqa: B018 - validates k, t and seed
        except InvalidConfig as error:
            problems += error.problems
        if problems:
            raise InvalidConfig(problems)

    def for_records(self, records: int) -> DedupSettings:
        """These settings with ``max_occurrences`` a count for ``records`` records
        (:func:`winnow.config.max_df_count`)."""
        return replace(self, max_occurrences=max_df_count(self.max_occurrences, records))

    @property
    def cap(self) -> int:
        """``max_occurrences`` as the count the pair counters take: as given when
        it is one, else as for no record at all (call :meth:`for_records` first)."""
        return max_df_count(self.max_occurrences, 0)

    @property
    def config(self) -> WinnowConfig:
        """The fingerprinting parameters: robust winnowing of ``k``-grams, window
        ``t - k + 1`` (winnowing paper, sections 3 and 5.2)."""
        return WinnowConfig(self.k, self.t, "robust", self.seed)


__all__ = ["DEFAULT_CANDIDATE_SIMILARITY", "DEFAULT_CONTAINMENT", "DEFAULT_K",
           "DEFAULT_MAX_OCCURRENCES", "DEFAULT_MIN_FINGERPRINTS", "DEFAULT_SIMILARITY",
           "DEFAULT_T", "MEASURES", "DedupSettings", "Measure"]
