"""Archives are read into memory safely: traversal, links and bombs are refused."""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from winnow.sources.archives import (
    ArchiveLimits,
    ArchiveRefused,
    is_archive,
    read_archive,
    safe_member_path,
)


@pytest.mark.parametrize(("name", "safe"), [
    ("a/b.py", "a/b.py"),
    ("./a//b.py", "a/b.py"),
    ("a\\b.py", "a/b.py"),
    ("../evil.py", None),
    ("a/../../evil.py", None),
    ("/etc/passwd", None),
    ("\\\\server\\share", None),
    ("C:\\Windows\\x", None),
    ("", None),
    ("a\0b", None),
])
def test_safe_member_path(name: str, safe: str | None) -> None:
    assert safe_member_path(name) == safe


def test_is_archive_by_name() -> None:
    assert is_archive("x.ZIP") and is_archive("a.tar.gz") and is_archive("b.tgz")
    assert not is_archive("x.py") and not is_archive("zip")


def _zip(path: Path, members: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return path


def test_zip_refuses_traversal_absolute_and_symlinks(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "s.zip", {
        "ok/a.py": b"print(1)\n", "../evil.py": b"x", "/abs.py": b"y",
    }, links={"link.py": "/etc/passwd"})
    members, problems = read_archive(str(archive))
    assert [(m.path, m.data) for m in members] == [("ok/a.py", b"print(1)\n")]
    reasons = {p.path.rsplit("/", 1)[-1]: p.reason for p in problems}
    assert "unsafe member path" in reasons["evil.py"]
    assert "unsafe member path" in reasons["abs.py"]
    assert "symbolic link" in reasons["link.py"]
    assert not (tmp_path / "evil.py").exists()


def _tar(path: Path, build: list[tarfile.TarInfo], data: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for info in build:
            payload = data.get(info.name)
            if payload is not None:
                info.size = len(payload)
                archive.addfile(info, io.BytesIO(payload))
            else:
                archive.addfile(info)
    return path


def test_tar_refuses_traversal_links_and_devices(tmp_path: Path) -> None:
    infos = [tarfile.TarInfo(n) for n in ("good.c", "../up.c", "/abs.c")]
    sym = tarfile.TarInfo("sym.c")
    sym.type, sym.linkname = tarfile.SYMTYPE, "../../etc/passwd"
    hard = tarfile.TarInfo("hard.c")
    hard.type, hard.linkname = tarfile.LNKTYPE, "good.c"
    fifo = tarfile.TarInfo("fifo")
    fifo.type = tarfile.FIFOTYPE
    archive = _tar(tmp_path / "s.tar.gz", [*infos, sym, hard, fifo],
                   {"good.c": b"int x;\n", "../up.c": b"u", "/abs.c": b"a"})
    members, problems = read_archive(str(archive))
    assert [m.path for m in members] == ["good.c"]
    reasons = {p.path.rsplit("/", 1)[-1]: p.reason for p in problems}
    assert "unsafe" in reasons["up.c"] and "unsafe" in reasons["abs.c"]
    assert "link" in reasons["sym.c"] and "link" in reasons["hard.c"]
    assert "special file" in reasons["fifo"]


def test_member_size_limit_counts_real_bytes(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "bomb.zip", {"big.txt": b"0" * 100_000, "small.txt": b"hi"})
    members, problems = read_archive(str(archive), ArchiveLimits(max_member_bytes=10_000))
    assert [m.path for m in members] == ["small.txt"]
    assert "larger than 10000 bytes" in problems[0].reason


def test_total_size_and_member_count_limits_refuse_the_archive(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "many.zip", {f"f{i}.txt": b"x" * 1000 for i in range(20)})
    with pytest.raises(ArchiveRefused, match="more than 5 members"):
        read_archive(str(archive), ArchiveLimits(max_members=5))
    with pytest.raises(ArchiveRefused, match="uncompressed"):
        read_archive(str(archive), ArchiveLimits(max_total_bytes=5000))


def test_broken_archive_is_refused_with_its_name(tmp_path: Path) -> None:
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04 this is not really a zip file")
    with pytest.raises(ArchiveRefused) as error:
        read_archive(str(broken))
    assert error.value.path == str(broken)
    truncated = tmp_path / "cut.tar.gz"
    _tar(tmp_path / "full.tar.gz", [tarfile.TarInfo("a.c")], {"a.c": b"x" * 5000})
    truncated.write_bytes((tmp_path / "full.tar.gz").read_bytes()[:40])
    with pytest.raises(ArchiveRefused):
        read_archive(str(truncated))


def test_archive_errors_cross_process_boundaries() -> None:
    import pickle

    error = pickle.loads(pickle.dumps(ArchiveRefused("a.zip", "corrupt")))
    assert isinstance(error, ArchiveRefused)
    assert (error.path, error.reason, str(error)) == ("a.zip", "corrupt", "a.zip: corrupt")
