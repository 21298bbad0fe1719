"""What the wake gate may rely on in one phrase: was the name really said, and the command?

The offline recogniser only knows AnovaX's own sentences, so it turns "hey Anna, can you pass the
salt" into "hey anova can you press us alt". Two checks keep such phrases from acting:

- **the name**: "anova" aligned back onto the audio must fit it (``confidence.WordScore.fit`` at
  least ``NAME_FIT_MIN``). A forced "anova" has phones nobody said, squeezed and scoring badly.
- **the command**: the words after the name must be a request the offline planner understands
  (the grammar is the definition of a command; forced words rarely make one), and the recogniser
  must not have been torn between sentences (mean lattice posterior at least ``POSTERIOR_MIN``).

A phrase from a recogniser that scores nothing (the online one: it is not closed-vocabulary, so it
does not force words) is trusted as text; one whose scoring failed is not.

Thresholds were tuned on espeak-ng voices only (benchmarks/bench_voice_room.py holds the tuning
corpus and reports festival's voices, never tuned on, beside them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from anovax.voice.confidence import Hearing

#: the name's alignment score per frame below which it was not clearly said. Tuned on espeak-ng
#: f2 / klatt4 / m1, clean and with pink noise at 10-20 dB SNR: 0 of 40 forced names pass (the
#: closest -23.1), 95% of real ones do.
NAME_FIT_MIN = -23.0
#: the command words' mean lattice posterior below which the recogniser was guessing
POSTERIOR_MIN = 0.5


def _always(_text: str) -> bool:
    return True


@dataclass(frozen=True)
class Trust:
    """The checks for one phrase: ``hearing`` is the recogniser's scored answer (None: text only,
    e.g. a typed test phrase), ``understands(text)`` says whether a request makes sense."""

    hearing: Hearing | None = None
    understands: Callable[[str], bool] = field(default=_always)

    def name_clear(self, seq: list[str], index: int) -> bool:
        """Was word ``index`` of ``seq`` (the name) clearly said?"""
        hearing = self.hearing
        if hearing is None or not hearing.words:
            return hearing is None or not hearing.unscored
        word = _score_at(hearing, seq, index)
        return word is not None and word.fit is not None and word.fit >= NAME_FIT_MIN

    def command_clear(self, seq: list[str], first: int, text: str) -> bool:
        """Are the words of ``seq`` from ``first`` on (``text``) a request that was clearly said?"""
        if not text.strip():
            return False
        try:
            if not self.understands(text):
                return False
        except Exception:  # noqa: BLE001 - a broken check vouches for nothing
            return False
        hearing = self.hearing
        if hearing is None or not hearing.words:
            return hearing is None or not hearing.unscored
        # (a failed alignment of the name says nothing about the command: the posteriors do)
        scores = [_score_at(hearing, seq, i) for i in range(first, len(seq))]
        posteriors = [s.posterior for s in scores if s is not None]
        if len(posteriors) != len(scores) or not posteriors:
            return False
        return sum(posteriors) / len(posteriors) >= POSTERIOR_MIN


def _score_at(hearing: Hearing, seq: list[str], index: int):  # noqa: ANN202 - WordScore | None
    """The score of word ``index`` of the gate's words ``seq``: the recogniser's words in the same
    order, matched by position when the lists agree, else by occurrence of the same word."""
    words = hearing.words
    if len(words) == len(seq) and all(w.word == s for w, s in zip(words, seq)):
        return words[index]
    occurrence = seq[:index].count(seq[index])
    same = [w for w in words if w.word == seq[index]]
    return same[occurrence] if occurrence < len(same) else None
