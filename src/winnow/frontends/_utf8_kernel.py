"""Compiled scan for the first invalid UTF-8 byte (numba), for
:func:`winnow.frontends.sniff.first_invalid_utf8`; imported only when a text
is not valid UTF-8, so sniffing valid text never loads the compiler."""

from __future__ import annotations

from winnow.compiled import jit


@jit()
def first_invalid(buf):  # type: ignore[no-untyped-def]
    """Strict UTF-8 (RFC 3629: no overlongs, no surrogates, at most U+10FFFF)."""
    n = buf.shape[0]
    i = 0
    while i < n:
        b = buf[i]
        if b < 0x80:
            i += 1
            continue
        if 0xC2 <= b <= 0xDF:
            need, lo, hi = 1, 0x80, 0xBF
        elif 0xE0 <= b <= 0xEF:
            need = 2
            lo = 0xA0 if b == 0xE0 else 0x80
            hi = 0x9F if b == 0xED else 0xBF
        elif 0xF0 <= b <= 0xF4:
            need = 3
            lo = 0x90 if b == 0xF0 else 0x80
            hi = 0x8F if b == 0xF4 else 0xBF
        else:
            return i
        if i + need > n - 1:
            return i
        if not lo <= buf[i + 1] <= hi:
            return i
        for k in range(2, need + 1):
            if not 0x80 <= buf[i + k] <= 0xBF:
                return i
        i += need + 1
    return -1
