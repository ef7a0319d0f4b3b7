"""Brute-force and pure-Python twins of the kernels and learners, for tests only.

Slow on purpose: plain loops and enumeration, written from the definitions, with no
code shared with the package.
"""

import itertools

import numpy as np


def chain_score(path, unary, transition, start, stop):
    """Score of one label path of a first-order chain."""
    score = start[path[0]] + stop[path[-1]]
    for t, label in enumerate(path):
        score += unary[t][label]
        if t:
            score += transition[path[t - 1]][label]
    return float(score)


def all_paths(n_tokens, n_labels):
    return itertools.product(range(n_labels), repeat=n_tokens)


def max_chain_score(unary, transition, start, stop):
    """Highest path score by enumerating every label sequence."""
    n_tokens, n_labels = np.shape(unary)
    return max(
        chain_score(p, unary, transition, start, stop) for p in all_paths(n_tokens, n_labels)
    )


def viterbi(unary, transition, start, stop, first_order=True):
    """Pure-Python Viterbi with the kernels' tie-breaking (lowest label index wins)."""
    n_tokens, n_labels = len(unary), len(unary[0])
    if not first_order:
        return [max(range(n_labels), key=lambda k: (unary[t][k], -k)) for t in range(n_tokens)]
    best = [start[k] + unary[0][k] for k in range(n_labels)]
    back = []
    for t in range(1, n_tokens):
        ptr, new = [], []
        for curr in range(n_labels):
            arg = 0
            for prev in range(1, n_labels):
                if best[prev] + transition[prev][curr] > best[arg] + transition[arg][curr]:
                    arg = prev
            ptr.append(arg)
            new.append(best[arg] + transition[arg][curr] + unary[t][curr])
        back.append(ptr)
        best = new
    last = 0
    for k in range(1, n_labels):
        if best[k] + stop[k] > best[last] + stop[last]:
            last = k
    path = [last]
    for ptr in reversed(back):
        path.append(ptr[path[-1]])
    return path[::-1]


class ChainModel:
    """Weights of a chain as Python dicts: phi(x, y) spelt out part by part.

    A sentence is a list of tokens, each a list of (feature id, value) pairs.
    """

    def __init__(self, n_features, n_labels, first_order=True):
        self.n_features, self.n_labels, self.first_order = n_features, n_labels, first_order

    def phi(self, sentence, path):
        """Feature counts of (sentence, path) as {part: value}."""
        counts = {}

        def add(part, value):
            counts[part] = counts.get(part, 0.0) + value

        for token, label in zip(sentence, path):
            for f, v in token:
                add(("emission", f, label), v)
        if self.first_order:
            add(("start", path[0]), 1.0)
            add(("stop", path[-1]), 1.0)
            for a, b in itertools.pairwise(path):
                add(("transition", a, b), 1.0)
        return counts

    def potentials(self, sentence, w):
        L = self.n_labels
        unary = [
            [sum(v * w.get(("emission", f, k), 0.0) for f, v in tok) for k in range(L)]
            for tok in sentence
        ]
        transition = [[w.get(("transition", a, b), 0.0) for b in range(L)] for a in range(L)]
        start = [w.get(("start", k), 0.0) for k in range(L)]
        stop = [w.get(("stop", k), 0.0) for k in range(L)]
        return unary, transition, start, stop

    def decode(self, sentence, w):
        return viterbi(*self.potentials(sentence, w), first_order=self.first_order)

    def complete(self, sentence, w, labels):
        """``labels`` with None filled in by the best path that has the others."""
        if None not in labels:
            return labels
        unary, transition, start, stop = self.potentials(sentence, w)
        for t, label in enumerate(labels):
            if label is not None:
                unary[t] = [v if k == label else -np.inf for k, v in enumerate(unary[t])]
        return viterbi(unary, transition, start, stop, first_order=self.first_order)

    def to_flat(self, w):
        """Dict weights in the package's flat layout [emission | transition | start | stop]."""
        F, L = self.n_features, self.n_labels
        out = np.zeros(F * L + L * L + 2 * L)
        for part, value in w.items():
            if part[0] == "emission":
                out[part[1] * L + part[2]] = value
            elif part[0] == "transition":
                out[F * L + part[1] * L + part[2]] = value
            elif part[0] == "start":
                out[F * L + L * L + part[1]] = value
            else:
                out[F * L + L * L + L + part[1]] = value
        return out


def dense_chain_coef(structure, coef):
    """A chain's weights in the dense layout ``[emission (n_features, n_labels) row-major |
    transition | start | stop | trigram]`` (what ``ChainModel.to_flat`` gives)."""
    emission = structure.emission_matrix(coef).toarray().ravel()
    return np.concatenate([emission, coef[: structure.n_dense]])


def full_chain(n_features, n_labels, order):
    """A chain whose emission rows hold every (feature, label) pair, as dense weights."""
    from skstruct.structures import LinearChain
    from skstruct.structures.emission_rows import EmissionRows

    return LinearChain(n_features, n_labels, order, EmissionRows.full(n_features, n_labels))


def from_dense_chain_coef(structure, dense):
    """Weights of a ``full_chain`` from the dense layout of ``dense_chain_coef``."""
    n_emission = structure.n_features * structure.n_labels
    return np.concatenate([dense[n_emission:], dense[:n_emission]])


def perceptron(model, sentences, labels, orders, batch_size=1):
    """Collins' perceptron, averaging by summing the weights after every example.

    ``orders`` is one sequence of sentence indices per epoch. With ``batch_size > 1``
    the sentences of each batch (consecutive pieces of an epoch's order) are all
    decoded with the weights the batch starts from, then the updates are made in order
    (Zhao & Huang 2013's minibatch perceptron). Returns the final and the averaged
    weights (dicts) and the number of mistakes per epoch.
    """
    w, total, n_seen, mistakes = {}, {}, 0, []
    for order in orders:
        wrong = 0
        order = list(order)
        for lo in range(0, len(order), batch_size):
            batch = order[lo : lo + batch_size]
            predictions = [model.decode(sentences[i], w) for i in batch]
            golds = [model.complete(sentences[i], w, labels[i]) for i in batch]
            for i, pred, gold in zip(batch, predictions, golds):
                if list(pred) != list(gold):
                    wrong += 1
                    for part, v in model.phi(sentences[i], gold).items():
                        w[part] = w.get(part, 0.0) + v
                    for part, v in model.phi(sentences[i], pred).items():
                        w[part] = w.get(part, 0.0) - v
                n_seen += 1
                for part, v in w.items():
                    total[part] = total.get(part, 0.0) + v
        mistakes.append(wrong)
    average = {part: v / n_seen for part, v in total.items()}
    return w, average, mistakes


def chain_score_order(path, unary, transition, start, stop, trigram, order, with_stop=True):
    """Score of a label path (or prefix, without stop) of a chain of order 0, 1 or 2."""
    score = sum(float(unary[t][label]) for t, label in enumerate(path))
    if order >= 1:
        score += start[path[0]] + (stop[path[-1]] if with_stop else 0.0)
        score += sum(transition[a][b] for a, b in itertools.pairwise(path))
    if order == 2:
        score += sum(trigram[a][b][c] for a, b, c in zip(path, path[1:], path[2:]))
    return float(score)


def max_chain_score_order(unary, transition, start, stop, trigram, order):
    n_tokens, n_labels = np.shape(unary)
    return max(
        chain_score_order(p, unary, transition, start, stop, trigram, order)
        for p in all_paths(n_tokens, n_labels)
    )


def beam_search(unary, transition, start, stop, trigram, order, beam_size, gold):
    """Pure-Python beam search with DP merging, the kernel's tie-breaking and gold tracking.

    Returns (path, best_score per step, gold_in_beam per step). A hypothesis is a
    tuple of labels; two are merged when their last ``order`` labels agree.
    """
    n = len(unary)
    beam = [((), 0.0)]
    best_scores, in_beam = [], []
    gold_alive = True
    for t in range(n):
        last = t == n - 1
        merged = {}
        for prefix, _ in beam:
            for c in range(len(unary[0])):
                seq = (*prefix, c)
                score = chain_score_order(
                    seq, unary, transition, start, stop, trigram, order, with_stop=last
                )
                key = seq[len(seq) - order :] if order else ()
                if key not in merged or score > merged[key][1]:
                    merged[key] = (seq, score)
        ranked = sorted(merged.values(), key=lambda item: -item[1])  # stable: generation order
        beam = ranked[:beam_size]
        best_scores.append(beam[0][1])
        gold_alive = gold_alive and any(seq == tuple(gold[: t + 1]) for seq, _ in beam)
        in_beam.append(gold_alive)
    return list(beam[0][0]), best_scores, in_beam


# -- dependency trees ------------------------------------------------------------------------------


def is_tree(heads):
    """``heads[1:]`` (``heads[0]`` ignored) reach the root 0 from every word, no cycle."""
    n = len(heads) - 1
    for d in range(1, n + 1):
        seen, v = set(), d
        while v != 0:
            if v in seen:
                return False
            seen.add(v)
            v = heads[v]
    return True


def is_projective(heads):
    """No two arcs cross (the root's arcs included)."""
    arcs = [(min(h, d), max(h, d)) for d, h in enumerate(heads) if d > 0]
    return not any(a < c < b < e for a, b in arcs for c, e in arcs)


def all_trees(n, projective=False, single_root=False):
    """Every head vector of ``n`` words (``heads[0] = -1``) that is a tree."""
    for rest in itertools.product(range(n + 1), repeat=n):
        heads = [-1, *rest]
        if any(h == d for d, h in enumerate(heads) if d > 0) or not is_tree(heads):
            continue
        if single_root and sum(h == 0 for h in rest) != 1:
            continue
        if projective and not is_projective(heads):
            continue
        yield heads


def siblings(heads):
    """The sibling parts ``(h, s, d)`` of a tree: ``s`` is ``h`` for a first child."""
    n = len(heads) - 1
    parts = []
    for h in range(n + 1):
        for side in (range(h + 1, n + 1), range(h - 1, 0, -1)):
            prev = h
            for d in side:
                if heads[d] == h:
                    parts.append((h, prev, d))
                    prev = d
    return parts


def grandparents_of(heads):
    """The grandparent parts ``(g, h, d)`` of a head vector: ``h = heads[d]`` a word,
    ``g = heads[h]``."""
    return [(heads[h], h, d) for d, h in enumerate(heads) if d > 0 and h > 0]


def tree_score(heads, arc, sib=None, grand=None):
    total = sum(arc[h, d] for d, h in enumerate(heads) if d > 0)
    if sib is not None:
        total += sum(sib[h, s, d] for h, s, d in siblings(heads))
    if grand is not None:
        total += sum(grand[g, h, d] for g, h, d in grandparents_of(heads))
    return total


def best_tree(arc, sib=None, projective=False, single_root=False):
    """Brute-force best tree and its score (first best in enumeration order)."""
    n = arc.shape[0] - 1
    best, best_score = None, -np.inf
    for heads in all_trees(n, projective, single_root):
        score = tree_score(heads, arc, sib)
        if score > best_score:
            best, best_score = heads, score
    return best, best_score


# -- hashed tree features: a readable twin of skstruct/_kernels/tree.py ------------------------

_MASK = (1 << 64) - 1
UNKNOWN, ROOT, NONE, NO_DIST = 0, 1, 2, 255
ARC_TEMPLATES = [
    (1, ("hf", "hp")), (2, ("hf",)), (3, ("hp",)), (4, ("df", "dp")), (5, ("df",)), (6, ("dp",)),
    (7, ("hf", "hp", "df", "dp")), (8, ("hp", "df", "dp")), (9, ("hf", "df", "dp")),
    (10, ("hf", "hp", "dp")), (11, ("hf", "hp", "df")), (12, ("hf", "df")), (13, ("hp", "dp")),
    (14, ("hx", "dx")), (15, ("hx", "dp")), (16, ("hp", "dx")), (17, ("hx", "hp", "dx", "dp")),
    (18, ("hp", "hp+1", "dp-1", "dp")), (19, ("hp-1", "hp", "dp-1", "dp")),
    (20, ("hp", "hp+1", "dp", "dp+1")), (21, ("hp-1", "hp", "dp", "dp+1")),
]  # fmt: skip
COARSE_TEMPLATES = [
    (61, ("hf", "hc")), (62, ("hc",)), (63, ("df", "dc")), (64, ("dc",)),
    (65, ("hf", "hc", "df", "dc")), (66, ("hc", "df", "dc")), (67, ("hf", "hc", "dc")),
    (68, ("hc", "dc")), (69, ("hc", "hc+1", "dc-1", "dc")), (70, ("hc-1", "hc", "dc-1", "dc")),
    (71, ("hc", "hc+1", "dc", "dc+1")), (72, ("hc-1", "hc", "dc", "dc+1")),
    (111, ("hc", "hc-2", "hc-1", "dc")), (112, ("hc", "hc+1", "hc+2", "dc")),
    (113, ("hc", "dc-2", "dc-1", "dc")), (114, ("hc", "dc", "dc+1", "dc+2")),
    (115, ("hc", "dc", "hf-1")), (116, ("hc", "dc", "hf+1")), (117, ("hc", "dc", "df-1")),
    (118, ("hc", "dc", "df+1")),
]  # fmt: skip


def feature_hash(template, atoms, dd, n_features):
    """FNV-1a over 64-bit words with the splitmix64 finaliser, in Python integers."""
    h = 14695981039346656037
    for v in (template, *atoms, *[0] * (4 - len(atoms)), dd):
        h = ((h ^ (int(v) & _MASK)) * 1099511628211) & _MASK
    h = ((h ^ (h >> 33)) * 0xFF51AFD7ED558CCD) & _MASK
    h = ((h ^ (h >> 33)) * 0xC4CEB9FE1A85EC53) & _MASK
    return (h ^ (h >> 33)) % n_features


def _attribute(attrs, i, column):
    n = len(attrs)
    return ROOT if i == 0 else NONE if not 1 <= i <= n else int(attrs[i - 1][column])


def direction_distance(h, d):
    dist = abs(h - d)
    return (h < d) * 8 + (dist if dist <= 5 else 6 if dist <= 10 else 7)


EXTRA_TEMPLATES = [
    (0, ("he", "hc")), (1, ("de", "dc")), (2, ("he", "de")), (3, ("he", "dc")),
    (4, ("hc", "de")), (5, ("he", "hc", "de", "dc")),
]  # fmt: skip


def arc_features(attrs, h, d, n_features):
    """Feature ids of arc h -> d; ``attrs`` lists (form, pos, prefix) ids per word, or
    (form, pos, prefix, coarse, extra...) for the coarse and extra-field templates too."""
    a = lambda i, c: _attribute(attrs, i, c)  # noqa: E731
    coarse = len(attrs[0]) > 3
    values = {
        "hf": a(h, 0), "hp": a(h, 1), "hx": a(h, 2), "df": a(d, 0), "dp": a(d, 1),
        "dx": a(d, 2), "hp-1": a(h - 1, 1), "hp+1": a(h + 1, 1), "dp-1": a(d - 1, 1),
        "dp+1": a(d + 1, 1),
    }  # fmt: skip
    if coarse:
        values |= {
            "hc": a(h, 3), "dc": a(d, 3), "hc-1": a(h - 1, 3), "hc+1": a(h + 1, 3),
            "dc-1": a(d - 1, 3), "dc+1": a(d + 1, 3), "hc-2": a(h - 2, 3), "hc+2": a(h + 2, 3),
            "dc-2": a(d - 2, 3), "dc+2": a(d + 2, 3), "hf-1": a(h - 1, 0), "hf+1": a(h + 1, 0),
            "df-1": a(d - 1, 0), "df+1": a(d + 1, 0),
        }  # fmt: skip
    dd = direction_distance(h, d)
    groups = [(ARC_TEMPLATES, 22, "hp", 1, "dp")]
    if coarse:  # after the fine ones
        groups.append((COARSE_TEMPLATES, 73, "hc", 3, "dc"))
    ids = []
    for templates, between, head, column, dependent in groups:
        ids += [
            feature_hash(t, [values[name] for name in names], x, n_features)
            for x in (NO_DIST, dd)
            for t, names in templates
        ]
        ids += [
            feature_hash(between, [values[head], a(b, column), values[dependent]], dd, n_features)
            for b in range(min(h, d) + 1, max(h, d))
        ]
    if coarse:  # words between with the head's coarse POS, with the dependent's
        tags = [a(b, 3) for b in range(min(h, d) + 1, max(h, d))]
        hc, dc = values["hc"], values["dc"]
        ids += [
            feature_hash(74, [hc, dc, min(tags.count(hc), 3)], int(h < d), n_features),
            feature_hash(75, [hc, dc, min(tags.count(dc), 3)], int(h < d), n_features),
        ]
    for column in range(4, len(attrs[0])):  # the extra fields, after the coarse ids
        extra = {**values, "he": a(h, column), "de": a(d, column)}
        base = 80 + 10 * (column - 4)
        ids += [
            feature_hash(base + t, [extra[name] for name in names], x, n_features)
            for x in (NO_DIST, dd)
            for t, names in EXTRA_TEMPLATES
        ]
    return ids


def sibling_features(attrs, h, s, d, n_features):
    """Feature ids of the sibling part (h, s, d); ``s == h`` for a first child."""
    a = lambda i, c: _attribute(attrs, i, c)  # noqa: E731
    hp, df, dp = a(h, 1), a(d, 0), a(d, 1)
    sf, sp = (NONE, NONE) if s == h else (a(s, 0), a(s, 1))
    gap = abs(s - d) if s != h else 0
    atoms = [(31, [hp, sp, dp]), (32, [sp, dp]), (33, [sf, df]), (34, [sf, dp]), (35, [sp, df]),
             (36, [hp, sp, dp, gap])]  # fmt: skip
    return [
        feature_hash(t, values, x, n_features) for x in (NO_DIST, int(h < d)) for t, values in atoms
    ]


def grandparent_features(attrs, g, h, d, n_features):
    """Feature ids of the grandparent part (g, h, d): arcs g -> h -> d."""
    a = lambda i, c: _attribute(attrs, i, c)  # noqa: E731
    gf, gp, hp, df, dp = a(g, 0), a(g, 1), a(h, 1), a(d, 0), a(d, 1)
    coarse = len(attrs[0]) > 3
    triples = [(141, [gp, hp, dp]), (146, [gf, hp, dp]), (147, [gp, hp, df])]
    triples += [(148, [a(g, 3), a(h, 3), a(d, 3)])] if coarse else []
    pairs = [(142, [gp, dp]), (143, [gf, dp]), (144, [gp, df]), (145, [gf, df])]
    pairs += [(149, [a(g, 3), a(d, 3)])] if coarse else []
    atoms = triples + pairs
    directions = 2 * (g < h) + (h < d)
    return [feature_hash(t, v, x, n_features) for t, v in atoms for x in (NO_DIST, directions)]


def tree_features(attrs, heads, n_features, order=1, grandparents=False):
    """All feature ids (with repeats) of a head vector ``heads`` (``heads[0]`` unused)."""
    ids = [f for d in range(1, len(heads)) for f in arc_features(attrs, heads[d], d, n_features)]
    if order == 2:
        for h, s, d in siblings(heads):
            ids += sibling_features(attrs, h, s, d, n_features)
    if grandparents:
        for g, h, d in grandparents_of(heads):
            ids += grandparent_features(attrs, g, h, d, n_features)
    return ids


def tree_potentials(attrs, coef, n_features, order=1):
    """Arc (and sibling) score arrays of a sentence under ``coef``, from the twins above."""
    n = len(attrs)
    arc = np.full((n + 1, n + 1), -np.inf)
    for h in range(n + 1):
        for d in range(1, n + 1):
            if h != d:
                arc[h, d] = coef[arc_features(attrs, h, d, n_features)].sum()
    sib = None
    if order == 2:
        sib = np.zeros((n + 1, n + 1, n + 1))
        for h in range(n + 1):
            for d in range(1, n + 1):
                for s in [h, *range(min(h, d) + 1, max(h, d))]:
                    if d != h:
                        sib[h, s, d] = coef[sibling_features(attrs, h, s, d, n_features)].sum()
    return arc, sib


def grandparent_potentials(attrs, coef, n_features):
    """Grandparent score array ``grand[g, h, d]`` of a sentence under ``coef`` (every
    ``g`` but ``h``; the rest zeros)."""
    n = len(attrs)
    grand = np.zeros((n + 1, n + 1, n + 1))
    for g, h, d in itertools.product(range(n + 1), range(1, n + 1), range(1, n + 1)):
        if g != h and h != d:
            grand[g, h, d] = coef[grandparent_features(attrs, g, h, d, n_features)].sum()
    return grand


def tree_perceptron(sentences, gold, order_visit, n_features, decode, order=1, grandparents=False):
    """Averaged tree perceptron, one epoch; returns (coef, coef_sum).

    ``decode(arc, sib)`` (with ``grandparents``: ``decode(arc, sib, grand)``) returns the
    predicted heads: pass the kernel decoder (checked against brute force on its own)
    so that ties, frequent with integer weights, break the same way; everything else
    (features, update, averaging) is this twin's own.
    """
    coef, coef_sum, t = np.zeros(n_features), np.zeros(n_features), 0
    for i in order_visit:
        attrs, heads = sentences[i], [-1, *gold[i]]
        arc, sib = tree_potentials(attrs, coef, n_features, order)
        if grandparents:
            pred = decode(arc, sib, grandparent_potentials(attrs, coef, n_features))
        else:
            pred = decode(arc, sib)
        pred = [int(h) for h in pred]
        if pred[1:] != heads[1:]:
            for ids, sign in (
                (tree_features(attrs, heads, n_features, order, grandparents), 1.0),
                (tree_features(attrs, pred, n_features, order, grandparents), -1.0),
            ):
                np.add.at(coef, ids, sign)
                np.add.at(coef_sum, ids, sign * t)
        t += 1
    return coef, coef_sum


LABEL_TEMPLATES = [
    (41, ("hp", "dp")), (42, ("hf", "dp")), (43, ("hp", "df")), (44, ("df",)), (45, ("dp",)),
    (46, ("hp",)), (47, ("hf",)), (48, ("hp", "dp", "dd")), (49, ("dp-1", "dp", "dp+1")),
    (50, ("hp", "hp+1", "dp")),
]  # fmt: skip


def label_features(attrs, h, d, label, n_features):
    """Feature ids of arc h -> d carrying relation ``label``."""
    a = lambda i, c: _attribute(attrs, i, c)  # noqa: E731
    values = {
        "hf": a(h, 0), "hp": a(h, 1), "df": a(d, 0), "dp": a(d, 1), "hp+1": a(h + 1, 1),
        "dp-1": a(d - 1, 1), "dp+1": a(d + 1, 1), "dd": direction_distance(h, d),
    }  # fmt: skip
    x = label * 2 + int(h < d)
    return [
        feature_hash(t, [values[name] for name in names], x, n_features)
        for t, names in LABEL_TEMPLATES
    ]


# -- arc-standard transitions: a Python twin of skstruct/_kernels/transition.py ----------------

SHIFT, LEFT, RIGHT = 0, 1, 2


class ArcStandardState:
    def __init__(self, n):
        self.n, self.stack, self.b = n, [0], 1
        self.heads = [-1] * (n + 1)
        self.lc, self.rc = [0] * (n + 1), [0] * (n + 1)
        self.nl, self.nr = [0] * (n + 1), [0] * (n + 1)

    def copy(self):
        other = ArcStandardState(self.n)
        other.stack, other.b, other.heads = list(self.stack), self.b, list(self.heads)
        other.lc, other.rc, other.nl, other.nr = list(self.lc), list(self.rc), list(self.nl), list(self.nr)  # fmt: skip # noqa: E501
        return other

    def valid(self, action):
        if action == SHIFT:
            return self.b <= self.n
        if len(self.stack) < 2:
            return False
        s1 = self.stack[-2]
        return s1 != 0 if action == LEFT else (s1 != 0 or self.b > self.n)

    def apply(self, action):
        if action == SHIFT:
            self.stack.append(self.b)
            self.b += 1
        elif action == LEFT:
            s0, s1 = self.stack[-1], self.stack[-2]
            self.heads[s1] = s0
            self.lc[s0] = s1 if self.lc[s0] == 0 else min(self.lc[s0], s1)
            self.nl[s0] += 1
            del self.stack[-2]
        else:
            s0, s1 = self.stack[-1], self.stack[-2]
            self.heads[s0] = s1
            self.rc[s1] = max(self.rc[s1], s0)
            self.nr[s1] += 1
            self.stack.pop()

    def features(self, attrs, n_features, action):
        a = lambda i, c: _attribute(attrs, i, c) if i >= 0 else NONE  # noqa: E731
        st = self.stack
        s0, s1, s2 = (st[-k] if len(st) >= k else -1 for k in (1, 2, 3))
        b0, b1, b2 = self.b, self.b + 1, self.b + 2

        def child(node, side):
            c = (self.lc if side == "l" else self.rc)[node] if node >= 0 else 0
            return a(c, 1) if c > 0 else NONE

        dist = direction_distance(s1, s0) if s1 >= 0 else 0
        v0 = self.nl[s0] * 16 + self.nr[s0]
        v1 = self.nl[s1] * 16 + self.nr[s1] if s1 >= 0 else 0
        s0w, s0p, s1w, s1p = a(s0, 0), a(s0, 1), a(s1, 0), a(s1, 1)
        b0w, b0p, b1w, b1p = a(b0, 0), a(b0, 1), a(b1, 0), a(b1, 1)
        atoms = [
            [s0w], [s0p], [s0w, s0p], [s1w], [s1p], [s1w, s1p], [b0w], [b0p], [b0w, b0p],
            [b1p], [b1w], [s0w, s1w], [s0p, s1p], [s0w, s0p, s1p], [s0p, s1w, s1p],
            [s0w, s0p, s1w, s1p], [s0p, s1p, b0p], [s0p, b0p], [s0w, b0w],
            [s1p, s0p, child(s0, "l")], [s1p, s0p, child(s0, "r")],
            [s1p, child(s1, "l"), s0p], [s1p, child(s1, "r"), s0p], [s0p, s1p, dist],
            [s0w, dist], [a(s2, 1), s1p, s0p], [s0p, b0p, b1p], [b0p, b1p, a(b2, 1)],
            [s0p, v0], [s1p, v1],
        ]  # fmt: skip
        return [feature_hash(101 + k, atom, action, n_features) for k, atom in enumerate(atoms)]


def arc_standard_oracle(gold):
    """Gold actions of a projective tree (heads per word, 1-based), by the static oracle."""
    n = len(gold)
    heads = [-1, *gold]
    state, actions = ArcStandardState(n), []
    while len(actions) < 2 * n:
        st = state.stack
        if len(st) >= 2 and st[-2] != 0 and heads[st[-2]] == st[-1]:
            action = LEFT
        elif (
            len(st) >= 2
            and heads[st[-1]] == st[-2]
            and all(state.heads[d] == st[-1] for d in range(1, n + 1) if heads[d] == st[-1])
            and (st[-2] != 0 or state.b > n)
        ):
            action = RIGHT
        else:
            action = SHIFT
        assert state.valid(action)
        state.apply(action)
        actions.append(action)
    return actions, state.heads[1:]


def arc_standard_beam(attrs, coef, n_features, beam_size, gold_actions):
    """Beam search with gold tracking; returns (heads, best, gold, in_beam, best_is_gold)."""
    n = len(attrs)
    beam = [(0.0, ArcStandardState(n), True)]
    gold_state, gold_total = ArcStandardState(n), 0.0
    best, gold_scores, in_beam, best_is_gold = [], [], [], []
    for t in range(2 * n):
        candidates = []
        for score, state, is_gold in beam:
            for action in (SHIFT, LEFT, RIGHT):
                if state.valid(action):
                    s = score + coef[state.features(attrs, n_features, action)].sum()
                    candidates.append((s, state, is_gold and action == gold_actions[t], action))
        candidates.sort(key=lambda c: -c[0])  # stable: ties keep (item, action) order
        beam = []
        for s, state, is_gold, action in candidates[:beam_size]:
            state = state.copy()
            state.apply(action)
            beam.append((s, state, is_gold))
        gold_total += coef[gold_state.features(attrs, n_features, gold_actions[t])].sum()
        gold_state.apply(gold_actions[t])
        best.append(beam[0][0])
        gold_scores.append(gold_total)
        in_beam.append(any(g for _, _, g in beam))
        best_is_gold.append(beam[0][2])
    return beam[0][1].heads[1:], best, gold_scores, in_beam, best_is_gold


def eg_alpha_table(
    examples, C, rates, visits, adaptive, online=True, max_halvings=30, growth=1.1, ceiling=None
):
    """The slides' EG algorithm on explicit dual tables ``alpha[i][y]``; yields ``w``
    after every online step (or batch iteration).

    ``examples``: per example ``(phi, loss, gold, log_alpha)``: features of every
    output (rows), their losses, the gold row and the initial log-weights of alpha.
    ``visits``: online, example indices in order; batch, the number of iterations.
    ``rates``: per example (online) or a one-element list (batch), updated in place:
    halved until the step raises the dual (when ``adaptive``), times ``growth`` (at
    most ``ceiling``, default the first rate) after a step taken at once.
    """

    def normalized(log_weights):
        log_weights = np.asarray(log_weights, dtype=float)
        return log_weights - np.logaddexp.reduce(log_weights)

    ceiling = max(rates) if ceiling is None else ceiling
    deltas = [phi[gold] - phi for phi, _, gold, _ in examples]
    alphas = [normalized(log_alpha) for *_, log_alpha in examples]  # kept as logs

    def weights(alphas):
        return C * sum(np.exp(a) @ delta for a, delta in zip(alphas, deltas))

    def dual(alphas):
        w = weights(alphas)
        return C * sum(np.exp(a) @ ex[1] for a, ex in zip(alphas, examples)) - 0.5 * w @ w

    def stepped(i, log_alpha, w, eta):
        margins = deltas[i] @ w
        return normalized(log_alpha + eta * (examples[i][1] - margins))

    w = weights(alphas)
    if online:
        for i in visits:
            eta = rates[i]
            for halvings in range(max_halvings + 1):
                trial = [*alphas[:i], stepped(i, alphas[i], w, eta), *alphas[i + 1 :]]
                if not adaptive or dual(trial) >= dual(alphas):
                    alphas = trial
                    rates[i] = min(eta * growth, ceiling) if adaptive and halvings == 0 else eta
                    break
                eta /= 2
            w = weights(alphas)
            yield w
        return
    for _ in range(visits):
        eta = rates[0]
        for halvings in range(max_halvings + 1):
            trial = [stepped(i, a, w, eta) for i, a in enumerate(alphas)]
            if not adaptive or dual(trial) >= dual(alphas):
                alphas = trial
                rates[0] = min(eta * growth, ceiling) if adaptive and halvings == 0 else eta
                break
            eta /= 2
        w = weights(alphas)
        yield w


# -- arc-eager transitions: a Python twin of skstruct/_kernels/arc_eager.py ----------------------

REDUCE = 3


class ArcEagerState:
    """Arc-eager parser state: the root at the bottom of the stack; a headless word
    reduced once the buffer is empty gets the word (or root) below it as its head."""

    def __init__(self, n):
        self.n, self.stack, self.b = n, [0], 1
        self.heads = [-1] * (n + 1)

    def copy(self):
        other = ArcEagerState(self.n)
        other.stack, other.b, other.heads = list(self.stack), self.b, list(self.heads)
        return other

    def children(self, h):
        return [d for d in range(1, self.n + 1) if self.heads[d] == h]

    def valid(self, action):
        s0, buffer_empty = self.stack[-1], self.b > self.n
        if action == SHIFT:
            return not buffer_empty
        if action == LEFT:
            return not buffer_empty and s0 != 0 and self.heads[s0] == -1
        if action == RIGHT:
            return not buffer_empty and (s0 != 0 or not self.children(0))
        return s0 != 0 and (buffer_empty or self.heads[s0] > 0)

    def apply(self, action):
        if action == SHIFT:
            self.stack.append(self.b)
            self.b += 1
        elif action == LEFT:
            self.heads[self.stack.pop()] = self.b
        elif action == RIGHT:
            self.heads[self.b] = self.stack[-1]
            self.stack.append(self.b)
            self.b += 1
        else:
            s0 = self.stack.pop()
            if self.heads[s0] == -1:
                self.heads[s0] = self.stack[-1]

    def features(self, attrs, n_features, action):
        n = self.n

        def a(i, c):
            return _attribute(attrs, i, c) if i >= 0 else NONE

        st = self.stack
        s0 = st[-1]
        s1 = st[-2] if len(st) >= 2 else -1
        s2 = st[-3] if len(st) >= 3 else -1
        b0, b1, b2 = self.b, self.b + 1, self.b + 2
        h = self.heads[s0]
        hh = self.heads[h] if h > 0 else -1
        s0_children = self.children(s0)
        left = [d for d in s0_children if d < s0]
        right = [d for d in s0_children if d > s0]
        b0_left = [d for d in self.children(b0) if d < b0] if b0 <= n else []
        lc, rc = min(left, default=-1), max(right, default=-1)
        b0lc = min(b0_left, default=-1)
        d = direction_distance(s0, b0) if b0 <= n else 0
        has_head = 0 if h == -1 else 1 if h == 0 else 2
        s0w, s0p, b0w, b0p = a(s0, 0), a(s0, 1), a(b0, 0), a(b0, 1)
        atoms = [
            [s0w, s0p], [s0w], [s0p], [b0w, b0p], [b0w], [b0p],
            [a(b1, 0), a(b1, 1)], [a(b1, 0)], [a(b1, 1)],
            [a(b2, 0), a(b2, 1)], [a(b2, 0)], [a(b2, 1)],
            [s0w, s0p, b0w, b0p], [s0w, s0p, b0w], [s0w, b0w, b0p], [s0w, s0p, b0p],
            [s0p, b0w, b0p], [s0w, b0w], [s0p, b0p], [b0p, a(b1, 1)],
            [b0p, a(b1, 1), a(b2, 1)], [s0p, b0p, a(b1, 1)], [a(h, 1), s0p, b0p],
            [s0p, a(lc, 1), b0p], [s0p, a(rc, 1), b0p], [s0p, b0p, a(b0lc, 1)],
            [s0w, d], [s0p, d], [b0w, d], [b0p, d], [s0w, b0w, d], [s0p, b0p, d],
            [s0w, len(right)], [s0p, len(right)], [s0w, len(left)], [s0p, len(left)],
            [b0w, len(b0_left)], [b0p, len(b0_left)],
            [a(h, 0)], [a(h, 1)], [a(lc, 0)], [a(lc, 1)], [a(rc, 0)], [a(rc, 1)],
            [a(b0lc, 0)], [a(b0lc, 1)], [a(hh, 0)], [a(hh, 1), a(h, 1), s0p],
            [s0p, has_head, b0p], [s0w, has_head], [a(s1, 1), s0p, b0p],
            [a(s2, 1), a(s1, 1), s0p, a(s1, 0)],
        ]  # fmt: skip

        def hashed(first, templates):
            return [
                feature_hash(first + k, atom, action, n_features)
                for k, atom in enumerate(templates)
            ]

        features = hashed(201, atoms)
        width = len(attrs[0]) if attrs else 0
        if width <= 3:  # no coarse POS (column 3): the word and POS templates alone
            return features
        s0c, s1c, b0c, b1c, b2c = a(s0, 3), a(s1, 3), a(b0, 3), a(b1, 3), a(b2, 3)
        coarse = [
            [s0c], [b0c], [a(b1, 3)], [s0c, b0c], [s0c, b0c, b1c], [s1c, s0c, b0c],
            [a(h, 3), s0c, b0c], [s0c, a(lc, 3), b0c], [s0c, a(rc, 3), b0c],
            [s0c, b0c, a(b0lc, 3)],
            [s0w, b0c], [s0c, b0w], [s0c, b0c, d], [b0c, b1c, b2c],
        ]  # fmt: skip
        features += hashed(253, coarse)
        for column in range(4, width):  # the fields
            s0f, b0f = a(s0, column), a(b0, column)
            field = [
                [s0f], [b0f], [a(b1, column)], [s0f, b0f], [s0f, b0c], [s0c, b0f],
                [a(h, column), s0c], [s0f, s0c], [b0f, b0c],
            ]  # fmt: skip
            features += hashed(270 + 10 * (column - 4), field)
        return features


def arc_eager_oracle(gold):
    """Gold arc-eager actions of a tree (heads per word, 1-based) by the static oracle,
    and the heads they build; ``None`` when the oracle finds no valid action."""
    n = len(gold)
    heads = [-1, *gold]
    state, actions = ArcEagerState(n), []
    while len(actions) < 2 * n:
        s0, b = state.stack[-1], state.b
        done = all(state.heads[d] == s0 for d in range(1, n + 1) if heads[d] == s0)
        if b <= n and s0 != 0 and heads[s0] == b and state.valid(LEFT):
            action = LEFT
        elif b <= n and heads[b] == s0 and state.valid(RIGHT):
            action = RIGHT
        elif (b > n or done) and state.valid(REDUCE):
            action = REDUCE
        elif state.valid(SHIFT):
            action = SHIFT
        else:
            return None
        state.apply(action)
        actions.append(action)
    return actions, state.heads[1:]


def arc_eager_beam(attrs, coef, n_features, beam_size, gold_actions):
    """Beam search with gold tracking; returns (heads, best, gold, in_beam, best_is_gold)."""
    n = len(attrs)
    beam = [(0.0, ArcEagerState(n), True)]
    gold_state, gold_total = ArcEagerState(n), 0.0
    best, gold_scores, in_beam, best_is_gold = [], [], [], []
    for t in range(2 * n):
        candidates = []
        for score, state, is_gold in beam:
            for action in (SHIFT, LEFT, RIGHT, REDUCE):
                if state.valid(action):
                    s = score + coef[state.features(attrs, n_features, action)].sum()
                    candidates.append((s, state, is_gold and action == gold_actions[t], action))
        candidates.sort(key=lambda c: -c[0])  # stable: ties keep (item, action) order
        beam = []
        for s, state, is_gold, action in candidates[:beam_size]:
            state = state.copy()
            state.apply(action)
            beam.append((s, state, is_gold))
        gold_total += coef[gold_state.features(attrs, n_features, gold_actions[t])].sum()
        gold_state.apply(gold_actions[t])
        best.append(beam[0][0])
        gold_scores.append(gold_total)
        in_beam.append(any(g for _, _, g in beam))
        best_is_gold.append(beam[0][2])
    return beam[0][1].heads[1:], best, gold_scores, in_beam, best_is_gold


# -- block-coordinate Frank-Wolfe: Algorithm 3 of Lacoste-Julien et al. (2013) ---------------


def bcfw_table(examples, C, steps):
    """BCFW-wavg on explicit outputs, in the paper's own scaling: ``min lambda/2 ||w||^2
    + 1/n sum_i H_i(w)`` with ``lambda = 1 / (n C)``, blocks ``w_i``, ``l_i`` starting
    at 0, ``w_s = psi_i(y*) / (lambda n)``, ``l_s = L_i(y*) / n``, the line search
    clipped to [0, 1], and ``w_bar(k+1) = k/(k+2) w_bar(k) + 2/(k+2) w(k+1)``.

    ``examples``: per example ``(phi, loss, gold, _)`` (features and losses of every
    output, the gold row). ``steps``: ``(i, y)`` pairs, the example of each step and
    the row of the output the oracle returned (the caller checks that it maximises
    ``loss + phi @ w``). Yields ``(w, w_bar, gamma, dual)`` after every step, the dual
    ``-lambda/2 ||w||^2 + l`` rescaled to ``1/2 ||w||^2 + C sum_i H_i``'s units
    (times ``n C``).
    """
    n, d = len(examples), examples[0][0].shape[1]
    lam = 1.0 / (n * C)
    w_blocks, l_blocks = [np.zeros(d) for _ in range(n)], np.zeros(n)
    w, w_bar, total_loss = np.zeros(d), np.zeros(d), 0.0
    for k, (i, y) in enumerate(steps):
        phi, loss, gold, _ = examples[i]
        w_s = (phi[gold] - phi[y]) / (lam * n)
        l_s = loss[y] / n
        difference = w_blocks[i] - w_s
        numerator = lam * difference @ w - l_blocks[i] + l_s
        denominator = lam * difference @ difference
        if denominator > 0:
            gamma = min(max(numerator / denominator, 0.0), 1.0)
        else:
            gamma = 1.0 if numerator > 0 else 0.0
        new_w, new_l = (
            (1 - gamma) * w_blocks[i] + gamma * w_s,
            (1 - gamma) * l_blocks[i] + gamma * l_s,
        )
        w = w + new_w - w_blocks[i]
        total_loss += new_l - l_blocks[i]
        w_blocks[i], l_blocks[i] = new_w, new_l
        w_bar = k / (k + 2) * w_bar + 2 / (k + 2) * w
        yield w, w_bar, gamma, n * C * (total_loss - lam / 2 * w @ w)
