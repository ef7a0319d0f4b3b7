"""Timing ParameterMixing's set-up (the time before its first round), for the
measurement scripts of issue 38."""

import time


def print_setups(label, fit, describe, times=2):
    """Call ``fit()`` (a fresh ``ParameterMixing`` fit) ``times`` times; print, after
    ``label``, ``describe(model)``'s words, the set-up (the first round's elapsed time
    less its own seconds) and the whole fit's wall time."""
    for _ in range(times):
        start = time.perf_counter()
        model = fit()
        wall = time.perf_counter() - start
        first = model.history_[0]
        print(f"{label}: {describe(model, 'head')}; set-up "
              f"{first['elapsed'] - first['seconds']:.2f} s, fit {wall:.2f} s, "
              f"{describe(model, 'tail')}", flush=True)  # fmt: skip


def brown_dev_setups(label, tokens, max_iter, **params):
    """:func:`print_setups` of ``ParameterMixing`` on Brown with a development set as
    large as its training data: beam 4 + max-violation, 2 shards on 2 loky workers,
    ``max_iter`` rounds, 10,000 sentences to train and 11,000 held out; raw words
    (``tokens``, featurised by ``TokenFeatures()``) or the tutorial's token dicts.
    ``params`` go to ``ParameterMixing``."""
    from _corpora import brown_pos

    from skstruct import BeamSearch, ParameterMixing, StructuredPerceptron, TokenFeatures

    X, y, X_dev, y_dev = brown_pos(n_train=20000, tokens=tokens)
    learner = StructuredPerceptron(
        BeamSearch(beam_size=4), update="max_violation", random_state=0,
        features=TokenFeatures() if tokens else None,
    )  # fmt: skip

    def mixing():
        return ParameterMixing(
            learner, n_shards=2, n_jobs=2, max_iter=max_iter, random_state=0, **params
        )

    mixing().fit(X[:300], y[:300], X_dev=X_dev[:50], y_dev=y_dev[:50])  # workers started
    X_train, y_train = X[:10000], y[:10000]
    X_held, y_held = X[10000:] + X_dev, y[10000:] + y_dev

    def describe(model, part):
        if part == "head":
            return f"dev {len(X_held)} sentences"
        return f"dev scores {[round(r['dev_score'], 5) for r in model.history_]}"

    print_setups(
        label, lambda: mixing().fit(X_train, y_train, X_dev=X_held, y_dev=y_held), describe
    )
