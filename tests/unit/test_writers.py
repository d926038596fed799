"""The writer registry: every result type and format resolves; the pieces writers share."""

from __future__ import annotations

import importlib
import io
import json
from pathlib import Path
from typing import BinaryIO

import click
import click.testing
import pytest

from winnow.cli.options import FORMATS
from winnow.reports import writers
from winnow.reports.listings import LanguageListing
from winnow.reports.rows import write_csv_rows, write_json_listing
from winnow.reports.writers import WRITERS, formats, write, writer

EVIL = "sub\x1b]0;pwned\x07\x1b[2J\u202e.py"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_every_registered_type_and_writer_exists(name: str) -> None:
    module, _, class_name = name.rpartition(".")
    result_type = getattr(importlib.import_module(module), class_name)
    assert isinstance(result_type, type)
    assert formats(result_type)
    for fmt in formats(result_type):
        assert callable(writer(result_type, fmt))
    if "table" in formats(result_type):  # a command's result: the shared --format choices
        assert set(FORMATS) <= set(formats(result_type))


def test_a_subclass_is_written_by_the_writers_of_its_base() -> None:
    class Languages(LanguageListing):
        pass

    out = io.StringIO()
    write(Languages([("python", (".py", ".pyw"), "fast")]), "csv", out)
    assert out.getvalue() == "language,extensions,backend\npython,.py .pyw,fast\n"


def test_unknown_formats_and_types_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"has no format 'xml' \(it has table, csv, json, jsonl"):
        write(LanguageListing([]), "xml", io.StringIO())
    with pytest.raises(ValueError, match=r"no writer is registered for builtins\.dict"):
        write({}, "json", io.StringIO())


class Payload:
    """A result written as bytes (a stand-in for a binary format such as Parquet)."""


def write_payload(result: Payload, out: BinaryIO) -> None:
    out.write(b"\x00\xffbytes")


def test_a_binary_format_writes_to_the_byte_stream_after_the_text(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(WRITERS, f"{__name__}.Payload", {"raw": f"{__name__}:write_payload"})
    monkeypatch.setattr(writers, "BINARY_FORMATS", frozenset({"raw"}))
    path = tmp_path / "out.bin"
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write("text first;")
        write(Payload(), "raw", out)
    assert path.read_bytes() == b"text first;\x00\xffbytes"
    with pytest.raises(ValueError, match="the raw format writes bytes"):
        write(Payload(), "raw", io.StringIO())


def test_csv_to_a_terminal_escapes_control_characters_and_to_a_file_keeps_them() -> None:
    for out, raw in ((_Terminal(), False), (io.StringIO(), True)):
        write_csv_rows([{"path": EVIL, "n": 3}], ["path", "n"], out)
        text = out.getvalue()
        assert ("\x1b" in text and "\u202e" in text) is raw
        if not raw:
            assert text == "path,n\nsub\\x1b]0;pwned\\x07\\x1b[2J\\u202e.py,3\n"


def test_compare_csv_to_a_terminal_escapes_submission_names() -> None:
    from winnow.matching import compare
    from winnow.sources.submissions import ReadOptions, SourceFile, SubmissionSource

    body = b"the same words in both files, long enough to share fingerprints\n" * 3
    read = ReadOptions(frontend="text")
    subs = [SubmissionSource(name, "new", (SourceFile("x.txt", f"{name}/x.txt", read, body),))
            for name in (EVIL, "plain")]
    result = compare(subs)
    terminal, plain = _Terminal(), io.StringIO()
    write(result, "csv", terminal)
    write(result, "csv", plain)
    assert "\x1b" not in terminal.getvalue() and "\\x1b]0;pwned" in terminal.getvalue()
    assert EVIL in plain.getvalue()


def test_a_json_listing_is_one_object_with_an_item_per_line() -> None:
    head = {"options": {"threshold": 50.0, "kinds": ["a", "b"]}, "name": EVIL, "n": 2}
    items = [{"path": f"{EVIL}/{i}", "size": i} for i in range(3)]
    out = io.StringIO()
    write_json_listing(head, "files", items, out)
    text = out.getvalue()
    assert json.loads(text) == {**head, "files": items}
    first, *rows, last = text.splitlines()
    assert first == ('{"options": {"threshold": 50.0, "kinds": ["a", "b"]}, "name": '
                     f'{json.dumps(EVIL)}, "n": 2, "files": [')
    assert [json.loads(row.rstrip(",")) for row in rows] == items and last == "]}"
    out = io.StringIO()
    write_json_listing({}, "files", [], out)
    assert json.loads(out.getvalue()) == {"files": []}


def test_a_format_registered_for_a_result_reaches_the_command_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from winnow.cli.options import format_option

    name = "winnow.reports.listings.LanguageListing"
    monkeypatch.setitem(WRITERS, name, {**WRITERS[name], "xml": "nowhere:write_xml"})

    @click.command()
    @format_option(result=name)
    def command(fmt: str) -> None:
        click.echo(fmt)

    assert click.testing.CliRunner().invoke(command, ["--format", "xml"]).output == "xml\n"


def test_every_command_offers_exactly_its_result_formats() -> None:
    from winnow.cli.main import COMMANDS, load_command

    registered = [set(known) for known in WRITERS.values()]
    for name in COMMANDS:
        for param in load_command(name).params:
            if param.name == "fmt":
                assert isinstance(param.type, click.Choice)
                assert set(param.type.choices) in registered, name
