"""Grid search over parameters and pair scores on the labelled sets (for tuning defaults).

    .venv/bin/python benchmarks/tune.py [--sets irplag,soco-java,soco-c,clough]
        [--k 5,8,12] [--w 1,4,8] [--m 0,10] [--keep "",literals] [--unit chars]
        [--literal-k 0,6] [--seed 0,1,2]

Fast because it skips the CLI: each file is read and normalised once per
front-end setting, fingerprinted once per ``(k, w, literal k, seed)`` (with
``--literal-k``, in both channels as ``winnow compare`` does), and only the labelled
pairs are scored, with the same formulas as :mod:`winnow.matching.scores`
(and the IDF of :func:`winnow.tables.idf_weights`) plus candidate
scores not (yet) offered by ``winnow compare``:

* ``wdice``: IDF-weighted Dice, ``2 Σ_{h∈S} idf(h) / (W_a + W_b)``;
* ``wjaccard``: IDF-weighted Jaccard, ``Σ_S idf / (W_a + W_b - Σ_S idf)``;
* ``wcosine``: IDF-weighted cosine (Ochiai), ``Σ_S idf / sqrt(W_a W_b)``, the
  geometric mean of the two weighted containments; ``cosine`` unweighted.

Prints ROC AUC / PR AUC / best F1 per set and score, and for IR-Plag the
ROC AUC of the original against its L4, L5 and L6 copies.  ``winnow
evaluate`` with the same options gives the same figures for the scores it
offers (checked in the commit that changed the defaults).
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import numpy as np

from accuracy import SETS
from winnow.config import WinnowConfig
from winnow.errors import WinnowError
from winnow.evaluation import LabelSet, evaluate, evaluation_rows, load_labels
from winnow.frontends import FrontEndOptions
from winnow.matching import CompareOptions
from winnow.matching.compare import literal_config
from winnow.matching.prints import distinct, document_prints
from winnow.model import Document
from winnow.sources.submissions import ReadOptions, load_submission
from winnow.tables import idf_weights

SCORES = ("dice", "jaccard", "containment-max", "weighted", "wdice", "wjaccard", "wcosine",
          "cosine")


def documents(files: list[str], root: Path, options: FrontEndOptions) -> dict[str, Document]:
    """Every labelled file, read and normalised once (unusable files left out)."""
    read = ReadOptions(options=options)
    out = {}
    for name in files:
        sub = load_submission(str(root / name), read_options=read, name=name)
        try:
            out[name] = sub.files[0].document()
        except (IndexError, WinnowError):
            continue
    return out


def file_prints(doc: Document, config: WinnowConfig, literal_k: int) -> np.ndarray:
    """The distinct fingerprints of one file exactly as ``winnow compare`` takes
    them (both channels when ``literal_k`` is set and the file is code)."""
    literal = literal_config(config, CompareOptions(literal_k=literal_k))
    return distinct(document_prints(doc, config, literal)["hash"])


def pair_scores(prints: dict[str, np.ndarray], pairs: list[tuple[str, str]],
                cap: int) -> dict[str, np.ndarray]:
    """Every candidate score of each labelled pair (a file that could not be read: 0).

    Shared counts come from one product of the dense document x fingerprint
    incidence matrix with its transpose (the sets are small enough).
    """
    names = list(prints)
    index = {name: i for i, name in enumerate(names)}
    allh = np.concatenate([prints[n] for n in names])
    owner = np.repeat(np.arange(len(names)), [prints[n].shape[0] for n in names])
    uniq, column, df = np.unique(allh, return_inverse=True, return_counts=True)
    keep = df <= (cap if cap > 0 else len(names))
    idf = idf_weights(df.astype(np.int64), len(names))
    matrix = np.zeros((len(names), uniq.shape[0]), dtype=np.float32)
    matrix[owner, column] = 1.0
    matrix[:, ~keep] = 0.0
    shared = matrix @ matrix.T
    wshared = (matrix * idf.astype(np.float32)) @ matrix.T
    size, weight = np.diag(shared).astype(np.float64), np.diag(wshared).astype(np.float64)
    ia = np.array([index.get(a, -1) for a, _ in pairs])
    ib = np.array([index.get(b, -1) for _, b in pairs])
    ok = (ia >= 0) & (ib >= 0)
    ia, ib = np.where(ok, ia, 0), np.where(ok, ib, 0)
    s = np.where(ok, shared[ia, ib], 0.0).astype(np.float64)
    ws = np.where(ok, wshared[ia, ib], 0.0).astype(np.float64)
    fa, fb, wa, wb = size[ia], size[ib], weight[ia], weight[ib]

    def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
        out = np.zeros(num.shape[0])
        np.divide(num, den, out=out, where=den > 0)
        return np.minimum(out, 1.0)

    return {"dice": ratio(2 * s, fa + fb), "jaccard": ratio(s, fa + fb - s),
            "containment-max": ratio(s, np.minimum(fa, fb)),
            "weighted": ratio(ws, np.minimum(wa, wb)), "wdice": ratio(2 * ws, wa + wb),
            "wjaccard": ratio(ws, wa + wb - ws), "wcosine": ratio(ws, np.sqrt(wa * wb)),
            "cosine": ratio(s, np.sqrt(fa * fb))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2]
                        / "shared" / "data")
    parser.add_argument("--sets", default="irplag,soco-java,soco-c")
    parser.add_argument("--k", default="5,8,12")
    parser.add_argument("--w", default="1,4,8")
    parser.add_argument("--m", default="0")
    parser.add_argument("--keep", default=",literals")
    parser.add_argument("--unit", default="chars")
    parser.add_argument("--scores", default=",".join(SCORES))
    parser.add_argument("--method", default="robust")
    parser.add_argument("--literal-k", default="0", help="k of the literal channel (0 = off)")
    parser.add_argument("--seed", default="0", help="hash seeds (window selection varies)")
    args = parser.parse_args()
    for set_name in args.sets.split(","):
        spec = SETS[set_name]
        root = args.data / spec.folder
        labels = load_labels(root / spec.labels)
        pairs = [p.key for p in labels.pairs]
        for keep in args.keep.split(","):
            kept = set(keep.split("+")) - {""}
            options = FrontEndOptions(
                unit="words" if args.unit == "words" else "chars",
                keep_literals="literals" in kept, keep_identifiers="identifiers" in kept,
                keep_case="case" in kept, keep_punctuation="punctuation" in kept,
                keep_whitespace="whitespace" in kept)
            files = documents(labels.files(), root, options)
            for k, w, lk, seed in itertools.product(
                    map(int, args.k.split(",")), map(int, args.w.split(",")),
                    map(int, args.literal_k.split(",")), map(int, args.seed.split(","))):
                config = WinnowConfig(k=k, t=k + w - 1, method=args.method, seed=seed)
                prints = {n: file_prints(s, config, lk) for n, s in files.items()}
                for m in map(float, args.m.split(",")):
                    cap = int(np.ceil(m * len(prints))) if 0 < m < 1 else int(m)
                    scores = pair_scores(prints, pairs, cap)
                    for score in args.scores.split(","):
                        report(set_name, labels, pairs, scores[score],
                               f"keep={keep or '-':<10} k={k:<3} w={w:<3} lk={lk} s={seed} "
                               f"m={m:<5} {score:<16}")


def report(set_name: str, labels: LabelSet, pairs: list[tuple[str, str]], values: np.ndarray,
           title: str) -> None:
    similarity = dict(zip(pairs, values.tolist(), strict=True))
    overall = evaluation_rows(evaluate(labels, similarity, group_columns=[]))[0]
    extra = ""
    if set_name == "irplag":
        rows = evaluation_rows(evaluate(labels.where({"kind_a": "original"}), similarity,
                                        group_columns=["kind_b"]))
        extra = " ".join(f"{r['value']}={r['roc_auc']:.2f}" for r in rows[1:]
                         if r["roc_auc"] is not None and r["value"] in ("L4", "L5", "L6"))
    if set_name == "clough":
        rows = evaluation_rows(evaluate(labels, similarity, group_columns=["cat_b"]))
        extra = " ".join(f"{r['value']}={r['roc_auc']:.3f}" for r in rows[1:]
                         if r["roc_auc"] is not None)
    print(f"{set_name:<9} {title} auc {overall['roc_auc']:.3f} ap {overall['pr_auc']:.3f} "
          f"f1 {overall['best_f1']:.3f} thr {overall['threshold']:.3f} {extra}", flush=True)


if __name__ == "__main__":
    main()
