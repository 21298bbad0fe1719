"""The wake words and the word-level matching the wake gate does: the name, the words that wake
it, and where in a phrase they are. Pure functions over recognised text."""

from __future__ import annotations

import re
from dataclasses import dataclass

NAME = "anova"
#: wake words as word sequences; "wake up" is two words, matched as a unit
WAKE_WORDS: tuple[tuple[str, ...], ...] = (("wake", "up"), ("hey",), ("hello",), ("hi",), ("yo",))
SLEEP_PHRASE: tuple[str, ...] = ("go", "to", "sleep")
#: how the recogniser hears a wake word in noise, taken as that wake word only as the phrase's
#: first word: "hello anova" comes out as "go anova" (4 of 35 noisy "hello anova …" phrases on
#: the room bench's tuning half). The name's own checks (trust.py) still decide.
MISHEARD_WAKE_WORDS: tuple[tuple[str, ...], ...] = (("go",),)

#: words heard before the wake words that still let them wake AnovaX: one, for a filler ("um,
#: hey anova" heard as "i'm hey anova"; with a scoring recogniser only after a pause:
#: trust.PAUSE_BEFORE_WAKE_FRAMES). More is a sentence said to someone else that the recogniser
#: turned into wake words part-way ("can you ask Hannah what time is it" heard as "can us hi anova
#: time is it": a red team's find, flite's awb and festival's kal). Tuning voices (nine espeak-ng
#: voices, clean and noisy): 2 of 864 such sentences woke AnovaX, one of them with two words
#: before; 1 of 298 real wakes said after one filler was heard with two ("okay hey anova" as
#: "look a hey anova")
WORDS_BEFORE_WAKE_MAX = 1

_WORD = re.compile(r"[a-z0-9']+", re.IGNORECASE)


@dataclass(frozen=True)
class _Word:
    word: str
    start: int  # offset in the original text, so a command keeps its original casing


def _words(text: str) -> list[_Word]:
    return [_Word(m.group().lower(), m.start()) for m in _WORD.finditer(text)]


def _find(seq: list[str], pattern: tuple[str, ...], start: int = 0) -> int:
    for i in range(start, len(seq) - len(pattern) + 1):
        if tuple(seq[i:i + len(pattern)]) == pattern:
            return i
    return -1


def _without_name(seq: list[str]) -> list[str]:
    """The words without a leading "anova"/"hey anova" or a trailing "anova" ("yes anova")."""
    span = _wake_span(seq)
    if span is not None and span[0] == 0:
        seq = seq[span[1]:]
    elif seq[:1] == [NAME]:
        seq = seq[1:]
    return seq[:-1] if seq[-1:] == [NAME] else seq


def ends_with_wake(seq: list[str]) -> bool:
    """True when the words end with a wake form ("hey anova", "anova wake up"): a phrase that may
    be whole, the command to follow in the next one."""
    span = _wake_span(seq)
    return span is not None and span[1] == len(seq)


def name_in_span(seq: list[str], span: tuple[int, int]) -> int:
    """Where the name is in the wake form ``span`` of ``seq`` (``_wake_span``): last in "hey anova",
    first in "anova wake up"."""
    return span[1] - 1 if seq[span[1] - 1] == NAME else span[0]


def _wake_span(seq: list[str]) -> tuple[int, int] | None:
    """(first, past-last) indices of "<wake word> anova", "anova <wake word>" or, as the phrase's
    first words, "<misheard wake word> anova" ("go anova"); else None."""
    for i, word in enumerate(seq):
        if word != NAME:
            continue
        for wake in WAKE_WORDS:
            n = len(wake)
            if i >= n and tuple(seq[i - n:i]) == wake:
                return i - n, i + 1
        for wake in MISHEARD_WAKE_WORDS:
            if tuple(seq[:i]) == wake:
                return 0, i + 1
        for wake in WAKE_WORDS:
            if tuple(seq[i + 1:i + 1 + len(wake)]) == wake:
                return i, i + 1 + len(wake)
    return None
