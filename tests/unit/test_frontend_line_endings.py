"""Line endings never change a code stream: LF, CRLF and old-Mac CR-only files
give the same tokens at the same offsets.  (A CR-only Python file still runs,
and before the fix its first ``#`` comment swallowed the rest of the file, so a
copy saved with CR endings went from 100% to 4% similar.)"""

from __future__ import annotations

import numpy as np
import pytest

from winnow.frontends import make_document

SOURCES = {
    "prog.py": b"# helper\ndef area(w, h):\n    return w * h  # product\n\nprint(area(2, 3))\n",
    "prog.c": b"// helper\nint area(int w, int h) {\n  return w * h; // product\n}\n",
    "prog.java": b"// helper\nclass A {\n  int area(int w, int h) { return w * h; }\n}\n",
    "prog.sh": b"# helper\narea() {\n  echo $(( $1 * $2 ))  # product\n}\narea 2 3\n",
    "prog.lua": b"-- helper\nfunction area(w, h)\n  return w * h -- product\nend\n",
}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_cr_only_and_crlf_files_give_the_lf_stream(name: str) -> None:
    lf = make_document(SOURCES[name], name)
    for ending in (b"\r", b"\r\n"):
        other = make_document(SOURCES[name].replace(b"\n", ending), name)
        assert other.stream.units.tolist() == lf.stream.units.tolist(), ending
        if ending == b"\r":  # same length: the very same offsets
            assert np.array_equal(other.stream.starts, lf.stream.starts)
            assert np.array_equal(other.stream.ends, lf.stream.ends)
