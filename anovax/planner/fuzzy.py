"""The fuzzy fallback: which intent a clause the templates did not match most likely means.

The idea is Home Assistant's fuzzy matching for its local intents (its design, not its code):
the sentence templates are the training material. ``fuzzy_train.train`` samples sentences from every
template with the slots left as placeholders ("search [the web] for {query}") and counts, per
intent, its words and word pairs. ``FuzzyModel.match`` reads a clause the same way:

1. Filler words ("please", "ok", "just", the assistant's name) are dropped.
2. Values of the grammar's closed lists (known apps, hotkeys, weekdays) become their
   placeholder, for the intents that use that list.
3. For an intent with a free-text slot, the words the intent never uses become the slot (the
   span from the first such word to the last): "i'd love a search about {query}".
4. It must start and end the way one of the intent's templates does, and hold every content
   word of at least one sampled sentence ("the date" is not "the time and the date").
5. The result is scored with the intent's word-pair model (interpolated with single words,
   smoothed), per token. Only slot combinations the intent's templates have are allowed, and
   an intent must share a real word or list value with the clause (not only "the" or "me").

An intent is a candidate when its score clears ``THRESHOLD`` and no content word went
unexplained; ``fuzzy_reader.py`` takes the best candidate its handler accepts if it leads the
next one that would do something else by ``MARGIN``; otherwise the matcher declines and the
planner answers as it did before.

The model is plain counts (``to_dict`` / ``from_dict``), trained by ``fuzzy_train.py`` and
cached by ``fuzzy_cache.py``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from anovax.planner.sampling import placeholder

#: bump when training or the stored form changes: the cache key includes it
MODEL_VERSION = 3
#: sentences sampled per template
PER_TEMPLATE = 200
#: intents the matcher never guesses: they forget what the user told it, type or press keys
#: from free text, or close a window (guessing wrong there loses something); and small talk and
#: questions about the assistant, which a question about anything else resembles too closely
NEVER_GUESSED = frozenset({"forget", "forget_all", "close_app", "type_text", "press_keys", "goodbye", "recall",
                           "recall_all", "cancel_timer", "help", "identity", "how_are_you", "compliment", "sing",
                           "thanks", "greet", "timers_left", "list_windows"})
#: intents guessed only with an app the lexicon knows, never with free text for the app
#: ("go to sleep" is no app to switch to)
KNOWN_APPS_ONLY = frozenset({"open_app", "switch_to_app", "minimize_app", "maximize_app", "restore_app"})
#: words said around any request that carry no intent (dropped before matching)
FILLER = frozenset("""please pls plz ok okay um uh er erm hmm just kindly anova anovax actually quickly
    maybe hey yo alright so""".split())
#: words too common to show an intent on their own (an intent needs one other word in common)
FUNCTION = frozenset("""a an the to of for on in at by with and or is are be it this that me my i you your
    we us our can could would will do does did some any what's what it's i'd i'm like want need get""".split())
#: words that stay with a free-text slot when they lead it ("play the beatles": "the beatles")
_SLOT_LEADS = frozenset({"the", "a", "an"})
#: weight of the word-pair estimate against the single-word one
BIGRAM_WEIGHT = 0.6
#: add-alpha smoothing of the single-word estimate
ALPHA = 0.1
#: log-probability of a word swallowed by a free-text slot (beyond the one slot token)
ABSORBED_LOGP = math.log(0.02)
#: log-probability of a little word ("the", "could") the intent does not use, dropped
DROPPED_LOGP = math.log(0.1)
#: lowest mean log-probability per token a match may have
THRESHOLD = -3.1
#: how far (mean log-probability per token) the best intent must lead the next
MARGIN = 0.15
#: longer clauses are not guessed at (dictation and long questions are the cues' business)
MAX_WORDS = 24
_START, _END = "<s>", "</s>"


@dataclass
class IntentModel:
    """Word and word-pair counts of one intent's sampled sentences."""

    unigrams: dict[str, int]
    #: "a b" -> count (a space joins the pair; no token holds a space)
    bigrams: dict[str, int]
    #: how often each token is followed by anything (the word-pair estimate's denominator)
    contexts: dict[str, int]
    #: the sets of slot names the templates fill together (sorted lists, for JSON)
    combos: list[list[str]]
    #: free-text slots, most used first
    wildcards: list[str]
    #: closed lists it uses
    lists: list[str]
    total: int = 0
    #: the two words before and the word after a free-text slot, as seen in the samples ("search
    #: for </s>", "<s> play on"): the slot's frame must be one of these, not halves of two templates
    frames: list[str] = field(default_factory=list)
    #: the smallest sets of content words (and closed-list slots) a sample holds: a clause must
    #: hold every word of one of them ("the date" is not "the time and the date")
    keysets: list[list[str]] = field(default_factory=list)

    def logprob(self, seq: list[str]) -> float:
        """Log-probability of ``seq`` (start and end marks added), interpolated and smoothed."""
        vocab = len(self.unigrams) + 1
        lp = 0.0
        prev = _START
        for tok in [*seq, _END]:
            uni = (self.unigrams.get(tok, 0) + ALPHA) / (self.total + ALPHA * vocab)
            ctx = self.contexts.get(prev, 0)
            bi = self.bigrams.get(f"{prev} {tok}", 0) / ctx if ctx else 0.0
            lp += math.log(BIGRAM_WEIGHT * bi + (1 - BIGRAM_WEIGHT) * uni)
            prev = tok
        return lp


@dataclass(frozen=True)
class Entity:
    """A slot the matcher filled, shaped like hassil's MatchEntity for the handlers."""

    name: str
    value: Any
    text: str
    is_wildcard: bool
    #: where the slot's words are in the clause (character offsets)
    text_span: tuple[int, int]


@dataclass(frozen=True)
class _Intent:
    name: str


@dataclass
class FuzzyMatch:
    """The matcher's verdict, shaped like hassil's RecognizeResult for the handlers."""

    intent: _Intent
    entities: dict[str, Entity]
    #: mean log-probability per token
    score: float
    entities_list: list[Entity] = field(default_factory=list)


@dataclass
class FuzzyModel:
    """Per-intent counts plus the closed lists' values; ``match`` reads a clause with them."""

    intents: dict[str, IntentModel]
    #: list name -> {phrase: value}
    lists: dict[str, dict[str, str]]

    def to_dict(self) -> dict[str, Any]:
        return {"version": MODEL_VERSION, "lists": self.lists,
                "intents": {n: vars(m) for n, m in self.intents.items()}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FuzzyModel:
        if data.get("version") != MODEL_VERSION:
            raise ValueError("fuzzy model of another version")
        return cls({n: IntentModel(**m) for n, m in data["intents"].items()}, data["lists"])

    def candidates(self, clause: str, limit: int = 6) -> list[FuzzyMatch]:
        """The intents ``clause`` may mean, best first, those scoring under ``THRESHOLD`` left out."""
        words = [(m.group(0).lower().replace("’", "'"), m.start(), m.end())
                 for m in re.finditer(r"[\w'’+&$%@./-]+", clause)]
        words = [w for w in words if w[0] not in FILLER]
        if not words or len(words) > MAX_WORDS:
            return []
        found = _find_list_values(words, self.lists)
        scored = [got for name, model in self.intents.items()
                  if (got := _read(name, model, words, found, clause)) is not None and got.score >= THRESHOLD]
        scored.sort(key=lambda m: -m.score)
        return scored[:limit]


def _find_list_values(words: list[tuple[str, int, int]], lists: dict[str, dict[str, str]]) -> dict[str, tuple[int, int, str]]:
    """The first, longest value of each closed list in the words: list -> (first, end, value)."""
    found: dict[str, tuple[int, int, str]] = {}
    toks = [w[0] for w in words]
    for name, values in lists.items():
        for i in range(len(toks)):
            for n in (4, 3, 2, 1):
                phrase = " ".join(toks[i: i + n])
                if i + n <= len(toks) and phrase in values:
                    found[name] = (i, i + n, values[phrase])
                    break
            if name in found:
                break
    return found


def _read(name: str, model: IntentModel, words: list[tuple[str, int, int]],
          found: dict[str, tuple[int, int, str]], clause: str) -> FuzzyMatch | None:
    """The clause read as intent ``name``: its tokens, slots and score, or None when it cannot be."""
    toks = [w[0] for w in words]
    seq: list[str | None] = list(toks)
    entities: dict[str, Entity] = {}

    def place(slot: str, a: int, b: int, value: Any, wild: bool) -> None:
        span = (words[a][1], words[b - 1][2])
        entities[slot] = Entity(slot, value if not wild else clause[span[0]: span[1]], clause[span[0]: span[1]], wild, span)
        seq[a] = placeholder(slot)
        for i in range(a + 1, b):
            seq[i] = None

    for lst in model.lists:
        if lst in found:
            a, b, value = found[lst]
            if all(s is not None for s in seq[a:b]):
                place(lst, a, b, value, False)
    for i, t in enumerate(seq):  # "today's" reads as "today" where the intent knows only that
        if t is not None and t.endswith("'s") and t not in model.unigrams and t[:-2] in model.unigrams:
            seq[i] = t[:-2]
    content = [i for i, t in enumerate(seq) if t is not None and not t.startswith("{")
               and t not in model.unigrams and t not in FUNCTION]
    wildcard = _wildcard_for(model, set(entities))
    if content and wildcard:
        span = _slot_span(model, seq, content[0], content[-1] + 1, placeholder(wildcard))
        if span is None:
            return None
        place(wildcard, *span, None, True)
        content = []
    if sorted(entities) not in model.combos or content:
        return None
    # unknown little words ("i", "could", "the") are dropped, each at the cost of an unknown word
    final = [t for t in seq if t is not None and (t.startswith("{") or t in model.unigrams)]
    unused = len([t for t in seq if t is not None]) - len(final)
    if unused * 2 >= len(toks):
        return None  # mostly words the intent never uses
    # little words at the edges no template puts there ("a screenshot") are dropped too
    while len(final) > 1 and final[0] in FUNCTION and f"{_START} {final[0]}" not in model.bigrams:
        final.pop(0)
    while len(final) > 1 and final[-1] in FUNCTION and f"{final[-1]} {_END}" not in model.bigrams:
        final.pop()
    dropped = len([t for t in seq if t is not None]) - len(final)
    anchors = [t for t in final if (t[1:-1] not in model.wildcards if t.startswith("{")
                                    else t in model.unigrams and t not in FUNCTION)]
    if not anchors:
        return None
    # it must start and end as some template does ("find me info on" is not "find x on youtube")
    if f"{_START} {final[0]}" not in model.bigrams or f"{final[-1]} {_END}" not in model.bigrams:
        return None
    held = set(final)
    if not any(held.issuperset(k) for k in model.keysets):
        return None
    # per word of the clause, so a slot that swallows words pays for each as an unknown word would
    swallowed = sum(len(e.text.split()) - 1 for e in entities.values() if e.is_wildcard)
    score = (model.logprob(final) + swallowed * ABSORBED_LOGP + dropped * DROPPED_LOGP) / (len(toks) + 1)
    return FuzzyMatch(_Intent(name), entities, score, list(entities.values()))


def _slot_span(model: IntentModel, seq: list[str | None], a: int, b: int, slot: str) -> tuple[int, int] | None:
    """The span a free-text slot takes: from the unknown words ``a:b``, widened (by at most two
    words each side) until the words around it are a frame the templates put around that slot."""
    while a > 0 and seq[a - 1] in _SLOT_LEADS:
        a -= 1
    frames = set(model.frames)
    for left in range(a, max(-1, a - 3), -1):
        for right in range(b, min(len(seq), b + 2) + 1):
            before = [seq[left - 2] if left > 1 else _START, seq[left - 1] if left > 0 else _START]
            after = seq[right] if right < len(seq) else _END
            if None in before or after is None or f"{before[0]} {before[1]} {after}" not in frames:
                continue
            if any(s is None or s.startswith("{") for s in seq[left:right]):
                return None  # a list value inside the free text: not this intent
            return left, right
    return None


def _wildcard_for(model: IntentModel, lists: set[str]) -> str | None:
    """The free-text slot the intent fills beside ``lists`` in some template, or None."""
    for w in model.wildcards:
        if sorted(lists | {w}) in model.combos:
            return w
    return None
