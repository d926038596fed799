"""Hostile content: a worker killed by the system costs only its file; workers die
with their parent.

A file whose reading kills its worker (here: SIGKILL, as the kernel's
out-of-memory killer sends) is named and skipped; every other file of the
batch is compared as in a run without it.  After a ``kill -9`` of winnow its
workers are gone within seconds (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import asdict, replace
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest

import winnow.sif.fingerprinting as fingerprinting
from tests.hostile.content_support import HOSTILE, make_class, mallory_pairs, others
from winnow.index import FingerprintIndex
from winnow.matching import compare
from winnow.model import Document, Skipped
from winnow.parallel import WORKER_DIED, WorkerPool
from winnow.sif.build import update_index
from winnow.sources.submissions import SourceFile, load_submissions

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="fork and prctl: Linux")


class KillerFile(SourceFile):
    """A file whose reading kills the process reading it (as the OOM killer would)."""

    def document(self) -> Document:
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable")


def _pairs(result: Any) -> list[dict[str, Any]]:
    return [asdict(pair) for pair in result.pairs
            if HOSTILE not in (Path(pair.a).name, Path(pair.b).name)]


def test_compare_a_killed_worker_costs_only_its_file(tmp_path: Path) -> None:
    klass = make_class(tmp_path, {"killer.py": b"x = 1\n"})
    subs = load_submissions([str(klass)], each=True)
    plain = [replace(sub, files=tuple(f for f in sub.files if f.path != "killer.py"))
             for sub in subs]
    expected = compare(plain, jobs=1)
    armed = [replace(sub, files=tuple(
        KillerFile(**{name: getattr(f, name) for name in f.__dataclass_fields__})
        if f.path == "killer.py" else f for f in sub.files)) for sub in subs]
    result = compare(armed, jobs=2)
    killed = [issue for issue in result.issues if issue.reason == WORKER_DIED]
    assert [Path(issue.path).relative_to(klass).as_posix() for issue in killed] == [
        f"{HOSTILE}/killer.py"]
    assert _pairs(result) == _pairs(expected)
    assert [asdict(p) for p in result.pairs if HOSTILE in p.a + p.b] == \
        [asdict(p) for p in expected.pairs if HOSTILE in p.a + p.b]


def test_index_a_killed_worker_costs_only_its_file(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    klass = make_class(tmp_path, {"killer.txt": b"boom\n"})
    real = fingerprinting.fingerprint_data

    def fingerprint_data(data: bytes, name: str, params: Any) -> Any:
        if name.endswith("killer.txt"):
            os.kill(os.getpid(), signal.SIGKILL)
        return real(data, name, params)

    monkeypatch.setattr(fingerprinting, "fingerprint_data", fingerprint_data)
    pool = WorkerPool(2, get_context("fork"))  # forked after the patch: workers have it
    try:
        with FingerprintIndex(tmp_path / "i.db") as index:
            summary = update_index(index, [klass], executor=pool)
            stored = {Path(row.path).relative_to(klass).as_posix()
                      for row in index.documents()}
    finally:
        pool.shutdown()
    killer = str(klass / HOSTILE / "killer.txt")
    assert Skipped(killer, WORKER_DIED) in summary.skipped
    every = {p.relative_to(klass).as_posix() for p in klass.rglob("*") if p.is_file()}
    assert stored == every - {f"{HOSTILE}/killer.txt"}


PARENT = textwrap.dedent("""
    import os, sys, time
    from multiprocessing import get_context
    from winnow.parallel import WorkerPool

    def pid_then_sleep(_):
        os.write(1, f"{os.getpid()}\\n".encode())  # one write: lines never interleave
        time.sleep(30)

    if __name__ == "__main__":
        pool = WorkerPool(2, get_context(sys.argv[1]), direct=sys.argv[1] == "fork")
        for i in range(2):
            pool.submit(pid_then_sleep, i)
        time.sleep(30)
""")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("method", ["fork", "forkserver"])
def test_workers_die_with_their_parent(tmp_path: Path, method: str) -> None:
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    with subprocess.Popen([sys.executable, str(script), method], stdout=subprocess.PIPE,
                          text=True) as parent:
        assert parent.stdout is not None
        workers = [int(parent.stdout.readline()) for _ in range(2)]
        assert all(_alive(pid) for pid in workers)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)


KILLING_WINNOW = textwrap.dedent("""
    import os, signal, sys
    from winnow.cli.main import main
    from winnow.sources.submissions import SourceFile

    real = SourceFile.document

    def document(self):
        if self.path == "killer.py":
            os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
        return real(self)

    SourceFile.document = document
    sys.exit(main(sys.argv[1:]))
""")


def test_compare_cli_names_the_file_whose_worker_was_killed(tmp_path: Path) -> None:
    script = tmp_path / "winnow_killing.py"
    script.write_text(KILLING_WINNOW)
    klass = make_class(tmp_path, {"killer.py": b"x = 1\n"})
    plain = make_class(tmp_path / "plain", {})

    def run(folder: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(script), "compare", "--each", str(folder), "-q", "-j", "2",
             "--format", "json"], capture_output=True, text=True, check=False)

    result, expected = run(klass), run(plain)
    assert expected.returncode == 0, expected.stderr
    assert result.returncode == 1, result.stderr
    assert f"{klass / HOSTILE / 'killer.py'}: {WORKER_DIED}" in result.stderr
    assert others(json.loads(result.stdout)) == others(json.loads(expected.stdout))
    assert mallory_pairs(json.loads(result.stdout))
