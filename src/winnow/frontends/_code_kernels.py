"""Compiled scanner of the code fast path (numba, nopython mode).

One table-driven loop lexes every fast-path language; the per-language syntax
arrives as small arrays (see :class:`winnow.frontends.lexfast.Syntax`).
:func:`scan` writes, per token, its kind and ``[start, end)``;
:func:`hash_tokens` a 64-bit FNV-1a hash of its bytes (so Python turns tokens
into ids once per *distinct* token, not per occurrence).  Comments,
whitespace and line continuations produce nothing.
"""

from __future__ import annotations

import numpy as np

from winnow.compiled import jit

WORD, NUMBER, STRING, CHAR, OPERATOR, DIRECTIVE = 1, 2, 3, 4, 5, 6

# Indices into the ``flags`` array.
F_SQ, F_TRIPLE_DQ, F_TRIPLE_SQ, F_BACKTICK, F_DIRECTIVES, F_NEST, F_AT_STRING, \
    F_ANY_PREFIX, F_PREFIX_MAX, F_RUST_RAW, F_CPP_RAW = range(11)
N_FLAGS = 11
SQ_NONE, SQ_STRING, SQ_CHAR = 0, 1, 2
BT_NONE, BT_ESCAPED, BT_RAW = 0, 1, 2

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
_FNV_OFFSET = np.uint64(FNV_OFFSET)
_FNV_PRIME = np.uint64(FNV_PRIME)


def fnv1a64(data: bytes) -> int:
    """The hash :func:`scan` writes for a token's bytes (FNV-1a, 64 bits)."""
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


@jit(inline="always")
def _is_ident_start(b):  # type: ignore[no-untyped-def]
    return (97 <= b <= 122) or (65 <= b <= 90) or b == 95 or b == 36 or b >= 0x80


@jit(inline="always")
def _is_ident(b):  # type: ignore[no-untyped-def]
    return _is_ident_start(b) or (48 <= b <= 57)


@jit()
def _quoted(buf, i, n, quote, qlen, escapes, multiline):  # type: ignore[no-untyped-def]
    """End of a string whose opening quote (``qlen`` copies of ``quote``) is at ``i``."""
    j = i + qlen
    while j < n:
        b = buf[j]
        if escapes and b == 92:
            j += 2
            continue
        if b == 10 and not multiline:
            return j  # unterminated: the string ends with its line
        if b == quote:
            run = 0
            while run < qlen and j + run < n and buf[j + run] == quote:
                run += 1
            if run == qlen:
                return j + qlen
            j += run
            continue
        j += 1
    return n


@jit()
def _block_comment_end(buf, i, n, bopen, bclose, nest):  # type: ignore[no-untyped-def]
    depth = 1
    j = i + 2
    while j < n:
        if buf[j] == bclose[0] and j + 1 < n and buf[j + 1] == bclose[1]:
            depth -= 1
            j += 2
            if depth == 0 or not nest:
                return j
            continue
        if nest and buf[j] == bopen[0] and j + 1 < n and buf[j + 1] == bopen[1]:
            depth += 1
            j += 2
            continue
        j += 1
    return n


@jit()
def _raw_string_end(buf, i, n, cpp):  # type: ignore[no-untyped-def]
    """End of a C++ ``R"d(...)d"`` or Rust ``r#"..."#`` string; ``i`` is after the prefix."""
    if cpp:
        j = i + 1  # after the quote, the delimiter runs to '('
        d0 = j
        while j < n and buf[j] != 40 and j - d0 < 16:
            j += 1
        if j >= n or buf[j] != 40:
            return _quoted(buf, i, n, 34, 1, True, False)
        dlen = j - d0
        j += 1
        while j < n:
            if buf[j] == 41:
                ok = j + 1 + dlen < n and buf[j + 1 + dlen] == 34
                k = 0
                while ok and k < dlen:
                    if buf[j + 1 + k] != buf[d0 + k]:
                        ok = False
                    k += 1
                if ok:
                    return j + dlen + 2
            j += 1
        return n
    hashes = 0
    j = i
    while j < n and buf[j] == 35:
        hashes += 1
        j += 1
    j += 1  # the quote
    while j < n:
        if buf[j] == 34:
            k = 0
            while k < hashes and j + 1 + k < n and buf[j + 1 + k] == 35:
                k += 1
            if k == hashes:
                return j + 1 + hashes
        j += 1
    return n


@jit(inline="always")
def _fraction_follows(buf, j, n):  # type: ignore[no-untyped-def]
    """Whether the ``.`` at ``j`` continues a number: ``1.5``, ``1.e3``, ``1.``
    (but not ``1..2`` or ``1.method``)."""
    if j + 1 >= n:
        return True
    c = buf[j + 1]
    if 48 <= c <= 57:
        return True
    if c == 101 or c == 69:  # 1.e3
        return j + 2 < n and (48 <= buf[j + 2] <= 57 or buf[j + 2] == 43 or buf[j + 2] == 45)
    return c != 46 and not _is_ident_start(c)


@jit()
def _number_end(buf, i, n):  # type: ignore[no-untyped-def]
    j = i
    hexa = i + 1 < n and buf[i] == 48 and (buf[i + 1] == 120 or buf[i + 1] == 88)
    dot = False
    while j < n:
        b = buf[j]
        if _is_ident(b) and b != 36:
            j += 1
        elif b == 46 and not dot and not hexa and _fraction_follows(buf, j, n):
            dot = True
            j += 1
        elif (b == 43 or b == 45) and not hexa and j > i and \
                (buf[j - 1] == 101 or buf[j - 1] == 69) and j + 1 < n and 48 <= buf[j + 1] <= 57:
            j += 1
        else:
            break
    return j


@jit()
def _operator_end(buf, i, n, op2, ops_long):  # type: ignore[no-untyped-def]
    """Longest operator at ``i``: ``op2[b0 | b1 << 8]`` has bit 1 for a two-byte
    operator and bit 2 when longer ones start so; ``ops_long`` holds those,
    packed little-endian, longest first."""
    if i + 1 >= n:
        return i + 1
    pair = op2[np.int64(buf[i]) | (np.int64(buf[i + 1]) << 8)]
    if pair & 2:
        for o in range(ops_long.shape[0]):
            code = ops_long[o]
            length = 4 if code >= (1 << 24) else 3
            if i + length > n:
                continue
            ok = True
            for k in range(length):
                if np.int64(buf[i + k]) != (code >> (8 * k)) & 0xFF:
                    ok = False
                    break
            if ok:
                return i + length
    if pair & 1:
        return i + 2
    return i + 1


@jit()
def _string_at(buf, i, n, flags):  # type: ignore[no-untyped-def]
    """End of a string literal starting with the quote at ``i`` (0 if none)."""
    b = buf[i]
    if b == 34:
        if flags[F_TRIPLE_DQ] and _triple(buf, i, n, 34):
            return _quoted(buf, i, n, 34, 3, True, True)
        return _quoted(buf, i, n, 34, 1, True, False)
    if b == 39 and flags[F_SQ] == SQ_STRING:
        if flags[F_TRIPLE_SQ] and _triple(buf, i, n, 39):
            return _quoted(buf, i, n, 39, 3, True, True)
        return _quoted(buf, i, n, 39, 1, True, False)
    if b == 96 and flags[F_BACKTICK] != BT_NONE:
        return _quoted(buf, i, n, 96, 1, flags[F_BACKTICK] == BT_ESCAPED, True)
    return 0


@jit(inline="always")
def _triple(buf, i, n, q):  # type: ignore[no-untyped-def]
    return i + 2 < n and buf[i + 1] == q and buf[i + 2] == q


@jit()
def _char_end(buf, i, n):  # type: ignore[no-untyped-def]
    """End of a character literal at ``i`` (0 if ``'`` starts none, e.g. a lifetime)."""
    j = i + 1
    while j < n and j - i <= 12:
        b = buf[j]
        if b == 10:
            return 0
        if b == 92:
            j += 2
            continue
        if b == 39:
            return j + 1 if j > i + 1 else 0
        if j - i > 1 and buf[i + 1] < 0x80 and buf[i + 1] != 92:
            return 0  # more than one ASCII character: not a char literal
        j += 1
    return 0


@jit()
def _prefixed_string(buf, i, j, n, flags, prefix_ok):  # type: ignore[no-untyped-def]
    """If the word ``[i, j)`` prefixes a string (``r"..."``, ``u8"..."``), its end."""
    if j >= n or j - i > flags[F_PREFIX_MAX]:
        return 0
    q = buf[j]
    if not flags[F_ANY_PREFIX]:
        for k in range(i, j):
            if buf[k] >= 128 or not prefix_ok[buf[k]]:
                return 0
    if flags[F_RUST_RAW] and (q == 35 or q == 34):
        for k in range(i, j):
            if buf[k] == 114:
                return _raw_string_end(buf, j, n, False)
    if flags[F_CPP_RAW] and q == 34 and buf[j - 1] == 82:
        return _raw_string_end(buf, j, n, True)
    if q == 34 or (q == 39 and flags[F_SQ] != SQ_NONE):
        if q == 39 and flags[F_SQ] == SQ_CHAR:
            return _char_end(buf, j, n)
        return _string_at(buf, j, n, flags)
    return 0


@jit()
def _directive_end(buf, i, n):  # type: ignore[no-untyped-def]
    """``#`` + optional blanks + a word, if ``#`` is first on its line (else 0)."""
    k = i - 1
    while k >= 0 and (buf[k] == 32 or buf[k] == 9):
        k -= 1
    if k >= 0 and buf[k] != 10:
        return 0
    j = i + 1
    while j < n and (buf[j] == 32 or buf[j] == 9):
        j += 1
    if j < n and _is_ident_start(buf[j]):
        while j < n and _is_ident(buf[j]):
            j += 1
        return j
    return 0


@jit()
def _comment_end(buf, i, n, line_cmt, line_len, bopen, bclose, has_block, nest):  # type: ignore[no-untyped-def]
    """End of the comment starting at ``i`` (``i`` itself if none does)."""
    for c in range(line_cmt.shape[0]):
        length = line_len[c]
        if i + length <= n and buf[i] == line_cmt[c, 0]:
            ok = True
            for k in range(1, length):
                if buf[i + k] != line_cmt[c, k]:
                    ok = False
                    break
            if ok:
                j = i
                while j < n and buf[j] != 10:
                    j += 1
                return j
    if has_block and i + 1 < n and buf[i] == bopen[0] and buf[i + 1] == bopen[1]:
        return _block_comment_end(buf, i, n, bopen, bclose, nest)
    return i


@jit()
def scan(buf, line_cmt, line_len, bopen, bclose, has_block, flags, prefix_ok,  # type: ignore[no-untyped-def]
         op2, ops_long, kinds, starts, ends, write):
    """Lex ``buf``; with ``write`` fill the output arrays.  Returns the token count.

    One loop on purpose: a call per token into a helper taking arrays costs
    about a third of the speed (measured), so only rare cases are helpers.
    """
    n = buf.shape[0]
    i = 0
    t = 0
    nest = flags[F_NEST]
    while i < n:
        b = buf[i]
        if b == 32 or b == 10 or b == 9 or b == 13 or b == 12 or b == 11:
            i += 1
            continue
        if b == 92 and i + 1 < n and (buf[i + 1] == 10 or buf[i + 1] == 13):
            i += 2
            continue
        j = i
        if b == line_cmt[0, 0] or b == bopen[0] or (line_cmt.shape[0] > 1 and b == line_cmt[1, 0]):
            j = _comment_end(buf, i, n, line_cmt, line_len, bopen, bclose, has_block, nest)
        if j != i:
            i = j
            continue
        kind = OPERATOR
        j = 0
        if b == 34 or b == 39 or b == 96:
            if b == 39 and flags[F_SQ] == SQ_CHAR:
                j = _char_end(buf, i, n)
                kind = CHAR
            else:
                j = _string_at(buf, i, n, flags)
                kind = STRING
        elif (b == 64 or b == 36) and flags[F_AT_STRING] and i + 1 < n and \
                (buf[i + 1] == 34 or (i + 2 < n and buf[i + 2] == 34 and
                                      (buf[i + 1] == 64 or buf[i + 1] == 36))):
            q = i + 1 if buf[i + 1] == 34 else i + 2
            j = _quoted(buf, q, n, 34, 1, b == 36 and buf[i + 1] == 34, True)
            kind = STRING
        elif 48 <= b <= 57 or (b == 46 and i + 1 < n and 48 <= buf[i + 1] <= 57):
            j = _number_end(buf, i, n)
            kind = NUMBER
        elif _is_ident_start(b):
            w = i + 1
            while w < n and _is_ident(buf[w]):
                w += 1
            j = 0
            if w < n and (buf[w] == 34 or buf[w] == 39 or buf[w] == 35):
                j = _prefixed_string(buf, i, w, n, flags, prefix_ok)
            kind = STRING if j else WORD
            if j == 0:
                j = w
        elif b == 35 and flags[F_DIRECTIVES]:
            j = _directive_end(buf, i, n)
            kind = DIRECTIVE
        if j == 0:
            kind = OPERATOR
            j = i + 1
            if i + 1 < n and op2[np.int64(b) | (np.int64(buf[i + 1]) << 8)] != 0:
                j = _operator_end(buf, i, n, op2, ops_long)
        if write:
            kinds[t] = kind
            starts[t] = i
            ends[t] = j
        t += 1
        i = j
    return t


@jit()
def hash_tokens(buf, kinds, starts, ends, hashes):  # type: ignore[no-untyped-def]
    """FNV-1a of each token's bytes (blanks inside a directive skipped, so
    ``#  include`` hashes as ``#include``)."""
    for t in range(kinds.shape[0]):
        h = _FNV_OFFSET
        directive = kinds[t] == DIRECTIVE
        for k in range(starts[t], ends[t]):
            b = buf[k]
            if directive and (b == 32 or b == 9):
                continue
            h = (h ^ np.uint64(b)) * _FNV_PRIME
        hashes[t] = h
