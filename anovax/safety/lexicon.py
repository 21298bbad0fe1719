"""Multilingual word lists for the prose rules, kept as data: one ``lexicon_<lang>.txt`` a language.

A rule module asks for a section (``words("destroy")``) and gets one regex alternation over every
language, so adding a language is adding one file. Each file holds ``[section]`` headers and one
entry a line (``#`` starts a comment). An entry is words written as a person would (accents,
umlauts and capitals are fine: every literal goes through ``canon.fold``, the same canonical form
the scanned text is in), with three marks:

- ``word*``: a stem, any ending (``lösch*`` is lösche, löschen, löscht);
- ``~``: up to five words in between (``führ* ~ aus`` is "führe den Befehl aus");
- ``!word`` after the entry: not when the next word is ``word`` (``open !to``: "open to ideas").

Entries that begin or end with a letter are matched as whole words, except in scripts written
without spaces (Chinese, Japanese), where a word boundary means nothing.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar

from anovax.safety.canon import fold

#: the way umlauts are typed on a keyboard without them; fold would read "ö" as "o", not "oe"
_TRANSLITERATE = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"})
T = TypeVar("T")
_FILE = re.compile(r"^lexicon_([a-z]{2,3})\.txt$")
_HEADER = re.compile(r"^\[([a-z_]+)\]$")
#: at most five words between the parts of a split verb ("gib den Code ein", "schalten Sie den
#: Windows Defender aus")
_GAP = r"(?:[\w'-]{1,30} ){0,5}"
_STEM = r"\w{0,20}"
#: where a clause ends: a sentence mark or a line break, but not the dot inside "promo.example",
#: "fix.exe" or "1.800.555.0199"
CLAUSE_END = re.compile(r"[!?;\n]|\.(?!\w)")
#: the same, stopping at a comma too (a looser word, like "alles", must sit close)
PHRASE_END = re.compile(r"[!?;,\n]|\.(?!\w)")
#: one character of the same phrase, for a bounded gap inside one regex
PHRASE_CHAR = r"(?:[^.!?;,\n]|\.(?=\w))"


def clause_around(text: str, start: int, end: int, reach: int, ends: re.Pattern[str] = CLAUSE_END) -> tuple[int, int]:
    """``(lo, hi)``: at most ``reach`` characters either side of ``text[start:end]``, cut where
    its clause ends, so a second word family is looked for in a bounded window (linear scans)."""
    lo = max(0, start - reach)
    for mark in ends.finditer(text, lo, start):
        lo = mark.end()
    found = ends.search(text, end, min(len(text), end + reach))
    return lo, found.start() if found else min(len(text), end + reach)


def data(build: Callable[..., T]) -> Callable[..., T]:
    """Cache a table built from data files (the word lists, their vocabulary, the BIP-39 lists):
    built once per argument, for the life of the process. Unlike ``lru_cache`` it offers no
    ``cache_clear``: these are data, not results of scanning a text, and a "cold" measurement of
    a check (``tests/adversarial.py``) should not rebuild them."""
    built: dict[tuple[Any, ...], T] = {}
    lock = threading.Lock()

    @functools.wraps(build)
    def get(*args: Any) -> T:
        try:
            return built[args]
        except KeyError:
            with lock:
                if args not in built:
                    built[args] = build(*args)
                return built[args]

    return get


class Lazy:
    """A regex compiled on first use. The word lists of 25 languages take ~100 ms to compile: a
    start-up, or a command whose plan has no goal, fact or reply to read, should not pay for them;
    the first check that reads one pays once. Two threads may race to compile: both get the same
    pattern, one of them is kept."""

    __slots__ = ("_source", "_flags", "_compiled")

    def __init__(self, source: Callable[[], str], flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source(), self._flags)
        return self._compiled

    def search(self, text: str, *span: int) -> re.Match[str] | None:
        return self.pattern.search(text, *span)

    def match(self, text: str, *span: int) -> re.Match[str] | None:
        return self.pattern.match(text, *span)

    def fullmatch(self, text: str, *span: int) -> re.Match[str] | None:
        return self.pattern.fullmatch(text, *span)

    def finditer(self, text: str, *span: int) -> Iterator[re.Match[str]]:
        return self.pattern.finditer(text, *span)

    def findall(self, text: str, *span: int) -> list[Any]:
        return self.pattern.findall(text, *span)


def lazy_words(section: str) -> Lazy:
    """``re.compile(words(section))``, compiled on first use."""
    return Lazy(lambda: words(section))


@dataclass(frozen=True)
class Near:
    """Two word families in one clause: ``second`` within ``reach`` characters after ``first``
    (its own words included: "schakel de firewall uit" holds its object) or, unless ``ordered``,
    before it (German, Dutch and Japanese put the verb last). Each family is compiled once."""

    first: re.Pattern[str] | Lazy
    second: re.Pattern[str] | Lazy
    reach: int = 40
    ordered: bool = False
    ends: re.Pattern[str] = CLAUSE_END

    @classmethod
    def of(cls, first: str, second: str, **options: object) -> Near:
        return cls(lazy_words(first), lazy_words(second), **options)  # type: ignore[arg-type]

    def pairs(self, text: str) -> Iterator[re.Match[str]]:
        """The ``second`` match next to each ``first`` match that has one, in text order."""
        for hit in self.first.finditer(text):
            lo, hi = clause_around(text, hit.start(), hit.end(), self.reach, self.ends)
            found = self.second.search(text, hit.start() + 1, hi)
            if found is None and not self.ordered:
                found = self.second.search(text, lo, hit.start())
            if found is not None:
                yield found

    def search(self, text: str) -> re.Match[str] | None:
        """The ``second`` match of the first pair, or None."""
        return next(self.pairs(text), None)


def _unspaced(text: str) -> bool:
    # CJK ideographs, kana and Hangul: no spaces between words, so no word boundaries either
    return any(0x3040 <= ord(ch) <= 0x30FF or 0x3400 <= ord(ch) <= 0x9FFF or 0xAC00 <= ord(ch) <= 0xD7AF for ch in text)


def _fold(word: str) -> str:
    # canon.fold of plain ASCII is its lower case (no look-alikes, nothing to decompose): the fast
    # path keeps twenty-odd word lists from costing the import a fold per entry
    return " ".join(word.split()).lower() if word.isascii() else fold(word)


def _compile_entry(entry: str) -> tuple[bool, str, str]:
    """``(bounded, first, rest)``: whether the entry starts at a word boundary, its first
    character and the regex for the rest (see the module docstring for the marks)."""
    words = entry.split()
    negatives = [w[1:] for w in words if w.startswith("!")]
    literals = [w for w in words if not w.startswith("!")]
    parts: list[str] = []
    for word in literals:
        if word == "~":
            parts.append(_GAP)
            continue
        stem = word.endswith("*")
        parts.append(re.escape(_fold(word.rstrip("*"))) + (_STEM if stem else "") + " ")
    body = "".join(parts)[:-1]
    plain = _fold(entry.replace("*", "").replace("~", ""))
    first = _fold(literals[0].rstrip("*"))[:1]
    rest = body[len(re.escape(first)):]
    if _unspaced(plain):
        return False, first, rest
    tail = r"(?!\w)" if plain[-1:].isalnum() and not literals[-1].endswith("*") else ""
    not_next = "".join(rf"(?! {re.escape(_fold(n))}\b)" for n in negatives)
    return plain[:1].isalnum(), first, rest + tail + not_next


def entry_regex(entry: str) -> str:
    """The regex for one entry line on its own."""
    bounded, first, rest = _compile_entry(entry)
    return (r"(?<!\w)" if bounded else "") + re.escape(first) + rest


def _grouped(compiled: list[tuple[str, str]]) -> str:
    # one branch per first character: re tries branches in turn, so 300 entries cost ~30
    # attempts a position instead of 300 (measured 10-100x faster on ordinary text)
    by_first: dict[str, list[str]] = {}
    for first, rest in compiled:
        by_first.setdefault(first, []).append(rest)
    return "|".join(f"{re.escape(first)}(?:{'|'.join(rests)})" for first, rests in by_first.items())


def _parse(text: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        header = _HEADER.match(line)
        if header:
            current = sections.setdefault(header.group(1), [])
        elif current is None:
            raise ValueError(f"lexicon entry outside a section: {line!r}")
        else:
            current.append(line)
            plain_letters = line.translate(_TRANSLITERATE)
            if plain_letters != line:
                current.append(plain_letters)  # "loeschen" as people type it without umlauts
    return sections


@data
def table() -> dict[str, dict[str, list[str]]]:
    """Every language's sections, read once: ``{lang: {section: [entries]}}``. The languages are
    the ``lexicon_<code>.txt`` files present: adding one is the whole change."""
    found: dict[str, dict[str, list[str]]] = {}
    for item in sorted(resources.files("anovax.safety").iterdir(), key=lambda i: i.name):
        match = _FILE.match(item.name)
        if match:
            found[match.group(1)] = _parse(item.read_text(encoding="utf-8"))
    return found


@data
def words(section: str) -> str:
    """One non-capturing alternation of ``section``'s entries over all languages, longest first
    (so "turn off" wins over "turn"); raises KeyError for a section no language has."""
    entries = {entry for sections in table().values() for entry in sections.get(section, ())}
    if not entries:
        raise KeyError(section)
    bounded: list[tuple[str, str]] = []
    unspaced: list[tuple[str, str]] = []
    for entry in sorted(entries, key=lambda e: (-len(e), e)):
        at_boundary, first, rest = _compile_entry(entry)
        (bounded if at_boundary else unspaced).append((first, rest))
    # the boundary is tested once, before any branch: inside a word every branch fails at once
    branches = [rf"(?<!\w)(?:{_grouped(bounded)})"] if bounded else []
    branches += [_grouped(unspaced)] if unspaced else []
    return "(?:" + "|".join(branches) + ")"
