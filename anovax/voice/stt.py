"""Speech to text: offline by default (pocketsphinx with AnovaX's own command language model),
Google's web service only when asked for (``ANOVAX_STT=google``: the audio leaves the machine).

``SphinxCommandRecognizer`` builds a trigram language model from ``corpus.command_sentences()``
and a pronunciation dictionary cut to that model's words (the cmudict bundled with pocketsphinx,
plus ``pronunciations.EXTRA_PRONUNCIATIONS``). Both are cached under ``~/.cache/anovax/stt/`` (anovax.paths),
keyed by a hash of the corpus, the pocketsphinx version and the build settings, so only the
first start builds them (~0.5 s; ~0.3 s from the cache, most of it generating the corpus to hash it). One
``pocketsphinx.Decoder`` per recogniser is reused for every phrase; a lock serialises callers.

Measured on espeak-ng speech (tests/voicegen.py; voices en-us+f2 / klatt4 / m1; 20 commands,
20 wake phrases, 5 sound-alikes per voice): word error rate 0.12 / 0.04 / 0.11 clean, 0.17 / 0.03
/ 0.16 with pink noise at 16-20 dB SNR, 0.31 / 0.12 / 0.27 at 10-14 dB; 58-59 of 60 wake
phrases contain "anova"; 0-1 of 15 sound-alikes do ("a nova" and "anova" differ by one vowel).
On a wider run (3 speeds, clean and noisy) phrases starting "hey/hello/hi/yo/wake up anova" woke
it 126 of 126 times but those starting with the bare name only 30 of 36 ("and over the ..."),
and 13 of 216 sound-alikes woke it, all "a nova", "hello nova", "hey nova" or "hi nova". Decoding takes ~0.07 s per
second of audio on one core. (These figures predate SEARCH and streaming, utterance.py: for
those see benchmarks/bench_voice.py and the README.)

After ``anovax enrol`` (enrol.py, adapt.py) the command decoder loads the user's MLLR transform
(``adaptation="saved"``, the default; a damaged one is skipped with a warning); the name's checks
keep the general model.

Every recogniser (the port: recognizer.py; the online one: google.py) returns lower-case words
separated by single spaces ("" when nothing was heard) and raises ``SttError`` when the engine
itself fails. Their names stay importable from here.
"""

from __future__ import annotations

import array
import hashlib
import logging
import random
import threading
from dataclasses import replace
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anovax import paths
from anovax.errors import SttError
from anovax.voice.again import RequestModel
from anovax.voice.confidence import Hearing, alternatives, decode, path_of, score_alignment
from anovax.voice.google import GoogleRecognizer, map_google_result
from anovax.voice.level import InputLevel, amplify, audioop_function, overdriven, own_gain
from anovax.voice.lm import LM_DISCOUNT, arpa, write_cached
from anovax.voice.precheck import NameCheck, Opening, Prechecks, opening_of
from anovax.voice.pronunciations import EXTRA_PRONUNCIATIONS, pronunciations
from anovax.voice.recognizer import VARIANT, Recognizer, normalise, sentence

__all__ = ["DITHER_RMS", "EXTRA_PRONUNCIATIONS", "LM_DISCOUNT", "SEARCH", "STT_CHOICES", "GoogleRecognizer",
           "Recognizer", "SphinxCommandRecognizer", "SttError", "default_cache_dir", "make_recognizer",
           "map_google_result", "normalise"]

log = logging.getLogger(__name__)

if TYPE_CHECKING:  # speech_recognition is imported lazily: a broken install must not stop AnovaX
    import speech_recognition as sr

    from anovax.voice.utterance import SphinxUtterance

#: the recognisers ``make_recognizer`` knows (the first is the default)
STT_CHOICES = ("sphinx", "google")

#: bump when the files' format or the way they are built changes (part of the cache key)
_FORMAT = "anovax-stt-1"
#: the assistant's name, the word whose fit the wake gate checks
NAME_WORD = "anova"
#: 16 kHz 16-bit audio per 10 ms frame
_FRAME_BYTES = 320
#: frames after the name's end given to its alignment (its last phone may run on)
ALIGN_TAIL_FRAMES = 5
#: audio shorter than this (16 kHz, 16-bit: 0.1 s) is "nothing heard"
_MIN_BYTES = 3200
#: RMS (in 16-bit sample units, ~ -56 dBFS) of the fixed noise added to every phrase before
#: decoding. pocketsphinx's features go wild on exact digital silence (a virtual or muted
#: microphone, padded files): measured on espeak-ng commands with 0.3 s of zero padding, the
#: word error rate fell from 0.40 to 0.11 (en-us+f2) and 0.21 to 0.04 (en-us+klatt4) with it.
DITHER_RMS = 64.0
#: the decoder's search: one flat-lexicon pass, frame by frame as audio arrives, instead of
#: pocketsphinx's default tree pass plus a flat pass over the whole phrase once it has ended
#: (~80 ms after the pause for a 2 s phrase). With ~700 words a flat lexicon is cheap. Measured
#: in benchmarks/bench_voice.py (3 voices, clean and noisy): command WER 0.056 (was 0.072), 10
#: false wakes of 252 (was 12), RTF p50 ~0.1; beams of 1e-40 / 1e-20 were faster but woke on
#: "a nova" and "hey nova" (tests/test_voice_stt.py), 1e-64 / 7e-29 were ~30% slower.
SEARCH: dict[str, Any] = {"fwdtree": False, "fwdflat": True, "fwdflatbeam": 1e-48, "fwdflatwbeam": 1e-24}


# --- offline: pocketsphinx with the command language model -----------------------------------------


def default_cache_dir() -> Path:
    """``stt`` in the user cache folder (anovax.paths): ``$XDG_CACHE_HOME/anovax/stt`` on Linux,
    ``~/.cache/anovax/stt`` by default."""
    return paths.cache_dir() / "stt"


class SphinxCommandRecognizer:
    """pocketsphinx with a language model of AnovaX's own commands; fully offline.

    ``sentences`` default to ``corpus.command_sentences()``; sentences with a word that has no
    pronunciation are left out (``dropped`` counts them). ``built`` says whether this instance
    had to build the model files (False: they came from the cache)."""

    name = "sphinx"
    offline = True

    def __init__(self, sentences: Iterable[str] | None = None, cache_dir: str | Path | None = None,
                 adaptation: str | Path | None = "saved") -> None:
        try:
            import pocketsphinx
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise SttError(sentence(f"Offline speech recognition needs pocketsphinx ({exc})")) from exc
        if sentences is None:
            from anovax.voice.corpus import command_sentences

            sentences = command_sentences()
        self._ps = pocketsphinx
        clean = sorted({normalise(s) for s in sentences} - {""})
        if not clean:
            raise ValueError("the command corpus is empty")
        self.key = _cache_key(clean, _ps_version())
        self.built = False
        self._use_dir(Path(cache_dir) if cache_dir is not None else default_cache_dir())
        if not (self.lm_path.is_file() and self.dict_path.is_file()):
            self._build(clean)
        self._lock = threading.Lock()
        #: the speech level of the phrases heard so far: the gain for quiet ones (level.py)
        self.level = InputLevel()
        #: the user's voice transform (enrol.py), or None: "saved" is the one ``anovax enrol`` made
        self.adapted = _adaptation(adaptation)
        self._aligner: Any = None
        self._rivals: Any = None
        try:
            self._decoder = self._new_decoder()
        except Exception:  # noqa: BLE001 - a damaged cache: build the files again, once
            if self.built:
                raise
            self._build(clean)
            self._decoder = self._new_decoder()
        self.words = frozenset(_read_dict_words(self.dict_path))
        #: what follows a name, heard again when the first hearing makes no request (again.py)
        self.requests = RequestModel(self._requests(clean), self.cache_dir, self.key,
                                     lambda lm: self._new_decoder(lm=lm))
        self.requests.load()
        #: ``hear_ahead(words before the name, its fit, what it sounds like, words after it)``:
        #: whether the gate will ask to hear the request again, so it is heard during the phrase's
        #: pause (utterance.py). Set by the voice pipeline, which knows the planner; None: never
        self.hear_ahead: Callable[[Sequence[str], float | None, str, str], bool] | None = None
        self.dropped = sum(1 for s in clean if any(w not in self.words for w in s.split()))

    def _requests(self, sentences: list[str]) -> list[str]:
        from anovax.voice.corpus import request_sentences

        return [s for s in request_sentences(sentences) if self.words.issuperset(s.split())]

    def _use_dir(self, cache_dir: Path) -> None:
        self.cache_dir = cache_dir
        self.lm_path = cache_dir / f"{self.key}.lm"
        self.dict_path = cache_dir / f"{self.key}.dict"

    def _new_decoder(self, adapted: bool = True, lm: str | None = None) -> Any:
        """A decoder of the command language model (or of the model at ``lm``): with the user's
        voice transform when there is one and ``adapted``; the general model for the name's checks
        (their thresholds were tuned on its scores: with the transform there, 4 sound-alikes of 216
        woke AnovaX on the tuning half instead of 1)."""
        lm = lm or str(self.lm_path)
        try:
            if self.adapted is not None and adapted:
                try:
                    return self._ps.Decoder(hmm=self._ps.get_model_path("en-us/en-us"), lm=lm,
                                            dict=str(self.dict_path), mllr=str(self.adapted), loglevel="FATAL",
                                            **SEARCH)
                except Exception:  # noqa: BLE001 - a transform it will not take: the plain model, said once
                    log.warning("the voice adaptation %s could not be loaded; using the general model",
                                self.adapted, exc_info=True)
                    self.adapted = None
            return self._ps.Decoder(
                hmm=self._ps.get_model_path("en-us/en-us"),
                lm=lm,
                dict=str(self.dict_path),
                loglevel="FATAL",
                **SEARCH,
            )
        except Exception as exc:  # noqa: BLE001 - pocketsphinx raises RuntimeError/ValueError
            raise SttError(sentence(f"The offline speech recogniser could not start: {exc}")) from exc

    @property
    def decoder(self) -> Any:
        """The one pocketsphinx Decoder this recogniser uses for every phrase."""
        return self._decoder

    def recognize(self, audio: sr.AudioData) -> str:
        return self.hear(audio).text

    def hear(self, audio: sr.AudioData, score: Callable[[str], bool] | None = None) -> Hearing:
        """The phrase's text and, when ``score(text)`` says someone must vouch for it (it holds
        the name, or comes while AnovaX waits for a command), how sure the recogniser is of each
        word (confidence.py): lattice posteriors from the decode itself, and the name aligned back
        onto the audio up to its end (a few ms), so phrases nobody acts on cost nothing extra."""
        try:
            raw = audio.get_raw_data(convert_rate=16000, convert_width=2)
        except Exception as exc:  # noqa: BLE001
            raise SttError(sentence(f"The audio could not be converted for recognition: {exc}")) from exc
        raw = raw[: len(raw) - len(raw) % 2]
        if len(raw) < _MIN_BYTES:
            return Hearing("")  # process_raw(b"") raises IndexError; a few ms cannot hold a word
        with self._lock:
            # quiet speech brought up to where the recogniser works, before the dither (level.py)
            gain = self.level.gain(raw)
            if overdriven(gain, raw):  # a gain faint phrases before it set (level.py)
                gain = own_gain(raw)
            self.level.heard(raw)
            raw = _dither(amplify(raw, gain), DITHER_RMS)
            try:
                # full_utt only for the first phrase: after it, the same (live) cepstral mean as a
                # phrase decoded while it is spoken, so both give the same words (utterance.py)
                hyp, _path = decode(self._decoder, raw, full_utt=not self._warm)
                self._warm = True
            except Exception as exc:  # noqa: BLE001
                raise SttError(sentence(f"The offline speech recogniser failed: {exc}")) from exc
            text = normalise(hyp.hypstr) if hyp is not None else ""
            if not text or score is None or not score(text):
                return Hearing(text)
            return self._scored(text, self._decoder, raw)

    def _scored(self, text: str, decoder: Any, raw: bytes, ahead: Prechecks | None = None) -> Hearing:
        """``text`` with a score per word: posteriors from the best path of the utterance that
        ``decoder`` just ended, and its other readings; the words up to and including the name
        aligned onto their audio for the name's fit, and the name checked against its rivals
        (``check_name``; taken from ``ahead`` when the pause already checked the same opening:
        precheck.py). Lock held."""
        path = path_of(decoder)
        others = alternatives(decoder)
        words = [w.as_score() for w in path]
        if [w.word for w in words] != text.split():
            return Hearing(text, unscored=True)
        opening = opening_of(path, NAME_WORD)
        if opening is None:
            return Hearing(text, tuple(words), alternatives=others)
        checked = ahead.result(opening) if ahead is not None else None
        if checked is None:
            checked = self.check_name(opening, raw)
        if checked.aligned is None:
            return Hearing(text, tuple(words), unscored=True)
        for i, fitted in enumerate(checked.aligned):
            words[i] = replace(words[i], fit=fitted.fit, worst=fitted.worst)
        start = opening.name_end + 1  # the request's own audio: from the frame after the name
        again = None
        if len(raw) - start * _FRAME_BYTES >= _MIN_BYTES:
            again = self.requests.later(raw[start * _FRAME_BYTES:], start)
        return Hearing(text, tuple(words), name_as=checked.name_as, adapted=self.adapted is not None,
                       alternatives=others, again=again)

    def check_name(self, opening: Opening, raw: bytes) -> NameCheck:
        """The name's checks for a phrase that opens with ``opening``, on ``raw`` (the phrase as
        decoded): its words aligned onto their audio (None when pocketsphinx cannot align them;
        nobody then vouches for the name), and what the name sounds like against its rivals.
        Deterministic in (``opening``, the audio up to ``opening.last_frame``). Lock held, or
        the phrase's precheck worker's turn (precheck.py)."""
        end = min(len(raw) // _FRAME_BYTES, opening.name_end + ALIGN_TAIL_FRAMES)
        try:
            if self._aligner is None:
                self._aligner = self._new_decoder(adapted=False)
            aligner = self._aligner
            aligner.set_align_text(" ".join(opening.labels))
            piece = raw[: end * _FRAME_BYTES]
            decode(aligner, piece, path=False, fresh=True)
            aligner.set_alignment()  # a second pass gives phones and their scores
            decode(aligner, piece, path=False, fresh=True)
            alignment = aligner.get_alignment()  # (its truth value crashes pocketsphinx 5.1)
            aligned = score_alignment(alignment if alignment is not None else ())
        except Exception:  # noqa: BLE001 - audio pocketsphinx cannot align: nobody vouches for the name
            log.debug("alignment failed for %r", opening.labels, exc_info=True)
            self._aligner = None  # a decoder left mid-alignment is not reused
            return NameCheck(None, "")
        before = opening.before
        if [w.word for w in aligned] != [*before, NAME_WORD]:
            return NameCheck(None, "")
        return NameCheck(tuple(aligned), self._name_as(before, raw, opening.name_end, opening.after))

    def _name_as(self, before: list[str], raw: bytes, name_end: int, after: tuple[str, int] | None) -> str:
        """What the name's audio sounds like against its rivals (rivals.py). Lock held."""
        if self._rivals is None:
            from anovax.voice.rivals import RivalCheck

            self._rivals = RivalCheck.beside(self._ps, str(self.dict_path))
        return self._rivals.heard(before, raw, name_end, after)

    # -- streaming: utterance.py --

    #: True once a phrase has been decoded: pocketsphinx's live cepstral mean then comes from
    #: speech heard here. The first phrase is decoded whole, with its own mean (utterance.py).
    _warm = False

    def begin(self) -> SphinxUtterance:
        """Start decoding a phrase as it arrives: utterance.py. It holds the decoder (this
        recogniser's lock) until finished or abandoned; same text as ``recognize``."""
        from anovax.voice.utterance import SphinxUtterance

        return SphinxUtterance(self)

    # -- building the model files --

    def _build(self, sentences: list[str]) -> None:
        """Write the language model and the cut dictionary into the cache (or, when the cache
        cannot be written, into a fresh temporary folder: recognition still works)."""
        cmudict = self._ps.get_model_path("en-us/cmudict-en-us.dict")
        prons = pronunciations({w for s in sentences for w in s.split()}, cmudict)
        kept = [s for s in sentences if all(w in prons for w in s.split())]
        if not kept:
            raise SttError("No command sentence has words the offline recogniser can pronounce.")
        model = arpa(kept)
        words = sorted({w for s in kept for w in s.split()})
        lines = [f"{w if i == 0 else f'{w}({i + 1})'} {phones}\n" for w in words for i, phones in enumerate(prons[w])]
        folder = write_cached(self.cache_dir, {self.dict_path.name: "".join(lines), self.lm_path.name: model})
        if folder != self.cache_dir:
            self._use_dir(folder)
        self.built = True


_NOISE: dict[float, bytes] = {}


def _adaptation(choice: str | Path | None) -> Path | None:
    """The transform to load: ``"saved"`` the user's (when there is a sound one), a path that
    one, None the general model. A damaged or missing file is the general model, logged."""
    from anovax.voice.adapt import valid_transform
    from anovax.voice.enrol import saved

    if choice is None:
        return None
    path, state = saved() if choice == "saved" else (Path(choice), "")
    if state == "none":
        return None
    if state == "adapted" or valid_transform(path):
        return path
    log.warning("the voice adaptation %s is missing or damaged; using the general model (run anovax enrol again)",
                path)
    return None


def _dither(raw: bytes, rms: float) -> bytes:
    """``raw`` (16-bit mono, the machine's byte order: little-endian on every platform AnovaX
    runs on, as SpeechRecognition's audio is) plus one second of seeded Gaussian noise of
    ``rms``, repeated: the same audio always gives the same text."""
    if rms <= 0:
        return raw
    noise = _NOISE.get(rms)
    if noise is None:
        rng = random.Random(0x5EED)
        samples = array.array("h", (max(-32768, min(32767, round(rng.gauss(0.0, rms)))) for _ in range(16000)))
        noise = _NOISE.setdefault(rms, samples.tobytes())
    tiled = (noise * (len(raw) // len(noise) + 1))[: len(raw)]
    add = audioop_function("add")
    if add is not None:
        return add(raw, tiled, 2)
    summed = (x + y for x, y in zip(array.array("h", raw), array.array("h", tiled)))
    return array.array("h", (max(-32768, min(32767, v)) for v in summed)).tobytes()


def _ps_version() -> str:
    try:
        return metadata.version("pocketsphinx")
    except metadata.PackageNotFoundError:  # pragma: no cover
        return "unknown"


def _cache_key(sentences: Sequence[str], version: str) -> str:
    h = hashlib.sha256()
    for part in (_FORMAT, version, repr(LM_DISCOUNT), repr(sorted(EXTRA_PRONUNCIATIONS.items()))):
        h.update(part.encode() + b"\0")
    h.update("\n".join(sentences).encode())
    return h.hexdigest()[:20]


def _read_dict_words(path: Path) -> set[str]:
    with open(path, encoding="utf-8") as f:
        return {VARIANT.sub("", line.split(" ", 1)[0]) for line in f if line.strip()}


# --- choosing one -----------------------------------------------------------------------------------


def make_recognizer(kind: str, **kw: Any) -> Recognizer:
    """The recogniser named ``kind`` (one of ``STT_CHOICES``); ``kw`` go to its constructor."""
    kind = (kind or "").strip().lower()
    if kind == "sphinx":
        return SphinxCommandRecognizer(**kw)
    if kind == "google":
        return GoogleRecognizer(**kw)
    raise ValueError(f"unknown speech recogniser {kind!r}; choose one of {', '.join(STT_CHOICES)}")
