"""All-against-all groups: checked against checksums and an independent brute force."""

from __future__ import annotations

import hashlib
import json
import math
import random
import shutil
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from winnow.cli import main
from winnow.engine import fingerprint
from winnow.errors import InvalidConfig
from winnow.frontends.sniff import sniff
from winnow.index import SIF_DEFAULT, FingerprintIndex
from winnow.sif.build import update_index
from winnow.sif.groups import (
    Group,
    GroupOptions,
    find_groups,
    load_pairs,
    representatives,
    similar_sets,
)
from winnow.sif.interesting import interesting_sets

_VOCAB_RNG = random.Random(0)
VOCAB = [bytes(_VOCAB_RNG.choice(b"abcdefghijklmnopqrstuvwxyz")
               for _ in range(_VOCAB_RNG.randint(2, 8))) for _ in range(3000)]


def words(rng: random.Random, size: int) -> bytes:
    out = b" ".join(rng.choices(VOCAB, k=size // 3 + 1))
    return out[:size]


def edit(rng: random.Random, data: bytes, fraction: float) -> bytes:
    """Replace about ``fraction`` of ``data`` with fresh words, in 200-byte pieces."""
    out = bytearray(data)
    for _ in range(int(len(data) * fraction / 200)):
        at = rng.randrange(0, max(1, len(out) - 200))
        out[at: at + 200] = words(rng, 200)
    return bytes(out)


def make_tree(root: Path, seed: int = 7) -> None:
    """Originals, exact copies, edited versions, containments, unrelated files, binaries."""
    rng = random.Random(seed)
    bases = [words(rng, rng.randint(8_000, 30_000)) for _ in range(6)]
    files: dict[str, bytes] = {}
    for i, base in enumerate(bases):
        files[f"orig/{i}.txt"] = base
        files[f"copies/{i}.txt"] = base if i % 2 == 0 else edit(rng, base, 0.05)
        files[f"edits/{i}a.txt"] = edit(rng, base, 0.3)
        files[f"edits/{i}b.md"] = edit(rng, base, 0.6)
        files[f"parts/{i}.txt"] = base[: len(base) // 3]
    files["parts/combo.txt"] = bases[0] + bases[1]
    files["misc/unrelated.txt"] = words(rng, 12_000)
    files["misc/empty1"] = b""
    files["misc/empty2"] = b""
    files["bin/wrapped.bin"] = b"\x00\x01\x02" * 50 + bases[2]  # text inside a binary
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("groups")
    make_tree(tmp / "tree")
    with FingerprintIndex(tmp / "i.db") as index:
        update_index(index, [tmp / "tree"])
    return tmp / "tree", tmp / "i.db"


def brute_force(root: Path, threshold: float) -> list[tuple[str, list[tuple[str, float]]]]:
    """sif's grouping computed straight from the files, with Python sets."""
    contents: dict[str, list[str]] = defaultdict(list)
    for path in sorted(str(p) for p in root.rglob("*") if p.is_file()):
        contents[hashlib.blake2b(Path(path).read_bytes(), digest_size=16).hexdigest()].append(path)
    reps = sorted(paths[0] for paths in contents.values())
    sets = {}
    for path in reps:
        data = Path(path).read_bytes()
        fps = set(fingerprint(np.frombuffer(data, dtype=np.uint8), SIF_DEFAULT)["hash"].tolist())
        if fps:
            sets[path] = (fps, sniff(data).kind)
    out, seen = [], set()
    for ref in sorted(sets):
        f_ref, bin_ref = sets[ref]
        members = []
        for other, (f_other, bin_other) in sets.items():
            if other != ref and bin_ref == bin_other:
                share = len(f_ref & f_other) / len(f_ref)
                if share >= threshold and f_ref & f_other:
                    members.append((other, share))
        members.sort(key=lambda m: (-m[1], m[0]))
        key = frozenset([ref, *(m for m, _ in members)])
        if members and key not in seen:
            seen.add(key)
            out.append((ref, members))
    return out


def as_tuples(groups: list) -> list[tuple[str, list[tuple[str, float]]]]:  # type: ignore[type-arg]
    return [(g.members[0].path, [(m.path, pytest.approx(m.similarity)) for m in g.members[1:]])
            for g in groups]


def test_identical_groups_equal_checksum_grouping(indexed: tuple[Path, Path]) -> None:
    root, db = indexed
    by_sum: dict[bytes, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.stat().st_size:
            by_sum[hashlib.sha256(path.read_bytes()).digest()].append(str(path))
    expected = sorted(paths for paths in by_sum.values() if len(paths) > 1)
    with FingerprintIndex(db, read_only=True) as index:
        result = find_groups(index, GroupOptions())
    assert [[m.path for m in g.members] for g in result.identical] == expected
    assert len(expected) == 3


@pytest.mark.parametrize("threshold", [0.25, 0.5, 0.8])
def test_similar_groups_match_brute_force(indexed: tuple[Path, Path], threshold: float) -> None:
    root, db = indexed
    with FingerprintIndex(db, read_only=True) as index:
        result = find_groups(index, GroupOptions(threshold=threshold))
    assert as_tuples(result.similar) == brute_force(root, threshold)
    assert result.similar


def test_rethresholding_reads_no_file(tmp_path: Path) -> None:
    make_tree(tmp_path / "tree")
    db = tmp_path / "i.db"
    with FingerprintIndex(db) as index:
        update_index(index, [tmp_path / "tree"])
        before = {t: find_groups(index, GroupOptions(threshold=t)) for t in (0.3, 0.7)}
    shutil.rmtree(tmp_path / "tree")  # nothing left to read
    with FingerprintIndex(db, read_only=True) as index:
        for threshold, expected in before.items():
            again = find_groups(index, GroupOptions(threshold=threshold, size_ratio=0.0))
            assert as_tuples(again.similar) == as_tuples(expected.similar)
        loose = find_groups(index, GroupOptions(threshold=0.1, same_suffix=True))
    assert len(before[0.3].similar) >= len(before[0.7].similar)
    assert all(len({Path(m.path).suffix for m in g.members}) == 1 for g in loose.similar)


def test_filters(indexed: tuple[Path, Path]) -> None:
    _root, db = indexed
    with FingerprintIndex(db, read_only=True) as index:
        plain = find_groups(index, GroupOptions(threshold=0.2))
        ratio = find_groups(index, GroupOptions(threshold=0.2, size_ratio=0.8))
        mixed = find_groups(index, GroupOptions(threshold=0.2, mix_kinds=True))
    assert ratio.similar and len(ratio.similar) < len(plain.similar)
    for g in ratio.similar:
        ref = g.members[0].size
        assert all(min(ref, m.size) >= 0.8 * max(ref, m.size) for m in g.members[1:])

    def blob_grouped(result: object) -> bool:
        return any(any(m.path.endswith("wrapped.bin") for m in g.members)
                   for g in result.similar)  # type: ignore[attr-defined]

    assert not blob_grouped(plain) and blob_grouped(mixed)


def test_interesting_sets_are_the_maximal_cliques(indexed: tuple[Path, Path]) -> None:
    _root, db = indexed
    threshold = 0.4
    with FingerprintIndex(db, read_only=True) as index:
        pairs = load_pairs(index, representatives(index.documents()), GroupOptions())
    edges = set()
    distinct = [d.n_distinct for d in pairs.docs]
    for a, b, s in zip(pairs.a.tolist(), pairs.b.tolist(), pairs.shared.tolist(), strict=True):
        if s / min(distinct[a], distinct[b]) >= threshold:
            edges.add((min(a, b), max(a, b)))
    adjacent = defaultdict(set)
    for x, y in edges:
        adjacent[x].add(y)
        adjacent[y].add(x)
    cliques: set[frozenset[int]] = set()
    level = {frozenset([n]) for n in adjacent}
    while level:  # every clique, grown one node at a time (small graph)
        cliques |= level
        level = {c | {n} for c in level for n in set.intersection(*(adjacent[m] for m in c))
                 if n not in c}
    maximal = [set(c) for c in cliques
               if len(c) > 1 and not any(c < other for other in cliques)]
    found = [set(c) for c in interesting_sets(pairs, threshold)]
    assert sorted(map(sorted, found)) == sorted(map(sorted, maximal))
    assert any(len(c) > 2 for c in found)


def test_greedy_fallback_gives_maximal_cliques_covering_every_edge(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import winnow.sif.interesting as interesting

    rng = random.Random(4)
    graph: dict[int, set[int]] = defaultdict(set)
    for _ in range(300):  # a dense random graph
        a, b = rng.sample(range(40), 2)
        graph[a].add(b)
        graph[b].add(a)
    exact = {frozenset(c) for c in interesting.maximal_cliques(graph)}
    monkeypatch.setattr(interesting, "BUDGET", 1)
    greedy = [frozenset(c) for c in interesting.maximal_cliques(graph)]
    for clique in greedy:
        assert all(b in graph[a] for a in clique for b in clique if a != b)  # a clique
        assert not set.intersection(*(graph[m] for m in clique)) - clique  # maximal
    assert set(greedy) <= exact
    edges = {frozenset((a, b)) for a in graph for b in graph[a]}
    assert all(any(e <= c for c in greedy) for e in edges)  # every similar pair shown


def test_group_options_are_validated_with_every_problem_at_once() -> None:
    with pytest.raises(InvalidConfig) as caught:
        GroupOptions(threshold=1.5, size_ratio=2.0, max_df=1)
    assert [p.split(" must")[0] for p in caught.value.problems] == [
        "threshold", "size_ratio", "max_df"]
    with pytest.raises(InvalidConfig, match="threshold"):
        GroupOptions(threshold=float("nan"))
    assert GroupOptions(threshold=0.0, size_ratio=1.0, max_df=2).max_df == 2
    assert GroupOptions(threshold=1).threshold == 1  # an int is a number too


def test_a_percentage_is_refused_naming_the_fraction_it_meant() -> None:
    # the library took percents before; 50 must not silently mean "more than all"
    with pytest.raises(InvalidConfig, match=r"threshold must be a fraction from 0 to 1, "
                                            r"got 50; did you mean 0\.5 \(50%\)\?"):
        GroupOptions(threshold=50)
    with pytest.raises(InvalidConfig, match="size_ratio must be a fraction"):
        GroupOptions(size_ratio=80.0)
    with pytest.raises(InvalidConfig, match="threshold"):
        GroupOptions(threshold=True)


@pytest.mark.parametrize("threshold", ["0.3", "0.5"])
def test_a_fraction_in_gives_the_groups_the_cli_prints(indexed: tuple[Path, Path],
                                                        threshold: str) -> None:
    """The library and ``winnow groups`` take the same unit: the same fraction gives
    the same groups, the same shares (rounded down to 4 decimals in JSON)."""
    _root, db = indexed
    out = CliRunner().invoke(main, ["groups", "--db", str(db), "--threshold", threshold,
                                    "--interesting", "--sort", "path", "--format", "json"],
                             catch_exceptions=False)
    assert out.exit_code == 0, out.stderr
    printed = json.loads(out.stdout)
    with FingerprintIndex(db, read_only=True) as index:
        result = find_groups(index, GroupOptions(threshold=float(threshold), interesting=True))
    assert printed["options"]["threshold"] == result.options.threshold == float(threshold)

    def shown(groups: list[Group]) -> list[list[tuple[str, float]]]:
        return [[(m.path, math.floor(m.similarity * 10_000 + 1e-5) / 10_000)
                 for m in g.members] for g in groups]

    by_kind: dict[str, list[list[tuple[str, float]]]] = defaultdict(list)
    for group in printed["groups"]:
        by_kind[group["kind"]].append([(m["path"], m["similarity"]) for m in group["members"]])
    assert by_kind["similar"] == shown(result.similar) and by_kind["similar"]
    assert by_kind["interesting"] == shown(result.interesting or [])
    assert by_kind["identical"] == shown(result.identical)
    assert all(0 < sim <= 1 for g in by_kind["similar"] for _, sim in g)


def test_a_pair_at_exactly_the_threshold_passes_at_every_threshold() -> None:
    """With fractions in, ``k`` shared of 100 passes ``k / 100`` for every ``k``; the
    old ``100 * threshold`` conversion made 0.07 into 7.000000000000001 and lost it."""
    from winnow.index.store import DocRow
    from winnow.sif.interesting import similarity_graph
    from winnow.sif.shares import Pairs

    docs = [DocRow(i, f"/f{i}", 1000, 0, f"sum{i}", "text", "code", 100, 100) for i in (0, 1)]
    one = np.array([1], dtype=np.int64)
    for k in range(1, 100):
        pairs = Pairs(docs, np.array([0], dtype=np.int64), one, np.array([k], dtype=np.int64))
        assert similar_sets(pairs, k / 100) == [(0, [(1, k / 100)])], k
        assert similarity_graph(pairs, k / 100) == {0: {1}, 1: {0}}, k
        assert similar_sets(pairs, (k + 1) / 100) == [], k
