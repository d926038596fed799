"""The real-HTML corpus of experiments 2 and 4: pages read through the HTML front-end.

Default: the HTML documentation of Debian's ``python3.11-doc`` package
(``scripts/experiments-corpus.sh`` installs it); any folder of ``.html`` /
``.htm`` pages can be given instead.  Tags, comments, scripts and whitespace
are removed as in the paper (section 5.1, "non-whitespace, non-tag
characters"); case and punctuation are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from winnow.errors import InputError
from winnow.fileio import read_regular
from winnow.frontends.html import html_stream
from winnow.frontends.options import FrontEndOptions
from winnow.frontends.sniff import decode, sniff

#: Where ``scripts/experiments-corpus.sh`` puts the default corpus.
DEFAULT_CORPUS = Path("/usr/share/doc/python3.11/html")
SUFFIXES = (".html", ".htm")
#: The paper's front-end: tags and whitespace go, everything else stays.
OPTIONS = FrontEndOptions(keep_case=True, keep_punctuation=True)


@dataclass(frozen=True)
class Corpus:
    """Pages in path order: their names, raw sizes and text units."""

    root: Path
    names: tuple[str, ...]
    total_bytes: int
    units: tuple[npt.NDArray[np.integer], ...]

    @property
    def text_units(self) -> int:
        """Characters left once tags and whitespace are removed."""
        return sum(int(u.size) for u in self.units)


def html_files(root: Path) -> list[Path]:
    """Every regular ``.html``/``.htm`` file under ``root``, sorted, no links followed."""
    if not root.is_dir():
        raise InputError(str(root), "not a folder of HTML pages")
    return sorted(p for p in root.rglob("*")
                  if p.suffix.lower() in SUFFIXES and p.is_file() and not p.is_symlink())


def load_corpus(root: Path, max_files: int | None = None) -> Corpus:
    """Read the first ``max_files`` pages (all by default) through the HTML front-end."""
    files = html_files(root)[:max_files]
    if not files:
        raise InputError(str(root), "holds no .html pages")
    units, total = [], 0
    for path in files:
        data = read_regular(path)
        total += len(data)
        units.append(np.asarray(html_stream(decode(data, sniff(data)), OPTIONS).units))
    names = tuple(str(p.relative_to(root)) for p in files)
    return Corpus(root, names, total, tuple(units))
