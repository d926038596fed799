"""The HTML report in a real headless Chromium (Debian's package, driven by Playwright).

Chromium comes from ``scripts/setup.d/20-browser.sh``; Playwright from the ``dev``
extra, pointed at ``/usr/bin/chromium`` (never ``playwright install``).  Without a
browser these tests skip, except in CI (``CI=true``) where they fail.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.report_fixtures import build_result, program
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
    assert "alice, bob" in page.locator(".clusters").inner_text()
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
    page.wait_for_url("**/index.html")
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
