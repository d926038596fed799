"""The passages of the best pairs computed by the workers that read their files
again (``winnow.matching.head``): the same result as from kept documents."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.config import WinnowConfig
from winnow.matching import CompareOptions, compare
from winnow.matching.head import Settings, lost_task, run_task, tasks
from winnow.matching.shares import Literal
from winnow.parallel import WorkerPool, make_pool
from winnow.reports.json import result_record
from winnow.sources.submissions import load_submissions

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python" / "submissions"
NO_SETTINGS = Settings({}, (WinnowConfig(), None), np.zeros(0, np.uint64),
                       np.zeros(0, np.uint64), 10, 10)


class _File:
    def __init__(self, location: str) -> None:
        self.path = self.location = location


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=40),
       st.integers(1, 6))
def test_tasks_hold_every_pair_once_with_all_the_files_of_its_owners(
    raw: list[tuple[int, int]], count: int,
) -> None:
    pairs = [(a, b) for a, b in raw if a < b]
    files_of = {x: [(10 * x + j, _File(f"s{x}/f{j}")) for j in range(1 + x % 3)]
                for x in range(13)}
    cut = tasks(pairs, files_of, NO_SETTINGS, count)
    assert len(cut) <= count
    seen = sorted(i for indices, _ in cut for i in indices)
    assert seen == list(range(len(pairs)))  # each pair in one task
    share = -(-len(pairs) // count) if pairs else 0
    for indices, task in cut:
        assert indices == sorted(indices)
        assert task.pairs == tuple(pairs[i] for i in indices)
        owners = {x for pair in task.pairs for x in pair}
        assert {f for f, _, _ in task.files} == {f for x in owners for f, _ in files_of[x]}
        assert len(indices) <= 2 * share  # about equal tasks


def test_copies_of_one_program_go_to_one_task_unless_too_many() -> None:
    files_of = {x: [(x, _File(f"s{x}.py"))] for x in range(20)}
    copies = [(0, 1), (5, 6), (0, 2), (5, 7), (1, 2), (6, 7), (8, 9), (10, 11)]
    cut = tasks(copies, files_of, NO_SETTINGS, 2)
    groups = [{i for i, pair in enumerate(copies) if set(pair) <= members}
              for members in ({0, 1, 2}, {5, 6, 7})]
    for group in groups:  # three pairs each, a task's share is four: whole
        assert any(group <= set(indices) for indices, _ in cut)
    assert sorted(len(indices) for indices, _ in cut) == [4, 4]
    ring = [(x, (x + 1) % 10) for x in range(10)]  # one group of ten pairs, share five
    cut = tasks(ring, files_of, NO_SETTINGS, 2)
    assert [indices for indices, _ in cut] == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    assert [len(task.files) for _, task in cut] == [6, 6]  # 0 and 5 read by both


def test_a_lost_task_names_its_files_and_gives_its_pairs_no_passages() -> None:
    (_, task), = tasks([(0, 1), (1, 2)], {x: [(x, _File(f"s{x}.py"))] for x in range(3)},
                       NO_SETTINGS, 1)
    result = lost_task(task, "worker died")
    assert [(d.path, d.reason) for d in result.documents.values()] == [  # type: ignore[union-attr]
        ("s0.py", "worker died"), ("s1.py", "worker died"), ("s2.py", "worker died")]
    assert result.found == (((), Literal()), ((), Literal()))


_RAN = Path()  # where _tracked_run_task notes the process that ran a task
_PARENT = 0


def _tracked_run_task(task: Any) -> Any:
    with _RAN.open("a", encoding="utf-8") as out:
        out.write(f"{os.getpid()}\n")
    if os.getpid() != _PARENT:
        time.sleep(0.3)  # slow workers: the main process surely takes tasks too
    return run_task(task)


def _record(subs: Any, jobs: int) -> dict[str, Any]:
    result = compare(subs, None, CompareOptions(), jobs=jobs)
    plain: dict[str, Any] = json.loads(json.dumps(result_record(result)))
    return plain


def test_workers_reading_again_give_the_result_of_kept_documents(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    subs = load_submissions([str(SAMPLE)], each=True)
    kept = _record(subs, jobs=1)  # a small batch keeps its documents
    assert any(pair["passages"] for pair in kept["pairs"])
    monkeypatch.setattr("winnow.matching.batch.DOCUMENT_BUDGET", 0)  # read again
    assert _record(subs, jobs=2) == kept  # by the workers, task by task
    monkeypatch.setattr(sys.modules[__name__], "_RAN", tmp_path / "ran.txt")
    monkeypatch.setattr(sys.modules[__name__], "_PARENT", os.getpid())
    monkeypatch.setattr(sys.modules["winnow.matching.compare"], "run_task", _tracked_run_task)
    assert _record(subs, jobs=3) == kept  # two workers and this process share the tasks
    ran = set((tmp_path / "ran.txt").read_text(encoding="utf-8").split())
    assert str(os.getpid()) in ran and len(ran) >= 2
    monkeypatch.undo()
    monkeypatch.setattr("winnow.matching.batch.DOCUMENT_BUDGET", 0)
    assert _record(subs, jobs=1) == kept  # here, one file after the other
    with ThreadPoolExecutor(2) as pool:  # a caller's executor takes every task
        given = compare(subs, None, CompareOptions(), executor=pool)
    assert json.loads(json.dumps(result_record(given))) == kept
    workers = make_pool(2, 100)  # a caller's own worker pool too
    assert isinstance(workers, WorkerPool)
    try:
        given = compare(subs, None, CompareOptions(), executor=workers)
    finally:
        workers.shutdown()
    assert json.loads(json.dumps(result_record(given))) == kept


def test_a_file_gone_before_the_second_read_is_named_and_loses_its_passages(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    shutil.copytree(SAMPLE, tmp_path / "subs")
    subs = load_submissions([str(tmp_path / "subs")], each=True)
    monkeypatch.setattr("winnow.matching.batch.DOCUMENT_BUDGET", 0)
    before = compare(subs, None, CompareOptions(), jobs=2)
    best = before.pairs[0]
    assert best.passages
    gone = tmp_path / "subs" / best.a / best.passages[0].a.file

    def progress(stage: str, done: int, total: int) -> None:
        if stage == "fingerprint" and done == total:  # between the two reads
            gone.unlink()

    after = compare(subs, None, CompareOptions(), jobs=2, progress=progress)
    again = next(p for p in after.pairs if (p.a, p.b) == (best.a, best.b))
    assert not any(p.a.file == best.passages[0].a.file for p in again.passages or ())
    assert any(issue.path.endswith(best.passages[0].a.file) and "on second read" in issue.reason
               for issue in after.issues)
