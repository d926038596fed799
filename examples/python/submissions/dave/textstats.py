"""Assignment 3: text statistics.

Complete the functions marked TODO.  Do not change load_text or main.
Run as:  python textstats.py FILE
"""

import sys

# Letters that count as vowels when we estimate syllables.
VOWELS = "aeiouy"


def load_text(path):
    """Return the contents of the file at path as one string."""
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def split_words(text):
    # Walk through the text one character at a time and collect words.
    words = []
    current = ""
    for ch in text.lower():
        # apostrophes stay inside words like "don't"
        if ch.isalpha() or ch == "'":
            current += ch
        elif current:
            words.append(current)  # a word just ended
            current = ""
    if current:
        words.append(current)
    return words


def count_sentences(text):
    # Every ., ! or ? ends a sentence.
    total = 0
    for ch in text:
        if ch in ".!?":
            total += 1
    return max(total, 1)  # never divide by zero later


def count_syllables(word):
    """Estimate the number of syllables in one word."""
    count = 0
    previous_was_vowel = False
    for ch in word:
        is_vowel = ch in VOWELS
        # a new group of vowels starts a new syllable
        if is_vowel and not previous_was_vowel:
            count += 1
        previous_was_vowel = is_vowel
    # a final silent e does not count
    if word.endswith("e") and count > 1:
        count -= 1
    return max(count, 1)


def word_frequencies(words):
    """Count each word and sort by count, most frequent first."""
    table = {}
    for word in words:
        table[word] = table.get(word, 0) + 1
    ranked = sorted(table.items(), key=lambda item: (-item[1], item[0]))
    return ranked


def flesch_score(words, sentences):
    # Flesch reading ease, see https://en.wikipedia.org/wiki/Flesch_reading_ease
    syllables = sum(count_syllables(word) for word in words)
    per_sentence = len(words) / sentences
    per_word = syllables / max(len(words), 1)
    return round(206.835 - 1.015 * per_sentence - 84.6 * per_word, 1)


def build_report(text):
    """Compute every statistic and return them in a dictionary."""
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
    # show the three most common words
    for position, (word, count) in enumerate(ranked[:3], start=1):
        report[f"top word {position}"] = f"{word} ({count})"
    return report


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
