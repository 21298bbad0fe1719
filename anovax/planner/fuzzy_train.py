"""Training the fuzzy matcher: word and word-pair counts per intent, from sentences sampled from
the grammar's templates with their slots as placeholders (``sampling.py``), plus what the matcher
checks a reading against: the slot combinations, the frames around free-text slots and the
smallest sets of content words each intent's sentences hold. See ``fuzzy.py`` for the reading.
"""

from __future__ import annotations

from collections import Counter

from hassil import Intents
from hassil.intents import TextSlotList

from anovax.planner.fuzzy import (
    _END,
    _START,
    FUNCTION,
    KNOWN_APPS_ONLY,
    NEVER_GUESSED,
    PER_TEMPLATE,
    FuzzyModel,
    IntentModel,
)
from anovax.planner.sampling import placeholder, samples, tokens


def train(grammar: Intents, per_template: int = PER_TEMPLATE) -> FuzzyModel:
    """Count words and word pairs per intent in sentences sampled from the templates."""
    wild = {name for name, lst in grammar.slot_lists.items() if not isinstance(lst, TextSlotList)}
    closed = {name: {_key(v.text_in.text if hasattr(v.text_in, "text") else str(v.text_in)): str(v.value_out)
                     for v in lst.values}
              for name, lst in grammar.slot_lists.items() if isinstance(lst, TextSlotList)}
    uni: dict[str, Counter[str]] = {}
    bi: dict[str, Counter[str]] = {}
    ctx: dict[str, Counter[str]] = {}
    combos: dict[str, set[tuple[str, ...]]] = {}
    wild_use: dict[str, Counter[str]] = {}
    frames: dict[str, set[str]] = {}
    keys: dict[str, set[frozenset[str]]] = {}
    for sample in samples(grammar, per_template, intents=frozenset(grammar.intents) - NEVER_GUESSED):
        slots = [t[1:-1] for t in sample.tokens if t.startswith("{")]
        wilds = [s for s in slots if s in wild]
        if len(wilds) > 1 or len(set(slots)) != len(slots):
            continue  # two free-text slots cannot be told apart by which words are unknown
        name = sample.intent
        if wilds and name in KNOWN_APPS_ONLY:
            continue
        u, b, c = uni.setdefault(name, Counter()), bi.setdefault(name, Counter()), ctx.setdefault(name, Counter())
        seq = [_START, *sample.tokens, _END]
        u.update(sample.tokens + (_END,))
        c.update(seq[:-1])
        b.update(f"{x} {y}" for x, y in zip(seq, seq[1:]))
        combos.setdefault(name, set()).add(tuple(sorted(slots)))
        wild_use.setdefault(name, Counter()).update(wilds)
        keys.setdefault(name, set()).add(frozenset(
            t for t in sample.tokens if t not in FUNCTION and (not t.startswith("{") or t[1:-1] not in wild)))
        for w in wilds:
            i = seq.index(placeholder(w))
            frames.setdefault(name, set()).add(f"{seq[i - 2] if i > 1 else _START} {seq[i - 1]} {seq[i + 1]}")
    models = {
        name: IntentModel(dict(uni[name]), dict(bi[name]), dict(ctx[name]), [list(c) for c in sorted(combos[name])],
                          [w for w, _n in wild_use[name].most_common()],
                          sorted({s for c in combos[name] for s in c if s in closed}), sum(uni[name].values()),
                          sorted(frames.get(name, ())), _minimal(keys[name]))
        for name in uni
    }
    return FuzzyModel(models, closed)


def _minimal(sets: set[frozenset[str]]) -> list[list[str]]:
    """The sets none of the others is a subset of, smallest first (sorted lists, for JSON)."""
    out: list[frozenset[str]] = []
    for ks in sorted(sets, key=lambda k: (len(k), sorted(k))):
        if not any(k <= ks for k in out):
            out.append(ks)
    return [sorted(k) for k in out]


def _key(text: str) -> str:
    return " ".join(tokens(text))
