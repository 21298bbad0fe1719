"""The recogniser port: what every speech recogniser is, and the one shape of its answer.

Every recogniser returns lower-case words separated by single spaces ("" when nothing was
heard) and raises ``SttError`` when the engine itself fails. stt.py has the offline one and
``make_recognizer``; google.py the online one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:  # speech_recognition is imported lazily: a broken install must not stop AnovaX
    import speech_recognition as sr

#: a pronunciation-variant marker, as in cmudict's "read(2)" (pocketsphinx hypotheses carry them too)
VARIANT = re.compile(r"\(\d+\)$")


@runtime_checkable
class Recognizer(Protocol):
    """Turns one phrase of audio into text."""

    #: short engine name ("sphinx", "google")
    name: str
    #: True when the audio never leaves the machine
    offline: bool

    def recognize(self, audio: sr.AudioData) -> str:
        """Lower-case words separated by single spaces, "" when nothing was heard.
        Raises SttError when the engine fails."""
        ...


def normalise(text: str) -> str:
    """Lower case, single spaces, no pronunciation-variant markers or filler tokens."""
    words = []
    for w in str(text or "").lower().split():
        w = VARIANT.sub("", w)
        if not w or w.startswith(("<", "[", "+")):
            continue
        words.append(w)
    return " ".join(words)


def sentence(text: str) -> str:
    """One line, ending in exactly one full stop."""
    return " ".join(text.split()).rstrip(". ") + "."
