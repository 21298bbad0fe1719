"""BIP-39 recovery phrases: a wallet's whole key, written as 12 to 24 common words.

The word lists come from the ``mnemonic`` package (the reference implementation's lists). A
phrase is a run of at least ``MIN_WORDS`` words, all from the *same* language's list, with
nothing but separators between them: spaces, commas, line breaks, numbering ("1. abandon
2. ability"). Ordinary prose never gets there: the lists hold no articles, pronouns or common
verbs ("the", "is", "to", "and"), so a sentence breaks the run within a few words. The checksum
is not required: a phrase mistyped by one word is still the wallet's key.

CJK lists are left out: those scripts are written without spaces, so "words" there are not
separated the way this scan reads them, and Chinese prose is made of exactly those characters.
"""

from __future__ import annotations

import importlib.util
import re
from functools import lru_cache
from pathlib import Path

from anovax.safety.canon import plain
from anovax.safety.lexicon import data

#: the shortest standard phrase (128 bits of entropy)
MIN_WORDS = 12
_LANGUAGES = ("english", "french", "spanish", "italian", "portuguese", "czech", "russian", "turkish")
_WORD = re.compile(r"[^\W\d_]+")


#: invisible characters that separate words to a reader but vanish in ``plain``: a phrase glued
#: with zero-width spaces must still read as its words
_INVISIBLE_GAPS = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"), " ")


def _normal(word: str) -> str:
    # same form on both sides: accents dropped (plain), case folded; "é" in a list matches "e" typed
    return plain(word.translate(_INVISIBLE_GAPS)).casefold()


def _wordlist(language: str) -> list[str]:
    # the package's own files, read without importing it: ``import mnemonic`` pulls in its
    # key-derivation code and costs ~20 ms at start-up for nothing the gate uses
    spec = importlib.util.find_spec("mnemonic")
    folder = Path(next(iter(spec.submodule_search_locations or ()))) if spec else None
    if folder is None or not (folder / "wordlist" / f"{language}.txt").is_file():
        from mnemonic import Mnemonic  # a layout we do not know: ask the package

        return list(Mnemonic(language).wordlist)
    return (folder / "wordlist" / f"{language}.txt").read_text(encoding="utf-8").split()


@data
def _build_table() -> dict[str, tuple[int, ...]]:
    """Each list word, with the indexes of the languages whose list holds it."""
    table: dict[str, list[int]] = {}
    for index, language in enumerate(_LANGUAGES):
        for word in _wordlist(language):
            table.setdefault(_normal(word), []).append(index)
    return {word: tuple(indexes) for word, indexes in table.items()}




def longest_run(text: str) -> int:
    """The longest run of consecutive words from one language's BIP-39 list in ``text``."""
    table = _build_table()  # on the first long text (~20 ms, 16k words), not at start-up
    runs: dict[int, int] = {}  # language -> length of the run ending at the current word
    best = 0
    for match in _WORD.finditer(_normal(text)):
        runs = {index: runs.get(index, 0) + 1 for index in table.get(match.group(), ())}
        if runs:
            best = max(best, *runs.values())
    return best


@lru_cache(maxsize=4096)
def has_seed_phrase(text: str) -> bool:
    """True when ``text`` holds a run of ``MIN_WORDS`` or more list words."""
    if len(text) < MIN_WORDS * 3:  # the shortest list words have 3 letters
        return False
    return longest_run(text) >= MIN_WORDS
