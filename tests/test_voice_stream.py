"""Decoding while the phrase is spoken (issue 19 part 3): the streaming utterance, the adaptive pause
and the phrase cutter, on espeak-ng speech through the REAL recogniser (no timing asserts: speed
is benchmarks/bench_voice.py's job)."""

from __future__ import annotations

import array
import random
import threading
import wave
from pathlib import Path

import pytest

from anovax.voice import utterance as utterance_module
from anovax.voice.audio import CHUNK, MIN_ENERGY, Recording
from anovax.voice.endpoint import ADAPTIVE, PhraseCutter
from anovax.voice.gate import WakeGate
from anovax.voice.pipeline import VoicePipeline
from anovax.voice.recognizer import StreamingRecognizer, Utterance
from anovax.voice.stt import SphinxCommandRecognizer, SttError

voicegen = pytest.importorskip("voicegen")
if not voicegen.have_espeak():
    pytest.skip("espeak-ng is not installed (Debian package espeak-ng)", allow_module_level=True)
sr = pytest.importorskip("speech_recognition")

#: commands and wake phrases, said by every voice
PHRASES = ["hey anova open the browser", "what time is it", "hello anova take a screenshot", "open notepad",
           "hi anova what's the date today", "open notepad and type hello world", "yes", "stop",
           "search for the weather", "wake up anova open the calculator"]
#: a comma where espeak-ng pauses (4-6 chunks of 32 ms at its default 160 words a minute)
COMMA_SENTENCES = ["open the calculator, then type hello world", "remind me in five minutes, to call mum",
                   "hey anova, open the browser", "search for the weather, in london"]
QUIET_LEVEL = 10


def quiet(seconds: float, rng: random.Random) -> bytes:
    return array.array("h", (int(rng.gauss(0, QUIET_LEVEL)) for _ in range(int(seconds * 16000)))).tobytes()


def frames_of(path: Path) -> bytes:
    with wave.open(str(path)) as w:
        assert (w.getframerate(), w.getsampwidth(), w.getnchannels()) == (16000, 2, 1)
        return w.readframes(w.getnframes())


def write_wav(path: Path, data: bytes) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(data)
    return path


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("stt-cache")


@pytest.fixture(scope="module")
def recognizer(cache_dir, tmp_path_factory):
    """Warmed up: its first phrase (decoded whole, utterance.py) is behind it."""
    recognizer = SphinxCommandRecognizer(cache_dir=cache_dir)
    speech = voicegen.render("what time is it", tmp_path_factory.mktemp("warm") / "w.wav")
    recognizer.recognize(sr.AudioData(frames_of(speech), 16000, 2))
    return recognizer


@pytest.fixture(scope="module")
def spoken(tmp_path_factory):
    """say(text, voice) → the WAV, with 0.8 s of quiet either side (as a microphone hears it)."""
    folder = tmp_path_factory.mktemp("spoken")
    cache: dict[tuple[str, str], Path] = {}
    rng = random.Random(5)

    def say(text: str, voice: str = "en-us+f2") -> Path:
        if (text, voice) not in cache:
            speech = voicegen.render(text, folder / f"s{len(cache)}.wav", voice=voice)
            data = quiet(0.8, rng) + frames_of(speech) + quiet(0.8, rng)
            cache[text, voice] = write_wav(folder / f"r{len(cache)}.wav", data)
        return cache[text, voice]

    return say


def cuts_of(path: Path, recognizer) -> list:
    """The PhraseCutter's phrases for a WAV, each finished (text, pause chunks) before the next."""
    data = frames_of(path)
    cutter = PhraseCutter(MIN_ENERGY, rate=16000, width=2, begin=recognizer.begin)
    out = []
    for i in range(0, len(data) + CHUNK * 2, CHUNK * 2):
        frames = data[i:i + CHUNK * 2]
        cut = cutter.push(frames) if frames else cutter.end()
        if cut is not None:
            out.append((cut.utterance.finish(), cut.pause_chunks))
        if not frames:
            break
    return out


# --- the utterance ----------------------------------------------------------------------------------------


def test_the_offline_recogniser_streams_and_google_does_not():
    from anovax.voice.stt import GoogleRecognizer

    assert not isinstance(GoogleRecognizer(), StreamingRecognizer)


@pytest.mark.parametrize("voice", voicegen.VOICES)
def test_streaming_gives_the_same_words_as_whole_phrase_decoding(voice, cache_dir, tmp_path):
    # two recognisers hearing the same phrases in the same order: pocketsphinx's cepstral mean
    # carries over from phrase to phrase, so each needs the same history
    whole, streamed = SphinxCommandRecognizer(cache_dir=cache_dir), SphinxCommandRecognizer(cache_dir=cache_dir)
    assert isinstance(streamed, StreamingRecognizer)
    expected, got = [], []
    for n, text in enumerate(PHRASES):
        raw = frames_of(voicegen.render(text, tmp_path / f"{n}.wav", voice=voice))
        expected.append(whole.recognize(sr.AudioData(raw, 16000, 2)))
        utterance = streamed.begin()
        assert isinstance(utterance, Utterance)
        for i in range(0, len(raw), 1001):  # odd sizes: a chunk may end mid-sample
            utterance.feed(raw[i:i + 1001])
        got.append(utterance.finish())
    assert got == expected
    assert sum(voicegen.wer(ref, hyp) for ref, hyp in zip(PHRASES, got)) / len(PHRASES) < 0.3, got


def test_the_first_phrase_is_decoded_whole_and_later_ones_as_they_arrive(cache_dir, spoken):
    fresh = SphinxCommandRecognizer(cache_dir=cache_dir)
    raw = frames_of(spoken("open the browser", "en-us+klatt4"))
    for n in range(2):
        with fresh.begin() as utterance:
            utterance.feed(raw)
            assert utterance.partial() == ("" if n == 0 else "open the browser")
            assert utterance.finish() == "open the browser"


def test_one_utterance_at_a_time_and_an_abandoned_one_releases_the_decoder(recognizer, monkeypatch, spoken):
    monkeypatch.setattr(utterance_module, "BEGIN_WAIT_S", 0.2)
    first = recognizer.begin()
    errors = []
    thread = threading.Thread(target=lambda: errors.append(pytest.raises(SttError, recognizer.begin)))
    thread.start()
    thread.join()
    assert errors and "busy" in str(errors[0].value)
    first.feed(b"\x01\x00" * 4000)
    first.abandon()
    first.abandon()  # idempotent
    with pytest.raises(SttError):
        first.finish()  # an abandoned phrase has no words to give
    with recognizer.begin() as second:  # the decoder is free again; leaving the block abandons it
        second.feed(b"\x00" * 100)
    audio = sr.AudioData(frames_of(spoken("what time is it")), 16000, 2)
    assert "time is it" in recognizer.recognize(audio)  # recognize shares the lock: free too
    with recognizer.begin() as third:
        assert third.finish() == ""  # nothing fed: nothing heard


def test_partial_words_and_whether_they_look_complete(recognizer, spoken):
    raw = frames_of(spoken("open the browser", "en-us+klatt4"))
    with recognizer.begin() as utterance:
        utterance.feed(raw)
        assert utterance.partial() == "open the browser"
        assert utterance.looks_complete("open the browser") and utterance.looks_complete("hey anova what time is it")
        assert utterance.looks_complete("yes") and utterance.looks_complete("stop")
        # the wake forms alone: "anova wake up" ends no sentence of the model (commands follow it)
        assert utterance.looks_complete("anova wake up") and utterance.looks_complete("hey anova")
        assert not utterance.looks_complete("anova wake") and not utterance.looks_complete("hey anova open the")
        assert not utterance.looks_complete("open the") and not utterance.looks_complete("remind me")
        assert not utterance.looks_complete("")


# --- the adaptive pause -----------------------------------------------------------------------------------


def test_the_pause_is_shorter_after_words_that_look_complete(recognizer, spoken):
    complete = round(ADAPTIVE.complete_s * 16000 / CHUNK)
    longer = round(ADAPTIVE.incomplete_s * 16000 / CHUNK)
    assert complete < longer
    for voice in voicegen.VOICES:
        assert cuts_of(spoken("open the browser", voice), recognizer) == [("open the browser", complete)]
        [(heard, pause)] = cuts_of(spoken("remind me", voice), recognizer)
        assert pause == longer, heard


@pytest.mark.parametrize("voice", voicegen.VOICES)
def test_a_comma_pause_does_not_split_a_sentence(voice, recognizer, spoken):
    for text in COMMA_SENTENCES:
        heard = [phrase.utterance.finish() for phrase in Recording(spoken(text, voice)).phrases(recognizer)]
        assert len(heard) == 1, (text, heard)
        assert voicegen.wer(text.replace(",", ""), heard[0]) < 0.5, (text, heard)


def test_two_phrases_are_still_two(recognizer, spoken, tmp_path):
    rng = random.Random(9)
    data = (frames_of(spoken("hey anova")) + quiet(0.6, rng) + frames_of(spoken("open the browser")))
    got = [text for text, _ in cuts_of(write_wav(tmp_path / "two.wav", data), recognizer)]
    assert len(got) == 2 and got[0].startswith("hey anova") and got[1] == "open the browser", got


# --- recordings and the pipeline --------------------------------------------------------------------------


class WholePhrasesOnly:
    """The offline recogniser seen through the plain port only (as google.py is): no ``begin``."""

    name, offline = "whole", True

    def __init__(self, inner: SphinxCommandRecognizer) -> None:
        self._inner = inner

    def recognize(self, audio) -> str:
        return self._inner.recognize(audio)


@pytest.mark.parametrize("streaming", [True, False])
def test_a_recording_reaches_the_command_with_or_without_streaming(streaming, recognizer, spoken, tmp_path):
    rng = random.Random(3)
    data = frames_of(spoken("what time is it")) + quiet(0.5, rng) + frames_of(spoken("hey anova open notepad"))
    rec = Recording(write_wav(tmp_path / "r.wav", data))
    port = recognizer if streaming else WholePhrasesOnly(recognizer)
    commands: list[str] = []
    pipeline = VoicePipeline(port, WakeGate(clock=rec.now), on_command=commands.append, stop_speaking=lambda: None)
    heard = []
    for phrase in rec.phrases(port):
        assert (phrase.utterance is not None) == streaming
        heard.append(pipeline.handle(phrase))
    assert [h.decision.action for h in heard] == ["drop", "command"]
    assert commands == ["open notepad"]
    assert not recognizer._lock.locked()


def test_phrases_left_unfinished_never_hold_the_decoder(recognizer, spoken, tmp_path):
    rng = random.Random(4)
    data = frames_of(spoken("open notepad")) + quiet(0.6, rng) + frames_of(spoken("what time is it"))
    phrases = list(Recording(write_wav(tmp_path / "r.wav", data)).phrases(recognizer))  # none finished
    assert len(phrases) == 2 and not recognizer._lock.locked()
    with pytest.raises(SttError):
        phrases[0].utterance.finish()  # abandoned when the next phrase began
    heard = VoicePipeline(recognizer, WakeGate(), on_command=lambda _: None,
                          stop_speaking=lambda: None).handle(phrases[0])
    assert heard.decision.action == "drop" and "recogniser failed" in heard.decision.reason
