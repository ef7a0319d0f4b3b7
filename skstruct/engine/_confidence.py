"""Confidence of a chain model's predictions: the probability of each predicted entity
(span), and temperature scaling fitted on held-out data so that the probabilities of a
perceptron's or SVM's weights mean something.

The distribution is the chain's: ``p(y | x) ∝ exp(score(y) / T)`` over the label
sequences the decoder's ``allowed`` leaves, ``T`` the fitted ``temperature_`` (1 until
:meth:`ChainConfidenceMixin.calibrate`). The probabilities come from forward-backward
(:func:`~skstruct._kernels.chain_marginals.log_tables`).
"""

import numpy as np
from scipy.optimize import minimize_scalar
from sklearn.utils.validation import check_is_fitted

from .._kernels.chain_marginals import corpus_token_marginals, log_tables
from ..metrics import extract_spans
from ..utils.parts import in_parts
from ..utils.validation import check_sequences_and_labels, examples_from, sequence_chunks

#: The temperatures :meth:`ChainConfidenceMixin.calibrate` searches, as log T.
LOG_TEMPERATURE_BOUNDS = (-10.0, 10.0)


class ChainConfidenceMixin:
    """``predict_spans`` and ``calibrate`` for a first-order chain model's ``coef_``."""

    def _probability_coef(self, name):
        """The chain and the weights its probabilities come from: constrained (a
        forbidden part scores ``-inf``), divided by ``temperature_``."""
        structure = self._fitted_chain(name, order=1)
        coef = structure.constrain(self.coef_)
        return structure, coef / getattr(self, "temperature_", 1.0)

    def _sequence_log_probability(self, xseq, yseq):
        """``log p(yseq | xseq)`` under the distribution of :meth:`predict_marginals`
        (one sequence of features, one of labels: python-crfsuite's
        ``Tagger.probability``)."""
        structure, coef = self._probability_coef("probability")
        labels = self.classes_.tolist()
        unknown = [label for label in yseq if label not in labels]
        if unknown:
            raise ValueError(f"Unknown label {unknown[0]!r}; the model knows {labels!r}.")
        encoded = self.task_.encode_X(self, [xseq])
        scores = structure.scores(encoded, 0, coef)
        path = np.array([labels.index(label) for label in yseq], dtype=np.int32)
        return structure.path_score(scores, path) - _Tables(scores).log_z

    def token_marginals(self, encoded, coef, structure):
        """``p(y_t = k | x)`` (float64 (n_tokens, n_labels)) for encoded sentences."""
        structure.check_lengths(encoded)
        out = np.empty((encoded.n_tokens, structure.n_labels))
        arrays = (encoded.indptr, encoded.indices, encoded.data, encoded.offsets,
                  structure.rows.arrays, coef, structure.n_labels)  # fmt: skip
        in_parts(lambda part: corpus_token_marginals(*arrays, part, out), encoded.offsets,
                 self._prediction_threads())  # fmt: skip
        return out

    def predict_spans(self, X):
        """The entities (chunks) of :meth:`predict`'s labels, each with its probability.

        A span is read from the predicted labels as :func:`~skstruct.metrics.span_f1_score`
        reads chunks (conlleval's rules: IOB1, IOB2, IOE, IOBES). Its confidence is
        the probability, under the model's distribution over the allowed label
        sequences, that the tokens of the span get exactly their predicted labels and
        that the span starts and ends there (the labels beside it do not extend it).
        With ``allowed="bio"`` or ``"bioes"`` that is the probability of the entity
        itself. Forward-backward computes it exactly.

        Parameters
        ----------
        X : list of sequences, or a one-shot iterable of sequences

        Returns
        -------
        list of list of (int, int, str, float)
            Per sequence, ``(start, end, type, confidence)`` per predicted span, tokens
            ``start`` to ``end - 1`` (``end`` exclusive, as a slice).

        Examples
        --------
        >>> from skstruct import StructuredPerceptron, Viterbi
        >>> X = [[{"w": "Ana"}, {"w": "vive"}], [{"w": "vive"}]]
        >>> model = StructuredPerceptron(Viterbi(allowed="bio"), random_state=0)
        >>> model = model.fit(X, [["B-PER", "O"], ["O"]])
        >>> [(s, e, kind, round(p, 2)) for s, e, kind, p in model.predict_spans(X[:1])[0]]
        [(0, 1, 'PER', 0.97)]
        """
        structure, coef = self._probability_coef("predict_spans")
        labels = self.classes_.tolist()
        try:
            continues = _continues(labels)
        except ValueError as exc:
            raise ValueError(f"predict_spans reads entities from chunk labels. {exc}") from None
        found = []
        for start, chunk, _ in sequence_chunks(X):
            with examples_from(start):
                encoded = self.task_.encode_X(self, chunk)
                structure.check_lengths(encoded)
            ids = self._predict_ids(encoded, self.coef_)
            bounds = encoded.offsets
            predicted = [
                [labels[k] for k in ids[bounds[i] : bounds[i + 1]]] for i in range(len(chunk))
            ]
            for i, sentence in enumerate(extract_spans(predicted)):
                if not sentence:
                    found.append([])
                    continue
                scores = structure.scores(encoded, i, coef)
                tables = _Tables(scores)
                path = ids[bounds[i] : bounds[i + 1]]
                probability = tables.span_probability
                found.append([(s, e, kind, probability(path, s, e, continues))
                              for s, e, kind in sentence])  # fmt: skip
        return found

    def calibrate(self, X_dev, y_dev):
        """Fit ``temperature_`` on held-out data: the ``T`` that makes the token
        marginals ``p(y_t | x) ∝ exp(score / T)`` most likely for ``y_dev`` (temperature
        scaling, Guo et al. 2017). :meth:`predict_marginals` and :meth:`predict_spans`
        use it; predictions do not change. A later ``fit`` forgets it.

        Parameters
        ----------
        X_dev, y_dev : list of sequences
            Data the model was not trained on. Labels unseen in training are skipped.

        Returns
        -------
        self : object

        References
        ----------
        C. Guo, G. Pleiss, Y. Sun and K. Weinberger (2017). On Calibration of Modern
        Neural Networks. ICML.
        """
        check_is_fitted(self, "coef_")
        self._fitted_chain("calibrate", order=1)  # refuse other structures first
        X_dev, y_dev = check_sequences_and_labels(X_dev, y_dev, X_name="X_dev", y_name="y_dev")
        self.__dict__.pop("temperature_", None)
        structure, coef = self._probability_coef("calibrate")
        encoded, gold = self.encode(X_dev, y_dev, names=("X_dev", "y_dev"))
        known = np.flatnonzero(gold >= 0)
        if not known.size:
            raise ValueError("y_dev has no label seen in training: nothing to calibrate on.")

        def nll(log_t):
            marginals = self.token_marginals(encoded, coef / np.exp(log_t), structure)
            p = marginals[known, gold[known]]
            return -float(np.sum(np.log(np.maximum(p, 1e-300))))

        best = minimize_scalar(nll, bounds=LOG_TEMPERATURE_BOUNDS, method="bounded")
        self.temperature_ = float(np.exp(best.x))
        return self


def _continues(labels):
    """``continues[a, b]``: label ``b`` after label ``a`` extends a's chunk (conlleval's
    rules, as the span metrics read chunks)."""
    L = len(labels)
    pairs = [[a, b] for a in labels for b in labels]
    joined = [(0, 2) in {(s, e) for s, e, _ in spans} for spans in extract_spans(pairs)]
    return np.array(joined).reshape(L, L)


def _logsumexp(values):
    top = values.max(initial=-np.inf)
    if top == -np.inf:
        return -np.inf
    return top + np.log(np.exp(values - top).sum())


class _Tables:
    """A sentence's forward-backward tables, for the probability of label segments."""

    def __init__(self, scores):
        self.scores = scores
        n, L = scores.unary.shape
        self.alpha, self.beta = np.empty((n, L)), np.empty((n, L))
        self.log_z = log_tables(scores.unary, n, scores.transition, scores.start, scores.stop,
                                self.alpha, self.beta)  # fmt: skip

    def span_probability(self, path, s, e, continues):
        """``p(y[s:e] = path[s:e], y[s-1] does not extend into s, y[e] does not extend
        y[e-1]'s chunk)``."""
        unary, transition = self.scores.unary, self.scores.transition
        first, last = path[s], path[e - 1]
        if s == 0:
            log_p = self.scores.start[first]
        else:
            before = ~continues[:, first]
            log_p = _logsumexp(self.alpha[s - 1, before] + transition[before, first])
        log_p += unary[s, first]
        for t in range(s + 1, e):
            log_p += transition[path[t - 1], path[t]] + unary[t, path[t]]
        if e == unary.shape[0]:
            log_p += self.beta[e - 1, last]
        else:
            after = ~continues[last]
            log_p += _logsumexp(transition[last, after] + unary[e, after] + self.beta[e, after])
        return float(np.exp(log_p - self.log_z))
