"""``CRF.tagger_``: the parts of python-crfsuite's ``Tagger`` that users of
sklearn-crfsuite call, over a fitted :class:`~skstruct.crfsuite.CRF`.

sklearn-crfsuite's ``tagger_`` is a ``pycrfsuite.Tagger`` opened on the model file;
code written for it calls ``labels()``, ``tag()``, ``set()``, ``probability()``,
``marginal()`` and ``info()``. This one answers them from the fitted model: the same
labels, predictions and probabilities (``p(y | x) ∝ exp(w . phi(x, y))`` over all
label sequences, as CRFsuite's tagger computes them for any of its training
algorithms), with no model file.
"""

from types import SimpleNamespace

import numpy as np


class Tagger:
    """python-crfsuite's ``Tagger`` interface over a fitted CRF (``crf.tagger_``).

    Parameters
    ----------
    crf : skstruct.crfsuite.CRF
        A fitted model.
    model : estimator
        Its fitted learner (``crf.model_``), whose probabilities these are.

    Examples
    --------
    >>> from skstruct import crfsuite
    >>> X = [[{"w": "a"}, {"w": "b"}], [{"w": "b"}]]
    >>> crf = crfsuite.CRF(max_iterations=20).fit(X, [["A", "B"], ["B"]])
    >>> tagger = crf.tagger_
    >>> tagger.labels()
    ['A', 'B']
    >>> tagger.tag(X[0])
    ['A', 'B']
    >>> tagger.set(X[0])
    >>> tagger.probability(["A", "B"]) > tagger.probability(["B", "A"])
    True
    >>> tagger.marginal("A", 0) > 0.5
    True
    """

    def __init__(self, crf, model):
        self._crf, self.model = crf, model
        self._xseq = None

    def labels(self):
        """The labels the model knows, as a list of str."""
        return list(self._crf.classes_)

    def set(self, xseq):
        """Make ``xseq`` (a list of feature dicts) the sequence that :meth:`tag` (without
        an argument), :meth:`probability` and :meth:`marginal` refer to."""
        self._xseq = list(xseq)
        self._marginals = None

    def tag(self, xseq=None):
        """The predicted labels of ``xseq``, or of the sequence :meth:`set` gave."""
        if xseq is None:
            return self._crf.predict_single(self._current())
        self.set(xseq)
        return self._crf.predict_single(self._xseq)

    def probability(self, yseq):
        """The probability of the label sequence ``yseq`` for the sequence :meth:`set`
        gave: ``exp(w . phi(x, y) - log Z(x))``."""
        xseq = self._current()
        if len(yseq) != len(xseq):
            raise ValueError(f"yseq has {len(yseq)} labels for a sequence of {len(xseq)} items.")
        return float(np.exp(self.model._sequence_log_probability(xseq, list(yseq))))

    def marginal(self, y, pos):
        """The marginal probability that item ``pos`` of the sequence :meth:`set` gave is
        labelled ``y``."""
        xseq = self._current()
        if not 0 <= pos < len(xseq):
            raise IndexError(f"pos {pos} is out of range for a sequence of {len(xseq)} items.")
        if y not in self.labels():
            raise ValueError(f"Unknown label {y!r}; the model knows {self.labels()!r}.")
        if self._marginals is None:
            self._marginals = self._crf.predict_marginals_single(xseq)
        return float(self._marginals[pos][y])

    def info(self):
        """The model's content, as python-crfsuite's ``Tagger.info()`` gives it:
        ``header``, ``labels`` and ``attributes`` (name -> id), ``transitions`` ((from,
        to) -> weight) and ``state_features`` ((attribute, label) -> weight)."""
        crf = self._crf
        return SimpleNamespace(
            header={"num_labels": str(len(crf.classes_)), "num_attrs": str(crf.num_attributes_)},
            labels={label: i for i, label in enumerate(crf.classes_)},
            attributes={name: i for i, name in enumerate(crf.attributes_)},
            transitions=dict(crf.transition_features_),
            state_features=dict(crf.state_features_),
        )

    def _current(self):
        if self._xseq is None:
            raise ValueError("No sequence is set: call tagger.set(xseq) first.")
        return self._xseq
