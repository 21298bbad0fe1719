"""Does a spoken request make sense? The offline planner's grammar is the definition of a command.

A closed-vocabulary recogniser turns chatter into sentences made of command words ("new press
alt", "open the terminal is"); the grammar rarely understands those. Used by the wake gate's
trust check (trust.py) whatever planner runs the command itself: it is only a filter.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from dataclasses import dataclass

from anovax.toolspec import Sink

#: replies that mean the planner found no request in the words (and, planner.apps.UNKNOWN_APP,
#: an app name that names nothing on this computer; planner.topics.TIMER_NOT_READ, timer words
#: with no time: "i have alarms set before status in the morning", forced from "hey Hannah, do I
#: have alarms set before six in the morning")
_NOT_UNDERSTOOD = ("I didn't understand", "I didn't catch")

#: where a parameter's words go out as heard
_VERBATIM_SINKS = frozenset({Sink.TYPED, Sink.QUERY, Sink.ADDRESS, Sink.GOAL})
#: where they name an app or its window (``Understanding.unknown_name``)
_APP_SINKS = frozenset({Sink.APP, Sink.WINDOW})

_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def _planner():  # noqa: ANN202 - OfflinePlanner, imported lazily (the grammar loads in ~0.1 s)
    from anovax.planner.offline import OfflinePlanner

    return OfflinePlanner()


def plan_of(text: str):  # noqa: ANN201 - Plan
    """The offline planner's plan of ``text``."""
    return _read(text)[0]


def _read(text: str):  # noqa: ANN202 - (Plan, str)
    """The offline planner's plan of ``text`` and how it read the words (OfflinePlanner.read_as)."""
    with _LOCK:  # first use builds the planner once
        planner = _planner()
    return planner.read_as(str(text or ""))


def understands(text: str) -> bool:
    """True when the offline planner reads ``text`` as a request, every part of it."""
    return understanding(text).understood


@dataclass(frozen=True)
class Understanding:
    """What the planner made of a heard request, for the wake gate's trust check."""

    #: the planner reads it as a request, every part of it
    understood: bool
    #: the plan carries heard words out as they are (typed, searched for, planned from, or
    #: remembered): a misheard word would go out too, so the words must be heard more clearly
    verbatim: bool
    #: what it would do (``plan_key``); None when not understood. Two readings with the same
    #: meaning are the same request ("close my calculator", "close the calculator")
    meaning: tuple | None = None
    #: all the plan does is say the planner cannot do it (an out-of-scope topic: e-mail, lists,
    #: games). A topic is read from a word or two ("mail", "list", "play"), which forced words
    #: hit easily, so such a request must be heard as clearly as verbatim words
    declined: bool = False
    #: it names an app or its window that the recogniser has no name for and the desktop cannot
    #: resolve, or a key nobody has. Only the closed-vocabulary recogniser's words are doubted for
    #: it (trust.py): the planner closes, switches to or resizes any app-like name, and answers any
    #: "press …" or "… key", which forced words make easily ("hey Anna, let's play canasta" heard
    #: as "hey anova exit wake in moscow"; festival's "hey Anna, this product…" as "hey anova strike
    #: up anova use": "I don't know a key called up anova use"), while typed words and an
    #: open-vocabulary recogniser's name whatever the user has
    unknown_name: bool = False
    #: a part of it the planner only guessed (OfflinePlanner.read_as): a question searched as it
    #: stands. Only the closed-vocabulary recogniser's words are doubted for it (trust.py): a red
    #: team's "hey, anova can open the calculator you know", heard word for word, was searched for
    guessed: bool = False
    #: a part of it its fuzzy matcher read, not a template: "hey Hanover, can you pass me the salt",
    #: heard as "hey anova can you have the console", opened a terminal, and "hey, anova can open
    #: the calculator you know" heard without its last words opened the calculator (doubted from
    #: the closed recogniser, as ``guessed``; the price: "switch the notepad" for "switch to
    #: notepad", read right, is asked about too)
    fuzzy: bool = False
    #: it names everything it acts on and was read from a template: no step works on whatever
    #: has the focus without naming it (keys, typing), and it does something. Only such a request
    #: replaces a question waiting for a yes or no (wake gate): said then, "undo that", "close it"
    #: or "do it" are about the question, and would act on the wrong thing
    stands_alone: bool = False
    #: a step acts on whatever has the focus without naming it (keys pressed: "undo", "save",
    #: "press enter"). Such a request must be heard as clearly as verbatim words: espeak-ng's
    #: clean "hey anova, tell a joke", heard as "hey anova do undo it" ("undo": posterior 0.41),
    #: pressed Ctrl+Z in the user's document (a first-time user's recording)
    blind: bool = False


def understanding(text: str) -> Understanding:
    from anovax.planner.apps import UNKNOWN_APP
    from anovax.planner.keyboard import UNKNOWN_KEY
    from anovax.planner.topics import TIMER_NOT_READ

    plan, how = _read(text)
    reply = plan.final_response or ""
    # (where each filled-in parameter goes, its words)
    filled = [(p.sink, value) for step in plan.steps for p in _params(step.tool)
              if (value := str(step.params.get(p.name, "")).strip())]
    verbatim = bool(plan.remember) or any(sink in _VERBATIM_SINKS for sink, _value in filled)
    understood = not any(marker in reply for marker in (*_NOT_UNDERSTOOD, UNKNOWN_APP, TIMER_NOT_READ))
    unknown_name = UNKNOWN_KEY in reply or not all(_known_app(value) for sink, value in filled if sink in _APP_SINKS)
    declined = understood and not plan.steps and reply in _declines()
    meaning = plan_key(plan) if understood else None
    fuzzy = how == "fuzzy" and not (meaning is not None and _one_small_word_from_a_template(text, meaning))
    stands_alone = understood and not how and not declined and bool(plan.steps) \
        and all(_names_its_target(step) for step in plan.steps)
    blind = understood and _blind(plan.steps)
    return Understanding(understood, verbatim, meaning, declined, unknown_name, how == "guess", fuzzy, stands_alone,
                         blind)


def _blind(steps) -> bool:  # noqa: ANN001 - a plan's steps
    """Does a step press keys or type into whatever has the focus, no step before it having
    brought a named app to the front ("undo" is; "switch to notepad and press enter" is not)?"""
    aimed = False
    for step in steps:
        if not _names_its_target(step) and not aimed:
            return True
        aimed = aimed or (step.tool in ("open_app", "switch_to_app") and _names_its_target(step))
    return False


def _names_its_target(step) -> bool:  # noqa: ANN001 - Step
    """Does ``step`` say what it acts on? Only keyboard-and-mouse steps may not: keys pressed
    and words typed go to the focused window unless an app is named."""
    from anovax.tools import TOOLS

    spec = TOOLS.get(step.tool)
    if spec is None or "kb_mouse" not in spec.locks:
        return spec is not None
    return any(p.sink in _APP_SINKS and str(step.params.get(p.name, "")).strip() for p in spec.params)


#: the short unstressed words a recogniser swaps, drops and adds most ("switch the notepad" for
#: "switch to notepad", "open a calculator"): a fuzzy reading one of them away from a template
#: that means the same is that template's reading
SMALL_WORDS = ("the", "to", "a", "my")


def _one_small_word_from_a_template(text: str, meaning: tuple) -> bool:
    """True when changing, dropping or adding one of ``SMALL_WORDS`` in ``text`` after its first
    word (where "to" and "the" go: "switch to", "open the") gives words the
    planner's templates read, as said, with the same ``meaning`` as the fuzzy reading. Then the
    fuzzy matcher only confirmed a template, and nothing was guessed: the reading needs no
    more than a template's trust. Other fuzzy readings stay doubted (trust.py: "hey Hanover,
    can you pass me the salt" heard as "hey anova can you have the console", read by the fuzzy
    matcher, opened a terminal)."""
    for variant in _small_word_variants(str(text or "").split()):
        plan, how = _read(" ".join(variant))
        if how == "" and plan.steps and plan_key(plan) == meaning:
            return True
    return False


def _small_word_variants(words: list[str]) -> Iterator[list[str]]:
    """``words`` with one small word changed or dropped, then with one added, after the first
    word; lazily, as each costs a planner read (~7 ms) and the first match ends the search."""
    for i, word in enumerate(words):
        # never the first word: "to close the window" or "the press enter" is what is left of a
        # sentence said to someone else ("do you want me to close the window"), not a command
        if i and word in SMALL_WORDS:
            yield words[:i] + words[i + 1:]
            yield from (words[:i] + [other] + words[i + 1:] for other in SMALL_WORDS if other != word)
    if words:
        yield from (words[:1] + [small] + words[1:] for small in SMALL_WORDS)


@functools.lru_cache(maxsize=1)
def _declines() -> frozenset[str]:
    from anovax.planner.topics import DOMAINS

    return frozenset(say for _name, _cue, say in DOMAINS)


def _known_app(name: str) -> bool:
    """True when ``name`` (an app named in a plan) is an app the recogniser has a name for
    (corpus.app_names, the alias table's canonical names) or one the desktop can resolve (an
    installed app no table knows, which the planner opens after the same check)."""
    from anovax.planner import lexicon as lx
    from anovax.desktop.installed import installed_app
    from anovax.voice.corpus import as_heard

    known = _app_names(frozenset(lx.USER_APPS))
    name = name.lower()
    return name in known or as_heard(name) in known or installed_app(name)


@functools.lru_cache(maxsize=4)
def _app_names(_user_apps: frozenset[str]) -> frozenset[str]:
    """corpus.app_names() and the alias table's canonical names, built again only when the user's
    own app names change."""
    from anovax.planner import lexicon as lx
    from anovax.voice.corpus import app_names

    return frozenset(app_names()) | frozenset(lx.APP_ALIASES.values())


def plan_key(plan) -> tuple:  # noqa: ANN001 - Plan
    """What a plan does, comparable between plans: its steps (tools and parameters); for a plan
    without steps, its reply."""
    steps = tuple((s.tool, repr(sorted(dict(s.params).items()))) for s in plan.steps)
    return steps, "" if steps else plan.final_response


def _params(tool: str) -> tuple:
    from anovax.tools import TOOLS

    spec = TOOLS.get(tool)
    return tuple(spec.params) if spec is not None else ()
