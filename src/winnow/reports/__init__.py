"""Reports: every command's result written as something to read.

:mod:`winnow.reports.writers` is the registry: a result type and a format
name (``table``, ``csv``, ``json``, ``jsonl``) give the writer, and every
command's output goes through its :func:`~winnow.reports.writers.write`.
Writers read the results of the stages below (the comparison's model, the
index's figures, sif's query, groups, dircmp and dedup results), never the
engine's internals.  :mod:`winnow.reports.html` writes the self-contained,
offline HTML report of a comparison.
"""

from __future__ import annotations
