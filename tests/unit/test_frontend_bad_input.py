"""Bad input gets a clear outcome and never aborts a batch (issue 3, "Must show")."""

from __future__ import annotations

import json
import sys
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from winnow.cli.main import main
from winnow.errors import InputError
from winnow.frontends import make_document, read_document
from winnow.model import Span


def test_empty_file() -> None:
    doc = make_document(b"", "empty.py")
    assert (doc.kind, doc.frontend, len(doc.stream)) == ("text", "code", 0)
    assert "empty file" in doc.warnings


def test_only_comments() -> None:
    doc = make_document(b"# just a comment\n# and another\n", "c.py")
    assert len(doc.stream) == 0
    assert "no content left after normalisation" in doc.warnings


def test_binary_bytes_in_a_py_file_fall_back_to_bytes() -> None:
    data = b"print('x')\n\x00\x01\x02\x00\xff" * 3
    doc = make_document(data, "weird.py")
    assert (doc.kind, doc.frontend) == ("binary", "bytes")
    assert len(doc.stream) == len(data)
    assert any("looks binary" in w for w in doc.warnings)


def test_invalid_utf8_is_processed_with_a_warning() -> None:
    data = "def f():\n    return 'é'\n".encode() + b"x = '\xff\xfe'\n"
    doc = make_document(data, "bad.py")
    assert (doc.kind, doc.frontend) == ("text", "code")
    assert any("invalid UTF-8" in w for w in doc.warnings)
    assert [doc.stream.labels[int(u)] for u in doc.stream.units][-3:] == ["ID", "=", "STR"]


def test_utf16_text_matches_its_utf8_twin() -> None:
    text = "Zoë says: the quick brown fox\n"
    a = make_document(text.encode("utf-16"), "a.txt")
    b = make_document(text.encode(), "b.txt")
    assert a.encoding == "utf-16-le" and a.kind == "text"
    assert a.stream.units.tolist() == b.stream.units.tolist()
    assert a.data[a.stream.starts[2]:a.stream.ends[2]].decode("utf-16-le") == "ë"


def test_notebook_without_code_cells() -> None:
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["only prose"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    doc = make_document(json.dumps(nb).encode(), "n.ipynb")
    assert (doc.frontend, len(doc.stream)) == ("notebook", 0)
    assert "notebook has no code cells" in doc.warnings


def test_corrupt_notebook_is_compared_as_text() -> None:
    doc = make_document(b'{"cells": [ {"cell_type": "code", ', "n.ipynb")
    assert doc.kind == "text" and len(doc.stream) > 0
    assert any("not a readable notebook" in w for w in doc.warnings)


def test_corrupt_pdf_is_compared_as_bytes() -> None:
    pytest.importorskip("pypdf")
    data = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage\n%%EOF"
    doc = make_document(data, "broken.pdf")
    assert (doc.kind, doc.frontend) == ("binary", "document")
    assert any("cannot extract text" in w for w in doc.warnings)
    assert len(doc.stream) == len(data)


def test_unreadable_paths_raise_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_document(tmp_path / "missing.py")
    with pytest.raises(InputError, match="directory"):
        read_document(tmp_path)


def _rss() -> tuple[int, int] | None:
    """(peak, current) resident bytes of this process, or None off Linux."""
    try:
        status = Path("/proc/self/status").read_text()
        Path("/proc/self/clear_refs").write_text("5")  # the peak restarts from now
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return (int(fields["VmHWM"].split()[0]) * 1024, int(fields["VmRSS"].split()[0]) * 1024)


@pytest.mark.slow  # left out of the quick lane (scripts/check --quick)
def test_long_single_line_streams_in_bounded_memory() -> None:
    # One 16 MB line: the scanner works in place.  Its output is allocated for
    # one unit per input byte (20 bytes) and shrunk in place, so Python sees
    # nothing else of that size, and pages never written never become resident:
    # the resident peak grows by the exact-size output (20 bytes per kept unit).
    n = 16 << 20
    data = (b"abc, " * (n // 5 + 1))[:n]
    make_document(b"warm up: compile the kernels outside the measurement", "w.txt")
    tracemalloc.start()
    doc = make_document(data, "one-line.txt")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    units = len(doc.stream)
    assert units == data.count(b"a") + data.count(b"b") + data.count(b"c")
    assert peak < 20 * n + (4 << 20)
    assert doc.lines_of(doc.stream.byte_span(Span(0, units))) == (1, 1)
    del doc
    before = _rss()
    again = make_document(data, "one-line.txt")
    after = _rss()
    if before is not None and after is not None:
        assert after[0] - before[1] < 20 * len(again.stream) + (8 << 20)


def test_a_batch_survives_every_bad_input(tmp_path: Path) -> None:
    files = {
        "empty.py": b"",
        "comments.py": b"# nothing\n",
        "binary.py": b"\x00\x01\x02" * 50,
        "invalid.py": b"x = '\xff'\n",
        "utf16.txt": "hello there".encode("utf-16"),
        "nocode.ipynb": json.dumps({"cells": [], "metadata": {}}).encode(),
        "corrupt.pdf": b"%PDF-1.4 garbage",
        "good.py": b"def f(x):\n    return x + 1\n",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    paths = [str(tmp_path / name) for name in files] + [str(tmp_path / "missing.py")]
    result = CliRunner().invoke(main, ["fingerprint", "-k", "3", "-t", "4", "--format",
                                       "json", *paths])
    assert result.exit_code == 1  # the missing file
    out = result.stdout
    records = json.loads(out[out.index("["):])
    assert [Path(r["path"]).name for r in records] == list(files)
    assert "missing.py: no such file" in result.stderr
    good = records[-1]
    assert good["language"] == "python" and good["fingerprints"]
    assert all(fp["line_start"] >= 1 for fp in good["fingerprints"])


def test_missing_documents_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pypdf", None)  # import pypdf now fails
    doc = make_document(b"%PDF-1.4 whatever", "paper.pdf")
    assert (doc.kind, doc.frontend) == ("binary", "document")
    assert any("pip install -e '.[documents]' in winnow's source folder" in w
               for w in doc.warnings)
