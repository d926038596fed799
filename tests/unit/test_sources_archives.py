"""Archives are read into memory safely: traversal, links and bombs are refused."""

from __future__ import annotations

import io
import lzma
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from winnow.errors import ArchiveRefused
from winnow.sources.archives import ArchiveLimits, is_archive, read_archive, safe_member_path


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


def _encrypt_first_member(path: Path) -> None:
    """Set the 'encrypted' flag of the first member (local and central headers)."""
    data = bytearray(path.read_bytes())
    data[data.find(b"PK\x03\x04") + 6] |= 1
    data[data.find(b"PK\x01\x02") + 8] |= 1
    path.write_bytes(bytes(data))


def test_encrypted_zip_member_is_skipped_with_its_name(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "locked.zip", {"secret.py": b"x = 1\n", "open.py": b"y = 2\n"})
    _encrypt_first_member(archive)
    members, problems = read_archive(str(archive))
    assert [m.path for m in members] == ["open.py"]
    assert problems[0].path.endswith("locked.zip/secret.py")
    assert "encrypted" in problems[0].reason


def test_duplicate_member_paths_keep_the_first(tmp_path: Path) -> None:
    path = tmp_path / "dup.zip"
    with zipfile.ZipFile(path, "w") as archive, pytest.warns(UserWarning, match="Duplicate"):
        archive.writestr("a.py", b"first")
        archive.writestr("a.py", b"second")
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("./b.py", b"b one")
        archive.writestr("b.py", b"b two")
    members, problems = read_archive(str(path))
    assert [(m.path, m.data) for m in members] == [("a.py", b"first"), ("b.py", b"b one")]
    assert len(problems) == 2 and all("duplicate" in p.reason for p in problems)


def test_format_comes_from_the_content(tmp_path: Path) -> None:
    tar = _tar(tmp_path / "real.tar.gz", [tarfile.TarInfo("t.c")], {"t.c": b"int x;"})
    as_zip = tmp_path / "really-a-tar.zip"
    as_zip.write_bytes(tar.read_bytes())
    assert [m.path for m in read_archive(str(as_zip))[0]] == ["t.c"]
    zipped = _zip(tmp_path / "z.zip", {"z.py": b"z"})
    as_tar = tmp_path / "really-a-zip.tar.gz"
    as_tar.write_bytes(zipped.read_bytes())
    assert [m.path for m in read_archive(str(as_tar))[0]] == ["z.py"]
    garbage = tmp_path / "garbage.tar.gz"
    garbage.write_bytes(b"\x1f\x8b not gzip at all" * 10)
    with pytest.raises(ArchiveRefused, match="neither a zip nor a tar") as error:
        read_archive(str(garbage))
    assert "\n" not in str(error.value)


def test_directory_entries_count_against_the_member_limit(tmp_path: Path) -> None:
    infos = []
    for i in range(50):
        info = tarfile.TarInfo(f"d{i}")
        info.type = tarfile.DIRTYPE
        infos.append(info)
    archive = _tar(tmp_path / "dirs.tar.gz", infos, {})
    with pytest.raises(ArchiveRefused, match="more than 10 members"):
        read_archive(str(archive), ArchiveLimits(max_members=10))


def test_non_utf8_tar_member_names_become_printable(tmp_path: Path) -> None:
    path = tmp_path / "latin.tar"
    with tarfile.open(path, "w", format=tarfile.GNU_FORMAT, encoding="latin-1") as archive:
        info = tarfile.TarInfo("caf\xe9.py")
        info.size = 3
        archive.addfile(info, io.BytesIO(b"x=1"))
    members, problems = read_archive(str(path))
    assert problems == [] and [m.path for m in members] == ["caf\\xe9.py"]
    members[0].path.encode("utf-8")  # writable to any report


def test_skipped_tar_members_count_against_the_total(tmp_path: Path) -> None:
    """A compressed tar is decompressed to skip a member, so a bomb of large
    members that are all skipped must still hit the total limit (before: a 3 MB
    .tar.gz of three 1 GiB members took 14 s and was accepted)."""
    infos = [tarfile.TarInfo(f"zeros{i}.txt") for i in range(3)]
    archive = _tar(tmp_path / "bomb.tar.gz", [*infos, tarfile.TarInfo("ok.txt")],
                   {**{i.name: bytes(5_000_000) for i in infos}, "ok.txt": b"fine"})
    limits = ArchiveLimits(max_member_bytes=1000, max_total_bytes=4 << 20)
    with pytest.raises(ArchiveRefused, match="uncompressed"):
        read_archive(str(archive), limits)
    members, problems = read_archive(str(archive), ArchiveLimits(max_member_bytes=1000))
    assert [m.path for m in members] == ["ok.txt"] and len(problems) == 3


def test_corrupt_compressed_data_is_a_member_problem_not_a_crash(tmp_path: Path) -> None:
    """zlib/lzma errors and unsupported zip versions are not OSErrors: before,
    they escaped and aborted the whole batch (found by mutating archives)."""
    archive = _zip(tmp_path / "bad.zip", {"bad.py": b"x = 1\n" * 500, "ok.py": b"y = 2\n"})
    data = bytearray(archive.read_bytes())
    data[30 + len("bad.py")] = 0xFF  # first deflate block header: reserved block type
    archive.write_bytes(bytes(data))
    members, problems = read_archive(str(archive))
    assert [m.path for m in members] == ["ok.py"]
    assert problems[0].path.endswith("bad.py") and "cannot read member" in problems[0].reason
    versioned = _zip(tmp_path / "future.zip", {"a.py": b"a"})
    data = bytearray(versioned.read_bytes())
    data[data.find(b"PK\x01\x02") + 6] = 0xFF  # "version needed to extract" 25.5
    versioned.write_bytes(bytes(data))
    with pytest.raises(ArchiveRefused, match="zip file version"):
        read_archive(str(versioned))
    xz = _tar(tmp_path / "t.tar", [tarfile.TarInfo("c.c")], {"c.c": b"int c;" * 1000})
    packed = tmp_path / "t.tar.xz"
    raw = bytearray(lzma.compress(xz.read_bytes()))
    raw[len(raw) // 2] ^= 0xFF
    packed.write_bytes(bytes(raw))
    with pytest.raises(ArchiveRefused):
        read_archive(str(packed))
