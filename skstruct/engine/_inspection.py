"""What sklearn-crfsuite's ``CRF`` shows of a fitted chain model, for every skstruct
chain learner: its weights by name, marginals, per-sentence prediction and a training
log (issue 18 asks for the same names on all of them)."""

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ..structures import LinearChain
from ..utils.validation import examples_from, sequence_chunks


class TrainingLog:
    """Per-iteration records of a fit, shaped as python-crfsuite's log parser shapes
    them (``sklearn_crfsuite.CRF.training_log_``): ``iterations`` is a list of dicts
    with ``num`` and what the learner measured (``loss``, ``feature_norm``,
    ``error_norm``, ``active_features``, ``linesearch_trials``, ``linesearch_step``,
    ``time``: seconds the iteration took; ``scores`` is always empty)."""

    def __init__(self, iterations):
        self.iterations = iterations

    @property
    def last_iteration(self):
        return self.iterations[-1] if self.iterations else None

    def __repr__(self):
        return f"TrainingLog({len(self.iterations)} iterations)"

    @classmethod
    def from_history(cls, history):
        """From a learner's ``history_``: the CRF's iteration records, or a perceptron's
        epoch records (whose ``loss`` is the epoch's mistakes, as CRFsuite's
        perceptron logs the errors it made)."""
        iterations = []
        for number, record in enumerate(history, start=1):
            entry = {"num": number, "scores": {}, "time": record.get("seconds")}
            if "iteration" in record:  # LinearChainCRF
                entry.update(
                    loss=record["loss"],
                    feature_norm=record["feature_norm"],
                    active_features=record["active_features"],
                )
                for ours, theirs in [("pg_norm", "error_norm"), ("step", "linesearch_step"),
                                     ("linesearch_trials", "linesearch_trials"),
                                     ("eta", "eta")]:  # fmt: skip
                    if ours in record:
                        entry[theirs] = record[ours]
            else:
                entry["loss"] = float(record.get("mistakes", np.nan))
            iterations.append(entry)
        return cls(iterations)


class ChainInspectionMixin:
    """sklearn-crfsuite's fitted attributes and methods for a chain model's ``coef_``.

    Attributes are computed from ``coef_`` when asked for (nothing is stored twice).
    Weights are listed only when nonzero, as CRFsuite's model keeps them.
    """

    def _fitted_chain(self, what, order=None):
        check_is_fitted(self, "coef_")
        structure = self.structure_
        if not isinstance(structure, LinearChain):
            raise AttributeError(f"{what} is only defined for sequence labelling (a chain).")
        if order is not None and structure.order != order:
            raise AttributeError(
                f"{what} needs a first-order chain (Viterbi(order=1)); this model has "
                f"order {structure.order}."
            )
        return structure

    @property
    def attributes_(self):
        """Attribute names (python-crfsuite's ``key:value``), in column order."""
        self._fitted_chain("attributes_")
        if self.encoder_.n_features is not None:
            raise AttributeError("attributes_ needs named features (n_features=None).")
        return self.encoder_.get_feature_names_out(separator=":").tolist()

    @property
    def num_attributes_(self):
        """Number of attributes (features) the model knows."""
        return int(self._fitted_chain("num_attributes_").n_features)

    @property
    def size_(self):
        """Bytes of the weights and of their layout."""
        structure = self._fitted_chain("size_")
        return int(self.coef_.nbytes + sum(a.nbytes for a in structure.rows.arrays))

    @property
    def state_features_(self):
        """``{(attribute, label): weight}`` of the nonzero emission weights."""
        structure = self._fitted_chain("state_features_")
        matrix = structure.emission_matrix(self.coef_).tocoo()
        names, classes = self.attributes_, self.classes_.tolist()
        return {
            (names[f], classes[k]): w
            for f, k, w in zip(matrix.row.tolist(), matrix.col.tolist(), matrix.data.tolist())
            if w != 0.0
        }

    @property
    def transition_features_(self):
        """``{(label_from, label_to): weight}`` of the nonzero label-bigram weights."""
        structure = self._fitted_chain("transition_features_")
        if structure.order == 0:
            return {}
        transition = structure.split(self.coef_)[1]
        classes = self.classes_.tolist()
        rows, cols = np.nonzero(transition)
        return {
            (classes[j], classes[k]): float(transition[j, k])
            for j, k in zip(rows.tolist(), cols.tolist())
        }

    @property
    def training_log_(self):
        """The fit's per-iteration records as a :class:`TrainingLog`."""
        check_is_fitted(self, "coef_")
        return TrainingLog.from_history(getattr(self, "history_", []))

    def predict_single(self, xseq):
        """Labels of one sequence (``predict([xseq])[0]``)."""
        return self.predict([xseq])[0]

    def predict_marginals(self, X):
        """Per token, the probability of every label: ``p(y_t = label | x)`` by
        forward-backward over the model's scores.

        Only the label sequences the decoder's ``allowed`` leaves count, and the scores
        are divided by ``temperature_`` once :meth:`calibrate` has fitted it. For
        :class:`~skstruct.learners.crf.LinearChainCRF` these are the model's
        probabilities; for a perceptron's or SVM's weights, which were never trained
        as probabilities, they only rank labels (as CRFsuite's tagger computes them for
        its perceptron models too).

        Parameters
        ----------
        X : list of sequences

        Returns
        -------
        list of list of dict
            For each sequence, for each token, ``{label: probability}``.
        """
        structure, coef = self._probability_coef("predict_marginals")
        classes = self.classes_.tolist()
        result = []
        for start, chunk, _ in sequence_chunks(X):
            with examples_from(start):
                encoded = self.task_.encode_X(self, chunk)
                out = self.token_marginals(encoded, coef, structure)
            bounds = encoded.offsets.tolist()
            rows = out.tolist()
            result.extend(
                [dict(zip(classes, row)) for row in rows[bounds[i] : bounds[i + 1]]]
                for i in range(len(chunk))
            )
        return result

    def predict_marginals_single(self, xseq):
        """:meth:`predict_marginals` of one sequence."""
        return self.predict_marginals([xseq])[0]
