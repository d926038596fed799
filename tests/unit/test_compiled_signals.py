"""Compiled calls run with Ctrl-C and SIGTERM held (winnow.compiled.uninterrupted)."""

from __future__ import annotations

import os
import signal
import threading
import time
from types import FrameType

import pytest

from winnow.compiled import uninterrupted


def spin(seen: list[str], count: int, seconds: float = 2.0) -> None:
    """Run bytecodes (where a Python handler runs) until ``seen`` holds
    ``count`` items or ``seconds`` pass."""
    end = time.monotonic() + seconds
    while len(seen) < count and time.monotonic() < end:
        pass


@pytest.mark.parametrize("other_thread", [False, True], ids=["alone", "with-a-thread"])
def test_a_signal_sent_during_the_block_is_handled_after_it(other_thread: bool) -> None:
    """Also when another thread (a pool's, a library's) takes the signal:
    the handler would still run in the main thread, inside the block."""
    seen: list[str] = []

    def record(signum: int, frame: FrameType | None) -> None:
        seen.append("signal")

    done = threading.Event()
    helper = threading.Thread(target=done.wait)
    if other_thread:
        helper.start()
    previous = signal.signal(signal.SIGTERM, record)
    try:
        with uninterrupted():
            os.kill(os.getpid(), signal.SIGTERM)
            spin(seen, 1, seconds=0.3)  # the handler would have run by now
            seen.append("block ends")
        assert seen == ["block ends", "signal"]
        assert signal.getsignal(signal.SIGTERM) is record  # restored
        os.kill(os.getpid(), signal.SIGTERM)  # not held after the block
        spin(seen, 3)
        assert seen == ["block ends", "signal", "signal"]
    finally:
        signal.signal(signal.SIGTERM, previous)
        done.set()
        if other_thread:
            helper.join()


def test_a_handler_that_raises_raises_after_the_block() -> None:
    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    finished = False
    try:
        with pytest.raises(SystemExit) as raised, uninterrupted():
            os.kill(os.getpid(), signal.SIGTERM)
            spin([], 1, seconds=0.3)
            finished = True
        assert finished and raised.value.code == 143
    finally:
        signal.signal(signal.SIGTERM, previous)


@pytest.mark.parametrize("action", [signal.SIG_DFL, signal.SIG_IGN])
def test_a_signal_without_a_python_handler_is_left_alone(action: signal.Handlers) -> None:
    """Only Python handlers are swapped: the default action and "ignore" stay
    in place inside the block, and every handler is as before after it."""
    previous = signal.signal(signal.SIGTERM, action)
    interrupt = signal.getsignal(signal.SIGINT)
    try:
        with uninterrupted():
            assert signal.getsignal(signal.SIGTERM) is action
            assert signal.getsignal(signal.SIGINT) is not interrupt  # held
        assert signal.getsignal(signal.SIGTERM) is action
        assert signal.getsignal(signal.SIGINT) is interrupt
    finally:
        signal.signal(signal.SIGTERM, previous)
