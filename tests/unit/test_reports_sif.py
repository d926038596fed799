"""Output of the sif commands: escaping, stable CSV headers, sif's Figure 3 layout."""

from __future__ import annotations

import csv
import io
import json

from winnow.reports.sif import QueryReport
from winnow.reports.writers import write
from winnow.sif.groups import Group, GroupOptions, GroupsResult, Member
from winnow.sif.query import Match, QueryResult

EVIL = "/tmp/a\nR100 /forged 1\x1b[31m.c"


def groups() -> GroupsResult:
    similar = Group(2, "similar", (Member("/src/foo.c", 1.0, 10763, True),
                                   Member("/src/bar.c", 0.796, 10979, False),
                                   Member(EVIL, 0.29, 9560, False)))
    identical = Group(1, "identical", (Member("/x/1", 1.0, 5, True),
                                       Member("/x/2", 1.0, 5, False)))
    return GroupsResult([identical], [similar], None, GroupOptions(threshold=0.25), 5)


def test_groups_table_is_sifs_figure_3_and_escaped() -> None:
    out = io.StringIO()
    write(groups(), "table", out)
    text = out.getvalue()
    assert "The following 1 groups of files are similar. Minimum similarity = 25%" in text
    assert "R100 /src/foo.c 10763\n  79 /src/bar.c 10979\n" in text
    assert "\nR100 /forged" not in text and "\\x0aR100 /forged 1\\x1b[31m.c 9560" in text
    # library shares are fractions; 0.29 (stored as 0.28999...) is still 29 in the table
    assert "  29 /tmp/a\\x0aR100" in text


def test_groups_csv_and_json() -> None:
    out = io.StringIO()
    write(groups(), "csv", out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert out.getvalue().startswith("group,kind,path,similarity,size,reference\n")
    assert rows[-1]["path"] == EVIL and rows[2]["kind"] == "similar"
    assert [row["similarity"] for row in rows] == ["1.0", "1.0", "1.0", "0.796", "0.29"]
    out = io.StringIO()
    write(groups(), "json", out)
    data = json.loads(out.getvalue())
    assert data["counts"] == {"identical": 1, "similar": 1, "interesting": 0}
    assert data["options"]["threshold"] == 0.25  # the library's fraction, as given


def test_query_csv_header_and_booleans() -> None:
    match = Match("q.c", EVIL, 0.52, 0.485, 40, 30000, False, 1.25, 82)
    out = io.StringIO()
    write(QueryReport([QueryResult("q.c", 29800, 80, 77, [match])], 0.05), "csv", out)
    header, *_ = out.getvalue().splitlines()
    assert header.startswith("query,match,contained,contains,shared,size,identical")
    (row,) = csv.DictReader(io.StringIO(out.getvalue()))
    assert row["match"] == EVIL and row["identical"] == "false" and row["contained"] == "0.52"
    assert row["contains"] == "0.485" and row["sif_similarity"] == "1.25"
    out = io.StringIO()
    write(QueryReport([QueryResult("q.c", 29800, 80, 77, [match])], 0.05), "table", out)
    assert "\x1b" not in out.getvalue() and "\\x1b" in out.getvalue()
    assert "1 file(s) at >= 5%\n" in out.getvalue()
    assert "    52.0%    48.5%     40" in out.getvalue()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_sif_csv_to_a_terminal_escapes_paths_and_to_a_pipe_keeps_them() -> None:
    terminal, pipe = _Terminal(), io.StringIO()
    write(groups(), "csv", terminal)
    write(groups(), "csv", pipe)
    shown = terminal.getvalue()
    assert "\x1b" not in shown and "/tmp/a\\x0aR100 /forged 1\\x1b[31m.c" in shown
    assert EVIL in pipe.getvalue()
