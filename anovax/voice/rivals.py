"""Was it "anova", or a name that sounds like it? The name's audio decoded against its rivals.

The command language model knows one name, so "hey Nova", "hey Anna" and "hey Hannah" all come
out of it as "hey anova"; the name's alignment fit (confidence.py) only says how well "anova"
fits, and a rival fits about as well. Here the same frames (the words before the name, the name,
a few frames after) are decoded again with a grammar that offers the name *and* its rivals side by
side, so the acoustic model picks the one that fits best. Only "anova" winning vouches for it.

The rivals are the class the issue names: people's names and openings that share anova's vowels
and nasal ("hey Anna", "hey Hannah", "another", "hey now") and its homophone-like "nova".
Measured on espeak-ng voices reading the tuning half (``python -m benchmarks.bench_voice_room
--tune``, 3 voices, clean and noisy): "anova" won on all 210 real wakes; "hey nova" lost on all 46
phrases heard as "hey anova", and the sound-alikes heard so on 31 of 45. Rivals generated
from the dictionary (every word within two phones of "anova") were tried and not kept: short
fragments such as "uno" and "anode" then beat the real name on 122 of 210 wakes. "and over" is
not a rival for the same reason (it beat the real name on most wakes); the other checks catch it.

A blind red team (other espeak-ng voices, names of its own) then found made-up names one sound
away ("hey Danova", "yo Panova", "hello Genova": 6 of 18 acted). Offering the name with a
consonant before it caught most of them (157 of 186 of our own: "banova", "tanova"...) but the
consonant also won over real wakes, on the glide of "yo-(w)anova" and "hi-(y)anova" or a breath:
bench_voice's recall fell from 94.0% to 91.5% with stops, affricates, nasals and liquids, 91.1%
with stops alone, 86.5% with every consonant. Not kept: that class is open. Nor is the name with
its middle consonant changed ("anoka", "anola": a later red team's "hey Anoka, what time is it"):
on the same recorded hearings (tuning half, nine espeak-ng voices), rivals for every consonant in
place of the v took right actions from 547 to 419 of 630 ("anola" beat the real name 91 times);
k, p, s, sh and ch alone cost 1 of 630 but still left 133 of 234 such names answered
(149 without). The benchmarks report the class on its own (bench_voice_room: one sound away).

Nor is a second opinion from a general speech model: Google's speech embedding (openWakeWord
0.4.0's ONNX export, the features openWakeWord trains wake words on from synthetic speech), with a
head trained on espeak-ng alone (20 voices, 1,704 phrases heard with the name; names one sound
away and sound-alikes, none of the benchmarks' own), on the embeddings ending 0.1-0.25 s after the
name. On the report half it took names one sound away from 41 to 19 of 60 in the tuned voices,
but right actions from 190 to 167 of 210, and in festival's voices, which never trained it, from
133 to 57 of 140 (at p ≥ 0.05; MLP and logistic heads, several windows). A head trained on one
synthesiser learns that synthesiser: a verifier needs many speakers, which this machine cannot
give it.

The recogniser can stretch the name over the next word's first sound ("hey Anna, take a
screenshot" heard as "hey anova take a screenshot"), and "anova" then fits those frames better
than "anna". So when the name alone comes out as "anova", it is decoded once more followed by the
word recognised after it, which claims that sound back; a rival in either decode is what was said.
Measured on tuning material (every sound-alike with every command in espeak-ng f1, klatt2 and m2,
which the room bench's report does not use, plus the tuning half in six voices, clean and noisy):
sound-alikes with a command acted on 6 -> 1 of 1,008, right actions unchanged (375 of 420 and 291
of 360 wake phrases; the decode with the next word heard a rival on 1 of 780 real wakes, one
already heard wrong). That decode alone, without the first, let 4 through. The one left is the
next word vanishing into the name ("hey Anna, what can I say" heard as "hey anova can i say"):
offering any of the dictionary's short words that start with "w" between the name and the next
word caught it, but "anna" plus such a word then beat the real name on 24 of 420 wake phrases
(f2's clean "hi anova open…", m1 and m2 with noise): not kept. Before it, a run of
phones after the name in the grammar fixed the examples but let "anna" win over 9 of 210 real
wakes on the tuning phrases, and cost 30-130 ms: not kept. When the words left after the name are
barely heard, ``trust.MUMBLE_FRAMES`` keeps a stretched name from waking AnovaX.

The recogniser can also make a wake word of a rival's first sound ("ask Hannah to open notepad"
heard as "ask hi anova open notepad", "tell Joanna to…" as "tell yo anova…": a red team's class).
Letting a rival take a one-word wake word's frames too ("ask ( hi ( anova | rivals ) | rivals
)") cost no real wake on the tuning material's recorded hearings (780) and caught the one such
sentence there, but the gate's pause rule (trust.PAUSE_BEFORE_WAKE_FRAMES) catches that one too,
and on the red team's held-out voices it took flite slt's "um, hey anova, open the calculator"
for "hannah": not kept. The gate's rules carry that class.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from anovax.voice.confidence import decode
from anovax.voice.pronunciations import pronunciations

log = logging.getLogger(__name__)

#: the name the wake gate listens for (stt.NAME_WORD)
NAME = "anova"
#: words that compete with the name for its audio
RIVALS: tuple[str, ...] = ("nova", "noah", "anna", "ana", "hannah", "nana", "donna", "joanna", "another", "now")
#: a word the grammar may hold as a token (JSGF: no spaces, no grammar punctuation)
_TOKEN = re.compile(r"[a-z][a-z']*")
#: how much audio after the name is decoded with it (10 ms frames), as for its alignment
TAIL_FRAMES = 5
#: grammars kept ready (wake words before the name times the word after it): each holds about
#: 137 KB; past the bound one is rebuilt per check (about 0.5 ms)
SEARCHES = 64
#: 16 kHz 16-bit audio per 10 ms frame
_FRAME_BYTES = 320


class RivalCheck:
    """One pocketsphinx decoder with a grammar per distinct run of words before the name.

    Not thread-safe: the recogniser calls it under its own lock. It never raises: a check that
    cannot run says "" (unknown), and the name's fit decides alone, as before it existed."""

    def __init__(self, decoder: Any) -> None:
        #: None: the check could not be set up
        self._decoder = decoder
        self._words = {NAME, *(w for w in RIVALS if decoder is not None and decoder.lookup_word(w) is not None)}
        self._searches: dict[tuple[tuple[str, ...], tuple[str, ...]], str] = {}

    @classmethod
    def beside(cls, ps: Any, dict_path: str) -> RivalCheck:
        """A check for a command recogniser: the general acoustic model (never a voice transform:
        the check's margins were tuned on it) and its dictionary, plus the rivals' pronunciations
        from pocketsphinx's full dictionary."""
        try:
            decoder = ps.Decoder(hmm=ps.get_model_path("en-us/en-us"), dict=dict_path, lm=None, loglevel="FATAL")
            prons = pronunciations(set(RIVALS), ps.get_model_path("en-us/cmudict-en-us.dict"))
            words = [(w, prons[w][0]) for w in RIVALS if decoder.lookup_word(w) is None and prons.get(w)]
            for i, (word, phones) in enumerate(words):
                decoder.add_word(word, phones, update=i == len(words) - 1)
        except Exception:  # noqa: BLE001 - pocketsphinx raises RuntimeError/ValueError
            log.warning("the name's rival check could not start", exc_info=True)
            decoder = None
        return cls(decoder)

    def heard(self, before: Sequence[str], raw: bytes, name_end: int, after: tuple[str, int] | None = None) -> str:
        """The word the acoustic model prefers in the name's place, after the words ``before``
        (as recognised), in ``raw`` (16 kHz 16-bit audio; the name ends at frame ``name_end``);
        "" when it cannot tell (no decoder, an unknown word before the name, no hypothesis, a
        failure).

        ``after``: the word recognised after the name and the frame it ends on. When the name
        alone sounds like "anova", it is decoded again followed by that word: the recogniser can
        stretch the name over the next word's first sound ("hey Anna, what time is it" heard as
        "hey anova what time is it"), and with the word there to claim that sound, a rival may fit
        better. A rival in either decode is what was said. The second decode runs only after an
        "anova": when the name alone cannot be told (""), that stands, as it was measured."""
        before = tuple(before)
        if self._decoder is None or not self._known(before):
            return ""
        alone = self._best(before, (), raw, name_end)
        if alone != NAME or after is None:  # a rival, or unknown: the name alone decides, as measured
            return alone
        word, end = after
        if end <= name_end or not self._known((word,)):
            return alone
        with_next = self._best(before, (word,), raw, end)
        return with_next if with_next not in ("", NAME) else alone

    def _known(self, words: tuple[str, ...]) -> bool:
        return all(_TOKEN.fullmatch(w) and self._decoder.lookup_word(w) is not None for w in words)

    def _best(self, before: tuple[str, ...], after: tuple[str, ...], raw: bytes, end: int) -> str:
        """The word in the name's place when ``before``, the name or a rival, then ``after`` are
        decoded from the start of ``raw`` to a few frames past frame ``end``; "" when unknown."""
        decoder = self._decoder
        try:
            decoder.activate_search(self._search(before, after))
            end = min(len(raw) // _FRAME_BYTES, end + 1 + TAIL_FRAMES)
            decode(decoder, raw[: end * _FRAME_BYTES], path=False, fresh=True)
            hyp = decoder.hyp()
        except Exception:  # noqa: BLE001 - audio it cannot decode: unknown, not a verdict
            log.debug("rival check failed", exc_info=True)
            return ""
        words = hyp.hypstr.split() if hyp is not None and hyp.hypstr else []
        return words[len(before)] if len(words) == len(before) + 1 + len(after) else ""

    def _search(self, before: tuple[str, ...], after: tuple[str, ...]) -> str:
        key = (before, after)
        name = self._searches.get(key)
        if name is None:
            # past the bound every new grammar takes the one name after the kept ones: pocketsphinx
            # replaces a search of the same name
            name = f"name{len(self._searches)}"
            names = " | ".join(sorted(self._words))
            self._decoder.add_jsgf_string(
                name, f"#JSGF V1.0;\ngrammar {name};\npublic <w> = {' '.join(before)} ( {names} ) {' '.join(after)};\n")
            # a handful of wake words times the command words that can follow the name
            if len(self._searches) < SEARCHES:
                self._searches[key] = name
        return name
