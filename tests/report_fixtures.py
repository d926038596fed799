"""Hand-made :class:`ComparisonResult` objects for the HTML report's tests.

Built straight from the result model (no comparison engine involved) so the report's
tests pin what the report does with a given result.  Units are bytes here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from winnow.matching.model import (
    Cluster,
    ComparisonResult,
    Issue,
    PairResult,
    Passage,
    Region,
    Submission,
    SubmittedFile,
)
from winnow.model import Document, Span, Stream

#: (file_a, first_a, last_a, file_b, first_b, last_b): one passage by lines, inclusive.
PassageSpec = tuple[str, int, int, str, int, int]


def document(name: str, text: str) -> Document:
    """A text document whose stream is its bytes."""
    data = text.encode("utf-8")
    units = np.frombuffer(data, dtype=np.uint8).astype(np.int64)
    starts = np.arange(len(data), dtype=np.int64)
    stream = Stream(units, starts, starts + 1)
    return Document(name, data, "text", "bytes", stream, encoding="utf-8")


def _region(doc: Document, file: str, first: int, last: int) -> Region:
    starts = doc.line_starts
    begin = int(starts[first - 1])
    end = int(starts[last]) if last < len(starts) else len(doc.data)
    return Region(file, Span(begin, end), Span(begin, end), (first, last))


def build_result(
    submissions: Mapping[str, Mapping[str, str]],
    pairs: Sequence[tuple[str, str, Sequence[PassageSpec]]],
    clusters: Sequence[Sequence[str]] = (),
    issues: Sequence[Issue] = (),
    archive: Sequence[str] = (),
) -> ComparisonResult:
    """A result with the given submissions (name -> {file: text}) and passages per pair.

    Scores are derived from the passages so they are consistent: coverage is the share
    of bytes covered, similarity the larger coverage.
    """
    docs = {(s, f): document(f, text) for s, files in submissions.items()
            for f, text in files.items()}
    subs = tuple(
        Submission(s, "archive" if s in archive else "new",
                   tuple(SubmittedFile(f, len(t.encode()), len(t.encode()), 10)
                         for f, t in files.items()),
                   sum(len(t.encode()) for t in files.values()), 10 * len(files))
        for s, files in submissions.items()
    )
    results = []
    for a, b, specs in pairs:
        passages = []
        for i, (fa, la0, la1, fb, lb0, lb1) in enumerate(specs):
            ra = _region(docs[(a, fa)], fa, la0, la1)
            rb = _region(docs[(b, fb)], fb, lb0, lb1)
            passages.append(Passage(i, ra, rb, min(len(ra.units), len(rb.units)), 3))
        size_a = sum(len(d.data) for (s, _), d in docs.items() if s == a) or 1
        size_b = sum(len(d.data) for (s, _), d in docs.items() if s == b) or 1
        cov_a = min(1.0, sum(len(p.a.bytes) for p in passages) / size_a)
        cov_b = min(1.0, sum(len(p.b.bytes) for p in passages) / size_b)
        lines_a = sum(p.a.lines[1] - p.a.lines[0] + 1 for p in passages)
        lines_b = sum(p.b.lines[1] - p.b.lines[0] + 1 for p in passages)
        results.append(PairResult(
            a, b, max(cov_a, cov_b), 3 * len(passages), cov_a, cov_b, min(cov_a, cov_b),
            min(cov_a, cov_b), 0.1, bool(passages), cov_a, cov_b, lines_a, lines_b,
            max((p.length for p in passages), default=0), tuple(passages)))
    results.sort(key=lambda p: -p.similarity)
    cl = tuple(Cluster(i, tuple(sorted(m)), len(m) - 1, 0.9) for i, m in enumerate(clusters))
    return ComparisonResult(
        subs, tuple(results), cl,
        config={"k": 5, "t": 8, "method": "robust", "seed": 0},
        parameters={"similarity": "coverage", "top": 250, "cluster_threshold": 0.5},
        issues=tuple(issues), documents=docs)


def program(name: str, body_lines: int, start: int = 0) -> str:
    """A plausible Python file with ``body_lines`` distinct numbered functions."""
    out = [f'"""Module {name}."""', ""]
    for i in range(start, start + body_lines):
        out += [f"def step_{i}(x):", f"    return x * {i} + {i % 7}", ""]
    return "\n".join(out) + "\n"


_WORDS = ("total", "count", "value", "items", "left", "right", "step", "acc", "best", "seen",
          "queue", "limit", "index", "scale", "width", "depth", "score", "parts", "node", "key")
_OPS = ("+", "-", "*", "//", "%")


def student_function(rng: random.Random, name: str) -> str:
    """A small random Python function (loops, branches, arithmetic) named ``name``."""
    a, b, c = rng.sample(_WORDS, 3)
    body = [f"def {name}({a}, {b}):", f"    {c} = {rng.randint(0, 9)}"]
    for _ in range(rng.randint(3, 6)):
        x, y = rng.sample((a, b, c), 2)
        op = rng.choice(_OPS)
        kind = rng.randint(0, 2)
        if kind == 0:
            body.append(f"    for i in range({rng.randint(2, 30)}):")
            body.append(f"        {c} = {c} {op} ({x} {rng.choice(_OPS)} i + {rng.randint(1, 99)})")
        elif kind == 1:
            body.append(f"    if {x} > {rng.randint(1, 50)}:")
            body.append(f"        {y} = {y} {op} {rng.randint(1, 99)}")
        else:
            body.append(f"    {c} = ({x} {op} {rng.randint(1, 99)}) {rng.choice(_OPS)} {y}")
    body.append(f"    return {c}")
    return "\n".join(body) + "\n"


def write_class(root: Path, size: int = 60, seed: int = 7) -> list[str]:
    """Write a class of ``size`` one-file Python submissions under ``root/NAME/main.py``.

    Most students write their own functions; a few groups (of 2 to 6) copy most of
    one member's functions, some renamed, so the comparison finds clusters of very
    similar pairs among many unrelated ones; the last of the first group also borrows
    three functions from the 41st student, in the middle of what it copied, so that pair
    has two passages.  Returns the names, in order.
    """
    rng = random.Random(seed)
    names = [f"student{i:03d}" for i in range(1, size + 1)]
    own = {n: [student_function(rng, f"f{j}_{rng.randint(0, 999)}") for j in range(12)]
           for n in names}
    groups, at = [], 0
    for group_size in (6, 4, 3, 3, 2, 2, 2):
        groups.append(names[at:at + group_size])
        at += group_size + rng.randint(1, 3)
    for group in groups:
        source = own[group[0]]
        for member in group[1:]:
            kept = rng.randint(7, 11)
            copied = [f.replace("total", "tot").replace("value", "val")
                      if rng.random() < 0.3 else f for f in source[:kept]]
            own[member] = copied + own[member][kept:]
    last = groups[0][-1]  # also borrows three functions of a student outside the group
    own[last] = own[last][:4] + own[names[40]][:3] + own[last][4:]
    for name in names:
        (root / name).mkdir(parents=True, exist_ok=True)
        (root / name / "main.py").write_text(f'"""Exercise 3 by {name}."""\n\n'
                                             + "\n\n".join(own[name]))
    return names


def write_copied_class(root: Path, size: int = 120, copies: int = 80, seed: int = 11) -> list[str]:
    """Write a class of ``size`` one-file submissions where ``copies`` of them are
    near-identical copies of one program: a quarter exactly identical, the others with
    one or two of its twelve functions replaced by their own.  Returns the names."""
    rng = random.Random(seed)
    names = [f"student{i:03d}" for i in range(1, size + 1)]
    own = {n: [student_function(rng, f"f{j}_{rng.randint(0, 999)}") for j in range(12)]
           for n in names}
    source = own[names[0]]
    for i, name in enumerate(names[1:copies], 1):
        if i % 4 == 0:
            own[name] = list(source)
            continue
        changed = rng.sample(range(12), rng.randint(1, 2))
        own[name] = [own[name][j] if j in changed else source[j] for j in range(12)]
    for name in names:
        (root / name).mkdir(parents=True, exist_ok=True)
        (root / name / "main.py").write_text("\n\n".join(own[name]))
    return names
