"""The library's errors: one base class, one subclass per kind of failure, each
with the exit code the command line leaves with when it ends a command.

Library code raises these; the command group (:class:`winnow.cli.common.WinnowGroup`)
alone turns them into a message on standard error and ``exit_code``.  Nothing in
the library logs-and-returns-None.  The class decides the exit code: every usage
error (exit 2) derives from :class:`UsageError`, every other class has the code
of the family it derives from (an :class:`InputError` exits 1 unless it is also a
:class:`UsageError`); ``tests/unit/test_errors.py`` checks it, and the table of
docs/cli.md is generated from this module (:func:`exit_code_table`).

Not here, on purpose: :mod:`winnow.fileio`'s ``NotRegularFile``, ``FileChanged`` and
``FileTooLarge``.  They are :class:`OSError` by contract (raised by fileio's
non-blocking open in place of the system's own refusals, with an ``errno`` and
the file name), so that every reader's ``except OSError`` turns them, like
``ENOENT`` or ``EACCES``, into an :class:`InputError`.
"""

from __future__ import annotations

from typing import Final

#: The exit codes shared by every command (docs/cli.md, "Exit codes").
EXIT_OK: Final = 0
EXIT_SKIPPED: Final = 1
EXIT_USAGE: Final = 2
EXIT_FAILED: Final = 3

#: What each exit code means, for every command.
EXIT_MEANINGS: Final = {
    EXIT_OK: "done",
    EXIT_SKIPPED: "some input could not be read or used (each named on standard error); "
                  "the rest was processed",
    EXIT_USAGE: "usage error: a bad option or parameter value, parameters other than an "
                "index's, an unusable labels file, inputs that cannot be used together "
                "(Parquet files whose columns differ), a missing optional dependency, or an "
                "output that would overwrite an input or the index",
    EXIT_FAILED: "failed for a reason outside the input: output or report not writable, "
                 "standard output closed, index in use, a worker process killed, or an "
                 "internal error (one line; `winnow --debug COMMAND ...` shows the "
                 "traceback)",
}


class WinnowError(Exception):
    """Base class of every error winnow raises on purpose."""

    exit_code: int = EXIT_FAILED


# --- usage (2) -------------------------------------------------------------------

class UsageError(WinnowError):
    """Base class of the errors in how winnow was called: a bad option or
    parameter value, a missing optional dependency.  They all exit 2."""

    exit_code = EXIT_USAGE


class InvalidConfig(UsageError, ValueError):
    """Parameters that break the algorithms' preconditions (e.g. ``t < k``).

    ``problems`` lists every problem found, not only the first.
    """

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


class UnknownLanguage(UsageError, ValueError):
    """A language name that no lexer knows."""


class MissingExtra(UsageError):
    """An optional dependency is not installed (the message names the extra):
    :meth:`of` words it the same way for every extra."""

    @classmethod
    def of(cls, extra: str, purpose: str) -> MissingExtra:
        """The error for ``purpose`` (e.g. ``--pair-engine ray``) needing ``extra``."""
        return cls(f"{purpose} needs the {extra!r} extra: {install_hint(extra)}")


#: The name winnow's releases are published under on PyPI, where ``winnow`` is an
#: unrelated project; the command and the import name stay ``winnow``.
DISTRIBUTION: Final = "winnow-copies"


def install_hint(extra: str) -> str:
    """How to install the optional ``extra``: into the checkout the README installs
    winnow from (``pip install -e .``), as the README does."""
    return f"pip install -e '.[{extra}]' in winnow's source folder"


class JobRefused(UsageError):
    """A job ``winnow serve`` will not take; the message says why and is sent to
    the client (the server goes on: the code is a usage error's, never an exit)."""


# --- input (1), with a path and a reason ---------------------------------------------

class InputError(WinnowError):
    """An input that cannot be used: missing, unreadable, a directory, corrupt."""

    exit_code = EXIT_SKIPPED

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str]]:
        """Pickle with both arguments, so the error survives worker processes."""
        return (type(self), (self.path, self.reason))


class UnreadableContent(InputError):
    """A file whose content a front-end could not process (the file is skipped)."""


class ContentTooLarge(InputError):
    """A file whose content expands past a front-end's budget (a decompression
    bomb, or simply too much): skipped rather than processed."""


class ArchiveRefused(InputError):
    """The whole archive is unusable: corrupt, unreadable or over a limit."""


class UnknownFrontEnd(UsageError, InputError):
    """A ``--frontend`` name that is not registered (a usage error with a path)."""


class InvalidLabels(UsageError, InputError):
    """A labels file (``winnow evaluate``) that cannot be used as a whole:
    unreadable, a bad header or row, a path outside ``--root``.  Nothing can be
    scored, so it is a usage error, not a skipped input."""


class InvalidInput(UsageError, InputError):
    """Inputs that cannot be used together (e.g. Parquet files whose columns
    differ, for a de-duplicated corpus that keeps their format): nothing
    sensible can be written, so it is a usage error, with the path."""


class DedupRefused(WinnowError):
    """A file ``winnow dedup`` must not touch (it failed a check); the message
    says why.  The file is skipped and named."""

    exit_code = EXIT_SKIPPED


# --- the index -----------------------------------------------------------------------

class IndexMissing(WinnowError):
    """No index at the path, or one that holds nothing yet (build it with
    ``winnow index``)."""

    exit_code = EXIT_SKIPPED


class IndexCorrupt(WinnowError):
    """A file that is not a winnow index, or one that cannot be read."""

    exit_code = EXIT_SKIPPED


class IndexMismatch(UsageError):
    """An index used with parameters other than those it was built with."""


class IndexBusy(WinnowError):
    """The index database is locked by another process (one writer at a time)."""

    exit_code = EXIT_FAILED


class ShardedRunError(UsageError):
    """A sharded run's working folder holds another run, or a stage failed."""


# --- outputs (3) ---------------------------------------------------------------------

class ReportError(WinnowError):
    """A report that cannot be written (unwritable path, missing key file ...)."""

    exit_code = EXIT_FAILED

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


class OutputError(ReportError):
    """An output (``-o FILE``, standard output) that cannot be written; a report's
    kin (same fields, same exit code)."""


def error_classes() -> list[type[WinnowError]]:
    """Every error class of this module, the base first, in the order defined."""
    return [value for value in globals().values()
            if isinstance(value, type) and issubclass(value, WinnowError)]


def exit_code_table() -> str:
    """The Markdown table of exit codes, each with its meaning and its error classes."""
    lines = ["| code | meaning | errors |", "|---|---|---|"]
    for code, meaning in EXIT_MEANINGS.items():
        names = ", ".join(f"`{cls.__name__}`" for cls in error_classes()
                          if cls.exit_code == code and cls is not WinnowError)
        lines.append(f"| {code} | {meaning} | {names or '-'} |")
    return "\n".join(lines) + "\n"
