"""The writer registry: a result type and a format name give the function that writes it.

Every command computes its result and hands it to :func:`write` with the
user's ``--format`` and output stream; nothing else chooses a layout.
:data:`WRITERS` is the one place a format is registered: for each result type
(by its import path), each format's writer, a function ``(result, out)``
named ``"module:function"``; a writer may take options as keywords too
(:func:`write` passes them).  Names rather than objects, so that a writer and
its result type are imported only when something is written: ``winnow
languages`` loads neither numpy nor DuckDB.

A format whose writer produces bytes (Parquet, say) is also named in
:data:`BINARY_FORMATS`; its writer gets the byte stream under the text
stream (``out.buffer``), after the text written so far is flushed.

To add a format: write ``write_<format>(result, out)`` beside the result
type's other writers in ``winnow.reports`` and add its line to
:data:`WRITERS`; ``tests/unit/test_writers.py`` checks every entry resolves.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, BinaryIO, Final, TextIO, cast

#: A writer: the result and where it goes (a text stream, or a byte stream for
#: the :data:`BINARY_FORMATS`), then its options, if it has any, as keywords.
Writer = Callable[..., None]

_SIF = "winnow.reports.sif"
_FILES = "winnow.reports.sif_changes"
_DOCS = "winnow.reports.documents"
_LISTS = "winnow.reports.listings"


def _standard(module: str, stem: str) -> dict[str, str]:
    """``table``, ``csv``, ``json`` and ``jsonl`` by ``module:<stem>_<format>``."""
    return {fmt: f"{module}:{stem}_{fmt}" for fmt in ("table", "csv", "json", "jsonl")}


#: Result type (``module.Class``) -> format name -> writer (``module:function``).
WRITERS: Final[dict[str, dict[str, str]]] = {
    # winnow compare
    "winnow.matching.model.ComparisonResult": {
        "table": "winnow.reports.table:write_table",
        "csv": "winnow.reports.csv:write_csv",
        "json": "winnow.reports.json:write_json",
        "jsonl": "winnow.reports.json:write_jsonl",
    },
    # winnow evaluate
    "winnow.reports.evaluation.EvaluationSummary":
        _standard("winnow.reports.evaluation", "evaluation"),
    # winnow index --info, query, groups (and scan), dircmp, dedup
    "winnow.index.store.IndexInfo": _standard(_SIF, "info"),
    f"{_SIF}.QueryReport": _standard(_SIF, "query"),
    "winnow.sif.groups.GroupsResult": _standard(_SIF, "groups"),
    f"{_FILES}.DircmpView": _standard(_FILES, "dircmp"),
    "winnow.sif.dedup.DedupResult": _standard(_FILES, "dedup"),
    # winnow tokens, fingerprint
    f"{_DOCS}.TokenListing": _standard(_DOCS, "tokens"),
    f"{_DOCS}.FingerprintListing": _standard(_DOCS, "fingerprints"),
    # winnow languages, experiments
    f"{_LISTS}.LanguageListing": _standard(_LISTS, "languages"),
    f"{_LISTS}.ExperimentFigures": _standard(_LISTS, "figures"),
    # winnow dedup (records of text corpora)
    "winnow.reports.dedup.DedupRows": {
        **_standard("winnow.reports.dedup", "rows"),
        "parquet": "winnow.reports.dedup:rows_parquet",
    },
    # winnow contamination
    "winnow.reports.contamination.ContaminationRows":
        _standard("winnow.reports.contamination", "rows"),
    # winnow dedup --passages
    "winnow.reports.passages.PassageRows": _standard("winnow.reports.passages", "passages"),
}

#: Formats whose writers write bytes (to ``out.buffer``).
BINARY_FORMATS: Final[frozenset[str]] = frozenset({"parquet"})


def _type_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _entry(result_type: type) -> tuple[str, dict[str, str]]:
    """The registered name and formats of ``result_type`` or its nearest base."""
    for cls in result_type.__mro__:
        formats = WRITERS.get(_type_name(cls))
        if formats is not None:
            return _type_name(cls), formats
    raise ValueError(f"no writer is registered for {_type_name(result_type)}")


def formats(result_type: type) -> tuple[str, ...]:
    """The format names registered for ``result_type``."""
    return tuple(_entry(result_type)[1])


def writer(result_type: type, fmt: str) -> Writer:
    """The writer of ``result_type`` in ``fmt`` (imported now); :class:`ValueError`
    when there is none."""
    name, known = _entry(result_type)
    target = known.get(fmt)
    if target is None:
        raise ValueError(f"{name} has no format {fmt!r} (it has {', '.join(known)})")
    module, _, function = target.partition(":")
    return cast(Writer, getattr(importlib.import_module(module), function))


def write(result: object, fmt: str, out: TextIO, **options: Any) -> None:
    """Write ``result`` to ``out`` in the format named ``fmt``; ``options``
    go to the writer as keywords (``columns`` of the comparison CSV)."""
    write_result = writer(type(result), fmt)
    if fmt not in BINARY_FORMATS:
        write_result(result, out, **options)
        return
    raw: BinaryIO | None = getattr(out, "buffer", None)
    if raw is None:
        raise ValueError(f"the {fmt} format writes bytes: give it a file, not {out!r}")
    out.flush()
    write_result(result, raw, **options)
    raw.flush()
