"""Resolution of -k/-t against a front-end's defaults."""

from __future__ import annotations

import io
import os
from concurrent.futures import ProcessPoolExecutor

import click
import pytest
from click.testing import CliRunner

from winnow.cli.common import WinnowGroup, write_records
from winnow.cli.compare import write_output
from winnow.cli.options import build_config, resolve_kt
from winnow.errors import EXIT_FAILED


def test_missing_k_and_t_take_the_defaults() -> None:
    assert resolve_kt(None, None, (10, 13)) == (10, 13)


def test_k_alone_keeps_the_default_window() -> None:
    assert resolve_kt(20, None, (10, 13)) == (20, 23)


def test_explicit_values_win() -> None:
    assert resolve_kt(7, 9, (10, 13)) == (7, 9)
    assert resolve_kt(None, 30, (10, 13)) == (10, 30)


def test_bad_values_are_usage_errors() -> None:
    with pytest.raises(click.UsageError, match="t \\(guarantee threshold\\) must be >= k"):
        build_config(None, 5, "winnow", 0, defaults=(10, 13))


def _die() -> None:
    os._exit(1)  # a worker killed mid-task, as by the out-of-memory killer


def test_a_dead_worker_is_a_message_and_exit_3_not_a_traceback() -> None:
    @click.group(cls=WinnowGroup)
    def group() -> None:
        pass

    @group.command()
    def work() -> None:
        with ProcessPoolExecutor(max_workers=1) as pool:
            pool.submit(_die).result(timeout=60)

    result = CliRunner().invoke(group, ["work"])
    assert result.exit_code == EXIT_FAILED
    assert "a worker process died" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


EVIL = "sub\x1b]0;pwned\x07\x1b[2J\u202e.py"


def test_csv_to_a_terminal_escapes_control_characters_and_to_a_file_keeps_them() -> None:
    for out, raw in ((_Terminal(), False), (io.StringIO(), True)):
        write_records([{"path": EVIL, "n": 3}], "csv", out, ["path", "n"])
        text = out.getvalue()
        assert ("\x1b" in text and "\u202e" in text) is raw
        if not raw:
            assert "sub\\x1b]0;pwned\\x07\\x1b[2J\\u202e.py,3" in text


def test_compare_csv_to_a_terminal_escapes_submission_names() -> None:
    from winnow.matching import compare
    from winnow.sources.submissions import ReadOptions, SourceFile, SubmissionSource

    body = b"the same words in both files, long enough to share fingerprints\n" * 3
    read = ReadOptions(frontend="text")
    subs = [SubmissionSource(name, "new", (SourceFile("x.txt", f"{name}/x.txt", read, body),))
            for name in (EVIL, "plain")]
    result = compare(subs)
    terminal, plain = _Terminal(), io.StringIO()
    write_output(result, "csv", terminal)
    write_output(result, "csv", plain)
    assert "\x1b" not in terminal.getvalue() and "\\x1b]0;pwned" in terminal.getvalue()
    assert EVIL in plain.getvalue()
