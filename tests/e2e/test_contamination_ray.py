"""``winnow contamination --ray`` on a real local Ray cluster: the rows of
this machine's worker processes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner

from tests.e2e.test_contamination_cli import words
from winnow.cli import main


def test_ray_tasks_give_the_rows_of_local_processes(ray_cluster: None, tmp_path: Path) -> None:
    rng = random.Random(4)
    items = [words(rng, 25) for _ in range(6)]
    eval_path = tmp_path / "eval.jsonl"
    eval_path.write_text("".join(json.dumps({"id": f"q{i}", "text": t}) + "\n"
                                 for i, t in enumerate(items)))
    corpus = []
    for f in range(3):  # three files: three shards, three tasks
        path = tmp_path / f"corpus{f}.jsonl"
        edited = items[f].split()
        edited[12] = "changed"
        texts = [words(rng, 40) + " " + items[f + 3], " ".join(edited), words(rng, 90)]
        path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
        corpus += ["--corpus", str(path)]
    outputs = []
    for engine in ([], ["--ray"]):
        out = tmp_path / f"rows{len(engine)}.jsonl"
        result = CliRunner().invoke(main, ["contamination", str(eval_path), "--id-field", "id",
                                           *corpus, *engine, "-j", "2", "-o", str(out)],
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.stderr
        outputs.append([json.loads(line) for line in out.read_text().splitlines()])
    assert outputs[0] == outputs[1]
    found = {row["id"]: row for row in outputs[0] if row["records"]}
    assert sorted(found) == [f"q{i}" for i in range(6)]  # verbatim and edited, all found
    assert all(found[f"q{i}"]["coverage"] == 1.0 for i in range(3, 6))
    assert {loc["id"] for loc in found["q1"]["locations"]} == {f"{tmp_path}/corpus1.jsonl:2"}
