"""Hostile content: what the walk refused is never read later; pseudo files never crash.

A file swapped for a link to a host file between the walk and the read is
refused (``O_NOFOLLOW`` and the walk's ``(device, inode)``), by ``compare``
and by the index; ``/proc`` is not walked into through a link; a pseudo-file
whose non-blocking read returns nothing (``/proc/kmsg``) is a named error.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from tests.hostile.content_support import HOSTILE, cli, make_class, others
from winnow.fileio import FileChanged, read_regular
from winnow.index.params import IndexParams
from winnow.matching import compare
from winnow.model import Skipped
from winnow.sif.fingerprinting import process_file
from winnow.sources.submissions import load_submissions
from winnow.sources.walk import PSEUDO, WalkPolicy, walk

SECRET = b"TOP-SECRET host file: never in any report\n" * 20


def _pairs(result: Any) -> list[dict[str, Any]]:
    return [asdict(pair) for pair in result.pairs
            if HOSTILE not in (Path(pair.a).name, Path(pair.b).name)]


def _swap_for_link(victim: Path, target: Path) -> None:
    victim.unlink()
    victim.symlink_to(target)


@pytest.mark.parametrize("swap", ["link", "other file"])
def test_compare_never_reads_a_file_swapped_after_the_walk(tmp_path: Path, swap: str) -> None:
    secret = tmp_path / "host-secret.txt"
    secret.write_bytes(SECRET)
    klass = make_class(tmp_path, {})
    expected = _pairs(compare(load_submissions([str(klass)], each=True), jobs=1))
    victim = klass / HOSTILE / "notes.txt"
    victim.write_text("my own notes, long enough to fingerprint, really they are\n")
    subs = load_submissions([str(klass)], each=True)
    if swap == "link":
        _swap_for_link(victim, secret)
    else:
        replacement = tmp_path / "replacement.txt"
        replacement.write_bytes(SECRET)
        os.replace(replacement, victim)
    result = compare(subs, jobs=1)
    reasons = {issue.path: issue.reason for issue in result.issues}
    assert reasons[str(victim)] == (
        "became a symbolic link after it was listed; not followed" if swap == "link"
        else "replaced (perhaps by a link) after it was listed; not read")
    assert all(SECRET not in doc.data for doc in result.documents.values())
    assert _pairs(result) == expected


def test_a_link_inside_the_submission_is_still_read(tmp_path: Path) -> None:
    klass = make_class(tmp_path, {})
    (klass / HOSTILE / "again.py").symlink_to("textstats.py")
    subs = load_submissions([str(klass)], each=True)
    mallory = next(sub for sub in subs if sub.name.endswith(HOSTILE))
    assert sorted(f.path for f in mallory.files) == ["again.py", "textstats.py"]
    assert all(f.read() for f in mallory.files)


def test_the_index_never_reads_a_file_swapped_after_the_walk(tmp_path: Path) -> None:
    secret = tmp_path / "host-secret.txt"
    secret.write_bytes(SECRET)
    klass = make_class(tmp_path, {"notes.txt": b"notes\n"})
    found = walk([klass])
    entry = next(e for e in found.files if e.path.endswith("notes.txt"))
    _swap_for_link(Path(entry.path), secret)
    outcome = process_file(entry, _params(), None)
    assert outcome == Skipped(entry.path,
                              "became a symbolic link after it was listed; not followed")
    others = [process_file(e, _params(), None) for e in found.files if e is not entry]
    assert not any(isinstance(o, Skipped) for o in others)


def _params() -> IndexParams:
    return IndexParams()


def test_read_regular_refuses_a_swapped_file(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"a")
    info = path.stat()
    assert read_regular(path, nofollow=True, expect=(info.st_dev, info.st_ino)) == b"a"
    other = tmp_path / "b.txt"
    other.write_bytes(b"b")
    os.replace(other, path)
    with pytest.raises(FileChanged):
        read_regular(path, nofollow=True, expect=(info.st_dev, info.st_ino))


def test_follow_links_does_not_walk_into_proc_through_a_link(tmp_path: Path) -> None:
    if not Path("/proc/self/status").exists():
        pytest.skip("no /proc here")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.txt").write_text("hello there, a plain file\n")
    (tree / "p").symlink_to("/proc/self")
    (tree / "s").symlink_to("/proc/self/status")
    found = walk([tree], WalkPolicy(links="always"))
    assert [Path(f.path).name for f in found.files] == ["a.txt"]
    assert sorted((Path(s.path).name, s.reason) for s in found.skipped) == [
        ("p", PSEUDO), ("s", PSEUDO)]
    db = tmp_path / "i.db"
    result = cli("index", "--db", str(db), "-j", "1", "--follow-links", "--show-skipped",
                 str(tree))
    assert result.exit_code == 0
    assert f"skipped '{tree / 'p'}': {PSEUDO}" in result.stderr


class _WouldBlock(io.RawIOBase):
    """A pseudo-file with nothing to read now: a non-blocking read returns ``None``."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> None:
        return None


def test_a_read_that_would_block_is_an_error_naming_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kmsg = tmp_path / "kmsg"
    kmsg.write_bytes(b"")
    good = tmp_path / "good.txt"
    good.write_text("the quick brown fox jumps over the lazy dog\n")
    real = os.fdopen

    def fdopen(fd: int, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if os.path.samefile(f"/proc/self/fd/{fd}", kmsg):
            os.close(fd)
            return io.BufferedReader(_WouldBlock())
        return real(fd, mode, *args, **kwargs)

    monkeypatch.setattr(os, "fdopen", fdopen)
    with pytest.raises(BlockingIOError):
        read_regular(kmsg)
    result = cli("tokens", str(kmsg), str(good))
    assert result.exit_code == 1
    assert f"{kmsg}: would block (a kernel pseudo-file, not data)" in result.stderr
    assert "quick" in result.stdout


SWAPPING_WINNOW = textwrap.dedent("""
    import os, sys
    import winnow.cli.compare as cli_compare
    from winnow.cli.main import main

    real = cli_compare.load_submissions
    victim, target = os.environ["VICTIM"], os.environ["TARGET"]

    def load_submissions(*args, **kwargs):
        subs = real(*args, **kwargs)
        if os.path.isfile(victim) and not os.path.islink(victim):
            os.unlink(victim)  # swapped right after the walk listed it
            os.symlink(target, victim)
        return subs

    cli_compare.load_submissions = load_submissions
    sys.exit(main(sys.argv[1:]))
""")


def test_compare_cli_reports_a_file_swapped_for_a_link(tmp_path: Path) -> None:
    secret = tmp_path / "host-secret.txt"
    secret.write_bytes(SECRET)
    script = tmp_path / "winnow_swapping.py"
    script.write_text(SWAPPING_WINNOW)
    klass = make_class(tmp_path, {"notes.txt": b"my own notes, long enough to match\n" * 5})
    plain = make_class(tmp_path / "plain", {})
    victim = klass / HOSTILE / "notes.txt"
    env = {**os.environ, "VICTIM": str(victim), "TARGET": str(secret)}

    def run(folder: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(script), "compare", "--each", str(folder), "-q", "-j", "2",
             "--format", "json", "--report", str(folder.parent / "report")],
            capture_output=True, text=True, env=env, check=False)

    result, expected = run(klass), run(plain)
    assert expected.returncode == 0, expected.stderr
    assert result.returncode == 1, result.stderr
    assert (f"{victim}: became a symbolic link after it was listed; not followed"
            in result.stderr)
    assert others(json.loads(result.stdout)) == others(json.loads(expected.stdout))
    report = b"".join(p.read_bytes() for p in (klass.parent / "report").rglob("*")
                      if p.is_file())
    assert b"TOP-SECRET" not in report and b"TOP-SECRET" not in result.stdout.encode()
