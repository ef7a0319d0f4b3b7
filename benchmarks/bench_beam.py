"""Beam search and violation-fixing updates on POS tagging: Huang et al. (2012), Table 1.

Trigram tagger (``order=2``) on the PTB sample (``fetch_ptb_sample``: train
wsj_0001-0159, dev 0160-0179, test 0180-0199; tags from the XPOS column), with
Ratnaparkhi (1996) spelling features and one-count training words replaced by
``<unk>``, as in the paper's baseline. For beam sizes 1, 2, 4, 7 and the updates
standard, early and max-violation (plus exact second-order Viterbi with the standard
update): held-out accuracy per epoch, the epoch of the best held-out accuracy, test
accuracy of that epoch's weights, training time, and the percentage of invalid
standard updates (the paper's Figure 5).

Run: ``python benchmarks/bench_beam.py [--max-iter 12]``
The corpora come from the ``fetch_*`` functions of ``skstruct.datasets``: read from
``$SKSTRUCT_DATA`` or ``~/skstruct_data``, and downloaded there when missing.
"""

import argparse
import time
from collections import Counter

import numpy as np

from skstruct import BeamSearch, StructuredPerceptron, Viterbi
from skstruct.datasets import fetch_ptb_sample

UNK = "<unk>"


def ratnaparkhi_features(sentence, frequent):
    """Token dicts: word (or <unk>) and the words two either side; spelling features
    (affixes up to 4, digit, upper case, hyphen) for rare and unknown words."""
    words = [w if w in frequent else UNK for w in sentence]
    out = []
    for i, raw in enumerate(sentence):
        features = {"bias": 1.0, "w": words[i]}
        for offset in (-2, -1, 1, 2):
            j = i + offset
            features[f"w{offset:+d}"] = words[j] if 0 <= j < len(sentence) else "<edge>"
        if words[i] == UNK:
            for k in range(1, min(4, len(raw)) + 1):
                features[f"prefix{k}"] = raw[:k]
                features[f"suffix{k}"] = raw[-k:]
            features["has_digit"] = any(c.isdigit() for c in raw)
            features["has_upper"] = any(c.isupper() for c in raw)
            features["has_hyphen"] = "-" in raw
        out.append(features)
    return out


def load_split(name):
    X, _ = fetch_ptb_sample(name, return_X_y=True)
    return [[tok["form"] for tok in s] for s in X], [[tok["xpos"] for tok in s] for s in X]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-iter", type=int, default=12)
    parser.add_argument("--beams", type=int, nargs="+", default=[1, 2, 4, 7])
    parser.add_argument(
        "--target", type=float, default=94.3, help="report the first epoch reaching this dev %%"
    )
    args = parser.parse_args()

    (w_train, y_train), (w_dev, y_dev), (w_test, y_test) = map(load_split, ("train", "dev", "test"))
    counts = Counter(w for s in w_train for w in s)
    frequent = {w for w, c in counts.items() if c > 1}
    X_train, X_dev, X_test = (
        [ratnaparkhi_features(s, frequent) for s in split] for split in (w_train, w_dev, w_test)
    )
    n_tags = len({t for s in y_train for t in s})
    print(
        f"PTB sample: {len(X_train)} / {len(X_dev)} / {len(X_test)} sentences, {n_tags} tags, "
        f"{len(counts) - len(frequent)} one-count words -> {UNK}"
    )
    StructuredPerceptron(BeamSearch(order=2), update="early", max_iter=1).fit(
        X_train[:3], y_train[:3]
    ).predict(X_dev[:2])  # compile outside the timings

    configs = [("standard", None)] + [
        (update, beam) for beam in args.beams for update in ("standard", "early", "max_violation")
    ]
    print(
        f"\n{'update':<14}{'beam':>5}{'best dev':>10}{'epoch':>7}{'test':>8}{'time s':>8}"
        f"{'invalid std %':>15}{'to target':>11}   dev accuracy per epoch"
    )
    for update, beam in configs:
        decoder = Viterbi(order=2) if beam is None else BeamSearch(beam_size=beam, order=2)
        model = StructuredPerceptron(
            decoder,
            update=update,
            max_iter=args.max_iter,
            random_state=0,
            n_iter_no_change=args.max_iter,  # never stops early, keeps the best epoch
        )
        start = time.perf_counter()
        model.fit(X_train, y_train, X_dev=X_dev, y_dev=y_dev)
        seconds = time.perf_counter() - start
        dev = [100 * r["dev_score"] for r in model.history_]
        test = 100 * model.score(X_test, y_test)
        if update == "standard" and beam is not None:
            made = sum(r["updates"] for r in model.history_)
            invalid = f"{100 * sum(r['invalid_updates'] for r in model.history_) / made:.1f}"
        else:
            invalid = "-"
        reached = next((str(k + 1) for k, d in enumerate(dev) if d >= args.target), "never")
        print(
            f"{update:<14}{beam if beam else 'exact':>5}{max(dev):10.2f}"
            f"{int(np.argmax(dev)) + 1:7d}{test:8.2f}{seconds:8.1f}{invalid:>15}{reached:>11}   "
            + " ".join(f"{d:.2f}" for d in dev),
            flush=True,
        )


if __name__ == "__main__":
    main()
