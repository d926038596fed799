"""Compiled calls run with Ctrl-C and SIGTERM held back (winnow.compiled.uninterrupted)."""

from __future__ import annotations

import os
import signal
from types import FrameType

from winnow.compiled import uninterrupted


def test_a_signal_sent_during_the_block_arrives_after_it() -> None:
    seen: list[str] = []

    def record(signum: int, frame: FrameType | None) -> None:
        seen.append("signal")

    previous = signal.signal(signal.SIGTERM, record)
    try:
        with uninterrupted():
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # bytecodes, where a handler would run
                pass
            seen.append("block ends")
        for _ in range(1000):
            pass
        assert seen == ["block ends", "signal"]
        os.kill(os.getpid(), signal.SIGTERM)  # not held after the block
        for _ in range(1000):
            pass
        assert seen == ["block ends", "signal", "signal"]
    finally:
        signal.signal(signal.SIGTERM, previous)
