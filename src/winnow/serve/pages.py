"""A job's report on disk: pages kept gzip-compressed, served as they are asked for.

A worker writes the report with MOSS's page names (``index.html`` and
``matchN.html`` side by side, N = rank - 1), then :func:`compress_report`
replaces each page by ``PAGE.gz``: every pair page repeats the report's inline
stylesheet and script (about 32 kB) and much of its text, so a small job's report
shrinks about tenfold.  :func:`read_page` gives a page back compressed to clients
that accept gzip (browsers) and decompressed to the others (``urllib``, hence
``mosspy``), so what a client receives is the page that was written.  Reports
written before (plain ``index.html`` and ``pairs/pair-N.html``) are still read.
"""

from __future__ import annotations

import gzip
import os
import re
from pathlib import Path

_MOSS_PAGE = re.compile(r"match([0-9]+)\.html")
_OLD_PAGE = re.compile(r"pair-([0-9]+)\.html")
_LEVEL = 6


def compress_file(path: Path) -> Path:
    """Replace ``path`` by ``path.gz`` (written first, so one of the two is always
    whole); return the new path."""
    packed = path.with_name(path.name + ".gz")
    tmp = path.with_name(path.name + ".gz.tmp")
    with open(path, "rb") as source, open(tmp, "wb") as raw, \
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=_LEVEL,
                          mtime=0) as out:
        while chunk := source.read(1 << 20):
            out.write(chunk)
    os.replace(tmp, packed)
    path.unlink()
    return packed


def compress_report(folder: Path) -> None:
    """Compress every ``.html`` page under ``folder`` (in the worker, off the loop)."""
    for path in sorted(folder.rglob("*.html")):
        compress_file(path)


def page_names(name: str) -> list[str]:
    """Where the page asked for as ``name`` may be kept under the report folder,
    newest layout first: ``index.html``, ``matchN.html``, or the old
    ``pairs/pair-N.html`` (also answered from ``matchN.html``).  Empty for a name
    that is no page."""
    if name == "index.html" or _MOSS_PAGE.fullmatch(name):
        return [name]
    old = _OLD_PAGE.fullmatch(name)
    if old and int(old.group(1)) > 0:
        return [f"match{int(old.group(1)) - 1}.html", f"pairs/{name}"]
    return []


def accepts_gzip(header: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header allows gzip (``gzip;q=0`` refuses it)."""
    for part in (header or "").split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() not in ("gzip", "x-gzip", "*"):
            continue
        quality = params.strip().lower()
        if quality.startswith("q="):
            try:
                return float(quality[2:]) > 0
            except ValueError:
                return False
        return True
    return False


def read_page(folder: Path, name: str, gzip_ok: bool) -> tuple[bytes, bool] | None:
    """The page ``name`` of the report in ``folder`` and whether it is gzip-encoded
    (only when ``gzip_ok``); ``None`` when there is no such page.  Blocking."""
    for relative in page_names(name):
        path = folder / relative
        try:
            packed = path.with_name(path.name + ".gz").read_bytes()
        except FileNotFoundError:
            pass
        else:
            return (packed, True) if gzip_ok else (gzip.decompress(packed), False)
        try:
            return path.read_bytes(), False
        except FileNotFoundError:
            continue
    return None


def report_files(folder: Path) -> list[tuple[str, bytes]]:
    """Every file of the report in ``folder`` as (name in the report, content),
    compressed pages decompressed (for the report's archive).  Blocking."""
    out = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.name.endswith(".tmp"):
            continue
        name = path.relative_to(folder).as_posix()
        if name.endswith(".html.gz"):
            out.append((name[:-3], gzip.decompress(path.read_bytes())))
        else:
            out.append((name, path.read_bytes()))
    return out
