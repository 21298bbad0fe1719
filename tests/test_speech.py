"""Speech out as a port of its own: what is said for a command, the sound-card probe, and a
console that never sees ALSA's or aplay's noise."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from anovax.desktop.base import Cancelled, CancelToken
from anovax.outcome import Outcome, StepResult, StepStatus
from anovax.plan import Plan, Step
from anovax.results import CommandResult, Status
from anovax.safety import Rule, Verdict
from anovax.speech import SilentSpeech, TtsThread, make_speech_out, reply_to_say
from anovax.speech.speaker import said_paths
from anovax.desktop.launcher import Launcher
from anovax.speech.engine import PlayerOs
from anovax.speech.players import descendants as _descendants
from anovax.speech.probe import sound_card_problem

REPO = Path(__file__).resolve().parents[1]
ALSA_NOISE = "\n".join([
    "ALSA lib confmisc.c:855:(parse_card) cannot find card '0'",
    "ALSA lib conf.c:5180:(_snd_config_evaluate) function snd_func_card_inum returned error: No such file or directory",
    "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default",
    "aplay: main:831: audio open error: No such file or directory",
])
PLAN = Plan(steps=(Step("get_time", {}),), final_response="Here's the time.")


def result(status, message="", *, plan=PLAN, outcome=None, verdict=None):
    return CommandResult(text="t", status=status, message=message, planner="offline", command_id="c1",
                         plan=plan, outcome=outcome, verdict=verdict)


def outcome(ok: bool, spoken: str = "") -> Outcome:
    step = StepResult(0, "get_time", StepStatus.DONE if ok else StepStatus.FAILED, error=None if ok else "no clock")
    return Outcome(steps=(step,), failed=None if ok else 0, spoken=spoken)


def test_one_place_decides_what_is_said_for_each_ending():
    refusal = Verdict.refuse(Rule.PLANNER_DECLINED, "I won't do that.")
    said = "Here's the time. It's 9."
    assert reply_to_say(result(Status.DONE, said, outcome=outcome(True, said))) == said
    assert reply_to_say(result(Status.REFUSED, "I won't do that.", verdict=refusal)) == "I won't do that."
    assert reply_to_say(result(Status.FAILED, "I couldn't finish that: no clock.", outcome=outcome(False))) \
        == "I couldn't finish that: no clock."
    # silent: a stop, a dry run, a bare "Done.", and what never became a plan
    assert reply_to_say(result(Status.STOPPED, "Stopped.", outcome=outcome(True, "Here's the time."))) is None
    assert reply_to_say(result(Status.PLANNED, "Here's the time.")) is None
    assert reply_to_say(result(Status.DONE, "Done.", outcome=outcome(True))) is None
    assert reply_to_say(result(Status.REFUSED, "That is too long for one command.", plan=None)) is None
    assert reply_to_say(result(Status.FAILED, "The planner failed.", plan=None)) is None


def test_a_file_s_path_is_said_as_its_folder_and_shown_whole(tmp_path, monkeypatch):
    home = tmp_path / "home"
    shot = home / "Pictures" / "anovax-20261206-192832.png"
    shot.parent.mkdir(parents=True)
    shot.write_bytes(b"png")
    (home / "notes.txt").write_text("x")
    deep = tmp_path / "shots" / "a.png"
    deep.parent.mkdir()
    deep.write_bytes(b"png")
    monkeypatch.setenv("HOME", str(home))
    shown = "I saved a screenshot to ~/Pictures/anovax-20261206-192832.png."
    done = result(Status.DONE, shown, outcome=outcome(True, shown))
    assert reply_to_say(done) == "I saved a screenshot to your Pictures folder."
    assert done.message == shown  # the screen keeps the whole path
    assert said_paths(f"Saved to {deep} and ~/notes.txt.", home) == "Saved to the shots folder and your home folder."
    assert said_paths(f"It is at {shot}", home) == "It is at your Pictures folder"
    # not files here: a folder, a dictated path, a web page, a time, a version, a fraction
    for text in ("/usr/lib/python3.11", "the /r/python.json feed", "Visit /index.html", "It's 9.30 p.m.",
                 "version 2.5.1", "5 /10.5", "I opened example.com/index.html", "~/Pictures/missing.png",
                 "C:\\Users\\me\\shot.png"):
        assert said_paths(text, home) == text


def test_the_probe_names_a_missing_sound_card_without_alsa_noise():
    def failing(argv, **kw):
        assert argv[0] == "/usr/bin/aplay" and argv[-1] == "/dev/null"  # opens the device, plays nothing
        return subprocess.CompletedProcess(argv, 1, stderr=ALSA_NOISE.encode())

    which = {"aplay": "/usr/bin/aplay"}.get
    why = sound_card_problem(which, failing, "linux")
    assert why == "no sound card (the default sound device cannot be opened: No such file or directory)"
    assert sound_card_problem(which, lambda argv, **kw: subprocess.CompletedProcess(argv, 0, stderr=b""),
                              "linux") is None
    assert sound_card_problem(which, failing, "win32") is None  # only Linux plays through aplay
    assert sound_card_problem(lambda name: None, failing, "linux") is None  # the engine says "no aplay" itself


def test_no_sound_card_means_silent_speech_that_says_why(tmp_path):
    out = make_speech_out(tmp_path, problem=lambda: "no sound card (test)")
    assert isinstance(out, SilentSpeech) and out.unavailable == "no sound card (test)"
    out.say("Hello.", CancelToken())  # nothing to hear, nothing printed
    cancel = CancelToken()
    cancel.cancel("stop")
    with pytest.raises(Exception, match="Stopped"):
        out.say("Hello.", cancel)
    working = make_speech_out(tmp_path, problem=lambda: None)
    try:
        assert isinstance(working, TtsThread)
    finally:
        working.close()


def test_the_players_output_goes_to_the_log_not_the_console(tmp_path, capfd):
    """pyttsx3's espeak driver plays with os.system("aplay … -q"): through PlayerOs that runs
    via the launcher, so aplay's ALSA noise lands in launched.log."""
    log = tmp_path / "state" / "launched.log"
    player = tmp_path / "bin" / "aplay"
    player.parent.mkdir()
    player.write_text(f"#!/bin/sh\ncat >&2 <<'EOF'\n{ALSA_NOISE}\nEOF\necho played \"$1\"\n")
    player.chmod(0o755)
    launcher = Launcher(log)
    code = PlayerOs(launcher).system(f"{player} /tmp/tmpxyz.wav -q")
    launcher.close()
    assert code == 0
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""
    assert "ALSA lib" in log.read_text() and "played /tmp/tmpxyz.wav" in log.read_text()
    assert PlayerOs(Launcher(log)).getpid() == os.getpid()  # everything else is the real os


class _PlayingEngine:
    """pyttsx3's espeak driver in small: runAndWait plays through the driver's ``os.system``
    on a thread of its own and says "finished-utterance" once the player ends."""

    def __init__(self, player: Path) -> None:
        self._player, self._callbacks, self._text = player, {}, ""

    def connect(self, name, callback):
        self._callbacks.setdefault(name, []).append(callback)
        return (name, callback)

    def disconnect(self, token):
        self._callbacks[token[0]].remove(token[1])

    def say(self, text):
        self._text = text

    def stop(self):
        pass

    def runAndWait(self):
        def play():
            wav = f"{tempfile.gettempdir()}/anovax-test-{self._text}.wav"
            sys.modules["pyttsx3.drivers.espeak"].os.system(f"{self._player} -c 'import time; time.sleep(30)' {wav}")
            for callback in self._callbacks.get("finished-utterance", []):
                callback(name=self._text, completed=True)
        threading.Thread(target=play, daemon=True).start()


def playing(wav: str) -> list[int]:
    """Our descendants whose command line plays ``wav``."""
    found = []
    for pid in _descendants(os.getpid()):
        try:
            if wav.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            pass
    return found


def test_stopping_a_sentence_ends_its_own_player_and_no_other(tmp_path, monkeypatch):
    """A stopped sentence's aplay is ended; another aplay of ours (the next sentence's, started
    while the stop was still looking) is not. The code before ended every aplay playing a
    temporary WAV, so the next sentence could be cut by the stop of the one before."""
    player = tmp_path / "aplay"  # argv[0] "…/aplay", a WAV in the temporary folder: what a scan looks for
    player.symlink_to(sys.executable)
    launcher = Launcher(tmp_path / "launched.log")
    monkeypatch.setitem(sys.modules, "pyttsx3.drivers.espeak", SimpleNamespace(os=PlayerOs(launcher)))
    other = subprocess.Popen([str(player), "-c", "import time; time.sleep(30)",
                              f"{tempfile.gettempdir()}/anovax-test-next.wav"])
    tts = TtsThread(lambda: _PlayingEngine(player))
    try:
        token, outcome = CancelToken(), []

        def talk():
            try:
                tts.say("first", token)
                outcome.append("finished")
            except Cancelled:
                outcome.append("cancelled")

        talker = threading.Thread(target=talk, daemon=True)
        talker.start()
        end = time.monotonic() + 10
        while not (mine := playing("anovax-test-first.wav")) and time.monotonic() < end:
            time.sleep(0.01)
        assert mine, "the sentence's player never started"
        token.cancel("stopped by the user")
        talker.join(5)
        end = time.monotonic() + 5
        while playing("anovax-test-first.wav") and time.monotonic() < end:
            time.sleep(0.01)
        assert not playing("anovax-test-first.wav") and outcome == ["cancelled"]
        time.sleep(0.2)  # the stopper's polls after the player ended
        assert other.poll() is None, "the stop of one sentence ended another player"
    finally:
        tts.close()
        other.kill()
        other.wait()
        launcher.close()


@pytest.mark.parametrize("after_s", [0.0, 1.5], ids=["caller-went-on", "tts-thread-gave-up-too"])
def test_a_stop_silences_a_sentence_that_outlived_its_deadline(tmp_path, monkeypatch, after_s):
    """A sentence that plays past its deadline: its caller goes on without it (and, a moment
    later, the tts thread too), so no token reaches it. A "stop" must still end its player;
    before, stop_speaking found nothing to cancel and it played on to its end."""
    from anovax.events import EventBus
    from anovax.speech import engine
    from anovax.speech.speaker import Speaker

    monkeypatch.setattr(engine, "DEADLINE_BASE_S", 0.5)
    monkeypatch.setattr(engine, "DEADLINE_PER_CHAR_S", 0.0)
    player = tmp_path / "aplay"
    player.symlink_to(sys.executable)
    launcher = Launcher(tmp_path / "launched.log")
    monkeypatch.setitem(sys.modules, "pyttsx3.drivers.espeak", SimpleNamespace(os=PlayerOs(launcher)))
    tts = TtsThread(lambda: _PlayingEngine(player))
    speaker = Speaker(tts, EventBus())
    try:
        speaker.say("long", "c1")  # returns at its deadline, the player still playing
        assert playing("anovax-test-long.wav"), "the sentence's player should still play"
        time.sleep(after_s)
        assert speaker.stop_speaking() is True
        end = time.monotonic() + 5
        while playing("anovax-test-long.wav") and time.monotonic() < end:
            time.sleep(0.01)
        assert not playing("anovax-test-long.wav")
        end = time.monotonic() + 5  # the tts thread sees its sentence end a poll later
        while speaker.stop_speaking() and time.monotonic() < end:
            time.sleep(0.05)
        assert speaker.stop_speaking() is False  # nothing left to stop
    finally:
        tts.close()
        launcher.close()


def fake_aplay(folder: Path) -> Path:
    """An aplay for a machine with no sound card: every open fails with ALSA's noise."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "aplay"
    script.write_text(f"#!/bin/sh\ncat >&2 <<'EOF'\n{ALSA_NOISE}\nEOF\nexit 1\n")
    script.chmod(0o755)
    return script


def test_text_command_on_a_display_without_a_sound_card(xvfb, tmp_path):
    """``anovax --text "what time is it"`` under Xvfb with no sound card: the reply, one line
    saying speech is off, and nothing from ALSA or aplay."""
    bin_dir = tmp_path / "bin"
    fake_aplay(bin_dir)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANOVAX_") and k not in ("GEMINI_API_KEY",
                                                                                            "GOOGLE_API_KEY")}
    env.update(xvfb.env, PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(REPO),
               ANOVAX_MEMORY=str(tmp_path / "memory.json"), ANOVAX_LOG=str(tmp_path / "state" / "events.jsonl"),
               ANOVAX_VOICE="off", ANOVAX_ORB="off")
    proc = subprocess.run([sys.executable, "-m", "anovax", "--text", "what time is it"], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "AnovaX: Here's the time." in proc.stdout
    off = [line for line in proc.stderr.splitlines() if "speech is off" in line]
    assert off == ["anovax: speech is off: no sound card (the default sound device cannot be opened: "
                   "No such file or directory). Replies are printed only."], proc.stderr
    assert "ALSA" not in proc.stderr + proc.stdout and "aplay" not in proc.stderr + proc.stdout


def test_doctor_says_speech_out_is_unavailable_and_why(tmp_path):
    import ctypes.util
    import json

    if not (ctypes.util.find_library("espeak-ng") or ctypes.util.find_library("espeak")):
        pytest.skip("no espeak library: the doctor stops at that reason first")
    bin_dir = tmp_path / "bin"
    fake_aplay(bin_dir)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANOVAX_") and k != "DISPLAY"}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-m", "anovax", "doctor", "--json"], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=120)
    checks = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}
    speech = checks["speech out"]
    assert speech["status"] == "warn", speech
    assert speech["summary"].startswith("speech out is unavailable: no sound card (the default sound device "
                                        "cannot be opened: No such file or directory)"), speech
    assert "ALSA" not in proc.stdout + proc.stderr
