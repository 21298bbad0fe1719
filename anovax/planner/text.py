"""Text helpers shared by every stage: clean a request, lower-case it, strip filler, make a query.

Pure string functions with no knowledge of plans or steps.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from anovax.planner import lexicon as lx

#: web and YouTube queries are cut to this many characters (the tools allow 300)
MAX_QUERY_CHARS = 200

_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")
SPACES = re.compile(r"\s+")
WORDS = re.compile(r"\w+", re.UNICODE)
QUOTES = "\"'“”‘’«»`"
EDGE_PUNCT = " \t.,;:!?\"'“”‘’«»`()[]{}"
#: the start of dictation, whose words are typed as said (so filler is not stripped from them)
DICTATION_START = re.compile(r"^(?:type|write|dictate|take (?:a |some )?dictation)\b", re.I)


def clean_request(text: Any) -> str:
    """Any input as one line of text: NFKC, control and format characters to spaces, collapsed."""
    if text is None:
        return ""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", errors="replace")
    elif not isinstance(text, str):
        text = str(text)
    text = unicodedata.normalize("NFKC", text)
    text = _CONTROL_CHARS.sub(" ", text)
    text = "".join(ch if unicodedata.category(ch)[0] != "C" or ch in "\n\t" else " " for ch in text)
    return SPACES.sub(" ", text).strip()


#: well-known chat spellings of filler and unit words ("wat time is it pls", "count down 90 secs"),
#: spelled out before matching; whole words only, and a small fixed table (not a spell checker)
CHAT_SPELLINGS: dict[str, str] = {
    "wat": "what", "wats": "what's", "pls": "please", "plz": "please", "plse": "please",
    "thx": "thanks", "thnx": "thanks",
}
_CHAT_WORD = re.compile(r"(?<![\w'’.-])(" + "|".join(sorted(CHAT_SPELLINGS, key=len, reverse=True)) + r")(?![\w'’-])",
                        re.I)
#: units only after a number ("90 secs", "a few mins"): "hr jobs" and "sec filings" are searched as said
_CHAT_UNITS = {"sec": "second", "secs": "seconds", "min": "minute", "mins": "minutes", "hr": "hour", "hrs": "hours"}
_NUMBER_UNIT = re.compile(r"(\b(?:\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|"
                          r"thirty|forty|fifty|sixty|ninety|few|couple of|couple)\s*)(secs?|mins?|hrs?)\b(?![\w'’-])", re.I)
#: "timer 4 10 min": the chat "4" for "for", only right before a span of time
_FOUR_FOR = re.compile(r"(?<=[a-z] )4 (?=\d+(?:\.\d+)?\s*(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b)", re.I)
#: "u" / "ur" only after a word that asks something of "you" ("can u", "thank u"): "press u" is a key
_CHAT_YOU = re.compile(r"\b(can|could|would|will|do|did|are|thank|have|if|tell|give|show|let|for|to)\s+(u|ur)\b(?![\w'’-])",
                       re.I)
#: "type u r late": words after a dictation verb are typed as said, so chat spellings stay
_DICTATED_TAIL = re.compile(r"\b(?:type|write|dictate|take (?:a |some )?dictation|take down)\b", re.I)


def chat_spelled_out(text: str) -> str:
    """``text`` with chat spellings spelled out, up to the first dictation verb (its words are typed)."""
    m = _DICTATED_TAIL.search(text)
    head, tail = (text[: m.start()], text[m.start():]) if m else (text, "")
    head = _CHAT_WORD.sub(lambda w: CHAT_SPELLINGS[w.group(1).lower()], head)
    head = _FOUR_FOR.sub("for ", head)
    head = _NUMBER_UNIT.sub(lambda w: w.group(1) + _CHAT_UNITS[w.group(2).lower()], head)
    return _CHAT_YOU.sub(lambda w: w.group(1) + (" you" if w.group(2).lower() == "u" else " your"), head) + tail


def lower_words(text: str) -> str:
    """Lower-case, punctuation to spaces (apostrophes kept), single spaces."""
    text = text.lower().replace("’", "'")
    text = re.sub(r"[^\w'+&$%@./-]+", " ", text)
    text = re.sub(r"(?<!\w)[./-]+|[./-]+(?!\w)", " ", text)
    return SPACES.sub(" ", text).strip()


def alnum(text: str) -> str:
    """Only the letters and digits, case-folded (to compare two spellings of the same words)."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def strip_filler(text: str, *, trailing: bool = True) -> str:
    """Drop leading wake words and politeness, and trailing 'please' / 'for me' (never from
    dictation: "type thank you" types "thank you")."""
    for _ in range(4):  # "hey siri, please, could you ...": a few layers, but never loop forever
        new = lx.LEAD_FILLER.sub("", text, count=1).strip()
        if new == text or not new:
            break
        text = new
    if not trailing or DICTATION_START.match(text):
        return text
    for _ in range(2):  # "for me, would you": two layers at most
        new = lx.TRAIL_FILLER.sub("", text).strip()
        if new == text or not new:
            break
        text = new
    return text


def query(text: str) -> str:
    """A search query from spoken text: edge punctuation off, at most MAX_QUERY_CHARS."""
    q = SPACES.sub(" ", text).strip(EDGE_PUNCT)
    q = re.sub(r"^(?:for|about|on|up)\s+", "", q, flags=re.I)
    if len(q) > MAX_QUERY_CHARS:
        q = q[:MAX_QUERY_CHARS].rsplit(" ", 1)[0]  # cut at a word boundary
    return q.strip(EDGE_PUNCT)
