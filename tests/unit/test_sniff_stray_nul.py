"""A stray NUL byte does not turn source code into a skipped binary file.

gcc compiles a C file with a NUL inside a comment (with a warning), so before
the fix one such byte hid a copied file from ``compare`` ("binary file in a code
submission (skipped)").  Real binaries keep being binary.
"""

from __future__ import annotations

import pytest

from winnow.frontends import make_document
from winnow.frontends.sniff import sniff

C_SOURCE = b"".join(
    b"/* step %d */\nint step%d(int x) {\n    return x * %d + 1;\n}\n" % (i, i, i)
    for i in range(40)
)


def test_one_nul_in_a_comment_keeps_the_file_text_with_the_same_tokens() -> None:
    at = C_SOURCE.index(b"*/")
    tampered = C_SOURCE[:at] + b"\x00" + C_SOURCE[at:]
    assert sniff(tampered).kind == "text"
    doc, clean = make_document(tampered, "x.c"), make_document(C_SOURCE, "x.c")
    assert doc.kind == "text" and doc.frontend == "code"
    assert doc.stream.units.tolist() == clean.stream.units.tolist()


@pytest.mark.parametrize("data", [
    b"\x7fELF\x02\x01\x01\x00\x00\x00\x00" + bytes(range(256)) * 8,
    b"\x00\x01\x02" * 50 + C_SOURCE * 30,  # text wrapped in binary
    C_SOURCE[:500] + b"\x00" * 10 + C_SOURCE[500:1000],  # more than one NUL per KiB
    b"\x00",
])
def test_binaries_stay_binary(data: bytes) -> None:
    assert sniff(data).kind == "binary"
