"""The time in another place: a web search, when the words name a place and not a kind of time
("the time in tokyo", "paris time now", "current time berlin"; never "bed time now")."""

from __future__ import annotations

import re

from anovax.planner.pieces import Piece, web
from anovax.planner.text import lower_words, query
from anovax.planner.typo import one_edit

_WHEN = re.compile(r"(?:the )?(?:today|now|tonight|tomorrow|yesterday|the moment|this (?:morning|afternoon|evening|week)|here)")

#: words that make "<x> time" a kind of time or a question about it, never a place's clock
_KINDS_OF_TIME = frozenset("""bed bedtime dinner lunch breakfast brunch supper tea coffee screen nap story play prime half
    full over quality summer winter spring autumn daylight saving savings standard my your our his her their what which
    whats what's night day morning evening afternoon tonight midnight noon is it party game match kick off kickoff show
    closing opening bus train flight departure arrival sunset sunrise prayer school work office class meeting snack free
    down spare reaction run lap cooking baking boiling waiting loading family me you adventure hammer island
    bath dance happy hour lights out good great hard long short some any no first last next every each same real
    record race lead response exposure meal local current exact
    the a an um uh er erm hmm got get have has had do does did tell give know switch change set go move use""".split())

#: "current time berlin", "local time in lagos now": the time, then the place, said in fragments
_FRAGMENT = re.compile(r"^(?:the )?(?:current|local|exact) time (?:now |right now )?(?:in |at |for )?(?P<place>[a-z][a-z .'-]{1,40}?)"
                       r"(?: (?:now|right now|please|currently|today))?$"
                       # "paris time now", "cairo local time", "tokyo time" (a "right now" after it is cut as filler)
                       r"|^(?P<first>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,2}) (?:local |current )?time"
                       r"(?: (?:now|right now|currently|at the moment|today|please))?$")


def time_in(spoken_place: str) -> Piece | None:
    """A web search for the time in ``spoken_place``, or None when the words name no place."""
    place = re.sub(r"\s+(?:now|right now|please|currently|today|at the moment)$", "",
                   re.sub(r"^(?:in|at|for)\s+", "", query(spoken_place)))
    if not place or len(place.split()) > 5 or _WHEN.fullmatch(lower_words(place)):
        return None  # "the time for today" names a day, not a place
    words = re.sub(r"^the\s+", "", lower_words(place)).split() or [""]
    if (len(words) == 1 and one_edit(words[0], "what")) or words[0] == "time":
        return None  # "waht time is it": a typo of "what", not a town; "time after time": a song
    if set(words) & _KINDS_OF_TIME:
        return None  # "bed time now", "screen time today": a kind of time, not a place's
    return web("current time in " + place, f"I can't tell the time in other places offline, so I'm searching the web for the time in {place}.")


def time_fragment(low: str) -> Piece | None:
    """"current time berlin": the time in a place said in fragments, or None."""
    m = _FRAGMENT.match(low)
    if not m:
        return None
    return time_in(m.group("place") or re.sub(r"\s+(?:local|current|exact)$", "", m.group("first")))
