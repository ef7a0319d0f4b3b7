"""UDPipe 1 (``ufal.udpipe``) as an external reference dependency parser.

Trains and runs only UDPipe's Parsito parser (a transition-based parser with
a feed-forward network) on GOLD part-of-speech tags: the model is built with
``Trainer.train("morphodita_parsito", train, heldout, "none", "none",
parser_options)``, i.e. no tokenizer and no tagger, so when parsing, the
forms, lemmas, UPOS, XPOS and FEATS given in ``X`` are what the parser sees.
Needs ``pip install ufal.udpipe`` (tested with 1.4.0.1).

Parser options are UDPipe's, ``key=value`` pairs joined by ``;``
(https://ufal.mff.cuni.cz/udpipe/1/users-manual), e.g.
``"iterations=10;hidden_layer=200;transition_system=projective"``. Unknown
keys are silently ignored by UDPipe. Defaults of UDPipe 1.4 worth knowing:

- ``transition_system=projective`` (``swap`` and ``link2`` can build
  non-projective trees) and ``transition_oracle=dynamic`` (``static_lazy``
  for ``swap``, ``static`` for ``link2``);
- ``embedding_upostag=20;embedding_feats=20;embedding_xpostag=0;
  embedding_form=50;embedding_lemma=0;embedding_deprel=20``: by default the
  parser does NOT use XPOS, so for a treebank with tags only in XPOS (the PTB
  sample) pass ``embedding_xpostag=20`` (a warning says so);
- ``iterations=10;hidden_layer=200;batch_size=10;structured_interval=8;
  learning_rate=0.02;learning_rate_final=0.001;l2=0.5``;
- ``single_root=1``: exactly one root per tree, labelled ``root``;
- ``run=N`` (N >= 2) draws some hyper-parameters at random (UDPipe's random
  search); it is not a seed.

Speed: with the defaults, training takes about 23-26 minutes on the PTB sample
or CoNLL 2007 Spanish train set (about 80k words, one core).
``hidden_layer=100;structured_interval=0`` (still 10 iterations) took about
6 minutes and gave the same test UAS/LAS to within about half a point.

Seeds: UDPipe has no seed option; its parser trainer uses a Mersenne twister
with the fixed seed 42, so training is deterministic. ``seed=0`` keeps the
training sentences in the given order (UDPipe's own behaviour); any other
``seed`` trains on the sentences in an order shuffled by
``random.Random(seed)``, which changes the training run reproducibly.

Labels: UDPipe requires a non-empty label on every word (``_`` reads as
empty) and, with ``single_root=1``, the label ``root`` on the root word and on
no other word. So the root word is always trained with ``root``; other labels
that are empty, ``_``, ``root`` or contain a tab/newline are replaced by
placeholders; without labels in ``y`` every other word gets ``dep``. The
mapping back is stored on the returned model (attribute
``skstruct_deprels``) and applied by :func:`predict_udpipe`, so predictions
carry the original labels (the root word gets the most frequent root label of
the training data, e.g. ``ROOT``; ``root`` when ``y`` has no labels).

Trees: with ``single_root=1`` UDPipe refuses training trees with more or
fewer than one root; if the training data has such trees and the options do
not set ``single_root``, ``single_root=0`` is added with a warning. Training
trees that are non-projective are accepted but the default projective
system can only learn/produce projective trees.

UDPipe prints its training progress to the process's stderr (C++ ``cerr``).
"""

import collections
import os
import random
import tempfile
import warnings

import ufal.udpipe as udpipe

_METHOD = "morphodita_parsito"
_ROOT = "root"  # the label UDPipe requires on the root word when single_root=1
_DEP = "dep"  # placeholder label when y has no relation labels


def fit_udpipe(X, y, *, parser_options="", seed=0):
    """Train a UDPipe 1 parser (no tokenizer, no tagger) on gold-tagged trees.

    Parameters
    ----------
    X : list of list of dict
        Sentences of token dicts as :func:`skstruct.datasets.load_conllu`
        returns them (``form``, ``lemma``, ``upos``, ``xpos``, ``feats``
        are used; None or ``"_"`` for unannotated fields).
    y : list of list
        Per sentence, per word: the head (int, 0 the root) or a
        ``(head, deprel)`` pair.
    parser_options : str, default=""
        UDPipe parser options, ``"key=value;key=value"`` (see the module
        docstring); "" uses UDPipe's defaults.
    seed : int, default=0
        0 keeps the sentence order; another value shuffles the training
        sentences reproducibly (UDPipe has no seed option of its own).

    Returns
    -------
    model : ufal.udpipe.Model
        With an extra attribute ``skstruct_deprels`` (UDPipe label ->
        original label) used by :func:`predict_udpipe`.

    Raises
    ------
    ValueError
        On malformed ``X``/``y`` or options.
    RuntimeError
        When UDPipe reports a training or loading error.
    """
    if len(X) != len(y):
        raise ValueError(f"X has {len(X)} sentences but y has {len(y)}.")
    if not X:
        raise ValueError("No training sentence.")
    options = _parse_options(parser_options)

    trees = [_split_tree(sentence, tree, i) for i, (sentence, tree) in enumerate(zip(X, y))]
    labelled = any(rel is not None for heads, rels in trees for rel in rels)

    # Labels as UDPipe will see them, and the way back.
    root_labels = collections.Counter(
        rel for heads, rels in trees for h, rel in zip(heads, rels) if h == 0 and rel is not None
    )
    root_label = root_labels.most_common(1)[0][0] if root_labels else _ROOT
    encode = {}
    if labelled:
        used = {_ROOT, _DEP}
        for heads, rels in trees:
            for h, rel in zip(heads, rels):
                if h == 0 or rel in encode:
                    continue
                if _valid_label(rel):
                    encode[rel] = rel
                    used.add(rel)
        n = 0
        for heads, rels in trees:
            for h, rel in zip(heads, rels):
                if h != 0 and rel not in encode:
                    while (placeholder := f"skstruct_label{n}") in used:
                        n += 1
                    encode[rel] = placeholder
                    used.add(placeholder)
    else:
        encode[None] = _DEP
    decode = {udp: udp if orig is None else orig for orig, udp in encode.items()}
    decode[_ROOT] = root_label

    n_roots = [sum(h == 0 for h in heads) for heads, _ in trees]
    if "single_root" not in options and any(k != 1 for k in n_roots):
        bad = sum(k != 1 for k in n_roots)
        warnings.warn(
            f"{bad} training tree(s) do not have exactly one root; UDPipe requires one with "
            "single_root=1, so single_root=0 is used.",
            stacklevel=2,
        )
        options["single_root"] = "0"

    if "embedding_xpostag" not in options and "embedding_upostag" not in options:
        has_upos = any(_field(t.get("upos")) != "_" for s in X for t in s)
        has_xpos = any(_field(t.get("xpos")) != "_" for s in X for t in s)
        if has_xpos and not has_upos:
            warnings.warn(
                "The data has tags only in XPOS, which UDPipe's parser ignores by default; "
                "pass parser_options='embedding_xpostag=20' (or similar) to use them.",
                stacklevel=2,
            )

    lines = []
    for sentence, (heads, rels) in zip(X, trees):
        labels = [_ROOT if h == 0 else encode[rel] for h, rel in zip(heads, rels)]
        lines.append(_conllu_sentence(sentence, heads, labels))
    order = list(range(len(lines)))
    if seed:
        random.Random(seed).shuffle(order)
    train = _read_sentences("".join(lines[i] for i in order))

    error = udpipe.ProcessingError()
    data = udpipe.Trainer.train(
        _METHOD,
        train,
        udpipe.Sentences(),  # no heldout data, hence no early stopping
        udpipe.Trainer.NONE,  # tokenizer
        udpipe.Trainer.NONE,  # tagger
        _format_options(options),
        error,
    )
    if error.occurred():
        raise RuntimeError(f"UDPipe training failed: {error.message}")
    if not data:
        raise RuntimeError("UDPipe training failed: it returned an empty model.")

    # Model.load only reads files.
    with tempfile.TemporaryDirectory(prefix="skstruct-udpipe-") as tmp:
        path = os.path.join(tmp, "parser.udpipe")
        with open(path, "wb") as stream:
            stream.write(data)
        model = udpipe.Model.load(path)
    if model is None:
        raise RuntimeError("UDPipe could not load the model it has just trained.")
    model.skstruct_deprels = decode
    return model


def predict_udpipe(model, X):
    """Parse gold-tagged sentences with a UDPipe model (tagger not run).

    Parameters
    ----------
    model : ufal.udpipe.Model
        As returned by :func:`fit_udpipe` (any UDPipe model with a parser
        works; labels are then returned as UDPipe predicts them).
    X : list of list of dict
        Sentences of token dicts (see :func:`fit_udpipe`); their forms,
        lemmas, UPOS, XPOS and FEATS are given to the parser as they are.

    Returns
    -------
    y_pred : list of list of (int, str)
        Per sentence, per word (in order): ``(head, deprel)``, head 0 the root.
    """
    decode = getattr(model, "skstruct_deprels", {})
    text = "".join(_conllu_sentence(sentence, None, None) for sentence in X)
    sentences = _read_sentences(text)
    if len(sentences) != len(X):
        raise RuntimeError(f"UDPipe read {len(sentences)} sentences out of {len(X)}.")
    y_pred = []
    error = udpipe.ProcessingError()
    for i, (sentence, udp) in enumerate(zip(X, sentences)):
        if not model.parse(udp, udpipe.Model.DEFAULT, error) or error.occurred():
            raise RuntimeError(f"UDPipe could not parse sentence {i}: {error.message}")
        words = udp.words  # words[0] is UDPipe's technical root
        if len(words) - 1 != len(sentence):
            raise RuntimeError(
                f"Sentence {i}: UDPipe returned {len(words) - 1} words for {len(sentence)}."
            )
        y_pred.append(
            [
                (words[j].head, decode.get(words[j].deprel, words[j].deprel))
                for j in range(1, len(words))
            ]
        )
    return y_pred


def _parse_options(text):
    """``"a=1;b=2"`` -> ``{"a": "1", "b": "2"}`` (UDPipe's named-values syntax)."""
    options = {}
    for item in text.split(";"):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"Parser option {item!r} is not of the form key=value.")
        options[key.strip()] = value
    return options


def _format_options(options):
    return ";".join(f"{key}={value}" for key, value in options.items())


def _split_tree(sentence, tree, index):
    """Return ``(heads, rels)`` of one sentence of ``y`` (rels None when unlabelled)."""
    if len(tree) != len(sentence):
        raise ValueError(f"Sentence {index}: X has {len(sentence)} words but y has {len(tree)}.")
    heads, rels = [], []
    for item in tree:
        if isinstance(item, (tuple, list)):
            head, rel = item
        else:
            head, rel = item, None
        head = int(head)
        if not 0 <= head <= len(sentence):
            raise ValueError(f"Sentence {index}: head {head} out of range [0, {len(sentence)}].")
        heads.append(head)
        rels.append(rel)
    return heads, rels


def _valid_label(rel):
    return (
        isinstance(rel, str) and rel not in ("", "_", _ROOT) and not any(c in rel for c in "\t\n\r")
    )


def _field(value):
    """A CoNLL-U column from a token value (None, "" -> "_"; feats dicts -> a=b|c=d)."""
    if value is None:
        return "_"
    if isinstance(value, dict):
        if not value:
            return "_"
        value = "|".join(k if v is None else f"{k}={v}" for k, v in value.items())
    value = str(value)
    if not value:
        return "_"
    if any(c in value for c in "\t\n\r"):
        raise ValueError(f"Token field {value!r} contains a tab or a newline.")
    return value


def _conllu_sentence(sentence, heads, labels):
    """One sentence as CoNLL-U text; HEAD/DEPREL "_" when ``heads`` is None."""
    rows = []
    for j, token in enumerate(sentence):
        head = "_" if heads is None else str(heads[j])
        label = "_" if labels is None else labels[j]
        rows.append(
            "\t".join(
                (
                    str(j + 1),
                    _field(token.get("form")),
                    _field(token.get("lemma")),
                    _field(token.get("upos")),
                    _field(token.get("xpos")),
                    _field(token.get("feats")),
                    head,
                    label,
                    "_",  # DEPS (in CoNLL-X files: PHEAD)
                    "_",  # MISC (in CoNLL-X files: PDEPREL)
                )
            )
        )
    return "\n".join(rows) + "\n\n"


def _read_sentences(text):
    """CoNLL-U text -> ``ufal.udpipe.Sentences``."""
    reader = udpipe.InputFormat.newConlluInputFormat()
    reader.setText(text)
    sentences = udpipe.Sentences()
    sentence = udpipe.Sentence()
    error = udpipe.ProcessingError()
    while reader.nextSentence(sentence, error):
        sentences.append(sentence)
        sentence = udpipe.Sentence()
    if error.occurred():
        raise RuntimeError(f"UDPipe could not read the CoNLL-U it was given: {error.message}")
    return sentences
