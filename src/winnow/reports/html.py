"""The self-contained HTML report of ``winnow compare --report``.

One offline page (``--report FILE.html``) or a folder (``--report DIR``: ``index.html``
plus one page per pair under ``pairs/``), openable from disk: every style and script is
inline, and a Content-Security-Policy forbids loading anything else.  The overview is a
pairs table to triage (sorted, filtered and marked in the browser), the similarity
histogram of all pairs, the clusters, a graph of the strong links and each
submission's strongest partners; each pair has MOSS's side-by-side view, where each
passage has its own colour and clicking a passage scrolls its counterpart into view.

Submissions are untrusted.  Everything shown goes through Jinja2 with autoescape on;
no submission text is ever placed inside ``<script>``; the script reads the report's
own ``data-*`` attributes and form fields and writes text only (never markup); and the
policy allows only the report's own inline script and stylesheet (by hash), so
injected markup could run nothing even if escaping failed.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

import winnow
from winnow.errors import ReportError
from winnow.matching.model import ComparisonResult
from winnow.outputs import atomic_binary
from winnow.parallel import Progress
from winnow.reports.histogram import histogram
from winnow.reports.html_overview import overview, report_id
from winnow.reports.html_view import (
    LineCache,
    Namer,
    PairRow,
    PairView,
    pair_row,
    pair_view,
    split_lines,
    visible_name,
)

#: Parameters shown in the overview, in order, when present: (key, label).
SHOWN_CONFIG = (("k", "k"), ("t", "t"), ("method", "method"))
SHOWN_PARAMETERS = (
    ("frontend", "front-end"), ("similarity", "ranked by"),
    ("max_occurrences_resolved", "-m"), ("top", "top"), ("min_similarity", "min similarity"),
    ("cluster_threshold", "cluster threshold"), ("cross_language", "across languages"),
)
_PAIR_PAGE = re.compile(r"pair-[0-9]+\.html")
_MOSS_PAGE = re.compile(r"match[0-9]+\.html")


def moss_page(rank: int) -> str:
    """The page of the pair ranked ``rank`` (1-based) in a report written with
    ``moss_names``: MOSS's own name, ``matchN.html`` with N = rank - 1."""
    return f"match{rank - 1}.html"


@dataclass(frozen=True)
class _Assets:
    css: Markup
    js: Markup
    csp: str


def _sha256(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


@cache
def _assets() -> _Assets:
    """The inline stylesheet and script, and the policy that allows exactly those."""
    folder = resources.files("winnow.reports") / "templates"
    css = (folder / "report.css").read_text(encoding="utf-8")
    js = (folder / "report.js").read_text(encoding="utf-8")
    for text in (css, js):
        if "</" in text:  # would end the inline element early
            raise AssertionError("report assets must not contain '</'")
    csp = (f"default-src 'none'; script-src {_sha256(js)}; style-src {_sha256(css)}; "
           "img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none'; "
           "object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'")
    return _Assets(Markup(css), Markup(js), csp)


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("winnow.reports", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _parameters(result: ComparisonResult) -> list[tuple[str, str]]:
    shown = [(label, result.config[key]) for key, label in SHOWN_CONFIG if key in result.config]
    shown += [(label, result.parameters[key]) for key, label in SHOWN_PARAMETERS
              if result.parameters.get(key) is not None]
    return [(label, _shown(value)) for label, value in shown]


def _shown(value: Any) -> str:
    """A parameter as the header shows it (``cross_language``'s note in words)."""
    if isinstance(value, dict) and "alphabet" in value:
        return (f"{', '.join(map(str, value.get('languages', ())))} in the alphabet "
                f"{value['alphabet']} ({value.get('frontend', 'structural')} front-end)")
    return str(value)


def _common(namer: Namer, home: str, single: bool, report: str) -> dict[str, Any]:
    assets = _assets()
    return {
        "css": assets.css, "js": assets.js, "csp": assets.csp,
        "version": winnow.__version__, "anonymized": namer.anonymized, "home": home,
        "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "body_class": "single" if single else "paged", "report_id": report,
    }


def _overview(result: ComparisonResult, namer: Namer, single: bool,
              moss_names: bool = False) -> dict[str, Any]:
    threshold = result.parameters.get("cluster_threshold")
    rows = [pair_row(namer, p, i, single) for i, p in enumerate(result.pairs, 1)]
    if moss_names:
        rows = [replace(r, href=moss_page(r.rank)) for r in rows]
    over = overview(result, namer, rows)
    rows = [replace(r, cluster=over.cluster_of.get(r.a))
            if over.cluster_of.get(r.a) == over.cluster_of.get(r.b) else r for r in rows]
    if namer.anonymized:  # paths, and reasons quoting them, name people: keep the count
        issues = [("skipped" if i.skipped else "note") + " (path and reason hidden by --anonymize)"
                  for i in result.issues]
    else:
        issues = [visible_name(str(i)) for i in result.issues]
    return {
        "n_submissions": len(result.submissions),
        "shared": _shared_code(result, namer),
        "shared_by": result.parameters.get("shared_by_many"),
        "rows": rows, "report_id": report_id(result, rows),
        "clusters": over.clusters, "submissions": over.submissions, "graph": over.graph,
        "issues": issues, "skipped": result.skipped,
        "parameters": _parameters(result),
        "hist": histogram([p.similarity for p in result.pairs],
                          threshold=threshold if isinstance(threshold, float | int) else None,
                          all_counts=result.histogram),
    }


def _shared_code(result: ComparisonResult, namer: Namer) -> list[dict[str, Any]]:
    """The "code many submissions share" section: each piece's text, where, who."""
    out = []
    for shared in result.shared_code:
        holder = shared.submissions[0]
        try:
            text = result.region_text(holder, shared.region, whole_lines=True)
        except KeyError:  # its document was not kept
            text = ""
        out.append({"count": len(shared.submissions), "ignored": shared.ignored,
                    "as_base": shared.as_base, "fingerprints": shared.fingerprints,
                    "names": [namer.submission(n) for n in shared.submissions],
                    "where": f"{namer.submission(holder)} / "
                             f"{namer.file(holder, shared.region.file)}",
                    "lines": "{}–{}".format(*shared.region.lines),
                    "text": "\n".join(split_lines(text))})
    return out


def _pair_views(result: ComparisonResult, namer: Namer, rows: list[PairRow], single: bool,
                progress: Progress | None, moss_names: bool = False) -> Iterator[PairView]:
    """Each pair with passages, linked to its neighbours and to its row in the overview."""
    total = len(result.pairs)
    cache: LineCache = {}
    ranks = [r.rank for r in rows if r.computed]
    if moss_names:
        page, back = moss_page, "index.html#row-{}".format
    else:
        page = ("#pair-{}" if single else "pair-{}.html").format
        back = ("#row-{}" if single else "../index.html#row-{}").format
    for at, rank in enumerate(ranks):
        view = pair_view(result, namer, result.pairs[rank - 1], rank, single, cache)
        yield replace(view, row=rows[rank - 1], back=back(rank),
                      prev=page(ranks[at - 1]) if at > 0 else None,
                      next=page(ranks[at + 1]) if at + 1 < len(ranks) else None)
        if progress is not None:
            progress("report", rank, total)
    if progress is not None and total:
        progress("report", total, total)


def _write(path: Path, template: str, context: dict[str, Any]) -> None:
    """Render ``template`` into ``path`` atomically (a temporary file, then rename;
    a new page gets the mode the umask allows, a replaced one keeps its own)."""
    with atomic_binary(path) as out:
        _environment().get_template(template).stream(**context).dump(out, "utf-8")


def is_single_file(path: Path) -> bool:
    """``--report`` names one file when it ends in ``.html``/``.htm`` and is no folder."""
    return path.suffix.lower() in (".html", ".htm") and not path.is_dir()


def write_report(
    result: ComparisonResult,
    path: str | os.PathLike[str],
    *,
    anonymize: bool = False,
    key: bytes | None = None,
    progress: Progress | None = None,
    moss_names: bool = False,
) -> Path:
    """Write the HTML report of ``result`` to ``path``; return the page to open.

    ``path`` ending in ``.html`` gives one file holding every pair; anything else is a
    folder that receives ``index.html`` and ``pairs/pair-N.html`` (N = rank), the
    better choice for many pairs of large files.  ``anonymize`` replaces submission
    and file names with stable pseudonyms (:mod:`winnow.reports.anonymize`, keyed by
    ``key``).  ``progress("report", done, total)`` is called after each pair.
    ``moss_names`` (a folder only; what ``winnow serve`` writes) names the pair pages
    as MOSS does, ``matchN.html`` beside ``index.html`` (N = rank - 1), so that MOSS
    clients that download a report (``mosspy.download_report``) find every page.
    Raises :class:`ReportError` when the report cannot be written.
    """
    target = Path(path)
    namer = Namer(result, anonymize, key)
    single = is_single_file(target)
    moss_names = moss_names and not single
    overview_context = _overview(result, namer, single, moss_names)
    rows = overview_context["rows"]
    rid = overview_context["report_id"]
    try:
        if single:
            target.parent.mkdir(parents=True, exist_ok=True)
            context = _common(namer, "#overview", True, rid) | overview_context
            context["pairs"] = _pair_views(result, namer, rows, True, progress)
            _write(target, "index.html.j2", context)
            return target
        pages = target if moss_names else target / "pairs"
        pages.mkdir(parents=True, exist_ok=True)
        for old in pages.iterdir():  # pages of an earlier report with more pairs
            if (_MOSS_PAGE if moss_names else _PAIR_PAGE).fullmatch(old.name):
                old.unlink()
        common = _common(namer, "index.html" if moss_names else "../index.html", False, rid)
        for view in _pair_views(result, namer, rows, False, progress, moss_names):
            name = moss_page(view.row.rank) if moss_names else f"{view.row.anchor}.html"
            _write(pages / name, "pair.html.j2", common | {"pair": view})
        index = target / "index.html"
        context = _common(namer, "index.html", False, rid) | overview_context
        _write(index, "index.html.j2", context | {"pairs": []})
        return index
    except OSError as exc:  # named as the user gave it; the file that failed, if another
        given = os.fspath(path)
        reason = exc.strerror or str(exc)
        if exc.filename is not None and os.fspath(exc.filename) != given:
            reason += f" ({os.fspath(exc.filename)})"
        raise ReportError(given, reason) from exc
