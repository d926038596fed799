"""Reading never blocks on a FIFO or device, and odd file names stay printable.

Every reader of input files goes through :mod:`winnow.fileio`, so a path that
is (or turns into, after a walk looked at it) a named pipe is refused at once
instead of waiting for a writer forever.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from winnow.cli.main import main
from winnow.errors import InputError
from winnow.fileio import FileTooLarge, NotRegularFile, printable, read_regular
from winnow.frontends import read_document
from winnow.index.params import IndexParams
from winnow.model import Skipped
from winnow.sif.fingerprinting import process_file
from winnow.sources.submissions import load_submission
from winnow.sources.walk import FileEntry

pytestmark = pytest.mark.timeout(120)  # before the fix these hung forever (room for a cold
#                                         numba cache on a busy machine)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.py"
    os.mkfifo(path)
    return path


def test_read_regular_refuses_fifos_and_devices(fifo: Path, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"hello")
    assert read_regular(tmp_path / "a.txt") == b"hello"
    with pytest.raises(NotRegularFile, match="FIFO"):
        read_regular(fifo)
    with pytest.raises(NotRegularFile, match="device"):
        read_regular("/dev/null")
    assert read_regular("/proc/self/status").startswith(b"Name:")  # size 0 in stat


def test_read_document_of_a_fifo_is_an_input_error(fifo: Path) -> None:
    with pytest.raises(InputError, match="FIFO"):
        read_document(fifo)


def test_a_file_replaced_by_a_fifo_after_the_walk_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("x = 1\n" * 50)
    sub = load_submission(str(tmp_path))
    info = path.stat()
    path.unlink()
    os.mkfifo(path)  # the tree changed between walking and reading
    with pytest.raises(InputError, match="FIFO"):
        sub.files[0].read()
    entry = FileEntry(str(path), info.st_size, info.st_mtime_ns)
    outcome = process_file(entry, IndexParams(), None)
    assert isinstance(outcome, Skipped) and "FIFO" in outcome.reason
    large = process_file(entry, IndexParams(), None, max_bytes=0)  # the streaming path
    assert isinstance(large, Skipped) and "FIFO" in large.reason


@pytest.mark.parametrize("command", ["fingerprint", "tokens"])
def test_cli_on_a_fifo_reports_it_and_goes_on(fifo: Path, tmp_path: Path, command: str) -> None:
    good = tmp_path / "good.py"
    good.write_text("def f(x):\n    return x + 1\n" * 20)
    result = CliRunner().invoke(main, [command, str(fifo), str(good)])
    assert result.exit_code == 1, result.output
    assert "FIFO" in result.stderr and "good.py" in result.stdout


@pytest.mark.parametrize(("name", "shown"), [
    ("plain.py", "plain.py"),
    ("café.py", "café.py"),
    (os.fsdecode(b"caf\xe9.py"), "caf\\xe9.py"),
    ("a\ud800b", "a\\ud800b"),
])
def test_printable(name: str, shown: str) -> None:
    assert printable(name) == shown
    printable(name).encode("utf-8")  # always encodable


@pytest.mark.parametrize("read_only", [False, True])
def test_index_path_that_is_a_fifo_or_folder_is_refused(fifo: Path, tmp_path: Path,
                                                        read_only: bool) -> None:
    from winnow.errors import IndexCorrupt
    from winnow.index import FingerprintIndex

    with pytest.raises(IndexCorrupt, match="FIFO"):  # DuckDB blocked here forever
        FingerprintIndex(fifo, read_only=read_only)
    with pytest.raises(IndexCorrupt, match="directory"):
        FingerprintIndex(tmp_path, read_only=read_only)


@pytest.mark.parametrize("size", [0, 1, 99, 100, 101, 5000])
@pytest.mark.parametrize("limit", [None, 0, 100, 1 << 24])
def test_read_regular_reads_all_bytes_up_to_its_limit(tmp_path: Path, size: int,
                                                      limit: int | None) -> None:
    path = tmp_path / "f.bin"
    data = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    path.write_bytes(data)
    if limit is not None and size > limit:
        with pytest.raises(FileTooLarge):
            read_regular(path, max_bytes=limit)
    else:
        assert read_regular(path, max_bytes=limit) == data


def test_read_regular_reads_on_past_the_size_a_file_reports() -> None:
    """A pseudo-file says it has 0 bytes and has more: all of it is read, and
    the limit still holds."""
    path = Path("/proc/self/mountinfo")  # larger than one read of st_size + 1
    if not path.exists() or os.stat(path).st_size != 0:
        pytest.skip("needs Linux's /proc")
    first = read_regular(path, max_bytes=1 << 24)
    assert len(first) > 1 and first.endswith(b"\n")
    with pytest.raises(FileTooLarge):
        read_regular(path, max_bytes=len(first) // 2)
