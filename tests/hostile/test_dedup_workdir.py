"""A sharded ``dedup``'s working folder: stale, damaged, foreign or shared ones are
named errors, never silent wrong results; SIGTERM cleans up like Ctrl-C.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostile.cli_helpers import winnow
from tests.hostile.test_dedup_records import clusters, good_lines
from winnow.sharded.plan import Store

pytestmark = pytest.mark.sharded


def sharded(data: Path, workdir: Path, *extra: str | Path) -> tuple[int, str, str]:
    result = winnow("dedup", "-q", "-j", "1", "--id-field", "id", "--engine", "local-sharded",
                    "--partitions", "2", "--workdir", workdir, data, *extra)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text("\n".join(good_lines()) + "\n")
    return path


@pytest.fixture
def done(data: Path, tmp_path: Path) -> tuple[Path, set[frozenset[str]]]:
    """A finished run's working folder and its clusters."""
    workdir = tmp_path / "work"
    code, out, err = sharded(data, workdir)
    assert code == 0, err
    return workdir, clusters(out)


def test_a_second_run_reuses_the_folder_with_the_same_result(
        data: Path, done: tuple[Path, set[frozenset[str]]]) -> None:
    workdir, first = done
    code, out, err = sharded(data, workdir)
    assert code == 0, err
    assert clusters(out) == first


FIVE = ("river", "stone", "light", "paper", "cloud", "green", "house", "quiet", "north",
        "table", "music", "chair", "grape", "lemon", "storm", "dream")


def test_an_input_rewritten_with_the_same_size_and_mtime_is_not_served_stale_shards(
        tmp_path: Path) -> None:
    """Every text the same length: one record rewritten as a copy of another keeps the
    file's size; its mtime is set back.  The working folder must not answer for it."""
    rng = random.Random(9)
    texts = [" ".join(rng.choice(FIVE) for _ in range(60)) for _ in range(30)]
    data = tmp_path / "same.jsonl"

    def write() -> None:
        data.write_text("".join(json.dumps({"id": f"r{i:02d}", "text": t}) + "\n"
                                for i, t in enumerate(texts)))

    write()
    workdir = tmp_path / "work"
    code, out, err = sharded(data, workdir)
    assert code == 0, err
    before, info = clusters(out), data.stat()
    texts[7] = texts[3]
    write()
    os.utime(data, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert (data.stat().st_size, data.stat().st_mtime_ns) == (info.st_size, info.st_mtime_ns)
    fresh = winnow("dedup", "-q", "-j", "1", "--id-field", "id", data)
    assert fresh.exit_code == 0 and clusters(fresh.stdout) != before
    code, out, err = sharded(data, workdir)
    if code == 0:
        assert clusters(out) == clusters(fresh.stdout)
    else:
        assert code == 2 and "holds another run" in err, err


def _prints_files(workdir: Path) -> list[Path]:
    return sorted((workdir / "prints").rglob("*.parquet"))


@pytest.mark.parametrize("damage", ["truncated", "flipped", "foreign", "merged flipped"])
def test_a_damaged_or_foreign_shard_is_named(
        damage: str, data: Path, done: tuple[Path, set[frozenset[str]]]) -> None:
    workdir, _ = done
    files = _prints_files(workdir)
    assert len(files) >= 2
    victim = files[0] if damage != "merged flipped" else sorted(
        (workdir / "merged").glob("*.parquet"))[0]
    raw = bytearray(victim.read_bytes())
    if damage == "truncated":
        victim.write_bytes(raw[: len(raw) // 2])
    elif damage == "foreign":
        other = next(f for f in files if f.parent != victim.parent)
        victim.write_bytes(other.read_bytes())
    else:
        raw[len(raw) // 3] ^= 0xFF
        victim.write_bytes(bytes(raw))
    code, out, err = sharded(data, workdir)
    assert code == 2, err
    assert victim.name in err and "damaged" in err and "Traceback" not in err
    assert out == ""


@pytest.mark.parametrize("name", ["plan.json", "done/prints/s000000.json",
                                  "done/merge/q0000.json"])
@pytest.mark.parametrize("content", [b"{garbage", b'{"value": 1}'])
def test_a_garbage_plan_or_marker_is_named(
        name: str, content: bytes, data: Path, done: tuple[Path, set[frozenset[str]]]) -> None:
    workdir, _ = done
    (workdir / name).write_bytes(content)
    code, _, err = sharded(data, workdir)
    assert code == 2, err
    assert name.rsplit("/", 1)[-1] in err or "holds another run" in err
    assert "internal error" not in err


def test_a_second_run_on_a_folder_in_use_is_a_clear_error(
        data: Path, tmp_path: Path) -> None:
    workdir = tmp_path / "busy"
    with Store.of(workdir).lock():
        code, out, err = sharded(data, workdir)
    assert code == 2
    assert "another run" in err and str(os.getpid()) in err and out == ""
    code, out, _ = sharded(data, workdir)
    assert code == 0 and clusters(out)


def test_sigterm_removes_the_temporary_shards_like_sigint(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    data = tmp_path / "big.jsonl"
    data.write_text("\n".join(good_lines(30000, seed=5)) + "\n")
    env = {**os.environ, "TMPDIR": str(temp)}
    process = subprocess.Popen(
        [sys.executable, "-c", "from winnow.cli.main import main; main()", "dedup", "-q",
         "-j", "1", "--engine", "local-sharded", "--partitions", "4", str(data)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not list(temp.glob("winnow-sharded-*")):
        time.sleep(0.01)
    assert list(temp.glob("winnow-sharded-*")), "the run never made its working folder"
    time.sleep(0.2)  # into the fingerprinting of 30,000 records: the run is not over
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert not list(temp.glob("winnow-sharded-*")), "SIGTERM left the temporary shards"
    assert b"Traceback" not in err


class WorkerCrashedError(Exception):
    """Stands for Ray's error when a worker or its agent dies past the retries."""


WorkerCrashedError.__module__ = "ray.exceptions"


@pytest.mark.parametrize("given", [True, False])
def test_a_lost_ray_run_says_how_to_resume(given: bool, data: Path, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A killed Ray agent fails the run with a message, not a traceback: with
    --workdir the finished tasks stay and the same command resumes from them."""
    from winnow import sharded as engine

    def lost(*args: object, **kwargs: object) -> None:
        raise WorkerCrashedError("The worker died unexpectedly while executing this task.")

    monkeypatch.setattr(engine, "count_pairs", lost)
    workdir = tmp_path / "work"
    extra = ["--workdir", str(workdir)] if given else []
    result = winnow("dedup", "-q", "-j", "1", "--id-field", "id", "--engine", "local-sharded",
                    *extra, data)
    assert result.exit_code == 2
    assert "the Ray run failed (WorkerCrashedError: The worker died" in result.stderr
    assert ("run the same command again to resume" if given else "give --workdir DIR") \
        in result.stderr
    monkeypatch.undo()
    if given:
        code, out, err = sharded(data, workdir)
        assert code == 0 and clusters(out), err
