"""The recogniser's other readings of a phrase (``confidence.alternatives``), which the wake
gate weighs by what they mean (trust.py): from pocketsphinx's N-best list, on a stand-in decoder
for the arithmetic and on the real one with rendered speech."""

from __future__ import annotations

import math

import pytest
import speech_recognition as sr

import voicegen
from anovax.voice.confidence import NBEST, alternatives
from anovax.voice.stt import SphinxCommandRecognizer


class LogMath:
    """pocketsphinx's: log base 1.0001 on integers; the binding's ``exp`` goes through floats."""

    BASE = 1.0001

    def log(self, p: float) -> int:
        return round(math.log(p) / math.log(self.BASE))

    def log_to_ln(self, x: int) -> float:
        return x * math.log(self.BASE)


class Hyp:
    def __init__(self, hypstr: str, score: int) -> None:
        self.hypstr = hypstr
        self.score = LogMath.BASE ** score  # as the binding hands it over


class Decoder:
    def __init__(self, paths, broken: bool = False) -> None:
        self.paths, self.broken = paths, broken
        self.read = 0

    def nbest(self):
        if self.broken:
            raise RuntimeError("no lattice")
        for text, score in self.paths:
            self.read += 1
            yield Hyp(text, score)

    def get_logmath(self) -> LogMath:
        return LogMath()


def test_paths_with_the_same_words_add_up_and_the_weights_sum_to_one():
    step = round(20 / 1024 / math.log(LogMath.BASE) * math.log(2))  # half as likely per step
    got = dict(alternatives(Decoder([("open(2) notepad", -4000), ("open nova", -4000 - step),
                                     ("open notepad", -4000 - 2 * step), ("<sil>", -4000)])))
    assert list(got) == ["open notepad", "open nova"]  # the variant marker gone; silence is no reading
    assert math.isclose(sum(got.values()), 1.0)
    # 1 + 1/4 against 1/2
    assert got["open notepad"] == pytest.approx(1.25 / 1.75, abs=0.01)


def test_only_the_first_paths_are_read_and_no_lattice_gives_no_readings():
    decoder = Decoder([(f"open {i}", -4000 - i) for i in range(3 * NBEST)])
    assert len(alternatives(decoder)) == NBEST and decoder.read == NBEST
    assert alternatives(Decoder([], broken=True)) == ()
    assert alternatives(Decoder([])) == ()


@pytest.mark.skipif(not voicegen.have_espeak(), reason="espeak-ng is not installed (make test installs it)")
def test_the_real_recogniser_reads_a_clear_phrase_one_way(tmp_path):
    sphinx = SphinxCommandRecognizer(cache_dir=tmp_path / "cache", adaptation=None)
    path = tmp_path / "p.wav"
    voicegen.render("hey anova open the browser", path, voice="en-us+f2")
    with sr.AudioFile(str(path)) as source:
        audio = sr.Recognizer().record(source)
    heard = sphinx.hear(audio, lambda _text: True)
    assert heard.text == "hey anova open the browser"
    readings = heard.alternatives
    assert readings and math.isclose(sum(w for _t, w in readings), 1.0)
    assert [w for _t, w in readings] == sorted((w for _t, w in readings), reverse=True)
    assert readings[0] == (heard.text, pytest.approx(readings[0][1])) and readings[0][1] > 0.8
    # a phrase nobody must vouch for is not scored, and has no readings
    assert sphinx.hear(audio).alternatives == ()
