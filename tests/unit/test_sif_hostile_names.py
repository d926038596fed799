"""sif on trees with names that are not UTF-8: skipped with a reason, never a crash."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from winnow.cli.main import main
from winnow.index import FingerprintIndex
from winnow.sif.build import update_index
from winnow.sif.query import query_file
from winnow.sources.walk import NOT_UTF8, walk

TEXT = "".join(f"line {i}: the quick brown fox jumps over the lazy dog {i * 7}\n"
               for i in range(200))
LATIN1 = os.fsdecode(b"caf\xe9")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    (root / LATIN1).mkdir(parents=True)
    (root / LATIN1 / "inside.txt").write_text(TEXT)
    (root / f"{LATIN1}.txt").write_text(TEXT)
    (root / "fine.txt").write_text(TEXT)
    return root


def test_walk_skips_non_utf8_names_with_a_printable_reason(tree: Path) -> None:
    result = walk([tree])
    assert [Path(f.path).name for f in result.files] == ["fine.txt"]
    skipped = sorted(Path(s.path).name for s in result.skipped)
    assert skipped == ["caf\\xe9", "caf\\xe9.txt"]
    assert all(s.reason == NOT_UTF8 for s in result.skipped)


def test_index_and_query_a_tree_with_non_utf8_names(tree: Path, tmp_path: Path) -> None:
    with FingerprintIndex(tmp_path / "i.db") as index:
        summary = update_index(index, [tree])  # used to fail the whole build
        assert [Path(d.path).name for d in index.documents()] == ["fine.txt"]
        result = query_file(index, index.params, str(tree / f"{LATIN1}.txt"))
    assert len(summary.skipped) == 2
    assert result.query.endswith("caf\\xe9.txt")
    assert [Path(m.match).name for m in result.matches] == ["fine.txt"]


def test_query_cli_writes_csv_for_a_non_utf8_query_name(tree: Path, tmp_path: Path) -> None:
    db, out = tmp_path / "c.db", tmp_path / "q.csv"
    runner = CliRunner()
    assert runner.invoke(main, ["index", str(tree), "--db", str(db), "-q", "-j", "1"]
                         ).exit_code in (0, 1)
    result = runner.invoke(main, ["query", str(tree / f"{LATIN1}.txt"), "--db", str(db),
                                  "--format", "csv", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "caf\\xe9.txt" in out.read_text(encoding="utf-8")


@pytest.mark.timeout(60)
def test_pseudo_file_systems_are_not_walked(tmp_path: Path) -> None:
    """``/proc`` holds kcore (128 TiB by its size) and blocking files: walking it
    would index forever.  Mount points of such file systems are skipped."""
    from winnow.sources.walk import PSEUDO, pseudo_devices

    mounts = tmp_path / "mountinfo"
    mounts.write_text("22 27 0:21 / /proc rw,relatime - proc proc rw\n"
                      "27 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
                      "23 27 0:22 / /my\\040sys rw,relatime - sysfs sysfs rw\n")
    assert pseudo_devices(str(mounts)) == {os.makedev(0, 21), os.makedev(0, 22)}
    if not os.path.isdir("/proc") or os.stat("/proc").st_dev not in pseudo_devices():
        pytest.skip("no /proc mounted here")
    result = walk(["/proc", tmp_path])
    assert [s.path for s in result.skipped if s.reason == PSEUDO] == ["/proc"]
    assert [Path(f.path).name for f in result.files] == ["mountinfo"]


def test_a_pool_made_with_the_index_open_is_not_forked(tree: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The open index runs database threads that :mod:`threading` does not see;
    forking them mid-work is how pools deadlock, so ``update_index(jobs=2)``
    (the library path: the index is open before the pool exists) uses a fork
    server.  The CLI makes its pool before opening the index and may fork."""
    import winnow.parallel as parallel

    methods: list[str] = []
    real = parallel.WorkerPool

    def recording(workers: int, context: object, **kwargs: object) -> object:
        methods.append(context.get_start_method())  # type: ignore[attr-defined]
        return real(workers, context, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel, "WorkerPool", recording)
    with FingerprintIndex(tmp_path / "p.db") as index:
        summary = update_index(index, [tree], jobs=2)
    assert methods == ["forkserver"] and summary.added == 1
