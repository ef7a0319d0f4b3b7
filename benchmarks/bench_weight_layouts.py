"""Emission weight layouts compared: sparse rows (skstruct's), a dense matrix, a hashed table.

The three ways of storing a chain's (feature, label) emission weights that issue 16
weighed, trained by the same averaged perceptron (10 epochs, CSP updates) on the same
token dicts, in one process:

- ``rows``: skstruct's layout: each feature's row holds the labels it was updated
  with (``StructuredPerceptron``; the model equals the dense one exactly);
- ``dense``: a (features x labels) matrix, as skstruct kept before;
- ``hashed 2^b``: (feature, label) pairs hashed into a table of ``2^b`` weights
  (collisions share a weight; no vocabulary of pairs is kept).

``dense`` and ``hashed`` run in one numba kernel written here for the comparison
(scoring reads ``w[index(f, k)]`` for every label; the update writes it), so the
three differ only by the layout. Printed: accuracy (span F1 for chunking), seconds
per epoch, weights held (with the averaging sums: two floats per weight).

Corpora: CoNLL-2000 chunking (22 labels, first-order Viterbi) and the first 10,000
Brown sentences with 472 tags (zeroth-order chain, a per-token multiclass
perceptron: first-order Viterbi over 472 tags costs O(L^2) per token whatever the
layout, which would hide what the layout costs).

Run: ``python benchmarks/bench_weight_layouts.py``
"""

import itertools
import time

import numpy as np
from _corpora import brown_pos
from numba import njit

from skstruct import StructuredPerceptron, Viterbi
from skstruct._kernels.chain import _decode_into, epoch_scratch
from skstruct._kernels.values import feature_value
from skstruct.datasets import fetch_conll2000
from skstruct.features import crfsuite_tutorial_features
from skstruct.metrics import span_f1_score, token_accuracy

_MIX = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _index(f, k, n_labels, hash_bits):
    if hash_bits == 0:
        return f * n_labels + k
    h = (np.uint64(f) * np.uint64(n_labels) + np.uint64(k)) * _MIX
    return np.int64(h >> np.uint64(64 - hash_bits))


@njit(cache=True)
def _epoch(indptr, indices, data, offsets, labels, visit, emission, emission_sum,
           dense, dense_sum, n_labels, order, n_seen, hash_bits):  # fmt: skip
    L = n_labels
    transition = dense[: L * L].reshape((L, L))
    start, stop = dense[L * L : L * L + L], dense[L * L + L :]
    unary, backptr, backptr2, pred = epoch_scratch(offsets, L, None, order)
    trigram = None  # orders 0 and 1 only: no second-order code
    correct = 0
    for i in visit:
        lo, hi = offsets[i], offsets[i + 1]
        n = hi - lo
        for t in range(lo, hi):
            for k in range(L):
                unary[t - lo, k] = 0.0
            for j in range(indptr[t], indptr[t + 1]):
                f, v = indices[j], feature_value(data, j)
                for k in range(L):
                    unary[t - lo, k] += v * emission[_index(f, k, L, hash_bits)]
        _decode_into(unary, n, transition, start, stop, trigram, order, backptr, backptr2, pred)
        gold = labels[lo:hi]
        wrong = False
        for pos in range(n):
            if pred[pos] != gold[pos]:
                wrong = True
            else:
                correct += 1
        if wrong:
            for scale, w, wd in ((1.0, emission, dense), (float(n_seen), emission_sum, dense_sum)):
                tr = wd[: L * L].reshape((L, L))
                for pos in range(n):
                    g, p = gold[pos], pred[pos]
                    if g != p:
                        for j in range(indptr[lo + pos], indptr[lo + pos + 1]):
                            f, v = indices[j], scale * feature_value(data, j)
                            w[_index(f, g, L, hash_bits)] += v
                            w[_index(f, p, L, hash_bits)] -= v
                if order == 1:
                    if gold[0] != pred[0]:
                        wd[L * L + gold[0]] += scale
                        wd[L * L + pred[0]] -= scale
                    if gold[n - 1] != pred[n - 1]:
                        wd[L * L + L + gold[n - 1]] += scale
                        wd[L * L + L + pred[n - 1]] -= scale
                    for pos in range(1, n):
                        if gold[pos - 1] != pred[pos - 1] or gold[pos] != pred[pos]:
                            tr[gold[pos - 1], gold[pos]] += scale
                            tr[pred[pos - 1], pred[pos]] -= scale
        n_seen += 1
    return n_seen, correct


@njit(cache=True)
def _predict(indptr, indices, data, offsets, emission, dense, n_labels, order, hash_bits):
    L = n_labels
    transition = dense[: L * L].reshape((L, L))
    start, stop = dense[L * L : L * L + L], dense[L * L + L :]
    unary, backptr, backptr2, pred = epoch_scratch(offsets, L, None, order)
    out = np.empty(offsets[-1], dtype=np.int32)
    trigram = None  # orders 0 and 1 only: no second-order code
    for i in range(offsets.shape[0] - 1):
        lo, hi = offsets[i], offsets[i + 1]
        for t in range(lo, hi):
            for k in range(L):
                unary[t - lo, k] = 0.0
            for j in range(indptr[t], indptr[t + 1]):
                f, v = indices[j], feature_value(data, j)
                for k in range(L):
                    unary[t - lo, k] += v * emission[_index(f, k, L, hash_bits)]
        _decode_into(unary, hi - lo, transition, start, stop, trigram, order, backptr,
                     backptr2, pred)  # fmt: skip
        out[lo:hi] = pred[: hi - lo]
    return out


def _table_layout(model, X, y, X_test, hash_bits, n_epochs=10):
    """Train the comparison kernel with the fitted model's vocabulary and label ids."""
    encoded, labels = model.encode(X, y)
    test = model.encode(X_test)
    L, order = model.classes_.size, model.structure_.order
    size = encoded.n_features * L if hash_bits == 0 else 1 << hash_bits
    emission, emission_sum = np.zeros(size), np.zeros(size)
    dense, dense_sum = np.zeros(L * L + 2 * L), np.zeros(L * L + 2 * L)
    arrays = (encoded.indptr, encoded.indices, encoded.data, encoded.offsets)
    rng, n_seen, seconds = np.random.RandomState(0), 0, []
    for _ in range(n_epochs):
        visit = rng.permutation(encoded.n_sentences)
        start = time.perf_counter()
        n_seen, _ = _epoch(*arrays, labels, visit, emission, emission_sum, dense, dense_sum,
                           L, order, n_seen, hash_bits)  # fmt: skip
        seconds.append(time.perf_counter() - start)
    emission = emission - emission_sum / n_seen
    dense = dense - dense_sum / n_seen
    ids = _predict(test.indptr, test.indices, test.data, test.offsets, emission, dense, L,
                   order, hash_bits)  # fmt: skip
    return model.classes_[ids].tolist(), float(np.median(seconds)), 2 * (size + dense.size)


def _compare(name, X, y, X_test, y_test, order, score):
    model = StructuredPerceptron(Viterbi(order=order), max_iter=10, random_state=0)
    model.fit(X[:5], y[:5])  # compile outside the timings
    model.fit(X, y)
    flat = [label for seq in model.predict(X_test) for label in seq]
    bounds = np.cumsum([0] + [len(s) for s in y_test])
    results = {
        "rows": (
            [flat[a:b] for a, b in itertools.pairwise(bounds)],
            float(np.median([r["seconds"] for r in model.history_])),
            2 * model._weights.coef.size,
        )
    }
    for label, bits in (("dense", 0), ("hashed 2^18", 18), ("hashed 2^22", 22)):
        _table_layout(model, X[:5], y[:5], X_test[:5], bits, n_epochs=1)  # compile
        pred, epoch, n_weights = _table_layout(model, X, y, X_test, bits)
        results[label] = ([pred[a:b] for a, b in itertools.pairwise(bounds)], epoch, n_weights)
    print(f"\n{name}: {model.classes_.size} labels, {model.structure_.n_features} features")
    print(f"{'layout':<12} {'score':>7} {'s/epoch':>8} {'weights held':>13}")
    for label, (pred, epoch, n_weights) in results.items():
        print(f"{label:<12} {100 * score(y_test, pred):7.2f} {epoch:8.3f} {n_weights:13,d}")


def main():
    train, test = fetch_conll2000("train"), fetch_conll2000("test")
    X, X_test = crfsuite_tutorial_features(train.data), crfsuite_tutorial_features(test.data)
    _compare("CoNLL-2000 (order 1, span F1)", X, train.target, X_test, test.target, 1,
             span_f1_score)  # fmt: skip
    X, y, X_test, y_test = brown_pos(10_000, 2_000)
    _compare("Brown 10k (order 0, token accuracy)", X, y, X_test, y_test, 0, token_accuracy)


if __name__ == "__main__":
    main()
