"""Opening the index's DuckDB file: settings, error mapping, identifier quoting."""

from __future__ import annotations

import stat
from pathlib import Path

import duckdb

from winnow.errors import IndexBusy, IndexCorrupt
from winnow.fileio import kind_of

#: DuckDB settings of every connection: never print, and never install or load an
#: extension (a SQLite or other file given as the index would otherwise make DuckDB
#: download one; the index needs none).
_CONFIG = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}


def quote_identifier(name: str) -> str:
    """``name`` as a double-quoted SQL identifier (each ``"`` doubled): DuckDB
    takes no parameters for identifiers, so this is the only safe way to name one."""
    return '"' + name.replace('"', '""') + '"'


def connect(path: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    """A connection to the index file, DuckDB's errors mapped to winnow's:
    :class:`IndexBusy` for another process's lock, :class:`IndexCorrupt` otherwise."""
    try:
        con = duckdb.connect(str(path), read_only=read_only, config=dict(_CONFIG))
        con.execute("SET enable_progress_bar = false")  # the library never prints
        return con
    except duckdb.IOException as error:
        text = str(error)
        if "extension" in text.lower():
            raise IndexCorrupt(f"{path}: not a winnow index (a database of another "
                               f"kind; winnow loads no DuckDB extension)") from error
        if "lock" in text.lower():
            raise IndexBusy(
                f"{path}: the index is in use by another winnow process "
                f"(DuckDB allows one writer); try again when it has finished "
                f"[{text.split('Conflicting lock is held in')[-1].strip()}]"
            ) from error
        raise IndexCorrupt(f"{path}: cannot open the index: {text}") from error
    except duckdb.Error as error:
        raise IndexCorrupt(f"{path}: not a winnow index ({error})") from error


def refuse_special(path: Path) -> None:
    """An existing index path must be a regular file: DuckDB would block forever
    opening a FIFO and fail obscurely on a folder or device."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return  # missing (created) or unreadable (DuckDB says why)
    if not stat.S_ISREG(mode):
        raise IndexCorrupt(f"{path}: not a regular file ({kind_of(mode)}); "
                           f"an index is one database file")
