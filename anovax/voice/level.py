"""How loud the speech is, and the gain that brings quiet speech up to where the recogniser works.

stt.py adds a fixed, faint noise to every phrase (``DITHER_RMS``: pocketsphinx's features go wild
on exact digital silence). Against quiet speech (a laptop microphone across the desk, a low input
gain) that noise is no longer faint, and recognition collapses. Measured on six commands in five
espeak-ng voices scaled down from a -1 dBFS peak, each heard after four phrases at its level, word
for word: 26 / 27 / 24 / 18 / 7 of 30 at 1, 0.5, 0.25, 0.1 and 0.05 of it (with the gain: 26 / 27
/ 24 / 24 / 22; five other commands in four voices never used to choose ``LEVEL_REF``, at 1, 0.1
and 0.05: 13 / 8 / 3 of 20 before, 15 / 14 / 12 with it). The voices every benchmark renders have
their 90th-percentile 10 ms frame at an RMS of 3,750-6,000 (espeak-ng and festival alike), so
they never showed it.

So a quiet phrase is amplified up to ``LEVEL_REF`` before the noise is added; a phrase at or above
it is left exactly as it is (gain 1: the benchmarks' audio, and every threshold tuned on it, do
not move). A phrase decoded while it is spoken (utterance.py) needs its gain before it has ended,
so the gain comes from the phrases heard before it, as pocketsphinx's live cepstral mean does; the
first phrase, decoded whole, sets it from itself. The level rises at once with a louder phrase and
falls by at most half per phrase, so one phrase of faint noise cannot make the next one clip.

Several faint phrases can, though: talk across the room, or the assistant's own reply leaking
into the microphone, take the level down phrase by phrase, and the next command at a normal level
then got a 30-fold gain and was clipped to noise ("hey anova what time is it" dropped without a
word, or asked about, after three faint remarks: a first-time user's report). A phrase the gain
pushed well past where the recogniser works (``overdriven``) is decoded again whole, at its own
gain, as the first phrase is.
"""

from __future__ import annotations

import array
import functools
import math
import warnings
from typing import Any

#: the 90th-percentile 10 ms frame RMS (16-bit units) quiet speech is brought up to
LEVEL_REF = 2500.0
#: at most this much gain (36 dB): beyond it there is nothing but the room's noise to bring up
MAX_GAIN = 32.0
#: how far the level may fall from one phrase to the next
FALL = 0.5
#: a phrase whose gain took its speech past this many times LEVEL_REF is heard again at its own
#: gain: a margin before clipping (speech peaks run 3-4 times its 90th-percentile RMS, so at 2
#: they reach 15,000-20,000 of 32,767), which a gain set by faint phrases passes many times over
OVERDRIVE = 2.0
#: 10 ms of 16 kHz 16-bit audio
_FRAME_BYTES = 320


def speech_level(raw: bytes) -> float:
    """The 90th-percentile RMS of the 10 ms frames of ``raw`` (16 kHz 16-bit mono): the level of
    its speech, not of the quiet around it nor of one click; 0.0 for audio shorter than a frame."""
    rms = audioop_function("rms")
    frames = [raw[at:at + _FRAME_BYTES] for at in range(0, len(raw) - _FRAME_BYTES + 1, _FRAME_BYTES)]
    if not frames:
        return 0.0
    if rms is not None:
        levels = sorted(rms(frame, 2) for frame in frames)
    else:
        levels = sorted(math.sqrt(sum(x * x for x in array.array("h", f)) / (len(f) // 2)) for f in frames)
    return float(levels[int(0.9 * (len(levels) - 1))])


def amplify(raw: bytes, gain: float) -> bytes:
    """``raw`` (16-bit) times ``gain``, saturating at full scale; unchanged for a gain of 1."""
    if gain == 1.0:
        return raw
    mul = audioop_function("mul")
    if mul is not None:
        return mul(raw, 2, gain)
    return array.array("h", (max(-32768, min(32767, math.floor(x * gain))) for x in array.array("h", raw))).tobytes()


def own_gain(raw: bytes) -> float:
    """The gain ``raw`` needs by its own level: up to LEVEL_REF, at most MAX_GAIN, never below 1
    (1.0 for audio with no level)."""
    level = speech_level(raw)
    return min(MAX_GAIN, max(1.0, LEVEL_REF / level)) if level else 1.0


def overdriven(gain: float, raw: bytes) -> bool:
    """Whether ``raw`` (before any gain) amplified by ``gain`` is speech far louder than the
    recogniser works at: a gain set by faint phrases before it. Never for a gain of 1."""
    return gain > 1.0 and gain * speech_level(raw) > OVERDRIVE * LEVEL_REF


class InputLevel:
    """The speech level of the phrases heard so far (None before the first). Not thread-safe:
    the recogniser uses it under its own lock."""

    def __init__(self) -> None:
        self.level: float | None = None

    def gain(self, raw: bytes | None = None) -> float:
        """The gain for the next phrase: from the level so far, or (before any phrase) from
        ``raw``, the phrase itself when it is decoded whole; 1.0 when neither is known."""
        if self.level is None:
            return own_gain(raw) if raw else 1.0
        return min(MAX_GAIN, max(1.0, LEVEL_REF / self.level)) if self.level else 1.0

    def heard(self, raw: bytes) -> None:
        """A phrase was heard (``raw``, before any gain): the level rises to it at once, or falls
        towards it by at most ``FALL``."""
        level = speech_level(raw)
        if level <= 0.0:
            return
        self.level = level if self.level is None else max(level, self.level * FALL)


@functools.lru_cache(maxsize=None)
def audioop_function(name: str) -> Any:
    """A function of the stdlib's ``audioop`` (C speed; SpeechRecognition uses it too), else None:
    every caller has a pure-Python way that gives the same samples."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import audioop
    except ImportError:  # Python >= 3.13 without the audioop-lts backport
        return None
    return getattr(audioop, name)
