"""The text front-end: combining sequences, growth and resumption of the compiled scan."""

from __future__ import annotations

import unicodedata

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from winnow.frontends import FrontEndOptions, make_document
from winnow.frontends.text import COMPOSITES_BELOW, _composing, char_units
from winnow.model import Document


def units(doc: Document) -> list[str]:
    return [chr(u) for u in doc.stream.units.tolist()]


def spans(doc: Document) -> list[bytes]:
    return [doc.data[a:b] for a, b in zip(doc.stream.starts.tolist(),
                                          doc.stream.ends.tolist(), strict=True)]


def test_decomposed_accent_is_normalised_like_the_precomposed_one() -> None:
    precomposed = make_document("Café Été".encode(), "a.txt")
    decomposed = make_document("Cafe\u0301 E\u0301te\u0301".encode(), "a.txt")
    assert units(precomposed) == units(decomposed) == list("caféété")
    # The composed unit spans the base letter and the combining mark.
    assert spans(decomposed) == [b"C", b"a", b"f", "e\u0301".encode(), "E\u0301".encode(),
                                 b"t", "e\u0301".encode()]
    assert spans(precomposed)[3] == "é".encode()


def test_combining_sequences_in_every_mode() -> None:
    words = FrontEndOptions(unit="words")
    case = FrontEndOptions(keep_case=True)
    for options in (words, case):
        nfc = make_document("Über café, Việt Nam".encode(), "a.txt", options=options)
        nfd = make_document(unicodedata.normalize("NFD", "Über café, Việt Nam").encode(),
                            "a.txt", options=options)
        assert nfc.stream.units.tolist() == nfd.stream.units.tolist()
    assert units(make_document("U\u0308ber".encode(), "a.txt", options=case))[0] == "Ü"


def test_marks_that_compose_with_nothing_are_dropped() -> None:
    doc = make_document("x\u0301y \u0301z".encode(), "a.txt")  # no precomposed x́
    assert units(doc) == ["x", "y", "z"]
    assert spans(doc) == ["x\u0301".encode(), b"y", b"z"]


def test_hangul_jamo_compose_into_syllables() -> None:
    text = "한국어 문장"
    nfd = make_document(unicodedata.normalize("NFD", text).encode(), "a.txt")
    assert units(nfd) == list("한국어문장")
    assert all(len(span) == 6 or len(span) == 9 for span in spans(nfd))


prose = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=120)
marked = st.lists(st.sampled_from(["a", "e", "E", "o", "u", "n", "c", "\u0301", "\u0300",
                                   "\u0302", "\u0308", "\u0323", "\u0327", "\u0316", " ",
                                   "\u1100", "\u1161", "\u11a8", "가", "\u09c7", "\u09be"]),
                  max_size=40).map("".join)


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(prose, marked))
def test_nfc_and_nfd_forms_give_the_same_units(text: str) -> None:
    forms = {form: make_document(unicodedata.normalize(form, text).encode(), "a.txt")
             for form in ("NFC", "NFD")}
    assert forms["NFC"].stream.units.tolist() == forms["NFD"].stream.units.tolist()
    for doc in forms.values():
        starts, ends = doc.stream.starts, doc.stream.ends
        assert np.all(starts < ends) and np.all(np.diff(starts) >= 0)
        for unit, piece in zip(units(doc), spans(doc), strict=True):
            assert unit in unicodedata.normalize("NFKC", piece.decode()).casefold()


def test_composing_characters_match_the_unicode_database() -> None:
    seconds = set()
    for cp in range(0x110000):
        parts = unicodedata.decomposition(chr(cp)).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            assert cp < COMPOSITES_BELOW
            seconds.add(int(parts[1], 16))
    hangul = set(range(0x1161, 0x1176)) | set(range(0x11A8, 0x11C3))
    assert _composing() == seconds | hangul
    assert all(unicodedata.category(chr(cp))[0] == "M" for cp in seconds)


def test_output_grows_when_characters_expand_beyond_their_bytes() -> None:
    # U+FDFA is 3 bytes and NFKC gives 18 characters (the output starts at
    # one unit per byte and must grow, several times over).
    expansion = unicodedata.normalize("NFKC", "\ufdfa").casefold()
    expected = [c for c in expansion if c.isalnum()]
    doc = make_document(("\ufdfa" * 500 + " ok").encode(), "a.txt")
    assert units(doc) == expected * 500 + ["o", "k"]
    assert set(spans(doc)[:-2]) == {"\ufdfa".encode()}


def test_many_new_code_points_and_many_sequences() -> None:
    # More distinct unseen characters than one learning step takes, and more
    # combining sequences than the first buffer holds.
    ideographs = "".join(chr(cp) for cp in range(0x20000, 0x20000 + 6000))
    doc = make_document(ideographs.encode(), "a.txt")
    assert units(doc) == list(ideographs)
    sequences = "e\u0301 " * 3000 + "n\u0303"
    doc = make_document(sequences.encode(), "a.txt")
    assert units(doc) == ["é"] * 3000 + ["ñ"]
    result = char_units(sequences.encode())
    assert result.cps.shape == result.starts.shape == result.ends.shape == (3001,)


def test_a_forked_child_is_not_blocked_by_the_parents_lock() -> None:
    import os
    import time
    import warnings

    from winnow.frontends import text

    make_document("warm ü".encode(), "a.txt")
    with text._LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads
        pid = os.fork()
        if pid == 0:  # the child: the lock it inherited is held by no one
            ok = units(make_document("Fünf e\u0301".encode(), "a.txt")) == list("fünfé")
            os._exit(0 if ok else 1)
    deadline = time.monotonic() + 60
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    if done[0] == 0:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    assert done[0] == pid and os.waitstatus_to_exitcode(done[1]) == 0


def test_invalid_utf8_maps_to_nothing_and_never_poisons_later_files() -> None:
    # F4 90 80 80 would be U+110000 (beyond Unicode), ED A0 80 a surrogate,
    # E0 81 81 an overlong "A": each byte is invalid and maps to nothing, and
    # the characters after it (here a new one and a combining sequence) are
    # still learnt, so the next file of the same process is read correctly.
    cjk = "".join(chr(0x4E00 + i) for i in range(70))
    for bad in (b"\xf4\x90\x80\x80", b"\xed\xa0\x80", b"\xe0\x81\x81"):
        first = char_units(cjk.encode() + bad + "a\u0308 x".encode())
        assert first.cps.tolist() == [ord(c) for c in cjk + "\u00e4x"]
        text = "café e\u0301 then a\u0308 end " * 5
        again = char_units(text.encode())
        assert again.cps.tolist() == char_units(unicodedata.normalize("NFC", text).encode()
                                                ).cps.tolist()
        lone = char_units(b"voil\xc3\xa0 " + bad + "\u0301 voil\u00e0".encode())
        assert lone.cps.tolist() == [ord(c) for c in "voilàvoilà"]


def test_a_long_run_of_marks_is_cut_into_stream_safe_sequences() -> None:
    # normalising a run of n marks is quadratic in n: runs are cut every 30
    # marks (UAX #15's stream-safe format), so each sequence stays short
    from winnow.frontends._text_kernels import MAX_MARKS, find_clusters
    from winnow.frontends.text import _table

    run = "e" + "\u0301" * 200
    data = run.encode()
    table = _table(FrontEndOptions())
    assert char_units(data).cps.tolist() == [ord("\u00e9")]  # the marks themselves drop
    spans = np.empty((64, 2), dtype=np.int64)
    m = int(find_clusters(np.frombuffer(data, dtype=np.uint8), table.index, spans))
    lengths = [len(data[a:b].decode()) for a, b in spans[:m].tolist()]
    assert m == 7 and lengths[0] == MAX_MARKS + 1 and max(lengths[1:]) == MAX_MARKS
    assert spans[0, 0] == 0 and spans[m - 1, 1] == len(data)
    assert (spans[1:m, 0] == spans[:m - 1, 1]).all()  # contiguous, nothing left out


def test_a_word_s_id_is_fnv_1a_of_each_code_point_s_four_bytes() -> None:
    """The compiled word splitter's ids (one multiplication for a code point
    below 256) are FNV-1a 64 of the normalised code points as four
    little-endian bytes each."""
    from winnow.corpus.contamination.tokens import tokens

    def fnv(word: str) -> int:
        h = 0xCBF29CE484222325
        for byte in word.encode("utf-32-le"):
            h = ((h ^ byte) * 0x100000001B3) % 2**64
        return h

    got = tokens("plain Straße, \u4e2d\u6587 \U0001d518x \xff\u0100".encode()).ids
    assert got.tolist() == [fnv(w) for w in ["plain", "strasse", "\u4e2d\u6587", "ux",
                                             "\xff\u0101"]]
