"""What a worker keeps of a file: the distinct hashes of both channels, sorted."""

from __future__ import annotations

import numpy as np
import pytest

from winnow.config import WinnowConfig
from winnow.frontends import make_document
from winnow.matching.prints import distinct, document_hashes, document_prints

SOURCE = b"""def f(a, b):
    s = "text" + 'more'
    return a * 42 + b / 3.5 - f(a - 1, "text")
""" * 5


@pytest.mark.parametrize(("data", "name"), [
    (SOURCE, "a.py"), (SOURCE[:40], "b.py"), (b"", "c.py"), (b"prose, not code " * 9, "d.txt"),
])
@pytest.mark.parametrize("literal", [None, WinnowConfig(k=4, t=6)])
def test_document_hashes_are_the_distinct_hashes_of_document_prints(
        data: bytes, name: str, literal: WinnowConfig | None) -> None:
    doc = make_document(data, name)
    config = WinnowConfig(k=5, t=8)
    hashes = document_hashes(doc, config, literal)
    reference = np.unique(document_prints(doc, config, literal)["hash"])
    assert hashes.dtype == np.uint64
    assert hashes.tolist() == reference.tolist()
    assert distinct(document_prints(doc, config, literal)["hash"]).tolist() == hashes.tolist()
    if literal is not None and data == SOURCE:  # the literal channel adds hashes
        assert hashes.shape[0] > document_hashes(doc, config).shape[0]
