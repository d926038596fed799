"""Hostile content: small files that would expand to gigabytes are skipped, named.

Budgets count what a file or an archive actually produces (decompressed XML,
de-sparsed tar members, bytes read), never what it claims.  The inputs here
are small on disk and in CI; benchmarks/hostile.py measures the memory of the
full-size cases.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest

import winnow.matching.prints as prints
import winnow.sif.fingerprinting as fingerprinting
from tests.hostile.content_support import (
    baseline,
    cli,
    compare_run,
    make_class,
    mallory_pairs,
    others,
)
from winnow.errors import ArchiveRefused
from winnow.fileio import DEFAULT_MAX_FILE_BYTES
from winnow.frontends.documents import MAX_EXTRACTED_BYTES
from winnow.index.params import IndexParams
from winnow.matching import compare
from winnow.model import Skipped
from winnow.sif.fingerprinting import process_file
from winnow.sources.archives import ArchiveLimits, RunBudget, read_archive
from winnow.sources.submissions import ReadOptions, load_submissions
from winnow.sources.walk import walk

MIB = 1 << 20


def docx_bomb(xml_bytes: int) -> bytes:
    """A DOCX-shaped zip whose document.xml decompresses to ``xml_bytes`` bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", b"<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            block = b" " * MIB
            for _ in range(xml_bytes // MIB):
                member.write(block)
    return out.getvalue()


def sparse_tar(path: Path, holes: list[int]) -> bool:
    """A GNU sparse tar at ``path`` of files that are all hole (sizes ``holes``);
    ``False`` when GNU tar is not available."""
    if shutil.which("tar") is None:
        return False
    work = path.parent / (path.name + ".d")
    work.mkdir()
    names = []
    for i, size in enumerate(holes):
        with open(work / f"hole{i}.txt", "wb") as handle:
            handle.truncate(size)
        names.append(f"hole{i}.txt")
    done = subprocess.run(["tar", "--sparse", "-cf", str(path), "-C", str(work), *names],
                          capture_output=True, check=False)
    shutil.rmtree(work)
    return done.returncode == 0 and path.stat().st_size < min(holes)


def test_docx_bomb_is_skipped_by_name(tmp_path: Path) -> None:
    bomb = docx_bomb(MAX_EXTRACTED_BYTES + 8 * MIB)
    assert len(bomb) < MIB  # small on disk
    expected = baseline(tmp_path)
    klass = make_class(tmp_path, {"report.docx": bomb})
    result, report = compare_run(klass)
    assert result.exit_code == 1
    assert (f"mallory/report.docx: DOCX expands to more than {MAX_EXTRACTED_BYTES} bytes "
            "of XML") in result.stderr
    assert others(report) == expected
    assert mallory_pairs(report)


def test_file_over_the_budget_is_skipped_before_reading(tmp_path: Path) -> None:
    expected = baseline(tmp_path)
    klass = make_class(tmp_path, {})
    with open(klass / "mallory" / "huge.txt", "wb") as handle:
        handle.truncate(DEFAULT_MAX_FILE_BYTES + 1)  # sparse: nothing is written
    result, report = compare_run(klass)
    assert result.exit_code == 1
    assert ("mallory/huge.txt: larger than the 16 MiB file budget (raise it with "
            "--max-file-size); skipped") in result.stderr
    assert others(report) == expected
    assert mallory_pairs(report)


def test_max_file_size_option(tmp_path: Path) -> None:
    expected = baseline(tmp_path, "--max-file-size", "1")
    klass = make_class(tmp_path, {"notes.txt": b"word " * (MIB // 4)})  # 1.25 MiB
    result, report = compare_run(klass, "--max-file-size", "1")
    assert result.exit_code == 1
    assert "mallory/notes.txt: larger than the 1 MiB file budget" in result.stderr
    assert others(report) == expected
    unlimited, _ = compare_run(klass, "--max-file-size", "2")
    assert unlimited.exit_code == 0


@pytest.mark.parametrize("command", ["tokens", "fingerprint"])
def test_single_line_over_the_budget_is_refused_at_once(tmp_path: Path, command: str) -> None:
    line = tmp_path / "line.txt"
    line.write_bytes(b"a" * (DEFAULT_MAX_FILE_BYTES + 1))
    good = tmp_path / "good.txt"
    good.write_text("the quick brown fox jumps over the lazy dog\n")
    result = cli(command, str(line), str(good))
    assert result.exit_code == 1
    assert f"{line}: larger than {DEFAULT_MAX_FILE_BYTES} bytes; skipped" in result.stderr
    assert cli(command, str(good)).stdout in result.stdout


def test_sparse_tar_member_is_skipped_by_name(tmp_path: Path) -> None:
    expected = baseline(tmp_path)
    klass = make_class(tmp_path, {})
    archive = klass / "mallory" / "holes.tar"
    if not sparse_tar(archive, [DEFAULT_MAX_FILE_BYTES + MIB]):
        pytest.skip("GNU tar with --sparse is needed to build a sparse archive")
    result, report = compare_run(klass)
    assert result.exit_code == 1
    assert "mallory/holes.tar/hole0.txt: larger than" in result.stderr
    assert others(report) == expected


def test_sparse_holes_count_against_the_archive_budget(tmp_path: Path) -> None:
    archive = tmp_path / "holes.tar"
    if not sparse_tar(archive, [3 * MIB] * 4):
        pytest.skip("GNU tar with --sparse is needed to build a sparse archive")
    with pytest.raises(ArchiveRefused) as refused:
        read_archive(str(archive), ArchiveLimits(max_total_bytes=8 * MIB))
    assert refused.value.path == str(archive)
    assert "more than 8388608 bytes uncompressed" in refused.value.reason
    members, problems = read_archive(str(archive), ArchiveLimits(max_total_bytes=16 * MIB))
    assert len(members) == 4 and not problems


def _zip_of(path: Path, size: int) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.txt", b"x" * size)


def test_archives_of_one_run_share_a_budget(tmp_path: Path) -> None:
    sub = tmp_path / "mallory"
    sub.mkdir()
    for i in range(4):
        _zip_of(sub / f"part{i}.zip", 3 * MIB)
    other = tmp_path / "alice.zip"
    _zip_of(other, MIB)
    opts = ReadOptions(limits=ArchiveLimits(max_run_bytes=8 * MIB))
    subs = load_submissions([str(sub), str(other)], read_options=opts)
    refused = [p for p in subs[0].problems if "together expand" in p.reason]
    assert [Path(p.path).name for p in refused] == ["part2.zip", "part3.zip"]
    assert [f.path for f in subs[0].files] == ["part0.zip/data.txt", "part1.zip/data.txt"]
    assert [f.path for f in subs[1].files] == ["data.txt"]  # the refused bytes were given back
    assert subs[1].files[0].read() == b"x" * MIB
    held = sum(len(f.data or b"") for sub in subs for f in sub.files)
    assert held < MIB // 10  # archive members are held compressed
    shared = RunBudget(8 * MIB)  # several calls (submissions, --archive, --base) share one
    first = load_submissions([str(sub)], read_options=opts, run=shared)
    again = load_submissions([str(sub)], read_options=opts, run=shared)
    assert len(first[0].files) == 2 and not again[0].files
    assert [Path(p.path).name for p in again[0].problems if "together" in p.reason] == [
        "part0.zip", "part1.zip", "part2.zip", "part3.zip"]


def test_a_worker_over_its_memory_cap_costs_only_its_file(tmp_path: Path) -> None:
    """A worker whose allocations pass the cap gets a MemoryError: its file is
    skipped with a note, the batch goes on (Linux: RLIMIT_DATA)."""
    if sys.platform != "linux":
        pytest.skip("the worker memory cap is Linux only")
    klass = make_class(tmp_path, {"big.txt": b"word and more words\n" * 400_000})  # 8 MB
    plain = make_class(tmp_path / "plain", {})
    env = {**os.environ, "WINNOW_WORKER_MEMORY_MB": "100"}

    def run(folder: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "winnow", "compare", "--each", str(folder), "-q", "-j", "2",
             "--format", "json"], capture_output=True, text=True, env=env, check=False)

    result, expected = run(klass), run(plain)
    assert result.returncode == 1, result.stderr
    assert "mallory/big.txt: out of memory while processing its content; skipped" \
        in result.stderr
    assert others(json.loads(result.stdout)) == others(json.loads(expected.stdout))


def test_a_member_over_the_file_budget_is_not_counted_as_held(tmp_path: Path) -> None:
    path = tmp_path / "mixed.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big.txt", b"x" * (3 * MIB))
        archive.writestr("small.txt", b"y" * (MIB // 2))
    run = RunBudget(10 * MIB)
    members, problems = read_archive(str(path), ArchiveLimits(max_member_bytes=MIB), run)
    assert [m.path for m in members] == ["small.txt"]
    assert [p.path for p in problems] == [f"{path}/big.txt"]
    assert run.used == MIB // 2


def test_memory_exhausted_while_fingerprinting_costs_only_that_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A MemoryError past the front-end (in the engine) skips the file too."""
    klass = make_class(tmp_path, {"huge.py": b"x = 1\n" * 100})
    subs = load_submissions([str(klass)], each=True)
    plain = [replace(sub, files=tuple(f for f in sub.files if f.path != "huge.py"))
             for sub in subs]
    expected = compare(plain, jobs=1)
    real = prints.document_hashes

    def document_hashes(doc: Any, *args: Any) -> Any:
        if doc.name.endswith("huge.py"):
            raise MemoryError
        return real(doc, *args)

    monkeypatch.setattr(prints, "document_hashes", document_hashes)
    result = compare(subs, jobs=1)
    assert [(Path(i.path).name, i.reason) for i in result.issues if i.skipped] == [
        ("huge.py", "out of memory while fingerprinting; skipped")]
    assert [asdict(p) for p in result.pairs] == [asdict(p) for p in expected.pairs]

    entry = next(e for e in walk([klass]).files if e.path.endswith("huge.py"))
    monkeypatch.setattr(fingerprinting, "fingerprint", _raise_memory_error)
    assert process_file(entry, IndexParams(), None) == Skipped(
        entry.path, "out of memory while fingerprinting; skipped")


def _raise_memory_error(*_: Any) -> Any:
    raise MemoryError
