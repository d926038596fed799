"""Small Python batches for the server tests: who copied from whom is known."""

from __future__ import annotations

import random
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "winnow"

#: Starter code every student received (given as the base file).
STARTER = (SRC / "serve" / "languages.py").read_text(encoding="utf-8")
#: Two unrelated solutions.
SOLUTION_A = (SRC / "fileio.py").read_text(encoding="utf-8")
SOLUTION_C = (SRC / "config.py").read_text(encoding="utf-8")


def batch() -> dict[str, bytes]:
    """Directory-mode batch: alice and bob share a solution; carol wrote her own;
    dave handed in the starter code alone (so he matches nobody once it is base)."""
    files = {
        "alice/main.py": STARTER + SOLUTION_A,
        "bob/main.py": STARTER + SOLUTION_A.replace("def ", "def  "),
        "bob/notes.py": "print('hello')\n",
        "carol/main.py": STARTER + SOLUTION_C,
        "dave/main.py": STARTER,  # nothing of his own: no k-gram joins starter and own code
    }
    return {name: text.encode() for name, text in files.items()}


def random_program(rng: random.Random, lines: int = 60) -> bytes:
    """A syntactically plausible Python file with random names and numbers."""
    words = ["alpha", "beta", "gamma", "delta", "total", "count", "value", "item", "node"]
    out = []
    for i in range(lines):
        name = f"{rng.choice(words)}_{rng.randrange(10**6)}"
        kind = rng.randrange(3)
        if kind == 0:
            out.append(f"def f{i}_{rng.randrange(10**6)}({name}):\n"
                       f"    return {name} * {rng.randrange(999)} + {rng.randrange(999)}\n")
        elif kind == 1:
            out.append(f"for {name} in range({rng.randrange(99)}):\n"
                       f"    print({name}, {rng.randrange(10**6)})\n")
        else:
            out.append(f"{name} = [{', '.join(str(rng.randrange(999)) for _ in range(6))}]\n")
    return "".join(out).encode()
