"""Recordings in the formats people have (anovax/voice/soundfiles.py), through ``anovax
--audio-file``: 8-bit WAV used to be heard as silence (0 phrases, exit 0), and 24-bit, float and
multichannel WAV were refused as "corrupted"; a file cut short or with no audio said nothing of
it, and its length was its header's, not what was there (a first-time user's report)."""

from __future__ import annotations

import re
import wave

import pytest

sf = pytest.importorskip("soundfile")
voicegen = pytest.importorskip("voicegen")
pytest.importorskip("speech_recognition")
pytest.importorskip("pocketsphinx")
if not voicegen.have_espeak():
    pytest.skip("espeak-ng is not installed (Debian package espeak-ng)", allow_module_level=True)

from anovax.voice.soundfiles import decode  # noqa: E402
from test_voice_listener import anovax, cli_env, recording  # noqa: E402,F401 - cli_env is a fixture

SAID = "hey anova what time is it"


@pytest.fixture(scope="module")
def said(tmp_path_factory):
    """The command rendered once, with quiet around it: 16-bit mono at 16 kHz."""
    folder = tmp_path_factory.mktemp("said")
    return recording(folder / "said.wav", [voicegen.render(SAID, folder / "r.wav", voice="en-us+m3")])


def rewritten(source, target, *, subtype: str, channels: int = 1, rate: int | None = None):  # noqa: ANN001
    data, source_rate = sf.read(str(source), dtype="float32", always_2d=True)
    if rate is not None and rate != source_rate:
        step = source_rate // rate
        data, source_rate = data[::step], rate  # no filter: a cheap phone line is what is wanted
    data = data.repeat(channels, axis=1) * ([1.0] + [0.5] * (channels - 1))  # channels that differ
    sf.write(str(target), data, source_rate, subtype=subtype)
    return target


@pytest.mark.parametrize(("subtype", "channels"), [("PCM_U8", 1), ("PCM_24", 1), ("FLOAT", 1), ("PCM_16", 6),
                                                   ("PCM_32", 2)],
                         ids=["8-bit", "24-bit", "float", "6-channel", "32-bit-stereo"])
def test_a_recording_in_any_wav_format_is_heard(said, tmp_path, cli_env, subtype, channels):
    path = rewritten(said, tmp_path / "said.wav", subtype=subtype, channels=channels)
    proc = anovax(cli_env, "--audio-file", str(path), "--dry-run")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f'heard "{SAID}" -> command "what time is it"' in proc.stdout, proc.stdout + proc.stderr
    assert "note:" not in proc.stderr


def test_a_recording_cut_short_says_so_and_how_much_is_there(said, tmp_path, cli_env):
    cut = tmp_path / "cut.wav"
    whole = said.read_bytes()
    cut.write_bytes(whole[:44 + 2 * 16000])  # the header and its first second: 16 kHz, 16-bit mono
    with wave.open(str(said)) as w:
        assert (w.getframerate(), w.getsampwidth(), w.getnchannels()) == (16000, 2, 1)
        full_s = w.getnframes() / w.getframerate()
    proc = anovax(cli_env, "--audio-file", str(cut), "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert f"(1.0 of {full_s:.1f} s are there): it may have been cut short" in proc.stderr, proc.stderr
    assert "in 1.0 s of audio" in proc.stdout, proc.stdout  # what is there, not what the header promised


def test_a_header_with_no_audio_after_it_says_so(said, tmp_path, cli_env):
    empty = tmp_path / "empty.wav"
    with wave.open(str(empty), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
    proc = anovax(cli_env, "--audio-file", str(empty), "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert "empty.wav: it holds no audio at all" in proc.stderr and "0 phrases in 0.0 s" in proc.stdout


def test_a_low_rate_recording_is_still_heard_and_the_rate_is_noted(said, tmp_path, cli_env):
    path = rewritten(said, tmp_path / "phone.wav", subtype="PCM_16", rate=8000)
    proc = anovax(cli_env, "--audio-file", str(path), "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert "recorded at 8000 Hz, below the 16000 Hz" in proc.stderr, proc.stderr


def test_what_is_not_audio_is_a_clear_error_that_names_what_can_be_read(tmp_path, cli_env):
    text = tmp_path / "notes.wav"
    text.write_text("a shopping list, not a recording\n")
    proc = anovax(cli_env, "--audio-file", str(text), "--dry-run")
    assert proc.returncode == 2
    assert "Cannot read the audio file" in proc.stderr and "WAV, FLAC, Ogg, MP3 and AIFF" in proc.stderr


def test_no_decoded_copy_is_left_behind_however_the_reading_ends(said, tmp_path, monkeypatch):
    import tempfile

    from anovax.voice.audio import Recording

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    path = rewritten(said, tmp_path / "s.wav", subtype="PCM_24")
    left = lambda: sorted(p.name for p in (tmp_path / "tmp").iterdir())  # noqa: E731
    assert len(list(Recording(path).phrases())) == 1 and left() == []  # read to the end
    phrases = Recording(path).phrases()
    next(phrases)
    assert len(left()) == 1  # the copy being read
    phrases.close()  # abandoned part-way
    assert left() == []


def test_the_decoded_copy_is_16_bit_mono_at_the_recording_s_rate_and_is_the_caller_s_to_delete(said, tmp_path):
    path = rewritten(said, tmp_path / "s.wav", subtype="FLOAT", channels=2)
    decoded = decode(path)
    try:
        with wave.open(str(decoded.path)) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, decoded.rate)
            assert w.getnframes() / w.getframerate() == pytest.approx(decoded.seconds)
        assert decoded.notes == ()
    finally:
        decoded.path.unlink()


@pytest.mark.parametrize("flags", [(), ("--verbose",)], ids=["plain", "verbose"])
def test_a_long_recording_shows_how_far_it_has_read_on_a_terminal_and_never_over_what_was_heard(tmp_path, cli_env,
                                                                                                 flags):
    """On a terminal a long file says where it is ("reading talk.wav: 0:41 of 1:12 (56%)") on a
    line rewritten in place, gone once it ends; the heard lines and results are never written
    over, nor the --verbose trace (it prints through the console's lines, which wrote over it).
    Through a pipe there is no such line (test_a_recording_in_any_wav_format_is_heard)."""
    from pty_kit import Pty, screen

    folder = tmp_path / "r"
    folder.mkdir()
    chatter = ["the meeting moved to thursday", "can you pass the salt please", "i think it will rain later",
               "we should paint the kitchen"]
    parts = []
    for i in range(6):
        parts.append(voicegen.render(chatter[i % len(chatter)], folder / f"c{i}.wav", voice="en-us+m3"))
        parts.append(voicegen.render(SAID, folder / f"s{i}.wav", voice="en-us+m3"))
    path = recording(tmp_path / "talk.wav", parts, gap_s=2.5)
    with wave.open(str(path)) as w:
        seconds = w.getnframes() / w.getframerate()
    term = Pty(cli_env, "--audio-file", str(path), "--simulate", *flags)
    try:
        term.read_until(b"phrases in", 240)
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    raw = term.seen.decode(errors="replace")
    total = f"{int(seconds) // 60}:{int(seconds) % 60:02d}"
    assert "anovax: reading talk.wav: " in raw and f" of {total} (" in raw, raw
    shown = [line for line in screen(term.seen) if line.strip()]
    assert not any("reading talk.wav" in line for line in shown), shown  # erased, not left behind
    heard = [line for line in shown if "heard " in line]
    assert len(heard) == 6, shown  # the chatter, said while asleep, is never shown
    assert all(re.fullmatch(rf'\[[0-9.]+-[0-9.]+ s\] heard "{SAID}" -> command "what time is it" \(.+\)', line)
               for line in heard), heard
    assert any(re.fullmatch(r"\d+ phrases in [0-9.]+ s of audio, 6 commands \(.+\)\.", line) for line in shown), shown


def test_progress_text_reads_like_a_player_s_clock():
    from anovax.voice.progress import clock_text, progress_text

    assert [clock_text(s) for s in (0, 59.9, 61, 3599, 3723, -1)] == ["0:00", "0:59", "1:01", "59:59", "1:02:03", "0:00"]
    assert progress_text("talk.wav", 151, 585) == "anovax: reading talk.wav: 2:31 of 9:45 (25%)"
    assert progress_text("talk.wav", 600, 585).endswith("(100%)")
    assert progress_text("talk.wav", 3, 0) == "anovax: reading talk.wav: 0:03"
