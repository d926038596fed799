"""Output of the sif commands: table (sif's own layouts), CSV, JSON, JSON Lines.

CSV headers are a stable contract (documented in ``docs/sif.md``):

* query:  ``query,match,contained,contains,shared,size,identical,...``
* groups: ``group,kind,path,similarity,size,...``
* dircmp: ``status,path_a,path_b,similarity,size_a,size_b``
* dedup:  ``group,action,path,size,status,freed,reason``

Paths in tables are escaped (:func:`winnow.reports.table.safe`: control and
format characters shown as ``\\xNN``/``\\uNNNN``) so a file name cannot forge
output lines; CSV and JSON quote by their own rules.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any, TextIO

from winnow.index.store import IndexInfo
from winnow.reports.table import safe
from winnow.sif.dedup import DedupResult
from winnow.sif.dircmp import DirComparison
from winnow.sif.groups import Group, GroupsResult, Member
from winnow.sif.query import QueryResult

QUERY_COLUMNS = ("query", "match", "contained", "contains", "shared", "size", "identical",
                 "query_size", "sif_percent", "query_fingerprints", "match_fingerprints")
GROUP_COLUMNS = ("group", "kind", "path", "similarity", "size", "reference")
DIRCMP_COLUMNS = ("status", "path_a", "path_b", "similarity", "size_a", "size_b")
DEDUP_COLUMNS = ("group", "action", "path", "size", "status", "freed", "reason")


def _json_listing(out: TextIO, head: dict[str, Any], key: str,
                  items: list[dict[str, Any]]) -> None:
    """A JSON object whose ``key`` list has one item per line (fast: C encoder)."""
    text = json.dumps({**head, key: []})
    out.write(text[: -len("[]}")] + "[\n")
    out.write(",\n".join(json.dumps(item) for item in items))
    out.write("\n]}\n")


def _write_rows(rows: list[dict[str, Any]], fmt: str, out: TextIO, columns: tuple[str, ...],
                head: dict[str, Any], key: str) -> bool:
    """Flat ``rows`` as CSV (``columns``), JSON Lines, or JSON (``head`` plus the
    rows under ``key``); False for the table, which each command lays out."""
    if fmt == "csv":
        writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    elif fmt == "jsonl":
        for row in rows:
            out.write(json.dumps(row) + "\n")
    elif fmt == "json":
        _json_listing(out, head, key, rows)
    else:
        return False
    return True


def _pct(value: float) -> str:
    return f"{value:.1f}"


def human_bytes(n: int) -> str:
    """``n`` bytes in decimal units, as ``ls -h --si`` and the summaries write them."""
    size = float(n)
    for unit in ("bytes", "kB", "MB", "GB", "TB"):
        if abs(size) < 1000 or unit == "TB":
            return f"{n} bytes" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1000
    raise AssertionError("unreachable")


# -- index --info -------------------------------------------------------------------

def _params_text(params: dict[str, Any]) -> tuple[str, str]:
    """The fingerprinting parameters and the front-end, in words."""
    config = params.get("config", {})
    words = [f"{config.get('method')} selection", f"k = {config.get('k')}"]
    if config.get("method") != "sif":
        words.append(f"t = {config.get('t')} (window {config.get('w')})")
    words += [f"{name} = {config[name]}" for name in ("bits", "p", "n")
              if config.get(name) is not None]
    words.append(f"seed {config.get('seed')}")
    options = params.get("frontend_options") or {}
    listed = ", ".join(f"{name}={value}" for name, value in sorted(options.items()))
    frontend = f"{params.get('frontend')}" + (f" ({listed})" if listed else "")
    return ", ".join(words), frontend


def info_text(info: IndexInfo) -> str:
    """``winnow index --info`` as a table: one labelled line per figure."""
    per = (f" (one per {info.bytes_indexed / info.fingerprints:.0f} bytes)"
           if info.fingerprints else "")
    lines = [("index", safe(info.path)),
             ("documents", f"{info.documents} ({human_bytes(info.bytes_indexed)} indexed)"),
             ("fingerprints", f"{info.fingerprints}{per}"),
             ("index size", f"{human_bytes(info.index_bytes)}, "
                            f"{info.percent_of_corpus:.2f}% of the corpus")]
    if info.params is None:
        lines.append(("parameters", "none yet (an empty index)"))
    else:
        selection, frontend = _params_text(info.params)
        lines += [("parameters", selection), ("front-end", safe(frontend)),
                  ("format version", str(info.params.get("format_version")))]
    return "".join(f"{label + ':':<16}{value}\n" for label, value in lines)


# -- query --------------------------------------------------------------------------

def query_rows(results: Iterable[QueryResult]) -> Iterable[dict[str, Any]]:
    for result in results:
        for m in result.matches:
            yield {
                "query": m.query, "match": m.match, "contained": round(m.contained, 2),
                "contains": round(m.contains, 2), "shared": m.shared, "size": m.size,
                "identical": m.identical, "query_size": result.size,
                "sif_percent": round(m.sif_percent, 2),
                "query_fingerprints": result.distinct, "match_fingerprints": m.match_fingerprints,
            }


def _best_excluded(result: QueryResult) -> dict[str, Any] | None:
    """The best file the threshold left out (JSON), when nothing passed it."""
    best = result.best_excluded
    if result.matches or best is None:
        return None
    return {"match": best.match, "contained": round(best.contained, 2),
            "contains": round(best.contains, 2), "shared": best.shared}


def write_query(results: list[QueryResult], fmt: str, out: TextIO, threshold: float) -> None:
    if fmt == "csv":
        writer = csv.DictWriter(out, fieldnames=QUERY_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in query_rows(results):
            writer.writerow({**row, "identical": str(row["identical"]).lower()})
        return
    if fmt in ("json", "jsonl"):
        docs = [{"query": r.query, "size": r.size, "fingerprints": r.fingerprints,
                 "distinct": r.distinct, "matches": list(query_rows([r])),
                 "best_excluded": _best_excluded(r)} for r in results]
        if fmt == "json":
            json.dump({"threshold": threshold, "queries": docs}, out, indent=2)
            out.write("\n")
        else:
            for row in query_rows(results):
                out.write(json.dumps(row) + "\n")
        return
    for r in results:
        out.write(f"== {safe(r.query)}: {r.size} bytes, {r.distinct} fingerprints; "
                  f"{len(r.matches)} file(s) at >= {threshold:g}%\n")
        if not r.matches:
            continue
        out.write(f"{'contained':>9} {'contains':>8} {'shared':>6} {'size':>10} "
                  f"{'identical':>9}  path\n")
        for m in r.matches:
            out.write(f"{_pct(m.contained):>8}% {_pct(m.contains):>7}% {m.shared:>6} "
                      f"{m.size:>10} {'yes' if m.identical else 'no':>9}  {safe(m.match)}\n")


# -- groups -------------------------------------------------------------------------

def _group_rows(groups: Iterable[Group]) -> Iterable[dict[str, Any]]:
    for g in groups:
        for m in g.members:
            yield {"group": g.number, "kind": g.kind, "path": m.path,
                   "similarity": round(m.similarity, 2), "size": m.size,
                   "reference": m.reference}


def reclaimable(group: Group) -> int:
    """Bytes an identical group frees when all copies but one go."""
    return group.members[0].size * (len(group.members) - 1) if group.kind == "identical" else 0


def _group_doc(g: Group) -> dict[str, Any]:
    doc = {"group": g.number, "kind": g.kind, "members": [_member(m) for m in g.members]}
    return {**doc, "reclaimable": reclaimable(g)} if g.kind == "identical" else doc


def _member(m: Member) -> dict[str, Any]:
    return {"path": m.path, "similarity": m.similarity, "size": m.size,
            "reference": m.reference}


def _all_groups(result: GroupsResult) -> list[Group]:
    return [*result.identical, *result.similar, *(result.interesting or [])]


def _sif_block(out: TextIO, groups: list[Group]) -> None:
    """sif's Figure 3: ``R100 path size`` then ``  NN path size`` per member
    (and, for identical files, the bytes reclaimable)."""
    for g in groups:
        for m in g.members:
            tag = "R100" if m.reference else f"{int(m.similarity):>4}"
            out.write(f"{tag} {safe(m.path)} {m.size}\n")
        if g.kind == "identical":
            out.write(f"     {human_bytes(reclaimable(g))} reclaimable\n")
        out.write("\n")


def write_groups(result: GroupsResult, fmt: str, out: TextIO) -> None:
    options = asdict(result.options)
    if fmt == "csv":
        writer = csv.DictWriter(out, fieldnames=GROUP_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in _group_rows(_all_groups(result)):
            writer.writerow({**row, "reference": str(row["reference"]).lower()})
        return
    if fmt == "jsonl":
        for g in _all_groups(result):
            out.write(json.dumps(_group_doc(g)) + "\n")
        return
    total = sum(map(reclaimable, result.identical))
    if fmt == "json":
        head = {"options": options, "documents": result.documents,
                "counts": {"identical": len(result.identical), "similar": len(result.similar),
                           "interesting": len(result.interesting or [])},
                "reclaimable": total}
        _json_listing(out, head, "groups", [_group_doc(g) for g in _all_groups(result)])
        return
    threshold = result.options.threshold
    out.write(f"{len(result.identical)} groups of identical files; {human_bytes(total)} "
              f"reclaimable by keeping one copy of each (winnow dedup-files):\n\n")
    _sif_block(out, result.identical)
    out.write(f"The following {len(result.similar)} groups of files are similar. "
              f"Minimum similarity = {threshold:g}%\n\n")
    _sif_block(out, result.similar)
    if result.interesting is not None:
        out.write(f"{len(result.interesting)} interesting sets: every two members share at "
                  f"least {threshold:g}% of the smaller file's fingerprints; each row gives "
                  f"its share with the reference R100, of the smaller file:\n\n")
        _sif_block(out, result.interesting)


# -- dircmp -------------------------------------------------------------------------

def share_text(value: float) -> str:
    """A similarity for a table: ``100%`` only when it is 100, otherwise one
    decimal rounded down, so 99.96 reads ``99.9%``, never ``100%``."""
    return "100%" if value >= 100.0 else f"{math.floor(value * 10) / 10:.1f}%"


def _floor2(value: float) -> float:
    """Two decimals for CSV/JSON, rounded down below 100 (never shown as 100)."""
    return value if value >= 100.0 else math.floor(value * 100) / 100


def write_dircmp(result: DirComparison, fmt: str, out: TextIO, *, changes_only: bool = False,
                 summary_lines: bool = True) -> None:
    """The rows (all, or with ``changes_only`` all but ``identical``, like
    ``diff -rq``) and, unless ``summary_lines`` is false, the table's closing
    summary; CSV and JSON Lines have rows only, JSON has both."""
    summary = {"dir_a": result.dir_a, "dir_b": result.dir_b, "files_a": result.files_a,
               "files_b": result.files_b, "counts": result.counts(),
               "resemblance": round(result.resemblance, 2), "a_in_b": round(result.a_in_b, 2),
               "b_in_a": round(result.b_in_a, 2)}
    entries = [e for e in result.entries if not (changes_only and e.status == "identical")]
    rows = [{"status": e.status, "path_a": e.path_a, "path_b": e.path_b,
             "similarity": _floor2(e.similarity), "size_a": e.size_a, "size_b": e.size_b}
            for e in entries]
    if _write_rows(rows, fmt, out, DIRCMP_COLUMNS, summary, "entries"):
        return
    arrows = {"renamed": "->", "copied": "=>", "similar": "~>"}
    for e in entries:
        a, b = safe(e.path_a or ""), safe(e.path_b or "")
        if e.status in ("only-a", "only-b"):
            out.write(f"{e.status:<9} {a or b}\n")
        elif e.status == "identical":
            out.write(f"{e.status:<9} {a}\n")
        elif e.status == "modified":
            out.write(f"{e.status:<9} {a} ({share_text(e.similarity)} similar)\n")
        else:
            out.write(f"{e.status:<9} {a} {arrows[e.status]} {b} "
                      f"({share_text(e.similarity)})\n")
    if summary_lines:
        counts = ", ".join(f"{v} {k}" for k, v in sorted(result.counts().items()))
        out.write(f"\n{safe(result.dir_a)}: {result.files_a} files; {safe(result.dir_b)}: "
                  f"{result.files_b} files; {counts or 'nothing to compare'}\n")
        out.write(f"Folder similarity {result.resemblance:.1f}% (resemblance of fingerprint "
                  f"sets); A found in B {result.a_in_b:.1f}%, B found in A "
                  f"{result.b_in_a:.1f}%\n")


# -- dedup --------------------------------------------------------------------------

def _dedup_summary(result: DedupResult) -> str:
    options = result.options
    acted = sum(1 for r in result.rows if r.status in ("planned", "done"))
    verb = {"list": "to delete", "link": "to hard-link", "delete": "to delete"}[options.action]
    if options.apply:
        text = (f"{result.groups} groups: {acted} duplicates "
                f"{'deleted' if options.action == 'delete' else 'hard-linked'}, "
                f"{human_bytes(result.freed)} freed")
    else:
        text = (f"{result.groups} groups: {acted} duplicates {verb}, "
                f"{human_bytes(result.freed)} reclaimable")
        if options.action != "list":
            text += "; dry run, nothing was changed (--apply acts)"
    skipped = len(result.skipped)
    return text + (f"; {skipped} skipped" if skipped else "")


def write_dedup(result: DedupResult, fmt: str, out: TextIO) -> None:
    """Every file of every identical group with what happened to it, and totals."""
    rows = [{"group": r.group, "action": r.action, "path": r.path, "size": r.size,
             "status": r.status, "freed": r.freed, "reason": r.reason} for r in result.rows]
    head = {"options": asdict(result.options), "groups": result.groups,
            "freed": result.freed, "skipped": len(result.skipped)}
    if _write_rows(rows, fmt, out, DEDUP_COLUMNS, head, "files"):
        return
    group = 0
    for r in result.rows:
        if r.group != group:
            group = r.group
            members = [x for x in result.rows if x.group == group]
            freed = human_bytes(sum(x.freed for x in members))
            out.write(f"{'' if group == 1 else chr(10)}group {group}: {len(members)} copies "
                      f"of {r.size} bytes, {freed} "
                      f"{'freed' if result.options.apply else 'reclaimable'}\n")
        status = "" if r.status in ("kept", "planned") else f"  ({r.status}"
        status += f": {r.reason})" if r.reason else (")" if status else "")
        out.write(f"  {r.action:<9} {safe(r.path)}{safe(status)}\n")
    out.write(f"\n{_dedup_summary(result)}\n")
