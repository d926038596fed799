"""The corpus of ``benchmarks/scale.py``: records with planted near-duplicates and
containments whose ground truth is known.

Text: a word-level Markov chain (order 1) trained on real English prose (its
words seen at least :data:`MIN_COUNT` times), the
reStructuredText sources of the Python documentation that Debian's
``python3.11-doc`` package installs (``/usr/share/doc/python3.11/html/_sources``;
``apt-get install python3.11-doc``).  Real vocabulary, word frequencies and
word pairs, yet no two generated records share more than what the chain
repeats by chance, so the planted pairs are the only true duplicates.

Records (fractions of ``n``):

* about 10 % are *copies*: a base record and one to three copies, each with
  word edits (a substitution, deletion or insertion per edited word) at one
  rate of :data:`EDIT_RATES` (0: exact copies);
* about 5 % are *containment* pairs: a short record (25-60 words) that also
  appears, verbatim, inside a longer host record;
* the rest are unrelated records of 40-160 words.

Records are shuffled and written as JSON Lines files ``part-NN.jsonl``
(``{"id": "rN", "text": ...}``), with ``truth.npz``: per record (in file
order) its ``group`` (-1: none), ``kind`` (see :data:`KINDS`) and ``rate``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import numpy.typing as npt

SOURCES = Path("/usr/share/doc/python3.11/html/_sources")
EDIT_RATES = (0.0, 0.01, 0.03, 0.05, 0.10)
KINDS = {"unique": 0, "base": 1, "copy": 2, "contained": 3, "host": 4}
I32 = npt.NDArray[np.int32]
#: Words seen fewer times than this in the training text are left out of it.
MIN_COUNT = 20
WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[.,;:]?")


def vocabulary(limit_bytes: int = 12 << 20) -> tuple[list[str], I32]:
    """The words of the training text and the text as word ids."""
    if not SOURCES.is_dir():
        raise SystemExit(f"{SOURCES} is missing: apt-get install python3.11-doc")
    words: list[str] = []
    read = 0
    for path in sorted(SOURCES.rglob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        text = re.sub(r"^\s*(\.\. |:|>>>|\$ ).*$", " ", text, flags=re.MULTILINE)
        words += WORD.findall(text)
        read += len(text)
        if read > limit_bytes:
            break
    names, ids, counts = np.unique(np.array(words), return_inverse=True, return_counts=True)
    # rare words (lists of names, identifiers) would make the chain repeat
    # long runs of the source verbatim: unplanted duplicates
    common = counts >= MIN_COUNT
    renumber = np.cumsum(common) - 1
    kept = ids.reshape(-1)[common[ids.reshape(-1)]]
    return names[common].tolist(), renumber[kept].astype(np.int32)


class Chain:
    """Word-level Markov chain: the successors of each word, as in the text."""

    def __init__(self, ids: I32, n_words: int) -> None:
        order = np.argsort(ids[:-1], kind="stable")
        self.successors = ids[1:][order]
        self.start = np.searchsorted(ids[:-1][order], np.arange(n_words + 1)).astype(np.int64)
        self.ids = ids

    def generate(self, rng: np.random.Generator, count: int, length: int) -> I32:
        """``count`` chains of ``length`` words (rows)."""
        out = np.empty((count, length), dtype=np.int32)
        current = self.ids[rng.integers(0, self.ids.shape[0] - 1, count)]
        for step in range(length):
            out[:, step] = current
            lo, hi = self.start[current], self.start[current + 1]
            dead = hi <= lo
            pick = lo + (rng.random(count) * np.maximum(hi - lo, 1)).astype(np.int64)
            nxt = self.successors[np.minimum(pick, self.successors.shape[0] - 1)]
            restart = self.ids[rng.integers(0, self.ids.shape[0] - 1, count)]
            current = np.where(dead, restart, nxt)
        return out


def edited(words: I32, rate: float, rng: np.random.Generator, n_words: int) -> I32:
    """``words`` with each word edited with probability ``rate``."""
    if rate == 0:
        return words.copy()
    hit = rng.random(words.shape[0]) < rate
    op = rng.integers(0, 3, words.shape[0])  # 0 substitute, 1 delete, 2 insert
    out = words.copy()
    out[hit & (op == 0)] = rng.integers(0, n_words, int(np.count_nonzero(hit & (op == 0))))
    keep = ~(hit & (op == 1))
    inserted = np.flatnonzero(hit & (op == 2))
    result = np.insert(out, inserted, rng.integers(0, n_words, inserted.shape[0]))
    keep_full = np.insert(keep, inserted, True)
    return result[keep_full].astype(np.int32)


def build(n: int, out: Path, *, seed: int = 12, files: int = 8) -> dict[str, int]:
    """Write the corpus of ``n`` records into ``out``; counts of each kind."""
    rng = np.random.default_rng(seed)
    names, ids = vocabulary()
    chain = Chain(ids, len(names))
    vocab = np.array(names, dtype=object)
    records: list[I32] = []
    group: list[int] = []
    kind: list[int] = []
    rate: list[float] = []
    n_groups = 0

    def add(words: I32, g: int, k: str, r: float = -1.0) -> None:
        records.append(words)
        group.append(g)
        kind.append(KINDS[k])
        rate.append(r)

    def bodies(count: int, low: int, high: int) -> list[I32]:
        rows = chain.generate(rng, count, high)
        lengths = rng.integers(low, high + 1, count)
        return [row[:length] for row, length in zip(rows, lengths, strict=True)]

    copies_target, contain_target = n // 10, n // 20
    while len(records) < copies_target:
        for base in bodies(1000, 40, 160):
            if len(records) >= copies_target:
                break
            add(base, n_groups, "base")
            for _ in range(int(rng.integers(1, 4))):
                r = float(EDIT_RATES[int(rng.integers(0, len(EDIT_RATES)))])
                add(edited(base, r, rng, len(names)), n_groups, "copy", r)
            n_groups += 1
    pairs = contain_target // 2
    shorts, hosts = bodies(pairs, 25, 60), bodies(pairs, 40, 160)
    for short, host in zip(shorts, hosts, strict=True):
        at = int(rng.integers(0, host.shape[0] + 1))
        add(short, n_groups, "contained")
        add(np.concatenate([host[:at], short, host[at:]]).astype(np.int32), n_groups, "host")
        n_groups += 1
    rest = n - len(records)
    for start in range(0, rest, 50_000):
        for body in bodies(min(50_000, rest - start), 40, 160):
            add(body, -1, "unique")
    order = rng.permutation(len(records))
    out.mkdir(parents=True, exist_ok=True)
    per_file = -(-len(records) // files)
    for f in range(files):
        part = order[f * per_file:(f + 1) * per_file]
        with (out / f"part-{f:02d}.jsonl").open("w", encoding="utf-8") as handle:
            for i in part.tolist():
                text = " ".join(vocab[records[i]].tolist())
                handle.write(json.dumps({"id": f"r{i}", "text": text}) + "\n")
    np.savez(out / "truth.npz", group=np.array(group)[order], kind=np.array(kind)[order],
             rate=np.array(rate)[order])
    counts = {k: int(np.count_nonzero(np.array(kind) == v)) for k, v in KINDS.items()}
    return counts


__all__ = ["EDIT_RATES", "KINDS", "build"]
