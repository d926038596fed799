"""Hostile content: one malformed file never costs the rest of the class its result.

Every front-end is fed garbage and hostile structures (notebooks whose cells
are numbers, sources that are lists of numbers, JSON nested 100,000 deep,
unclosed HTML, corrupt PDF and DOCX, NULs, lone surrogates ...): it returns a
document or raises an :class:`InputError` naming the file, never anything else.
Then each command meets such a file among good ones.
"""

from __future__ import annotations

import io
import json
import random
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hostile.content_support import (
    baseline,
    cli,
    compare_run,
    make_class,
    mallory_pairs,
    others,
)
from winnow.errors import InputError
from winnow.frontends import FRONTENDS, UnreadableContent, make_document
from winnow.frontends.code import CodeFrontEnd
from winnow.index import FingerprintIndex


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


DEEP = 100_000
GARBAGE: dict[str, bytes] = {
    "cells-are-numbers.ipynb": b'{"cells": [1]}',
    "source-numbers.ipynb": b'{"cells": [{"cell_type": "code", "source": [1, 2]}]}',
    "source-object.ipynb": b'{"cells": [{"cell_type": "code", "source": {"a": 1}}]}',
    "cells-string.ipynb": b'{"cells": "abc", "metadata": []}',
    "metadata-odd.ipynb": b'{"cells": [], "metadata": {"kernelspec": 5}}',
    "deep-list.ipynb": b"[" * DEEP,
    "deep-object.ipynb": b'{"a":' * DEEP,
    "deep-cells.ipynb": b'{"cells": [' + b"[" * DEEP + b"]" * DEEP + b"]}",
    "truncated.ipynb": b'{"cells": [{"cell_type": "code", "source": ["x = 1\\',
    "surrogate.ipynb": b'{"cells": [{"cell_type": "code", "source": ["\\ud800x"]}]}',
    "deep.html": b"<div>" * DEEP,
    "open-tag.html": b"<a " * 20_000,
    "garbage.docx": b"PK\x03\x04" + bytes(range(256)) * 4,
    "not-docx.docx": _zip({"word/document.xml": b"<w:document><unclosed"}),
    "garbage.pdf": b"%PDF-1.4\n" + bytes(range(256)) * 4,
    "nul.py": b"x = 1\0\0\0" * 50,
    "latin1.py": "x = 'caf\xe9'\n".encode("latin-1") * 20,
    "deep.py": b"(" * DEEP,
    "long-token.py": b"x" * 2_000_000,
    "bom-only.txt": b"\xef\xbb\xbf",
    "random.bin": random.Random(15).randbytes(4096),
}


@pytest.mark.parametrize("frontend", sorted(FRONTENDS))
@pytest.mark.parametrize("name", sorted(GARBAGE))
def test_every_frontend_survives_garbage(frontend: str, name: str) -> None:
    data = GARBAGE[name]
    try:
        doc = make_document(data, f"sub/{name}", frontend=frontend)
    except InputError as error:
        assert error.path == f"sub/{name}"
        return
    n = len(doc.data)
    assert all(0 <= s <= e <= n for s, e in zip(doc.stream.starts.tolist(),
                                                  doc.stream.ends.tolist(), strict=True))


@settings(max_examples=40, deadline=None)
@given(data=st.binary(max_size=2000), frontend=st.sampled_from(sorted(FRONTENDS)),
       suffix=st.sampled_from([".py", ".ipynb", ".html", ".docx", ".pdf", ".txt"]))
def test_any_bytes_give_a_document_or_a_named_input_error(
        data: bytes, frontend: str, suffix: str) -> None:
    try:
        make_document(data, "f" + suffix, frontend=frontend)
    except InputError as error:
        assert error.path == "f" + suffix


def test_any_exception_from_a_frontend_becomes_unreadable_content(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(self: CodeFrontEnd, inp: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(CodeFrontEnd, "process", explode)
    with pytest.raises(UnreadableContent) as caught:
        make_document(b"x = 1\n", "sub/a.py")
    assert caught.value.path == "sub/a.py"
    assert "KeyError" in caught.value.reason


NOTEBOOKS = ["cells-are-numbers.ipynb", "source-numbers.ipynb", "deep-list.ipynb"]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_compare_survives_a_malformed_notebook(tmp_path: Path, name: str) -> None:
    klass = make_class(tmp_path, {name: GARBAGE[name]})
    result, report = compare_run(klass)
    assert result.exit_code == 0  # compared as text, with a note
    assert f"mallory/{name}: not a readable notebook" in result.stderr
    assert others(report) == baseline(tmp_path)
    assert mallory_pairs(report)


def _explode_on_mallory(monkeypatch: pytest.MonkeyPatch) -> None:
    """The code front-end raises an unexpected error on mallory's ``evil.py``."""
    real = CodeFrontEnd.process

    def process(self: CodeFrontEnd, inp: object) -> object:
        if str(getattr(inp, "name", "")).endswith("evil.py"):
            raise AttributeError("'int' object has no attribute 'get'")
        return real(self, inp)  # type: ignore[arg-type]

    monkeypatch.setattr(CodeFrontEnd, "process", process)


def test_compare_skips_a_file_whose_frontend_raises(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    expected = baseline(tmp_path)
    klass = make_class(tmp_path, {"evil.py": b"x = 1\n"})
    _explode_on_mallory(monkeypatch)
    result, report = compare_run(klass)
    assert result.exit_code == 1
    assert "mallory/evil.py: cannot process content (AttributeError" in result.stderr
    assert others(report) == expected
    assert mallory_pairs(report)


def test_index_and_scan_keep_every_other_file(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    klass = make_class(tmp_path, {"evil.py": b"x = 1\n", "hw.ipynb": b'{"cells": [1]}'})
    _explode_on_mallory(monkeypatch)
    db = tmp_path / "i.db"
    result = cli("index", "--db", str(db), "-j", "1", "--frontend", "auto", "--show-skipped",
                 str(klass))
    assert result.exit_code == 0, result.stderr  # the index's convention: listed, not failed
    assert f"skipped '{klass / 'mallory' / 'evil.py'}': cannot process content" in result.stderr
    with FingerprintIndex(db) as index:
        paths = {Path(row.path).relative_to(klass).as_posix() for row in index.documents()}
    good = {p.relative_to(klass).as_posix() for p in klass.rglob("*") if p.is_file()}
    assert paths == good - {"mallory/evil.py"}
    scanned = cli("scan", "-j", "1", "--frontend", "auto", "--format", "json", str(klass))
    assert scanned.exit_code == 0
    assert "skipped 1: 1 cannot process content (AttributeError" in scanned.stderr
    assert json.loads(scanned.stdout)


@pytest.mark.parametrize("command", ["tokens", "fingerprint"])
def test_single_file_commands_go_on_past_a_bad_file(tmp_path: Path, command: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    klass = make_class(tmp_path, {"evil.py": b"x = 1\n", "hw.ipynb": b'{"cells": [1]}'})
    _explode_on_mallory(monkeypatch)
    good = klass / "alice" / "textstats.py"
    alone = cli(command, str(good))
    result = cli(command, str(klass / "mallory" / "evil.py"),
                 str(klass / "mallory" / "hw.ipynb"), str(good))
    assert result.exit_code == 1
    assert "evil.py: cannot process content (AttributeError" in result.stderr
    assert alone.stdout in result.stdout


def test_evaluate_survives_a_bad_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    klass = make_class(tmp_path, {"evil.py": b"x = 1\n", "hw.ipynb": b'{"cells": [1]}'})
    _explode_on_mallory(monkeypatch)
    labels = tmp_path / "labels.csv"
    labels.write_text("file_a,file_b,label\n"
                      "alice/textstats.py,bob/textstats.py,1\n"
                      "alice/textstats.py,erin/textstats.py,0\n"
                      "mallory/evil.py,erin/textstats.py,0\n"
                      "mallory/hw.ipynb,bob/textstats.py,0\n")
    result = cli("evaluate", str(labels), "--root", str(klass), "-q", "-j", "1",
                 "--format", "json")
    assert result.exit_code == 1, result.stderr
    assert "evil.py: cannot process content" in result.stderr
    assert json.loads(result.stdout)
