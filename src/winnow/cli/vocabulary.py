"""The old spellings of renamed options, kept for one release.

Every command now says a thing one way: a threshold is ``--threshold`` or
``--min-...``, a score name ``--score``, the document-frequency cap
``-m/--max-df``, a front-end switch ``--frontend-option NAME=VALUE``, the pair
counter ``--pair-engine``.  An old spelling still works: the command group
rewrites it to the new one before the command parses its options
(:func:`renamed_args`) and says so on standard error, once per option.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import click

#: The front-end switches of the old ``--keep WHAT`` (compare, evaluate,
#: fingerprint, tokens), as ``--frontend-option`` names.
KEEP_SWITCHES = {
    "case": "keep_case", "punctuation": "keep_punctuation", "whitespace": "keep_whitespace",
    "identifiers": "keep_identifiers", "literals": "keep_literals",
    "markdown": "notebook_markdown",
}


def _keep_switch(value: str) -> str:
    return f"{KEEP_SWITCHES.get(value, 'keep_' + value)}=true"


@dataclass(frozen=True)
class Renamed:
    """``old`` is now ``new``; ``value`` turns the old value into the new one."""

    old: str
    new: str
    value: Callable[[str], str] = str


_SIMILARITY_IS_SCORE = Renamed("--similarity", "--score")
_MAX_OCCURRENCES = Renamed("--max-occurrences", "--max-df")
_ENGINE = Renamed("--engine", "--pair-engine")
_KEEP_FRONTEND = Renamed("--keep", "--frontend-option", _keep_switch)
_SIZE_RATIO = Renamed("--size-ratio", "--min-size-ratio")
_CLUSTER = Renamed("--cluster-threshold", "--min-cluster-similarity")

#: Per command, its renamed options (the old spellings go in the next release).
RENAMED: dict[str, tuple[Renamed, ...]] = {
    "compare": (_SIMILARITY_IS_SCORE, _MAX_OCCURRENCES, _ENGINE, _KEEP_FRONTEND, _CLUSTER),
    "evaluate": (_SIMILARITY_IS_SCORE, _MAX_OCCURRENCES, _KEEP_FRONTEND, _CLUSTER),
    "fingerprint": (_KEEP_FRONTEND,),
    "tokens": (_KEEP_FRONTEND,),
    "dedup": (Renamed("--similarity", "--min-similarity"),
              Renamed("--containment", "--min-containment"), _MAX_OCCURRENCES, _ENGINE,
              Renamed("--keep", "--keep-records")),
    "groups": (_SIZE_RATIO, _ENGINE),
    "scan": (_SIZE_RATIO,),
    "dedup-files": (Renamed("--keep", "--keep-copy"),),
}


def deprecation(command: str, renamed: Renamed) -> str:
    """The message for an old spelling."""
    return (f"winnow: warning: `winnow {command} {renamed.old}` is deprecated and goes in "
            f"the next release; use {renamed.new}")


def renamed_args(command: str, args: list[str]) -> list[str]:
    """``args`` of ``command`` with every old spelling replaced by the new one
    (``--old VALUE`` and ``--old=VALUE``; nothing after ``--``), each old
    option named once on standard error."""
    table = {r.old: r for r in RENAMED.get(command, ())}
    out: list[str] = []
    warned: set[str] = set()
    items = iter(args)
    for arg in items:
        name, sep, value = arg.partition("=")
        renamed = table.get(name) if arg.startswith("--") else None
        if arg == "--":
            out += [arg, *items]
            break
        if renamed is None:
            out.append(arg)
            continue
        if renamed.old not in warned:
            warned.add(renamed.old)
            click.echo(deprecation(command, renamed), err=True)
        given = value if sep else next(items, None)
        if given is None:  # no value: let the new option say so
            out.append(renamed.new)
            continue
        out += [renamed.new, renamed.value(given)]
    return out
