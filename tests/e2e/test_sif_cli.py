"""The sif commands end to end: index, query, groups, scan, dircmp; crashes and races."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np
import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.config import WinnowConfig
from winnow.index import FingerprintIndex, IndexParams
from winnow.sif.build import update_index

CLI = [sys.executable, "-c", "from winnow.cli import main; main()"]


def text(seed: int, size: int) -> bytes:
    rng = np.random.default_rng(seed)
    letters = rng.integers(97, 123, size, dtype=np.uint8)
    letters[rng.random(size) < 0.15] = 32
    return letters.tobytes()


def edited(data: bytes, seed: int, fraction: float) -> bytes:
    rng = random.Random(seed)
    out = bytearray(data)
    for _ in range(int(len(data) * fraction / 100)):
        at = rng.randrange(0, len(out) - 100)
        out[at: at + 100] = text(rng.randrange(10**6), 100)
    return bytes(out)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    base = text(1, 40_000)
    (root / "base.txt").write_bytes(base)
    (root / "copy.txt").write_bytes(base)
    (root / "edit.txt").write_bytes(edited(base, 2, 0.2))
    (root / "other.txt").write_bytes(text(3, 20_000))
    return root


def test_index_info_query_groups(corpus: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "w.db")
    code, _, err = run("index", str(corpus), "--db", db, "-j", "1")
    assert code == 0 and "4 files" in err and "4 added" in err
    code, out, _ = run("index", "--info", "--db", db)
    assert code == 0 and "documents:      4" in out and "% of the corpus" in out
    code, out, _ = run("index", "--info", "--db", db, "--format", "json")
    info = json.loads(out)
    assert code == 0 and info["documents"] == 4 and info["params"]["config"]["k"] == 50
    code, out, _ = run("index", "--info", "--db", db, "--format", "csv",
                       "-o", str(tmp_path / "info.csv"))
    [row] = list(csv.DictReader(io.StringIO((tmp_path / "info.csv").read_text())))
    assert code == 0 and out == "" and int(row["fingerprints"]) == info["fingerprints"]

    code, out, _ = run("query", str(corpus / "edit.txt"), "--db", db, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert out.startswith("query,match,contained,contains,shared,size,identical")
    assert {Path(r["match"]).name for r in rows} == {"base.txt", "copy.txt"}
    assert all(0.5 <= float(r["contained"]) <= 1 and r["identical"] == "false" for r in rows)

    code, out, _ = run("query", str(corpus / "edit.txt"), "--db", db, "--format", "csv",
                       "--top", "1")
    assert len(list(csv.DictReader(io.StringIO(out)))) == 1

    code, out, _ = run("query", str(corpus / "base.txt"), "--db", db, "--format", "json")
    matches = json.loads(out)["queries"][0]["matches"]
    assert [m["identical"] for m in matches if m["match"].endswith("copy.txt")] == [True]

    code, out, _ = run("groups", "--db", db, "--threshold", "0.5")
    assert code == 0
    assert f"R100 {corpus / 'base.txt'} 40000" in out
    assert "The following 1 groups of files are similar. Minimum similarity = 50%" in out
    code, out, _ = run("groups", "--db", db, "--format", "csv")
    assert out.startswith("group,kind,path,similarity,size")
    kinds = {r["kind"] for r in csv.DictReader(io.StringIO(out))}
    assert kinds == {"identical", "similar"}


def test_mismatched_parameters_refused(corpus: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "w.db")
    assert run("index", str(corpus), "--db", db, "-j", "1")[0] == 0
    code, _, err = run("index", str(corpus), "--db", db, "-k", "30")
    assert code == 2 and "built with other parameters" in err and "config.k" in err
    code, _, err = run("index", str(corpus), "--db", db, "--frontend", "text")
    assert code == 2 and "frontend: index has 'bytes', requested 'text'" in err


def test_text_frontend_index(corpus: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    code, _, err = run("index", str(corpus), "--db", db, "--frontend", "text", "-j", "1")
    assert code == 0, err
    (tmp_path / "shout.txt").write_bytes((corpus / "base.txt").read_bytes().upper())
    code, out, _ = run("query", str(tmp_path / "shout.txt"), "--db", db, "--format", "csv")
    names = {Path(r["match"]).name for r in csv.DictReader(io.StringIO(out))}
    assert {"base.txt", "copy.txt"} <= names  # case ignored by the text front-end


def test_scan_and_remove(corpus: Path, tmp_path: Path) -> None:
    code, out, _ = run("scan", str(corpus), "-j", "1", "--format", "json", "--interesting")
    data = json.loads(out)
    assert data["counts"]["identical"] == 1 and data["counts"]["similar"] >= 1
    db = str(tmp_path / "w.db")
    run("index", str(corpus), "--db", db, "-j", "1")
    code, _, err = run("index", "--remove", str(corpus / "copy.txt"), "--db", db)
    assert code == 0 and "removed 1" in err
    assert "documents:      3" in run("index", "--info", "--db", db)[1]


def test_dircmp(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        (d / "sub").mkdir(parents=True)
    docs = {name: text(i + 10, 20_000) for i, name in enumerate(
        ["same", "renamed", "modified", "moved", "onlya", "onlyb"])}
    (a / "same.txt").write_bytes(docs["same"])
    (b / "same.txt").write_bytes(docs["same"])
    (a / "r.txt").write_bytes(docs["renamed"])
    (b / "sub" / "r2.txt").write_bytes(docs["renamed"])
    (a / "m.txt").write_bytes(docs["modified"])
    (b / "m.txt").write_bytes(edited(docs["modified"], 1, 0.1))
    (a / "mv.txt").write_bytes(docs["moved"])
    (b / "sub" / "mv2.txt").write_bytes(edited(docs["moved"], 2, 0.1))
    (a / "x.txt").write_bytes(docs["onlya"])
    (b / "y.txt").write_bytes(docs["onlyb"])
    code, out, _ = run("dircmp", str(a), str(b), "-j", "1", "--format", "json")
    assert code == 0
    data = json.loads(out)
    got = {(e["status"], e["path_a"], e["path_b"]) for e in data["entries"]}
    assert got == {("identical", "same.txt", "same.txt"), ("renamed", "r.txt", "sub/r2.txt"),
                   ("modified", "m.txt", "m.txt"), ("similar", "mv.txt", "sub/mv2.txt"),
                   ("only-a", "x.txt", None), ("only-b", None, "y.txt")}
    assert 0.4 < data["resemblance"] < 0.9  # a fraction, as in every CSV and JSON
    code, out, _ = run("dircmp", str(a), str(b), "-j", "1", "--format", "csv")
    assert out.startswith("status,path_a,path_b,similarity,size_a,size_b")
    code, out, _ = run("dircmp", str(a), str(b), "-j", "1")
    assert "Folder similarity" in out and "renamed   r.txt -> sub/r2.txt (100%)" in out


# -- crashes and concurrency ------------------------------------------------------------

def big_tree(root: Path, files: int, size: int, seed: int) -> None:
    root.mkdir(parents=True)
    for i in range(files):
        (root / f"f{i:04d}.txt").write_bytes(text(seed * 100_000 + i, size))


def integrity(db: Path) -> tuple[set[str], int]:
    """The documents, after checking every fingerprint belongs to one and counts agree."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        paths = {r[0] for r in con.execute("SELECT path FROM documents").fetchall()}
        (orphans,) = con.execute("SELECT count(*) FROM fingerprints WHERE doc NOT IN "
                                 "(SELECT id FROM documents)").fetchone() or (0,)
        (declared, actual) = con.execute(
            "SELECT (SELECT coalesce(sum(n_fp), 0) FROM documents),"
            " (SELECT count(*) FROM fingerprints)").fetchone() or (0, 0)
        (dupes,) = con.execute("SELECT count(*) - count(DISTINCT path) FROM documents"
                               ).fetchone() or (0,)
        expected = ("(WITH p AS (SELECT DISTINCT hash, doc FROM fingerprints) SELECT * FROM p"
                    " WHERE hash IN (SELECT hash FROM p GROUP BY hash HAVING count(*) > 1))")
        (stale,) = con.execute(
            f"SELECT (SELECT count(*) FROM (FROM shared EXCEPT ALL {expected}))"
            f" + (SELECT count(*) FROM ({expected} EXCEPT ALL FROM shared))").fetchone() or (0,)
    finally:
        con.close()
    assert orphans == 0 and declared == actual and dupes == 0 and stale == 0
    return paths, int(actual)


def test_kill_9_during_build_leaves_old_or_new_state(tmp_path: Path) -> None:
    """SIGKILL at random moments of a run (start-up, walk, fingerprinting, the
    database's optimistic writes of a >100k-row transaction, commit); then a
    plain re-run must complete the index."""
    old, new = tmp_path / "old", tmp_path / "new"
    big_tree(old, 20, 20_000, 1)
    big_tree(new, 150, 100_000, 2)
    dense = IndexParams(config=WinnowConfig(k=50, t=50, method="sif", bits=4))  # many rows
    db = tmp_path / "w.db"
    with FingerprintIndex(db) as index:
        update_index(index, [old], dense)
    old_paths, _ = integrity(db)
    rng = random.Random()
    for attempt in range(3):
        delay = rng.uniform(1.0, 4.5)
        proc = subprocess.Popen([*CLI, "index", str(old), str(new), "--db", str(db), "-q",
                                 "-j", "1"], stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        paths, _ = integrity(db)
        assert paths == old_paths or len(paths) == 170, f"attempt {attempt}, {delay:.2f} s"
    subprocess.run([*CLI, "index", str(old), str(new), "--db", str(db), "-q", "-j", "2"],
                   check=True, timeout=240)
    paths, fps = integrity(db)
    assert len(paths) == 170
    fresh = tmp_path / "fresh.db"
    with FingerprintIndex(fresh) as index:
        update_index(index, [old, new], dense)
    assert integrity(fresh) == (paths, fps)


def test_two_indexers_at_once(tmp_path: Path) -> None:
    big_tree(tmp_path / "x", 60, 50_000, 3)
    big_tree(tmp_path / "y", 60, 50_000, 4)
    db = tmp_path / "w.db"
    procs = [subprocess.Popen([*CLI, "index", str(tmp_path / d), "--db", str(db), "-q", "-j",
                               "1"], stderr=subprocess.PIPE, text=True) for d in ("x", "y")]
    outcomes = []
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        outcomes.append((proc.returncode, err))
    for code, err in outcomes:
        assert code == 0 or (code == 3 and "in use by another winnow process" in err), err
    assert any(code == 0 for code, _ in outcomes)
    paths, _ = integrity(db)
    expected = sum(60 for code, _ in outcomes if code == 0)
    assert len(paths) == expected


def test_dircmp_refuses_nested_folders(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    code, _, err = run("dircmp", str(tmp_path / "a"), str(tmp_path / "a" / "b"), "-q")
    assert code == 1 and "do not nest" in err


def test_index_missing_path_is_an_error_but_others_are_indexed(corpus: Path,
                                                               tmp_path: Path) -> None:
    db = str(tmp_path / "w.db")
    code, _, err = run("index", str(corpus), str(tmp_path / "typo"), "--db", db, "-j", "1")
    assert code == 1 and "typo: no such file or directory" in err and "4 added" in err


def test_scan_names_a_missing_path_and_exits_1_like_index(corpus: Path, tmp_path: Path) -> None:
    code, out, err = run("scan", str(corpus), str(tmp_path / "gone"), "-q", "--format", "csv")
    assert code == 1
    assert f"{tmp_path / 'gone'}" in err
    assert out.startswith("group,kind,path,similarity,size")  # the groups still printed


@pytest.mark.parametrize("command", ["index", "scan"])
def test_negative_jobs_is_a_usage_error(command: str, corpus: Path, tmp_path: Path) -> None:
    code, _, err = run(command, str(corpus), "--db", str(tmp_path / "j.db"), "-j", "-1")
    assert code == 2
    assert "-j" in err or "--jobs" in err


def test_unreadable_entries_are_reported_when_indexing_as_a_user() -> None:
    """Run `winnow index` without privileges (root reads everything): an
    unreadable file and an unreadable folder are skipped with their reason,
    the readable file is indexed, and the exit code stays 0."""
    folder = Path(tempfile.mkdtemp(prefix="winnow-unreadable-index-"))
    try:
        folder.chmod(0o777)
        tree = folder / "tree"
        (tree / "closed").mkdir(parents=True)
        (tree / "closed" / "inside.txt").write_bytes(text(1, 5000))
        (tree / "secret.txt").write_bytes(text(2, 5000))
        (tree / "open.txt").write_bytes(text(3, 5000))
        for path in (tree, tree / "open.txt", tree / "closed" / "inside.txt"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        (tree / "closed").chmod(0o000)
        (tree / "secret.txt").chmod(0o000)
        command = [*CLI, "index", str(tree), "--db", str(folder / "i.db"), "-j", "1",
                   "--show-skipped"]
        if os.geteuid() == 0:
            setpriv = shutil.which("setpriv")
            if setpriv is None:
                pytest.skip("running as root without setpriv: cannot drop privileges")
            command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=240,
                              cwd=folder)
        assert done.returncode == 0, done.stderr
        skipped = [line for line in done.stderr.splitlines() if "permission denied" in line]
        assert any(str(tree / "closed") in line for line in skipped), done.stderr
        assert any(str(tree / "secret.txt") in line for line in skipped), done.stderr
        (tree / "closed").chmod(0o755)
        with duckdb.connect(str(folder / "i.db"), read_only=True) as db:
            paths = {row[0] for row in db.execute("SELECT path FROM documents").fetchall()}
        assert paths == {str(tree / "open.txt")}
    finally:
        for path in folder.rglob("*"):
            if not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)
