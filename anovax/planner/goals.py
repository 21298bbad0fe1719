"""Open-ended goals offline: "help me learn spanish", "plan a trip to lisbon", "research X".

No model means no real plan for a goal, but two searches make a useful start: a web search for a
guide and a YouTube search for a video, both carrying the goal's own words. The reply says so
("I can't do all of that for you offline, but here's a guide and a video to start with").

A goal is read by its frame (the verb that opens it) and its subject (the words after):

=========== =================================================== ====================================
frame       openers                                             searches
=========== =================================================== ====================================
learn       help me learn, i want to learn, teach me            how to learn X / learn X for beginners
how         teach me how to, show me how to, help me (to) <v>  how to X / how to X
ready       get me ready for, help me prepare for               how to prepare for X / X tips
start       get me started with, help me get started with       how to get started with X / X for beginners
plan        plan, organise, arrange, prepare, put together      how to <verb> X / X ideas
research    research, look into, read up on, help me choose     X guide / X
=========== =================================================== ====================================

Out-of-scope subjects ("organise my calendar", "plan a meeting with anna") are declined as
everywhere else: ``topics.domain`` is asked first.
"""

from __future__ import annotations

import re

from anovax.plan import Step
from anovax.planner import topics
from anovax.planner.pieces import Piece
from anovax.planner.text import lower_words, query

_HELP = (r"(?:(?:can|could|would|will) you |please )?(?:help me (?:to )?|i need help (?:to |with )?|"
         r"i(?: want| need| would like|'d like| would love|'d love) (?:you )?to |i wanna |"
         r"i(?: want| need| would like|'d like| would love|'d love) help (?:to )?|)")

#: (frame, pattern): the first that matches wins; ``x`` is the subject
_FRAMES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (frame, re.compile(rf"^{_HELP}{opener}\s+(?P<x>.{{2,120}}?)$"))
    for frame, opener in (
        ("how", r"(?:teach me|show me|figure out|find out|work out|understand|know|learn) how (?:to|i can|do i|do you)"),
        ("learn", r"(?:learn(?:ing)?|study|studying|practi[sc]e|get (?:better|good|really good) at|improve (?:my|at)|teach me|teach me about|master)"),
        ("ready", r"(?:get (?:me )?ready for|prepare (?:me )?for|prep for|get (?:me )?prepared for)"),
        ("start", r"(?:get (?:me )?started (?:with|on|in)|start (?:learning|with)|begin (?:learning|with)|get into)"),
        ("plan", r"(?P<v>plan|planning|organi[sz]e|arrange|prepare|put together|make a plan for|come up with)"),
        ("research", r"(?:research|look into|dig into|dig in to|dive into|delve into|read up on|find out about|figure out|work out|choose|pick|decide on|compare)"),
    )
)
#: the searches each frame makes: (web query, video query), "{x}" the subject
_SEARCHES = {
    "how": ("how to {x}", "how to {x}"),
    "learn": ("how to learn {x}", "learn {x} for beginners"),
    "ready": ("how to prepare for {x}", "{x} tips"),
    "start": ("how to get started with {x}", "{x} for beginners"),
    "plan": ("how to {v} {x}", "{x} ideas"),
    "research": ("{x} guide", "{x}"),
}
#: "... and show me a video": a question plus a video about it
_AND_VIDEO = re.compile(
    r"^(?:find out |look up |search for |tell me |show me )?(?P<x>.{3,120}?)[,]?\s+(?:and|then|plus|also)\s+"
    r"(?:show|find|get|give|play) (?:me |us )?(?:a |some |the )?(?:video|videos|clip|tutorial)s?(?: (?:of|about|on) (?:it|that|this))?$"
)
#: a plea after the goal: "i'd like to get better at chess, help me out"
_PLEA = re.compile(r"\s+(?:(?:can|could|would|will) you )?(?:help me out|help me|help|any (?:tips|ideas|advice))$")
_LEAD_ARTICLE = re.compile(r"^(?:a|an|the|some|my|our)\s+")
#: subjects too vague to search for ("help me plan", "research it")
_VAGUE = frozenset({"it", "this", "that", "something", "stuff", "things", "everything", "anything", "me", "you", "us"})


def question_and_video(request: str) -> Piece | None:
    """"find out how to fix a flat tyre and show me a video": the question searched on the web
    and on YouTube (read on the whole request: the clause splitter would cut it at "and show")."""
    low = lower_words(request).rstrip(" .!?")
    m = _AND_VIDEO.match(low)
    return _searches(m.group("x"), "{x}", "{x}", low) if m else None


#: a goal with the reason after it: "dig into electric cars for me, i'm thinking of buying one"
_WITH_REASON = re.compile(r"^(?P<goal>.{4,160}?)\s*[,;.]\s*(?:i'm|i am|i've|i have|i was|i'd|since|because|as|cause|'cause)\b", re.I)
#: a situation the user is in ...
_TRAINING = re.compile(r"^(?:i'm|i am|i've been|i have been|we're|we are) (?:training|preparing|getting ready|studying|"
                       r"practi[sc]ing|gearing up) for (?P<x>.{2,120}?)$")
_HAVING = re.compile(r"^(?:i've got|i have got|i've|i have|i got|we've got|we have) (?P<x>(?:a|an|my|our|the) .{2,120}?)"
                     r"(?: (?:tomorrow|tonight|soon|coming up|next \w+|this \w+|on \w+|in (?:a|two|three|\d+) \w+))?$")
#: ... and the plea that makes it a goal: "where do i even start", "get me prepped"
_READY_PLEA = (r"get me (?:prepped|ready|prepared)|prep me(?: for it)?|help me (?:prepare|get ready|prep)(?: for it)?|"
               r"how (?:do|should|can) i (?:prepare|get ready|prep)(?: for it)?")
_ANY_PLEA = (_READY_PLEA + r"|where (?:do|should|can) i (?:even )?(?:start|begin)|what should i do|help(?: me)?(?: out)?|"
             r"any (?:tips|advice|ideas)|what do i need to know")
_PLEA_AFTER = re.compile(rf"^(?P<situation>.+?)\s*[,;.]?\s+(?:and |so |but )?(?P<plea>{_ANY_PLEA})$")


def stated_goal(request: str) -> Piece | None:
    """A goal said as a situation and a plea ("i'm training for my first marathon, where do i even
    start") or followed by its reason ("dig into electric cars, i'm thinking of buying one"): read on
    the whole request, since the clause splitter would cut it at the plea's question word."""
    m = _WITH_REASON.match(request.strip())
    if m:
        found = goal(m.group("goal"))
        if found is not None:
            return found
    low = lower_words(request).rstrip(" .!?")
    m = _PLEA_AFTER.match(low)
    if not m:
        return None
    situation, ready_plea = m.group("situation"), re.fullmatch(_READY_PLEA, m.group("plea")) is not None
    s = _TRAINING.match(situation) or (_HAVING.match(situation) if ready_plea else None)
    if s is None:
        return None
    return _searches(s.group("x"), *_SEARCHES["ready"], low)


def goal(clause: str) -> Piece | None:
    """A guide and a video for an open-ended goal in ``clause``, a decline for an out-of-scope
    one, or None when the clause states no goal."""
    low = _PLEA.sub("", lower_words(clause).rstrip(" .!?"))
    for frame, pattern in _FRAMES:
        m = pattern.match(low)
        if m:
            if frame == "learn" and m.group("x").startswith("how to "):  # "learn how to juggle"
                frame, x = "how", m.group("x")[len("how to "):]
                return _searches(x, *_SEARCHES["how"], low)
            web, video = _SEARCHES[frame]
            verb = (m.groupdict().get("v") or "plan").replace("planning", "plan").replace("make a plan for", "plan")
            return _searches(m.group("x"), web.replace("{v}", verb), video, low)
    return None


def _searches(subject: str, web: str, video: str, low: str) -> Piece | None:
    x = re.sub(r"\s+(?:for me|for us|please|now|today)$", "", subject.strip())
    if not x or x in _VAGUE or _LEAD_ARTICLE.sub("", x) in _VAGUE:
        return None
    out_of_scope = topics.domain(low)
    if out_of_scope:
        return Piece("decline", out_of_scope[1])
    bare = _LEAD_ARTICLE.sub("", x)
    web_q = query(web.format(x=x))
    video_q = query(video.format(x=bare))
    if not web_q or not video_q:
        return None
    say = (f"I can't do all of that for you offline, but here's a guide and a video to start with: "
           f"I'm searching the web for {web_q} and YouTube for {video_q}.")
    return Piece("info", say, [Step("web_search", {"query": web_q}), Step("youtube_search", {"query": video_q})])
