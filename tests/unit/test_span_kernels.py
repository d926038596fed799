"""The compiled span loops against the array rules they replace."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.matching import _span_kernels as spans


def _file(draw: st.DrawFn) -> tuple[np.ndarray, ...]:
    n = draw(st.integers(0, 40))
    positions = np.array(draw(st.lists(st.integers(0, 60), min_size=n, max_size=n)), np.int64)
    lengths = np.array(draw(st.lists(st.integers(1, 8), min_size=n, max_size=n)), np.int64)
    hashes = np.array(draw(st.lists(st.integers(0, 12), min_size=n, max_size=n)), np.uint64)
    literal = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), bool)
    order = np.argsort(hashes, kind="stable")  # a file's fingerprints are sorted by hash
    hashes, positions, lengths, literal = hashes[order], positions[order], lengths[order], \
        literal[order]
    by_position = np.argsort(positions, kind="stable")
    return hashes, by_position, positions[by_position], positions + lengths, positions, literal


@st.composite
def files_and_spans(draw: st.DrawFn) -> tuple[tuple[np.ndarray, ...], ...]:
    a, b = _file(draw), _file(draw)
    sa, sb = draw(st.integers(0, 70)), draw(st.integers(0, 70))
    ea, eb = sa + draw(st.integers(0, 40)), sb + draw(st.integers(0, 40))
    return a, b, (sa, ea, sb, eb)


def _inside(file: tuple[np.ndarray, ...], start: int, end: int) -> np.ndarray:
    _, _, _, ends, positions, _ = file
    mask: np.ndarray = (positions >= start) & (ends <= end)
    return mask


@settings(max_examples=300, deadline=None)
@given(files_and_spans())
def test_span_loops_agree_with_the_array_rules(case: tuple[tuple[np.ndarray, ...], ...]) -> None:
    a, b, (sa, ea, sb, eb) = case
    in_a, in_b = _inside(a, sa, ea), _inside(b, sb, eb)
    rows = spans.span_rows(a[1], a[2], a[3], sa, ea)
    assert sorted(rows.tolist()) == np.flatnonzero(in_a).tolist()
    assert np.all(np.diff(a[4][rows]) >= 0)  # in order of position
    expected = np.intersect1d(np.unique(a[0][in_a]), np.unique(b[0][in_b]))
    shared = spans.shared_hashes(*a[:4], sa, ea, *b[:4], sb, eb)
    assert shared.tolist() == expected.tolist()
    for file, start, end, mask in ((a, sa, ea, in_a), (b, sb, eb, in_b)):
        hit = mask & np.isin(file[0], shared)
        first, last = spans.shared_extent(*file[:4], file[4], start, end, shared)
        if hit.any():
            assert (first, last) == (file[4][hit].min(), file[3][hit].max())
        else:
            assert (first, last) == (end, start)
        literal_hit = hit & file[5]
        units = {u for p, e in zip(file[4][literal_hit].tolist(), file[3][literal_hit].tolist(),
                                   strict=True) for u in range(p, e)}
        assert spans.literal_units(*file[:4], file[5], file[4], start, end, shared) == len(units)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=80))
def test_position_order_is_the_stable_argsort(positions: list[int]) -> None:
    values = np.array(positions, dtype=np.int64)
    assert spans.position_order(values).tolist() == np.argsort(values, kind="stable").tolist()
