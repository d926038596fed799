"""Compare texts and paths in one call: the library's short way to ``winnow compare``.

:func:`compare_texts` takes submissions held in memory (a name and its text,
or a name and its files), :func:`compare_paths` the paths ``winnow compare``
takes; both build the :class:`~winnow.sources.submissions.SubmissionSource`
objects and call :func:`winnow.matching.compare`, so without ``config`` and
``options`` they give what ``winnow compare`` gives without options: each
front-end's own ``k`` and ``t``
(:func:`~winnow.matching.options.default_configs`) and the CLI's
:class:`~winnow.matching.CompareOptions`.  The result is a
:class:`~winnow.matching.ComparisonResult`; :meth:`~winnow.matching.ComparisonResult.passage_text`
gives the text of a passage, ``passage.a.lines`` its lines.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from winnow.config import WinnowConfig
from winnow.errors import InputError
from winnow.frontends.options import FrontEndOptions
from winnow.matching import CompareOptions, ComparisonResult, compare
from winnow.model import Role
from winnow.sources.archives import RunBudget
from winnow.sources.submissions import (
    ReadOptions,
    SourceFile,
    SubmissionSource,
    load_submissions,
)

if TYPE_CHECKING:
    from winnow.corpus.dedup import DuplicateRow

#: One submission held in memory: its text (one file, named as the submission),
#: or its files, ``{path inside the submission: text}``.
TextSubmission = str | bytes | Mapping[str, str | bytes]

__all__ = ["CompareOptions", "ComparisonResult", "TextSubmission", "compare", "compare_paths",
           "compare_texts", "cross_language_note", "dedup_records", "neutral_read",
           "relative_names"]


def compare_texts(
    texts: Mapping[str, TextSubmission], *, base: Mapping[str, str | bytes] | None = None,
    frontend: str | None = None, lang: str | None = None,
    config: WinnowConfig | None = None, options: CompareOptions | None = None, jobs: int = 1,
) -> ComparisonResult:
    """Compare submissions held in memory, ``{name: text}`` or ``{name: {path: text}}``.

    ``base`` holds starter code, ``{path: text}``, ignored everywhere (MOSS
    ``-b``).  ``str`` is encoded as UTF-8.  The front-end is ``frontend``
    (``code``, ``text`` ...) if given, else chosen as for a file: by ``lang``,
    else by the name's extension (a name without one is prose for the
    ``text`` front-end).  ``config``, ``options`` and ``jobs`` are those of
    :func:`winnow.matching.compare`; ``frontend="bytes"`` allows binary data.
    Problems (an empty text, an unknown language ...) are in the result's
    ``issues``; nothing raises for bad input.
    """
    read = ReadOptions(frontend=frontend, lang=lang, max_file_bytes=None)
    subs = [_held(name, files, "new", read) for name, files in texts.items()]
    starter = [_held("base", dict(base), "base", read)] if base else []
    return compare(subs, config, options or _options(frontend), base=starter, jobs=jobs)


def compare_paths(
    paths: Sequence[str | os.PathLike[str]], *, each: bool = False,
    base: Sequence[str | os.PathLike[str]] = (), frontend: str | None = None,
    lang: str | None = None, config: WinnowConfig | None = None,
    options: CompareOptions | None = None, jobs: int = 1, full_paths: bool = False,
    cross_language: bool = False,
) -> ComparisonResult:
    """Compare the submissions at ``paths``, as ``winnow compare PATH ...`` does.

    Submissions are named as ``winnow compare`` names them: relative to the folder
    given with ``each``, or to the folder all ``paths`` share (:func:`relative_names`);
    ``full_paths`` keeps the paths as given (``--full-paths``).

    Each path is one submission (a file, a folder or a zip/tar archive); with
    ``each``, every entry of a folder path is one.  ``base`` paths hold starter
    code (``--base``).  ``frontend`` and ``lang`` are ``--frontend`` and
    ``--lang``; ``config``, ``options`` and ``jobs`` those of
    :func:`winnow.matching.compare` (``jobs=0``: all cores, which outside
    Linux needs the script's ``if __name__ == "__main__":`` guard).  Files in
    several languages of the structural front-end are compared across
    languages, as by ``winnow compare`` (:func:`cross_language_note`; the
    result's ``parameters["cross_language"]`` says so); ``cross_language``
    forces it (``--cross-language``).  For ``--archive``, ``--include`` and
    the rest, call :func:`~winnow.sources.submissions.load_submissions` and
    :func:`~winnow.matching.compare`.
    """
    names = [os.fspath(p) for p in paths]
    read = ReadOptions(frontend=frontend, lang=lang)
    run = RunBudget(read.limits.max_run_bytes)  # one archive budget, as the CLI's
    subs = load_submissions(names, each=each, read_options=read, run=run)
    across = cross_language_note(subs, frontend, lang, cross_language)
    if across is not None:  # read again, every file in the neutral alphabet alone
        read = neutral_read(read)
        run = RunBudget(read.limits.max_run_bytes)
        subs = load_submissions(names, each=each, read_options=read, run=run)
    if not full_paths:
        subs = relative_names(subs)
    starter = load_submissions([os.fspath(p) for p in base], role="base", read_options=read,
                               run=run)
    result = compare(subs, config, options or _options(frontend), base=starter, jobs=jobs)
    if across is None:
        return result
    return dataclasses.replace(result, parameters={**result.parameters,
                                                   "cross_language": across})


def cross_language_note(subs: Sequence[SubmissionSource], frontend: str | None,
                        lang: str | None, forced: bool = False) -> dict[str, Any] | None:
    """Whether ``subs`` are compared across languages, and the note that says
    so (``{"languages", "alphabet", "frontend"}``, for the result's
    ``parameters["cross_language"]``), else ``None``: when their files are in
    several languages of the structural front-end, or ``forced``, unless a
    ``frontend`` other than ``structural`` or a ``lang`` was chosen.  Such a
    batch is read with :func:`neutral_read`'s options."""
    from winnow.frontends.structural import ALPHABET_NAME, languages_in

    if frontend not in (None, "structural") or lang is not None:
        return None
    found = languages_in(f.location for sub in subs for f in sub.files)
    if not forced and len(found) < 2:
        return None
    return {"languages": sorted(found), "alphabet": ALPHABET_NAME, "frontend": "structural"}


def neutral_read(read: ReadOptions) -> ReadOptions:
    """``read`` with every file through the structural front-end's
    language-neutral alphabet alone (no lexer token matches across languages)."""
    options = read.options or FrontEndOptions()
    return dataclasses.replace(read, frontend="structural",
                               options=dataclasses.replace(options, lexical=False))


def relative_names(subs: list[SubmissionSource]) -> list[SubmissionSource]:
    """The submissions named without the folders all their names share: relative to
    the folder given to ``--each`` (``class/ann`` is ``ann``), or to the inputs'
    common folder.  Names stay distinct; file paths in warnings stay as given."""
    parts = [s.name.split("/") for s in subs]
    if not parts:
        return subs
    common = 0
    while all(len(p) > common + 1 and p[common] == parts[0][common] for p in parts):
        common += 1
    if common == 0:
        return subs
    return [dataclasses.replace(s, name="/".join(p[common:]))
            for s, p in zip(subs, parts, strict=True)]


def _options(frontend: str | None) -> CompareOptions:
    """The CLI's defaults: binary data is compared when the front-end is ``bytes``."""
    return CompareOptions(allow_binary=frontend == "bytes")


def _held(name: str, files: TextSubmission, role: Role, read: ReadOptions) -> SubmissionSource:
    """A submission of files held in memory."""
    held = {name: files} if isinstance(files, str | bytes) else files
    out = []
    for path, text in held.items():
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        location = path if path == name else f"{name}/{path}"
        out.append(SourceFile(path, location, read, data=data, size=len(data)))
    problems = () if out else (InputError(name, "empty submission: no files to compare"),)
    return SubmissionSource(name, role, tuple(out), problems)


def dedup_records(
    records: Mapping[str, str] | Iterable[str], *, similarity: float | None = None,
    containment: float | None = None, jobs: int = 1, **settings: Any,
) -> list[DuplicateRow]:
    """The near-duplicate and contained records among ``records`` held in memory, as
    ``winnow dedup`` finds them in a file: ``{id: text}``, or texts (their ids are
    their positions, ``"0"``, ``"1"`` ...).

    Returns one :class:`~winnow.corpus.dedup.DuplicateRow` per record in a cluster,
    by cluster, its representative (``kept``) first (``source`` is ``"<records>"``,
    ``line`` the record's position from 1); a record in no row is unique.
    ``similarity`` (resemblance) and ``containment`` are the thresholds, fractions
    (a pair passing either is linked); ``settings`` are the other fields of
    :class:`~winnow.corpus.options.DedupSettings` (``k``, ``t``, ``max_occurrences``,
    ``min_fingerprints``, ``engine`` ...).  The records go through the same pipeline
    as ``winnow dedup`` (:func:`~winnow.corpus.dedup.find_duplicates`), written once
    to a temporary JSON Lines file; raises :class:`~winnow.errors.InvalidConfig` for
    bad settings.
    """
    from winnow.corpus.dedup import find_duplicates, read_back
    from winnow.corpus.options import DedupSettings
    from winnow.corpus.readers import Fields

    given: dict[str, Any] = {k: v for k, v in (("similarity", similarity),
                                                ("containment", containment)) if v is not None}
    chosen = DedupSettings(fields=Fields("text", "id"), jobs=jobs, **given, **settings)
    items = records.items() if isinstance(records, Mapping) else (
        (str(i), text) for i, text in enumerate(records))
    with tempfile.TemporaryDirectory(prefix="winnow-records-") as folder:
        path = os.path.join(folder, "records.jsonl")
        with open(path, "w", encoding="utf-8") as out:
            for key, text in items:
                out.write(json.dumps({"id": str(key), "text": text}) + "\n")
        rows = read_back(find_duplicates([path], chosen))
    return [dataclasses.replace(r, source="<records>") for r in rows]  # line: 1-based position
