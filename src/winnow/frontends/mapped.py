"""Text assembled from pieces of a source, each character knowing its source bytes.

HTML's visible text and a notebook's code cells are not contiguous in the
file.  :class:`Assembled` holds such text with, for every character, the
``[start, end)`` range it came from in the source's UTF-8 bytes (an entity
like ``&amp;`` gives one character spanning five bytes), so a front-end can
run on the assembled text and still report offsets into the original file.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from winnow.frontends.sniff import codepoints, utf8_widths

I64 = npt.NDArray[np.int64]


def char_offsets(text: str) -> I64:
    """UTF-8 byte offset of every character of ``text``, plus the total length."""
    widths = utf8_widths(codepoints(text))
    return np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(widths)]).astype(np.int64)


@dataclass(frozen=True)
class Assembled:
    """UTF-8 text plus, for each of its bytes, the source range it came from."""

    utf8: bytes
    byte_starts: I64
    byte_ends: I64

    @staticmethod
    def from_chars(text: str, starts: I64, ends: I64) -> Assembled:
        """From text and the source range of each of its characters."""
        if not text:
            empty = np.zeros(0, dtype=np.int64)
            return Assembled(b"", empty, empty)
        if len(text) != starts.shape[0]:
            raise ValueError("one source range per character expected")
        widths = utf8_widths(codepoints(text))
        return Assembled(text.encode("utf-8", "surrogateescape"), np.repeat(starts, widths),
                         np.repeat(ends, widths))

    def source_spans(self, starts: I64, ends: I64) -> tuple[I64, I64]:
        """Map unit spans in :attr:`utf8` to spans in the source."""
        if starts.shape[0] == 0:
            return starts, ends
        return self.byte_starts[starts], self.byte_ends[ends - 1]
