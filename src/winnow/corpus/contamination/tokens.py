"""Word tokens of a text, as the contamination scan compares them.

The text front-end (:func:`winnow.frontends.text.char_units`: Unicode NFKC,
case folded, spaces and punctuation dropped) gives the normalised characters
with their byte spans; a *token* is a run of letters and digits with nothing
dropped between them (``"Well-known, 3.14"`` gives ``well known 3 14``), as
the front-end's word mode groups them.  A token's id is the 64-bit FNV-1a
hash of its normalised code points, computed in the front-end's compiled
word splitter, so that no Python code runs per word: equal words have equal
ids in every process, and two different words share an id with probability
about 2^-64.  ``starts``/``ends`` are each token's byte span in the UTF-8
text, so a span of tokens maps back to a slice of the original text.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from winnow.frontends._text_kernels import word_bounds
from winnow.frontends.text import char_units

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

class Tokens(NamedTuple):
    """Token ids and each token's ``[start, end)`` in the UTF-8 bytes."""

    ids: U64
    starts: I64
    ends: I64


def tokens(utf8: bytes) -> Tokens:
    """The word tokens of UTF-8 text (see the module docstring)."""
    chars = char_units(utf8)
    n = chars.cps.shape[0]
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return Tokens(np.zeros(0, dtype=np.uint64), empty, empty)
    wordchar = np.ones(n, dtype=np.bool_)  # the front-end keeps letters and digits only
    bounds = np.empty(n, dtype=np.int64)
    ids = np.empty(n, dtype=np.uint64)
    count = int(word_bounds(chars.cps, chars.starts, chars.ends, wordchar, bounds, ids))
    first = bounds[:count]
    last = np.append(first[1:], n) - 1
    return Tokens(ids[:count].copy(), chars.starts[first], chars.ends[last])


__all__ = ["Tokens", "tokens"]
