"""Assignment 3: text statistics.

Complete the functions marked TODO.  Do not change load_text or main.
Run as:  python textstats.py FILE
"""

import sys

VOWEL_CHARS = "aeiouy"


def load_text(path):
    """Return the contents of the file at path as one string."""
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def tokenize(text):
    tokens = []
    buf = ""
    for ch in text.lower():
        if ch.isalpha() or ch == "'":
            buf += ch
        elif buf:
            tokens.append(buf)
            buf = ""
    if buf:
        tokens.append(buf)
    return tokens


def sentence_total(text):
    n = 0
    for ch in text:
        if ch in ".!?":
            n += 1
    return max(n, 1)


def syllables_in(word):
    count = 0
    last_vowel = False
    for ch in word:
        vowel_now = ch in VOWEL_CHARS
        if vowel_now and not last_vowel:
            count += 1
        last_vowel = vowel_now
    if word.endswith("e") and count > 1:
        count -= 1
    return max(count, 1)


def frequency_table(tokens):
    freq = {}
    for word in tokens:
        freq[word] = freq.get(word, 0) + 1
    ordered = sorted(freq.items(), key=lambda item: (-item[1], item[0]))
    return ordered


def readability_index(tokens, n_sent):
    syl = sum(syllables_in(word) for word in tokens)
    wps = len(tokens) / n_sent
    spw = syl / max(len(tokens), 1)
    return round(206.835 - 1.015 * wps - 84.6 * spw, 1)


def make_summary(text):
    tokens = tokenize(text)
    n_sent = sentence_total(text)
    ordered = frequency_table(tokens)
    report = {
        "tokens": len(tokens),
        "distinct tokens": len(ordered),
        "n_sent": n_sent,
        "average length": round(sum(len(w) for w in tokens) / max(len(tokens), 1), 2),
        "readability": readability_index(tokens, n_sent),
    }
    for idx, (word, count) in enumerate(ordered[:3], start=1):
        report[f"top word {idx}"] = f"{word} ({count})"
    return report


def main(argv):
    if len(argv) != 2:
        print("usage: python textstats.py FILE")
        return 2
    text = load_text(argv[1])
    report = make_summary(text)
    for key, value in report.items():
        print(f"{key:>20}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
