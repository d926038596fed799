"""``dedup --passages`` on a real local Ray cluster: the same rows as on this
machine's processes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner

from winnow.cli import main

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def words(rng: random.Random, n: int) -> str:
    return " ".join("".join(rng.choice(LETTERS) for _ in range(rng.randint(3, 9)))
                    for _ in range(n))


def test_ray_gives_the_rows_of_local_processes(ray_cluster: None, tmp_path: Path) -> None:
    rng = random.Random(2)
    passage, edited = words(rng, 80), words(rng, 70).split()
    paths = []
    for f in range(2):
        path = tmp_path / f"in{f}.jsonl"
        texts = [words(rng, 30) + " " + passage, " ".join(edited) + " " + words(rng, 9),
                 words(rng, 200)]
        edited[30] = "changed"
        path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
        paths.append(str(path))
    outputs = []
    for engine in ("local-sharded", "ray"):
        out = tmp_path / f"{engine}.jsonl"
        result = CliRunner().invoke(main, ["dedup", *paths, "--passages", "--engine", engine,
                                           "-o", str(out), "-j", "2", "--partitions", "3"],
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.stderr
        outputs.append([json.loads(line) for line in out.read_text().splitlines()])
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) == 4 and sum(r["kept"] for r in outputs[0]) == 2
