# ruff: noqa  (a test fixture: code written the way students write it)
import sys
import string


def read_words(path):
    words = []
    f = open(path, encoding="utf-8")
    for line in f:
        line = line.lower()
        for ch in string.punctuation:
            line = line.replace(ch, " ")
        for w in line.split():
            if len(w) > 2:
                words.append(w)
    f.close()
    return words


def count(words):
    counts = {}
    for w in words:
        if w in counts:
            counts[w] = counts[w] + 1
        else:
            counts[w] = 1
    return counts


def top(counts, n):
    items = list(counts.items())
    items.sort(key=lambda kv: (-kv[1], kv[0]))
    return items[:n]


def main():
    if len(sys.argv) < 2:
        print("usage: wordfreq.py FILE [N]")
        sys.exit(1)
    n = 10
    if len(sys.argv) > 2:
        n = int(sys.argv[2])
    words = read_words(sys.argv[1])
    counts = count(words)
    print("total words:", len(words), "distinct:", len(counts))
    for word, c in top(counts, n):
        print(word.ljust(20), c)


main()
