"""The HTML report's pieces without a browser: blocks, escaping, policy, files, pseudonyms."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import html
import re
from pathlib import Path

import pytest

from tests.report_fixtures import build_result, program
from winnow.errors import ReportError
from winnow.matching.model import ComparisonResult, Issue
from winnow.reports import html_view
from winnow.reports.anonymize import KEY_ENV, Pseudonyms, default_key
from winnow.reports.histogram import histogram
from winnow.reports.html import write_report
from winnow.reports.html_view import blocks, percent, split_lines

HOSTILE = "<script>alert(1)</script>\n<img src=x onerror=alert(1)>\n</textarea>\n"


def sample(name_b: str = "bob", text_b: str | None = None) -> ComparisonResult:
    subs = {
        "alice": {"main.py": program("a", 20), "notes.txt": "nothing shared\n"},
        name_b: {"b.py": text_b if text_b is not None else program("a", 20, 3)},
        "carol": {"c.py": program("c", 5, 900)},
    }
    return build_result(
        subs, [("alice", name_b, [("main.py", 3, 10, "b.py", 1, 8)]), ("alice", "carol", [])],
        clusters=[["alice", name_b]], issues=[Issue("subs/dave/x.bin", "binary file")])


def lines(n: int) -> list[str]:
    return [f"line {i}" for i in range(1, n + 1)]


def test_blocks_cut_at_every_passage_boundary_and_keep_overlaps() -> None:
    out = blocks(lines(10), [(0, 2, 5), (1, 4, 7)])
    assert [(b.first, b.last, b.passages) for b in out] == [
        (1, 1, ()), (2, 3, (0,)), (4, 5, (0, 1)), (6, 7, (1,)), (8, 10, ())]
    assert out[2].text == "line 4\nline 5" and out[2].gutter == "4\n5"
    assert out[2].data_p == "0 1" and out[2].colour == 0 and out[3].colour == 1
    assert "\n".join(b.text for b in out) == "\n".join(lines(10))


def test_blocks_clamp_ranges_and_colour_cycles() -> None:
    out = blocks(lines(3), [(13, 0, 99)])
    assert [(b.first, b.last, b.colour) for b in out] == [(1, 3, 13 % html_view.COLOURS)]
    assert blocks([], [(0, 1, 2)]) == ()


def test_long_files_elide_unmatched_stretches_but_keep_context() -> None:
    n = html_view.FULL_FILE_LINES + 1000
    out = blocks(lines(n), [(0, 2000, 2010)])
    gaps = [b for b in out if b.elided]
    assert len(gaps) == 2
    shown = sum(b.last - b.first + 1 for b in out if not b.elided)
    assert shown == 11 + 2 * html_view.CONTEXT_LINES
    assert sum(b.elided for b in gaps) + shown == n
    matched = next(b for b in out if b.passages)
    assert (matched.first, matched.last) == (2000, 2010)


def test_split_lines_matches_document_line_numbers() -> None:
    assert split_lines("a\r\nb\n\nc") == ["a", "b", "", "c"]
    assert split_lines("a\n") == ["a"]
    assert split_lines("x\ry\u2028z\r\n") == ["x\u240dy\u2424z"]  # one line stays one line
    # Trojan Source: bidi controls are named, never left to reorder the line
    shown = split_lines('if access != "user\u202e \u2066// admin\u2069 \u2066":\n')
    assert shown == ['if access != "user\u27e6U+202E\u27e7 \u27e6U+2066\u27e7// admin'
                     '\u27e6U+2069\u27e7 \u27e6U+2066\u27e7":']
    assert not any(c in html_view.BIDI_CONTROLS for c in "".join(shown))
    long = split_lines("x" * (html_view.MAX_LINE_CHARS + 5))[0]
    assert long.endswith("[5 more characters]")


def test_percent_rounds_down() -> None:
    shown = (percent(0.999), percent(1.0), percent(0.5), percent(None))
    assert shown == ("99%", "100%", "50%", "–")


def test_histogram_bins() -> None:
    hist = histogram([0.0, 0.04, 0.05, 0.5, 1.0, 1.0], bins=20, threshold=0.5)
    counts = [b.count for b in hist.bars]
    assert counts[0] == 2 and counts[1] == 1 and counts[10] == 1 and counts[19] == 2
    assert sum(counts) == hist.total == 6
    tallest = max(hist.bars, key=lambda b: b.count)
    assert tallest.y == hist.plot_top and tallest.y + tallest.height == hist.plot_bottom
    assert hist.threshold_x == (hist.plot_left + hist.plot_right) / 2
    assert [t.label for t in hist.y_ticks] == ["0", "1", "2"]
    assert sum(b.count for b in histogram([]).bars) == 0


def _inline(page: str, tag: str) -> str:
    found = re.search(rf"<{tag}>(.*?)</{tag}>", page, re.S)
    assert found is not None
    return found.group(1)


def _sha(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def test_policy_admits_only_the_inline_script_and_style(tmp_path: Path) -> None:
    page = write_report(sample(), tmp_path / "r.html").read_text()
    csp = html.unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"',
                                  page).group(1))  # type: ignore[union-attr]
    assert "default-src 'none'" in csp
    assert f"script-src 'sha256-{_sha(_inline(page, 'script'))}';" in csp
    assert f"style-src 'sha256-{_sha(_inline(page, 'style'))}';" in csp
    assert not re.search(r"(src|href)=\"(https?:)?//", page)  # nothing remote


def test_hostile_text_and_names_are_escaped(tmp_path: Path) -> None:
    evil_name = '<img src=x onerror=alert(1)>"'
    page = write_report(sample(evil_name, HOSTILE + program("a", 20, 3)),
                        tmp_path / "r.html").read_text()
    assert page.count("<script") == 1 and "<img" not in page and "</textarea>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;&#34;" in page
    assert "&lt;/textarea&gt;" in page


def test_single_file_holds_every_computed_pair(tmp_path: Path) -> None:
    out = write_report(sample(), tmp_path / "sub" / "report.HTML")
    assert out == tmp_path / "sub" / "report.HTML"
    page = out.read_text()
    assert 'id="pair-1"' in page and 'href="#pair-1"' in page
    assert 'id="pair-2"' not in page  # alice/carol has no passages: listed, not linked
    assert page.count('class="pane"') == 2
    assert "subs/dave/x.bin: binary file" in page


def test_directory_has_index_and_one_page_per_pair(tmp_path: Path) -> None:
    stale = tmp_path / "out" / "pairs" / "pair-9.html"
    stale.parent.mkdir(parents=True)
    stale.write_text("old")
    keep = tmp_path / "out" / "pairs" / "notes.txt"
    keep.write_text("mine")
    out = write_report(sample(), tmp_path / "out")
    assert out == tmp_path / "out" / "index.html"
    assert sorted(p.name for p in out.parent.joinpath("pairs").iterdir()) == [
        "notes.txt", "pair-1.html"]
    assert 'href="pairs/pair-1.html"' in out.read_text()
    pair = (out.parent / "pairs" / "pair-1.html").read_text()
    assert 'href="../index.html"' in pair and 'data-side="a"' in pair and 'data-side="b"' in pair
    assert not list(out.parent.rglob(".winnow-*"))  # no temporary files left


def test_archive_submissions_are_tagged(tmp_path: Path) -> None:
    subs = {"new": {"a.py": program("a", 5)}, "2023/old": {"a.py": program("a", 5)}}
    result = build_result(subs, [("new", "2023/old", [("a.py", 1, 5, "a.py", 1, 5)])],
                          archive=["2023/old"])
    page = write_report(result, tmp_path / "r.html").read_text()
    row = re.search(r"<tbody>.*?</tbody>", page, re.S).group(0)  # type: ignore[union-attr]
    assert row.count('class="tag">archive<') == 1 and row.index("2023/old") < row.index("tag")


def test_missing_and_binary_documents_are_named_not_shown(tmp_path: Path) -> None:
    result = sample()
    docs = dict(result.documents)
    del docs[("alice", "main.py")]
    docs[("bob", "b.py")] = dataclasses.replace(docs[("bob", "b.py")], kind="binary")
    page = write_report(dataclasses.replace(result, documents=docs),
                        tmp_path / "r.html").read_text()
    assert "original text not available" in page
    assert re.search(r"binary file \(\d+ bytes\), not shown", page)


def test_unwritable_target_is_a_report_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ReportError) as err:
        write_report(sample(), blocker / "out")
    assert err.value.exit_code == 3


def test_anonymize_hides_every_name_with_stable_pseudonyms(tmp_path: Path) -> None:
    key = b"k1"
    first = write_report(sample(), tmp_path / "a.html", anonymize=True, key=key).read_text()
    again = write_report(sample(), tmp_path / "b.html", anonymize=True, key=key).read_text()
    other = write_report(sample(), tmp_path / "c.html", anonymize=True, key=b"k2").read_text()
    for name in ("alice", "bob", "carol", "main.py", "b.py", "notes.txt", "dave"):
        assert not re.search(rf"(?<![\w-]){re.escape(name)}", first), name
    names = sorted(set(re.findall(r"student-[0-9a-f]{6}", first)))
    assert len(names) == 3
    assert sorted(set(re.findall(r"student-[0-9a-f]{6}", again))) == names
    assert sorted(set(re.findall(r"student-[0-9a-f]{6}", other))) != names
    assert re.search(r"file-[0-9a-f]{4}\.py", first)
    assert "binary file" not in first and "path and reason hidden" in first


def test_pseudonyms_never_collide_and_keep_safe_extensions() -> None:
    pseudo = Pseudonyms([f"s{i}" for i in range(3000)], key=b"k")
    names = {pseudo.submission(f"s{i}") for i in range(3000)}
    assert len(names) == 3000
    files = ["a.py", "b.py", "c.<x>", "d"]
    shown = [pseudo.file("s1", f, files) for f in files]
    assert len(set(shown)) == 4
    assert shown[0].endswith(".py") and "<" not in shown[2] and "." not in shown[3]


def test_default_key_comes_from_env_or_a_private_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "secret")
    assert default_key() == b"secret"
    monkeypatch.delenv(KEY_ENV)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    key = default_key()
    path = tmp_path / "winnow" / "anonymize.key"
    assert len(key) == 64 and path.stat().st_mode & 0o077 == 0
    assert default_key() == key


def test_histogram_of_all_pairs_is_on_a_log_scale_with_the_listed_range_marked() -> None:
    every = [1000, 300, 40, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 3, 0, 1]
    hist = histogram([0.72, 0.75, 0.88, 0.95, 0.71], threshold=0.5, all_counts=every)
    assert hist.log and [b.count for b in hist.all_bars] == every and hist.all_total == 1352
    assert [b.count for b in hist.bars][14:] == [2, 1, 0, 1, 0, 1]
    heights = {b.count: b.height for b in hist.all_bars}
    assert heights[1000] == hist.plot_bottom - hist.plot_top
    assert heights[1] > (hist.plot_bottom - hist.plot_top) * 0.05  # visible beside 1000
    assert [t.label for t in hist.y_ticks] == ["0", "1", "10", "100", "1000"]
    assert hist.band is not None
    width = hist.plot_right - hist.plot_left
    assert hist.band == pytest.approx((hist.plot_left + 0.71 * width,
                                       hist.plot_left + 0.95 * width))
    listed_only = histogram([0.72], all_counts=[1, 2])  # counts of another binning: ignored
    assert not listed_only.log and listed_only.all_bars == () and listed_only.band is None


def test_compare_counts_every_sharing_pair_in_the_histogram() -> None:
    from winnow.matching import CompareOptions, compare
    from winnow.sources.submissions import load_submissions

    subs = load_submissions([str(p) for p in sorted(EXAMPLES.iterdir())])
    full = compare(subs, options=CompareOptions(top=1, passages=False))
    assert len(full.pairs) == 1 and len(full.histogram) == 20
    assert sum(full.histogram) == full.stats["pairs_sharing"] > 1
    bin_of_top = min(19, int(full.pairs[0].similarity * 20))
    assert full.histogram[bin_of_top] >= 1


EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "python" / "submissions"


def triage_sample() -> ComparisonResult:
    """Five submissions: a cluster of three (a strong pair and a weaker one), one of two."""
    text = {n: program(n, 30) for n in "abcde"}
    subs = {n: {f"{n}.py": text[n]} for n in "abcde"}
    whole = [("a.py", 1, 40, "b.py", 1, 40)]
    pairs = [("a", "b", whole), ("d", "e", [("d.py", 1, 20, "e.py", 1, 20)]),
             ("b", "c", [("b.py", 1, 5, "c.py", 1, 5)]), ("a", "c", [])]
    return build_result(subs, pairs, clusters=[["a", "b", "c"], ["d", "e"]])  # largest first


def test_overview_numbers_clusters_from_one_as_listed_and_lists_partners() -> None:
    from winnow.reports.html_overview import overview
    from winnow.reports.html_view import Namer, pair_row

    result = triage_sample()
    namer = Namer(result, False, None)
    rows = [pair_row(namer, p, i, False) for i, p in enumerate(result.pairs, 1)]
    over = overview(result, namer, rows)
    assert [[m.name for m in c.members] for c in over.clusters] == [["a", "b", "c"], ["d", "e"]]
    assert over.cluster_of == {"a": 1, "b": 1, "c": 1, "d": 2, "e": 2}
    subs = {s.name: s for s in over.submissions}
    assert [p.name for p in subs["b"].partners] == ["a", "c"]  # strongest first
    assert subs["a"].pairs == 2 and subs["b"].partners[0].href == "pairs/pair-1.html"
    assert subs["c"].partners[-1].href is None  # a/c has no passages, so no page
    assert over.submissions[0].name in ("a", "b")
    # graph: every cluster member is a node; a link only at or above the threshold (0.5)
    assert sorted(n.name for n in over.graph.nodes) == list("abcde")
    strong = [r for r in rows if r.similarity_value >= 0.5]
    assert len(over.graph.edges) == len(strong) < len(rows)
    assert all(0 <= n.x <= over.graph.width and 0 <= n.y <= over.graph.height
               for n in over.graph.nodes)


def test_graph_layout_is_deterministic_and_spread() -> None:
    from winnow.reports.graph import layout

    edges = [(0, 1, 0.9), (1, 2, 0.8), (2, 0, 0.7), (3, 4, 0.6), (4, 0, 0.6)]
    first, again = layout(5, edges), layout(5, edges)
    assert (first == again).all() and first.min() >= 0 and first.max() <= 1
    gaps = [float(((first[i] - first[j]) ** 2).sum()) for i in range(5) for j in range(i)]
    assert min(gaps) > 0.01  # no two nodes on top of each other
    assert layout(2, [(0, 1, 1.0)]).tolist() == [[0.5, 0.0], [0.5, 1.0]]


def test_pair_pages_link_their_neighbours_and_their_row(tmp_path: Path) -> None:
    out = write_report(triage_sample(), tmp_path / "out")
    pages = sorted(p.name for p in (tmp_path / "out" / "pairs").iterdir())
    assert pages == ["pair-1.html", "pair-2.html", "pair-3.html"]  # pair 4 has no passages
    second = (tmp_path / "out" / "pairs" / "pair-2.html").read_text()
    assert 'class="back" href="../index.html#row-2"' in second
    assert 'rel="prev" href="pair-1.html"' in second and 'rel="next" href="pair-3.html"' in second
    last = (tmp_path / "out" / "pairs" / "pair-3.html").read_text()
    assert '<a class="next" rel="next">' in last and 'data-rank="3"' in last  # no href
    index = out.read_text()
    assert all(f'id="row-{n}"' in index for n in range(1, 5))
    single = write_report(triage_sample(), tmp_path / "r.html").read_text()
    assert 'class="back" href="#row-1"' in single and 'rel="next" href="#pair-2"' in single


def test_report_id_names_the_comparison(tmp_path: Path) -> None:
    def rid(page: Path) -> str:
        found = re.search(r'data-report="([0-9a-f]{16})"', page.read_text())
        assert found is not None
        return found.group(1)

    one = rid(write_report(triage_sample(), tmp_path / "1.html"))
    assert one == rid(write_report(triage_sample(), tmp_path / "2.html"))
    assert one != rid(write_report(sample(), tmp_path / "3.html"))
    pair = (tmp_path / "d" / "pairs" / "pair-1.html")
    write_report(triage_sample(), tmp_path / "d")
    assert rid(pair) == one  # pair pages share their index's marks


def test_anonymized_result_and_key_hide_every_name(tmp_path: Path) -> None:
    import io

    from winnow.reports.anonymize import (
        anonymize_result,
        key_rows,
        pseudonyms_of,
        spreadsheet_safe,
        write_key,
    )
    from winnow.reports.json import write_json

    result = sample("=cmd|' /C calc'!A0")
    pseudo = pseudonyms_of(result, b"k")
    out = io.StringIO()
    write_json(anonymize_result(result, pseudo), out)
    text = out.getvalue()
    for name in ("alice", "carol", "cmd", "main.py", "b.py", "dave"):
        assert name not in text, name
    rows = key_rows(result, pseudo)
    assert ("student-" in rows[0][0]) and {r[1] for r in rows} == {"alice", "carol",
                                                                  "=cmd|' /C calc'!A0"}
    assert all(r[0] in text for r in rows)  # every pseudonym of the key is the output's
    key = tmp_path / "key.csv"
    write_key(key, rows)
    assert "'=cmd|' /C calc'!A0" in key.read_text() and key.stat().st_mode & 0o077 == 0
    assert spreadsheet_safe("@SUM(1)") == "'@SUM(1)" and spreadsheet_safe("a=b") == "a=b"
    html_page = write_report(result, tmp_path / "r.html", anonymize=True, key=b"k").read_text()
    assert all(r[0] in html_page for r in rows if r[2] == "")  # the same pseudonyms
