"""Garbled text: a word that is not English and is a command word mistyped ("timepe").

pocketsphinx (a dependency: it is the offline speech recogniser) ships CMUdict, 126,000
English words and names. Speech it recognises is made of those words by construction, so a
word outside it came from the keyboard or a garbled transcript. Names and typos of ordinary
words are outside it too ("ramanujan", "rihana"), and people search for those, so a word
counts as garbled only when it is also one or two edits from a word of the command grammar
("timepe" from "time"): a mangled command, which the planner answers with "I didn't
understand" rather than search the web for. The dictionary is read on first use (~0.2 s);
without it nothing is garbled, so no request is ever blocked for lack of it.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from pathlib import Path

_LOG = logging.getLogger(__name__)
#: "word(2)": CMUdict's alternative pronunciations of the same word
_VARIANT = re.compile(r"\(\d+\)$")


@lru_cache(maxsize=1)
def known_words() -> frozenset[str] | None:
    """CMUdict's words, lower case; None when the dictionary cannot be read."""
    try:
        import pocketsphinx

        path = Path(pocketsphinx.get_model_path()) / "en-us" / "cmudict-en-us.dict"
        with path.open(encoding="utf-8", errors="replace") as fh:
            return frozenset(_VARIANT.sub("", line.split(" ", 1)[0]) for line in fh if line.strip())
    except Exception as exc:  # no pocketsphinx, no model: nothing is garbled
        _LOG.info("no word list for the offline planner (%s): every word counts as known", exc)
        return None


def garbled_words(low: str, commands: frozenset[str]) -> list[str]:
    """The words of ``low`` that are not English and are one or two edits from one of
    ``commands`` (words of four letters or more)."""
    return [w for w in unknown_words(low) if any(_near(w, c) for c in commands)]


def _near(a: str, b: str, most: int = 2) -> bool:
    """Levenshtein distance of ``a`` and ``b`` at most ``most`` (rows stop once all exceed it)."""
    if abs(len(a) - len(b)) > most:
        return False
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > most:
            return False
        prev = cur
    return prev[-1] <= most


def unknown_words(low: str) -> list[str]:
    """The words of ``low`` (lower-cased, see text.lower_words) that are not English words.
    Numbers, and words with digits or symbols (a flight number, an address), are not judged."""
    vocab = known_words()
    if not vocab:
        return []
    out = []
    for word in low.split():
        if not word.isalpha() and not re.fullmatch(r"[a-z]+'[a-z]*", word):
            continue
        if word in vocab or (word.endswith("'s") and word[:-2] in vocab):
            continue
        out.append(word)
    return out
