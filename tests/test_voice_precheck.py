"""The name's checks run during the pause (precheck.py): the same hearing as checking after it,
on espeak-ng speech through the REAL recogniser, and the worker's rules on a fake check (no timing
asserts: how much sooner it answers is benchmarks/bench_voice.py's job)."""

from __future__ import annotations

import threading
import wave
from pathlib import Path

import pytest

from anovax.voice import precheck
from anovax.voice.audio import CHUNK, MIN_ENERGY
from anovax.voice.confidence import PathWord
from anovax.voice.endpoint import PhraseCutter
from anovax.voice.precheck import NameCheck, Opening, Prechecks, opening_of

# --- when the cutter says the phrase's audio is settled ---------------------------------------------------


class Told:
    """An utterance that keeps what it was fed and when it was told the speaker paused."""

    decode_s = 0.0

    def __init__(self) -> None:
        self.fed = 0
        self.pauses: list[tuple[int, bool]] = []

    def feed(self, raw: bytes) -> None:
        self.fed += len(raw)

    def partial(self) -> str:
        return ""

    def looks_complete(self, text: str) -> bool:
        return False

    def paused(self, settled: bool = False) -> None:
        self.pauses.append((self.fed, settled))

    def finish(self) -> str:
        return ""

    def abandon(self) -> None:
        pass


@pytest.mark.parametrize("resumed", [False, True])
def test_the_pause_is_settled_once_no_more_of_it_will_be_fed(resumed):
    import array

    told = Told()
    loud = array.array("h", [6000, -6000] * CHUNK).tobytes()
    quiet = bytes(4 * CHUNK)
    cutter = PhraseCutter(MIN_ENERGY, rate=16000, width=2, begin=lambda: told)
    chunks = [quiet] * 3 + [loud] * 20 + [quiet] * 6 + ([loud] * 5 if resumed else []) + [quiet] * 30
    cuts = [cut for chunk in chunks if (cut := cutter.push(chunk)) is not None]
    assert len(cuts) == 1
    settled = [fed for fed, is_settled in told.pauses if is_settled]
    assert settled and told.pauses[-1][1]
    # told only after the last of the kept quiet was fed, and nothing was fed after that
    assert settled[-1] == told.fed == len(cuts[0].frames)
    first = told.pauses.index((settled[0], True))
    assert not told.pauses[first - 1][1] and told.pauses[first - 1][0] < settled[0]  # the chunk before was fed
    if resumed:  # settled during the first pause, then the speech went on: that audio grew
        assert settled[0] < told.fed
    else:  # settled with the last of the phrase's audio, never a chunk before it
        assert settled[0] == told.fed


# --- the worker, on a fake check ------------------------------------------------------------------------

OPENING = Opening(("hey", "anova"), 60, ("open", 90))


def test_the_opening_is_the_path_up_to_the_word_after_the_name():
    path = [PathWord("hey", 10, 30, 1.0), PathWord("anova(2)", 31, 60, 0.9), PathWord("open", 61, 90, 0.8),
            PathWord("notepad", 91, 130, 0.7)]
    got = opening_of(path, "anova")
    assert got == Opening(("hey", "anova(2)"), 60, ("open", 90))
    assert got.before == ["hey"]
    assert opening_of(path[:2], "anova").after is None
    assert opening_of([PathWord("open", 0, 20, 1.0)], "anova") is None


def test_a_check_starts_only_once_the_audio_it_reads_has_arrived():
    ran = []
    ahead = Prechecks(lambda opening, raw: ran.append(opening) or NameCheck((), "anova"))
    assert not ahead.start(OPENING, OPENING.last_frame - 1, bytes)
    assert not ahead.start(None, 10_000, bytes)
    assert ahead.start(OPENING, OPENING.last_frame, bytes)
    assert ahead.result(OPENING) == NameCheck((), "anova")
    assert not ahead.start(OPENING, 10_000, bytes)  # already checked
    assert ran == [OPENING]


def test_a_result_is_used_only_for_exactly_the_same_opening():
    ahead = Prechecks(lambda opening, raw: NameCheck((), "anova"))
    ahead.start(OPENING, 1_000, bytes)
    assert ahead.result(Opening(("hey", "anova"), 61, ("open", 90))) is None
    assert ahead.result(Opening(("hey", "anova"), 60, ("over", 90))) is None
    assert ahead.result(Opening(("hi", "anova"), 60, ("open", 90))) is None
    assert ahead.result(OPENING) is not None


def test_one_check_at_a_time_and_waiting_joins_it():
    release = threading.Event()
    ahead = Prechecks(lambda opening, raw: release.wait(5) and NameCheck((), opening.labels[0]))
    assert ahead.start(OPENING, 1_000, bytes)
    other = Opening(("hi", "anova"), 60, None)
    assert not ahead.start(other, 1_000, bytes)  # the capture thread never waits for the worker
    release.set()
    assert ahead.result(OPENING) == NameCheck((), "hey")
    assert ahead.result(other) is None
    ahead.wait()  # nothing running: returns at once


def test_a_failed_check_leaves_nothing_behind():
    def broken(opening, raw):
        raise RuntimeError("pocketsphinx said no")

    ahead = Prechecks(broken)
    assert ahead.start(OPENING, 1_000, bytes)
    assert ahead.result(OPENING) is None


def test_a_worker_that_could_not_start_leaves_nothing_to_wait_for(monkeypatch):
    class NoThreads(threading.Thread):
        def start(self):
            raise RuntimeError("can't start new thread")

    monkeypatch.setattr(precheck.threading, "Thread", NoThreads)
    ahead = Prechecks(lambda opening, raw: NameCheck((), "anova"))
    with pytest.raises(RuntimeError):
        ahead.start(OPENING, 1_000, bytes)
    ahead.wait()  # nothing was started: nothing to join (joining it would raise)
    assert ahead.result(OPENING) is None


# --- the real recogniser ----------------------------------------------------------------------------------

voicegen = pytest.importorskip("voicegen")
sr = pytest.importorskip("speech_recognition")
from anovax.voice.stt import SphinxCommandRecognizer  # noqa: E402 - after the skips
from anovax.voice.utterance import SphinxUtterance  # noqa: E402
needs_espeak = pytest.mark.skipif(not voicegen.have_espeak(), reason="espeak-ng is not installed")

#: wake phrases with commands (the checks read up to the word after the name), and the name alone
PHRASES = ["hey anova open the calculator", "hello anova what time is it", "hi anova take a screenshot",
           "hey anova", "what time is it"]


def frames_of(path: Path) -> bytes:
    with wave.open(str(path)) as w:
        return w.readframes(w.getnframes())


def hearings(cache_dir: Path, speech: list[bytes]) -> list:
    """Each recording streamed through the phrase cutter (the adaptive pause, as at the
    microphone) into a fresh, warmed-up recogniser, every phrase scored."""
    recognizer = SphinxCommandRecognizer(cache_dir=cache_dir, adaptation=None)
    recognizer.recognize(sr.AudioData(speech[0], 16000, 2))  # its first phrase is decoded whole
    quiet = b"\x00\x00" * 16000
    out = []
    for raw in speech:
        data = quiet + raw + quiet
        cutter = PhraseCutter(MIN_ENERGY, rate=16000, width=2, begin=recognizer.begin)
        for i in range(0, len(data) + CHUNK * 2, CHUNK * 2):
            frames = data[i:i + CHUNK * 2]
            cut = cutter.push(frames) if frames else cutter.end()
            if cut is not None:
                out.append(cut.utterance.finish_hearing(lambda _text: True))
            if not frames:
                break
    assert not recognizer._lock.locked()
    return out


@needs_espeak
@pytest.mark.parametrize("voice", voicegen.VOICES)
def test_checking_the_name_during_the_pause_hears_exactly_what_checking_after_it_does(
        voice, tmp_path, tmp_path_factory, monkeypatch):
    cache_dir = tmp_path_factory.mktemp("stt")
    speech = [frames_of(voicegen.render(text, tmp_path / f"{n}.wav", voice=voice)) for n, text in enumerate(PHRASES)]
    used = []
    result = Prechecks.result

    def counting(self, opening):
        got = result(self, opening)
        used.append(got is not None)
        return got

    monkeypatch.setattr(Prechecks, "result", counting)
    ahead = hearings(cache_dir, speech)
    assert any(used), "no name was checked during the pause"
    # the baseline is the code without any of it: no partial path read, no check started
    monkeypatch.setattr(SphinxUtterance, "paused", lambda self, settled=False: None)
    after = hearings(cache_dir, speech)
    assert [h.text for h in ahead] == [h.text for h in after]
    assert ahead == after  # the words, their scores, the name's fit and rivals, the readings
    assert sum(h.name_as == "anova" for h in ahead) >= 3, [h.text for h in ahead]


@needs_espeak
def test_a_phrase_keeps_the_recogniser_until_its_check_has_finished(tmp_path_factory):
    # the worker uses the recogniser's check decoders: an abandoned (or finished) phrase must not
    # hand the recogniser on while it runs
    recognizer = SphinxCommandRecognizer(cache_dir=tmp_path_factory.mktemp("stt"), adaptation=None)
    release = threading.Event()
    utterance = recognizer.begin()
    utterance._ahead = Prechecks(lambda opening, raw: release.wait(10) and NameCheck((), "anova"))
    assert utterance._ahead.start(OPENING, 1_000, bytes)
    abandoning = threading.Thread(target=utterance.abandon)
    abandoning.start()
    abandoning.join(0.3)
    assert abandoning.is_alive() and recognizer._lock.locked()
    release.set()
    abandoning.join(10)
    assert not abandoning.is_alive() and not recognizer._lock.locked()
