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


@runtime_checkable
class Utterance(Protocol):
    """One phrase being decoded while it is spoken (a ``StreamingRecognizer.begin()``)."""

    #: seconds of decoding work done so far, for the real-time factor
    decode_s: float

    def feed(self, raw: bytes) -> None:
        """More audio: 16 kHz, 16-bit mono. Never raises (a failure comes out of ``finish``)."""
        ...

    def partial(self) -> str:
        """The words decoded so far, normalised."""
        ...

    def looks_complete(self, text: str) -> bool:
        """True when ``text`` could be a whole command (a hint for how long a pause ends it)."""
        ...

    def paused(self, settled: bool = False) -> None:
        """The speaker has paused (one more quiet chunk was fed): work that needs the words so
        far may start ahead of ``finish``; ``settled``: and nothing more will be fed unless the
        speech goes on, so the phrase's audio is final. Never raises."""
        ...

    def finish(self) -> str:
        """The phrase's words, as ``recognize`` would give them; releases the decoder.
        Raises SttError when the engine failed."""
        ...

    def abandon(self) -> None:
        """Drop the phrase and release the decoder (idempotent)."""
        ...


@runtime_checkable
class StreamingRecognizer(Recognizer, Protocol):
    """A recogniser that can also decode a phrase while it is spoken (stt.py's offline one)."""

    def begin(self) -> Utterance:
        """A new utterance; holds the engine until it is finished or abandoned. SttError if the
        engine is busy or broken (the caller then uses ``recognize`` on the whole phrase)."""
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
