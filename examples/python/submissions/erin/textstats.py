"""Assignment 3: text statistics.

Complete the functions marked TODO.  Do not change load_text or main.
Run as:  python textstats.py FILE
"""

import re
import sys
from collections import Counter

WORD = re.compile(r"[a-z']+")
SENTENCE_END = re.compile(r"[.!?]+")
VOWEL_GROUP = re.compile(r"[aeiouy]+")


def load_text(path):
    """Return the contents of the file at path as one string."""
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def syllables(word):
    groups = VOWEL_GROUP.findall(word)
    n = len(groups)
    if n > 1 and word[-1] == "e":
        n = n - 1
    return n or 1


def build_report(text):
    words = WORD.findall(text.lower())
    n_words = len(words) or 1
    n_sentences = len(SENTENCE_END.findall(text)) or 1
    counts = Counter(words)
    total_syllables = sum(map(syllables, words))
    ease = 206.835 - 1.015 * (n_words / n_sentences) - 84.6 * (total_syllables / n_words)
    stats = dict(
        words=len(words),
        distinct=len(counts),
        sentences=n_sentences,
        mean_length=round(sum(map(len, words)) / n_words, 2),
        readability=round(ease, 1),
    )
    best = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    for i, (w, c) in enumerate(best):
        stats["top" + str(i + 1)] = "%s (%d)" % (w, c)
    return stats


def main(argv):
    if len(argv) != 2:
        print("usage: python textstats.py FILE")
        return 2
    text = load_text(argv[1])
    report = build_report(text)
    for key, value in report.items():
        print(f"{key:>20}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
