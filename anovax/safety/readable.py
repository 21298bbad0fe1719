"""Default-deny for text the gate cannot read: what no word list can screen is not passed blindly.

The lexicons (``lexicon_<lang>.txt``) are the gate's reading ability, so what it can read is
measured from them, not from a second list that could drift:

- *scripts*: the Unicode scripts of the letters in every lexicon entry (Latin, Cyrillic, Greek,
  Arabic, Hebrew, Devanagari, Han, kana, Hangul...). A text whose letters are largely in another
  script (Thai, Georgian, Bengali, Tamil, Amharic...) cannot be screened by any rule here.
- *words*: every word of every entry (a ``stem*`` covers the words it starts), plus each file's
  ``[common]`` function words. A text in a spaced script with several words and not one the gate
  knows is in a language it does not read (Swahili, Estonian, Tagalog...), even if its letters
  are Latin.

A sub-task goal the gate cannot read becomes a question a person can approve (``goal_problem``:
a goal is an instruction by nature, and the person sees it); a remembered fact in an unreadable
script is refused (``fact_unreadable``: memory is replayed into every prompt, so it must be data
the gate can read). Short texts pass: a name or two words ("Tom yum", "Olly quiet") say too
little to be an instruction, and ordinary commands must not turn into questions.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from anovax.safety.canon import plain
from anovax.safety.lexicon import data, table

#: a third of the letters in a script no lexicon covers is more than a quoted name
_FOREIGN_SHARE = 3
#: ...and this many such letters is a sentence, however much known text pads it
_FOREIGN_LETTERS = 24
#: fewer words than this say too little to be an instruction in an unknown language
_MIN_WORDS = 3
#: a run of letters (a Devanagari vowel sign is no letter, so "है" is the one-letter word "ह")
_WORD = re.compile(r"[^\W\d_]+")
#: scripts written without spaces (or with particles glued on): words cannot be looked up
_UNSPACED = frozenset({"CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "HANGUL"})
_MIN_STEM = 3


def _script(ch: str) -> str:
    return "LATIN" if ch.isascii() else unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]


def _words_form(text: str) -> str:
    # plain + casefold, without fold's look-alike skeleton: which language a word is in does
    # not depend on look-alikes, and skeleton over every lexicon is the costly part of import
    return plain(text).casefold()


#: a lexicon word, and whether it is a ``stem*``
_LEXICON_WORD = re.compile(r"([^\W\d_]+)(\*?)")


@data
def _vocabulary() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """``(scripts, words, stems)`` the lexicons hold (built once, on the first goal or fact read)."""
    scripts: set[str] = set()
    known: set[str] = set()
    stems: set[str] = set()
    for sections in table().values():
        # one pass per language, not per entry: canonicalising is the costly part (import time)
        text = plain("\n".join(entry for entries in sections.values() for entry in entries))
        scripts.update(_script(ch) for ch in set(text) if ch.isalpha())
        # cut the way goal_problem cuts a text (a Devanagari vowel sign is no word character)
        for word, star in _LEXICON_WORD.findall(text.casefold()):
            if len(word) == 1 and word.isascii():
                continue
            if not star:
                known.add(word)
            elif len(word) >= _MIN_STEM:
                stems.add(word)
    scripts.add("KATAKANA-HIRAGANA")  # the prolonged sound mark "ー" belongs to both kana
    return frozenset(scripts), frozenset(known), frozenset(stems)




def _known(word: str) -> bool:
    _, known, stems = _vocabulary()
    if word in known:
        return True
    return any(word[:k] in stems for k in range(_MIN_STEM, len(word)))


def _letters(text: str) -> tuple[int, int, bool]:
    """``(letters, letters in a script the gate does not read, any unspaced letter)``."""
    total = foreign = 0
    unspaced = False
    for ch in plain(text):
        if ch.isalpha():
            total += 1
            script = _script(ch)
            if script not in _vocabulary()[0]:
                foreign += 1
            elif script in _UNSPACED:
                unspaced = True
    return total, foreign, unspaced


def _foreign_script(total: int, foreign: int) -> bool:
    return foreign >= 2 and (foreign * _FOREIGN_SHARE >= total or foreign >= _FOREIGN_LETTERS)


def fact_unreadable(text: str) -> bool:
    """A remembered key or value largely in a script no lexicon covers."""
    total, foreign, _ = _letters(text)
    return _foreign_script(total, foreign)


@lru_cache(maxsize=1024)
def goal_problem(goal: str) -> str | None:
    """Why a goal cannot be screened (for the log), or None when the gate can read it."""
    total, foreign, unspaced = _letters(goal)
    if _foreign_script(total, foreign):
        return "goal in a script the gate has no word list for"
    if unspaced:
        return None  # Chinese, Japanese, Korean: no words to look up; the lexicons match inside text
    tokens = _WORD.findall(_words_form(goal))
    # one letter is a word only outside Latin script (Hindi "का", "है"); "a" or "i" says nothing
    words = [t for t in tokens if len(t) > 1 or not t.isascii()]
    if sum(len(w) > 1 for w in words) >= _MIN_WORDS and not any(_known(w) for w in words):
        return "goal in a language the gate has no word list for"
    return None
