"""``winnow contamination`` against the exact 13-gram rule, on items planted in real text.

    .venv/bin/python benchmarks/contamination.py [--items 2000] [--jobs 2]
        [--workdir DIR] [--sweep] [--record]

1. The corpus: the prose installed on this machine (``*.rst``, ``*.md``,
   ``*.txt`` files of at least 2 kB under ``/usr/share``, ``/usr/lib`` and
   this interpreter's ``site-packages``: CMake's, git's, the AWS CLI's and
   many packages' documentation and licences), files with the same content
   read once, cut at blank lines into paragraphs and grouped into JSON Lines
   records of about 2 kB.  One file in eight (by a hash of its path) is held
   out: the evaluation items come from its paragraphs.
2. The items: a stem of 13-60 words from a held-out paragraph; half of them
   multiple-choice (four options of 2-6 words from other held-out text, one
   per line, ``A.``-``D.``).  Each item is one of these kinds:
   ``verbatim`` (planted as it is), ``number`` (a number of the item changed,
   stems with a number only), ``options`` (the four options' texts reordered,
   multiple-choice items only), ``punctuation`` (commas, periods, colons,
   semicolons, quotes, hyphens and apostrophes changed, added or dropped),
   ``words`` (two words replaced), all planted once, between two paragraphs of
   a random corpus record; and ``control`` (not planted).
3. Recall at the planted record: winnow finds an item there when one of its
   locations is that record and its byte offsets slice at least 13 words of
   it (every location is kept); the 13-gram rule (implemented here as
   lm-evaluation-harness's janitor normalises: lower-case, ASCII punctuation
   deleted, split at whitespace) when the item shares a 13-gram with that
   record.  Also winnow's mean coverage per kind, and the share of items
   flagged anywhere in the corpus by each (``anywhere``: for the controls,
   the held-out text's true overlap with the corpus, or false alarms).
4. Throughput: :func:`winnow.corpus.contamination.scan` on ``--jobs``
   workers, wall time from reading the items to the rows, MB of corpus text
   per second (after one warm-up run that compiles the kernels), and MB per
   CPU second of the process and its workers (less sensitive to other work
   on a shared machine than the wall time).

``--sweep`` runs winnow at several ``k``, ``t``, ``gap`` too (the defaults
were chosen from it); ``--record`` inserts the printed block at the top of
``benchmarks/contamination.results.md``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import resource
import string
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from harness import uptime
from history import commit, record, stamp

ROOTS = [Path("/usr/share"), Path("/usr/lib"),
         Path(sys.prefix if sys.prefix == sys.base_prefix else sys.base_prefix) / "lib"]
SUFFIXES = (".rst", ".md", ".txt")
RECORD_BYTES = 2000
KINDS = ("verbatim", "number", "options", "punctuation", "words", "control")
NGRAM = 13
#: Locations kept per item: all of them, so that the planted record is among them.
LOCATIONS = 100_000
NUMBER = re.compile(r"\b\d+\b")


# --- the corpus and the items ------------------------------------------------

def sources() -> list[Path]:
    found = []
    for root in ROOTS:
        for path in root.rglob("*"):
            if path.suffix in SUFFIXES and path.is_file() and not path.is_symlink():
                try:
                    if path.stat().st_size >= 2000:
                        found.append(path)
                except OSError:
                    continue
    return sorted(set(found))


def paragraphs(path: Path) -> list[str]:
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]


def held_out(path: Path) -> bool:
    return hashlib.sha1(str(path).encode()).digest()[0] % 8 == 0


def build_corpus(folder: Path) -> tuple[list[str], list[str]]:
    """Records written to ``folder/corpus.jsonl`` (returned too) and the held-out paragraphs."""
    seen: set[bytes] = set()
    records: list[str] = []
    pool: list[str] = []
    for path in sources():
        paras = paragraphs(path)
        digest = hashlib.sha1("\n".join(paras).encode()).digest()
        if not paras or digest in seen:
            continue
        seen.add(digest)
        if held_out(path):
            pool += paras
            continue
        current: list[str] = []
        for para in paras:
            current.append(para)
            if sum(len(p) for p in current) >= RECORD_BYTES:
                records.append("\n\n".join(current))
                current = []
        if current:
            records.append("\n\n".join(current))
    return records, pool


def stems(pool: list[str], rng: random.Random) -> list[str]:
    """Stems of 13-60 words from the held-out paragraphs (no two alike)."""
    out, seen = [], set()
    for para in pool:
        words = para.split()
        if len(words) < 13:
            continue
        n = min(len(words), rng.randint(13, 60))
        start = rng.randint(0, len(words) - n)
        stem = " ".join(words[start:start + n])
        if len(ngrams(stem)) and stem not in seen:  # 13 words after normalising
            seen.add(stem)
            out.append(stem)
    rng.shuffle(out)
    return out


def make_items(pool: list[str], count: int, rng: random.Random) -> list[dict[str, object]]:
    """Items with their kind and, for multiple-choice ones, their options."""
    candidates = stems(pool, rng)
    phrases = [p.split() for p in pool if len(p.split()) >= 6]
    items: list[dict[str, object]] = []
    per_kind = count // len(KINDS)
    numbered = [s for s in candidates if NUMBER.search(s)]
    plain = [s for s in candidates if not NUMBER.search(s)]
    for kind in KINDS:
        source = numbered if kind == "number" else plain if len(plain) > per_kind else numbered
        for _ in range(per_kind):
            stem = source.pop()
            options: list[str] = []
            if kind == "options" or (kind != "number" and rng.random() < 0.5):
                for _ in range(4):
                    words = rng.choice(phrases)
                    n = rng.randint(2, 6)
                    at = rng.randint(0, len(words) - n)
                    options.append(" ".join(words[at:at + n]))
            items.append({"id": f"{kind}-{len(items)}", "kind": kind, "stem": stem,
                          "options": options})
    return items


def render(stem: str, options: list[str]) -> str:
    return stem + "".join(f"\n{label}. {text}" for label, text in zip("ABCD", options,
                                                                      strict=False))


def edited(item: dict[str, object], rng: random.Random) -> str:
    """The text planted for an item of its kind."""
    stem, options = str(item["stem"]), list(item["options"])  # type: ignore[call-overload]
    kind = item["kind"]
    if kind == "number":
        numbers = list(NUMBER.finditer(stem))
        m = rng.choice(numbers)
        value = str(int(m.group()) + rng.randint(1, 9))
        stem = stem[:m.start()] + value + stem[m.end():]
    elif kind == "options":
        order = options[:]
        while order == options:
            rng.shuffle(order)
        options = order
    elif kind == "punctuation":
        stem = punctuate(stem, rng)
    elif kind == "words":
        words = stem.split()
        for at in rng.sample(range(len(words)), 2):
            words[at] = rng.choice(["however", "system", "value", "between", "later"])
        stem = " ".join(words)
    return render(stem, options)


def punctuate(text: str, rng: random.Random) -> str:
    """Change punctuation: swap or drop marks, split hyphenated words, drop
    apostrophes, add commas (a few changes per item)."""
    swaps = {",": ";", ";": ",", ":": " -", ".": ";", '"': "'", "'": "", "-": " ", "(": ",",
             ")": ","}
    out = []
    for ch in text:
        if ch in swaps and rng.random() < 0.7:
            out.append(swaps[ch])
        elif ch == " " and rng.random() < 0.08:
            out.append(", ")
        else:
            out.append(ch)
    return "".join(out)


def plant(records: list[str], items: list[dict[str, object]],
          rng: random.Random) -> dict[str, int]:
    """Each planted item inserted between two paragraphs of a random record;
    returns item id -> record index."""
    where: dict[str, int] = {}
    for item in items:
        if item["kind"] == "control":
            continue
        target = rng.randrange(len(records))
        paras = records[target].split("\n\n")
        at = rng.randint(0, len(paras))
        paras.insert(at, edited(item, rng))
        records[target] = "\n\n".join(paras)
        where[str(item["id"])] = target
    return where


# --- the 13-gram rule ---------------------------------------------------------

DELETE = str.maketrans(string.ascii_uppercase, string.ascii_lowercase, string.punctuation)


def ngrams(text: str) -> set[tuple[str, ...]]:
    words = text.translate(DELETE).split()
    return {tuple(words[i:i + NGRAM]) for i in range(len(words) - NGRAM + 1)}


def thirteen_gram(items: list[dict[str, object]],
                  texts: list[str]) -> tuple[set[tuple[str, int]], float]:
    """``(item, record)`` pairs that share a 13-gram, and the seconds it took."""
    started = time.perf_counter()
    owners: dict[tuple[str, ...], list[str]] = {}
    for item in items:
        text = render(str(item["stem"]), list(item["options"]))  # type: ignore[call-overload]
        for gram in ngrams(text):
            owners.setdefault(gram, []).append(str(item["id"]))
    flagged: set[tuple[str, int]] = set()
    for n, text in enumerate(texts):
        words = text.translate(DELETE).split()
        for i in range(len(words) - NGRAM + 1):
            found = owners.get(tuple(words[i:i + NGRAM]))
            if found:
                flagged.update((name, n) for name in found)
    return flagged, time.perf_counter() - started


# --- winnow -------------------------------------------------------------------

def run_winnow(folder: Path, jobs: int,
               **params: int) -> tuple[dict[str, Any], float, float, int]:
    from winnow.corpus.contamination import ContaminationSettings, scan
    from winnow.corpus.readers import Fields

    settings = ContaminationSettings(Fields("text", "id"), Fields("text", "id"), jobs=jobs,
                                     locations=LOCATIONS, **params)
    started, cpu = time.perf_counter(), cpu_seconds()
    run = scan([str(folder / "eval.jsonl")], [str(folder / "corpus.jsonl")], settings)
    seconds = time.perf_counter() - started
    return ({row.id: row for row in run.rows}, seconds, cpu_seconds() - cpu,
            run.text_bytes)


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def score(items: list[dict[str, object]], where: dict[str, int], rows: dict[str, Any],
          flagged13: set[tuple[str, int]], texts: list[str]) -> list[str]:
    """Per kind: recall at the planted record (winnow, the 13-gram rule),
    winnow's mean coverage, and the share of items flagged anywhere."""
    lines = [f"{'kind':<12} {'items':>5} {'winnow':>7} {'13-gram':>8} {'coverage':>9} "
             f"{'anywhere':>9} {'13 anywhere':>12}"]
    anywhere13 = {name for name, _ in flagged13}
    for kind in KINDS:
        chosen = [str(item["id"]) for item in items if item["kind"] == kind]
        found = [rows[name] for name in chosen]
        if kind == "control":
            winnow = thirteen = 0.0
        else:
            winnow = sum(planted_found(rows[name], where[name], texts)
                         for name in chosen) / len(chosen)
            thirteen = sum((name, where[name]) in flagged13 for name in chosen) / len(chosen)
        mean = sum(r.coverage for r in found) / len(found)
        anywhere = sum(1 for r in found if r.coverage > 0) / len(found)
        lines.append(f"{kind:<12} {len(chosen):>5} {winnow:>7.3f} {thirteen:>8.3f} "
                     f"{mean:>9.3f} {anywhere:>9.3f} "
                     f"{sum(n in anywhere13 for n in chosen) / len(chosen):>12.3f}")
    return lines


def planted_found(row: Any, target: int, texts: list[str]) -> bool:
    """Whether the item has a location in the record it was planted in, whose
    byte offsets slice that record's text to at least 13 words."""
    raw = texts[target].encode("utf-8")
    return any(place.id == f"r{target}"
               and len(raw[place.start:place.end].decode("utf-8").split()) >= NGRAM
               for place in row.locations)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=2400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/winnow-contamination"))
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    args.workdir.mkdir(parents=True, exist_ok=True)
    records, pool = build_corpus(args.workdir)
    items = make_items(pool, args.items, rng)
    where = plant(records, items, rng)
    with open(args.workdir / "corpus.jsonl", "w", encoding="utf-8") as out:
        for n, text in enumerate(records):
            out.write(json.dumps({"id": f"r{n}", "text": text}, ensure_ascii=False) + "\n")
    with open(args.workdir / "eval.jsonl", "w", encoding="utf-8") as out:
        for item in items:
            text = render(str(item["stem"]), list(item["options"]))  # type: ignore[call-overload]
            out.write(json.dumps({"id": item["id"], "text": text}, ensure_ascii=False) + "\n")
    size = (args.workdir / "corpus.jsonl").stat().st_size
    lines = [f"{len(records):,} records, {size / 1e6:.1f} MB of JSON Lines; "
             f"{len(items):,} items ({Counter(i['kind'] for i in items)['control']} controls); "
             f"jobs {args.jobs}; {uptime()}"]
    cpu = cpu_seconds()
    flagged13, seconds13 = thirteen_gram(items, records)
    lines.append(f"13-gram rule (pure Python, one process): {seconds13:.1f} s, "
                 f"{cpu_seconds() - cpu:.1f} CPU s")
    run_winnow(args.workdir, 1)  # compiles the kernels
    settings = [{}]
    if args.sweep:
        settings += [{"k": 4, "t": 13}, {"k": 8, "t": 13}, {"k": 5, "t": 9}, {"gap": 0},
                     {"gap": 5}, {"k": 13, "t": 13, "gap": 0}]
    for params in settings:
        rows, seconds, cpu, text_bytes = run_winnow(args.workdir, args.jobs, **params)
        label = ", ".join(f"{k}={v}" for k, v in params.items()) or "defaults"
        mb = text_bytes / 1e6
        lines.append("")
        lines.append(f"winnow ({label}): {seconds:.1f} s, {mb / seconds:.1f} MB/s of corpus "
                     f"text ({mb:.1f} MB); {cpu:.1f} CPU s, {mb / cpu:.1f} MB per CPU s")
        lines += score(items, where, rows, flagged13, records)
    block = "\n".join(lines)
    print(block)
    if args.record:
        body = (f"`.venv/bin/python benchmarks/contamination.py {' '.join(sys.argv[1:])}` "
                f"at {commit()}, {stamp()}; the machine was shared with other work.\n\n"
                f"```\n{block}\n```")
        record("contamination", stamp(), body)


if __name__ == "__main__":
    main()
