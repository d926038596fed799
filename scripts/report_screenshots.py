"""Take the screenshots of docs/report.md: a generated class, its report, headless Chromium.

    .venv/bin/python scripts/report_screenshots.py [OUT_DIR]   (default docs/img)

Writes a class of 60 generated submissions (``tests.report_fixtures.write_class``) to a
temporary folder, runs ``winnow compare --each … --report`` on it, marks two pairs and
saves ``report-index.png``, ``report-graph.png`` and ``report-pair.png``; then a class
of 120 with one cluster of 80 near-identical copies
(``tests.report_fixtures.write_copied_class``) for ``report-graph-120.png``.  Needs Debian's /usr/bin/chromium
and the ``playwright`` package (the ``dev`` extra).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.report_fixtures import write_class, write_copied_class  # noqa: E402

CHROMIUM = os.environ.get("WINNOW_CHROMIUM", "/usr/bin/chromium")


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        write_class(work / "exercise3")
        winnow = Path(sys.executable).with_name("winnow")
        subprocess.run([str(winnow), "compare", "--each", "exercise3", "-j", "1", "-q",
                        "-n", "120", "--report", "report", "-o", os.devnull],
                       cwd=work, check=True)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto((work / "report" / "index.html").as_uri())
            marks = page.locator("table.pairs tbody tr")
            marks.nth(0).locator("select.mk").select_option("suspicious")
            marks.nth(0).locator("input.nt").fill("same helper names, same order")
            marks.nth(1).locator("select.mk").select_option("reviewed")
            page.locator("#f-min").fill("60")
            page.screenshot(path=str(out / "report-index.png"))
            page.locator("#graph").evaluate("el => el.scrollIntoView()")
            page.screenshot(path=str(out / "report-graph.png"))
            page.locator("#f-reset").click()
            page.locator("#f-name").fill('"student006"')  # two passages with 001
            page.locator('tr:not([hidden])[data-a="student001"] a').first.click()
            page.wait_for_load_state()
            page.locator('.ptable tr[data-jump="0"]').click()  # passage 1 in both panes
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(out / "report-pair.png"))
            write_copied_class(work / "exercise5")
            subprocess.run([str(winnow), "compare", "--each", "exercise5", "-j", "1", "-q",
                            "-n", "3300", "-m", "200", "--passages-top", "20",
                            "--report", "class.html", "-o", os.devnull], cwd=work, check=True)
            page.goto((work / "class.html").as_uri())
            page.locator(".graphbox").scroll_into_view_if_needed()
            page.locator(".graphbox").screenshot(path=str(out / "report-graph-120.png"))
            browser.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main()
