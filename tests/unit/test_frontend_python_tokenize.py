"""The Python fast path agrees with Python's own tokenizer on real files.

Python's ``tokenize`` is the reference lexer for Python: on a sample of the
running interpreter's standard library, the fast path must give exactly the
same token sequence (names mapped to keywords or ``ID``, numbers ``NUM``,
strings ``STR``, operators by their text; comments and layout dropped).
"""

from __future__ import annotations

import io
import keyword
import tokenize
from pathlib import Path

import pytest

from winnow.frontends import make_document

STDLIB = Path(tokenize.__file__).parent
SAMPLE = sorted(STDLIB.glob("*.py"))[::8][:40]
SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
        tokenize.ENCODING, tokenize.ENDMARKER}


def reference(data: bytes) -> list[str]:
    out = []
    for tok in tokenize.tokenize(io.BytesIO(data).readline):
        if tok.type in SKIP:
            continue
        if tok.type == tokenize.NAME:
            out.append(tok.string if keyword.iskeyword(tok.string) else "ID")
        elif tok.type == tokenize.NUMBER:
            out.append("NUM")
        elif tok.type == tokenize.STRING:
            out.append("STR")
        else:
            out.append(tok.string)
    return out


@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.name)
def test_fast_path_matches_tokenize(path: Path) -> None:
    data = path.read_bytes()
    doc = make_document(data, path.name)
    assert [doc.stream.labels[int(u)] for u in doc.stream.units] == reference(data)
    for start, end in zip(doc.stream.starts[:200].tolist(), doc.stream.ends[:200].tolist(),
                          strict=True):
        assert data[start:end].strip() == data[start:end]  # spans hold no blanks


def test_sample_is_not_empty() -> None:
    assert len(SAMPLE) >= 10
