"""The documentation's tables render: every row has its header's cells, as GitHub reads them.

A GitHub-flavoured Markdown table splits a row at every ``|`` that is not escaped,
inside code spans too (``|S|`` in a formula needs ``\\|S\\|``), and silently drops
the cells beyond the header's; a row broken over two lines ends the row early.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from winnow.frontends import languages

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([*ROOT.glob("*.md"), *(ROOT / "docs").glob("*.md")])
PARSER = MarkdownIt("commonmark").enable("table")


def cell_count(line: str) -> int:
    """Cells of one table row as GFM counts them: split at unescaped pipes."""
    row = line.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return len(re.split(r"(?<!\\)\|", row))


def tables(text: str) -> list[list[str]]:
    """The raw lines of each table the parser finds."""
    lines = text.splitlines()
    return [lines[token.map[0]:token.map[1]] for token in PARSER.parse(text)
            if token.type == "table_open" and token.map is not None]


def test_cell_count_follows_gfm() -> None:
    assert cell_count("| a | b |") == 2
    assert cell_count("| `x` | `|S| / |F|` |") == 6  # unescaped pipes split the cell
    assert cell_count("| `x` | `\\|S\\| / \\|F\\|` |") == 2
    assert [len(t) for t in tables("| a | b |\n|---|---|\n| 1 | 2\n |\n")] == [4]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_table_row_has_the_header_cells(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    broken = [f"{page.name}: {row!r} has {cell_count(row)} cells, the header {cell_count(t[0])}"
              for t in tables(text) for row in t if cell_count(row) != cell_count(t[0])]
    assert not broken, "\n".join(broken)


def test_frontends_language_table_is_what_winnow_languages_prints() -> None:
    text = (ROOT / "docs" / "frontends.md").read_text(encoding="utf-8")
    [table] = [t for t in tables(text) if t[0].startswith("| language | extensions |")]
    rows = [tuple(cell.strip() for cell in row.strip().strip("|").split("|"))
            for row in table[2:]]
    expected = [(name, " ".join(exts), backend) for name, exts, backend in languages()]
    assert rows == expected
