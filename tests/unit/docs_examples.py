"""The code blocks of README.md and docs/*.md, as ``tests/unit/test_docs_examples.py``
runs them.

A block is an *example* when it is Python (```` ```python ````) or a command
(```` ```sh ````, or any block with a line starting ``$ ``, ``winnow ``,
``.venv/bin/``, ``bash ``, ``pip `` or ``python``).
Every example runs unless an HTML comment right before it says why not::

    <!-- not runnable: starts a Ray cluster -->

A block right after an example, marked ``<!-- output -->``, is what that
example prints on standard output; a ``$ COMMAND`` line inside a block is
followed by what the command prints on a terminal (standard output, then
standard error).  A line ``...`` in a sample stands for
any number of lines; times (``1.2 s``) and the temporary folder are
normalised.  Commands run in a temporary folder made by
:func:`make_workspace`: ``examples/`` and ``tests/`` are the repository's,
``submissions/``, ``subs/`` and ``starter/`` copies of ``examples/python``'s
submissions and starter code, ``~`` a folder with ``src/`` and
``Downloads/``, and the other names the docs use (``notes.c``,
``release-1.0/``, ``alice.zip``, ``data/``, ``labels.csv``, ``crawl/``,
``shards/``, ``pages/``, ``x.txt``, ``essay.txt`` ...) small stand-ins.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[2]

#: Every page whose examples run (docs/cli.md is generated from --help).
PAGES = ["README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")
                              if p.name != "cli.md")]

COMMAND_LANGS = {"sh", "bash", "shell", "console"}
PYTHON_LANGS = {"python", "py"}
#: How a line of a block without a language starts when the block is commands
#: (``winnow index: ...``, a message, does not).
COMMAND_START = re.compile(r"\$ |winnow [a-z][a-z-]*(\s|$)|\.venv/bin/|bash |pip |python")
NOT_RUNNABLE = re.compile(r"<!--\s*not runnable:\s*(\S.*?)\s*-->")
OUTPUT = re.compile(r"<!--\s*output\s*-->")
#: What the README's first block (its two set-up commands) counts as: it installs
#: into a new virtual environment and runs the whole check, which is what CI does.
SETUP_MARKER = ("<!-- not runnable: the README's set-up commands: a new virtual environment, "
                "then the whole check (CI runs it through .ci/run) -->")

#: The links of the folder the examples run in: name -> path in the repository
#: (read only: nothing an example writes goes there).
LINKS = {"examples": "examples", "tests": "tests"}

#: Copies in that folder: name -> path in the repository.
COPIES = {"submissions": "examples/python/submissions", "subs": "examples/python/submissions",
          "starter": "examples/python/starter", "carol": "examples/python/submissions/carol",
          "alice": "examples/python/submissions/alice",
          "home/src": "examples", "home/src/vendor": "examples/java",
          "home/Downloads": "examples/python/submissions",
          "release-1.0": "examples/python/submissions/alice",
          "release-1.1": "examples/python/submissions/bob",
          "old": "examples/python/submissions/alice", "new": "examples/python/submissions/dave",
          "pages": "examples/python/submissions"}
FILES = {"notes.c": "examples/python/submissions/alice/textstats.py",
         "a.py": "examples/python/submissions/alice/textstats.py",
         "b.py": "examples/python/submissions/bob/textstats.py",
         "data/a.py": "examples/python/submissions/alice/textstats.py",
         "data/b.py": "examples/python/submissions/bob/textstats.py",
         "data/e.py": "examples/python/submissions/erin/textstats.py",
         "home/Downloads/copy.py": "examples/python/submissions/alice/textstats.py"}
TEXTS = {"x.txt": "local function f(x) return x + 1 end\nprint(f(2))\n",
         "essay.txt": "It was the best of times, it was the worst of times.\n" * 5}
LABELS = "file_a,file_b,label\na.py,b.py,1\na.py,e.py,0\nb.py,e.py,0\n"


def make_workspace(root: Path) -> None:
    """The folder the examples run in (``~`` is ``root/home``): the bundled
    samples as ``submissions/``, ``subs/``, ``starter/``; a tree ``~/src`` and
    a ``~/Downloads``; two releases; archives; a labelled set and a small
    JSON Lines corpus in ``data/``."""
    import shutil
    import zipfile

    import zstandard

    for name, target in LINKS.items():
        (root / name).symlink_to(ROOT / target)
    for name, source in COPIES.items():
        shutil.copytree(ROOT / source, root / name, dirs_exist_ok=True)
    for name, source in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / source, root / name)
    (root / "labels.csv").write_text(LABELS)
    for name, text in TEXTS.items():
        (root / name).write_text(text)
    for who in ("alice", "bob"):
        with zipfile.ZipFile(root / f"{who}.zip", "w") as archive:
            for path in sorted((ROOT / "examples/python/submissions" / who).rglob("*")):
                archive.write(path, path.name)
    texts = [(ROOT / "examples/python/submissions" / who / "textstats.py").read_text()
             for who in ("alice", "bob", "erin")]
    records = "".join(json.dumps({"url": f"https://example.org/{i}", "text": text}) + "\n"
                      for i, text in enumerate([*texts, texts[0]]))
    (root / "crawl").mkdir()
    for folder in ("data", "crawl"):
        (root / folder / "crawl.jsonl.zst").write_bytes(
            zstandard.ZstdCompressor().compress(records.encode()))
    import pyarrow as pa
    import pyarrow.parquet as pq

    (root / "shards").mkdir()
    pq.write_table(pa.table({"id": ["a", "b", "e", "a2"], "content": [*texts, texts[0]]}),
                   root / "shards" / "part-0.parquet")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its first line (1-based), info string, text,
    and the marker comment right before it (``None`` if none)."""

    page: str
    line: int
    lang: str
    text: str
    marker: str | None

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def kind(self) -> str:
        """``python``, ``command`` or ``text``."""
        if self.lang in PYTHON_LANGS:
            return "python"
        lines = self.text.splitlines()
        if self.lang in COMMAND_LANGS or any(COMMAND_START.match(line) for line in lines):
            return "command"
        return "text"

    @property
    def skip_reason(self) -> str | None:
        match = NOT_RUNNABLE.search(self.marker or "")
        return match.group(1) if match else None

    @property
    def is_output(self) -> bool:
        return bool(OUTPUT.search(self.marker or ""))


def blocks(page: str) -> list[Block]:
    """The fenced blocks of ``page``, in order."""
    tokens = MarkdownIt("commonmark").parse((ROOT / page).read_text(encoding="utf-8"))
    found: list[Block] = []
    for before, token in zip([None, *tokens], tokens, strict=False):
        if token.type != "fence" or token.map is None:
            continue
        marker = before.content if before is not None and before.type == "html_block" \
            else None
        if page == "README.md" and not found:  # the README opens with exactly its set-up
            marker = SETUP_MARKER                 # commands, nothing before them
        found.append(Block(page, token.map[0] + 1, token.info.strip().split(" ")[0],
                           token.content, marker))
    return found


def command_lines(text: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, blank lines and
    comments dropped (``$ `` prompts removed)."""
    joined = re.sub(r"\\\n\s*", " ", text)
    commands = []
    for line in joined.splitlines():
        line = line.removeprefix("$ ").strip()
        if line and not line.startswith("#"):
            commands.append(line)
    return commands


def sessions(text: str) -> list[tuple[str, str]]:
    """``(command, sample output)`` for each ``$ COMMAND`` line of a block."""
    parts: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            parts.append((line[2:], []))
        elif parts:
            parts[-1][1].append(line)
    return [(command, "\n".join(lines)) for command, lines in parts]


_TIME = re.compile(r"\b\d+(?:\.\d+)? s\b")


def normalise(text: str, tmp: Path | None = None) -> str:
    """``text`` with what must vary replaced: the temporary folder, times;
    trailing spaces and blank lines dropped."""
    if tmp is not None:
        text = text.replace(str(tmp), "<tmp>")
    text = _TIME.sub("<time> s", text)
    return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")


def matches(expected: str, actual: str) -> bool:
    """Whether ``actual`` is ``expected`` line for line, a ``...`` line of
    ``expected`` standing for any number of lines."""
    want, got = expected.splitlines(), actual.splitlines()
    # reachable[j]: the first i lines of want can match the first j lines of got
    reachable = [True] + [False] * len(got)
    for line in want:
        if line.strip() == "...":
            for j in range(1, len(got) + 1):
                reachable[j] = reachable[j] or reachable[j - 1]
        else:
            reachable = [False] + [reachable[j] and got[j] == line for j in range(len(got))]
    return reachable[-1]
