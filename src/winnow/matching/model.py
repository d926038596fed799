"""The result of ``winnow compare``: plain frozen data that every report consumes.

Reports (table, CSV, JSON, HTML) read only these classes; none of them needs
the index or the engine.  Conventions (see ``DESIGN.md``):

* Spans are half-open ``[start, end)``: ``units`` index the front-end's
  normalised stream of one file, ``bytes`` index that file's original bytes.
* Lines are 1-based and *inclusive* ``(first, last)``, as people read them.
* A *submission* is what the user gave as one PATH (a file, a folder or an
  archive), named exactly as given; a *file* is one member of it, named by
  its path inside the submission with ``/`` separators (for a single-file
  submission, the file's own base name).
* Scores are fractions in ``[0, 1]`` unless their name says otherwise; the
  formulas are in ``docs/compare.md`` and on :class:`PairResult`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from winnow.model import Document, Role, Span

#: Key of one file in :attr:`ComparisonResult.documents`: (submission name, file path).
FileKey = tuple[str, str]

#: Bins of :attr:`ComparisonResult.histogram` (5 % each).
HISTOGRAM_BINS = 20


@dataclass(frozen=True, slots=True)
class SubmittedFile:
    """One file of a submission.

    ``path`` is the path inside the submission (``/``-separated); ``units`` the
    length of its normalised stream; ``fingerprints`` how many distinct
    fingerprints it kept after the ``-m`` cap (base code included).
    """

    path: str
    size: int
    units: int
    fingerprints: int


@dataclass(frozen=True, slots=True)
class Submission:
    """One submission: a file, a folder or an archive, named as the user gave it.

    ``files`` lists the files that were read (skipped ones are in
    :attr:`ComparisonResult.issues`).  ``units`` and ``fingerprints`` are
    totals over the files; ``fingerprints`` counts the distinct hashes of the
    whole submission that survived the ``-m`` cap, base code included (the
    ``|F|`` of the containment formulas: scores are shares of whole submissions).
    """

    name: str
    role: Role
    files: tuple[SubmittedFile, ...]
    units: int
    fingerprints: int


@dataclass(frozen=True, slots=True)
class Region:
    """Where one side of a passage lies: a file of a submission and its ranges.

    ``units`` indexes the file's normalised stream, ``bytes`` its original
    bytes (both half-open); ``lines`` is ``(first, last)``, 1-based, inclusive.
    """

    file: str
    units: Span
    bytes: Span
    lines: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Passage:
    """One matched passage between the two submissions of a pair.

    ``a`` and ``b`` are the two sides (``a`` in :attr:`PairResult.a`).
    A passage is one or more exact runs of equal units, in the same order on
    both sides, merged across small gaps; ``length`` is the number of units
    in those exact runs (the spans may be a little longer, by the gaps).
    ``fingerprints`` is how many shared fingerprints it contains.  ``gaps``
    are the unmatched stretches inside it, ``(in a, in b)`` (one of the two
    may be empty: code inserted on one side only).  ``index``
    numbers the passages of a pair from 0 in decreasing length, so reports can
    give each its own colour and link the two sides.
    """

    index: int
    a: Region
    b: Region
    length: int
    fingerprints: int
    gaps: tuple[tuple[Region, Region], ...] = ()


@dataclass(frozen=True, slots=True)
class PairResult:
    """Two submissions that share fingerprints, with every score.

    With ``F_x`` the distinct fingerprints of submission ``x`` (after the
    ``-m`` cap, base code included) and ``S`` the fingerprints of
    ``F_a ∩ F_b`` that are not base code (``docs/compare.md``):

    * ``shared = |S|``
    * ``containment_a = |S| / |F_a|`` (how much of ``a`` is found in ``b``),
      ``containment_b = |S| / |F_b|``
    * ``jaccard = |S| / |F_a ∪ F_b|`` (resemblance)
    * ``weighted``: IDF-weighted overlap ``Σ_{h∈S} idf(h) / min(Σ_{F_a} idf, Σ_{F_b} idf)``
      with ``idf(h) = 1 + ln((1 + N) / (1 + df(h)))`` over the ``N`` submissions
      (compare50's idea, smoothed so that no weight is 0).
    * ``rarity``: mean ``df`` of the shared fingerprints divided by ``N``
      (low = the shared fragments are rare in the batch, more suspicious).
    * ``similarity``: what the passages show: the power mean
      ``((coverage_a^4 + coverage_b^4) / 2)^(1/4)`` of the two highlighted
      shares (never above the larger); for a pair without passages, the same
      mean of ``containment_a`` and ``containment_b`` (an estimate).
    * ``score``: the score that orders pairs (rarity-weighted by default);
      which one is :attr:`ComparisonResult.parameters` ``["similarity"]``.

    Computed from passages (``None`` when the pair is not among the top pairs
    whose passages were computed, see ``passages_computed``):

    * ``coverage_a`` / ``coverage_b``: units of ``a`` (``b``) covered by
      passages over all its units (MOSS's "File 1 (NN%)").
    * ``lines_a`` / ``lines_b``: distinct lines touched by passages.
    * ``longest``: the largest ``Passage.length``, in units.
    """

    a: str
    b: str
    similarity: float
    shared: int
    containment_a: float
    containment_b: float
    jaccard: float
    weighted: float
    rarity: float
    passages_computed: bool = False
    coverage_a: float | None = None
    coverage_b: float | None = None
    lines_a: int | None = None
    lines_b: int | None = None
    longest: int | None = None
    passages: tuple[Passage, ...] = ()
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class SharedCode:
    """Code many submissions share (:mod:`winnow.matching.common`).

    ``submissions`` are those holding its fingerprints (in input order);
    ``region`` shows it in ``submissions[0]``; ``fingerprints`` counts the
    distinct fingerprints of the block inside ``region``; ``ignored`` says
    the ``-m`` cap dropped them (they were not evidence for any pair);
    ``as_base`` that ``--common-as-base`` made them starter code.
    """

    index: int
    submissions: tuple[str, ...]
    region: Region
    fingerprints: int
    ignored: bool
    as_base: bool = False


@dataclass(frozen=True, slots=True)
class Cluster:
    """A group of submissions linked by pairs with ``similarity >= threshold``.

    The connected components (of at least two submissions) of the graph whose
    edges are those pairs; ``members`` sorted by name, clusters by size then
    ``max_similarity`` descending.
    """

    index: int
    members: tuple[str, ...]
    pairs: int
    max_similarity: float


@dataclass(frozen=True, slots=True)
class Issue:
    """Something in the input that was skipped or degraded, naming the path.

    ``skipped`` is true when the path's content is not in the result at all
    (unreadable, binary in a code submission, broken archive, empty ...).
    """

    path: str
    reason: str
    skipped: bool = True

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass(frozen=True)
class ComparisonResult:
    """Everything ``winnow compare`` found, ready for any report.

    * ``submissions``: every submission read (new and archive), in input order.
    * ``pairs``: ranked by ``similarity`` descending (ties: shared, then names);
      includes every pair kept by ``top`` / ``min_similarity``.  A sequence
      (from :func:`~winnow.matching.compare` one that builds each pair as it
      is read, so that writing every pair of a large class streams).
    * ``clusters``: see :class:`Cluster`.
    * ``config``: the engine parameters (``WinnowConfig.as_dict()``).
    * ``parameters``: the matching options used (``max_occurrences``, ``top``,
      ``min_similarity``, ``similarity``, ``cluster_threshold``, ``frontend`` ...).
    * ``issues``: what was skipped or degraded, each naming its path.
    * ``documents``: ``(submission, file) -> Document``: each file's original
      bytes (``Document.data``) and line map, for the side-by-side views.
    * ``stats``: counts for the curious (fingerprints indexed, ignored by ``-m``
      and by ``--base``, pairs sharing anything before ``top``).
    * ``shared_code``: code many submissions share (:class:`SharedCode`),
      most widely shared first; its documents are in ``documents``.
    * ``histogram``: how many pairs sharing anything (before ``top`` and
      ``min_similarity``) fall in each of :data:`HISTOGRAM_BINS` equal bins of
      ``similarity`` over ``[0, 1]`` (the last bin includes 1); empty if unknown.
    """

    submissions: tuple[Submission, ...]
    pairs: Sequence[PairResult]
    clusters: tuple[Cluster, ...]
    config: Mapping[str, Any]
    parameters: Mapping[str, Any]
    issues: tuple[Issue, ...] = ()
    documents: Mapping[FileKey, Document] = field(default_factory=dict)
    stats: Mapping[str, int] = field(default_factory=dict)
    histogram: tuple[int, ...] = ()
    shared_code: tuple[SharedCode, ...] = ()

    @property
    def skipped(self) -> bool:
        """Whether any input was left out (decides the CLI's exit code)."""
        return any(issue.skipped for issue in self.issues)

    def document(self, submission: str, file: str) -> Document:
        """The document of ``file`` in ``submission`` (``KeyError`` if unknown)."""
        return self.documents[(submission, file)]

    def text(self, submission: str, file: str) -> str:
        """The original text of a file, decoded as its front-end decoded it."""
        doc = self.documents[(submission, file)]
        return doc.data.decode(doc.encoding or "utf-8", errors="replace")

    def region_text(self, submission: str, region: Region, *, whole_lines: bool = False) -> str:
        """The original text of ``region``, a side of a passage in ``submission``:
        its bytes (or, with ``whole_lines``, its lines ``region.lines``) decoded
        as :meth:`text` decodes the file.  ``KeyError`` if the file's document
        is not in :attr:`documents` (passages not computed)."""
        doc = self.documents[(submission, region.file)]
        start, end = region.bytes.start, region.bytes.end
        if whole_lines:
            starts = doc.line_starts
            first, last = region.lines
            start = int(starts[first - 1])
            end = int(starts[last]) if last < len(starts) else len(doc.data)
        return doc.data[start:end].decode(doc.encoding or "utf-8", errors="replace")

    def passage_text(self, pair: PairResult, passage: Passage, *,
                     whole_lines: bool = False) -> tuple[str, str]:
        """The original text of both sides of ``passage``, a passage of ``pair``:
        ``(text in pair.a, text in pair.b)``, as :meth:`region_text` gives it."""
        return (self.region_text(pair.a, passage.a, whole_lines=whole_lines),
                self.region_text(pair.b, passage.b, whole_lines=whole_lines))

    def submission(self, name: str) -> Submission:
        """The submission called ``name`` (``KeyError`` if unknown)."""
        for sub in self.submissions:
            if sub.name == name:
                return sub
        raise KeyError(name)
