"""Benchmark contamination: which evaluation items occur in a corpus (``winnow contamination``).

The items are tokenised (:mod:`~winnow.corpus.contamination.tokens`: words
of the text front-end) and every k-gram of theirs indexed in memory; the
corpus is streamed, its records winnowed, and the hits extended to exact
runs and joined into near-verbatim spans
(:mod:`~winnow.corpus.contamination.spans`); :func:`scan` tallies them per
item (:mod:`~winnow.corpus.contamination.scan`).  Defaults and their
reasons: :mod:`~winnow.corpus.contamination.options`.
"""

from __future__ import annotations

from winnow.corpus.contamination.options import ContaminationSettings
from winnow.corpus.contamination.scan import ContaminationRun, ItemRow, Location, scan

__all__ = ["ContaminationRun", "ContaminationSettings", "ItemRow", "Location", "scan"]
