"""The error classes: all in winnow.errors, each with its own documented exit code."""

from __future__ import annotations

import ast
import builtins
import pickle
from pathlib import Path

import pytest

from winnow import errors
from winnow.errors import (
    EXIT_MEANINGS,
    EXIT_SKIPPED,
    EXIT_USAGE,
    ArchiveRefused,
    InputError,
    InvalidInput,
    InvalidLabels,
    MissingExtra,
    UnknownFrontEnd,
    UsageError,
    WinnowError,
    error_classes,
    exit_code_table,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "winnow"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"

#: Exception classes defined outside winnow.errors, each with its reason:
#: fileio's refusals are OSErrors by contract (see winnow.errors' docstring);
#: a private signal that never leaves its function is not an error, nor is
#: the structural front-end's runaway parse, which never leaves the front-end
#: (the file is lexed instead).
OUTSIDE = {
    ("fileio.py", "NotRegularFile"), ("fileio.py", "FileChanged"),
    ("fileio.py", "FileTooLarge"), ("fileio.py", "LeftTheRoot"),
    ("sif/interesting.py", "_OutOfBudget"), ("serve/protocol.py", "_Deadline"),
    ("frontends/structural/recovery.py", "ParseTooSlow"),
}


def test_every_error_class_has_a_documented_exit_code() -> None:
    classes = error_classes()
    assert len(classes) > 10 and classes[0] is WinnowError
    for cls in classes:
        assert cls.exit_code in EXIT_MEANINGS and cls.exit_code != 0, cls.__name__


def test_the_class_decides_the_exit_code() -> None:
    """Exit 2 exactly for the usage errors; any other class exits like the family
    it derives from (a family is a direct subclass of WinnowError), so no
    InputError exits 2 unless it is also a UsageError."""
    for cls in error_classes()[1:]:
        assert (cls.exit_code == EXIT_USAGE) == issubclass(cls, UsageError), cls.__name__
        family = next(base for base in cls.__mro__ if WinnowError in base.__bases__)
        if not issubclass(cls, UsageError):
            assert cls.exit_code == family.exit_code, cls.__name__
    for cls in (InvalidLabels, UnknownFrontEnd, InvalidInput):
        assert issubclass(cls, InputError) and cls.exit_code == EXIT_USAGE
    assert InputError.exit_code == EXIT_SKIPPED


def test_a_missing_extra_names_the_extra_and_its_install() -> None:
    error = MissingExtra.of("ray", "--pair-engine ray")
    assert error.exit_code == EXIT_USAGE
    assert str(error) == ("--pair-engine ray needs the 'ray' extra: "
                          "pip install -e '.[ray]' in winnow's source folder")


def test_the_documented_table_names_every_class_under_its_code() -> None:
    table = exit_code_table()
    assert table in DOCS.read_text(encoding="utf-8")
    rows = {int(line.split("|")[1]): line for line in table.splitlines()[2:]}
    for cls in error_classes()[1:]:
        assert f"`{cls.__name__}`" in rows[cls.exit_code], cls.__name__
    assert f"`{InvalidLabels.__name__}`" not in rows[1]


#: Names a class derives from when it is an exception: Python's and winnow's.
EXCEPTION_NAMES = {name for name, value in vars(builtins).items()
                   if isinstance(value, type) and issubclass(value, BaseException)}
EXCEPTION_NAMES |= {cls.__name__ for cls in error_classes()}


def _exception_classes(path: Path) -> list[str]:
    """Names of the classes in ``path`` that derive from an exception class."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            and any(ast.unparse(base).rsplit(".", 1)[-1] in EXCEPTION_NAMES
                    for base in node.bases)]


def test_no_error_class_is_defined_outside_winnow_errors() -> None:
    found = {(str(path.relative_to(SRC)), name)
             for path in SRC.rglob("*.py") if path.name != "errors.py"
             for name in _exception_classes(path)}
    assert found == OUTSIDE


@pytest.mark.parametrize("cls", [InputError, ArchiveRefused, InvalidLabels, InvalidInput])
def test_input_errors_survive_worker_processes(cls: type[InputError]) -> None:
    error = pickle.loads(pickle.dumps(cls("a.zip", "corrupt")))
    assert type(error) is cls and (error.path, error.reason) == ("a.zip", "corrupt")


def test_errors_module_has_no_dependencies() -> None:
    tree = ast.parse(Path(errors.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "typing"}
