"""TokenAttributes: a parser's corpus as a few vocabulary ids per word plus sentence offsets."""

from typing import NamedTuple

import numpy as np

from ._encoded import concat_ranges


class TokenAttributes(NamedTuple):
    """The attribute ids of every word of a list of sentences, stacked.

    Word ``t`` has ids ``attrs[t]`` (form, POS, prefix and, with its ``coarse_pos``, the
    coarse POS, as :class:`~skstruct.ArcFeatures` numbers them); sentence ``i`` is words
    ``offsets[i]:offsets[i + 1]``. Parsers hash features from these ids on the fly, so
    there is no feature matrix.

    Attributes
    ----------
    attrs : ndarray of shape (n_tokens, 3) or (n_tokens, 4), dtype=int32
        Form, POS and prefix ids per word, and the coarse POS id in a fourth column.
    offsets : ndarray of shape (n_sentences + 1,), dtype=int64
        The first word of every sentence, then the number of words.
    n_features : int
        Size of the hashed weight space.
    """

    attrs: np.ndarray  # int32 (n_tokens, 3 or 4)
    offsets: np.ndarray  # int64 (n_sentences + 1,)
    n_features: int

    @property
    def n_sentences(self):
        return self.offsets.shape[0] - 1

    @property
    def n_tokens(self):
        return int(self.offsets[-1])

    def take(self, sentences):
        """The sub-corpus made of ``sentences`` (an index array), in that order."""
        sentences = np.asarray(sentences, dtype=np.int64)
        starts, stops = self.offsets[sentences], self.offsets[sentences + 1]
        offsets = np.zeros(sentences.size + 1, dtype=np.int64)
        np.cumsum(stops - starts, out=offsets[1:])
        attrs = np.ascontiguousarray(self.attrs[concat_ranges(starts, stops)])
        return TokenAttributes(attrs, offsets, self.n_features)

    def with_ids(self, maps):
        """The same words with their ids renumbered: column ``c``'s id ``i`` becomes
        ``maps[c][i]`` (the maps :meth:`ArcFeatures.merge
        <skstruct.ArcFeatures.merge>` returns)."""
        attrs = np.empty_like(self.attrs)
        for c, ids in enumerate(maps):
            attrs[:, c] = ids[self.attrs[:, c]]
        return TokenAttributes(attrs, self.offsets, self.n_features)
