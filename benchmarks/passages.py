"""Repeated passages: ``winnow dedup --passages`` against an exact suffix array.

A corpus of real text installed on this machine (the Python documentation's
reStructuredText sources of Debian's ``python3.11-doc``, the Debian
``copyright`` files under ``/usr/share/doc``, the standard library's ``.py``
files), cut into records of 100-2000 words, gets planted repeats: a passage of
50-500 words (as the text front-end counts them) of one record copied into
another record (*across*) or elsewhere in the same record (*within*),
verbatim (*exact*) or with 1-3 of its words replaced (*edited*).

* winnow: ``winnow dedup corpus.jsonl --passages -o rows.jsonl`` (defaults:
  ``--min-tokens 50``), in its own process, its tree's memory sampled.
* baseline: the exact method of Lee et al. (2022): the corpus as one array of
  the same word ids (records separated by unique ids), its suffix array
  (pydivsufsort's divsufsort) and LCP array (Kasai), and every word inside
  a repeat of at least 50 words marked; its passages are the marked stretches.

A planted exact copy counts as found when the passages of its record cover
every letter and digit of it (a copy of text that already repeats in the
corpus, a licence say, can be several adjacent passages: first occurrences
and copies of other records); an edited copy when one passage covers at least
90 % of its bytes (so a copy cut into pieces by its edits is not found).  *agreement*
is the share of the bytes the baseline marks (every exact repeat of at least 50
words in the corpus, planted or not) that winnow's passages cover.

``--growth 20,60,200`` then measures winnow's time and memory on corpora of
that many MB of generated text (a word-level Markov chain trained on the same
documentation, ``benchmarks/scale_corpus.py``) with planted repeats, to show
that memory does not grow with the corpus.

Run: ``.venv/bin/pip install -e '.[bench]'`` (pydivsufsort), then
``.venv/bin/python benchmarks/passages.py --mb 20 --growth 20,60,200``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import WINNOW, Run, check, measure, uptime
from history import record
from winnow.corpus.passage_store import tokenize

I64 = npt.NDArray[np.int64]
MIN_TOKENS = 50
SOURCES = (Path("/usr/share/doc/python3.11/html/_sources"), Path("/usr/share/doc"),
           Path(sys.base_prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}")
PATTERNS = ("*.txt", "copyright", "*.py")


@dataclass(frozen=True)
class Plant:
    """A planted copy: its record, kind, scope, words and byte span (its words)."""

    record: int
    kind: str
    scope: str
    words: int
    start: int
    end: int


def real_records(limit: int, rng: random.Random) -> list[str]:
    """Records of 100-2000 words from the installed text, ``limit`` bytes in all."""
    files: list[Path] = []
    for folder, pattern in zip(SOURCES, PATTERNS, strict=True):
        files += sorted(folder.rglob(pattern))[:20000]
    rng.shuffle(files)
    records: list[str] = []
    size = 0
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        paragraphs = re.split(r"\n\s*\n", text)
        current: list[str] = []
        words = 0
        for paragraph in paragraphs:
            current.append(paragraph)
            words += len(paragraph.split())
            if words >= rng.randint(100, 2000):
                records.append("\n\n".join(current))
                size += len(records[-1])
                current, words = [], 0
        if words >= 100:
            records.append("\n\n".join(current))
            size += len(records[-1])
        if size >= limit:
            break
    return records


def markov_records(limit: int, rng: np.random.Generator) -> list[str]:
    """Generated records of 100-2000 words, ``limit`` bytes in all."""
    from scale_corpus import Chain, vocabulary

    names, ids = vocabulary()
    chain = Chain(ids, len(names))
    records: list[str] = []
    size = 0
    while size < limit:
        lengths = rng.integers(100, 2000, 256)
        block = chain.generate(rng, 256, int(lengths.max()))
        for row, n in zip(block, lengths.tolist(), strict=True):
            records.append(" ".join(names[w] for w in row[:n].tolist()))
            size += len(records[-1])
    return records


def plant(records: list[str], count: int, rng: random.Random) -> list[Plant]:
    """Plant ``count`` repeats in ``records`` (changed in place); each record is
    used by at most one plant, so the offsets stay valid."""
    order = list(range(len(records)))
    rng.shuffle(order)
    vocabulary = [w for w in records[order[0]].split() if w.isalpha()] or ["edit"]
    plants: list[Plant] = []
    free = iter(order)
    for i in range(count):
        kind, scope = ("exact", "edited")[i % 2], ("across", "within")[(i // 2) % 2]
        for donor in free:
            words = list(re.finditer(r"\S+", records[donor]))
            if len(words) < 60:
                continue
            length = rng.randint(MIN_TOKENS, 500)
            first = rng.randint(0, max(0, len(words) - length))
            last = min(len(words), first + length) - 1
            copy = records[donor][words[first].start():words[last].end()]
            if kind == "edited":
                pieces = re.split(r"(\s+)", copy)
                # words of letters only: one word each for the text front-end too
                slots = [at for at in range(4, len(pieces) - 4, 2) if pieces[at].isalpha()]
                if len(slots) < 3:
                    continue
                for at in rng.sample(slots, rng.randint(1, 3)):
                    pieces[at] = rng.choice(vocabulary) + "x"
                copy = "".join(pieces)
            tokens = tokenize(copy)
            if tokens.ids.shape[0] < MIN_TOKENS + 5:
                continue
            target = donor if scope == "within" else next(free)
            text = records[target]
            if scope == "within":
                at = words[last].end()
            else:
                spaces = [m.start() for m in re.finditer(r"\s", text)] or [len(text)]
                at = rng.choice(spaces)
            records[target] = text[:at] + " " + copy + " " + text[at:]
            offset = len(text[:at].encode()) + 1
            plants.append(Plant(target, kind, scope, int(tokens.ids.shape[0]),
                                offset + int(tokens.bstart[0]), offset + int(tokens.bend[-1])))
            break
    return plants


def baseline(corpus: Path, out: Path) -> None:
    """The suffix-array method: every word inside a repeat of >= 50 words;
    writes the marked stretches as (record, start byte, end byte)."""
    from pydivsufsort import divsufsort, kasai

    ids, bstart, bend, record_of = [], [], [], []
    with corpus.open(encoding="utf-8") as lines:
        for r, line in enumerate(lines):
            tokens = tokenize(json.loads(line)["text"])
            ids.append(tokens.ids.astype(np.int64))
            ids.append(np.array([-1 - r], dtype=np.int64))  # a separator no one shares
            bstart.append(np.append(tokens.bstart, -1))
            bend.append(np.append(tokens.bend, -1))
            record_of.append(np.full(tokens.ids.shape[0] + 1, r, dtype=np.int64))
    words = np.concatenate(ids)
    _, dense = np.unique(words, return_inverse=True)
    text = dense.astype(np.uint32)
    del words, ids, dense
    sa = divsufsort(text).astype(np.int64)
    lcp = kasai(text, sa).astype(np.int64)
    marks = np.zeros(text.shape[0] + 1, dtype=np.int64)
    long = np.flatnonzero(lcp >= MIN_TOKENS)
    for side in (sa[long], sa[long + 1]):
        np.add.at(marks, side, 1)
        np.add.at(marks, side + lcp[long], -1)
    marked = np.cumsum(marks)[:-1] > 0
    starts, ends = np.concatenate(bstart), np.concatenate(bend)
    owner = np.concatenate(record_of)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], marked.astype(np.int8), [0]])))
    lo, hi = edges[0::2], edges[1::2] - 1
    np.save(out, np.stack([owner[lo], starts[lo], ends[hi]], axis=1))


def winnow_spans(rows: Path, index: dict[str, int]) -> I64:
    spans = [(index[r["id"]], r["start"], r["end"])
             for r in map(json.loads, rows.read_text(encoding="utf-8").splitlines())]
    return np.array(spans, dtype=np.int64).reshape(-1, 3)


def recall(spans: I64, plants: list[Plant], records: list[str]) -> dict[str, float]:
    """Share of the plants of each kind found (see the module docstring)."""
    by_record: dict[int, list[tuple[int, int]]] = {}
    for r, s, e in spans.tolist():
        by_record.setdefault(r, []).append((s, e))
    found: dict[str, list[bool]] = {}
    for p in plants:
        s, e = p.start, p.end
        if p.kind == "exact":
            hit = covered(np.array([[p.record, s, e]]), spans_of(by_record, p.record),
                          records) == 1.0
        else:
            hit = max((min(e, b) - max(s, a) for a, b in by_record.get(p.record, [])),
                      default=0) >= 0.9 * (e - s)
        for key in (p.kind, f"{p.kind} {p.scope}"):
            found.setdefault(key, []).append(hit)
    return {k: sum(v) / len(v) for k, v in sorted(found.items())}


def spans_of(by_record: dict[int, list[tuple[int, int]]], record: int) -> I64:
    return np.array([(record, a, b) for a, b in by_record.get(record, [])],
                    dtype=np.int64).reshape(-1, 3)


def covered(reference: I64, spans: I64, records: list[str]) -> float:
    """Share of the letters and digits of ``reference`` spans inside ``spans``
    (the spaces and punctuation between two adjacent passages, a first
    occurrence and its copy say, are not words)."""
    total = inside = 0
    by_record: dict[int, list[tuple[int, int]]] = {}
    for r, s, e in spans.tolist():
        by_record.setdefault(r, []).append((s, e))
    for r, s, e in reference.tolist():
        data = np.frombuffer(records[r].encode("utf-8")[s:e], dtype=np.uint8)
        word = (data >= 128) | np.isin(data, np.frombuffer(ALNUM, dtype=np.uint8))
        mask = np.zeros(e - s, dtype=bool)
        for a, b in by_record.get(r, []):
            if b > s and a < e:
                mask[max(a, s) - s:min(b, e) - s] = True
        total += int(word.sum())
        inside += int((mask & word).sum())
    return inside / total if total else 1.0


ALNUM = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def write_corpus(records: list[str], path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for i, text in enumerate(records):
            out.write(json.dumps({"id": f"r{i}", "text": text}) + "\n")


def run_winnow(corpus: Path, folder: Path, jobs: int) -> tuple[Run, Path, int]:
    """winnow on ``corpus``: its measured run, its rows and the bytes its
    working folder held."""
    rows = folder / f"{corpus.stem}.rows.jsonl"
    work = folder / "work"
    result = measure([*WINNOW, "dedup", str(corpus), "--passages", "--id-field", "id",
                      "-o", str(rows), "-j", str(jobs), "--workdir", str(work)])
    check(result, "winnow")
    size = sum(p.stat().st_size for p in work.rglob("*") if p.is_file())
    shutil.rmtree(work)
    return result, rows, size


def real_part(args: argparse.Namespace, folder: Path) -> list[str]:
    """Recall, time and memory of winnow and the suffix array on real text."""
    lines: list[str] = []
    rng = random.Random(5)
    records = real_records(int(args.mb * 1e6), rng)
    plants = plant(records, args.plants, rng)
    corpus = folder / "real.jsonl"
    write_corpus(records, corpus)
    index = {f"r{i}": i for i in range(len(records))}
    size = corpus.stat().st_size
    lines.append(f"real text: {len(records):,} records, {size / 1e6:.1f} MB of JSON "
                 f"Lines, {len(plants)} planted repeats")
    won, rows, disk = run_winnow(corpus, folder, args.jobs)
    sa_out = folder / "sa.npy"
    sa = measure([sys.executable, __file__, "--baseline", str(corpus), str(sa_out)])
    check(sa, "suffix array")
    ours, theirs = winnow_spans(rows, index), np.load(sa_out)
    header = f"{'method':<14} {'s':>7} {'PSS MiB':>8} {'peaks':>7}"
    scores = {"winnow": recall(ours, plants, records),
              "suffix array": recall(theirs, plants, records)}
    keys = list(scores["winnow"])
    lines.append(header + "".join(f" {k:>16}" for k in keys) + "  agreement")
    for name, run in (("winnow", won), ("suffix array", sa)):
        agreement = (f"{covered(theirs, ours, records):.4f}" if name == "winnow"
                     else "1 (ref.)")
        lines.append(f"{name:<14} {run.wall_s:7.1f} {run.tree_pss_mib:8.0f} "
                     f"{run.tree_hwm_mib:7.0f}"
                     + "".join(f" {scores[name][k]:16.3f}" for k in keys)
                     + f"  {agreement}")
    lines.append(f"winnow's working folder: {disk / 1e6:,.0f} MB")
    print("\n".join(lines), flush=True)
    return lines


def growth_part(sizes: str, folder: Path, jobs: int) -> list[str]:
    """winnow's time, memory and recall on generated corpora of ``sizes`` MB."""
    lines: list[str] = []
    for mb in [float(x) for x in sizes.split(",") if x]:
        generated = markov_records(int(mb * 1e6), np.random.default_rng(int(mb)))
        planted = plant(generated, max(50, int(mb * 10)), random.Random(int(mb)))
        path = folder / f"gen{mb:g}.jsonl"
        write_corpus(generated, path)
        started = time.perf_counter()
        run, rows, disk = run_winnow(path, folder, jobs)
        found = recall(winnow_spans(rows, {f"r{i}": i for i in range(len(generated))}),
                       planted, generated)
        del generated
        line = (f"generated {path.stat().st_size / 1e6:7.1f} MB: winnow "
                f"{run.wall_s:6.1f} s, {path.stat().st_size / 1e6 / run.wall_s:5.2f} MB/s, "
                f"PSS {run.tree_pss_mib:5.0f} MiB, peaks {run.tree_hwm_mib:5.0f} MiB; "
                f"recall exact {found['exact']:.3f}, edited {found['edited']:.3f}, "
                f"working folder {disk / 1e6:,.0f} MB "
                f"({len(planted)} plants; {time.perf_counter() - started:.0f} s)")
        print(line, flush=True)
        lines.append(line)
        rows.unlink()
        path.unlink()
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=20, help="MB of real text (0: none)")
    parser.add_argument("--plants", type=int, default=400)
    parser.add_argument("--growth", default="", help="MB of generated text, e.g. 20,60,200")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--baseline", nargs=2, metavar=("CORPUS", "OUT"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline:
        baseline(Path(args.baseline[0]), Path(args.baseline[1]))
        return
    lines = [f"load before: {uptime()}; jobs {args.jobs}; shared 2-core machine"]
    with tempfile.TemporaryDirectory(prefix="winnow-passages-bench-") as tmp:
        folder = Path(tmp)
        if args.mb > 0:
            lines += real_part(args, folder)
        lines += growth_part(args.growth, folder, args.jobs)
    lines.append(f"load after: {uptime()}")
    record("passages", f"passages --mb {args.mb:g} --growth {args.growth or '-'}",
           "```\n" + "\n".join(lines) + "\n```")


if __name__ == "__main__":
    main()
