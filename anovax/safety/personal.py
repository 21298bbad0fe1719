"""Remembered facts that leave without the person's words behind them.

A stored home address, a doctor's name or a birthday is not a secret (``taint`` refuses those
outright), but a search engine, a video site or the focused window is a third party. A plan that
searches, types or addresses a remembered value runs without a question only when the request
itself holds the value or names the fact ("restaurants near my home", "type my address"); any
other such plan asks first. That is the injection case: a web page that talks a model into
"search for weather at <the home address>" never has the person's words behind it.

- compared loosely: on skeletons (``stored.skeleton``), after percent-decoding
  (``14%20Rosebank%20Lane``), whole or by most of the value's words ("Dr Patel Hyde Park
  Surgery" is "Dr Patel at Hyde Park Surgery"); a ``site:`` search is just another query;
- a one-word value (a city, a colour) is what personalises a search ("weather" in the stored city),
  so only values of two or more words (an address, a full name, a date) are screened;
- named: a word of the fact's key (``factnames.words``, "home" of ``home_address``) among the
  request's words, or every matched word of the value in the request;
- a goal that sends "everything you remember about me" anywhere is refused: no question can show
  what a sub-planner would do with it.

Each scan is linear in the texts and the facts (facts are capped by ``limits.MAX_MEMORY_FACTS``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote_plus

from anovax import factnames
from anovax.plan import Plan
from anovax.safety.canon import fold
from anovax.safety.context import Context
from anovax.safety.memory import FactKind, assess
from anovax.safety.stored import skeleton
from anovax.safety.verdict import Rule, Verdict
from anovax.toolspec import Sink

#: sinks whose text reaches a third party (a search engine) or the focused window (an address bar, a form)
_SENT = {Sink.QUERY: "a search", Sink.ADDRESS: "a web address", Sink.TYPED: "typed text"}
#: the shortest value compared whole (shorter ones are everyday text: "red", "3")
MIN_WHOLE = 4
#: a value matched by its words: this share of its words, at least two, this many letters in all
_SHARE = 0.6
_MIN_WORDS = 2
_MIN_LETTERS = 8
#: words that carry no identity ("Dr Patel *at* Hyde Park")
_GLUE = frozenset("a an the at of in on and to by for de la le van von".split())
#: key words too common to name a fact on their own ("my favourite song" does not name favourite_colour)
_WEAK_KEY = frozenset("favorite name number first last date day time my".split())
_WORD = re.compile(r"\w+")
#: a goal that sends everything remembered somewhere: a verb that sends and "everything you remember about me"
_SENDS = re.compile(r"\b(?:search|google|look up|lookup|send|share|post|upload|email|e-mail|mail|type|paste|"
                    r"write|tweet|publish|submit|enter|text|message|forward|put)\b")
_EVERYTHING_KNOWN = re.compile(
    r"\b(?:everything|all|anything|whatever|every fact|all the facts|all facts)\b[^.]{0,30}?"
    r"\b(?:you|u|i|anovax|assistant)\b[^.]{0,20}?\b(?:remember|remembered|know|knows|have stored|stored|saved|"
    r"recall|have on)\b[^.]{0,20}?\babout\b[^.]{0,10}?\b(?:me|the user|user|him|her|them|this person)\b"
    r"|\b(?:all|every)\b[^.]{0,10}\b(?:my|the user'?s|user)\b[^.]{0,10}\b(?:memories|stored facts|facts|"
    r"personal (?:data|details|information|info))\b")
_DUMP_REASON = "I won't send everything I remember about you anywhere."


@lru_cache(maxsize=1024)
def _words(text: str) -> tuple[str, ...]:
    return tuple(w for w in (skeleton(w) for w in _WORD.findall(fold(text))) if w)


def _matched(value: str, sent_shape: str, sent_words: set[str]) -> list[str] | None:
    """The words of ``value`` that ``sent`` carries when it carries the value, else None."""
    words = [w for w in _words(value) if w not in _GLUE]
    shape = skeleton(value)
    if len(shape) >= MIN_WHOLE and shape in sent_shape:
        return words or [shape]
    hits = [w for w in words if w in sent_words]
    if (len(hits) >= _MIN_WORDS and len(hits) >= _SHARE * len(words)
            and sum(len(w) for w in hits) >= _MIN_LETTERS):
        return hits
    return None


def _named(key: str, said: set[str], said_shape: str, hits: list[str]) -> bool:
    words = factnames.words(key)
    strong = [w for w in words if w not in _WEAK_KEY and len(w) >= 3] or list(words)  # "my name" names ``name``
    if any(w in said for w in strong):
        return True
    return bool(hits) and all(w in said or w in said_shape for w in hits)


def _said_words(text: str) -> set[str]:
    """The request's words, folded as fact names and as values are."""
    return set(factnames.words(text)) | set(_words(text)) | {w.rstrip("s") for w in factnames.words(text)}


def check(plan: Plan, ctx: Context) -> Verdict | None:
    for index, step in enumerate(plan.steps):
        for sink, value in ctx.registry[step.tool].texts(step.params):
            if sink in (Sink.GOAL, Sink.UNDECLARED) and _SENDS.search(fold(value)) \
                    and _EVERYTHING_KNOWN.search(fold(value)):
                return Verdict.refuse(Rule.PERSONAL_DATA, _DUMP_REASON, step=index, detail="goal sends all memory")
    facts = [(key, value) for key, value in ctx.memory
             if len(skeleton(value)) >= MIN_WHOLE and len([w for w in _words(value) if w not in _GLUE]) >= _MIN_WORDS
             and assess(key, value).kind is not FactKind.SECRET]
    if not facts:
        return None
    said = _said_words(ctx.user_text)
    said_shape = skeleton(ctx.user_text)
    for index, step in enumerate(plan.steps):
        for sink, value in ctx.registry[step.tool].texts(step.params):
            where = _SENT.get(sink)
            if where is None:
                continue
            texts = {value, unquote_plus(value)}
            shape = "".join(skeleton(t) for t in texts)
            words = {w for t in texts for w in _words(t)}
            for key, fact in facts:
                hits = _matched(fact, shape, words)
                if hits is None or _named(key, said, said_shape, hits):
                    continue
                name = factnames.spoken(key)
                question = f"Put your {name} into {where}? You didn't ask me to."
                if ctx.recovering:
                    return Verdict.refuse(Rule.PERSONAL_DATA, step=index, detail=f"fact {key!r} in {sink.value}")
                return Verdict.confirm(Rule.PERSONAL_DATA, question, step=index, target=f"your {name}",
                                       action=f"put your {name} into {where}", detail=f"fact {key!r} in {sink.value}")
    return None
