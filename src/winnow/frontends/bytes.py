"""The bytes front-end: raw bytes, unchanged, for binaries and unknown formats."""

from __future__ import annotations

import numpy as np

from winnow.frontends.base import Input, Result
from winnow.model import Stream


class BytesFrontEnd:
    """Every byte is one unit; nothing is normalised (sif compares these only
    with each other)."""

    name = "bytes"
    binary_input = True

    def stream(self, data: bytes, name: str) -> Stream:
        units = np.frombuffer(data, dtype=np.uint8)
        starts = np.arange(units.shape[0], dtype=np.int64)
        return Stream(units=units, starts=starts, ends=starts + 1)

    def process(self, inp: Input) -> Result:
        return Result(self.stream(inp.data, inp.name))
