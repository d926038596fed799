"""Output of ``winnow index --info``, ``query`` and ``groups`` (and ``scan``).

Each result has a table (sif's own layouts), CSV, JSON and JSON Lines
writer, registered in :mod:`winnow.reports.writers`.  CSV headers are a
stable contract (documented in ``docs/sif.md``):

* query:  ``query,match,contained,contains,shared,size,identical,...``
* groups: ``group,kind,path,similarity,size,...``

Paths in tables are escaped (:func:`winnow.reports.table.safe`: control and
format characters shown as ``\\xNN``/``\\uNNNN``) so a file name cannot forge
output lines; CSV and JSON quote by their own rules.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, TextIO

from winnow.index.store import IndexInfo
from winnow.reports.numbers import percent, share, whole_percent
from winnow.reports.rows import write_csv_rows, write_json_listing, write_jsonl_rows
from winnow.reports.table import safe
from winnow.sif.groups import Group, GroupsResult, Member
from winnow.sif.query import QueryResult

QUERY_COLUMNS = ("query", "match", "contained", "contains", "shared", "size", "identical",
                 "query_size", "sif_similarity", "query_fingerprints", "match_fingerprints")
GROUP_COLUMNS = ("group", "kind", "path", "similarity", "size", "reference")
#: Columns of ``winnow index --info --format csv`` (``params``: a JSON object).
INFO_COLUMNS = ("path", "documents", "fingerprints", "bytes_indexed", "index_bytes",
                "share_of_corpus", "params")


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


def info_table(info: IndexInfo, out: TextIO) -> None:
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
    out.write("".join(f"{label + ':':<16}{value}\n" for label, value in lines))


def _info_record(info: IndexInfo) -> dict[str, Any]:
    return {**asdict(info), "share_of_corpus": share(info.percent_of_corpus / 100, 6)}


def info_csv(info: IndexInfo, out: TextIO) -> None:
    write_csv_rows([{**_info_record(info), "params": json.dumps(info.params)}], INFO_COLUMNS,
                   out)


def info_json(info: IndexInfo, out: TextIO) -> None:
    out.write(json.dumps(_info_record(info), indent=2) + "\n")


def info_jsonl(info: IndexInfo, out: TextIO) -> None:
    write_jsonl_rows([_info_record(info)], out)


# -- query --------------------------------------------------------------------------

@dataclass(frozen=True)
class QueryReport:
    """``winnow query``: each query file's matches, at ``threshold`` (a fraction)."""

    results: list[QueryResult]
    threshold: float


def query_rows(results: Iterable[QueryResult]) -> Iterable[dict[str, Any]]:
    for result in results:
        for m in result.matches:
            yield {
                "query": m.query, "match": m.match, "contained": share(m.contained),
                "contains": share(m.contains), "shared": m.shared, "size": m.size,
                "identical": m.identical, "query_size": result.size,
                "sif_similarity": share(m.sif_similarity),
                "query_fingerprints": result.distinct, "match_fingerprints": m.match_fingerprints,
            }


def _best_excluded(result: QueryResult) -> dict[str, Any] | None:
    """The best file the threshold left out (JSON), when nothing passed it."""
    best = result.best_excluded
    if result.matches or best is None:
        return None
    return {"match": best.match, "contained": share(best.contained),
            "contains": share(best.contains), "shared": best.shared}


def query_csv(report: QueryReport, out: TextIO) -> None:
    rows = ({**row, "identical": str(row["identical"]).lower()}
            for row in query_rows(report.results))
    write_csv_rows(rows, QUERY_COLUMNS, out)


def query_json(report: QueryReport, out: TextIO) -> None:
    docs = [{"query": r.query, "size": r.size, "fingerprints": r.fingerprints,
             "distinct": r.distinct, "matches": list(query_rows([r])),
             "best_excluded": _best_excluded(r)} for r in report.results]
    json.dump({"threshold": report.threshold, "queries": docs}, out, indent=2)
    out.write("\n")


def query_jsonl(report: QueryReport, out: TextIO) -> None:
    write_jsonl_rows(query_rows(report.results), out)


def query_table(report: QueryReport, out: TextIO) -> None:
    for r in report.results:
        out.write(f"== {safe(r.query)}: {r.size} bytes, {r.distinct} fingerprints; "
                  f"{len(r.matches)} file(s) at >= {100.0 * report.threshold:g}%\n")
        if not r.matches:
            continue
        out.write(f"{'contained':>9} {'contains':>8} {'shared':>6} {'size':>10} "
                  f"{'identical':>9}  path\n")
        for m in r.matches:
            out.write(f"{percent(m.contained, 1):>9} {percent(m.contains, 1):>8} "
                      f"{m.shared:>6} "
                      f"{m.size:>10} {'yes' if m.identical else 'no':>9}  {safe(m.match)}\n")


# -- groups -------------------------------------------------------------------------

def reclaimable(group: Group) -> int:
    """Bytes an identical group frees when all copies but one go."""
    return group.members[0].size * (len(group.members) - 1) if group.kind == "identical" else 0


def _member(m: Member) -> dict[str, Any]:
    return {"path": m.path, "similarity": share(m.similarity), "size": m.size,
            "reference": m.reference}


def _group_doc(g: Group) -> dict[str, Any]:
    doc = {"group": g.number, "kind": g.kind, "members": [_member(m) for m in g.members]}
    return {**doc, "reclaimable": reclaimable(g)} if g.kind == "identical" else doc


def _all_groups(result: GroupsResult) -> list[Group]:
    return [*result.identical, *result.similar, *(result.interesting or [])]


def groups_csv(result: GroupsResult, out: TextIO) -> None:
    rows = ({"group": g.number, "kind": g.kind, "path": m.path,
             "similarity": share(m.similarity), "size": m.size,
             "reference": str(m.reference).lower()}
            for g in _all_groups(result) for m in g.members)
    write_csv_rows(rows, GROUP_COLUMNS, out)


def groups_jsonl(result: GroupsResult, out: TextIO) -> None:
    write_jsonl_rows(map(_group_doc, _all_groups(result)), out)


def groups_json(result: GroupsResult, out: TextIO) -> None:
    options = asdict(result.options)
    head = {"options": options, "documents": result.documents,
            "counts": {"identical": len(result.identical), "similar": len(result.similar),
                       "interesting": len(result.interesting or [])},
            "reclaimable": sum(map(reclaimable, result.identical))}
    write_json_listing(head, "groups", map(_group_doc, _all_groups(result)), out)


def _sif_block(out: TextIO, groups: list[Group]) -> None:
    """sif's Figure 3: ``R100 path size`` then ``  NN path size`` per member
    (and, for identical files, the bytes reclaimable)."""
    for g in groups:
        for m in g.members:
            tag = "R100" if m.reference else f"{whole_percent(m.similarity):>4}"
            out.write(f"{tag} {safe(m.path)} {m.size}\n")
        if g.kind == "identical":
            out.write(f"     {human_bytes(reclaimable(g))} reclaimable\n")
        out.write("\n")


def groups_table(result: GroupsResult, out: TextIO) -> None:
    total = sum(map(reclaimable, result.identical))
    threshold = 100.0 * result.options.threshold
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
