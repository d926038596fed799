"""The front-end interface: one document's bytes in, a :class:`Stream` out.

A front-end removes what should not distinguish documents (layout, comments,
identifier names, case ...) and knows nothing of hashing (winnowing paper,
section 5.2).  It must give every unit the byte range it came from.
"""

from __future__ import annotations

from typing import Protocol

from winnow.model import Stream


class FrontEnd(Protocol):
    """What every front-end provides."""

    #: Registry name, as given to ``--frontend`` (``text``, ``code``, ``bytes`` ...).
    name: str

    def stream(self, data: bytes, name: str) -> Stream:
        """Normalise one document.  ``name`` (a path) may guide decisions."""
        ...
