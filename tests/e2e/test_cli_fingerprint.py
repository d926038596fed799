"""`winnow fingerprint` end to end: output formats, exit codes, error messages."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import winnow
from winnow.cli import main


@pytest.fixture()
def binary_file(tmp_path: Path) -> Path:
    path = tmp_path / "blob.bin"
    path.write_bytes(np.random.default_rng(9).integers(0, 256, 3000, dtype=np.uint8).tobytes())
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_json_lists_fingerprints_with_hash_start_end(binary_file: Path) -> None:
    code, out, _ = run("fingerprint", str(binary_file), "-k", "20", "-t", "40",
                       "--method", "winnow", "--format", "json")
    assert code == 0
    [doc] = json.loads(out)
    data = np.frombuffer(binary_file.read_bytes(), np.uint8)
    expected = winnow.select_fingerprints(winnow.kgram_hashes(data, 20), 21, "winnow")
    assert [fp["hash"] for fp in doc["fingerprints"]] == expected["hash"].tolist()
    assert [fp["start"] for fp in doc["fingerprints"]] == expected["pos"].tolist()
    assert all(fp["end"] - fp["start"] == 20 for fp in doc["fingerprints"])
    assert doc["density"] == pytest.approx(len(expected) / (3000 - 20 + 1))


def test_table_shows_density_and_rows(binary_file: Path) -> None:
    code, out, _ = run("fingerprint", str(binary_file), "-k", "10", "-t", "30")
    assert code == 0
    assert "density" in out
    assert len([line for line in out.splitlines() if line.strip()[:1].isdigit()]) > 10


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-k", "5", "-t", "3"], "t (guarantee threshold) must be >= k"),
        (["-k", "0"], "k (noise threshold) must be >= 1"),
        (["--method", "bogus"], "Invalid value for '--method'"),
    ],
)
def test_invalid_parameters_are_usage_errors(binary_file: Path, args: list[str],
                                             message: str) -> None:
    code, _, err = run("fingerprint", str(binary_file), *args)
    assert code == 2
    assert message in err


def test_missing_file_and_directory_are_reported_and_batch_goes_on(
    binary_file: Path, tmp_path: Path
) -> None:
    code, out, err = run("fingerprint", str(tmp_path / "nope.txt"), str(tmp_path),
                         str(binary_file), "--format", "json")
    assert code == 1
    assert f"{tmp_path / 'nope.txt'}: no such file" in err
    assert f"{tmp_path}: is a directory" in err
    assert [doc["path"] for doc in json.loads(out)] == [str(binary_file)]


def test_unreadable_file_is_reported() -> None:
    """Run as an unprivileged user when we are root (root reads anything)."""
    folder = Path(tempfile.mkdtemp(prefix="winnow-unreadable-"))
    try:
        folder.chmod(0o755)
        secret = folder / "secret.txt"
        secret.write_text("you cannot read me" * 10)
        secret.chmod(0o000)
        command = [sys.executable, "-m", "winnow", "fingerprint", str(secret)]
        if os.geteuid() == 0:
            setpriv = shutil.which("setpriv")
            if setpriv is None:
                pytest.skip("running as root without setpriv: cannot drop privileges")
            command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert done.returncode == 1, done.stderr
        assert f"{secret}: permission denied" in done.stderr
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_csv_has_one_row_per_fingerprint_and_jsonl_one_line_per_file(
        binary_file: Path, tmp_path: Path) -> None:
    args = ("fingerprint", str(binary_file), str(binary_file), "-k", "20", "-t", "40")
    _, out, _ = run(*args, "--format", "json")
    docs = json.loads(out)
    code, out, _ = run(*args, "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 2 * len(docs[0]["fingerprints"])
    assert [int(r["hash"]) for r in rows[: len(rows) // 2]] == \
        [fp["hash"] for fp in docs[0]["fingerprints"]]
    assert rows[0]["path"] == str(binary_file)
    target = tmp_path / "out.jsonl"
    code, out, _ = run(*args, "--format", "jsonl", "-o", str(target))
    assert code == 0 and out == ""
    assert [json.loads(line) for line in target.read_text().splitlines()] == docs


def test_unwritable_output_fails_with_exit_code_3(binary_file: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run("fingerprint", str(binary_file), "-o", str(blocker / "out.csv"))
    assert code == 3 and err.startswith("winnow: error: ") and "out.csv" in err
