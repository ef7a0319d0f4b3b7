"""ChainConstraints: which label sequences a linear chain may output.

A constraint restricts the output space: which label may follow which, which may start
or end a sequence. Decoders take it as ``allowed=`` (``"bio"``, ``"bioes"`` or a set of
``(label_from, label_to)`` pairs) and the structure holds it resolved against the
learner's labels. Forbidden parts score ``-inf``: every search over the scores (Viterbi,
beam, greedy, k-best, forward-backward) then keeps to allowed sequences with no code of
its own, and the weights themselves never hold ``-inf`` (see :meth:`LinearChain.constrain`).
"""

import numpy as np

#: Tagging schemes ``allowed=`` names, and the prefixes each knows. BILOU's L and U are
#: BIOES's E and S.
SCHEMES = {
    "bio": {"B": "B", "I": "I"},
    "bioes": {"B": "B", "I": "I", "E": "E", "S": "S", "L": "E", "U": "S"},
}


class ForbiddenGoldWarning(UserWarning):
    """Training sequences whose gold labels break a decoder's ``allowed=`` were left out."""


class ChainConstraints:
    """Allowed transitions, first and last labels of a chain over ``n_labels`` labels.

    Parameters
    ----------
    transition : bool ndarray of shape (n_labels, n_labels)
        ``transition[a, b]``: label ``b`` may follow label ``a``.
    start, stop : bool ndarray of shape (n_labels,)
        Labels that may begin, and end, a sequence.
    description : str
        How the constraint was given (for messages), e.g. ``"allowed='bio'"``.
    """

    def __init__(self, transition, start, stop, description):
        self.transition = np.asarray(transition, dtype=bool)
        self.start = np.asarray(start, dtype=bool)
        self.stop = np.asarray(stop, dtype=bool)
        self.description = description

    @classmethod
    def from_allowed(cls, allowed, labels):
        """Resolve a decoder's ``allowed`` against the label names ``labels`` (the
        learner's ``classes_``, in id order); None for ``allowed=None``.

        ``"bio"`` (IOB2): ``I-X`` only after ``B-X`` or ``I-X``, never first.
        ``"bioes"`` (also BILOU): ``I-X``/``E-X`` only after ``B-X`` or ``I-X``;
        ``B-X``, ``S-X`` and ``O`` only first or after ``O``, ``E-*`` or ``S-*``; the
        last label is ``O``, ``E-*`` or ``S-*``. Labels are ``O`` or ``<prefix>-<type>``.
        A set of ``(label_from, label_to)`` pairs allows exactly those transitions
        (any first and last label); pairs naming a label the training data lacks are
        ignored, as are the labels of a cross-validation fold that lacks them.
        """
        if allowed is None:
            return None
        labels = [str(label) for label in labels]
        if isinstance(allowed, str):
            return cls._scheme(allowed, labels)
        index = {label: i for i, label in enumerate(labels)}
        transition = np.zeros((len(labels), len(labels)), dtype=bool)
        for pair in allowed:
            if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
                raise ValueError(
                    f"allowed must be 'bio', 'bioes' or a set of (label_from, label_to) "
                    f"pairs; got the entry {pair!r}."
                )
            a, b = (index.get(str(label)) for label in pair)
            if a is not None and b is not None:
                transition[a, b] = True
        everything = np.ones(len(labels), dtype=bool)
        return cls(transition, everything, everything, "the allowed transitions given")

    @classmethod
    def _scheme(cls, name, labels):
        if name not in SCHEMES:
            raise ValueError(f"allowed must be 'bio', 'bioes' or a set of pairs, got {name!r}.")
        prefixes = SCHEMES[name]
        parsed = []  # (prefix, type) per label; prefix "O" for outside
        for label in labels:
            prefix, dash, kind = label.partition("-")
            if label == "O":
                parsed.append(("O", None))
            elif dash and prefix.upper() in prefixes and kind:
                parsed.append((prefixes[prefix.upper()], kind))
            else:
                known = "/".join(sorted(prefixes))
                raise ValueError(
                    f"allowed={name!r} needs labels 'O' or '<{known}>-<type>' (as "
                    f"'B-PER'); the label {label!r} is neither."
                )
        prefix = np.array([p for p, _ in parsed])
        kind = np.array([k or "" for _, k in parsed], dtype=object)
        same_type = kind[:, None] == kind[None, :]
        inside = np.isin(prefix, ["I", "E"])  # continues an entity
        opens = np.isin(prefix, ["B", "I"])  # an entity goes on after it
        if name == "bio":
            transition = ~inside[None, :] | (opens[:, None] & same_type)
            start, stop = ~inside, np.ones(len(labels), dtype=bool)
        else:
            transition = np.where(inside[None, :], opens[:, None] & same_type, ~opens[:, None])
            start, stop = ~inside, ~opens
        return cls(transition, start, stop, f"allowed={name!r}")

    # -- outputs --------------------------------------------------------------------------

    def violations(self, labels, offsets):
        """``(sentence, position)`` of the first token of each sentence whose label breaks
        the constraint (its transition from the token before, or being first or last),
        as two int arrays; ``labels`` are label ids of sentences laid out by
        ``offsets``."""
        labels = np.asarray(labels, dtype=np.int64)
        offsets = np.asarray(offsets, dtype=np.int64)
        n_tokens = labels.size
        bad = np.zeros(n_tokens, dtype=bool)
        known = labels >= 0  # unseen labels (scoring data) break nothing here
        first = np.zeros(n_tokens, dtype=bool)
        last = np.zeros(n_tokens, dtype=bool)
        lengths = np.diff(offsets)
        first[offsets[:-1][lengths > 0]] = True
        last[offsets[1:][lengths > 0] - 1] = True
        safe = np.where(known, labels, 0)
        bad |= first & known & ~self.start[safe]
        bad |= last & known & ~self.stop[safe]
        prev, curr = safe[:-1], safe[1:]
        follows = ~first[1:] & known[:-1] & known[1:]
        bad[1:] |= follows & ~self.transition[prev, curr]
        where = np.flatnonzero(bad)
        sentence = np.searchsorted(offsets, where, side="right") - 1
        keep = np.unique(sentence, return_index=True)[1]
        return sentence[keep], where[keep] - offsets[sentence[keep]]

    def feasible(self, lengths):
        """Whether some label sequence of each of ``lengths`` tokens is allowed (bool
        array; a length of 0 is always feasible)."""
        lengths = np.asarray(lengths, dtype=np.int64)
        longest = int(lengths.max(initial=0))
        known = getattr(self, "_feasible", np.ones(1, dtype=bool))
        if known.size <= longest:
            # reach[c]: some allowed prefix of the current length ends with label c
            reach = self.start.copy()
            grown = [True]
            for _ in range(longest):
                grown.append(bool((reach & self.stop).any()))
                reach = (reach[:, None] & self.transition).any(axis=0)
            self._feasible = known = np.array(grown)
        return known[lengths]

    def check_lengths(self, offsets):
        """Refuse, naming the first, a sentence (laid out by ``offsets``) of a length
        that no allowed label sequence has (a set of pairs may allow none)."""
        lengths = np.diff(np.asarray(offsets, dtype=np.int64))
        bad = np.flatnonzero(~self.feasible(lengths))
        if bad.size:
            i = int(bad[0])
            raise ValueError(
                f"Example {i}: no label sequence of {lengths[i]} tokens keeps to "
                f"{self.description}."
            )
