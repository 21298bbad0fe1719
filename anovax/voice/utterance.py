"""Streaming recognition: a phrase decoded chunk by chunk while it is still being spoken.

``SphinxCommandRecognizer.begin()`` (stt.py) returns a ``SphinxUtterance``: the capture side
(endpoint.py) feeds it each 32 ms chunk from the speech onset on, and asks it whether the words
so far look like a complete command (to choose how long a pause ends the phrase). Once the
phrase ends only the last chunk's frames are left to decode, so ``finish`` takes milliseconds
where ``recognize`` on the whole phrase took ~0.07 s per second of speech.

Chunked decoding gave exactly the text ``recognize`` gave for the same audio on every phrase
tried (the same dither is added, sample for sample), provided the decoder heard the same phrases
before: pocketsphinx's live cepstral mean carries over from one phrase to the next.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from anovax.errors import SttError
from anovax.voice.recognizer import VARIANT, normalise, sentence
from anovax.voice.confidence import Hearing, decode, path_of
from anovax.voice.level import amplify, overdriven, own_gain
from anovax.voice.precheck import Opening, Prechecks, opening_of
from anovax.voice.stt import _FRAME_BYTES, _MIN_BYTES, DITHER_RMS, NAME_WORD, _dither
from anovax.voice.wakewords import ends_with_wake

if TYPE_CHECKING:
    from anovax.voice.stt import SphinxCommandRecognizer

__all__ = ["BEGIN_WAIT_S", "SphinxUtterance"]

log = logging.getLogger(__name__)

#: how long ``begin`` waits for the decoder another phrase holds before giving up (SttError): the
#: caller then falls back to ``recognize`` on the whole phrase
BEGIN_WAIT_S = 5.0
#: (lm path) -> the word pairs some command sentence ends with, read from the model's own n-grams
_ENDINGS: dict[str, frozenset[tuple[str, str]]] = {}
_ENDINGS_LOCK = threading.Lock()


class SphinxUtterance:
    """One phrase decoded chunk by chunk: ``feed`` audio as it arrives, then ``finish`` (the text
    ``recognize`` gives for the same audio) or ``abandon``. It holds the recogniser's decoder,
    and its lock, from creation until then: one utterance (or ``recognize``) at a time.

    The first phrase a recogniser hears is only collected and decoded whole by ``finish``, as
    ``recognize`` decodes it: until the decoder has heard speech its live cepstral mean is the
    model's default, which cost that phrase words (measured on 60 commands, each the first phrase
    of a fresh recogniser: word error rate 0.067 decoded live, 0.008 whole; later phrases 0.000
    live). That phrase has no partial words either, so its pause is the longer one.

    ``feed`` never raises: a decoder failure is kept and raised (SttError) by ``finish``, so
    audio capture goes on. ``decode_s`` is the decoding work done so far, in CPU seconds of the
    thread that did it (for the real-time factor: other processes on a busy machine do not count)."""

    def __init__(self, recognizer: SphinxCommandRecognizer) -> None:
        self._recognizer = recognizer
        self._decoder = recognizer.decoder
        self._lock = recognizer._lock
        if not self._lock.acquire(timeout=BEGIN_WAIT_S):
            raise SttError("The offline speech recogniser is busy with another phrase.")
        self._open = True
        self._samples = 0
        self._odd = b""
        self._error: Exception | None = None
        self.decode_s = 0.0
        #: decoding as the audio arrives (else collecting it in ``_raw`` for finish)
        self._live = recognizer._warm
        #: the phrase as it came (for the level it sets), and as decoded (gain and dither added)
        self._raw: list[bytes] = []
        self._whole: list[bytes] = []
        #: a live phrase's gain comes from the phrases before it; the first one's from itself
        self._gain = recognizer.level.gain() if self._live else 1.0
        #: the name's checks, started while the phrase pauses (precheck.py)
        self._ahead = Prechecks(recognizer.check_name)
        #: the decoder's cepstral mean before this phrase: put back if it is heard as nothing
        self._cmn: str | None = None
        if self._live:
            try:
                self._cmn = self._decoder.get_cmn(False)
                self._decoder.start_utt()
            except Exception as exc:  # noqa: BLE001
                self._release()
                raise SttError(sentence(f"The offline speech recogniser failed: {exc}")) from exc

    def feed(self, raw: bytes) -> None:
        """More of the phrase: 16 kHz, 16-bit mono, any length."""
        if not self._open or self._error is not None or not raw:
            return
        raw = self._odd + raw
        cut = len(raw) - len(raw) % 2
        raw, self._odd = raw[:cut], raw[cut:]
        if not raw:
            return
        started = time.thread_time()
        self._raw.append(raw)
        if not self._live:  # the first phrase: decoded whole by finish, with its own gain
            self._samples += len(raw) // 2
            return
        # the same noise, sample for sample, as _dither adds to the whole phrase
        offset = 2 * (self._samples % 16000)
        dithered = _dither(bytes(offset) + amplify(raw, self._gain), DITHER_RMS)[offset:]
        self._samples += len(raw) // 2
        self._whole.append(dithered)  # kept: a name is aligned on it
        try:
            self._decoder.process_raw(dithered, no_search=False, full_utt=False)
        except Exception as exc:  # noqa: BLE001 - kept for finish(): capture must go on
            self._error = exc
        self.decode_s += time.thread_time() - started

    def partial(self) -> str:
        """The words decoded so far ("" before any, for the first phrase, or after a failure)."""
        if not self._open or not self._live or self._error is not None:
            return ""
        try:
            hyp = self._decoder.hyp()
        except Exception:  # noqa: BLE001 - a partial result is only a hint
            return ""
        return normalise(hyp.hypstr) if hyp is not None else ""

    def paused(self, settled: bool = False) -> None:
        """Start the name's checks on the words so far, if they hold the name and the audio the
        checks read (precheck.py); once the phrase's audio is ``settled`` (the cutter feeds no
        more of the pause), also the request after the name heard again, if the gate will ask
        for it (again.py). A live phrase only: the first one is decoded when
        it ends."""
        if not self._open or not self._live or self._error is not None:
            return
        started = time.thread_time()
        try:
            path = path_of(self._decoder)
            opening = opening_of(path, NAME_WORD)
            self._ahead.start(opening, 2 * self._samples // _FRAME_BYTES, lambda: b"".join(self._whole))
            if settled and opening is not None:
                self._hear_again_ahead(opening, [VARIANT.sub("", w.label) for w in path[len(opening.labels):]])
        except Exception:  # noqa: BLE001 - only ahead of time: finish checks the name anyway
            log.debug("could not check the name ahead of the pause", exc_info=True)
        self.decode_s += time.thread_time() - started

    def _hear_again_ahead(self, opening: Opening, request: list[str]) -> None:
        """The words after the name heard again from the frame after it, as ``_scored`` will ask
        (stt.py), once the name's check of this opening is made (at a later quiet chunk if it is
        not yet), when the recogniser's ``hear_ahead`` says the gate would ask for it: a second
        decode holds the interpreter lock, and so the capture thread, for 120-280 ms."""
        wanted = self._recognizer.hear_ahead
        start = opening.name_end + 1
        if wanted is None or not request or 2 * self._samples - start * _FRAME_BYTES < _MIN_BYTES:
            return
        checked = self._ahead.ready(opening)
        if checked is None or checked.aligned is None:
            return
        self._recognizer.requests.ahead(
            b"".join(self._whole)[start * _FRAME_BYTES:], start,
            functools.partial(wanted, opening.before, checked.aligned[-1].fit, checked.name_as, " ".join(request)))

    def looks_complete(self, text: str) -> bool:
        """True when ``text`` ends the way some command sentence of the model ends (its last two
        words, or its only word, are followed by the end of a sentence in the corpus). Measured
        on the corpus: true at 99% of sentence ends and at 26% of the places inside sentences.
        A wake form said alone is whole too: "anova wake up" ends no sentence of the model (its
        commands follow it), and waited the longer pause every time."""
        words = ["<s>", *text.split()]
        return len(words) > 1 and ((words[-2], words[-1]) in _sentence_endings(self._recognizer.lm_path)
                                   or ends_with_wake(words[1:]))

    def finish(self) -> str:
        """End the phrase and release the decoder; the words heard ("" for under 0.1 s of audio).
        Raises SttError when the decoder failed (on any chunk)."""
        return self.finish_hearing().text

    def finish_hearing(self, score: Callable[[str], bool] | None = None) -> Hearing:
        """``finish``, with the words scored as ``SphinxCommandRecognizer.hear`` scores them when
        ``score(text)`` says someone must vouch for them."""
        if not self._open:
            raise SttError("This phrase was already finished or abandoned.")
        started = time.thread_time()
        try:
            if self._error is not None:
                raise SttError(sentence(f"The offline speech recogniser failed: {self._error}")) from self._error
            try:
                if self._live:
                    self._decoder.end_utt()
                if self._samples * 2 < _MIN_BYTES:
                    self._forget()
                    return Hearing("")  # as recognize: a few ms cannot hold a word
                raw = b"".join(self._raw)
                whole = not self._live or overdriven(self._gain, raw)
                if self._live and whole:  # what was decoded and checked so far is clipped: afresh
                    self._ahead.wait()
                    self.decode_s += self._ahead.decode_s
                    self._ahead = Prechecks(self._recognizer.check_name)
                if whole:  # the first phrase, and one heard again at its own gain, as one whole
                    # utterance from fresh features: fed as one long live block after a whole
                    # decode it segfaulted pocketsphinx's flat search (a noise burst, then a clipped
                    # phrase: the process died), and from the features the phrases before it left,
                    # came out garbled ("do you know what what time is it")
                    self._whole = [_dither(amplify(raw, own_gain(raw)), DITHER_RMS)]
                    decode(self._decoder, self._whole[0], path=False, full_utt=True, fresh=True)
                hyp = self._decoder.hyp()
                text = normalise(hyp.hypstr) if hyp is not None else ""
                if not text:
                    self._forget()
                    return Hearing("")
                self._recognizer.level.heard(raw)
                self._recognizer._warm = True
                if score is not None and score(text):
                    return self._recognizer._scored(text, self._decoder, b"".join(self._whole), self._ahead)
            except Exception as exc:  # noqa: BLE001
                raise SttError(sentence(f"The offline speech recogniser failed: {exc}")) from exc
            return Hearing(text)
        finally:
            self._ahead.wait()
            self.decode_s += time.thread_time() - started + self._ahead.decode_s
            self._release()

    def _forget(self) -> None:
        """A phrase heard as nothing (a door, a burst of noise, a cough) does not teach the
        recogniser: its level and cepstral mean stay the speech's (the noise estimate starts
        afresh), and it does not end the first phrase's whole decoding. A red team's 0.3 s burst
        in a quiet room set them, and the clean "hey anova, what time is it" after it came out as
        "do you know what what time is it"."""
        if self._cmn is not None:
            self._decoder.reinit_feat()
            self._decoder.set_cmn(self._cmn)

    def abandon(self) -> None:
        """Drop the phrase and release the decoder (idempotent; finish also releases it)."""
        if not self._open:
            return
        if self._live:
            try:
                self._decoder.end_utt()
            except Exception:  # noqa: BLE001 - the decoder restarts at the next start_utt anyway
                log.debug("ending an abandoned phrase failed", exc_info=True)
        self._release()

    def _release(self) -> None:
        try:
            self._ahead.wait()  # the check decoders are the recogniser's: free before its lock
        finally:
            if self._open:
                self._open = False
                self._lock.release()

    def __enter__(self) -> SphinxUtterance:
        return self

    def __exit__(self, *exc: object) -> None:
        self.abandon()


def _sentence_endings(lm_path: Path) -> frozenset[tuple[str, str]]:
    """Pairs (w1, w2) such that "w1 w2 </s>" is a trigram of the ARPA model, "<s> w </s>" being a
    one-word sentence: read once per model file (~20 ms)."""
    key = str(lm_path)
    with _ENDINGS_LOCK:
        found = _ENDINGS.get(key)
        if found is not None:
            return found
        pairs: set[tuple[str, str]] = set()
        section = ""
        try:
            with open(lm_path, encoding="utf-8") as f:
                for line in f:
                    if line.startswith("\\"):
                        section = line.strip()
                        continue
                    parts = line.split()
                    if section == "\\3-grams:" and len(parts) >= 4 and parts[3] == "</s>":
                        pairs.add((parts[1], parts[2]))
        except OSError:
            pass  # no hint: every pause is then the longer one
        found = _ENDINGS[key] = frozenset(pairs)
        return found
