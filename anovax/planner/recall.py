"""Reading a fact's name out of "what is my ...", "do you know my ...", "forget my ...".

The memory tools declare their phrases (``anovax.tools``); these handlers read the ``key`` slot
so that only a fact's name becomes a step: "what's my favourite colour again" asks for
"favourite colour", "forget that my favourite colour is green" forgets "favourite colour".

"What is my ..." is also how people ask for things no fact holds: "what's my schedule today",
"what's my ip address". Those keep their old answers (the calendar and personal-data declines,
a plain "I can't ...") unless a remembered fact has that name: the planner context lists the
stored names (``RequestState.facts``), so "what is my address" is answered once the user has said
"remember my address is ...".
"""

from __future__ import annotations

import re
from typing import Any

from anovax import factnames
from anovax.plan import Step
from anovax.planner import topics
from anovax.planner.grammar import slot
from anovax.planner.pieces import Piece, RequestState
from anovax.planner.text import lower_words, query
from anovax.tools import TOOLS

#: a fact's name is a few words ("my wife's birthday"), never a sentence
MAX_NAME_WORDS = 5
_MAX_NAME_CHARS = TOOLS["recall"].param("key").max_len
#: words after the name that are not part of it ("... again", "... is green")
_TAIL = re.compile(r"\s+(?:again|please|now|(?:is|are|was|were|be)\b.*)$", re.I)
#: a question about now or about this computer, not about something the user told us
_NOT_A_FACT = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this (?:week|weekend|morning|afternoon|evening|month|year)|next|"
    r"right now|current|currently|latest|recent|upcoming|pending|due|before|after|ago|like|alerts?|notifications?|tasks?|"
    r"to-?dos?|reminders?|appointments?|meetings?|messages?|e-?mails?|inbox|ip|ip address|battery|screen|resolution|disk|storage|"
    r"cpu|ram|wi-?fi|internet|connection|speed|version|operating system|os|computer|pc|laptop|device|"
    r"system|signal|volume|brightness)\b"
)

#: "where did I park", "do you know what I ..." ask about something the user did, not a fact's name
_ABOUT_ME = re.compile(r"\bdid i (?!(?:tell you|say)\b)|\bdo you (?:know|remember) \w+ i\b", re.I)
#: "where did I park", "when did I last ...": a question about something the user did and may have told
_ASKS_A_NOTE = re.compile(r"^\W*(?:do you (?:know|remember) )?(?:where|when) did i\b", re.I)
#: "where is my ..." is a fact only once the user told it ("where is my mouse" is not)
_WHERE = re.compile(r"^\W*(?:where(?:'?s| is| are| was| were)?|do you (?:know|remember) where)\b", re.I)


def fact_name(text: str) -> str:
    """The fact's name in a slot ("favourite colour again" -> "favourite colour"), or ""."""
    name = query(text)
    while True:
        shorter = _TAIL.sub("", name).strip()
        if shorter == name:
            break
        name = shorter
    name = re.sub(r"^(?:own|very own)\s+", "", name, flags=re.I)
    if len(name) > _MAX_NAME_CHARS or len(name.split()) > MAX_NAME_WORDS or not factnames.words(name):
        return ""
    return name


def _known(name: str, state: RequestState) -> bool:
    return factnames.find(state.facts, name) is not None


def recall(clause: str, r: Any, state: RequestState) -> Piece | None:
    name = fact_name(slot(r, "key", clause))
    if not name:
        return None
    if not _known(name, state):
        # "where did I park (my car)": a note ("remember that I parked on level 3") that shares
        # its words with the question answers it
        note = factnames.note_for(state.facts, clause)
        if note is not None:
            return Piece("answer", "", [Step("recall", {"key": note})])
        if _ASKS_A_NOTE.search(clause):
            # "where did I park": memory could hold a note about it even when the planner was not
            # told its name; the recall looks for it when it runs, or says it was never told
            key = factnames.note_key(_ASKS_A_NOTE.sub("", clause))
            if key:
                return Piece("answer", "", [Step("recall", {"key": key})])
        if _ABOUT_ME.search(clause) or _WHERE.search(clause):
            # nothing told: "where is my mouse", "what did I open" belong to other answers
            return None
    said = lower_words(name)
    if not _known(name, state) and (_NOT_A_FACT.search(said) or topics.domain(f"my {said}")):
        return None  # a question about the calendar, the computer or now: the cues answer it
    return Piece("answer", "", [Step("recall", {"key": name})])


def forget(clause: str, r: Any, state: RequestState) -> Piece | None:
    name = fact_name(slot(r, "key", clause))
    if not name:
        return None
    return Piece("answer", "", [Step("forget", {"key": name})])


#: questions that name a remembered fact without "my": "what car do I drive" (what the person
#: does with it), "when is the team meeting" (the fact's whole name after "the", nothing after it)
_OWN_QUESTIONS = (
    re.compile(r"^(?:what|which) (?P<name>[a-z][a-z' ]{0,40}?) (?:do|did) (?:i|we) (?:drive|have|own|use|ride|wear|bank "
               r"with|work (?:at|for)|go to|see)(?: again| now| these days)?$"),
    # (two words at least: "who is the president" is no question about a fact named "president")
    re.compile(r"^(?:who|what|when|where|which)(?:'s| is| are| was| were) the (?P<name>[a-z][a-z']* [a-z][a-z' ]{0,40}?)"
               r"(?: again)?$"),
)


def asked_fact(clause: str, state: RequestState) -> Piece | None:
    """The remembered fact a question names that way, or None. Only stored names count: the
    answer is the person's own, and a web search for "what car do I drive" answers nothing and
    sends the question out. "What is the address of google" is not the person's address."""
    if not state.facts:
        return None
    low = lower_words(clause).rstrip("?.! ")
    for pattern in _OWN_QUESTIONS:
        m = pattern.match(low)
        key = factnames.find(state.facts, m.group("name")) if m else None
        if key is not None and not factnames.is_note(key):
            return Piece("answer", "", [Step("recall", {"key": key})])
    return None
