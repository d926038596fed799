# ruff: noqa  (a test fixture: code written the way students write it)
import csv
import sys


def load(path):
    rows = []
    with open(path, newline="") as f:
        reader = csv.reader(f)
        next(reader)
        for row in reader:
            name = row[0].strip()
            scores = []
            for x in row[1:]:
                if x.strip() != "":
                    scores.append(float(x))
            rows.append((name, scores))
    return rows


def average(scores):
    if len(scores) == 0:
        return 0.0
    total = 0.0
    for s in scores:
        total += s
    return total / len(scores)


def letter(avg):
    if avg >= 90:
        return "A"
    elif avg >= 80:
        return "B"
    elif avg >= 70:
        return "C"
    elif avg >= 60:
        return "D"
    else:
        return "F"


def report(rows):
    best = None
    for name, scores in rows:
        avg = average(scores)
        print("%-15s %6.2f %s" % (name, avg, letter(avg)))
        if best is None or avg > best[1]:
            best = (name, avg)
    if best is not None:
        print("best student: %s (%.2f)" % best)


report(load(sys.argv[1]))
