"""The fingerprint table's one pass over the rows sorted by hash
(``winnow.matching.table._group``) against a row-by-row reading of its rules."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.matching.table import _group


def _naive(hashes: list[int], owners: list[int], files: list[int], own: list[bool],
           n_files: int, cap: int, many: int, many_is_base: bool) -> dict[str, object]:
    """Each rule spelled out on Python lists: postings are distinct (hash, owner)."""
    holders: dict[int, dict[int, bool]] = {}
    for h, o, w in zip(hashes, owners, own, strict=True):
        holders.setdefault(h, {})
        holders[h][o] = holders[h].get(o, False) or w
    postings = []
    capped, many_postings = [], []
    for h in sorted(holders):
        df = len(holders[h])
        if df > cap:
            capped.append(h)
        if many >= 2 and df >= many and any(holders[h].values()):
            many_postings += [(h, o) for o in sorted(holders[h])]
        if df <= cap:
            postings += [(h, o, df, w and not (many_is_base and 2 <= many <= df))
                         for o, w in sorted(holders[h].items())]
    file_prints = [0] * n_files
    for h, f in zip(hashes, files, strict=True):
        if len(holders[h]) <= cap:
            file_prints[f] += 1
    return {"postings": postings, "capped": capped, "many": many_postings,
            "file_prints": file_prints, "distinct": len(holders)}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 9), st.booleans()), max_size=60),
       st.integers(1, 6), st.integers(0, 5), st.booleans())
def test_group_reads_postings_caps_and_common_hashes_as_the_rules_say(
    raw: list[tuple[int, int, bool]], cap: int, many: int, many_is_base: bool,
) -> None:
    files_owner = [f // 2 for f in range(10)]  # two files per owner, five owners
    rows = sorted({(files_owner[f], f, h): w for f, h, w in
                   ((f, h, w) for h, f, w in raw)}.items())  # distinct per file, by owner
    owners = [o for (o, _, _), _ in rows]
    files = [f for (_, f, _), _ in rows]
    hashes = [h * 0x9E3779B97F4A7C15 % (1 << 64) for (_, _, h), _ in rows]
    own = [w for _, w in rows]
    got = _group(np.array(hashes, dtype=np.uint64), np.array(files, dtype=np.int32),
                 np.array(files_owner, dtype=np.int64), np.array(own, dtype=bool), cap, many,
                 many_is_base)
    want = _naive(hashes, owners, files, own, 10, cap, many, many_is_base)
    assert list(zip(got.hashes.tolist(), got.owners.tolist(), got.df.tolist(),
                    got.own.tolist(), strict=True)) == want["postings"]
    assert got.capped.tolist() == want["capped"]
    assert list(zip(got.many_hashes.tolist(), got.many_owners.tolist(), strict=True)) \
        == want["many"]
    assert got.file_prints.tolist() == want["file_prints"]
    assert got.distinct == want["distinct"]
