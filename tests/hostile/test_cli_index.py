"""The sif index under hostile names, files and metadata.

Each case asserts the exit code, the message naming the file, and that the
other files' results (groups, query matches) are what they were without it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import duckdb
import pytest

from tests.hostile.cli_helpers import make_class, program, winnow
from winnow.index import FingerprintIndex
from winnow.sources import walk as walk_module
from winnow.sources.walk import walk


def groups_json(db: Path) -> dict[str, object]:
    result = winnow("groups", "--db", db, "--format", "json", "--threshold", "0.1")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def indexed_paths(db: Path) -> list[str]:
    with FingerprintIndex(db, read_only=True) as index:
        return [row.path for row in index.documents()]


@pytest.fixture
def klass(tmp_path: Path) -> Path:
    return make_class(tmp_path)


@pytest.mark.parametrize("name", ['we"ird.db', "x\"; COPY (SELECT 'pwned') TO 'pwned.txt'; --.db",
                                  "it's odd.db"])
def test_compact_takes_any_database_name(name: str, klass: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / name
    assert winnow("index", "-q", "-j", "1", "--db", db, klass).exit_code == 0
    before = groups_json(db)
    result = winnow("index", "--compact", "--db", db)
    assert result.exit_code == 0, result.output
    assert name in result.stderr  # "compacted NAME: ..."
    assert not list(tmp_path.rglob("pwned*")), "SQL from the file name ran"
    assert not list(tmp_path.glob("*.compact*")), "a stale compaction file was left"
    assert groups_json(db) == before
    assert len(indexed_paths(db)) == 4


def test_a_sqlite_file_as_the_index_is_refused_without_loading_extensions(
        tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE t(x)")
    kept = db.read_bytes()
    for args in (["groups", "--db", db], ["index", "--info", "--db", db]):
        result = winnow(*args)
        assert result.exit_code == 1, result.output
        assert "other.sqlite: not a winnow index" in result.stderr
        assert "INSTALL" not in result.stderr
    assert db.read_bytes() == kept
    with FingerprintIndex(tmp_path / "fresh.db") as index:
        settings = index._con.execute(
            "SELECT current_setting('autoinstall_known_extensions'),"
            " current_setting('autoload_known_extensions')").fetchone()
    assert settings == (False, False)


def _set_meta(db: Path, value: str) -> None:
    con = duckdb.connect(str(db))
    con.execute("UPDATE meta SET value = ? WHERE key = 'params'", [value])
    con.close()


@pytest.mark.parametrize("value", ["{not json", "[1, 2]", '{"format_version": 2}',
                                   '{"format_version": 2, "config": {"k": -5}, '
                                   '"frontend": "bytes"}'])
def test_corrupt_index_metadata_is_one_clear_error(value: str, klass: Path,
                                                   tmp_path: Path) -> None:
    db = tmp_path / "class.db"
    assert winnow("index", "-q", "-j", "1", "--db", db, klass).exit_code == 0
    _set_meta(db, value)
    for args in (["groups", "--db", db], ["index", "--info", "--db", db],
                 ["query", klass / "alice" / "main.py", "--db", db],
                 ["index", "-q", "-j", "1", "--db", db, klass]):
        result = winnow(*args)
        assert result.exit_code == 1, (args, result.output)
        assert "class.db" in result.stderr and "rebuild the index" in result.stderr
        assert "Traceback" not in result.output


def test_groups_refuses_an_index_of_another_format_version(klass: Path, tmp_path: Path) -> None:
    db = tmp_path / "class.db"
    assert winnow("index", "-q", "-j", "1", "--db", db, klass).exit_code == 0
    with FingerprintIndex(db, read_only=True) as index:
        params = index.params
    assert params is not None
    _set_meta(db, json.dumps({**params.as_dict(), "format_version": 1}))
    result = winnow("groups", "--db", db)
    assert result.exit_code == 2
    assert "class.db: index format version 1" in result.stderr


def _load_walk_benchmark() -> ModuleType:
    """``benchmarks/sif_walk.py``, whose tree builder the depth tests share."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "sif_walk.py"
    spec = importlib.util.spec_from_file_location("sif_walk_benchmark", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WALK_BENCHMARK = _load_walk_benchmark()


def _deep_tree(root: Path, depth: int) -> int:
    """Nested folders ``d/d/...`` with a file every 50 levels; the file count."""
    return int(WALK_BENCHMARK.build(root, depth, every=50))


@pytest.fixture
def deep_trees() -> Iterator[list[Path]]:
    """Trees to remove at the end, deepest first (``shutil.rmtree``, as pytest's
    clean-up uses, recurses once per level and fails on deep ones)."""
    made: list[Path] = []
    yield made
    for root in made:
        if root.exists():
            WALK_BENCHMARK.remove(root)


def test_the_walk_is_linear_in_depth(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     deep_trees: list[Path]) -> None:
    """The number of file-system calls per entry does not grow with depth (resolving
    each folder's real path made it quadratic in calls, cubic in time)."""
    calls = {"n": 0}
    for name in ("stat", "lstat"):
        original = getattr(os, name)

        def counted(*args: object, _original: object = original, **kwargs: object) -> object:
            calls["n"] += 1
            return _original(*args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(walk_module.os, name, counted)
    per_entry = []
    for depth in (100, 400):
        deep_trees.append(tmp_path / f"t{depth}")
        files = _deep_tree(tmp_path / f"t{depth}", depth)
        calls["n"] = 0
        result = walk([tmp_path / f"t{depth}"])
        assert len(result.files) == files and not result.skipped
        per_entry.append(calls["n"] / (depth + files))
    assert per_entry[1] <= per_entry[0] * 1.1 and per_entry[1] < 4, per_entry


def test_a_deep_tree_is_indexed_beside_the_class(klass: Path, tmp_path: Path,
                                                 deep_trees: list[Path]) -> None:
    db = tmp_path / "class.db"
    assert winnow("index", "-q", "-j", "1", "--db", db, klass).exit_code == 0
    before = groups_json(db)
    deep_trees.append(klass / "deep")
    files = _deep_tree(klass / "deep", 600)  # below what shutil.rmtree can remove
    result = winnow("index", "-j", "1", "--db", db, klass)
    assert result.exit_code == 0, result.output
    assert f"{files} added" in result.stderr
    after = groups_json(db)
    assert len(indexed_paths(db)) == 4 + files
    class_groups = [g for g in after["groups"]  # type: ignore[attr-defined]
                    if not any("/deep/" in m["path"] for m in g["members"])]
    assert class_groups == before["groups"]


def test_reindexing_drops_paths_that_are_no_longer_regular_files(klass: Path,
                                                                 tmp_path: Path) -> None:
    extra = klass / "eve"
    (extra / "sub").mkdir(parents=True)
    for name in ("link.py", "fifo.py", "sub/one.py", "sub/two.py"):
        (extra / name).write_text(program(7), encoding="utf-8")
    db = tmp_path / "class.db"
    assert winnow("index", "-q", "-j", "1", "--db", db, klass).exit_code == 0
    assert len(indexed_paths(db)) == 8
    (extra / "link.py").unlink()
    (extra / "link.py").symlink_to(klass / "alice" / "main.py")
    (extra / "fifo.py").unlink()
    os.mkfifo(extra / "fifo.py")
    for name in ("one.py", "two.py"):
        (extra / "sub" / name).unlink()
    (extra / "sub").rmdir()
    os.mkfifo(extra / "sub")
    result = winnow("index", "-j", "1", "--db", db, klass)
    assert result.exit_code == 0, result.output
    assert "4 removed" in result.stderr
    assert "symbolic link (not followed)" in result.stderr and "FIFO" in result.stderr
    assert sorted(Path(p).parent.name for p in indexed_paths(db)) == \
        ["alice", "bob", "carol", "dave"]


def test_an_unreadable_file_keeps_its_entry(klass: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A regular file that cannot be read this time is not a removed file."""
    db = tmp_path / "class.db"
    assert winnow("index", "-q", "-j", "1", "--db", db, klass).exit_code == 0
    target = klass / "dave" / "main.py"
    os.utime(target, ns=(1, 1))  # changed: it will be read again
    import winnow.sif.fingerprinting as fingerprinting

    real = fingerprinting.read_regular

    def refuse(path: str, *args: object, **kwargs: object) -> bytes:
        if path == str(target):
            raise PermissionError(13, "Permission denied", path)
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(fingerprinting, "read_regular", refuse)
    result = winnow("index", "-j", "1", "--db", db, klass)
    assert result.exit_code == 0, result.output
    assert "0 removed" in result.stderr and "permission denied" in result.stderr
    assert len(indexed_paths(db)) == 4


@pytest.mark.parametrize(("value", "stored"), [("no", False), ("false", False),
                                               ("off", False), ("0", False),
                                               ("yes", True), ("TRUE", True)])
def test_frontend_switches_are_parsed_strictly(value: str, stored: bool, klass: Path,
                                               tmp_path: Path) -> None:
    db = tmp_path / "class.db"
    result = winnow("index", "-q", "-j", "1", "--db", db, "--frontend", "text",
                    "--frontend-option", f"keep_case={value}", klass)
    assert result.exit_code == 0, result.output
    with FingerprintIndex(db, read_only=True) as index:
        params = index.params
    assert params is not None and params.frontend_options == {"keep_case": stored}


@pytest.mark.parametrize(("option", "message"), [
    ("keep_case=maybe", "keep_case wants true or false, got 'maybe'"),
    ("keep_case=", "keep_case wants true or false, got ''"),
    ("keep_cases=true", "no option 'keep_cases'"),
])
def test_a_bad_frontend_option_is_a_usage_error(option: str, message: str, klass: Path,
                                                tmp_path: Path) -> None:
    db = tmp_path / "class.db"
    result = winnow("index", "-q", "--db", db, "--frontend-option", option, klass)
    assert result.exit_code == 2
    assert message in result.stderr
    assert not db.exists()


def test_one_unusable_query_file_is_skipped(klass: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "class.db"
    assert winnow("index", "-q", "-j", "1", "--db", db, klass).exit_code == 0
    query = ["query", klass / "alice" / "main.py", "--db", db, "--format", "json"]
    alone = winnow(*query).stdout
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "folder.py").mkdir()
    bad = [tmp_path / "missing.py", tmp_path / "pipe.py", tmp_path / "folder.py"]
    unreadable = tmp_path / "secret.py"
    unreadable.write_text(program(9), encoding="utf-8")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False
                        if os.fspath(path) == str(unreadable) else real_access(path, mode, **kw))
    result = winnow(*query[:2], *bad, unreadable, *query[2:])
    assert result.exit_code == 1, result.output
    for path in bad:
        assert f"{path.name}:" in result.stderr
    assert "missing.py: no such file\n" in result.stderr
    listed = json.loads(result.stdout)["queries"]
    assert listed[0] == json.loads(alone)["queries"][0]  # the other query is unaffected
    assert len(listed) == 2  # and the file click would have called unreadable was read


def test_the_index_never_indexes_itself(klass: Path, tmp_path: Path) -> None:
    """``winnow index .`` with the index in ``.``: the database and its log are
    not documents, and the class's groups are those of an index kept elsewhere."""
    outside = tmp_path / "class.db"
    assert winnow("index", "-q", "-j", "1", "--db", outside, klass).exit_code == 0
    inside = klass / "winnow.db"
    for _ in range(2):  # the second run finds the database (and maybe its log) on disk
        result = winnow("index", "-j", "1", "--db", inside, klass)
        assert result.exit_code == 0, result.output
    assert "4 unchanged" in result.stderr and "0 added" in result.stderr
    assert sorted(indexed_paths(inside)) == sorted(indexed_paths(outside))
    assert groups_json(inside)["groups"] == groups_json(outside)["groups"]
