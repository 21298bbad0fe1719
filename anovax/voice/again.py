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
"""

from __future__ import annotations

import functools
import logging
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from anovax.voice.confidence import Hearing, WordScore, decode
from anovax.voice.lm import arpa, write_atomic
from anovax.voice.recognizer import VARIANT, normalise

log = logging.getLogger(__name__)


class RequestModel:
    """One decoder of the request model. ``sentences()`` gives the model's sentences (called once,
    when it is first built), ``new_decoder(lm_path)`` a decoder of the same acoustic model and
    dictionary as the command decoder's."""

    def __init__(self, sentences: Callable[[], Sequence[str]], lm_path: Path,
                 new_decoder: Callable[[str], Any]) -> None:
        self._sentences = sentences
        self.lm_path = lm_path
        self._new_decoder = new_decoder
        self._decoder: Any = None
        self._lock = threading.Lock()

    def later(self, piece: bytes, start: int) -> Callable[[], Hearing | None]:
        """``hear(piece, start)`` when first called, the same answer after that."""
        return functools.cache(functools.partial(self.hear, piece, start))

    def hear(self, piece: bytes, start: int) -> Hearing | None:
        """``piece`` (16 kHz 16-bit audio that begins at frame ``start`` of its phrase, the frame
        after the name) heard as a request: its words, frames counted in the phrase, with their
        posteriors. None when it cannot be heard (logged)."""
        with self._lock:
            try:
                if self._decoder is None:
                    self._decoder = self._new_decoder(str(self._model()))
                hyp, path = decode(self._decoder, piece, fresh=True)
                text = normalise(hyp.hypstr) if hyp is not None else ""
                words = tuple(WordScore(VARIANT.sub("", w.label), start + w.start, w.end - w.start + 1, None, None,
                                        w.posterior) for w in path)
                if not text or [w.word for w in words] != text.split():
                    return None
                return Hearing(text, words)
            except Exception:  # noqa: BLE001 - pocketsphinx raises RuntimeError/ValueError: no second opinion
                log.warning("the request could not be heard again", exc_info=True)
                self._decoder = None
                return None

    def prepare(self) -> None:
        """Build the model's file now (with the command model's: ~0.4 s), not when a phrase first
        needs it. A model that cannot be built is said in the log and tried again when needed."""
        with self._lock:
            try:
                self._model()
            except Exception:  # noqa: BLE001 - ArpaBoLM raises on an empty or odd corpus
                log.warning("the request model could not be built", exc_info=True)

    def _model(self) -> Path:
        """The request model's file, built when missing (into a temporary folder when the cache
        cannot be written)."""
        if self.lm_path.is_file():
            return self.lm_path
        sentences = self._sentences()
        if not sentences:
            raise ValueError("the command model has no request to build a request model from")
        model = arpa(sentences)
        try:
            write_atomic(self.lm_path, model)
        except OSError:
            self.lm_path = Path(tempfile.mkdtemp(prefix="anovax-stt-")) / self.lm_path.name
            write_atomic(self.lm_path, model)
        return self.lm_path
