"""The paper's guarantee and locality, as property tests (sections 3 and 4)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import winnow
from winnow.engine import robust_winnow, safe_mod_p
from winnow.engine import winnow as plain_winnow

SELECTORS = {
    "winnow": lambda h, w: plain_winnow(h, w),
    "robust": lambda h, w: robust_winnow(h, w),
    "safe-mod-p": lambda h, w: safe_mod_p(h, w, 3),
}


@st.composite
def documents_sharing_a_substring(draw: st.DrawFn) -> tuple[list[int], list[int], int, int]:
    k = draw(st.integers(1, 6))
    w = draw(st.integers(1, 8))
    t = w + k - 1
    alphabet = st.integers(0, draw(st.sampled_from([1, 3, 255])))
    shared = draw(st.lists(alphabet, min_size=t, max_size=t + 10))
    a = draw(st.lists(alphabet, max_size=30)) + shared + draw(st.lists(alphabet, max_size=30))
    b = draw(st.lists(alphabet, max_size=30)) + shared + draw(st.lists(alphabet, max_size=30))
    return a, b, k, w


@settings(max_examples=600, deadline=None)
@given(documents_sharing_a_substring(), st.sampled_from(sorted(SELECTORS)))
def test_shared_substring_of_length_t_shares_a_fingerprint(
    docs: tuple[list[int], list[int], int, int], method: str
) -> None:
    """Any substring of length >= t = w + k - 1 common to both documents makes
    both selections share at least one hash."""
    a, b, k, w = docs
    select = SELECTORS[method]
    fa = select(winnow.kgram_hashes(np.array(a, dtype=np.int64), k), w)
    fb = select(winnow.kgram_hashes(np.array(b, dtype=np.int64), k), w)
    assert set(fa["hash"].tolist()) & set(fb["hash"].tolist())


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(0, 5), min_size=1, max_size=12),
    st.lists(st.integers(0, 5), max_size=25),
    st.lists(st.integers(0, 5), max_size=25),
    st.lists(st.integers(0, 5), max_size=25),
    st.lists(st.integers(0, 5), max_size=25),
)
def test_winnowing_is_local(window: list[int], left_a: list[int], right_a: list[int],
                            left_b: list[int], right_b: list[int]) -> None:
    """Definition 2: the choice in a window depends only on its contents, so the
    same window in two different places selects the same relative position."""
    w = len(window)
    low = min(window)
    choice = max(i for i, x in enumerate(window) if x == low)
    for left, right in ((left_a, right_a), (left_b, right_b)):
        hashes = np.array(left + window + right, dtype=np.uint64)
        selected = set(plain_winnow(hashes, w)["pos"].tolist())
        assert len(left) + choice in selected
