"""The name's checks run during the pause that ends a phrase, instead of after it.

Before a woken phrase may act, its name is aligned back onto the audio and decoded against its
rivals (stt.py, rivals.py): three or four decodes from the phrase's start to just past the word
after the name, about two thirds of the work left once the pause has ended the phrase. Those
words are settled when the speaker pauses: at the pause's first quiet chunk the decoder's partial
path already gave the final path's words and frames up to the word after the name in 39 of 39
phrases (espeak-ng f2, bench_voice's wake phrases) and 35 of 39 (m1 with noise). So the checks
can run while the phrase cutter still waits out the pause (endpoint.py).

``Prechecks`` belongs to one utterance (utterance.py). Threads: the capture thread, at each quiet
chunk, may start one worker thread (never a second while one runs); the worker runs the checks on
the recogniser's check decoders and keeps the result under its exact inputs (``Opening``); the
thread that finishes or abandons the phrase joins the worker before anything else touches those
decoders. A result is used only when the final path gives the same inputs; otherwise the checks
run again after the pause, as before, so what is heard never depends on timing. pocketsphinx
holds the GIL while it decodes: this moves work into the pause, where the CPU is idle, it does
not run two decodes at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from anovax.voice.confidence import PathWord, WordScore
from anovax.voice.recognizer import VARIANT

__all__ = ["NameCheck", "Opening", "Prechecks", "opening_of"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Opening:
    """What the name's checks read of a phrase's path: everything that decides their result
    (besides the audio, which only grows while the phrase is spoken)."""

    #: the path's labels up to and including the name, pronunciation variants kept ("anova(2)")
    labels: tuple[str, ...]
    #: the frame the name ends on
    name_end: int
    #: the word after the name and the frame it ends on; None when the name ends the path
    after: tuple[str, int] | None

    @property
    def before(self) -> list[str]:
        """The words before the name, as recognised."""
        return [VARIANT.sub("", label) for label in self.labels[:-1]]

    @property
    def last_frame(self) -> int:
        """The last frame of audio any check reads (the alignment's and the rival check's tails)."""
        from anovax.voice.rivals import TAIL_FRAMES
        from anovax.voice.stt import ALIGN_TAIL_FRAMES

        end = self.after[1] if self.after is not None else self.name_end
        return max(self.name_end + ALIGN_TAIL_FRAMES, end + 1 + TAIL_FRAMES)


@dataclass(frozen=True)
class NameCheck:
    """The checks' result: the words up to the name aligned (their fit), or None when they
    could not be aligned; and what the name sounds like against its rivals."""

    aligned: tuple[WordScore, ...] | None
    name_as: str


def opening_of(path: Sequence[PathWord], name_word: str) -> Opening | None:
    """The opening of ``path`` up to ``name_word`` and the word after it; None without the name."""
    name = next((i for i, w in enumerate(path) if VARIANT.sub("", w.label) == name_word), None)
    if name is None:
        return None
    after = (VARIANT.sub("", path[name + 1].label), path[name + 1].end) if name + 1 < len(path) else None
    return Opening(tuple(w.label for w in path[:name + 1]), path[name].end, after)


class Prechecks:
    """The name's checks of one phrase, run ahead while it pauses. ``check(opening, raw)`` is
    the recogniser's own check (stt.py); ``decode_s`` is the worker's CPU time, for the
    real-time factor."""

    def __init__(self, check: Callable[[Opening, bytes], NameCheck]) -> None:
        self._check = check
        self._worker: threading.Thread | None = None
        #: written by the worker only; read only after it was joined
        self._done: dict[Opening, NameCheck] = {}
        self.decode_s = 0.0

    def start(self, opening: Opening | None, frames: int, audio: Callable[[], bytes]) -> bool:
        """Check ``opening`` on the worker if the phrase's ``frames`` 10 ms frames so far hold all
        the audio the checks read, no check is running and this one was not made; ``audio()`` gives
        that audio (only asked for then). True when a check was started."""
        if opening is None or frames < opening.last_frame:
            return False
        if self._worker is not None:
            if self._worker.is_alive():
                return False
            self._worker.join()
        if opening in self._done:
            return False
        worker = threading.Thread(target=self._run, args=(opening, audio()), name="anovax-name-check", daemon=True)
        worker.start()  # kept only once started: a thread that never started cannot be joined
        self._worker = worker
        return True

    def ready(self, opening: Opening) -> NameCheck | None:
        """The check of exactly ``opening`` if it is already made, without waiting (the thread
        that starts checks only: it alone joins a worker that has ended)."""
        if self._worker is not None and self._worker.is_alive():
            return None
        return self._done.get(opening)

    def result(self, opening: Opening) -> NameCheck | None:
        """The check already made of exactly ``opening`` (after waiting for the worker), or None."""
        self.wait()
        return self._done.get(opening)

    def wait(self) -> None:
        """Join the worker, if any: after this nothing else uses the recogniser's check decoders."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.join()

    def _run(self, opening: Opening, raw: bytes) -> None:
        started = time.thread_time()
        try:
            self._done[opening] = self._check(opening, raw)
        except Exception:  # noqa: BLE001 - only ahead of time: the phrase's end checks it again
            log.debug("the name's check ahead of the pause failed", exc_info=True)
        finally:
            self.decode_s += time.thread_time() - started
