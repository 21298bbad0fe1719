"""Audio → phrases, chunk by chunk: speech onset, decoding while it is spoken, an adaptive pause.

``PhraseCutter`` takes the audio one 32 ms chunk at a time, from the microphone (listener.py) or
from a file (``Recording``, audio.py): the same code for both, so the benchmark measures what a
user gets. At the speech onset it starts an utterance on a streaming recogniser (utterance.py)
and feeds it the pre-roll and every chunk after, so when the pause comes the phrase is already
decoded and only ``finish`` is left (milliseconds, instead of ~0.07 s per second of speech).

The pause that ends a phrase adapts to what has been said (``PausePolicy``): short once the
words decoded so far look like a whole command ("open the browser", "what time is it", "yes"),
longer when they stop mid-sentence ("open the", "remind me").
Without a streaming recogniser (google.py) the pause is the fixed PAUSE_S of speech_recognition's
``listen``, which this replaces.

The rules otherwise follow ``sr.Recognizer.listen`` (3.17) with the settings in audio.py: a chunk
is speech when its energy is above the threshold, KEEP_QUIET_S of quiet is kept on either side
(the pre-roll includes the onset chunk), speech shorter than MIN_PHRASE_S is dropped, and a
phrase is cut at PHRASE_LIMIT_S.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from anovax.voice.audio import CHUNK, KEEP_QUIET_S, MIN_PHRASE_S, PAUSE_S, PHRASE_LIMIT_S, rms
from anovax.voice.recognizer import Recognizer, Utterance

log = logging.getLogger(__name__)

#: the rate and width a streaming recogniser is fed
_RATE, _WIDTH = 16000, 2


@dataclass(frozen=True)
class PausePolicy:
    """How much quiet ends a phrase (each rounded to whole 32 ms chunks)."""

    #: the words so far look like a whole command (their last two words end a corpus sentence;
    #: one-word answers such as "yes", "no", "stop" are sentences of their own)
    complete_s: float
    #: the words stop mid-sentence ("open the", "remind me"), or nothing was decoded yet
    incomplete_s: float


#: measured with benchmarks/bench_voice.py's phrases (3 voices): espeak-ng pauses 4-6 chunks at a
#: comma at 160 words a minute, 7-8 at 130. Of 18 comma sentences at 130 wpm, complete_s 0.192 /
#: 0.224 / 0.256 / 0.288 cut 11 / 11 / 4 / 2 in two (at 160 wpm 5 / 0 / 0 / 0; at 200 none); the
#: pause waited after wake phrases was p50 199 / 231 / 263 / 290 ms. incomplete_s 0.35 instead
#: of 0.42 cut no more sentences and lowered that pause's p95 from ~425 to 356 ms. (Measured with
#: pocketsphinx's default search; with stt.SEARCH the chosen 0.256 cuts 5 of the 18.)
ADAPTIVE = PausePolicy(complete_s=0.256, incomplete_s=0.35)
#: without a streaming recogniser: speech_recognition's rule, quiet for more than PAUSE_S
FIXED = PausePolicy(complete_s=PAUSE_S + CHUNK / _RATE, incomplete_s=PAUSE_S + CHUNK / _RATE)


@dataclass(frozen=True)
class Cut:
    """One phrase the cutter has ended."""

    #: pre-roll + speech + kept quiet, in the source's rate and width
    frames: bytes
    #: seconds of pre-roll before the first loud chunk
    onset_s: float
    #: seconds of ``frames``
    seconds: float
    #: seconds read after ``frames`` (the quiet waited beyond KEEP_QUIET_S)
    held_s: float
    #: the phrase decoded while it was spoken; None without a streaming recogniser
    utterance: Utterance | None
    #: chunks of quiet waited before it was ended (0 when the stream ended or the phrase hit the limit)
    pause_chunks: int

    def started(self, end: float) -> float:
        """When the speech began, on the clock that read ``end`` when the phrase was cut."""
        return end - self.held_s - self.seconds + self.onset_s


def streaming_begin(recognizer: Recognizer) -> Callable[[], Utterance | None] | None:
    """``recognizer.begin`` if it can stream, else None (the whole phrase goes to ``recognize``)."""
    begin = getattr(recognizer, "begin", None)
    return begin if callable(begin) else None


class PhraseCutter:
    """Cuts a stream of chunks into phrases; ``push`` each chunk, ``end`` at the end of the stream.

    ``begin`` starts an utterance at each speech onset (None from it, or no ``begin``: this
    phrase is not streamed). A cut's utterance must be finished or abandoned by the caller before
    the next phrase starts; the cutter abandons it then, so a forgotten one never holds the
    decoder. ``threshold`` may be changed between phrases."""

    def __init__(self, threshold: float, *, rate: int, width: int, chunk: int = CHUNK,
                 begin: Callable[[], Utterance | None] | None = None, policy: PausePolicy | None = None) -> None:
        self.threshold = threshold
        self._rate, self._width, self._chunk = rate, width, chunk
        self._begin = begin
        self._policy = policy if policy is not None else ADAPTIVE  # looked up now: benchmarks vary it
        per_s = rate / chunk
        self._keep = max(1, math.ceil(KEEP_QUIET_S * per_s - 1e-9))
        self._min_speech = max(1, math.ceil(MIN_PHRASE_S * per_s - 1e-9))
        self._limit = max(1, math.ceil(PHRASE_LIMIT_S * per_s - 1e-9))
        self._per_s = per_s
        self._convert = _To16k(rate, width)
        self._preroll: deque[bytes] = deque(maxlen=self._keep)
        self._frames: list[bytes] = []  # the phrase so far (what the utterance was fed)
        self._held: list[bytes] = []  # quiet beyond the kept KEEP_QUIET_S: fed only if speech resumes
        self._utterance: Utterance | None = None
        self._last: Utterance | None = None
        self._chunks = self._speech = self._pause = 0
        self._onset_chunks = 0
        self.in_phrase = False

    def _chunks_of(self, seconds: float) -> int:
        return max(1, round(seconds * self._per_s))

    def push(self, frames: bytes) -> Cut | None:
        """One chunk; the phrase it ends, if any."""
        loud = rms(frames, self._width) > self.threshold
        if not self.in_phrase:
            self._preroll.append(frames)
            if loud:
                self._start()
            return None
        self._chunks += 1
        if loud:
            for held in self._held:
                self._add(held)
            self._held.clear()
            self._add(frames)
            self._speech = self._chunks  # up to the last loud chunk
            self._pause = 0
        else:
            self._pause += 1
            if self._pause <= self._keep:
                self._add(frames)
            else:
                self._held.append(frames)
            if self._pause >= self._needed_pause():
                return self._stop(self._pause)
            if self._utterance is not None:
                # the name's checks may start now (precheck.py), and once the kept quiet is all
                # fed, the request heard again (again.py); not on the chunk that ends the
                # phrase, whose finish would only wait for them
                self._utterance.paused(settled=self._pause >= self._keep)
        if self._chunks >= self._limit:
            return self._stop(0)
        return None

    def end(self) -> Cut | None:
        """The stream is over: the phrase in progress, if long enough."""
        return self._stop(0) if self.in_phrase else None

    def abandon(self) -> None:
        """Drop the phrase in progress and release any utterance still open."""
        for utterance in (self._utterance, self._last):
            if utterance is not None:
                utterance.abandon()
        self._utterance = self._last = None
        self._reset()

    # -- inside --

    def _start(self) -> None:
        if self._last is not None:  # the caller's previous phrase: done with by now
            self._last.abandon()
            self._last = None
        self.in_phrase = True
        self._chunks = self._speech = 1
        self._pause = 0
        self._onset_chunks = len(self._preroll) - 1
        self._utterance = None
        if self._begin is not None:
            try:
                self._utterance = self._begin()
            except Exception as exc:  # noqa: BLE001 - SttError (busy, broken): recognise it whole instead
                log.info("streaming recognition unavailable for this phrase: %s", exc)
        for frames in self._preroll:
            self._add(frames)
        self._preroll.clear()

    def _add(self, frames: bytes) -> None:
        self._frames.append(frames)
        if self._utterance is not None:
            self._utterance.feed(self._convert(frames))

    def _needed_pause(self) -> int:
        """Chunks of quiet that end this phrase, given the pause so far and the words so far."""
        policy = self._policy if self._utterance is not None else FIXED
        complete = self._chunks_of(policy.complete_s)
        if self._pause < complete:
            return complete  # not even the short pause yet: no need to look at the words
        if self._utterance is not None and self._utterance.looks_complete(self._utterance.partial()):
            return complete
        return self._chunks_of(policy.incomplete_s)

    def _stop(self, pause: int) -> Cut | None:
        utterance = self._utterance
        frames = b"".join(self._frames)
        held = sum(len(f) for f in self._held) / float(self._rate * self._width)
        onset = self._onset_chunks
        speech = self._speech
        self._utterance = None
        self._reset()
        if speech < self._min_speech:
            if utterance is not None:
                utterance.abandon()  # a click or a cough
            return None
        self._last = utterance
        seconds = len(frames) / float(self._rate * self._width)
        return Cut(frames, onset * self._chunk / self._rate, seconds, held, utterance, pause)

    def _reset(self) -> None:
        self.in_phrase = False
        self._frames = []
        self._held = []
        self._preroll.clear()
        self._chunks = self._speech = self._pause = 0
        self._convert = _To16k(self._rate, self._width)


class _To16k:
    """Source chunks → 16 kHz 16-bit for the recogniser, as ``AudioData.get_raw_data`` converts
    (rate, then width), keeping the resampler's state across chunks."""

    def __init__(self, rate: int, width: int) -> None:
        self._rate, self._width = rate, width
        self._state: object = None

    def __call__(self, frames: bytes) -> bytes:
        if self._rate == _RATE and self._width == _WIDTH:
            return frames
        import audioop  # speech_recognition's own dependency (audioop-lts from Python 3.13)

        if self._rate != _RATE:
            frames, self._state = audioop.ratecv(frames, self._width, 1, self._rate, _RATE, self._state)
        if self._width != _WIDTH:
            frames = audioop.lin2lin(frames, self._width, _WIDTH)
        return frames
