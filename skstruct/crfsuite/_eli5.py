"""eli5's ``explain_weights`` and ``explain_prediction`` for
:class:`skstruct.crfsuite.CRF`, registered with eli5 when eli5 is imported.

eli5 explains ``sklearn_crfsuite.CRF`` by a function that imports
``sklearn_crfsuite`` itself, so it neither applies to this class nor runs where
sklearn-crfsuite is not installed; these are written against eli5's public
explanation types instead. Importing eli5 takes seconds, so skstruct never imports it:
when eli5 is imported (before or after skstruct), the two functions are registered
with it (``install_hook``).
"""

import importlib.abc
import importlib.machinery
import sys
import warnings

import numpy as np

from ..inspect import explain_prediction
from ._estimator import CRF

#: What eli5 must have imported for the functions to be registered.
ELI5 = "eli5"


def explain_weights_crf(crf, top=20, target_names=None, targets=None, feature_re=None,
                        feature_filter=None):  # fmt: skip
    """eli5's ``explain_weights`` for a fitted :class:`skstruct.crfsuite.CRF`: the
    ``top`` state features of each label (attribute weights) and the transition
    weights, as eli5 shows them for sklearn-crfsuite (the same parameters)."""
    from eli5._feature_names import FeatureNames
    from eli5._feature_weights import get_top_features
    from eli5.base import Explanation, TargetExplanation, TransitionFeatureWeights
    from eli5.utils import get_target_display_names

    classes = list(crf.classes_)
    names = np.array(crf.attributes_, dtype=object)
    column = {name: j for j, name in enumerate(crf.attributes_)}
    state = np.zeros((len(classes), len(names)))
    for (attribute, label), weight in crf.state_features_.items():
        state[classes.index(label), column[attribute]] = weight
    if feature_filter is not None or feature_re is not None:
        kept, columns = FeatureNames(names).handle_filter(feature_filter, feature_re)
        names, state = np.array(kept.feature_names, dtype=object), state[:, columns]
    transition = np.array(
        [[crf.transition_features_.get((a, b), 0.0) for b in classes] for a in classes]
    )
    if targets is None:  # eli5's order for entity labels: O, then B-X with I-X
        targets = sorted(classes, key=_entity_order)
    shown = get_target_display_names(classes, target_names, targets)
    indices = [i for i, _ in shown]
    return Explanation(
        estimator=repr(crf),
        method="CRF",
        targets=[
            TargetExplanation(target=name, feature_weights=get_top_features(names, state[i], top))
            for i, name in shown
        ],
        transition_features=TransitionFeatureWeights(
            class_names=[name for _, name in shown], coef=transition[np.ix_(indices, indices)]
        ),
    )


def _entity_order(label):
    """Labels such as B-ORG and I-ORG together, by entity type; others first."""
    return (label.split("-", 1)[1], label) if label[1:2] == "-" else ("", label)


def explain_prediction_crf(crf, doc, top=20):
    """eli5's ``explain_prediction`` for a fitted :class:`skstruct.crfsuite.CRF` and one
    sequence ``doc`` (a list of feature dicts): a target per item, ``"i: label"`` for
    its predicted label, whose features are the parts of that label's score there
    (:func:`skstruct.inspect.explain_prediction`: attributes, value times weight, and
    the transitions and start/stop weights around it)."""
    from eli5.base import Explanation, FeatureWeight, FeatureWeights, TargetExplanation

    model = crf._model()
    labels = crf.predict_single(doc)
    targets = []
    for position, label in enumerate(labels):
        rows = explain_prediction(model, doc, position)
        rows = list(zip(*[rows[c] for c in rows.columns])) if hasattr(rows, "columns") else rows
        weights = [FeatureWeight(part, contribution, value=value)
                   for part, value, _, contribution in rows]  # fmt: skip
        pos = [w for w in weights if w.weight > 0][:top]
        neg = [w for w in weights if w.weight < 0][:top]
        targets.append(
            TargetExplanation(
                target=f"{position}: {label}",
                feature_weights=FeatureWeights(pos=pos, neg=neg),
                score=float(sum(w.weight for w in weights)),
            )
        )
    return Explanation(estimator=repr(crf), method="CRF", targets=targets)


def register():
    """Register both functions with eli5 (eli5 must be importable); an eli5 without
    the registries these use gets a warning, not an error."""
    try:
        from eli5.explain import explain_prediction, explain_weights
    except ImportError as exc:
        warnings.warn(f"skstruct.crfsuite could not register with eli5: {exc}", stacklevel=2)
        return

    explain_weights.register(CRF)(explain_weights_crf)
    explain_prediction.register(CRF)(explain_prediction_crf)


class _RegisterAfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: when eli5 is being imported, wraps its loader so that
    :func:`register` runs once eli5 is loaded, then steps aside."""

    def find_spec(self, name, path, target=None):
        if name != ELI5:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        loader = spec.loader

        class Loader(importlib.abc.Loader):
            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                loader.exec_module(module)
                _remove_hook()
                register()

        spec.loader = Loader()
        return spec


def install_hook():
    """Register now if eli5 is imported already, else when it is."""
    if ELI5 in sys.modules:
        register()
    elif not any(isinstance(finder, _RegisterAfterImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _RegisterAfterImport())


def _remove_hook():
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _RegisterAfterImport)]
