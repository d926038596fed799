"""Reports: turn a :class:`~winnow.matching.model.ComparisonResult` into something to read.

Reports consume the result model only (never the index or the engine).
:mod:`winnow.reports.html` writes the self-contained, offline HTML report.
"""

from __future__ import annotations
