"""The field sizes the safety check enforces, in one place.

Lengths are checked before any content is scanned, so a giant field can never make the
scanners slow (or hide a payload past a prefix the scanner stopped at). How big a plan may be
(steps, depth, agents) is ``anovax.plan.LIMITS``, shared with the planners and the orchestrator.
"""

from __future__ import annotations

#: how many times longer than itself a text's canonical (NFKC) form may be: ligatures and
#: fractions double or triple a few characters, U+FDFA alone becomes 18
MAX_EXPANSION = 2
#: a spoken command longer than this is not a real transcript
MAX_USER_TEXT = 4000
#: final_response is spoken aloud; the planner's JSON schema asks for at most 500
MAX_FINAL_RESPONSE = 2000
#: new facts one plan may ask to remember, and their sizes: memory holds short facts about the
#: user (a home address fits; ``facts.MAX_FACT_WORDS`` is 40 words), and every new fact is read by
#: every content rule, so these caps also bound the check's worst case
MAX_REMEMBER_FACTS = 8
MAX_FACT_KEY = 64
MAX_FACT_VALUE = 240
#: stored memory given as context: the store's own caps (``anovax.memory``), which are older and
#: looser than a new fact's; every fact is scanned once (cached), so these bound the first command's cost
MAX_MEMORY_FACTS = 200
MAX_MEMORY_KEY = 64
MAX_MEMORY_VALUE = 500
#: screen or page text fed back during recovery
MAX_OBSERVATION = 16000
#: only the tail of the session's typed text can join with this plan's keystrokes
SESSION_TAIL = 512
#: the runtime's idea of the focused app
MAX_FOCUSED_APP = 256
#: texts recent plans sent out (searches, speech), given so a secret split over two commands is
#: seen whole; the runtime keeps the last few
MAX_RECENT_OUTBOUND = 8
MAX_RECENT_TEXT = 500
