"""The in-memory fingerprint table of one comparison.

All fingerprint occurrences of a batch as parallel arrays ``(hash, file,
pos)``, with base code and common fingerprints removed (MOSS ``-b`` and
``-m``, winnowing paper section 5.2: starter code is fingerprinted and its
fingerprints are ignored; a fingerprint in too many documents is ignored),
the per-submission fingerprint sets, and the shared counts per pair.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.matching.counting import (
    SharedCounts,
    count_shared,
    distinct_postings,
    group_bounds,
    idf_weights,
)

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class FingerprintTable:
    """Kept occurrences sorted by (owner, hash, file, pos), and what was counted.

    ``owner_bounds[x]:owner_bounds[x + 1]`` are owner ``x``'s rows;
    ``excluded`` the sorted hashes ignored everywhere (base ∪ capped);
    ``sizes[x] = |F_x|``; ``weight_totals[x] = W_x``; ``file_prints[f]`` the
    distinct kept fingerprints of file ``f``.
    """

    hashes: U64
    files: I64
    positions: I64
    owner_bounds: I64
    excluded: U64
    sizes: I64
    weight_totals: F64
    file_prints: I64
    counts: SharedCounts
    stats: dict[str, int]

    def rows(self, owner: int) -> tuple[U64, I64, I64]:
        """(hashes, files, positions) of one owner's kept occurrences, hash-sorted."""
        lo, hi = int(self.owner_bounds[owner]), int(self.owner_bounds[owner + 1])
        return self.hashes[lo:hi], self.files[lo:hi], self.positions[lo:hi]


def build_table(
    hashes: U64, files: I64, positions: I64, file_owner: I64, n_owners: int, *,
    base_hashes: U64, cap: int, archive: Bools,
) -> FingerprintTable:
    """Drop base and capped hashes, count per-owner sets and shared pairs.

    ``cap`` is the largest number of owners a kept hash may appear in;
    ``archive[x]`` marks owners never paired with each other.
    """
    n_files = file_owner.shape[0]
    in_base = np.isin(hashes, base_hashes) if base_hashes.shape[0] else np.zeros(0, bool)
    if in_base.shape[0]:
        keep = ~in_base
        hashes, files, positions = hashes[keep], files[keep], positions[keep]
    owners = file_owner[files]
    post_h, post_o = distinct_postings(hashes, owners)
    starts, df = group_bounds(post_h)
    capped = post_h[starts[df > cap]]
    row_df = np.repeat(df, df)
    kept_rows = row_df <= cap
    kh, ko, kdf = post_h[kept_rows], post_o[kept_rows], row_df[kept_rows]
    idf = idf_weights(kdf, n_owners)
    counts = count_shared(kh, ko, n_owners, weights=idf, excluded_owner_pairs=archive)
    if capped.shape[0]:
        keep = ~np.isin(hashes, capped)
        hashes, files, positions, owners = (
            hashes[keep], files[keep], positions[keep], owners[keep]
        )
    order = np.lexsort((positions, files, hashes, owners))
    hashes, files, positions, owners = (
        hashes[order], files[order], positions[order], owners[order]
    )
    _, file_f = distinct_postings(hashes, files)
    return FingerprintTable(
        hashes=hashes, files=files, positions=positions,
        owner_bounds=np.searchsorted(owners, np.arange(n_owners + 1)).astype(np.int64),
        excluded=np.union1d(base_hashes, capped).astype(np.uint64),
        sizes=np.bincount(ko, minlength=n_owners).astype(np.int64),
        weight_totals=np.bincount(ko, weights=idf, minlength=n_owners).astype(np.float64),
        file_prints=np.bincount(file_f, minlength=n_files).astype(np.int64),
        counts=counts,
        stats={
            "fingerprints": int(hashes.shape[0]),
            "ignored_base": int(in_base.sum()),
            "ignored_common": int(capped.shape[0]),
            "distinct_hashes": int(starts.shape[0]),
            "pairs_sharing": int(counts.a.shape[0]),
        },
    )
