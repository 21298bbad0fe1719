"""Quiet speech brought up to where the recogniser works (anovax/voice/level.py): the level of a
phrase, the gain it gets, and the real recogniser hearing a microphone 32 dB quieter than the
voices it was tuned on, whole and while the phrase is spoken."""

from __future__ import annotations

import array
import math
import wave

import pytest

from anovax.voice import level as level_module
from anovax.voice.level import LEVEL_REF, MAX_GAIN, InputLevel, amplify, speech_level


def tone(amplitude: float, seconds: float = 0.5) -> bytes:
    n = int(16000 * seconds)
    return array.array("h", (round(amplitude * math.sin(2 * math.pi * 440 * i / 16000)) for i in range(n))).tobytes()


def test_the_level_is_the_speech_not_the_quiet_around_it_nor_one_click():
    speech = tone(8000, 0.5)
    level = speech_level(bytes(32000) + speech + bytes(32000))  # 1 s of quiet either side of 0.5 s
    assert level == pytest.approx(8000 / math.sqrt(2), rel=0.02)
    click = bytearray(bytes(64000))
    click[1000:1002] = (30000).to_bytes(2, "little", signed=True)
    assert speech_level(bytes(click)) == 0.0
    assert speech_level(b"\x01\x00" * 10) == 0.0  # shorter than a frame


def test_only_quiet_phrases_get_a_gain_and_never_more_than_the_most():
    level = InputLevel()
    assert level.gain() == 1.0  # nothing heard yet, nothing given
    loud, quiet, silent = tone(8000), tone(LEVEL_REF / 4 * math.sqrt(2)), bytes(16000)
    assert level.gain(loud) == 1.0  # the voices tuned on are left exactly as they are
    assert level.gain(quiet) == pytest.approx(4.0, rel=0.02)
    assert level.gain(tone(5)) == MAX_GAIN
    assert level.gain(silent) == 1.0


def test_the_level_rises_at_once_and_falls_by_half_a_phrase_at_most():
    level = InputLevel()
    level.heard(tone(LEVEL_REF / 8 * math.sqrt(2)))  # a quiet speaker: the next phrase gets x8
    assert level.gain() == pytest.approx(8.0, rel=0.02)
    level.heard(tone(8000))  # someone loud: at once
    assert level.gain() == 1.0
    loud = level.level
    level.heard(tone(50))  # a phrase of faint noise cannot make the next one clip
    assert level.level == pytest.approx(loud / 2)
    level.heard(tone(50))
    assert level.level == pytest.approx(loud / 4)
    level.heard(bytes(16000))  # digital silence says nothing about the level
    assert level.level == pytest.approx(loud / 4)


def test_a_phrase_is_overdriven_only_when_its_gain_takes_it_well_past_the_reference():
    normal, faint = tone(LEVEL_REF * 1.5 * math.sqrt(2)), tone(LEVEL_REF / 30 * math.sqrt(2))
    assert not level_module.overdriven(1.0, normal)  # no gain: the benchmarks' audio never
    assert level_module.overdriven(30.0, normal)  # a gain faint phrases set, on a normal one
    assert not level_module.overdriven(30.0, faint)  # the gain it needs
    at_the_edge = level_module.OVERDRIVE * LEVEL_REF / speech_level(normal)
    assert not level_module.overdriven(at_the_edge * 0.99, normal) and level_module.overdriven(at_the_edge * 1.01, normal)
    assert level_module.own_gain(faint) == pytest.approx(30.0, rel=0.01) and level_module.own_gain(normal) == 1.0
    assert level_module.own_gain(b"") == 1.0


def test_amplifying_saturates_and_a_gain_of_one_changes_nothing():
    raw = array.array("h", [1000, -1000, 20000, -20000]).tobytes()
    assert amplify(raw, 1.0) is raw
    assert list(array.array("h", amplify(raw, 2.0))) == [2000, -2000, 32767, -32768]


def test_without_audioop_the_same_samples_and_level(monkeypatch):
    """Python 3.13 dropped ``audioop``: the pure-Python ways must give what it gives."""
    raw = array.array("h", [-32768, -20001, -3, -1, 0, 1, 3, 20001, 32767] * 400).tobytes() + tone(3000)
    with_audioop = amplify(raw, 1.7), amplify(raw, 0.3), speech_level(raw)
    monkeypatch.setattr(level_module, "audioop_function", lambda _name: None)
    without = amplify(raw, 1.7), amplify(raw, 0.3), speech_level(raw)
    assert without[:2] == with_audioop[:2]
    assert without[2] == pytest.approx(with_audioop[2], abs=1.0)  # audioop's RMS is a whole number


voicegen = pytest.importorskip("voicegen")
sr = pytest.importorskip("speech_recognition")
pytest.importorskip("pocketsphinx")
if not voicegen.have_espeak():
    pytest.skip("espeak-ng is not installed (Debian package espeak-ng)", allow_module_level=True)

from anovax.voice.stt import SphinxCommandRecognizer  # noqa: E402
from test_voice_listener import anovax, cli_env, recording  # noqa: E402,F401 - cli_env is a fixture

#: heard word for word 0 of 6 times at 1/40 of the rendered level before the gain (each of them
#: lost its command: "hey anova tie", "hey anova show me", "hey anova open the moon")
QUIET = [("hey anova what time is it", "en-us+m1"), ("hey anova take a screenshot", "en-us+f2")]


def quiet(text: str, voice: str, path) -> bytes:  # noqa: ANN001
    with sr.AudioFile(str(voicegen.render(text, path, voice=voice))) as source:
        audio = sr.Recognizer().record(source)
    return array.array("h", (round(x / 40) for x in array.array("h", audio.frame_data))).tobytes()


@pytest.mark.parametrize(("text", "voice"), QUIET)
def test_a_quiet_microphone_is_heard_word_for_word(text, voice, tmp_path):
    recognizer = SphinxCommandRecognizer(cache_dir=tmp_path / "stt", adaptation=None)
    raw = quiet(text, voice, tmp_path / "q.wav")
    assert speech_level(raw) < LEVEL_REF / 10  # 32 dB under the voices the recogniser was tuned on
    heard = [recognizer.recognize(sr.AudioData(raw, 16000, 2)) for _ in range(3)]
    assert heard == [text] * 3  # the first phrase from its own level, the next ones from the last


def test_quiet_phrases_streamed_get_the_gain_the_whole_phrase_gets(tmp_path):
    whole = SphinxCommandRecognizer(cache_dir=tmp_path / "stt", adaptation=None)
    streamed = SphinxCommandRecognizer(cache_dir=tmp_path / "stt", adaptation=None)
    expected, got = [], []
    for n, (text, voice) in enumerate(QUIET * 2):
        raw = quiet(text, voice, tmp_path / f"{n}.wav")
        expected.append(whole.recognize(sr.AudioData(raw, 16000, 2)))
        utterance = streamed.begin()
        for i in range(0, len(raw), 1001):  # odd sizes: a chunk may end mid-sample
            utterance.feed(raw[i:i + 1001])
        got.append(utterance.finish())
    assert got == expected == [text for text, _voice in QUIET * 2]


def test_a_normal_phrase_after_faint_ones_streamed_is_heard_as_recognize_hears_it(tmp_path):
    # the faint phrases set a 30-fold gain; the normal one, clipped by it while it was streamed,
    # is heard again at its own gain from the cepstral mean it started with
    whole = SphinxCommandRecognizer(cache_dir=tmp_path / "stt", adaptation=None)
    streamed = SphinxCommandRecognizer(cache_dir=tmp_path / "stt", adaptation=None)
    said = [("i think we should leave at six", "en-us+m3", 33), ("did you see the match last night", "en-us+f4", 33),
            ("the coffee machine is broken again", "en-us+m3", 33), ("hey anova what time is it", "en-us+m1", 1),
            ("hey anova take a screenshot", "en-us+m1", 1)]
    expected, got = [], []
    for n, (text, voice, divisor) in enumerate(said):
        with sr.AudioFile(str(voicegen.render(text, tmp_path / f"{n}.wav", voice=voice))) as source:
            audio = sr.Recognizer().record(source)
        raw = array.array("h", (round(x / divisor) for x in array.array("h", audio.frame_data))).tobytes()
        expected.append(whole.recognize(sr.AudioData(raw, 16000, 2)))
        utterance = streamed.begin()
        for i in range(0, len(raw), 1024):
            utterance.feed(raw[i:i + 1024])
        got.append(utterance.finish())
    assert got[3:] == expected[3:] == [text for text, _voice, _divisor in said[3:]], (got, expected)


def test_a_quiet_microphone_through_the_front_door(cli_env, tmp_path):
    """``python -m anovax --audio-file``: the microphone's phrase cutter, streaming decoder, trust
    checks and gate, on three commands 26 dB quieter than the voices tuned on. Before the gain
    none of them ran ("hey anova i have me": a question; the other two not even woken)."""
    said = ["hey anova what time is it", "hey anova open the browser", "hey anova take a screenshot"]
    parts = []
    for n, text in enumerate(said):
        path = tmp_path / f"q{n}.wav"
        with wave.open(str(voicegen.render(text, tmp_path / f"r{n}.wav", voice="en-us+f2"))) as loud:
            params, samples = loud.getparams(), array.array("h", loud.readframes(loud.getnframes()))
        with wave.open(str(path), "wb") as out:
            out.setparams(params)
            out.writeframes(array.array("h", (round(x / 20) for x in samples)).tobytes())
        parts.append(path)
    proc = anovax(cli_env, "--audio-file", str(recording(tmp_path / "said.wav", parts)), "--simulate", "--verbose")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for text in said:
        assert f'heard "{text}" -> command "{text.removeprefix("hey anova ")}"' in proc.stdout, proc.stdout
    assert "3 commands" in proc.stdout


def scaled(text: str, voice: str, render_to, out, divisor: float):  # noqa: ANN001
    with wave.open(str(voicegen.render(text, render_to, voice=voice))) as source:
        params, samples = source.getparams(), array.array("h", source.readframes(source.getnframes()))
    with wave.open(str(out), "wb") as sink:
        sink.setparams(params)
        sink.writeframes(array.array("h", (round(x / divisor) for x in samples)).tobytes())
    return out


def test_a_command_at_full_level_after_faint_talk_is_heard_through_the_front_door(cli_env, tmp_path):
    """Faint talk (someone across the room, the assistant's own reply leaking into the
    microphone) set the gain for the next phrase, which was then amplified 30-fold and clipped:
    a first-time user's normal-level "hey anova what time is it" after three faint remarks was
    dropped without a word. A phrase pushed far past the level the recogniser works at is heard
    again whole, at its own gain."""
    faint = [("i think we should leave at six", "en-us+m3"), ("did you see the match last night", "en-us+f4"),
             ("the coffee machine is broken again", "en-us+m3")]
    said = ["hey anova what time is it", "hey anova take a screenshot"]
    parts = [scaled(text, voice, tmp_path / f"fr{n}.wav", tmp_path / f"f{n}.wav", 33)
             for n, (text, voice) in enumerate(faint)]
    parts += [scaled(text, "en-us+m1", tmp_path / f"lr{n}.wav", tmp_path / f"l{n}.wav", 1)
              for n, text in enumerate(said)]
    proc = anovax(cli_env, "--audio-file", str(recording(tmp_path / "said.wav", parts)), "--simulate", "--verbose")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for text in said:
        assert f'heard "{text}" -> command "{text.removeprefix("hey anova ")}"' in proc.stdout, proc.stdout


@pytest.mark.parametrize("burst", [0.03, 0.1, 0.3])
def test_a_command_after_a_burst_of_noise_is_heard_and_nothing_crashes(cli_env, tmp_path, burst):
    """A door, a cough of the fan: a short burst of noise in a quiet room is a phrase of its own,
    heard as nothing, whose level gives the next phrase a large gain. A red team's recordings
    (keyboard clicks, music, a fan that cycles) then killed the whole process with a segfault in
    pocketsphinx, 26 of 392, the decoder fed the clipped phrase again as one live block; with that
    fixed, the phrase heard again started from the noise estimate the burst left and came out as
    "do you know what what time is it". Heard again as the first phrase is, from fresh features."""
    noise = tmp_path / "burst.wav"
    with wave.open(str(noise), "wb") as sink:
        sink.setnchannels(1)
        sink.setsampwidth(2)
        sink.setframerate(16000)
        sink.writeframes(voicegen.room_noise(burst, 0.4))
    said = ["hey anova what time is it", "hey anova take a screenshot"]
    parts = [noise] + [scaled(text, "en-us+m1", tmp_path / f"lr{n}.wav", tmp_path / f"l{n}.wav", 1)
                       for n, text in enumerate(said)]
    proc = anovax(cli_env, "--audio-file", str(recording(tmp_path / "said.wav", parts, gap_s=2.0)), "--simulate",
                  "--verbose")
    assert proc.returncode == 0, (proc.returncode, proc.stdout + proc.stderr)
    for text in said:
        assert f'heard "{text}" -> command "{text.removeprefix("hey anova ")}"' in proc.stdout, proc.stdout
