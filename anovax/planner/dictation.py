"""Dictation words: "dear sir comma new line thank you period" types "dear sir,\\nthank you.".

The spoken words for punctuation and layout follow Windows Voice Access and Dragon, and so
does the spacing: no space before , . ? ! : ; or a closing quote, one after; none after an
opening quote or a line break. ``dictate`` is the one conversion: the offline planner applies
it to the text of every type_text step, and the online planners' prompt shows the same table
(``prompt_section``, rendered from ``WORDS``) so the model applies the same conventions.

Only standalone command words convert, and a word that is plainly a noun stays a word:
right after a determiner ("a comma splice", "the period", "a new line of products") or
before "of" ("a period of time"). "literal comma" and "the word comma" type the word itself
(so do "the word cap", "literal quote").
Text without command words comes back unchanged, character for character.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass


class Mark(enum.Enum):
    """How a dictation word joins the words around it."""

    #: , . ? ! : ; : no space before, one after
    PUNCT = "punct"
    #: a line break: no space before or after
    BREAK = "break"
    #: an opening quote: a space before, none after
    OPEN = "open"
    #: a closing quote: no space before, one after
    CLOSE = "close"


@dataclass(frozen=True)
class Word:
    """One dictation command: what is said and what is typed."""

    #: the spoken forms, lower case, one or two words each
    said: tuple[str, ...]
    typed: str
    mark: Mark


#: the dictation words, in the order the prompt lists them
WORDS: tuple[Word, ...] = (
    Word(("comma",), ",", Mark.PUNCT),
    Word(("period", "full stop"), ".", Mark.PUNCT),
    Word(("question mark",), "?", Mark.PUNCT),
    Word(("exclamation mark", "exclamation point"), "!", Mark.PUNCT),
    Word(("colon",), ":", Mark.PUNCT),
    Word(("semicolon", "semi colon"), ";", Mark.PUNCT),
    Word(("new line", "newline"), "\n", Mark.BREAK),
    Word(("new paragraph",), "\n\n", Mark.BREAK),
    Word(("open quote", "begin quote", "open quotes"), '"', Mark.OPEN),
    Word(("close quote", "end quote", "close quotes"), '"', Mark.CLOSE),
)
#: "cap hello" types "Hello"
CAP = "cap"
#: "literal comma" / "the word comma" types "comma" (and "the word cap hello", "cap hello")
ESCAPES = (("literal",), ("the", "word"))
#: "quote ... unquote": a bare "quote" opens a quote only when words and an "unquote" follow it
BARE_QUOTE = "quote"
_UNQUOTE = "unquote"
#: the sentence the prompt and the tests use to show the conventions
EXAMPLE = "dear sir comma new line thank you period"

#: a command word right after one of these is a noun ("a comma splice", "the period"); words
#: that are also pronouns or answers ("that", "her", "no", "what") are left out: "i like that
#: period" and "no comma thanks" are dictation
_DETERMINERS = frozenset("a an the my your his its our their each every another".split())
#: the one-word commands outside ``WORDS``, as one-word lists (an escape before them types them too)
_OTHER_COMMANDS = ([CAP], [BARE_QUOTE], [_UNQUOTE])
_BY_SAID: dict[tuple[str, ...], Word] = {tuple(s.split()): w for w in WORDS for s in w.said}
_LONGEST = max(len(k) for k in _BY_SAID)


def dictate(text: str) -> str:
    """``text`` with its dictation words turned into marks; unchanged when it has none."""
    tokens = text.split()
    low = [t.lower() for t in tokens]
    out = _Typist()
    converted = False
    bare_open = False  # a bare "quote" is open, waiting for its "unquote"
    closes = _closing_unquotes(low)
    i = 0
    while i < len(tokens):
        noun = i > 0 and low[i - 1] in _DETERMINERS
        escape = _escape_at(low, i)
        if escape:
            said = _command_at(low, i + escape) or int(low[i + escape: i + escape + 1] in _OTHER_COMMANDS)
            if said:  # "literal new line": the words themselves, as said ("a literal comma": all of them)
                out.word(" ".join(tokens[i + (0 if noun else escape): i + escape + said]))
                i += escape + said
                converted = True
                continue
        said = 0 if noun else _command_at(low, i)
        if said and not _before_of(low, i + said) and not _leads(i, said, low):
            word = _BY_SAID[tuple(low[i: i + said])]
            out.mark(word.typed, word.mark)
            i += said
            converted = True
            continue
        if not noun and low[i] == CAP and i + 1 < len(tokens):
            nxt = tokens[i + 1]
            out.word(nxt[:1].upper() + nxt[1:])
            i += 2
            converted = True
            continue
        if not noun and low[i] == BARE_QUOTE and not bare_open and closes[min(i + 2, len(low))]:
            out.mark('"', Mark.OPEN)
            bare_open = True
            i += 1
            converted = True
            continue
        if low[i] == _UNQUOTE and bare_open:
            out.mark('"', Mark.CLOSE)
            bare_open = False
            i += 1
            continue
        out.word(tokens[i])
        i += 1
    return out.text() if converted else text


def prompt_section() -> str:
    """The dictation conventions for a planner prompt, rendered from ``WORDS`` and ``dictate``."""
    names = {"\n": "a line break (\\n)", "\n\n": "two line breaks (\\n\\n)"}
    lines = [
        "- When the user dictates text to type, type_text's text applies these dictation words "
        "(Windows Voice Access / Dragon conventions):"
    ]
    for w in WORDS:
        said = " / ".join(f'"{s}"' for s in w.said if s != "newline")
        lines.append(f"  {said} -> {names.get(w.typed, w.typed)}")
    lines += [
        f'  "{CAP} <word>" -> the word with a capital letter; "{BARE_QUOTE} ... {_UNQUOTE}" -> the words in quotes',
        '  No space before , . ? ! : ; or a closing quote and one after; no space after an opening quote or a '
        "line break.",
        '  "literal comma" or "the word comma" types the word itself; a word used as an ordinary noun stays a word '
        '("a comma splice", "the period of time").',
        f'  Example: "type {EXAMPLE}" -> type_text {json.dumps({"text": dictate(EXAMPLE)})}',
    ]
    return "\n".join(lines)


def _command_at(low: list[str], i: int) -> int:
    """How many words the dictation command at ``i`` spans (the longest), or 0."""
    for n in range(min(_LONGEST, len(low) - i), 0, -1):
        if tuple(low[i: i + n]) in _BY_SAID:
            return n
    return 0


def _escape_at(low: list[str], i: int) -> int:
    """How many words the escape ("literal", "the word") at ``i`` spans, or 0."""
    for esc in ESCAPES:
        if tuple(low[i: i + len(esc)]) == esc:
            return len(esc)
    return 0


def _closing_unquotes(low: list[str]) -> list[bool]:
    """Per position (and one past the end): whether an "unquote" that can close a quote comes
    there or later; not one that is typed as a word ("literal unquote", "cap unquote")."""
    out = [False] * (len(low) + 1)
    for j in range(len(low) - 1, -1, -1):
        word = low[j] == _UNQUOTE and not (j and low[j - 1] == CAP) \
            and not any(j >= k and _escape_at(low, j - k) == k for k in (1, 2))
        out[j] = word or out[j + 1]
    return out


def _leads(i: int, said: int, low: list[str]) -> bool:
    """"period the light is dim": a closing mark that starts a sentence has nothing to close,
    so it is a word (alone, as in "type comma", it is the mark)."""
    if i > 0 or i + said >= len(low) or _command_at(low, said):
        return False
    return _BY_SAID[tuple(low[:said])].mark in (Mark.PUNCT, Mark.CLOSE)


def _before_of(low: list[str], i: int) -> bool:
    """"period of time": a command word before "of" is a noun."""
    return i < len(low) and low[i] == "of"


class _Typist:
    """Joins words and marks with a dictation tool's spacing."""

    def __init__(self) -> None:
        self._out = ""
        #: no space before the next word: at the start, after a line break or an opening quote
        self._glued = True

    def word(self, word: str) -> None:
        self._out += word if self._glued else " " + word
        self._glued = False

    def mark(self, typed: str, mark: Mark) -> None:
        if mark is Mark.OPEN:
            self._out += typed if self._glued else " " + typed
        else:
            self._out = self._out.rstrip(" ") + typed
        self._glued = mark in (Mark.OPEN, Mark.BREAK)

    def text(self) -> str:
        return self._out.rstrip(" ")
