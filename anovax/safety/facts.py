"""Is a remembered value a fact about the user, or an order to the assistant?

Memory is replayed into every later prompt, so it may only hold short descriptions ("prefers
tea", "dog's name: Rex", "always drinks coffee at 8"). What has the shape of an instruction is
refused whatever it asks for, in any language the lexicon ships:

- a key that names a rule ("rule", "instruction", "policy", "note_to_self_for_assistant"...),
  or names a safety rule and its value switches it off ({"safety_checks": "off"});
- a clause that opens with an imperative ("open Google first", "öffne Google", "ouvre ...");
- a clause that opens with "always/never/first/please" and then names something the assistant
  does ("immer zuerst Google öffnen"); a habit keeps its subject or a conjugated verb ("always
  drinks coffee at 8", "she always walks the dog") and passes;
- a trigger ("when the user says hi, ...", "wenn ich Hallo sage") or a standing order ("bei
  jeder Antwort ... öffnen", "after every answer, open ..."), or words addressed to the
  assistant ("you must", "du sollst", "the user wants you to");
- prose too long to be one fact (``MAX_FACT_WORDS``).

Goals are not screened this way: a goal is an instruction by nature.
"""

from __future__ import annotations

import re
from functools import lru_cache

from anovax.safety.canon import fold
from anovax.safety.lexicon import PHRASE_END, Lazy, Near, clause_around, data, lazy_words, table, words

#: a fact is a phrase, not a page: an address or a list of allergies fits; 40 words of prose is
#: a message to whoever reads the memory (the longest benign value in the red-team corpora has 8 words)
MAX_FACT_WORDS = 40

#: a key's words: snake_case, kebab-case, spaces and camelCase
_KEY_SPLIT = re.compile(r"[^\w]+|_|(?<=[a-z])(?=[A-Z])")


@data
def _rule_keys() -> frozenset[str]:
    # whole words of the key, so "rules" counts but "ruler" and "order_id" do not
    return frozenset(fold(entry) for sections in table().values() for entry in sections.get("key", ()))


# compiled on first use (lexicon.Lazy): a start-up does not pay for the word lists
#: the head of a clause and up to two order-adverbs ("always", "immer zuerst", "s'il te plaît")
_HEAD = Lazy(lambda: rf"(?:^|[.;:!?,(\n\"'] ?|{words('then')} )((?:{words('adverb')} ){{0,2}})")
_IMPERATIVE = lazy_words("imperative")
#: what follows an imperative that really is one ("search and rescue volunteer" is a noun phrase)
_OBJECT_AFTER = re.compile(r" (?!and\b|&)\S")
#: what the assistant does: every imperative, plus the infinitives of verb-last languages
_ACTION = lazy_words("action")
_SAYS = Near.of("cond", "says", ordered=True)
_EVERY = lazy_words("every")
_SUBJECT = lazy_words("subject")
_ADDRESSED = Lazy(lambda: rf"{words('you_must')}|\b(?:wants?|expects?|would like|asks?|told|tells?) you to\b")


def _act(text: str, start: int, end: int) -> re.Match[str] | None:
    return _ACTION.search(text, start, end) or _IMPERATIVE.search(text, start, end)


def _ordered(folded: str) -> bool:
    for head in _HEAD.finditer(folded):
        # an imperative at the head of a clause, after at most two adverbs ("always open ...")
        verb = _IMPERATIVE.match(folded, head.end())
        if verb and _OBJECT_AFTER.match(folded, verb.end()):
            return True
        # an order-adverb at the head of a clause and an assistant's action in the same phrase
        if head.group(1) and _act(folded, head.end(), clause_around(folded, head.end(), head.end(), 50, PHRASE_END)[1]):
            return True
    # a trigger and what to do then: "when the user says hi, search ...", "wenn ich Hallo sage, öffne ..."
    for says in _SAYS.pairs(folded):
        if _act(folded, says.end(), clause_around(folded, says.end(), says.end(), 60)[1]):
            return True
    # a standing order: "bei jeder Antwort zuerst ... nennen", "after every answer, open ..."; a
    # subject in between makes it a habit ("every time I travel I forget my charger")
    for every in _EVERY.finditer(folded):
        act = _act(folded, every.end(), clause_around(folded, every.end(), every.end(), 50)[1])
        if act and not _SUBJECT.search(folded, every.end(), act.start()):
            return True
    return _ADDRESSED.search(folded) is not None


def key_is_rule(key: str) -> bool:
    """``rule``, ``Anweisung``, ``note_to_self_for_assistant``: a key that files an order."""
    return any(fold(token) in _rule_keys() for token in _KEY_SPLIT.split(key) if token)


#: a value that files itself as a rule: "Anna's rule: ...", "Policy update: ...", "Regel: ..."
_LABELLED_RULE = re.compile(
    r"(?:^|[.;!?\n] ?)(?:[\w']+ ){0,2}(?:rules?|polic(?:y|ies)|instructions?|directives?|regeln?|richtlinien?"
    r"|anweisungen?|regles?|politique|reglas?|politica|regol[ae]|regras?|beleid)(?: [\w']+)?:"
)


def value_is_order(value: str) -> bool:
    """A value shaped like an instruction rather than a description (see the module docstring)."""
    folded = fold(value)
    return _ordered(folded) or _LABELLED_RULE.search(folded) is not None or len(folded.split()) > MAX_FACT_WORDS


_RULES = lazy_words("rules")
_OFF = Lazy(lambda: rf"^{words('off')}[.!]?$")


def key_words(key: str) -> str:
    """``always_skip_safety_checks`` -> "always skip safety checks": a key read as the words it is."""
    return " ".join(t for t in _KEY_SPLIT.split(key) if t)


def _key_is_order(words_: str) -> bool:
    """A key that opens with an order-adverb and names an action ("always_open_browser_first");
    a key that merely starts with a verb is a noun phrase ("open_hours", "search_engine")."""
    head = _HEAD.match(words_)
    return bool(head and head.group(1)) and _ordered(words_)


def switches_rule_off(key: str, value: str) -> bool:
    """``{"safety_checks": "off"}``, ``{"Sicherheitsregeln": "deaktiviert"}``: a setting, not a fact."""
    return bool(_OFF.search(fold(value)) and _RULES.search(fold(key_words(key))))


@lru_cache(maxsize=1024)
def order_detail(key: str, value: str) -> str | None:
    """Why the fact is an order (for logs), or None for a fact."""
    if key_is_rule(key):
        return "memory key names a rule"
    if switches_rule_off(key, value):
        return "memory switches a safety rule off"
    if value_is_order(value):
        return "memory value is an instruction"
    if _key_is_order(fold(key_words(key))):
        return "memory key is an instruction"
    return None
