"""``anovax enrol`` with hostile input (a first-time user's and an attacker's findings): noise or the
wrong sentences read, a transform path that is a folder, a FIFO, a device or huge, a data folder
that cannot be written, a microphone that dies half-way, SIGTERM, bad arguments. Each gets a
clear line and a saved adaptation only when one was really made."""

from __future__ import annotations

import io
import os
import signal
import wave
from pathlib import Path

import pytest

import voicegen
from anovax.voice import adapt, enrol
from anovax.voice.enrol import enrol_main, prompts, read_aloud, sounds_like, transform_path

pytest.importorskip("pocketsphinx")
from anovax.voice.stt import SphinxCommandRecognizer  # noqa: E402
needs_espeak = pytest.mark.skipif(not voicegen.have_espeak(), reason="espeak-ng is not installed")
GOOD = "1\n3\n" + "".join("13\n" + " ".join(["0.5"] * 195) + "\n" for _ in range(3))


def run(*argv: str, phrases=None) -> tuple[int, str]:
    out = io.StringIO()
    try:
        code = enrol_main(list(argv), out=out, phrases=phrases)
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    return code, out.getvalue()


def never_opened(_out):
    raise AssertionError("the microphone was opened")
    yield  # pragma: no cover


def pcm(path: Path) -> bytes:
    with wave.open(str(path)) as w:
        return w.readframes(w.getnframes())


@needs_espeak
def test_noise_or_another_sentence_is_asked_for_again_then_skipped(tmp_path):
    import subprocess

    noise = tmp_path / "noise.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", str(noise), "synth", "3", "pinknoise",
                    "vol", "0.5"], check=True)
    sentences = prompts()[:3]
    takes = iter([
        pcm(voicegen.render("purple elephants dance beneath the moon", tmp_path / "w.wav")),
        pcm(noise),  # sentence 1 twice wrong: skipped
        pcm(voicegen.render(sentences[1], tmp_path / "r1.wav")),  # sentence 2 right at once
        pcm(voicegen.render("i would like a cup of tea please", tmp_path / "w2.wav")),
        pcm(voicegen.render(sentences[2], tmp_path / "r2.wav")),  # sentence 3 right the second time
    ])
    out = io.StringIO()
    kept = read_aloud(sentences, lambda: next(takes), out, sounds_like(SphinxCommandRecognizer(adaptation=None)))
    assert [text for text, _ in kept] == sentences[1:], out.getvalue()
    assert out.getvalue().count("that did not sound like this sentence") == 3
    assert out.getvalue().count("skipped") == 1


@pytest.mark.parametrize("argv", [("--count", "0"), ("--count", "-5"), ("--count", "9"), ("--count", "41"),
                                  ("--count", "abc"), ("--status", "--forget"), ("--bogus",)])
def test_bad_arguments_are_refused_before_anything_is_recorded(argv):
    code, _ = run(*argv, phrases=never_opened)
    assert code == 2
    assert not transform_path().exists()


@pytest.mark.parametrize("kind", ["folder", "fifo", "device", "huge"])
def test_a_transform_path_that_is_not_a_transform_is_never_read_as_one(tmp_path, kind):
    target = transform_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)  # reading it would block for ever
    elif kind == "device":
        target.symlink_to("/dev/zero")  # reading it would never end
    else:
        with open(target, "wb") as f:
            f.write(GOOD.encode())
            f.truncate(4 * 1024 ** 3)  # sparse: 4 GB of zeros after a valid start
    try:
        assert not adapt.valid_transform(target)
        code, said = run("--status")
        assert code == 0 and "damaged" in said
        if kind != "huge":  # (a regular file is simply replaced by the next enrolment)
            code, said = run("--count", "10", phrases=never_opened)  # refused before three minutes of reading
            assert code == 1 and "is not a file; remove it first" in said, said
        code, said = run("--forget")
        if kind == "folder":
            assert code == 1 and "is a folder" in said and target.is_dir()
        else:
            assert code == 0 and "deleted" in said and not os.path.lexists(target)
    finally:
        if target.is_dir() and not target.is_symlink():
            target.rmdir()
        elif os.path.lexists(target):
            target.unlink()


def test_a_data_folder_that_cannot_be_written_is_said_before_recording(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    code, said = run("--count", "10", phrases=never_opened)
    assert code == 1 and said.startswith("Cannot save the adaptation:") and "cannot be written" in said, said


def test_a_microphone_that_dies_half_way_is_said_and_nothing_is_saved(monkeypatch):
    monkeypatch.setattr(enrol, "sounds_like", lambda _plain: lambda _text, _pcm: True)
    calls = []

    def dying(_out):
        def record():
            calls.append(1)
            if len(calls) > 3:
                raise OSError(-9999, "Unanticipated host error")
            return b"\x10\x00" * 16000
        yield record

    code, said = run("--count", "10", phrases=dying)
    assert code == 1 and "The microphone stopped working" in said and "Unanticipated host error" in said, said
    assert not transform_path().exists()


def test_sigterm_stops_enrolment_like_ctrl_c(monkeypatch):
    monkeypatch.setattr(enrol, "sounds_like", lambda _plain: lambda _text, _pcm: True)

    def terminated(_out):
        def record():
            os.kill(os.getpid(), signal.SIGTERM)  # a closed terminal, a session ending
            return None
        yield record

    before = signal.getsignal(signal.SIGTERM)
    code, said = run("--count", "10", phrases=terminated)
    assert code == 130 and "Stopped; nothing was saved." in said, said
    assert signal.getsignal(signal.SIGTERM) is before
    assert not transform_path().exists()
