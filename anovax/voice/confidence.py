"""How sure the offline recogniser is of each word it heard.

A closed-vocabulary decoder forces every sound into its own sentences: "hey Anna, can you pass
the salt" comes out as "hey anova can you press us alt". Forced words betray themselves when the
hypothesis is aligned back onto the audio phone by phone (pocketsphinx's alignment search): the
phones the speaker never said ("OW V" of "anova", for "Anna") get squeezed and score badly.

- ``fit``: the word's alignment score per 10 ms frame, averaged over its phones (pocketsphinx's
  integer log scale), measured for the name and the words before it (the audio up to the name's
  end is aligned: cheap, and noise later in the phrase cannot make the alignment fail). On
  espeak-ng voices, clean and noisy (``python -m benchmarks.bench_voice_room --tune``): "anova"
  said, 5th percentile -24.7, median -16.2; forced onto "Anna", "Hannah", "another"..., median
  -30.9 but up to -12.3. The two overlap: trust.py weighs the fit with the request's posteriors.
- ``posterior``: the word's probability in the command decoder's lattice: low when other
  sentences of the command language model explain the audio about as well.
- ``alternatives``: the decoder's N best readings of the whole phrase, weighted. Words can be
  doubtful while the request is not: "what can i say", "what did i say" and "what can i say the"
  ask the same thing (trust.py weighs the request, not each word).

``Hearing`` is what a scoring recogniser returns: the text plus a ``WordScore`` per word (none
when nothing was scored: the online recogniser, or a phrase nobody needs to vouch for).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from anovax.voice.recognizer import VARIANT, normalise

#: pocketsphinx's non-words: silence, fillers and noise markers
_NON_WORDS = frozenset({"<s>", "</s>", "<sil>", "[NOISE]", "[SPEECH]"})


@dataclass(frozen=True)
class WordScore:
    """One recognised word and how sure the recogniser is of it."""

    word: str
    #: first 10 ms frame of the word in the phrase, and how many frames it lasts
    start: int
    frames: int
    #: alignment score per frame, averaged over the word's phones (higher: said more clearly);
    #: None where not measured (only the words up to the name are aligned)
    fit: float | None
    #: the worst of its phones, per frame
    worst: float | None
    #: lattice posterior, 0..1
    posterior: float = 1.0


@dataclass(frozen=True)
class Hearing:
    """A recognised phrase: its words as text and, when scored, a ``WordScore`` per word."""

    text: str
    words: tuple[WordScore, ...] = ()
    #: True when scoring was asked for and could not be done: nobody can vouch for the words
    unscored: bool = False
    #: what the name's audio sounded like against its rivals (rivals.py): "anova", a rival such as
    #: "nova" or "anna", or "" when that was not checked
    name_as: str = ""
    #: heard through a voice transform (anovax enrol): its posteriors run higher, so a clear
    #: request no longer excuses a poorly fitting name (trust.py)
    adapted: bool = False
    #: the decoder's other readings of the phrase: (text, weight) best first, weights summing to 1
    #: (``alternatives``); trust.py sums those that mean the same request
    alternatives: tuple[tuple[str, float], ...] = ()
    #: the request after the name heard again on its own (again.py), asked for only when this
    #: hearing makes no clear request; None where there is no name or nothing after it
    again: Callable[[], Hearing | None] | None = field(default=None, compare=False, repr=False)

    @property
    def scored(self) -> bool:
        return bool(self.words)


def is_word(label: str) -> bool:
    return label not in _NON_WORDS and not label.startswith(("+", "[", "<"))


def score_alignment(alignment: Iterable[object]) -> tuple[WordScore, ...]:
    """``WordScore``s from a pocketsphinx alignment (``Decoder.get_alignment()``: words, each
    iterable over its phones with ``start``, ``duration`` and ``score``)."""
    scored = []
    for word in alignment:
        label = str(getattr(word, "name", ""))
        if not is_word(label):
            continue
        phones = [(int(p.duration), float(p.score)) for p in word if int(p.duration) > 0]
        frames = sum(d for d, _ in phones)
        if not frames:
            continue
        scored.append(WordScore(VARIANT.sub("", label), int(word.start), frames, sum(s for _, s in phones) / frames,
                                min(s / d for d, s in phones)))
    return tuple(scored)


#: live decoding is fed in blocks this size (128 ms of 16 kHz 16-bit audio), as a microphone's
#: chunks arrive
LIVE_BLOCK_BYTES = 4096


@dataclass(frozen=True)
class PathWord:
    """A real word on a decoder's best path: its label ("anova(2)"), frames and lattice posterior."""

    label: str
    start: int
    end: int
    posterior: float

    def as_score(self, offset: int = 0) -> WordScore:
        """The word with its posterior and nothing measured yet; frames counted from ``offset``
        (the frame its decoded piece starts at in the phrase)."""
        return WordScore(VARIANT.sub("", self.label), offset + self.start, self.end - self.start + 1, None, None,
                         self.posterior)


def decode(decoder: Any, raw: bytes, *, path: bool = True, full_utt: bool = True,
           fresh: bool = False) -> tuple[Any, list[PathWord]]:
    """One whole utterance through ``decoder``: its best hypothesis and (``path``) the real words
    on its best path (for an alignment search neither: asking crashes it).

    ``fresh``: for a check on a piece of one phrase (the name's alignment, its rivals). The
    features start afresh instead of from the noise estimate pocketsphinx's ``remove_noise``
    carries over from the decoder's last utterance, a piece of some earlier phrase. With it
    carried, the same phrase checked twice could fit the name one time and lose it the next
    (espeak-ng m3's "yo anova what time is it": -26, then no name at all)."""
    if fresh:
        decoder.reinit_feat()  # ~0.02 ms
    decoder.start_utt()
    try:
        if full_utt:
            decoder.process_raw(raw, no_search=False, full_utt=True)
        else:  # pocketsphinx 5.1's flat search crashed on a long phrase fed as one live block
            for at in range(0, len(raw), LIVE_BLOCK_BYTES):
                decoder.process_raw(raw[at:at + LIVE_BLOCK_BYTES], no_search=False, full_utt=False)
    finally:
        decoder.end_utt()
    if not path:
        return None, []
    return decoder.hyp(), path_of(decoder)


def path_of(decoder: Any) -> list[PathWord]:
    """The real words on ``decoder``'s best path for the utterance it just ended."""
    return [PathWord(str(seg.word), int(seg.start_frame), int(seg.end_frame), max(0.0, min(1.0, float(seg.prob))))
            for seg in decoder.seg() if is_word(str(seg.word))]


#: how many of the decoder's N best paths are read (well under a millisecond for 40); paths that
#: differ only in a pronunciation or a silence give the same text, so fewer readings remain
NBEST = 40
#: pocketsphinx keeps acoustic scores shifted left by this many bits (hmm.h ``SENSCR_SHIFT``)...
_SCORE_SHIFT = 1 << 10
#: ...and scales them down by its ``ascale`` (20) for lattice posteriors: the same here
_ASCALE = 20.0


def alternatives(decoder: Any, limit: int = NBEST) -> tuple[tuple[str, float], ...]:
    """The decoder's readings of the utterance it just ended: (text, weight), best first, the
    weights a softmax of the N-best path scores over the texts read (paths with the same words add
    up). Empty when it has none (no lattice)."""
    try:
        nbest = decoder.nbest()
        logmath = decoder.get_logmath()
        scores: dict[str, float] = {}
        for hyp in itertools.islice(nbest if nbest is not None else (), limit):
            text = normalise(hyp.hypstr)
            if not text or hyp.score <= 0.0:
                continue
            # the binding hands the integer path score through exp(): log() gives it back
            ln = logmath.log_to_ln(logmath.log(hyp.score)) * _SCORE_SHIFT / _ASCALE
            scores[text] = ln if text not in scores else _logaddexp(scores[text], ln)
    except Exception:  # noqa: BLE001 - pocketsphinx raises RuntimeError; no readings vouch for nothing
        return ()
    if not scores:
        return ()
    top = max(scores.values())
    weights = {text: math.exp(ln - top) for text, ln in scores.items()}
    total = sum(weights.values())
    return tuple(sorted(((t, w / total) for t, w in weights.items()), key=lambda tw: -tw[1]))


def _logaddexp(a: float, b: float) -> float:
    high, low = max(a, b), min(a, b)
    return high + math.log1p(math.exp(low - high))
