"""The paper's worked example (Figure 2) and pinned hash values."""

from __future__ import annotations

import numpy as np
import pytest

import winnow
from winnow.engine import as_pairs, robust_winnow
from winnow.engine import winnow as plain_winnow

FIGURE_2 = [77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98]
FIGURE_2_FINGERPRINTS = [(17, 3), (17, 6), (8, 8), (39, 11), (17, 15)]


def test_figure_2_winnowing() -> None:
    hashes = np.array(FIGURE_2, dtype=np.uint64)
    assert as_pairs(plain_winnow(hashes, 4)) == FIGURE_2_FINGERPRINTS


def test_figure_2_robust_winnowing() -> None:
    # Window [3..6] holds 17 twice: robust keeps position 3 (chosen by the
    # window to its left) where plain winnowing moves to 6 at once; both then
    # select 17@6 when position 3 leaves, so the recorded sets coincide here.
    hashes = np.array(FIGURE_2, dtype=np.uint64)
    assert as_pairs(robust_winnow(hashes, 4)) == FIGURE_2_FINGERPRINTS


def test_figure_2_through_public_api() -> None:
    selected = winnow.select_fingerprints(np.array(FIGURE_2, dtype=np.uint64), 4)
    assert len(selected) == 5
    assert [(int(h), int(p)) for h, p in selected] == FIGURE_2_FINGERPRINTS


def test_robust_differs_from_plain_on_ties() -> None:
    # A run of equal minima with w=3: plain winnowing walks right along the
    # run; robust stays on a selected hash while it remains in the window.
    hashes = np.array([5, 9, 5, 5, 5, 5, 9], dtype=np.uint64)
    assert [p for _, p in as_pairs(plain_winnow(hashes, 3))] == [2, 3, 4, 5]
    assert [p for _, p in as_pairs(robust_winnow(hashes, 3))] == [2, 5]


QUICK_FOX = b"The quick brown fox jumps over the lazy dog"


@pytest.mark.parametrize(
    ("units", "k", "seed", "expected"),
    [
        (QUICK_FOX, 5, 0, [7387679780727592453, 6867868526417128309,
                           7535906128225914455, 577567061106026924]),
        (QUICK_FOX, 5, 1, [15893938216816467409, 4967867584592794593]),
        ([1, 2, 3, 70000, 5], 2, 0, [6110412446569342890, 8685115198056580541,
                                     1450481610116865451, 3943353237287431481]),
    ],
)
def test_golden_hash_values(units: bytes | list[int], k: int, seed: int,
                            expected: list[int]) -> None:
    """Changing these values is an index-format change: bump the format version."""
    array = (np.frombuffer(units, dtype=np.uint8) if isinstance(units, bytes)
             else np.array(units, dtype=np.int64))
    hashes = winnow.kgram_hashes(array, k, seed=seed)
    assert [int(h) for h in hashes[: len(expected)]] == expected
