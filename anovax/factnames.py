"""Fact names as people say them: "favourite colour", "favorite color" and the stored key
``favourite_colour`` are one fact; so are "my wife's birthday" and ``wife_s_birthday``.

Keys are written by the offline planner ("remember my X is Y" -> ``x``), by a model (any case,
``favoriteColor``) or by hand, so a name is compared by its *words*: split on anything that is
not a letter or digit and at camelCase humps, lower-cased, possessives and filler ("my", "the")
dropped, British and American spellings folded ("colour" -> "color", "centre" -> "center") and a
plural's "s" dropped. The folding only ever compares two names; what is stored and said keeps
the user's own spelling.

Pure functions on text: the planner, the memory agents and the safety gate share them.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping

#: a word boundary inside a key: anything not a letter or digit, or a camelCase hump
_SPLIT = re.compile(r"[^0-9a-zA-Z]+|(?<=[a-z])(?=[A-Z])")
#: words that say whose fact it is, not which one
_FILLER = frozenset({"my", "mine", "the", "a", "an", "of", "our", "your", "me", "i", "s", "about", "current"})
#: spellings that differ by more than a rule catches, to one form each (a value may be two words)
_SAME = {"fav": "favorite", "fave": "favorite", "favourit": "favorite", "favorit": "favorite", "grey": "gray",
         "mom": "mum", "mommy": "mum", "mummy": "mum", "jewellery": "jewelry", "programme": "program",
         "licence": "license", "surname": "last name", "lastname": "last name", "firstname": "first name",
         "bday": "birthday", "telephone": "phone"}
#: two words this close (difflib's ratio) are one word misspelt ("favorte"): "mother" and "brother"
#: (0.77) stay two people
_CLOSE = 0.85
#: shorter words must match exactly ("name" is not "game")
_MIN_FUZZY_LEN = 5


def _fold(word: str) -> str:
    if len(word) >= 6 and re.search(r"[a-z]{2}our", word):
        word = word.replace("our", "or")  # colour, favourite, flavour, honour, neighbour
    if len(word) >= 5 and re.search(r"[^aeiou]re$", word):
        word = word[:-2] + "er"  # centre, theatre, metre, litre
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]  # names, kids, allergies -> allergie (both sides fold alike)
    return word


def words(name: str) -> tuple[str, ...]:
    """The words that identify a fact name, folded for comparison (never for display)."""
    text = re.sub(r"['’]s\b", " ", name)  # "wife's" -> "wife"
    parts = [w for p in _SPLIT.split(text) if p for w in _SAME.get(p.lower(), p.lower()).split()]
    return tuple(_fold(p) for p in parts if p not in _FILLER)


def key_for(spoken: str) -> str:
    """The key a fact is stored under: "favourite colour" -> ``favourite_colour``."""
    return re.sub(r"[^a-z0-9]+", "_", spoken.lower()).strip("_")


def spoken(key: str) -> str:
    """A stored key as said aloud: ``wife_s_birthday`` -> "wife's birthday", ``favoriteColor`` ->
    "favorite color"."""
    said = " ".join(p.lower() for p in _SPLIT.split(key) if p)
    return re.sub(r"(\w) s\b", r"\1's", said)


def same(a: str, b: str) -> bool:
    """True when two names are the same fact."""
    wa, wb = words(a), words(b)
    return bool(wa) and sorted(wa) == sorted(wb)


def find(keys: Iterable[str], name: str) -> str | None:
    """The stored key ``name`` means, or None: the exact key, else the one with the same words
    (in any order), else the one close enough to be a typo, when exactly one is."""
    keys = list(keys)
    if name in keys:
        return name
    wanted = words(name)
    if not wanted:
        return None
    for key in keys:
        if sorted(words(key)) == sorted(wanted):
            return key
    close = [key for key in keys if _misspelt(wanted, words(key))]
    return close[0] if len(close) == 1 else None


def _misspelt(wanted: tuple[str, ...], stored: tuple[str, ...]) -> bool:
    """The same words but for a typo in some of them, each word matched once."""
    if len(wanted) != len(stored):
        return False
    left = list(stored)
    for word in wanted:
        match = next((w for w in left if w == word or (min(len(w), len(word)) >= _MIN_FUZZY_LEN and
                                                       difflib.SequenceMatcher(None, w, word).ratio() >= _CLOSE)),
                     None)
        if match is None:
            return False
        left.remove(match)
    return True


def lookup(facts: Mapping[str, str], name: str) -> tuple[str, str] | None:
    """(stored key, value) of the fact ``name`` means, or None."""
    key = find(facts, name)
    return (key, facts[key]) if key is not None else None


def named_in(key: str, text: str) -> bool:
    """True when every word of ``key`` is in ``text``: the person said which fact they meant."""
    wanted = set(words(key))
    return bool(wanted) and wanted <= set(words(text))


def verb(key: str) -> str:
    """"is" or "are" after the name: "your allergies are ...", "your address is ..."."""
    last = spoken(key).rsplit(" ", 1)[-1]
    return "are" if len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is", "'s")) else "is"


# Free-form notes ("remember that I parked on level 3"): stored as ``note_<content words>`` ->
# "parked on level 3" and found again by the content words a question shares with the key
# ("where did I park" -> ``note_parked_level``). The planner sees only the keys, so the key
# carries the words that find the note.
NOTE_PREFIX = "note_"
#: words that say nothing about which note is meant
_NOTE_STOP = frozenset({
    "i", "i'm", "im", "my", "me", "mine", "you", "your", "the", "a", "an", "of", "on", "in", "at", "to", "for",
    "is", "are", "was", "were", "be", "been", "am", "do", "did", "does", "have", "has", "had", "it", "its",
    "where", "when", "who", "what", "which", "how", "why", "know", "remember", "tell", "that", "this",
    "again", "please", "and", "or", "with", "from", "there", "here", "today", "yesterday",
    "what's", "whats", "where's", "when's", "who's", "how's", "it's"})
#: a note's key holds at most this many words
_NOTE_KEY_WORDS = 3


def _stem(word: str) -> str:
    for end in ("ing", "ed", "es", "s"):
        if len(word) > len(end) + 3 and word.endswith(end):
            return word[: -len(end)]
    return word


def _note_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9']+", text.lower()) if w not in _NOTE_STOP]


def note_key(statement: str) -> str:
    """The key a note is stored under: "parked on level 3" -> ``note_parked_level``. Numbers stay
    out of the key, so "I parked on level 5" later replaces the note instead of adding a second."""
    picked = [w for w in _note_words(statement) if not any(c.isdigit() for c in w)][:_NOTE_KEY_WORDS]
    return NOTE_PREFIX + key_for(" ".join(picked)) if picked else ""


def is_note(key: str) -> bool:
    return key.startswith(NOTE_PREFIX)


def note_for(keys: Iterable[str], question: str) -> str | None:
    """The note a question is about: the one sharing the most content words with it, or None
    when none shares a word or two share equally many."""
    return _most_shared(question, {key: [w for w in key[len(NOTE_PREFIX):].split("_") if w]
                                   for key in keys if is_note(key)})


def fact_for(keys: Iterable[str], question: str) -> str | None:
    """The fact a question asks about when it names none exactly ("what size shoe does Lily wear,
    did I tell you?"): the note sharing the most content words with it (``note_for``), else the
    named fact that does ("lily's shoe size"), by the same rule."""
    keys = list(keys)
    return note_for(keys, question) or _most_shared(question, {key: words(key) for key in keys if not is_note(key)})


def _most_shared(question: str, candidates: Mapping[str, Iterable[str]]) -> str | None:
    """The candidate whose words share the most stems with ``question``'s content words; None
    when none shares one or two share equally many."""
    asked = {_stem(w) for w in _note_words(question)}
    scored = sorted(((len(asked & {_stem(w) for w in said}), key) for key, said in candidates.items()), reverse=True)
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


_PERSON = {"i": "you", "my": "your", "me": "you", "mine": "yours", "i'm": "you're", "im": "you're",
           "myself": "yourself", "i've": "you've", "i'll": "you'll", "i'd": "you'd", "am": "are"}


def second_person(statement: str) -> str:
    """"left my keys in the kitchen" -> "left your keys in the kitchen"."""
    return re.sub(r"[A-Za-z']+", lambda m: _PERSON.get(m.group(0).lower(), m.group(0)), statement)
