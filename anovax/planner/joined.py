"""Parts of a compound the offline planner has no tool for: said in their own words, or, for
harm, a reason to refuse the whole request ("play jazz and turn on the lights", "play jazz and
record my screen", "play music and poison the dog")."""

from __future__ import annotations

from anovax.planner import topics
from anovax.planner.pieces import Piece
from anovax.planner.refusals import refusal_for
from anovax.planner.text import lower_words

#: verbs of things the offline planner has no tool for ("kill chrome", "transfer money to john"):
#: joined to a search, such a request is said to be left out, never searched for
_NO_TOOL_VERBS = frozenset("""kill force download upload transfer pay log sleep hibernate record turn lock unlock disable
    enable wipe shut restart reboot install uninstall send buy sell mute call text email message post share delete
    remove erase format empty clear charge connect disconnect""".split())


#: verbs of harm joined to a search ("play music and poison the dog", "... and hack my ex's phone"):
#: the whole request is refused, and nothing of it searched
HARM_VERBS = frozenset("""poison hack spy stalk steal harm brick ddos fork stab
    kidnap blackmail threaten dox doxx""".split())
HARM = "Sorry, I won't help with that, and I won't search for any of it."


def cannot_do(part: str) -> Piece | None:
    """"record my screen" joined to a search: declined in its own words, or None."""
    words = lower_words(part).split()
    if not words or words[0] not in _NO_TOOL_VERBS:
        return None
    return Piece("decline", f"I can't {' '.join(words)[:80]} offline, so I left that out.")


def declined(part: str) -> Piece | None:
    """A part of a compound that asks for an out-of-scope thing ("turn on the lights"), declined
    in its own words; None when it names no such topic (a part nothing reads spoils the split)."""
    topic = topics.domain(lower_words(part))
    if topic is None or topic[0] == "playback" or refusal_for(part):
        return None
    return Piece("decline", topic[1])
