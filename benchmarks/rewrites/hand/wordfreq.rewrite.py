# ruff: noqa  (a test fixture: code written the way students write it)
"""Word frequency analysis utility."""
from __future__ import annotations

import string
import sys
from collections import Counter
from pathlib import Path

MIN_WORD_LENGTH = 3
DEFAULT_TOP = 10


def normalize_line(text: str) -> str:
    """Lower-case a line and blank out punctuation."""
    table = str.maketrans({c: " " for c in string.punctuation})
    return text.lower().translate(table)


def extract_words(file_path: str) -> list[str]:
    """Return every word of at least MIN_WORD_LENGTH characters in the file."""
    with Path(file_path).open(encoding="utf-8") as handle:
        return [token for raw in handle
                for token in normalize_line(raw).split()
                if len(token) >= MIN_WORD_LENGTH]


def most_common(frequencies: Counter[str], limit: int) -> list[tuple[str, int]]:
    """Sort by descending count, then alphabetically, and keep `limit` entries."""
    return sorted(frequencies.items(), key=lambda item: (-item[1], item[0]))[:limit]


def run(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: wordfreq.py FILE [N]")
        return 1
    limit = int(argv[2]) if len(argv) > 2 else DEFAULT_TOP
    tokens = extract_words(argv[1])
    frequencies = Counter(tokens)
    print("total words:", len(tokens), "distinct:", len(frequencies))
    for token, occurrences in most_common(frequencies, limit):
        print(token.ljust(20), occurrences)
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv))
