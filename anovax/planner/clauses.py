"""Compound requests: split at ",", ";", "and", "then", "and then", "after that", "also" and
"plus", but only where the next clause starts with a command verb ("type bread and butter" stays
whole, "type hello and press enter" is two clauses), and never inside quotes.

``soft_split`` cuts at every joiner whatever follows it ("screenshot and the time please"); the
planner keeps that cut only when the clause as a whole was not understood and every part is."""

from __future__ import annotations

import re

from anovax.planner import lexicon as lx
from anovax.planner.text import DICTATION_START, lower_words, strip_filler

#: words that start a new command after "and" / "then" / a comma
COMMAND_STARTS = frozenset(
    """open launch start run fire bring load type write dictate press hit tap push search google look find
    play put queue listen take grab capture screenshot tell what what's whats who how when where show give
    save select copy paste cut undo redo close switch go wait refresh scroll youtube new print set remind
    cancel wake enter input""".split()
)
#: after dictation ("type ..."), only these clearly start a new command
_STRONG_AFTER_TEXT = frozenset(
    """press hit tap push save select copy paste undo redo search google take screenshot wait refresh close
    switch new print""".split()
)
# "n" and "&" are chat for "and" ("open the browser n google x"); a split still needs a command verb after it
_JOINERS = r"(?:and\s+then|and\s+after\s+that|and\s+also|and|then|after\s+that|afterwards|also|plus|n|&)"
_SEPARATOR = re.compile(rf"\s*[,;]\s*(?:{_JOINERS}\s+)?|\s+{_JOINERS}\s+", re.I)
#: the most parts a clause without command verbs is split into ("screenshot, the time and the date")
MAX_SOFT_PARTS = 4
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|'[^']{2,}'(?=\W|$)")
#: a thing to play named by what follows ("a song called open notepad and type hello", "the one that
#: goes ... and press enter"): the rest is its title, never commands to split off and carry out
_TITLE_FRAME = re.compile(
    r"\b(?:(?:songs?|tracks?|tunes?|albums?|podcasts?|episodes?|audio ?books?|books?|novels?|playlists?|videos?|"
    r"something|stuff|one|music)\s+(?:called|named|titled|entitled|(?:that|which) (?:goes|says|sings)|"
    r"with the (?:lyrics?|words?))|(?:songs?|tracks?|tunes?|music|stuff|something) (?:like|similar to))\s+(?=\S)",
    re.I,
)


def _protected(text: str) -> list[tuple[int, int]]:
    """Spans no joiner inside may split: quotes, and a title from its frame to the end."""
    spans = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    title = _TITLE_FRAME.search(text)
    if title:
        spans.append((title.end(), len(text)))
    return spans


def split_clauses(text: str) -> list[str]:
    """Split at separators followed by a command verb; never inside quotes or a title."""
    quoted = _protected(text)
    clauses: list[str] = []
    start = 0
    dictation: bool | None = None  # does the clause from `start` dictate text? (computed once)
    for m in _SEPARATOR.finditer(text):
        if any(a <= m.start() < b for a, b in quoted):
            continue
        ahead = lower_words(text[m.end(): m.end() + 40])
        nxt = ahead.split(" ", 1)[0]
        if nxt not in COMMAND_STARTS or _names_a_pair(text[start: m.start()], ahead):
            continue
        if dictation is None:
            dictation = bool(DICTATION_START.match(strip_filler(text[start: start + 80], trailing=False)))
        sep = m.group(0).lower()
        # inside dictation a bare "and" is usually part of the text ("type salt and pepper"):
        # split only at "then" or before a verb that cannot be dictation
        if dictation and "then" not in sep:
            if nxt not in _STRONG_AFTER_TEXT and not _opens_known_app(text[m.end(): m.end() + 80]):
                continue
        clauses.append(text[start: m.start()])
        start = m.end()
        dictation = None
    clauses.append(text[start:])
    return [c for c in clauses if c.strip(" ,;.")]


#: "between london and new york": the "and" joins the two things compared, not two commands
_BETWEEN = re.compile(r"\bbetween\s+(?:\S+\s+){0,2}\S+\s*$", re.I)
#: "new" starts a command only when something new is made ("new tab"), not in a place name
_NEW_THING = re.compile(r"^new\s+(?:tab|window|document|file|note|folder|page|line|paragraph|message|email|e-mail|"
                        r"incognito|private|private window|text|sheet|spreadsheet)\b")


_PLAIN_VERBS = frozenset(
    "open launch start run type write dictate press hit take close switch play search google remind wait".split()
)


#: a clause that opens things: a site named after it is one more to open
_OPENS = re.compile(r"^(?:please\s+)?(?:open|launch|go to|visit)\b")


#: where the next name of a list ends: "youtube" in "youtube, notepad", "youtube and the calculator"
_NEXT_NAME = re.compile(r"\s*[,;]\s*|\s+(?:and|then|&)\s+|\s+in (?:a |the |another )?(?:new |separate |different |other )?"
                        r"(?:tabs?|windows?)\b")


def _names_a_pair(before: str, ahead: str) -> bool:
    """Does this "and" join two names ("between london and new york", "and new jersey") rather
    than two commands?"""
    if ahead.startswith("new ") and not _NEW_THING.match(ahead):
        return True
    named = _NEXT_NAME.split(ahead, maxsplit=1)[0]  # "youtube and the calculator", "youtube in new tabs"
    if named.strip(" .!") in lx.WEBSITES and _OPENS.match(lower_words(before)):
        return True  # "open wikipedia and youtube": one more site to open, not a YouTube search
    # "between paris and open notepad" still opens it: only words that are not plainly verbs pair up
    return bool(_BETWEEN.search(before)) and ahead.split(" ", 1)[0] not in _PLAIN_VERBS


def _opens_known_app(rest: str) -> bool:
    """Does the next clause open an app we know ("... and open notepad")?"""
    first = re.split(r"[,;]|\s(?:and|then)\s", rest, maxsplit=1)[0]
    low = lower_words(first)
    m = re.match(r"^(?:open|launch|start)\s+(?:up\s+)?(?:the\s+|my\s+)?(.+?)$", low)
    return bool(m and m.group(1) in lx.APP_ALIASES)


def soft_split(text: str) -> list[str]:
    """``text`` cut at every joiner outside quotes and titles (at most ``MAX_SOFT_PARTS`` parts), or [text]."""
    quoted = _protected(text)
    parts: list[str] = []
    start = 0
    for m in _SEPARATOR.finditer(text):
        if any(a <= m.start() < b for a, b in quoted) or m.start() == 0:
            continue
        parts.append(text[start: m.start()])
        start = m.end()
    parts.append(text[start:])
    parts = [p.strip(" ,;.") for p in parts if p.strip(" ,;.")]
    return parts if 1 < len(parts) <= MAX_SOFT_PARTS else [text]


def joints(text: str) -> list[tuple[int, int]]:
    """Where ``text`` may join two requests (the separators outside quotes, inside titles too):
    for telling a request folded into a search or a title ("play jazz and unlock the front door")
    that must be said or refused, never for splitting off commands to carry out."""
    quoted = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    return [(m.start(), m.end()) for m in _SEPARATOR.finditer(text)
            if m.start() > 0 and not any(a <= m.start() < b for a, b in quoted)]
