"""Dev probe (issue 36), step 2: relabel the pipeline's predicted trees (``train.py``'s
``$UDH/data.pkl``) with other relation labellers; prints UAS / LAS / CLAS (CoNLL 2018).

``python relabel.py SPLIT SPEC ...``: each SPEC is fields of
``../ud_relations_2026-11-29/probe.py`` joined by ``+`` (``base`` for none), optionally
``:name=value,...`` for the labeller's structured SVM (``C``) or ``max_iter``. The
pipeline's own labeller comes first; with three or more, their per-word majority vote
too (ties go to the pipeline's)."""

import os
import pickle
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ud_relations_2026-11-29"))
from probe import NAMES, Probe

from skstruct.metrics import conll18_scores

WORK = os.environ.get("UDH", "/tmp/udh")


def main():
    with open(os.path.join(WORK, "data.pkl"), "rb") as f:
        data = pickle.load(f)
    with open(os.path.join(WORK, "relations.pkl"), "rb") as f:
        pipeline = pickle.load(f)
    train, split = data["train_analysed"], sys.argv[1]
    gold, pred = data["gold"][split], data["pred"][split]

    def figures(labels):
        filled = [[{**t, "deprel": r} for t, r in zip(s, rs)] for s, rs in zip(pred, labels)]
        scores = conll18_scores(gold, filled)
        return "  ".join(f"{k} {100 * scores[k].f1:.2f}" for k in ("UAS", "LAS", "CLAS"))

    results = {"pipeline": pipeline.predict(pred)}
    print("pipeline", figures(results["pipeline"]), flush=True)
    for spec in sys.argv[2:]:
        name, _, params = spec.partition(":")
        settings = dict(kv.split("=") for kv in params.split(",")) if params else {}
        variant = tuple(v for v in name.split("+") if v != "base")
        names = [n for v in variant for n in NAMES[v]]
        labeller = type("Variant", (Probe,), {"variant": variant, "names": names})
        model = labeller(random_state=0, max_iter=int(settings.pop("max_iter", 10)))
        start = time.perf_counter()
        if settings:
            tagger = model._default_tagger().set_params(
                **{k: float(v) for k, v in settings.items()}
            )
            model = labeller(tagger, random_state=0, max_iter=model.max_iter)
        results[spec] = model.fit(train).predict(pred)
        print(spec, figures(results[spec]), f"({time.perf_counter() - start:.0f} s)", flush=True)
    with open(os.path.join(WORK, f"labels_{split}.pkl"), "wb") as f:
        pickle.dump(results, f)
    if len(results) >= 3:
        voted = []
        for i, sentence in enumerate(pred):
            row = []
            for j in range(len(sentence)):
                best, count = Counter(r[i][j] for r in results.values()).most_common(1)[0]
                row.append(best if count > 1 else results["pipeline"][i][j])
            voted.append(row)
        print("vote of", list(results), figures(voted), flush=True)


if __name__ == "__main__":
    main()
