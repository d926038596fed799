"""The short library API: ``compare_texts``, ``compare_paths``, passage text, and
the README's library example, executed as written."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import winnow
from winnow.config import WinnowConfig
from winnow.matching import CompareOptions, compare, default_configs
from winnow.sources.submissions import ReadOptions, SourceFile, SubmissionSource

ROOT = Path(__file__).resolve().parents[2]

CODE = ("def mean(xs):\n    total = 0\n    for x in xs:\n        total += x\n"
        "    return total / len(xs)\n\n\nprint(mean([1, 2, 3]))\n")
RENAMED = CODE.replace("total", "acc").replace("xs", "values").replace("mean", "avg")
OTHER = "import statistics\n\nprint(statistics.median([4, 1, 7, 3]))\n" * 2


def _library_blocks() -> list[tuple[str, str]]:
    """``(language, body)`` of each fenced block of the README's Library section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Library\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```(\w+)\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)


def _run(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    return out.getvalue()


def test_the_readme_example_prints_what_the_readme_says() -> None:
    blocks = _library_blocks()
    assert [lang for lang, _ in blocks[:2]] == ["python", "text"]
    (_, example), (_, shown) = blocks[:2]
    assert "compare_texts" in example and "passage_text" in example
    assert _run(example) == shown


def test_the_readmes_other_library_block_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    rest = [body for lang, body in _library_blocks()[2:] if lang == "python"]
    assert rest, "the README's Library section lost its paths example"
    monkeypatch.chdir(ROOT)  # it reads examples/python as the README says
    lines = _run("\n".join(rest)).splitlines()
    assert len(lines) == 3
    # named as `winnow compare --each` names them: relative to the folder
    assert all(re.match(r"\w+ \w+ [01]\.\d\d \[", line) for line in lines), lines


def test_compare_texts_names_submissions_and_files() -> None:
    result = winnow.compare_texts(
        {"alice": CODE, "bob": {"main.py": RENAMED, "util.py": OTHER}, "carol": b"",
         "dave": {}}, frontend="code", lang="python")
    assert [s.name for s in result.submissions] == ["alice", "bob", "carol", "dave"]
    assert [f.path for f in result.submission("bob").files] == ["main.py", "util.py"]
    assert {i.path for i in result.issues if i.skipped} == {"carol", "dave"}
    assert not result.submission("dave").files
    top = result.pairs[0]
    assert (top.a, top.b) == ("alice", "bob")
    assert top.passages[0].b.file == "main.py"
    assert result.config["k"] == 10


def test_compare_texts_chooses_the_front_end_by_name_without_one() -> None:
    result = winnow.compare_texts({"a.py": CODE, "b.py": RENAMED})
    assert result.parameters["frontend_params"] == {"code": {"k": 10, "t": 10}}
    assert result.pairs[0].similarity > 0.5  # renamed identifiers: same tokens
    prose = winnow.compare_texts({"a": CODE, "b": RENAMED})  # no extension: text
    assert prose.parameters["frontend_params"] == {"text": {"k": 16, "t": 23}}


def test_base_text_is_ignored() -> None:
    texts = {"a.py": CODE + OTHER, "b.py": RENAMED + OTHER}
    plain = winnow.compare_texts(texts)
    based = winnow.compare_texts(texts, base={"starter.py": OTHER})
    assert based.pairs[0].shared < plain.pairs[0].shared
    assert based.stats["ignored_base"] > 0


def test_passage_text_is_the_regions_bytes_and_lines() -> None:
    result = winnow.compare_texts({"a.py": "x = 1\n" + CODE, "b.py": RENAMED + "y = 2\n"},
                                  options=CompareOptions(literal_k=0))
    pair = result.pairs[0]
    passage = pair.passages[0]
    text_a, text_b = result.passage_text(pair, passage)
    assert text_a == ("x = 1\n" + CODE)[passage.a.bytes.start:passage.a.bytes.end]
    assert text_b == RENAMED[passage.b.bytes.start:passage.b.bytes.end]
    assert text_a.startswith("def mean") and text_b.startswith("def avg")
    first, last = passage.a.lines
    assert first == 2  # after "x = 1"
    whole = result.region_text(pair.a, passage.a, whole_lines=True)
    assert whole == "".join(("x = 1\n" + CODE).splitlines(keepends=True)[first - 1:last])
    assert whole.endswith("\n") and text_a in whole
    with pytest.raises(KeyError):
        winnow.compare_texts({"a.py": CODE, "b.py": RENAMED},
                             options=CompareOptions(passages=False)).region_text(
            "a.py", passage.a)


def _held(name: str, files: dict[str, str], read: ReadOptions) -> SubmissionSource:
    return SubmissionSource(name, "new", tuple(
        SourceFile(path, f"{name}/{path}", read, data=text.encode(), size=len(text))
        for path, text in files.items()))


def test_default_configs_follow_the_files_and_the_majority() -> None:
    note = "Some notes on the mean of a list of numbers, written in prose. " * 4
    subs = [_held(n, {"a.py": CODE, "n1.txt": note, "n2.txt": note + n}, ReadOptions())
            for n in ("x", "y")]
    config, by_frontend = default_configs(subs)
    assert (config.k, config.t) == (16, 23)  # most files are text
    assert (by_frontend["code"].k, by_frontend["code"].t) == (10, 10)
    forced = [_held(n, {"a.txt": CODE}, ReadOptions(frontend="code")) for n in ("x", "y")]
    assert default_configs(forced)[0].k == 10  # the files' own read options say code
    seeded, _ = default_configs(subs, method="winnow", seed=7)
    assert (seeded.method, seeded.seed) == ("winnow", 7)
    result = compare(subs)
    assert result.config["k"] == 16
    assert result.parameters["frontend_params"] == {"code": {"k": 10, "t": 10},
                                                    "text": {"k": 16, "t": 23}}
    explicit = compare(subs, WinnowConfig(k=10, t=10))
    assert explicit.parameters["frontend_params"] == {"code": {"k": 10, "t": 10},
                                                      "text": {"k": 10, "t": 10}}


def test_import_winnow_stays_light() -> None:
    code = ("import sys, winnow\nassert callable(winnow.__getattr__)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
    assert winnow.compare_texts is winnow.api.compare_texts
