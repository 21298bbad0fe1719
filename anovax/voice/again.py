"""The request after the name, heard again on its own with a model of requests alone.

The command model also holds the wake phrases and what sounds like the name ("nova", "a nova",
"another", "and over"...: ``corpus.sound_alike_sentences``), so that "hey nova" can come out as
itself. After a name the checks vouched for, those words only compete with the request's: in the
room's noise espeak-ng m1's "hey anova open notepad" came out as "open nova", an app nobody has,
and f2's "set a timer for five minutes" as "set i'd like on five minutes". The request model is
the command model without the name and its sound-alikes (``corpus.request_sentences``), and it
hears the audio after the name from a clean start, as a request or as nothing it understands.

Only asked for (trust.py) when the first hearing of a phrase with the name makes no request the
planner understands, so a phrase heard clearly never pays for it. The model is built with the
command model and cached beside its files; the decoder has its own lock, so hearing a request again never
waits for the command decoder, which the next phrase may already hold.

A second hearing costs 120-280 ms. When the gate will ask for it as far as the phrase so far
tells (the name's check of the words so far is made and would pass, and the words after the name
make no request: ``trust.worth_hearing_again``), ``ahead`` starts it during the pause that ends
the phrase, once the phrase's audio is settled (the phrase cutter feeds no more of the pause:
endpoint.py), on a worker thread of its own. Its answer is
used only for exactly the audio and start frame the phrase's end then asks about; otherwise
that is heard afresh, so what is heard never depends on timing. Threads: the capture thread
starts a worker (never a second while one runs); the gate's thread, asking, joins it.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anovax.voice.confidence import Hearing, decode
from anovax.voice.lm import arpa, write_cached
from anovax.voice.recognizer import normalise

log = logging.getLogger(__name__)


@dataclass(eq=False)
class _Ahead:
    """One request heard ahead, during the pause: its inputs, its worker and, once it has run,
    its answer (``done``: heard, whatever the answer; not done: not wanted, or it failed)."""

    start: int
    piece: bytes
    thread: threading.Thread | None = field(default=None, repr=False)
    heard: Hearing | None = None
    done: bool = False

    def same(self, piece: bytes, start: int) -> bool:
        return self.start == start and self.piece == piece


class RequestModel:
    """The request model and one decoder of it. ``sentences``: the model's sentences; its file is
    cached in ``cache_dir`` under the command model's ``key`` and a hash of them (so a change in
    which sentences count as requests builds it again); ``new_decoder(lm_path)``: a decoder of
    the same acoustic model, dictionary and voice transform as the command decoder's."""

    def __init__(self, sentences: Sequence[str], cache_dir: Path, key: str,
                 new_decoder: Callable[[str], Any]) -> None:
        self._sentences = list(sentences)
        digest = hashlib.sha256("\n".join(self._sentences).encode()).hexdigest()[:12]
        self.lm_path = cache_dir / f"{key}.request-{digest}.lm"
        self._new_decoder = new_decoder
        self._decoder: Any = None
        #: why no request can be heard again ("": it can, or is not loaded yet); said once in the log
        self.unavailable = ""
        self._lock = threading.Lock()
        #: the latest request heard ahead (written under ``_slot``)
        self._ahead: _Ahead | None = None
        self._slot = threading.Lock()
        #: requests heard ahead, and of those the answers asked for (benchmarks/bench_voice.py)
        self.ahead_heard = self.ahead_used = 0

    def load(self) -> None:
        """Build the model's file when it is missing (~0.4 s, once per install) and load its
        decoder (~30 ms, 7 MB): when the recogniser starts, so a phrase that needs a second
        hearing only decodes. Never raises."""
        with self._lock:
            self._load()

    def later(self, piece: bytes, start: int) -> Callable[[], Hearing | None]:
        """``hear(piece, start)`` when first called (the answer heard ahead, when it was for the
        same audio), the same answer after that."""
        return functools.cache(functools.partial(self._heard, piece, start))

    def ahead(self, piece: bytes, start: int, wanted: Callable[[], bool]) -> bool:
        """Start hearing ``piece`` (as ``hear``) on a worker thread, if ``wanted()`` says so there
        (it runs the planner: ~7 ms the capture thread does not wait for). Not while another is
        running, nor twice for the same audio. True when a worker was started."""
        with self._slot:
            last = self._ahead
            if last is not None and ((last.thread is not None and last.thread.is_alive()) or last.same(piece, start)):
                return False
            job = _Ahead(start, piece)
            thread = threading.Thread(target=self._run_ahead, args=(job, wanted), name="anovax-request-again",
                                      daemon=True)
            thread.start()  # kept only once started: a thread that never started cannot be joined
            job.thread = thread
            self._ahead = job
            return True

    def _run_ahead(self, job: _Ahead, wanted: Callable[[], bool]) -> None:
        try:
            if wanted():
                job.heard = self.hear(job.piece, job.start)
                job.done = True
                self.ahead_heard += 1  # the worker's only shared write: a count, read when it is over
        except Exception:  # noqa: BLE001 - only ahead of time: asking hears it afresh
            log.debug("the request could not be heard ahead of the pause", exc_info=True)

    def _heard(self, piece: bytes, start: int) -> Hearing | None:
        with self._slot:
            job = self._ahead
        if job is not None and job.same(piece, start) and job.thread is not None:
            job.thread.join()
            with self._slot:
                if self._ahead is job:
                    self._ahead = None  # its audio is not kept past its phrase
            if job.done:
                self.ahead_used += 1
                return job.heard
        return self.hear(piece, start)

    def hear(self, piece: bytes, start: int) -> Hearing | None:
        """``piece`` (16 kHz 16-bit audio that begins at frame ``start`` of its phrase, the frame
        after the name) heard as a request: its words, frames counted in the phrase, with their
        posteriors. None when nothing was heard there, or it cannot be heard (logged)."""
        with self._lock:
            self._load()
            if self._decoder is None:
                return None
            try:
                hyp, path = decode(self._decoder, piece, fresh=True)
            except Exception:  # noqa: BLE001 - pocketsphinx raises RuntimeError/ValueError: no second opinion
                log.warning("the request could not be heard again", exc_info=True)
                self._decoder = None  # a decoder left mid-utterance is not reused
                return None
            text = normalise(hyp.hypstr) if hyp is not None else ""
            words = tuple(w.as_score(start) for w in path)
            if not text or [w.word for w in words] != text.split():
                return None
            return Hearing(text, words)

    def _load(self) -> None:
        if self._decoder is not None or self.unavailable:
            return
        if not self._sentences:
            self.unavailable = "the command model has no request to build a request model from"
            log.info("no request will be heard again: %s", self.unavailable)
            return
        try:
            cached = self.lm_path.is_file()
            if not cached:
                self._build()
            try:
                self._decoder = self._new_decoder(str(self.lm_path))
            except Exception:  # noqa: BLE001 - a damaged file in the cache: built again, once
                if not cached:
                    raise
                self._build()
                self._decoder = self._new_decoder(str(self.lm_path))
        except Exception as exc:  # noqa: BLE001 - pocketsphinx raises RuntimeError/ValueError
            self.unavailable = str(exc) or type(exc).__name__
            log.warning("the request model could not be loaded; no request will be heard again", exc_info=True)

    def _build(self) -> None:
        """The model's file, into the cache (or a temporary folder when the cache cannot be written)."""
        folder = write_cached(self.lm_path.parent, {self.lm_path.name: arpa(self._sentences)})
        self.lm_path = folder / self.lm_path.name
