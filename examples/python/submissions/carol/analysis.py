"""Helpers for the text statistics assignment."""

VOWELS = "aeiouy"


def flesch_score(words, sentences):
    syllables = sum(count_syllables(word) for word in words)
    per_sentence = len(words) / sentences
    per_word = syllables / max(len(words), 1)
    return round(206.835 - 1.015 * per_sentence - 84.6 * per_word, 1)


def word_frequencies(words):
    table = {}
    for word in words:
        table[word] = table.get(word, 0) + 1
    ranked = sorted(table.items(), key=lambda item: (-item[1], item[0]))
    return ranked


def count_syllables(word):
    count = 0
    previous_was_vowel = False
    for ch in word:
        is_vowel = ch in VOWELS
        if is_vowel and not previous_was_vowel:
            count += 1
        previous_was_vowel = is_vowel
    if word.endswith("e") and count > 1:
        count -= 1
    return max(count, 1)


def split_words(text):
    words = []
    current = ""
    for ch in text.lower():
        if ch.isalpha() or ch == "'":
            current += ch
        elif current:
            words.append(current)
            current = ""
    if current:
        words.append(current)
    return words


def count_sentences(text):
    total = 0
    for ch in text:
        if ch in ".!?":
            total += 1
    return max(total, 1)
