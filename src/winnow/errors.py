"""The library's errors: one base class, one subclass per kind of failure.

Library code raises these; the CLI turns them into messages and exit codes
(`exit_code` on each class).  Nothing in the library logs-and-returns-None.
"""

from __future__ import annotations


class WinnowError(Exception):
    """Base class of every error winnow raises on purpose."""

    exit_code = 1


class InvalidConfig(WinnowError, ValueError):
    """Parameters that break the algorithms' preconditions (e.g. ``t < k``).

    ``problems`` lists every problem found, not only the first.
    """

    exit_code = 2

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


class InputError(WinnowError):
    """An input that cannot be used: missing, unreadable, a directory, corrupt."""

    exit_code = 1

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str]]:
        """Pickle with both arguments, so the error survives worker processes."""
        return (type(self), (self.path, self.reason))


class ReportError(WinnowError):
    """A report that cannot be written (unwritable path, missing key file ...)."""

    exit_code = 3

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


class OutputError(ReportError):
    """An output (``-o FILE``, standard output) that cannot be written; a report's
    kin (same fields, same exit code)."""


class IndexBusy(WinnowError):
    """The index database is locked by another process (one writer at a time)."""

    exit_code = 3


class IndexMismatch(WinnowError):
    """An index used with parameters other than those it was built with."""

    exit_code = 2


class IndexCorrupt(WinnowError):
    """A file that is not a winnow index, or one that cannot be read."""

    exit_code = 1
