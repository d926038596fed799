"""The sif library never imports the CLI's libraries (progress comes by callback)."""

from __future__ import annotations

import subprocess
import sys


def test_index_and_sif_do_not_import_click_or_tqdm() -> None:
    code = (
        "import sys\n"
        "import winnow.index, winnow.sif.build, winnow.sif.query, winnow.sif.groups\n"
        "import winnow.sif.interesting, winnow.sif.dircmp, winnow.sif.dedup\n"
        "import winnow.reports.sif, winnow.reports.sif_changes\n"
        "print(sorted(m for m in ('click', 'tqdm') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert out.strip() == "[]"
