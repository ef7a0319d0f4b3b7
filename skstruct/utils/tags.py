"""scikit-learn estimator tags shared by the learners."""


def sequence_tags(tags):
    """Mark ``tags`` for estimators over lists of sequences with label-sequence targets.

    Input is not a 2-D array but sequences of token dicts or strings; the target is
    required and is not 1-D (one label per token, not per sample).
    """
    tags.input_tags.two_d_array = False
    tags.input_tags.dict = True
    tags.input_tags.string = True
    tags.target_tags.required = True
    tags.target_tags.one_d_labels = False
    return tags


class SentencesTransformerTags:
    """Tags of a transformer of sentences (lists of token dicts or strings), not 2-D
    arrays: the mixin of the token-dict transformers (the predicted-field fillers, the
    UD pipeline, word clusters)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.input_tags.string = True
        return tags
