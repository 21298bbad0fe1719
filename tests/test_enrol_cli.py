"""``anovax enrol`` through its front door: the command on a pseudo-terminal, the sentences it shows
read aloud (espeak-ng) into a PulseAudio null sink that is the default microphone, the real
adaptation tools; then ``--status`` and ``--forget``, and the recogniser picking the transform up."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import voicegen
from anovax.voice import adapt
from pty_kit import REPO, Pty, cli_environment
from test_voice_listener import pulse  # noqa: F401 - the virtual microphone (skips without PulseAudio)

pytest.importorskip("pocketsphinx")
pytestmark = [
    pytest.mark.skipif(bool(adapt.missing_tools()), reason=f"adaptation tools missing: {adapt.missing_tools()}"),
    pytest.mark.skipif(not voicegen.have_espeak(), reason="espeak-ng is not installed"),
]


def anovax(env: dict, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "anovax", *args], env=env, cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_reading_the_sentences_aloud_adapts_the_recogniser_and_forget_undoes_it(pulse, tmp_path):  # noqa: F811
    env = {**cli_environment(tmp_path, "http://127.0.0.1:9"), **{k: pulse.env[k] for k in ("PULSE_SERVER",
                                                                                         "XDG_RUNTIME_DIR")}}
    saved = tmp_path / "data" / "anovax" / "voice" / "mllr_matrix"
    assert "general model" in anovax(env, "enrol", "--status")
    console = Pty(env, "enrol", "--count", "12")
    try:
        handled = 0
        while True:  # each sentence read aloud as it is shown (and again, if it is asked for again)
            console.read_until(b"\n", 120)
            shown = console.seen.decode(errors="replace")
            if any(end in shown for end in ("Done: ", "Only ", "Adaptation failed", "Cannot record", "Cannot save",
                                            "The microphone stopped working")):
                break
            asks = re.findall(r"\[\d+/12\] Say(?: \(again\))?: (.+?)\r?\n", shown)
            for text in asks[handled:]:
                pulse.play(voicegen.render(text.strip(), tmp_path / f"s{handled}.wav", voice="en-us+m1"))
                handled += 1
    finally:
        code = console.close()
    shown = console.seen.decode(errors="replace")
    assert code == 0, shown
    assert "skipped" not in shown, shown
    used = re.search(r"Done: (\d+) of 12 phrases used", shown)
    assert used and int(used.group(1)) >= 10, shown
    assert adapt.valid_transform(saved)
    assert "adapted to your voice" in anovax(env, "enrol", "--status")

    # the recogniser AnovaX starts with finds it in the same data folder
    probe = ("from anovax.voice.stt import SphinxCommandRecognizer as R; "
             "import sys; r = R(cache_dir=sys.argv[1]); print(r.adapted)")
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "stt")], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == str(saved), done.stdout + done.stderr

    assert "deleted" in anovax(env, "enrol", "--forget")
    assert not saved.exists()
    assert "no adaptation to delete" in anovax(env, "enrol", "--forget")


def test_without_a_microphone_it_says_so_and_saves_nothing(tmp_path):
    env = cli_environment(tmp_path, "http://127.0.0.1:9")
    env["PULSE_SERVER"] = "unix:/nonexistent/native"
    done = subprocess.run([sys.executable, "-m", "anovax", "enrol", "--count", "10"], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Cannot record" in done.stdout, done.stdout + done.stderr
    assert not (tmp_path / "data" / "anovax" / "voice" / "mllr_matrix").exists()
