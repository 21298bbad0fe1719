"""One handler per grammar intent: the match in, a Piece out (None rejects the match, and the
next-best match or the topic cues decide).

``HANDLERS`` maps every intent name in ``grammar.yaml`` to its handler. Intents whose answer
never depends on the words are one line each in ``_FIXED``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from anovax.plan import Step
from anovax.planner import lexicon as lx
from anovax.planner import topics
from anovax.planner.apps import open_app, open_spoken
from anovax.planner.cues import about_me, search_instead, unsearchable
from anovax.planner.grammar import slot
from anovax.planner.keyboard import key_press, key_say, typing, wait_seconds
from anovax.planner.media import media, youtube
from anovax.planner.pieces import Piece, RequestState, web
from anovax.planner.text import lower_words, query
from anovax.planner.timers import HANDLERS as TIMER_HANDLERS
from anovax.tools import TOOLS

#: (clause, hassil result, request state) -> a Piece, or None to reject the match
Handler = Callable[[str, Any, RequestState], Piece | None]

#: intent -> (kind, reply, tools run without parameters)
_FIXED: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "time": ("info", "Here's the time.", ("get_time",)),
    "date": ("info", "Here's today's date.", ("get_date",)),
    "time_and_date": ("info", "Here's the time and the date.", ("get_time", "get_date")),
    "screenshot": ("info", "Taking a screenshot.", ("screenshot",)),
    "compliment": ("chat", "That's kind of you, thank you!", ()),
    "sing": ("decline", "I can't sing, but tell me a song and I'll search YouTube for it.", ()),
    "greet": ("chat", "Hello! What can I do for you?", ()),
    "how_are_you": ("chat", "I'm doing well, thanks for asking!", ()),
    "thanks": ("chat", "You're welcome!", ()),
    "identity": ("chat", "I'm AnovaX, your desktop voice assistant. Even offline, " + lx.CAPABILITIES, ()),
    "help": ("chat", lx.CAPABILITIES + " Try: open notepad and type hello.", ()),
    "goodbye": ("chat", "Okay.", ()),
}
#: verbs that open only apps and sites we know ("go to sleep", "pull up a recipe")
_KNOWN_ONLY = re.compile(r"^(?:go to|switch to|bring up|pull up|load|boot up|fire up|browse to|navigate to)\b")


def _fixed(kind: str, say: str, tools: tuple[str, ...]) -> Handler:
    # a fresh Piece each time: the assembler may rewrite a piece's reply
    return lambda clause, r, state: Piece(kind, say, [Step(t) for t in tools])


def _time_in_place(clause: str, r: Any, state: RequestState) -> Piece | None:
    place = query(slot(r, "place", clause))
    if not place or len(place.split()) > 5:
        return None
    return web("current time in " + place, f"I can't tell the time in other places offline, so I'm searching the web for the time in {place}.")


def _open_app(clause: str, r: Any, state: RequestState) -> Piece | None:
    ent = r.entities.get("known_app")
    if ent is not None:
        return open_app(str(ent.value))
    low = lower_words(clause)
    verb = low.split(" ", 1)[0]
    return open_spoken(slot(r, "app", clause), verb, known_only=bool(_KNOWN_ONLY.match(low)))


def _type_text(clause: str, r: Any, state: RequestState) -> Piece | None:
    verb = clause.split(None, 1)[0].lower()
    return typing(slot(r, "text", clause), verb, state)


def _press_keys(clause: str, r: Any, state: RequestState) -> Piece | None:
    return key_press(slot(r, "keys", clause))


def _hotkey(clause: str, r: Any, state: RequestState) -> Piece:
    keys = str(r.entities["hotkey"].value)
    return Piece("act", key_say(keys), [Step("press_keys", {"keys": keys})])


def _hotkey_in_app(clause: str, r: Any, state: RequestState) -> Piece:
    keys = str(r.entities["hotkey"].value)
    app = str(r.entities["known_app"].value)
    step = Step("press_keys", {"keys": keys})
    if app == state.current_app:
        return Piece("act", key_say(keys), [step])
    opened = open_app(app)
    return Piece("act", f"{opened.say} {key_say(keys)}", [*opened.steps, step], app=app)


def _wait(clause: str, r: Any, state: RequestState) -> Piece | None:
    span = slot(r, "span", clause) if "span" in r.entities else "a second"
    seconds = wait_seconds(span)
    if seconds is None:
        return None
    # say so only when the wait was cut down, not when the user asked for five seconds
    say = "I can only wait up to 5 seconds at a time." if seconds >= 5.0 and "5" not in span and "five" not in span else ""
    return Piece("act", say, [Step("wait", {"seconds": seconds})])


def _web_search(clause: str, r: Any, state: RequestState) -> Piece | None:
    q = query(slot(r, "query", clause))
    if not q:
        return None
    personal = topics.domain(lower_words(q), personal_only=True)
    if personal:
        return Piece("decline", personal[1])
    return web(q, f"Searching the web for {q}.")


def _info_request(clause: str, r: Any, state: RequestState) -> Piece | None:
    q = query(slot(r, "query", clause))
    if not q:
        return None
    low = lower_words(q)
    out_of_scope = topics.domain(low)
    if out_of_scope:
        return Piece("decline", out_of_scope[1])
    if re.fullmatch(r"(?:you|yourself)", low):  # "tell me about you"
        return about_me()
    return unsearchable(low) or search_instead(q, "answer")


def _youtube_search(clause: str, r: Any, state: RequestState) -> Piece | None:
    q = query(slot(r, "query", clause))
    if not q:
        return None
    return youtube(q)


def _play(clause: str, r: Any, state: RequestState) -> Piece | None:
    if "query" not in r.entities:
        return youtube("music")
    return media(slot(r, "query", clause), explicit_play=True)


def _joke(clause: str, r: Any, state: RequestState) -> Piece:
    return state.jokes.tell()


def _declared(tool: str) -> Handler:
    """A tool heard through its own phrases: each text param from the slot of the same name
    (a handler below replaces this where the words need reading, e.g. a duration)."""
    spec = TOOLS[tool]

    def handle(clause: str, r: Any, state: RequestState) -> Piece | None:
        params: dict[str, Any] = {}
        for p in spec.params:
            value = query(slot(r, p.name, clause)) if p.type == "string" else None
            if not value or p.problem(value):
                return None
            params[p.name] = value
        kind = "info" if spec.read_only else "act"
        return Piece(kind, spec.offline_say.format(**params), [Step(tool, params)])

    return handle


HANDLERS: dict[str, Handler] = {
    **{intent: _fixed(*answer) for intent, answer in _FIXED.items()},
    "time_in_place": _time_in_place,
    "open_app": _open_app,
    "type_text": _type_text,
    "press_keys": _press_keys,
    "hotkey": _hotkey,
    "hotkey_in_app": _hotkey_in_app,
    "wait": _wait,
    "web_search": _web_search,
    "info_request": _info_request,
    "youtube_search": _youtube_search,
    "play": _play,
    "joke": _joke,
    **TIMER_HANDLERS,
}
# tools heard through their own phrases; an entry above (a handler that reads the words) wins
for _spec in TOOLS.with_phrases():
    HANDLERS.setdefault(_spec.name, _declared(_spec.name))
