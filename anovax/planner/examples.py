""""What can I say": a few example phrases per ability, sampled from the offline grammar itself.

Every intent that is listed says so in its hassil ``metadata`` (grammar.yaml for the grammar's
own intents; a tool's ``ability`` and example params for the intents its phrases add), so a new
tool or intent shows up here the moment it is declared, and the examples stay true: each is
one of the intent's own templates, expanded by hassil's sampler with real slot values
(apps from the lexicon, the metadata's sample query), and kept only if the grammar hears it
as that intent. Templates are taken in the order grammar.yaml writes them, which is from the
plainest wording on ("type …" before "take a dictation …"; hassil keeps them longest first, for
matching): each intent's first example is its first template's shortest sentence ("what time is
it", not "whens my favourite colour"), the next ones a sentence of each next template, with words
not shown yet where it has them. No randomness: the list is the same on every run.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hassil import Intents
from hassil.expression import Alternative, Expression, Group, ListReference, RuleReference, Sequence, TextChunk
from hassil.intents import Intent, TextSlotList, WildcardSlotList
from hassil.sample import sample_expression

#: at most this many examples per ability, each at most this long (the list is read, not heard)
PER_ABILITY = 3
MAX_PHRASE_CHARS = 36
#: the first sentence of a reply that lists examples: the only part said aloud
INTRO = "Here are some things you can say:"
#: candidates drawn from each template, in hassil's order (the last choice varies fastest): enough
#: to reach a few dozen apps of the app list, whose template expands to tens of thousands
_PER_TEMPLATE = 300

#: the words of an optional group kept in the shortest sentences (see ``_articles_kept``)
_ARTICLES = frozenset("a an the some my your i".split())
#: determiners that cannot follow each other ("another a", "some the")
_DET_LEFT = frozenset("a an the some another my your more".split())
_DET_RIGHT = frozenset("a an the some my your".split())

#: (sentence, intent) -> does the planner hear ``sentence`` as ``intent``?
HeardAs = Callable[[str, str], bool]


@dataclass(frozen=True)
class Ability:
    """One heading of the list and its example phrases."""

    name: str
    phrases: tuple[str, ...]


def abilities(intents: Intents, heard_as: HeardAs) -> tuple[Ability, ...]:
    """The listed abilities, in the order their first intent appears, each with up to
    PER_ABILITY examples taken from its intents in turn."""
    grouped: dict[str, list[Intent]] = {}
    for intent in intents.intents.values():
        ability = _metadata(intent).get("ability")
        if ability:
            grouped.setdefault(str(ability), []).append(intent)
    out = []
    for name, members in grouped.items():
        pools = [(intent.name, _candidates(intents, intent)) for intent in members]
        phrases = _pick(pools, heard_as)
        if phrases:
            out.append(Ability(name, tuple(phrases)))
    return tuple(out)


def intro(found: tuple[Ability, ...]) -> str:
    """The first line, the only one said: the abilities by name (so someone who only hears the
    reply learns what to ask for), then INTRO."""
    names = [a.name[:1].lower() + a.name[1:] for a in found]
    if not names:
        return INTRO
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"I can help with {joined}. {INTRO}"


def listing(found: tuple[Ability, ...]) -> str:
    """The reply: ``intro`` on the first line (said), then one line per ability (shown)."""
    lines = [intro(found)]
    for ability in found:
        lines.append(f"{ability.name}: " + ", ".join(f'"{p}"' for p in ability.phrases))
    return "\n".join(lines)


def _pick(pools: list[tuple[str, list[list[str]]]], heard_as: HeardAs) -> list[str]:
    """Round robin over the intents, so an ability's examples show its different intents; from
    each, its templates in the order written, one example per template: the first template's
    first sentence the planner hears as that intent, then from each next template one with its
    first word whose other words were least shown already ("i need calculator" after "open
    notepad", not "i need notepad")."""
    picked: list[str] = []
    first_round = True
    while len(picked) < PER_ABILITY and any(pool for _, pool in pools):
        for intent, templates in pools:
            while templates:
                sentences = templates.pop(0)
                if not first_round and sentences:
                    # the template's own first word ("take a picture of the screen", not "grab a
                    # picture..."), its other words as new as it has them
                    shown, verb = {w for p in picked for w in p.split()}, sentences[0].split()[0]
                    sentences = sorted(sentences, key=lambda s: (s.split()[0] != verb, len(shown & set(s.split()))))
                sentence = next((s for s in sentences if s not in picked and heard_as(s, intent)), None)
                if sentence is not None:
                    picked.append(sentence)
                    break
            if len(picked) == PER_ABILITY:
                break
        first_round = False
    return picked


def _candidates(intents: Intents, intent: Intent) -> list[list[str]]:
    """Per template of ``intent``, its first sentences as hassil's sampler expands them (the
    first word of each choice first: the template's own wording), short and fluent ones only.
    A template with a wildcard the metadata gives no value for is skipped."""
    values = {str(k): [v] if isinstance(v, str) else list(v) for k, v in (_metadata(intent).get("slots") or {}).items()}
    wild = {n for n, lst in intents.slot_lists.items() if isinstance(lst, WildcardSlotList)}
    lists = {**intents.slot_lists,
             **{n: TextSlotList.from_strings(values[n], name=n) for n in set(intents.slot_lists) & set(values)}}
    out: list[list[str]] = []
    for data in intent.data:
        rules = {**intents.expansion_rules, **data.expansion_rules}
        written = {text: i for i, text in enumerate(data.sentence_texts)}
        for sentence in sorted(data.sentences, key=lambda s: written.get(s.text or "", len(written))):
            if set(sentence.list_names(rules)) & (wild - set(values)):
                continue
            found: list[str] = []
            kept = _RulesKept(rules)
            terse = sample_expression(_articles_kept(sentence.expression, kept), lists, kept, skip_optionals=True)
            for text in itertools.islice(terse, _PER_TEMPLATE):
                text = " ".join(text.split())
                if text and len(text) <= MAX_PHRASE_CHARS and _fluent(text) and text not in found:
                    found.append(text)
            out.append(found)
    return out


def _articles_kept(expr: Expression, rules: Mapping[str, Any] | None = None) -> Expression:
    """``expr`` with each optional group of articles ("[a|the]", or a rule of them: "<a>") made
    required when a word of the template follows it, so the shortest sentence is still English
    ("take a screenshot", "tell a joke", not "take screenshot"); before a slot (an app's name)
    it stays optional ("open notepad")."""
    if not isinstance(expr, Group):
        return expr
    items = [_articles_kept(item, rules) for item in expr.items]
    if isinstance(expr, Sequence):
        for i, item in enumerate(items):
            if isinstance(item, RuleReference) and rules is not None and item.rule_name in rules:
                item = rules[item.rule_name].expression
            after = [x for x in items[i + 1:] if _words(x) != ""][:1]  # the next thing, spaces skipped
            if _article_group(item) and after and not isinstance(after[0], (ListReference, RuleReference)):
                first = next(x for x in item.items if _words(x))
                items[i] = Alternative(items=[first])
    return dataclasses.replace(expr, items=items)


def _article_group(expr: Expression) -> bool:
    """Is ``expr`` an optional group of articles only, such as "[a|the]"?"""
    if not (isinstance(expr, Alternative) and expr.is_optional):
        return False
    words = [w for w in (_words(x) for x in expr.items) if w != ""]
    # the template's own first choice decides: "[the|today's|the current] date" → "the date"
    return bool(words) and words[0] is not None and words[0].split()[0] in _ARTICLES


def _words(expr: Expression) -> str | None:
    """The literal text of ``expr`` when it is plain text (stripped), else None."""
    if isinstance(expr, TextChunk):
        return expr.text.strip()
    if isinstance(expr, Sequence) and all(isinstance(x, TextChunk) for x in expr.items):
        return "".join(x.text for x in expr.items).strip()
    return None


class _RulesKept(dict[str, Any]):
    """Expansion rules with ``_articles_kept`` applied to each when it is expanded."""

    def __getitem__(self, name: str) -> Any:
        rule = super().__getitem__(name)
        return dataclasses.replace(rule, expression=_articles_kept(rule.expression, self))


def _fluent(text: str) -> bool:
    """False for what a template over-generates but nobody says: two determiners in a row
    ("tell me another a joke"), "a" before a vowel ("a image") or a plural ("find a videos of"),
    a contraction with nothing to contract ("'d like to hear")."""
    words = text.split()
    if words[0].startswith("'"):
        return False
    return not any((a in _DET_LEFT and b in _DET_RIGHT) or (a == "a" and b[:1] in "aeiou")
                   or (a in ("a", "an") and _plural(b)) for a, b in itertools.pairwise(words))


def _plural(word: str) -> bool:
    """A regular plural ("videos", "timers"), not a singular that ends in s ("bus", "class")."""
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))


def _metadata(intent: Intent) -> dict[str, Any]:
    for data in intent.data:
        if data.metadata:
            return dict(data.metadata)
    return {}
