"""Random sentences from the grammar's templates, as token lists.

Two readers: the fuzzy matcher (``fuzzy.py``) learns word statistics from sentences whose slots
are left as placeholders ("search for {query}"), and the speech check samples sentences with
real slot values to see that the recogniser can hear every word. Each alternative of a template
is equally likely, the same choice hassil's own sampler makes.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from hassil import Intents
from hassil.expression import Alternative, Expression, ListReference, Permutation, RuleReference, Sequence, TextChunk

#: a slot's filler: the list name -> the words put in its place
Filler = Callable[[str], str]

_TOKEN = re.compile(r"\{[a-z_]+\}|[a-z0-9][a-z0-9'+&$%@./-]*", re.I)


@dataclass(frozen=True)
class Sample:
    """One sampled sentence."""

    #: the intent whose template it came from
    intent: str
    #: its words, lower case; a slot left as a placeholder is one token, "{name}"
    tokens: tuple[str, ...]


def placeholder(name: str) -> str:
    """The token a slot stands as in a sampled sentence."""
    return "{" + name + "}"


def tokens(text: str) -> list[str]:
    """Lower-case word tokens (apostrophes kept, so "what's" is one token)."""
    return _TOKEN.findall(text.lower().replace("’", "'"))


def samples(grammar: Intents, per_template: int, fill: Filler = placeholder, *,
            seed: str = "anovax", intents: frozenset[str] | None = None) -> Iterator[Sample]:
    """Up to ``per_template`` distinct sentences from every template (fewer when it has fewer)."""
    rules = grammar.expansion_rules
    for name in sorted(grammar.intents):
        if intents is not None and name not in intents:
            continue
        for d, data in enumerate(grammar.intents[name].data):
            for s, sentence in enumerate(data.sentences):
                rng = random.Random(f"{seed}:{name}:{d}:{s}")
                seen: set[tuple[str, ...]] = set()
                for _ in range(per_template * 2):  # duplicates are drawn too; stop trying at twice the count
                    toks = tuple(tokens(_walk(sentence.expression, rules, fill, rng)))
                    if toks and toks not in seen:
                        seen.add(toks)
                        yield Sample(name, toks)
                        if len(seen) >= per_template:
                            break


def _walk(expr: Expression, rules: dict, fill: Filler, rng: random.Random) -> str:
    """One random string of the expression."""
    if isinstance(expr, TextChunk):
        return expr.original_text or expr.text or ""
    if isinstance(expr, RuleReference):
        return _walk(rules[expr.rule_name].expression, rules, fill, rng)
    if isinstance(expr, ListReference):
        return f" {fill(expr.slot_name)} "
    if isinstance(expr, Alternative):
        return _walk(rng.choice(expr.items), rules, fill, rng) if expr.items else ""
    if isinstance(expr, Permutation):
        items = list(expr.items)
        rng.shuffle(items)
        return " ".join(_walk(e, rules, fill, rng) for e in items)
    if isinstance(expr, Sequence):
        return "".join(_walk(e, rules, fill, rng) for e in expr.items)
    return ""
