"""The HTML report in a real headless Chromium (Debian's package, driven by Playwright).

Chromium comes from ``scripts/setup.d/20-browser.sh``; Playwright from the ``dev``
extra, pointed at ``/usr/bin/chromium`` (never ``playwright install``).  Without a
browser these tests skip, except in CI (``CI=true``) where they fail.
"""

from __future__ import annotations

import csv
import os
import random
import shutil
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.report_fixtures import build_result, program, student_function, write_class
from winnow.matching.model import ComparisonResult
from winnow.reports.html import write_report

#: Debian's chromium; WINNOW_CHROMIUM may name another build of the same.
CHROMIUM = Path(os.environ.get("WINNOW_CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
VIEWPORT = {"width": 1400, "height": 900}
EVIL_NAME = "<img src=x onerror=alert(1)>"
EVIL_TEXT = (
    "<script>alert(1)</script>\n"
    "<img src=x onerror=alert(1)>\n"
    "</textarea>\n"
    '"><svg onload=alert(1)>\n'
)


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI must run the browser test: see scripts/setup.d/20-browser.sh)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A persistent Chromium context with a fresh profile, shared by this module."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=ARGS,
            viewport=VIEWPORT, offline=True,
        )
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh tab that records dialogs (alert & co.) and console errors."""
    tab = browser.new_page()
    tab.dialogs = []
    tab.errors = []

    def on_dialog(dialog: Any) -> None:
        tab.dialogs.append(dialog.message)
        dialog.dismiss()

    tab.on("dialog", on_dialog)
    tab.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda exc: tab.errors.append(str(exc)))
    yield tab
    tab.close()


def sample_result() -> ComparisonResult:
    """Three submissions; pair 1's first passage is at the top of a and far down b."""
    evil_file = EVIL_TEXT + "cr\rinside\u2028line\ttab\n" + program("evil", 20)
    subs = {
        "alice": {"main.py": program("a", 60), "util.py": program("u", 5, 100)},
        "bob": {"bob.py": program("b", 60, 500) + program("a", 60)},
        EVIL_NAME: {"x.py": evil_file},
    }
    pairs = [
        ("alice", "bob", [("main.py", 3, 30, "bob.py", 185, 212),
                          ("main.py", 100, 140, "bob.py", 40, 80)]),
        ("alice", EVIL_NAME, [("main.py", 5, 9, "x.py", 1, 12)]),
    ]
    return build_result(subs, pairs, clusters=[["alice", "bob"]])


def in_view(page: Any, pane: str, block: str) -> bool:
    """Whether ``block``'s top lies inside the visible part of ``pane``."""
    box = page.locator(block).first.bounding_box()
    area = page.locator(pane).bounding_box()
    assert box is not None and area is not None
    return bool(area["y"] <= box["y"] < area["y"] + area["height"]
                and box["y"] + min(box["height"], 20) <= area["y"] + area["height"])


@pytest.fixture(scope="module")
def single(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = write_report(sample_result(), tmp_path_factory.mktemp("report") / "report.html")
    return path.as_uri()


def test_overview_lists_the_pairs(page: Any, single: str) -> None:
    page.goto(single)
    rows = page.locator("table.pairs tbody tr")
    assert rows.count() == 2
    first = rows.nth(0).inner_text()
    assert "alice" in first and "bob" in first and "%" in first
    assert EVIL_NAME in rows.nth(1).inner_text()
    assert page.locator("svg.hist rect.bar").count() == 20
    assert page.locator(".clusters .members li").all_inner_texts() == ["alice", "bob"]
    assert page.errors == []  # the policy admits our own script and stylesheet


def test_clicking_a_pair_shows_two_panes_with_coloured_passages(page: Any, single: str) -> None:
    page.goto(single)
    page.locator("table.pairs tbody tr").nth(0).locator("a").first.click()
    pair = page.locator("#pair-1")
    assert pair.is_visible() and not page.locator("#overview").is_visible()
    panes = pair.locator(".pane")
    assert panes.count() == 2 and panes.nth(0).is_visible() and panes.nth(1).is_visible()
    colours = {
        page.locator(f'#pair-1 .pane[data-side="{side}"] .blk[data-p="{k}"]').first.evaluate(
            "el => getComputedStyle(el).backgroundColor")
        for side in "ab" for k in (0, 1)
    }
    plain = pair.locator(".blk:not([data-p])").first.evaluate(
        "el => getComputedStyle(el).backgroundColor")
    assert len(colours) == 2 and plain not in colours  # one colour per passage, both sides


def test_clicking_a_passage_scrolls_its_counterpart_into_view(page: Any, single: str) -> None:
    page.goto(single + "#pair-1")
    a_pane, b_pane = '#pair-1 .pane[data-side="a"]', '#pair-1 .pane[data-side="b"]'
    counterpart = f'{b_pane} .blk[data-p="0"]'
    assert not in_view(page, b_pane, counterpart)
    page.locator(f'{a_pane} .blk[data-p="0"]').click()
    assert in_view(page, b_pane, counterpart)
    assert "on" in (page.locator(counterpart).get_attribute("class") or "")
    # and back: passage 1 is visible in b now or after scrolling b; a must follow
    back = f'{a_pane} .blk[data-p="1"]'
    assert not in_view(page, a_pane, back)
    page.locator(f'{b_pane} .blk[data-p="1"]').scroll_into_view_if_needed()
    page.locator(f'{b_pane} .blk[data-p="1"]').click()
    assert in_view(page, a_pane, back)
    # the passage table moves both panes
    page.locator(a_pane).evaluate("el => { el.scrollTop = el.scrollHeight; }")
    page.locator('#pair-1 tr[data-jump="0"]').click()
    assert in_view(page, a_pane, f'{a_pane} .blk[data-p="0"]')
    assert in_view(page, b_pane, counterpart)


def test_hostile_submission_shows_as_text_and_runs_nothing(page: Any, single: str) -> None:
    page.goto(single)
    page.locator("table.pairs tbody tr").nth(1).locator("a").first.click()
    pair = page.locator("#pair-2")
    pane = pair.locator('.pane[data-side="b"]')
    pair.locator('.pane[data-side="a"] .blk[data-p="0"]').click()
    page.wait_for_timeout(300)  # give any injected handler the time to fire
    assert page.dialogs == []
    for line in EVIL_TEXT.splitlines():
        assert pane.get_by_text(line, exact=False).first.is_visible()
    assert EVIL_NAME in pair.locator("h2").inner_text()
    assert page.locator("img").count() == 0
    assert page.locator("svg [onload], textarea").count() == 0
    assert page.locator("script").count() == 1  # the report's own
    heights = pane.locator(".blk:not(.gap)").evaluate_all(
        "els => els.map(e => [e.querySelector('.ln').offsetHeight,"
        " e.querySelector('.tx').offsetHeight])")
    assert heights and all(ln == tx for ln, tx in heights)  # numbers stay beside their lines


def test_directory_report_links_to_pair_pages(page: Any, tmp_path: Path) -> None:
    index = write_report(sample_result(), tmp_path / "out")
    page.goto(index.as_uri())
    page.locator("table.pairs tbody tr").nth(0).locator("a").first.click()
    page.wait_for_url("**/pairs/pair-1.html")
    b_pane = '.pane[data-side="b"]'
    assert not in_view(page, b_pane, f'{b_pane} .blk[data-p="0"]')
    page.locator('.pane[data-side="a"] .blk[data-p="0"]').click()
    assert in_view(page, b_pane, f'{b_pane} .blk[data-p="0"]')
    page.locator("a", has_text="all pairs").click()
    page.wait_for_url("**/index.html#row-1")
    assert page.errors == [] and page.dialogs == []


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


def test_screenshot_of_a_pair(page: Any, single: str, tmp_path: Path) -> None:
    page.goto(single + "#pair-1")
    page.locator('#pair-1 .pane[data-side="a"] .blk[data-p="0"]').click()
    shot = tmp_path / "pair.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 20_000  # text, colours and panes, not a blank page
    assert png_size(shot) == (VIEWPORT["width"], VIEWPORT["height"])


def _winnow(*args: str, env: dict[str, str] | None = None) -> None:
    exe = shutil.which("winnow", path=str(Path(sys.executable).parent)) or "winnow"
    run = subprocess.run([exe, "compare", *args], capture_output=True, text=True, timeout=120,
                         env=None if env is None else {**os.environ, **env})
    assert run.returncode == 0, run.stderr


def test_real_cli_report_opens_in_the_browser(page: Any, tmp_path: Path) -> None:
    """``winnow compare ... --report`` on a small tree, then the report in Chromium."""
    subs = tmp_path / "subs"
    shared = program("shared", 40)
    for name, extra in (("ann", 0), ("ben", 300), ("cat", 600)):
        (subs / name).mkdir(parents=True)
        (subs / name / "main.py").write_text(program(name, 15, extra) + shared)
    common = ["--each", str(subs), "-k", "12", "-t", "24", "-j", "1", "-q"]
    _winnow(*common, "--report", str(tmp_path / "report"))
    page.goto((tmp_path / "report" / "index.html").as_uri())
    rows = page.locator("table.pairs tbody tr")
    assert rows.count() == 3 and "ann" in rows.nth(0).inner_text()
    rows.nth(0).locator("a").first.click()
    page.wait_for_url("**/pairs/pair-1.html")
    a_pane, b_pane = '.pane[data-side="a"]', '.pane[data-side="b"]'
    assert page.locator(f"{a_pane} .blk[data-p]").count() > 0
    page.locator(f"{a_pane} .blk[data-p]").first.click()
    assert in_view(page, b_pane, f'{b_pane} .blk[data-p="0"]')
    # --anonymize into one file: no name of a submission is left
    _winnow(*common, "--report", str(tmp_path / "anon.html"), "--anonymize",
            env={"WINNOW_ANONYMIZE_KEY": "test-key"})
    page.goto((tmp_path / "anon.html").as_uri())
    text = page.locator("body").inner_text()
    assert "student-" in text and not any(n in text for n in ("ann", "ben", "cat"))
    assert page.errors == [] and page.dialogs == []


# ------------------------------------------------------------------ a class of 60, for triage

CLASS_SIZE = 60


@pytest.fixture(scope="module")
def class_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``winnow compare`` on a generated class of 60 submissions, as a folder report."""
    root = tmp_path_factory.mktemp("class")
    write_class(root / "ex3", CLASS_SIZE)
    exe = shutil.which("winnow", path=str(Path(sys.executable).parent)) or "winnow"
    run = subprocess.run([exe, "compare", "--each", "ex3", "-n", "120", "-j", "1", "-q",
                          "--report", "report", "-o", "pairs.csv", "--format", "csv"],
                         cwd=root, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return root / "report" / "index.html"


def _column(page: Any, attribute: str) -> list[str]:
    return page.locator("table.pairs tbody tr:not([hidden])").evaluate_all(
        f"rows => rows.map(r => r.getAttribute('{attribute}'))")


def _sims(page: Any) -> list[float]:
    return [float(s) for s in _column(page, "data-sim")]


def test_class_table_sorts_by_any_column(page: Any, class_report: Path) -> None:
    page.goto(class_report.as_uri())
    assert page.locator("table.pairs tbody tr").count() == 120
    # ranked by score: the similarity shown (what the passages cover) may differ
    assert [int(r) for r in _column(page, "data-rank")] == list(range(1, 121))
    head = page.locator("table.pairs thead th")
    head.filter(has_text="Similarity").locator("button").click()  # numbers: largest first
    assert _sims(page) == sorted(_sims(page), reverse=True)
    head.filter(has_text="Similarity").locator("button").click()  # again: smallest first
    assert _sims(page) == sorted(_sims(page)) and _sims(page)[0] < _sims(page)[-1]
    head.filter(has_text="File 2").locator("button").click()
    names = [n.lower() for n in _column(page, "data-b")]
    assert names == sorted(names) and names != [n.lower() for n in _column(page, "data-b")][::-1]
    assert head.filter(has_text="File 2").get_attribute("aria-sort") == "ascending"
    head.filter(has_text="#").locator("button").click()  # back to rank order
    assert [int(r) for r in _column(page, "data-rank")] == list(range(1, 121))
    assert page.errors == []


def test_class_table_filters_by_name_similarity_and_cluster(page: Any, class_report: Path) -> None:
    page.goto(class_report.as_uri())
    page.locator("#f-name").fill("student007")
    shown = list(zip(_column(page, "data-a"), _column(page, "data-b"), strict=True))
    assert shown and all("student007" in a + b for a, b in shown)
    assert page.locator("#f-count").inner_text() == f"{len(shown)} of 120 pairs"
    page.locator("#f-name").fill("")
    page.locator("#f-min").fill("60")
    assert _sims(page) and min(_sims(page)) >= 0.6
    assert len(_sims(page)) == sum(1 for s in _all_sims(page) if s >= 0.6)
    page.locator("#f-min").fill("0")
    page.locator("#f-cluster").select_option("2")
    clusters = set(_column(page, "data-cluster"))
    assert clusters == {"2"}
    members = page.locator('.clusters > li[data-cluster="2"] .members li').all_inner_texts()
    for a, b in zip(_column(page, "data-a"), _column(page, "data-b"), strict=True):
        assert a in members and b in members
    n = len(members)
    assert len(_sims(page)) == n * (n - 1) // 2  # a generated group copies from one source
    page.locator("#f-reset").click()
    assert len(_sims(page)) == 120


def _all_sims(page: Any) -> list[float]:
    return [float(s) for s in page.locator("table.pairs tbody tr").evaluate_all(
        "rows => rows.map(r => r.getAttribute('data-sim'))")]


def test_marks_persist_show_on_pair_pages_and_export_as_csv(
    page: Any, class_report: Path, tmp_path: Path
) -> None:
    page.goto(class_report.as_uri())
    rows = page.locator("table.pairs tbody tr")
    rows.nth(0).locator("select.mk").select_option("suspicious")
    rows.nth(0).locator("input.nt").fill("=HYPERLINK(\"http://x\") same order")
    rows.nth(2).locator("select.mk").select_option("cleared")
    page.reload()
    rows = page.locator("table.pairs tbody tr")
    assert rows.nth(0).locator("select.mk").input_value() == "suspicious"
    assert rows.nth(0).locator("input.nt").input_value().startswith("=HYPERLINK")
    assert "m-suspicious" in (rows.nth(0).get_attribute("class") or "")
    assert rows.nth(2).locator("select.mk").input_value() == "cleared"
    page.locator("#f-mark").select_option("none")
    assert len(_sims(page)) == 118
    page.locator("#f-mark").select_option("")
    # the pair page shows the same mark, and a mark made there shows in the index
    rows.nth(0).locator("a").first.click()
    page.wait_for_url("**/pairs/pair-1.html")
    assert page.locator(".markbox select.mk").input_value() == "suspicious"
    page.locator("a.next").click()
    page.wait_for_url("**/pairs/pair-2.html")
    page.locator(".markbox select.mk").select_option("reviewed")
    page.locator("a.back").click()
    page.wait_for_url("**/index.html#row-2")
    assert page.locator("#row-2 select.mk").input_value() == "reviewed"
    with page.expect_download() as info:
        page.locator("#export").click()
    saved = tmp_path / "marks.csv"
    info.value.save_as(saved)
    table = list(csv.reader(saved.read_text(encoding="utf-8").splitlines()))
    assert table[0] == ["rank", "file_a", "file_b", "similarity", "mark", "note", "marked_at"]
    assert len(table) == 121 and [r[0] for r in table[1:]] == [str(i) for i in range(1, 121)]
    first = table[1]
    assert first[1] == rows.nth(0).get_attribute("data-a") and first[4] == "suspicious"
    assert first[5] == "'=HYPERLINK(\"http://x\") same order"  # no formula for spreadsheets
    assert [r[4] for r in table[1:4]] == ["suspicious", "reviewed", "cleared"]
    assert all(r[4] == "" for r in table[4:])
    # another report (another class) keeps marks of its own
    other = write_report(sample_result(), tmp_path / "other")
    page.goto(other.as_uri())
    assert page.locator("table.pairs tbody tr").nth(0).locator("select.mk").input_value() == ""
    page.goto(class_report.as_uri())
    assert page.locator("#row-1 select.mk").input_value() == "suspicious"
    page.evaluate("localStorage.clear()")
    assert page.errors == []


def test_pair_pages_step_through_and_lead_back_to_their_row(page: Any, class_report: Path) -> None:
    page.goto(class_report.as_uri())
    page.locator("#f-min").fill("0")
    page.locator("#row-40 a").first.click()
    page.wait_for_url("**/pairs/pair-40.html")
    page.locator("a.next").click()
    page.wait_for_url("**/pairs/pair-41.html")
    page.locator("a.prev").click()
    page.locator("a.prev").click()
    page.wait_for_url("**/pairs/pair-39.html")
    page.locator("a.back").click()
    page.wait_for_url("**/index.html#row-39")
    row = page.locator("#row-39")
    assert row.is_visible() and in_view_of_window(page, "#row-39")
    assert page.evaluate("document.querySelector('tr:target').id") == "row-39"
    # a filter that hides the row is lifted to show it
    page.locator("#f-name").fill("nobody")
    assert not row.is_visible()
    page.goto((class_report.parent / "pairs" / "pair-39.html").as_uri())
    page.locator("a.back").click()
    page.wait_for_url("**/index.html#row-39")
    assert row.is_visible() and in_view_of_window(page, "#row-39")
    assert page.locator("#f-name").input_value() == ""
    page.evaluate("localStorage.clear()")


def in_view_of_window(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT["height"]


def test_graph_links_the_clusters_and_lists_a_submissions_pairs(
    page: Any, class_report: Path
) -> None:
    page.goto(class_report.as_uri())
    members = page.locator(".clusters .members li").count()
    assert members >= 2 and page.locator("svg.graph g.node").count() == members
    edges = page.locator("svg.graph line.edge")
    assert edges.count() > 0
    node = page.locator("svg.graph g.node").first
    name = node.get_attribute("data-name")
    node.locator("circle").click()
    assert page.locator("#f-name").input_value() == f'"{name}"'
    pairs = list(zip(_column(page, "data-a"), _column(page, "data-b"), strict=True))
    assert pairs and all(name in (a, b) for a, b in pairs)
    page.locator("#f-reset").click()
    # the submissions table: strongest partner first, linked to the pair
    first = page.locator("table.subs tbody tr").first
    assert first.locator(".partners a").count() >= 1
    link = page.locator("svg.graph a line.edge").last  # of a two-member cluster: nothing on it
    link.scroll_into_view_if_needed()
    box = link.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_url("**/pairs/pair-*.html")
    assert page.locator(".pane").count() == 2
    page.evaluate("localStorage.clear()")
    assert page.errors == []


def test_line_numbers_stay_visible_when_a_pane_scrolls_sideways(page: Any, tmp_path: Path) -> None:
    long = "x = '" + "wide " * 120 + "'\n"
    subs = {"ann": {"a.py": program("a", 30) + long * 3}, "ben": {"b.py": program("a", 30) + long}}
    result = build_result(subs, [("ann", "ben", [("a.py", 1, 90, "b.py", 1, 90)])])
    page.goto(write_report(result, tmp_path / "r.html").as_uri() + "#pair-1")
    pane = page.locator('#pair-1 .pane[data-side="a"]')
    pane.evaluate("el => { el.scrollTop = el.scrollHeight; el.scrollLeft = 2000; }")
    assert pane.evaluate("el => el.scrollLeft") > 500
    area = pane.bounding_box()
    number = pane.locator(".blk .ln").last.bounding_box()
    assert area is not None and number is not None
    assert abs(number["x"] - area["x"]) < 6  # still at the pane's left edge
    text = pane.locator(".blk .tx").last.bounding_box()
    assert text is not None and text["x"] < area["x"]  # while the code moved left


def test_previous_and_next_follow_the_tables_order_and_filter(
    page: Any, class_report: Path
) -> None:
    page.goto(class_report.as_uri())
    page.locator("#f-cluster").select_option("2")
    page.locator("table.pairs thead th").filter(has_text="File 1").locator("button").click()
    order = [int(r) for r in _column(page, "data-rank")]
    assert len(order) >= 3 and order != sorted(order)  # by name, not by rank
    page.locator(f"#row-{order[0]} a").first.click()
    page.wait_for_url(f"**/pairs/pair-{order[0]}.html")
    assert page.locator("a.prev").get_attribute("href") is None  # first in the table's order
    assert f"1 of {len(order)}" in page.locator(".where").inner_text()
    for rank in order[1:]:
        page.locator("a.next").click()
        page.wait_for_url(f"**/pairs/pair-{rank}.html")
    assert page.locator("a.next").get_attribute("href") is None
    page.locator("a.prev").click()
    page.wait_for_url(f"**/pairs/pair-{order[-2]}.html")
    # a pair outside the filtered table steps by rank
    outside = next(n for n in range(2, 120) if n not in order and n + 1 not in order)
    page.goto((class_report.parent / "pairs" / f"pair-{outside}.html").as_uri())
    assert page.locator("a.next").get_attribute("href") == f"pair-{outside + 1}.html"
    page.evaluate("localStorage.clear()")
    assert page.errors == []


def test_one_file_report_keeps_marks_in_step_and_returns_to_the_row(
    page: Any, single: str
) -> None:
    page.goto(single)
    page.locator("#row-1 select.mk").select_option("cleared")
    page.locator("#row-1 a").first.click()
    assert page.locator("#pair-1").is_visible()
    assert page.locator("#pair-1 .markbox select.mk").input_value() == "cleared"
    page.locator("#pair-1 .markbox input.nt").fill("starter code")
    page.locator("#pair-1 a.back").click()
    assert page.url.endswith("#row-1") and page.locator("#row-1").is_visible()
    assert page.locator("#row-1 input.nt").input_value() == "starter code"
    assert "m-cleared" in (page.locator("#row-1").get_attribute("class") or "")
    assert page.locator("#pair-1 a.next").get_attribute("href") == "#pair-2"
    page.evaluate("localStorage.clear()")
    assert page.errors == [] and page.dialogs == []


# ------------------------------------------------------- a solution a third of the class shares


def test_code_a_third_of_the_class_shares_is_listed_and_can_be_starter_code(
        page: Any, tmp_path: Path) -> None:
    """Nine submissions, three of them the same (AI-made, say) solution: the
    report lists that code, how many have it and which; the default ``-m``
    keeps it as evidence, and ``--common-as-base`` turns it into starter code."""
    solution = "\n\n".join(student_function(random.Random(99), f"solve_{i}") for i in range(6))
    subs = tmp_path / "subs"
    for i in range(9):
        (subs / f"s{i}").mkdir(parents=True)
        own = "\n\n".join(student_function(random.Random(i), f"own_{i}_{j}") for j in range(3))
        (subs / f"s{i}" / "main.py").write_text(own + "\n\n" + solution + "\n" if i % 3 == 0
                                                 else own + "\n")
    common = ["--each", str(subs), "-j", "1", "-q"]
    _winnow(*common, "--report", str(tmp_path / "report.html"))
    page.goto((tmp_path / "report.html").as_uri())
    listed = page.locator("#shared ~ ol.shared li.shared-code")
    assert listed.count() >= 1
    first = listed.first
    assert "3 submissions" in first.inner_text()
    assert "ignored by -m" not in first.inner_text()  # a third of the class: still counted
    first.locator("summary").click()
    names = first.locator("ul.members li").all_inner_texts()
    assert sorted(Path(n).name for n in names) == ["s0", "s3", "s6"]
    assert "def solve_0" in first.locator("pre").inner_text()
    top = page.locator("table.pairs tbody tr").first.inner_text()
    assert sum(n in top for n in ("s0", "s3", "s6")) == 2  # the sharers pair up first
    _winnow(*common, "--common-as-base", "--report", str(tmp_path / "base.html"))
    page.goto((tmp_path / "base.html").as_uri())
    assert "treated as starter code" in page.locator("#shared ~ ol.shared").inner_text()
    assert page.errors == [] and page.dialogs == []


def test_a_passage_joined_across_an_insertion_shows_its_gap(page: Any, tmp_path: Path) -> None:
    body = ("def area(w, h):\n    if w < 0 or h < 0:\n        raise ValueError('negative')\n"
            "    result = w * h\n    return result\n\n\ndef perimeter(w, h):\n"
            "    total = 2 * (w + h)\n    return total\n")
    copy = body.replace("    result = w * h\n", "    log(w)\n    result = w * h\n")
    subs = tmp_path / "subs"
    for name, text in (("orig", body), ("copy", copy)):
        (subs / name).mkdir(parents=True)
        (subs / name / "main.py").write_text(text + "\n")
    _winnow("--each", str(subs), "-j", "1", "-q", "--report", str(tmp_path / "r.html"))
    page.goto((tmp_path / "r.html").as_uri() + "#pair-1")
    cells = page.locator("td.gaps").all_inner_texts()
    assert any("–" in cell and "/" in cell for cell in cells), cells
    assert page.errors == []
