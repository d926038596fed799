"""Stable unit ids: the same label gives the same id in every run and process.

Ids are the first 4 bytes (little-endian) of BLAKE2b over the UTF-8 label,
with the top bit set so they never collide with a Unicode code point (text
units), never Python's salted ``hash()``.
"""

from __future__ import annotations

from functools import lru_cache
from hashlib import blake2b


@lru_cache(maxsize=1 << 16)
def stable_id(label: str) -> int:
    """The 32-bit id of a token or word label."""
    digest = blake2b(label.encode("utf-8", "surrogatepass"), digest_size=4).digest()
    return int.from_bytes(digest, "little") | 0x80000000
