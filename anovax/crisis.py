"""Words that say someone is in danger: they take over the reply.

"play something calm i want to kill myself", "what time is it i'm having a heart attack", "my
house is on fire": whatever else the request asks, an offline assistant that cannot call anyone
must say so and point to who can, and must never send those words to a search engine, a model or
a window, or drop them as a remark. Matched on the whole request as the user said it
(``Assistant._handle``, before any planner; the offline planner checks too, for its own callers).
"""

from __future__ import annotations

import re
import unicodedata

#: thoughts of suicide or self-harm
_SELF_HARM = re.compile(
    r"\b(?:kill(?:ing)? my ?self|end(?:ing)? (?:my|it) (?:life|all)|take my (?:own )?life|suicidal|want to die|wanna die|"
    r"(?:thinking|thought|think) (?:about|of) (?:suicide|killing myself|ending it)|(?:going to|gonna) commit suicide|"
    r"don'?t want to (?:live|be alive|be here)|(?:hurt|harm|cut)(?:ing)? my ?self|self[- ]harming|better off dead|"
    r"no reason to live|kms|suicide note|(?:i'?m|i am) ending it|end it (?:all|tonight)|"
    # how to do it: never a search
    r"(?:ways?|how|methods?|best way|easiest way|painless way) (?:to |of |do i |can i |should i )?(?:commit suicide|kill (?:my|your|one)s?elf|"
    r"hang (?:my|your|one)s?elf|slit (?:my |your |one'?s )?wrists?|end (?:my|your) life|overdose)|"
    r"how many (?:\w+ ){0,2}(?:pills|tablets) (?:would|will|does it take to|to) (?:kill|overdose)|lethal dose|"
    r"(?:painless|easiest|quickest|best|quick) (?:way|ways|method|methods) to die|(?:painless |quick |easy )?suicide methods?|"
    r"(?:noose|rope) (?:for|to) (?:suicide|hang)|(?:high|tall) enough to (?:jump|die)|jump (?:off|from) (?:a|the) (?:bridge|roof|building)|"
    r"(?:going to|gonna|will) (?:take|swallow) all (?:my|of my|the) (?:pills|tablets|meds))\b"
)
#: a medical emergency, a fire, an attack, or a call for the emergency services
_EMERGENCY = re.compile(
    r"\b(?:(?:having|had) (?:a )?(?:heart attack|stroke|seizure)|i think i'?m having (?:a )?\w+|can'?t breathe|"
    r"(?:is|are|i'?m|i am|she'?s|he'?s) (?:choking|unconscious|not breathing|bleeding (?:badly|a lot|heavily)|drowning)|"
    r"bleeding (?:badly|heavily|a lot)|(?:house|home|flat|apartment|kitchen|building|car) is on fire|there'?s a fire|"
    r"(?:i'?m|i am|we'?re|we are) being (?:attacked|followed|robbed|stalked)|someone (?:broke|is breaking) in|"
    r"(?:an )?intruder|(?:he|she|they) (?:hits?|beats?|hurts?) me|hiding from (?:my )?\w+|"
    r"call (?:911|999|112|000|an ambulance|the police|the fire (?:brigade|department)|emergency services)|"
    r"(?:it'?s|car is|house is) flooding|i (?:took|have taken|'ve taken|just took) (?:an )?overdose|i overdosed|"
    r"(?:swallowed|took|taken|ate) (?:all|a (?:whole )?bottle of|too many|a lot of|loads of) (?:of )?(?:my |the |his |her )?(?:pills|tablets|medication|meds)|"
    r"(?:isn'?t|is not|not|stopped|can'?t|cannot) breathing|(?:bit|bitten|stung) by a (?:snake|spider|scorpion)|"
    r"(?:been|got|was|i'?m|i am) (?:stabbed|shot)|(?:man|someone|guy|person) with a (?:knife|gun)|"
    r"(?:hitting|beating|choking|strangling) me|(?:breaking|broken|broke) into (?:my|our|the) (?:house|home|flat|apartment|car)|"
    r"dial (?:911|999|112|000)|gas leak|smell gas|help me i'?m (?:hurt|trapped|stuck))\b"
)
#: "i think i'm having a good day" is no emergency: only these complete the "i think i'm having a" form
_HAVING = re.compile(r"i think i'?m having (?:a )?(?:heart attack|stroke|seizure|panic attack|breakdown|allergic reaction)")

SELF_HARM_REPLY = (
    "I'm really sorry you're feeling this way. Please talk to someone now: call your local emergency number, "
    "or a crisis line (988 in the US, 116 123 for the Samaritans in the UK and Ireland). I can't call anyone for you."
)
EMERGENCY_REPLY = (
    "This sounds like an emergency. Please call your local emergency number now (911 in the US, 112 in Europe, "
    "999 in the UK). I can't call anyone for you."
)


def _words(text: str) -> str:
    """Lower-case words with plain apostrophes: "I’m  Being ATTACKED!" -> "i'm being attacked"."""
    text = unicodedata.normalize("NFKC", str(text)).lower().replace("\u2019", "'").replace("\u2018", "'")
    return " ".join(re.sub(r"[^\w' ]+", " ", text).split())


def crisis_reply(text: str) -> str | None:
    """The reply for a request that says someone is in danger, or None."""
    low = _words(text)
    if _SELF_HARM.search(low):
        return SELF_HARM_REPLY
    found = _EMERGENCY.search(low)
    if found and (not found.group(0).startswith("i think") or _HAVING.search(low)):
        return EMERGENCY_REPLY
    return None
