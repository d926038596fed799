"""The walk-and-read race: a student's file (and folder) swapped for links out of
the class while ``compare`` walks and reads it never brings a host file in.

A second process swaps, as fast as it can, ``mallory/notes.txt`` between a
regular file and a link to a host file, and ``mallory/deep`` between a folder
and a link to a host folder (``os.replace`` / ``rename`` loops), while the
submissions are walked and every listed file read :data:`RUNS` times.  Any host
content in any read fails the test; the entries caught mid-swap are skipped
with a reason naming them, and the other students' files are read whole every
time.  Then one ``compare --report`` runs during the swaps and no page holds
the host file.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile.content_support import HOSTILE, cli, make_class
from winnow.errors import InputError
from winnow.sources.submissions import load_submission, load_submissions

SECRET = b"TOP-SECRET host file, never in any report\n" * 8
#: Walk-and-read rounds against the swapping process (issue 24 asks for 200).
RUNS = 200
#: Files of mallory's swapped at once.
VICTIMS = 10

SWAPPER = textwrap.dedent("""
    import os, sys, time
    folder, secret, secret_dir, stop, what = sys.argv[1:6]
    end = time.monotonic() + float(stop)
    names = [f"notes{i}.txt" for i in range(VICTIMS) if what == f"files{i % 2}"]
    template = os.path.join(folder, f".template-{what}")
    with open(template, "w") as out:
        out.write("mallory's own notes, long enough to be fingerprinted\\n")
    while time.monotonic() < end:
        if what.startswith("files"):
            for name in names:
                victim, reg, lnk = (os.path.join(folder, n) for n in (name, ".r" + name,
                                                                       ".l" + name))
                os.link(template, reg)
                os.symlink(secret, lnk)
                os.replace(lnk, victim)
                os.replace(reg, victim)
        else:
            deep, saved, link = (os.path.join(folder, n) for n in ("deep", ".saved", ".dl"))
            os.rename(deep, saved)
            os.symlink(secret_dir, link)
            os.rename(link, deep)
            os.unlink(deep)
            os.rename(saved, deep)
""").replace("VICTIMS", str(VICTIMS))


@pytest.fixture
def swapping(tmp_path: Path) -> Iterator[tuple[Path, list[subprocess.Popen[str]]]]:
    host = tmp_path / "host"
    host.mkdir()
    (host / "secret.txt").write_bytes(SECRET)
    (host / "notes.txt").write_bytes(SECRET)
    notes = {f"notes{i}.txt": b"mallory's notes\n" for i in range(VICTIMS)}
    klass = make_class(tmp_path, {**notes, "deep/inner.py": b"print('mallory inner')\n"})
    swappers = [subprocess.Popen(
        [sys.executable, "-c", SWAPPER, str(klass / HOSTILE), str(host / "secret.txt"),
         str(host), "120", what]) for what in ("files0", "files1", "folder")]
    time.sleep(0.2)
    yield klass, swappers
    for swapper in swappers:
        swapper.kill()
        swapper.wait()


@pytest.mark.slow
def test_no_host_content_in_any_read_while_files_are_swapped(
        swapping: tuple[Path, list[subprocess.Popen[str]]]) -> None:
    klass, swappers = swapping
    others: dict[str, bytes] | None = None
    refused = 0
    for _ in range(RUNS):
        read: dict[str, bytes] = {}
        for sub in load_submissions([str(klass)], each=True):
            refused += len(sub.problems)
            for file in sub.files:
                try:
                    data = file.read()
                except InputError as error:
                    assert HOSTILE in error.path, error
                    refused += 1
                    continue
                assert SECRET[:20] not in data, f"host content read as {file.location}"
                read[file.location] = data
        mine = {k: v for k, v in read.items() if f"/{HOSTILE}/" not in k}
        others = mine if others is None else others
        assert mine == others, "another student's files changed"
    assert all(s.poll() is None for s in swappers), "a swapping process stopped early"
    assert others and len(others) >= 5
    assert refused > 0, "the swaps never met the walk: the test tested nothing"
    print(f"{RUNS} rounds, {refused} entries refused mid-swap")


def test_no_host_content_in_a_report_built_during_the_swaps(
        swapping: tuple[Path, list[subprocess.Popen[str]]], tmp_path: Path) -> None:
    klass, _ = swapping
    report = tmp_path / "report"
    for _ in range(3):
        result = cli("compare", "-q", "-j", "1", "--each", str(klass), "--report", str(report))
        assert result.exit_code in (0, 1), result.output
        pages = [p.read_bytes() for p in report.rglob("*.html")]
        assert pages and not any(b"TOP-SECRET" in page for page in pages)
    assert os.path.isdir(klass / "alice")


def test_the_interleaving_the_audit_found_reads_no_host_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deterministic: the entry is a link out when the folder is listed and
    stat-ed, a regular file when a path-based "inside?" check would look, a
    link again when read.  The walk opens the entry once, under the root."""
    host = tmp_path / "host.txt"
    host.write_bytes(SECRET)
    klass = make_class(tmp_path, {"notes.txt": b"mallory's notes\n"})
    victim = klass / HOSTILE / "notes.txt"
    victim.unlink()
    victim.symlink_to(host)
    real = os.path.realpath

    def swapping_realpath(path: str | os.PathLike[str], **kwargs: bool) -> str:
        if os.fspath(path) == str(victim) and victim.is_symlink():
            victim.unlink()
            victim.write_bytes(b"mallory's notes\n")
        return real(path, **kwargs)

    monkeypatch.setattr(os.path, "realpath", swapping_realpath)
    sub = load_submission(str(klass / HOSTILE))
    monkeypatch.setattr(os.path, "realpath", real)
    if victim.exists() and not victim.is_symlink():
        victim.unlink()
        victim.symlink_to(host)
    for file in sub.files:
        try:
            assert SECRET[:20] not in file.read()
        except InputError as error:
            assert "notes.txt" in error.path
    reasons = {os.path.basename(p.path): p.reason for p in sub.problems}
    assert "out of the submission" in reasons.get("notes.txt", "") \
        or "notes.txt" not in {os.path.basename(f.location) for f in sub.files}


def test_a_submission_folder_swapped_for_a_link_after_it_was_listed_is_not_walked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--each``: mallory's whole folder becomes a link to a host folder between the
    class listing and her walk; her entry is refused, the others read as before."""
    from winnow.sources import submissions

    host = tmp_path / "host"
    host.mkdir()
    (host / "secret.py").write_bytes(SECRET)
    klass = make_class(tmp_path, {"notes.txt": b"mallory's notes\n"})
    plain = {f.location: f.read() for s in load_submissions([str(klass)], each=True)
             if HOSTILE not in s.name for f in s.files}
    checked = submissions._identity_inside

    def swapping(folder: str, entry: str, full: str) -> tuple[int, int] | None:
        found = checked(folder, entry, full)
        if entry == HOSTILE:
            os.rename(full, str(tmp_path / "moved"))
            os.symlink(host, full)
        return found

    monkeypatch.setattr(submissions, "_identity_inside", swapping)
    subs = load_submissions([str(klass)], each=True)
    mine = next(s for s in subs if HOSTILE in s.name)
    assert not mine.files and "replaced" in mine.problems[0].reason
    read = {f.location: f.read() for s in subs if HOSTILE not in s.name for f in s.files}
    assert read == plain
