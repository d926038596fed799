"""``winnow evaluate`` end to end, on small labelled programs written here."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from winnow.cli.main import main

ORIGINAL = '''\
def mean(values):
    total = 0
    for value in values:
        total += value
    return total / len(values)


def variance(values):
    centre = mean(values)
    squares = [(value - centre) ** 2 for value in values]
    return sum(squares) / (len(values) - 1)


def describe(values):
    if not values:
        raise ValueError("no values")
    low, high = min(values), max(values)
    return {"mean": mean(values), "variance": variance(values), "range": high - low}
'''

RENAMED = '''\
def average(xs):
    acc = 0
    for x in xs:
        acc += x
    return acc / len(xs)


def spread(xs):
    mid = average(xs)
    sq = [(x - mid) ** 2 for x in xs]
    return sum(sq) / (len(xs) - 1)


def summary(xs):
    if not xs:
        raise ValueError("empty")
    lo, hi = min(xs), max(xs)
    return {"mean": average(xs), "variance": spread(xs), "range": hi - lo}
'''

COMMENTED = "# statistics helpers\n" + ORIGINAL.replace(
    "    total = 0\n", "    # running sum of the values\n    total = 0\n")

INDEPENDENT_1 = '''\
import sys


class Stack:
    """A last-in first-out stack."""

    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)

    def pop(self):
        if not self.items:
            raise IndexError("pop from an empty stack")
        return self.items.pop()


if __name__ == "__main__":
    s = Stack()
    for word in sys.argv[1:]:
        s.push(word)
    print(s.pop())
'''

INDEPENDENT_2 = '''\
from pathlib import Path


def count_words(path):
    counts = {}
    with Path(path).open() as handle:
        for line in handle:
            for word in line.split():
                counts[word.lower()] = counts.get(word.lower(), 0) + 1
    return sorted(counts.items(), key=lambda item: -item[1])


def main(argv):
    for word, n in count_words(argv[1])[:10]:
        print(f"{n:6d} {word}")
'''

LABELS = """\
file_a,file_b,label,kind
orig/stats.py,copies/renamed.py,1,rename
orig/stats.py,copies/commented.py,1,comments
copies/renamed.py,copies/commented.py,1,rename
orig/stats.py,others/stack.py,0,independent
orig/stats.py,others/words.py,0,independent
others/stack.py,others/words.py,0,independent
copies/renamed.py,others/words.py,0,independent
"""


@pytest.fixture
def labelled(tmp_path: Path) -> Path:
    files = {"orig/stats.py": ORIGINAL, "copies/renamed.py": RENAMED,
             "copies/commented.py": COMMENTED, "others/stack.py": INDEPENDENT_1,
             "others/words.py": INDEPENDENT_2}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "labels.csv").write_text(LABELS, encoding="utf-8")
    return tmp_path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["evaluate", *args, "-j", "1", "-q"])
    return result.exit_code, result.stdout, result.stderr


def test_copies_rank_above_independent_programs(labelled: Path) -> None:
    code, out, err = run(str(labelled / "labels.csv"), "--root", str(labelled),
                         "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    overall = data["overall"]
    assert (overall["n_pairs"], overall["n_positive"], overall["n_negative"]) == (7, 3, 4)
    assert overall["roc_auc"] == 1.0
    assert overall["pr_auc"] == 1.0
    assert overall["best_f1"] == 1.0
    assert overall["threshold"] > 0  # the independent pairs score below it
    assert data["files"] == 5 and data["unread"] == []
    by_value = {(g["column"], g["value"]): g for g in data["groups"]}
    # "comments" holds one positive only: scored against all four negatives
    assert by_value[("kind", "comments")]["n_negative"] == 4
    assert by_value[("kind", "independent")]["roc_auc"] is None


def test_takes_compare_options(labelled: Path) -> None:
    code, out, err = run(str(labelled / "labels.csv"), "--root", str(labelled),
                         "--format", "json", "-k", "6", "-t", "9", "-m", "0",
                         "--similarity", "jaccard")
    assert code == 0, err
    data = json.loads(out)
    assert (data["config"]["k"], data["config"]["t"]) == (6, 9)
    assert data["parameters"]["similarity"] == "jaccard"
    assert data["parameters"]["max_occurrences"] == 0


def test_csv_jsonl_table_and_output_file(labelled: Path) -> None:
    labels, root = str(labelled / "labels.csv"), str(labelled)
    code, out, _ = run(labels, "--root", root, "--format", "csv", "--group", "kind")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["column", "value", "n_pairs", "n_positive", "n_negative",
                             "roc_auc", "pr_auc", "best_f1", "threshold", "precision", "recall"]
    assert [(r["column"], r["value"]) for r in rows] == [
        ("", "all"), ("kind", "comments"), ("kind", "independent"), ("kind", "rename")]
    assert float(rows[0]["roc_auc"]) == 1.0 and rows[2]["roc_auc"] == ""
    code, out, _ = run(labels, "--root", root, "--format", "jsonl", "--where", "kind=rename")
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["n_pairs"] == 2 and lines[0]["roc_auc"] is None  # positives only
    code, out, _ = run(labels, "--root", root)
    assert "ROC AUC" in out and "similarity weighted-containment" in out
    target = labelled / "out.json"
    code, out, _ = run(labels, "--root", root, "--format", "json", "-o", str(target))
    assert code == 0 and out == ""
    assert json.loads(target.read_text())["overall"]["roc_auc"] == 1.0


def test_missing_file_warns_and_scores_zero(labelled: Path) -> None:
    (labelled / "others" / "words.py").unlink()
    code, out, err = run(str(labelled / "labels.csv"), "--root", str(labelled),
                         "--format", "json")
    assert code == 1
    assert "words.py" in err
    data = json.loads(out)
    assert data["unread"] == ["others/words.py"]
    assert data["overall"]["n_pairs"] == 7  # its pairs are kept, scored 0


@pytest.mark.parametrize(("args", "message"), [
    (["--group", "nope"], "no such column nope"),
    (["--where", "kind"], "is not COLUMN=VALUE"),
    (["--where", "nope=x"], "no such column"),
    (["--where", "kind=none"], "no labelled pair matches"),
])
def test_bad_options_are_usage_errors(labelled: Path, args: list[str], message: str) -> None:
    code, _, err = run(str(labelled / "labels.csv"), "--root", str(labelled), *args)
    assert code == 2
    assert message in err


def test_bad_labels_file(labelled: Path) -> None:
    bad = labelled / "bad.csv"
    bad.write_text("a,b\nx,y\n", encoding="utf-8")
    code, _, err = run(str(bad), "--root", str(labelled))
    assert code == 2
    assert "bad.csv" in err and "file_a" in err
