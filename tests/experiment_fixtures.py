"""Tiny inputs for the experiments' tests: an HTML corpus and labelled sets."""

from __future__ import annotations

import random
from pathlib import Path

WORDS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "iota", "kappa",
         "lambda", "omicron", "sigma", "tau", "upsilon", "omega", "river", "stone", "cloud",
         "maple", "cedar", "north", "south", "amber", "violet")
#: On every page, longer than t = 149 characters without whitespace; the entity
#: decodes to a tag-like string that the report must escape.
NAV = ("Navigation index | modules | next | previous | Winnow Documentation &lt;script&gt; "
       "The Python Software Foundation is a non-profit corporation. Please donate. "
       "Last updated on a day of the year. Found a bug? Created using a generator.")


def words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def html_corpus(root: Path, pages: int = 6, seed: int = 1) -> Path:
    """``pages`` pages of random words sharing a navigation bar; page 0 holds
    two long low-entropy runs (where 0 mod p selects nothing)."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    for i in range(pages):
        body = words(rng, 300)
        if i == 0:
            body += " " + "=" * 3000 + " " + "-" * 3000 + " " + words(rng, 50)
        (root / f"page{i}.html").write_text(
            f"<html><head><style>p {{ x: 1 }}</style></head><body><div>{NAV}</div>"
            f"<p>{body}</p><script>var x = 1;</script></body></html>", encoding="utf-8")
    return root


C_PROGRAMS = (
    "int sum(int *a, int n) {{ int {v} = 0; for (int i = 0; i < n; i++) {{ {v} += a[i]; }}"
    " return {v}; }}\nint main(void) {{ int a[3] = {{1, 2, 3}}; return sum(a, 3); }}\n",
    "#include <string.h>\nvoid {v}(char *s) {{ int n = strlen(s); for (int i = 0; i < n / 2;"
    " i++) {{ char c = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = c; }} }}\n",
    "long {v}(int n) {{ if (n < 2) return 1; return n * {v}(n - 1); }}\n"
    "int main(void) {{ while (1) {{ if ({v}(5) > 100) break; }} return 0; }}\n",
)


def labelled_sets(root: Path, seed: int = 2) -> Path:
    """A prose set (as Clough & Stevenson) and a C set (as SOCO), each with copies."""
    rng = random.Random(seed)
    prose = root / "clough-stevenson"
    prose.mkdir(parents=True)
    rows = ["file_a,file_b,label"]
    for task in range(3):
        source = words(rng, 120)
        (prose / f"orig{task}.txt").write_text(source, encoding="utf-8")
        (prose / f"cut{task}.txt").write_text(words(rng, 20) + " " + source[:500],
                                              encoding="utf-8")
        (prose / f"non{task}.txt").write_text(words(rng, 120), encoding="utf-8")
        rows += [f"orig{task}.txt,cut{task}.txt,1", f"orig{task}.txt,non{task}.txt,0"]
    (prose / "labels.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    code = root / "soco14-train"
    code.mkdir()
    rows = ["file_a,file_b,label"]
    for i, template in enumerate(C_PROGRAMS):
        (code / f"p{i}.c").write_text(template.format(v="total"), encoding="utf-8")
        (code / f"q{i}.c").write_text(template.format(v="acc"), encoding="utf-8")
        rows.append(f"p{i}.c,q{i}.c,1")
    rows += ["p0.c,p1.c,0", "p1.c,p2.c,0", "p0.c,q2.c,0"]
    (code / "labels-c.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root
