"""Assignment 3: text statistics.

Complete the functions marked TODO.  Do not change load_text or main.
Run as:  python textstats.py FILE
"""

import sys

from analysis import count_sentences, flesch_score, split_words, word_frequencies


def build_report(text):
    words = split_words(text)
    sentences = count_sentences(text)
    ranked = word_frequencies(words)
    report = {
        "words": len(words),
        "distinct words": len(ranked),
        "sentences": sentences,
        "average length": round(sum(len(w) for w in words) / max(len(words), 1), 2),
        "readability": flesch_score(words, sentences),
    }
    for position, (word, count) in enumerate(ranked[:3], start=1):
        report[f"top word {position}"] = f"{word} ({count})"
    return report


def load_text(path):
    """Return the contents of the file at path as one string."""
    with open(path, encoding="utf-8") as handle:
        return handle.read()


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
