"""A request followed by words about it that ask for nothing more.

People give a reason or a remark after what they want: "what's today's date, I've got to sign a
form", "bring up notepad, I need to jot something down", "take a screen grab so I can show my
boss later", "what day is it, is it friday already?". Read whole, the request is lost in them.
``cuts`` offers the places where such a remark may start; the planner keeps the request before
one only when that part is understood as said (not guessed) and the remark itself is not a
request it understands or refuses (``OfflinePlanner._clause_pieces``), so "open notepad, I want
you to delete my files" is never shortened to "open notepad"; a remark the planner declines ("...,
I need you to e-mail bob") is answered beside the request, never dropped unsaid.
"""

from __future__ import annotations

import re

#: a sentence break, or a reason or circumstance starting mid-sentence ("... so I can ...")
_CUT = re.compile(
    r"\s*(?:[,;:.!?]+|\s-+)\s+"
    r"|\s+(?=(?:so (?:that )?(?:i|we)|because|cause|'cause|since (?:i|we)|while (?:i|we)|as (?:i|we)|before (?:i|we)|"
    r"i (?:need|have|want|got|gotta|wanna)|i've got|we (?:need|have|got)|we've got|"
    # what the speaker is doing: "play something upbeat i'm cleaning the house"
    r"(?:i'm|im|i am|we're|we are) (?!going\b|gonna\b|looking\b|wondering\b|trying\b|asking\b)[a-z]+ing)\b)",
    re.I,
)
#: how a remark about the request starts: the speaker, a reason, a check-back question, a laugh
_REMARK = re.compile(
    r"^(?:i|i'm|im|i've|ive|i'd|i'll|we|we're|we've|we'd|we'll|my|our|gotta|so|because|cause|'cause|since|while|as|"
    r"before|lol|haha+|it|it's|its|is it|are we|was it|did i|have i|am i|no rush|no hurry|thanks|cheers)\b",
    re.I,
)
#: words that order one request after another: a "remark" holding one may hold a request too
#: ("... so I can check the bill and then delete notepad")
_SEQUENCE = re.compile(r"\b(?:then|after that|afterwards|also|plus|n)\b|[&;]", re.I)
#: a remark that only says what the speaker is doing ("i'm cleaning the house"): nothing asked, so
#: nothing to answer, whatever topic its words touch (a refusal is still checked first)
_DOING = re.compile(r"^(?:(?:because|cause|'cause|since|while|as) )?(?:(?:i'm|im|i am|we're|we are) "
                    r"(?!going\b|gonna\b|looking\b|wondering\b|trying\b|asking\b)[a-z]+ing|while (?:i|we) [a-z]+)\b"
                    r"(?!.*\b(?:you|your)\b)", re.I)


def only_describes(remark: str) -> bool:
    """``remark`` says what the speaker is doing and asks nothing of the assistant."""
    return bool(_DOING.match(remark.strip()))


#: the most cuts tried in one clause (each costs a planning pass of its head)
MAX_CUTS = 3


def cuts(clause: str) -> list[tuple[str, str]]:
    """(request, remark) pairs for ``clause``, earliest cut first: the remark starts like one."""
    out: list[tuple[str, str]] = []
    for m in _CUT.finditer(clause):
        head, tail = clause[: m.start()].strip(" ,;:.!?-"), clause[m.end():].strip(" ,;:.!?-")
        if head and tail and _REMARK.match(tail) and not _SEQUENCE.search(tail):
            out.append((head, tail))
            if len(out) == MAX_CUTS:
                break
    return out
