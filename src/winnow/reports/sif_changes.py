"""Output of ``winnow dircmp`` and ``winnow dedup``: folders compared, duplicates acted on.

Each result has a table, CSV, JSON and JSON Lines writer, registered in
:mod:`winnow.reports.writers`.  CSV headers are a stable contract
(documented in ``docs/sif.md``):

* dircmp: ``status,path_a,path_b,similarity,size_a,size_b``
* dedup:  ``group,action,path,size,status,freed,reason``

CSV and JSON Lines have the rows only; JSON has the totals too; the table
escapes paths (:func:`winnow.reports.table.safe`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, TextIO

from winnow.reports.numbers import percent, share
from winnow.reports.rows import write_csv_rows, write_json_listing, write_jsonl_rows
from winnow.reports.sif import human_bytes
from winnow.reports.table import safe
from winnow.sif.dedup import DedupResult
from winnow.sif.dircmp import DirComparison, DirEntry

DIRCMP_COLUMNS = ("status", "path_a", "path_b", "similarity", "size_a", "size_b")
DEDUP_COLUMNS = ("group", "action", "path", "size", "status", "freed", "reason")


# -- dircmp -------------------------------------------------------------------------

@dataclass(frozen=True)
class DircmpView:
    """``winnow dircmp``: the comparison and how much of it to show.

    ``changes_only``: every row but ``identical`` ones (like ``diff -rq``);
    ``summary_lines``: the table's closing summary (CSV and JSON Lines have
    rows only, JSON has both).
    """

    result: DirComparison
    changes_only: bool = False
    summary_lines: bool = True

    def entries(self) -> list[DirEntry]:
        return [e for e in self.result.entries
                if not (self.changes_only and e.status == "identical")]


def share_text(value: float) -> str:
    """A similarity (a fraction) for a table: ``100%`` only when it is 1, otherwise
    one decimal rounded down, so 0.9996 reads ``99.9%``, never ``100%``."""
    return "100%" if value >= 1.0 else percent(value, 1)


def _dircmp_rows(view: DircmpView) -> list[dict[str, Any]]:
    return [{"status": e.status, "path_a": e.path_a, "path_b": e.path_b,
             "similarity": share(e.similarity), "size_a": e.size_a, "size_b": e.size_b}
            for e in view.entries()]


def dircmp_csv(view: DircmpView, out: TextIO) -> None:
    write_csv_rows(_dircmp_rows(view), DIRCMP_COLUMNS, out)


def dircmp_jsonl(view: DircmpView, out: TextIO) -> None:
    write_jsonl_rows(_dircmp_rows(view), out)


def dircmp_json(view: DircmpView, out: TextIO) -> None:
    result = view.result
    summary = {"dir_a": result.dir_a, "dir_b": result.dir_b, "files_a": result.files_a,
               "files_b": result.files_b, "counts": result.counts(),
               "resemblance": share(result.resemblance), "a_in_b": share(result.a_in_b),
               "b_in_a": share(result.b_in_a)}
    write_json_listing(summary, "entries", _dircmp_rows(view), out)


_ARROWS = {"renamed": "->", "copied": "=>", "similar": "~>"}


def _dircmp_line(e: DirEntry) -> str:
    a, b = safe(e.path_a or ""), safe(e.path_b or "")
    if e.status in ("only-a", "only-b"):
        return f"{e.status:<9} {a or b}\n"
    if e.status == "identical":
        return f"{e.status:<9} {a}\n"
    if e.status == "modified":
        return f"{e.status:<9} {a} ({share_text(e.similarity)} similar)\n"
    return f"{e.status:<9} {a} {_ARROWS[e.status]} {b} ({share_text(e.similarity)})\n"


def dircmp_table(view: DircmpView, out: TextIO) -> None:
    out.write("".join(map(_dircmp_line, view.entries())))
    if not view.summary_lines:
        return
    result = view.result
    counts = ", ".join(f"{v} {k}" for k, v in sorted(result.counts().items()))
    out.write(f"\n{safe(result.dir_a)}: {result.files_a} files; {safe(result.dir_b)}: "
              f"{result.files_b} files; {counts or 'nothing to compare'}\n")
    out.write(f"Folder similarity {percent(result.resemblance, 1)} (resemblance of "
              f"fingerprint sets); A found in B {percent(result.a_in_b, 1)}, B found "
              f"in A {percent(result.b_in_a, 1)}\n")


# -- dedup --------------------------------------------------------------------------

def _dedup_rows(result: DedupResult) -> list[dict[str, Any]]:
    return [{"group": r.group, "action": r.action, "path": r.path, "size": r.size,
             "status": r.status, "freed": r.freed, "reason": r.reason} for r in result.rows]


def dedup_csv(result: DedupResult, out: TextIO) -> None:
    write_csv_rows(_dedup_rows(result), DEDUP_COLUMNS, out)


def dedup_jsonl(result: DedupResult, out: TextIO) -> None:
    write_jsonl_rows(_dedup_rows(result), out)


def dedup_json(result: DedupResult, out: TextIO) -> None:
    head = {"options": asdict(result.options), "groups": result.groups,
            "freed": result.freed, "skipped": len(result.skipped)}
    write_json_listing(head, "files", _dedup_rows(result), out)


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


def dedup_table(result: DedupResult, out: TextIO) -> None:
    """Every file of every identical group with what happened to it, and totals."""
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
