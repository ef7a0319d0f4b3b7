"""Token features of the SWVP paper's synthetic HMM experiments."""

from ..utils.validation import check_sequences


def hmm_features(X):
    """Token dicts for observation sequences, as in Dror & Reichart (2016), sec. 6.

    The paper's features are {x_i, y_i, y_{i-1}, (x_i, y_i), (y_i, y_{i-1}),
    (x_i, y_i, y_{i-1})}. In a linear chain, the observation ``"x"`` gives (x_i, y_i)
    emissions, ``"bias"`` the y_i ones and the transitions (y_{i-1}, y_i); x_i alone
    and y_{i-1} alone do not change the argmax, and (x_i, y_i, y_{i-1}) (an
    observation-dependent transition) is not a part of the chain model, so it is left
    out.

    Parameters
    ----------
    X : list of sequences of str
        Observations, as :func:`skstruct.datasets.make_hmm_sequences` returns them.

    Returns
    -------
    list of list of dict

    Examples
    --------
    >>> hmm_features([["x3", "x0"]])
    [[{'bias': 1.0, 'x': 'x3'}, {'bias': 1.0, 'x': 'x0'}]]
    """
    X = check_sequences(X)
    return [[{"bias": 1.0, "x": x} for x in seq] for seq in X]
