# ruff: noqa  (a test fixture: code written the way students write it)
"""Compute each student's average and letter grade from a CSV gradebook."""
import csv
import sys
from statistics import fmean

THRESHOLDS = [(90, "A"), (80, "B"), (70, "C"), (60, "D")]


def parse_gradebook(csv_path):
    """Yield (student, list of scores), skipping the header and empty cells."""
    with open(csv_path, newline="") as source:
        entries = csv.reader(source)
        next(entries)  # header
        return [
            (record[0].strip(), [float(cell) for cell in record[1:] if cell.strip()])
            for record in entries
        ]


def mean_score(values):
    return fmean(values) if values else 0.0


def to_letter(mean):
    for cutoff, grade in THRESHOLDS:
        if mean >= cutoff:
            return grade
    return "F"


def print_summary(students):
    top_student = None
    for student, values in students:
        mean = mean_score(values)
        print(f"{student:<15} {mean:6.2f} {to_letter(mean)}")
        if top_student is None or mean > top_student[1]:
            top_student = (student, mean)
    if top_student:
        print(f"best student: {top_student[0]} ({top_student[1]:.2f})")


if __name__ == "__main__":
    print_summary(parse_gradebook(sys.argv[1]))
