"""The report's graph on a class in a real headless Chromium: a generated class of 120
submissions with one cluster of 80 near-identical copies (20 of them identical).

Every node must be clickable (nothing else under its centre, and a click lists its
pairs), wheel and buttons zoom, the background pans, a node drags with its links, and
no two labels overlap (their bounding boxes in the page).  The browser and page
fixtures are the report browser test's.
"""

# ruff: noqa: F811  (the tests take the imported fixture ``page`` as a parameter)
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_report_browser import browser, page  # noqa: F401  (its fixtures)
from tests.report_fixtures import write_copied_class

SIZE, COPIES, IDENTICAL = 120, 80, 20


@pytest.fixture(scope="module")
def copied_class(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``winnow compare --report`` on the class (``-m 200``: code that 80 submissions
    share is not ignored as boilerplate)."""
    root = tmp_path_factory.mktemp("copied")
    write_copied_class(root / "ex", SIZE, COPIES)
    exe = shutil.which("winnow", path=str(Path(sys.executable).parent)) or "winnow"
    run = subprocess.run([exe, "compare", "--each", "ex", "-n", "3300", "-m", "200", "-j", "1",
                          "-q", "--passages-top", "20", "--report", "report.html",
                          "-o", "pairs.csv", "--format", "csv"],
                         cwd=root, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return root / "report.html"


def _open(page: Any, report: Path) -> None:
    """Open the report (3,300 rows: allow for a loaded machine) with no stored view."""
    page.set_default_timeout(120_000)
    page.goto(report.as_uri())
    page.evaluate("localStorage.clear()")
    page.reload()


def _boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return list(page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.left, y: r.top, w: r.width, h: r.height}; })"))


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
            and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


def _view_box(page: Any) -> list[float]:
    return [float(v) for v in page.locator("svg.graph").get_attribute("viewBox").split()]


def test_cluster_of_80_merges_identical_copies_and_no_labels_overlap(
    page: Any, copied_class: Path
) -> None:
    _open(page, copied_class)
    assert page.locator(".clusters > li").count() == 1
    assert page.locator(".clusters .members li").count() == COPIES
    nodes = page.locator("svg.graph g.node")
    assert nodes.count() == COPIES - IDENTICAL + 1  # the 20 identical ones are one node
    many = page.locator("svg.graph g.node.many")
    assert many.count() == 1 and f"×{IDENTICAL}" in many.locator("text").text_content()
    page.locator("#graph").scroll_into_view_if_needed()
    labels = _boxes(page, "svg.graph g.node text")
    dots = _boxes(page, "svg.graph g.node circle")
    assert len(labels) == nodes.count() and all(b["w"] > 20 and b["h"] > 5 for b in labels)
    clashes = [(i, j) for i in range(len(labels)) for j in range(i)
               if _overlap(labels[i], labels[j]) or _overlap(dots[i], dots[j])
               or _overlap(labels[i], dots[j]) or _overlap(dots[i], labels[j])]
    assert clashes == []
    assert page.errors == []


def test_every_node_is_clickable_and_lists_its_pairs(page: Any, copied_class: Path) -> None:
    _open(page, copied_class)
    nodes = page.locator("svg.graph g.node")
    for i in range(nodes.count()):
        node = nodes.nth(i)
        node.scroll_into_view_if_needed()
        box = node.locator("circle").bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        hit = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y);"
                            " const g = e && e.closest('g.node');"
                            " return g ? g.getAttribute('data-i') : null; }", [x, y])
        assert hit == node.get_attribute("data-i")  # nothing else intercepts the pointer
        page.mouse.click(x, y)
        names = set(node.evaluate("n => JSON.parse(n.getAttribute('data-members'))"))
        shown = page.locator("table.pairs tbody tr:not([hidden])").evaluate_all(
            "rows => rows.map(r => [r.getAttribute('data-a'), r.getAttribute('data-b')])")
        assert shown and all(a in names or b in names for a, b in shown), i
    merged = page.locator("svg.graph g.node.many")
    merged.scroll_into_view_if_needed()
    merged.locator("circle").click()
    value = page.locator("#f-name").input_value()
    assert value.count('"') == 2 * IDENTICAL  # each identical submission, quoted
    assert page.errors == []


def test_wheel_and_buttons_zoom_background_pans_and_nodes_drag(
    page: Any, copied_class: Path
) -> None:
    _open(page, copied_class)
    svg = page.locator("svg.graph")
    svg.scroll_into_view_if_needed()
    home = _view_box(page)
    first = page.locator("svg.graph g.node").first
    before = first.locator("circle").bounding_box()
    area = svg.bounding_box()
    assert before is not None and area is not None
    page.mouse.move(before["x"] + 3, before["y"] + 3)
    page.mouse.wheel(0, -300)  # zoom in around the pointer
    page.wait_for_function(f"() => document.querySelector('svg.graph')"
                           f".viewBox.baseVal.width < {home[2]}")
    after = first.locator("circle").bounding_box()
    assert after is not None and after["width"] > before["width"] * 1.1
    page.locator("button.g-reset").click()
    assert _view_box(page) == home
    page.locator("button.g-zoom").first.click()  # +
    assert _view_box(page)[2] < home[2]
    page.locator("button.g-reset").click()
    # pan: drag an empty corner of the background
    x0, y0 = area["x"] + area["width"] - 5, area["y"] + area["height"] - 5
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 - 100, y0 - 40, steps=5)
    page.mouse.up()
    panned = _view_box(page)
    assert panned[0] > home[0] + 20 and panned[1] > home[1] + 5 and panned[2] == home[2]
    page.locator("button.g-reset").click()
    # drag a node: it moves, its links follow, and the drag lists nothing
    node = page.locator("svg.graph g.node").nth(3)
    index = node.get_attribute("data-i")
    link = page.locator(f'svg.graph [data-a="{index}"] line.edge, '
                        f'svg.graph [data-b="{index}"] line.edge').first
    end = "1" if link.evaluate(f"l => l.parentNode.getAttribute('data-a') === '{index}'") else "2"
    page.locator("#f-name").fill("")
    node.scroll_into_view_if_needed()
    start = node.locator("circle").bounding_box()
    assert start is not None
    sx, sy = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(sx + 60, sy + 30, steps=6)
    page.mouse.up()
    moved = node.locator("circle").bounding_box()
    assert moved is not None and abs(moved["x"] - start["x"] - 60) < 3
    tx, ty = (float(node.get_attribute(f"data-{c}")) for c in "xy")
    assert float(link.get_attribute(f"x{end}")) == pytest.approx(tx, abs=0.2)
    assert float(link.get_attribute(f"y{end}")) == pytest.approx(ty, abs=0.2)
    assert page.locator("#f-name").input_value() == ""  # a drag is not a click
    page.locator("button.g-reset").click()
    back = node.locator("circle").bounding_box()
    assert back is not None and abs(back["x"] - start["x"]) < 1
    assert page.errors == []
