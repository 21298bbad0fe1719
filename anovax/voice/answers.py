"""Spoken answers to a question the assistant is waiting on: which phrases are a clear yes or no.

One short list, shared by the wake gate (what counts as an answer) and the recogniser's corpus
(so each form can be heard at all: a closed-vocabulary recogniser only outputs its own words).
Only whole phrases count: "yes" answers, "yes no", "yesterday" or "yes open notepad" do not,
and a filler the recogniser produces for a noise ("yeah", "okay", "oh no") is never a yes.

Measured with the command recogniser on espeak-ng speech (3 tuning voices and 3 held-out ones,
clean and with pink noise at 0.05 and 0.1): "yes" 17 of 18, "no" 18 of 18, "yes please" 17,
"no thanks" 10 (heard as "nova and": no answer, so the question runs out); never once the
opposite answer. Of 666 other short utterances, 12 came out as "yes" ("yet" 8, "guess" 2,
"jess" 2; "yeah" and "yas" 18 more) and about 30 as "no" ("know", "nope", "nose", "note").
Synthetic noise bursts and tones (42 kinds) never came out as either.
"""

from __future__ import annotations

from collections.abc import Sequence

#: phrases that mean yes, as whole utterances (lower case, single spaces)
YES_PHRASES: tuple[str, ...] = ("yes", "yes please", "yes go ahead", "yes do it")
#: phrases that mean no
NO_PHRASES: tuple[str, ...] = ("no", "no thanks", "no thank you", "no don't")
#: words that make a phrase sound like an answer: one that is not exactly a form above is
#: ambiguous ("yes no", "no yes please", "yeah"), never taken either way
ANSWER_WORDS = frozenset({"yes", "no", "yeah", "yep", "yup", "nope", "nah"})

#: words that sound like "yes" but are not it: in the recogniser's vocabulary so that a closed
#: model has something other than "yes" to output for them. Without them, measured on espeak-ng
#: speech (6 voices x clean and 2 noise levels), "yet" came out as "yes" 14 of 18 times and
#: "guess" 9 of 18 (sounds like "no" are left alone: a "no" heard by mistake only denies).
YES_SOUND_ALIKES: tuple[str, ...] = (
    "yet", "not yet", "guess", "i guess", "yesterday", "less", "bless you", "chess", "test", "yellow", "just",
)

_YES = frozenset(tuple(p.split()) for p in YES_PHRASES)
_NO = frozenset(tuple(p.split()) for p in NO_PHRASES)


def spoken_answer(words: Sequence[str]) -> bool | None:
    """True for a clear yes, False for a clear no, None for anything else (``words`` lower case)."""
    key = tuple(words)
    if key in _YES:
        return True
    if key in _NO:
        return False
    return None


def sounds_like_an_answer(words: Sequence[str]) -> bool:
    """True when a yes/no word is in ``words``: such a phrase is either an answer or ambiguous."""
    return any(w in ANSWER_WORDS for w in words)
