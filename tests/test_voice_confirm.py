"""Answering "Type `ls` and press Enter in Terminal?" by voice, end to end.

espeak-ng speech in a voice held out from the recogniser's tuning (tests/voicegen.py tuned on
f2, klatt4 and m1) goes through the REAL command recogniser and wake gate, the offline planner,
the safety check that holds shell input for a yes, the orchestrator that asks, and the
Confirmations broker: through ``anovax --audio-file`` (recorded time: the "yes" three seconds
after the command is heard while the command waits), through the listening thread with a
microphone, and into a real xterm on Xvfb whose $SHELL is a recorder script. Nothing waits a
fixed time: conditions are polled with deadlines.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import wait_for, voice_threads
from shell_recorder import ShellRecorder

from anovax import console_question
from anovax.app import Status, build_assistant
from anovax.confirm import Answer
from anovax.desktop.simulated import SimulatedDesktop
from anovax.memory import Memory
from anovax.settings import Settings
from anovax.voice.stt import SphinxCommandRecognizer

voicegen = pytest.importorskip("voicegen")
if not voicegen.have_espeak():
    pytest.skip("espeak-ng is not installed (Debian package espeak-ng)", allow_module_level=True)
sr = pytest.importorskip("speech_recognition")

from test_voice_listener import FakeMicrophone, pulse, pulse_env, quiet, recording  # noqa: E402,F401 - fixtures too

REPO = Path(__file__).resolve().parents[1]
#: not one of voicegen.VOICES, which the corpus and its settings were measured and tuned on
HELD_OUT_VOICE = "en-us+f1"
COMMAND = "hey anova open a terminal and type ls and press enter"
#: between the command and the answer in a recording. The recording plays in recorded time
#: while the command runs, so this is the wall-clock time the command has to put its question
#: before the answer is heard: planning and opening the simulated terminal take ~0.3 s, the
#: rest is a margin for a loaded machine (one with 3 s failed once under three parallel suites)
ANSWER_GAP_S = 8.0
#: the question's window in these runs (ANOVAX_CONFIRM_TIMEOUT's smallest useful value)
SHORT_WINDOW_S = 2


@pytest.fixture(scope="module")
def said(tmp_path_factory):
    """said(text) → a WAV of ``text`` in the held-out voice (cached)."""
    folder = tmp_path_factory.mktemp("said")
    cache: dict[str, Path] = {}

    def render(text: str) -> Path:
        if text not in cache:
            cache[text] = voicegen.render(text, folder / f"s{len(cache)}.wav", voice=HELD_OUT_VOICE)
        return cache[text]

    return render


def pause(path: Path, seconds: float) -> Path:
    """A WAV of room quiet, for a longer gap at one place in a recording."""
    import random
    import wave

    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(quiet(int(seconds * 16000), random.Random(3)))
    return path


@pytest.fixture
def cli_env(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in {"GEMINI_API_KEY", "GOOGLE_API_KEY", "DISPLAY"} and not k.startswith("ANOVAX_")}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), ANOVAX_MEMORY=str(tmp_path / "memory.json"),
               ANOVAX_LOG="off", PYTHONPATH=str(REPO))
    return env


def audio_file(env, path: Path, *args: str) -> tuple[int, list[dict]]:
    """``anovax --audio-file path --json ...``: its exit code and its output lines as JSON."""
    proc = subprocess.run([sys.executable, "-m", "anovax", "--audio-file", str(path), "--json", *args],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=180)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert proc.returncode in (0, 3), proc.stdout + proc.stderr
    return proc.returncode, lines


def events(lines: list[dict], kind: str) -> list[dict]:
    return [line for line in lines if line.get("type") == kind]


def typed(lines: list[dict]) -> list[dict]:
    return [line for line in lines if "simulated_actions" in line]


def the_question(lines: list[dict]) -> tuple[dict, dict]:
    asked, answered = events(lines, "CONFIRM_REQUESTED"), events(lines, "CONFIRM_ANSWERED")
    assert len(asked) == 1 and len(answered) == 1, [line.get("type") for line in lines]
    assert asked[0]["data"]["question"] == "Type `ls` and press Enter in Terminal?"
    assert "voice" in asked[0]["data"]["frontends"]  # the recording was being played: voice could answer
    return asked[0]["data"], answered[0]["data"]


# --- anovax --audio-file: the recording answers -----------------------------------------------------------


def test_a_spoken_yes_later_in_the_recording_types_the_held_keys(said, tmp_path, cli_env):
    path = recording(tmp_path / "yes.wav", [said(COMMAND), said("yes")], gap_s=ANSWER_GAP_S)
    code, lines = audio_file(cli_env, path, "--simulate")
    asked, answered = the_question(lines)
    heard = [e["data"] for e in events(lines, "VOICE_HEARD")]
    assert answered["answer"] == "yes" and answered["frontend"] == "voice", heard
    assert [h["action"] for h in heard] == ["command", "answer"]
    assert heard[1]["question_id"] == asked["question_id"]
    actions = typed(lines)[0]
    assert actions["typed_text"] == "ls"
    assert {"kind": "keys", "arg": "enter"} in actions["simulated_actions"]
    assert events(lines, "COMMAND_DONE")[-1]["data"]["status"] == "done" and code == 0


def test_a_spoken_no_types_nothing(said, tmp_path, cli_env):
    path = recording(tmp_path / "no.wav", [said(COMMAND), said("no")], gap_s=ANSWER_GAP_S)
    code, lines = audio_file(cli_env, path, "--simulate")
    _, answered = the_question(lines)
    assert answered["answer"] == "no" and answered["frontend"] == "voice"
    actions = typed(lines)[0]
    assert actions["typed_text"] == "" and not [a for a in actions["simulated_actions"] if a["kind"] == "keys"]
    done = events(lines, "COMMAND_DONE")[-1]["data"]
    assert done["status"] == "needs_yes" and "You said no" in done["message"] and code == 3


def test_a_new_command_said_to_anova_replaces_the_question(said, tmp_path, cli_env):
    """A first-time user's new "hey anova, …" while a question waited was dropped, as if AnovaX had
    stopped listening. Now the question is answered no and the new command runs."""
    path = recording(tmp_path / "new.wav", [said(COMMAND), said("hey anova what time is it")], gap_s=ANSWER_GAP_S)
    code, lines = audio_file(cli_env, path, "--simulate")
    asked, answered = the_question(lines)
    heard = [e["data"] for e in events(lines, "VOICE_HEARD")]
    assert answered["answer"] == "replaced" and answered["frontend"] == "voice", heard
    assert [h["action"] for h in heard] == ["command", "command"], heard
    assert heard[1]["question_id"] == asked["question_id"]
    assert typed(lines)[0]["typed_text"] == ""  # the held keys were not typed
    done = [e["data"] for e in events(lines, "COMMAND_DONE")]
    assert [d["status"] for d in done] == ["needs_yes", "done"], done
    assert done[0]["message"].startswith("You asked for something else, so I didn't"), done  # not "You said no"
    assert [s["tool"] for s in done[1]["outcome"]["steps"]] == ["get_time"], done


def test_no_answer_is_denied_after_the_window(said, tmp_path, cli_env):
    path = recording(tmp_path / "silent.wav", [said(COMMAND)], gap_s=ANSWER_GAP_S)  # "voice" listens all along
    code, lines = audio_file(dict(cli_env, ANOVAX_CONFIRM_TIMEOUT=str(SHORT_WINDOW_S)), path, "--simulate")
    _, answered = the_question(lines)
    assert answered["answer"] == "timeout" and answered["frontend"] is None
    assert typed(lines)[0]["typed_text"] == ""
    assert events(lines, "COMMAND_DONE")[-1]["data"]["status"] == "needs_yes" and code == 3


def test_a_yes_said_after_the_window_in_recorded_time_answers_nothing(said, tmp_path, cli_env):
    """The gap in the file is real time to the question: a yes five window-lengths later is too late,
    however fast the file itself is read."""
    path = recording(tmp_path / "late.wav", [said(COMMAND), pause(tmp_path / "p.wav", ANSWER_GAP_S), said("yes")],
                     gap_s=SHORT_WINDOW_S)
    code, lines = audio_file(dict(cli_env, ANOVAX_CONFIRM_TIMEOUT=str(SHORT_WINDOW_S)), path, "--simulate")
    _, answered = the_question(lines)
    assert answered["answer"] == "timeout"
    assert all(h["data"]["action"] != "answer" for h in events(lines, "VOICE_HEARD"))
    assert typed(lines)[0]["typed_text"] == ""


def test_unclear_answers_and_noise_are_not_a_yes(said, tmp_path, cli_env):
    """During the question: sound-alikes, two answers at once and a burst of noise; none answers,
    so the question runs out and nothing is typed."""
    noise = tmp_path / "noise.wav"
    if voicegen.have_sox():
        subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", str(noise), "synth", "0.6", "pinknoise",
                        "vol", "0.5"], check=True, timeout=60)
    parts = [said(COMMAND), pause(tmp_path / "p.wav", ANSWER_GAP_S - 1.0), said("yesterday"), said("yes no"),
             *([noise] if voicegen.have_sox() else [])]
    path = recording(tmp_path / "unclear.wav", parts, gap_s=1.0)
    # the window lasts past the last of them (~5 s of speech after the margin)
    code, lines = audio_file(dict(cli_env, ANOVAX_CONFIRM_TIMEOUT=str(int(ANSWER_GAP_S + 8))), path, "--simulate")
    _, answered = the_question(lines)
    # no answer: the window ran out, or the recording (the only front end) ended first
    assert answered["answer"] in ("timeout", "nobody"), [e["data"] for e in events(lines, "VOICE_HEARD")]
    heard = [e["data"] for e in events(lines, "VOICE_HEARD")]
    # (said while asleep after the command, they are dropped unreported: only the command shows)
    assert [h["action"] for h in heard[1:]] == ["drop"] * len(heard[1:]) and len(heard) >= 1, heard
    assert typed(lines)[0]["typed_text"] == "" and code == 3


# --- the listening thread: a microphone, the same recogniser and gate ------------------------------------


@pytest.fixture(scope="module")
def recognizer(tmp_path_factory):
    return SphinxCommandRecognizer(cache_dir=tmp_path_factory.mktemp("stt-cache"))


class RealTimeMicrophone(FakeMicrophone):
    """The fake microphone at the pace of speech: the gate times a phrase from when it began,
    and an answer must begin after the question was put (8x speed would date it too early)."""

    def read(self, size):
        time.sleep(size / self.SAMPLE_RATE * 7 / 8)  # FakeMicrophone itself sleeps the other 1/8
        return super().read(size)


def typed_by(desktop: SimulatedDesktop) -> list[str]:
    return [a.arg for a in desktop.actions if a.kind == "type"]


def listening(assistant, microphone, recognizer):
    from anovax.voice.listener import VoiceInput

    states, results, heard = [], [], []
    voice = VoiceInput.for_assistant(assistant, microphone_factory=lambda: microphone,
                                     recognizer_factory=lambda: recognizer, on_state=states.append,
                                     on_result=results.append, on_heard=heard.append)
    voice.start()
    wait_for(voice.settled.is_set, timeout_s=60, what="the listener to start")
    assert states[-1].state == "listening", states
    return voice, results, heard


@pytest.mark.parametrize("answer", ["yes", "no thanks"])
def test_the_microphone_answers_while_the_command_waits(answer, said, recognizer, tmp_path):
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None)
    desktop = SimulatedDesktop()
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=desktop)
    replies = []
    assistant.bus.subscribe("t", lambda e: replies.append(e.data) if e.type.value == "CONFIRM_ANSWERED" else None)
    voice = None
    try:
        # "yes" before any question: asleep, it is just a word (dropped, never reported), then the command
        mic = RealTimeMicrophone(recording(tmp_path / "cmd.wav", [said("yes"), said(COMMAND)]))
        voice, results, heard = listening(assistant, mic, recognizer)
        assert assistant.confirmations.frontends() == ("voice",)  # registered while it listens
        try:
            wait_for(lambda: assistant.confirmations.pending is not None, 30, "the question")
        except AssertionError:  # not heard as a command (the wake gate's recall is not 100%): said again
            mic.feed(recording(tmp_path / "again.wav", [said(COMMAND)]))
            wait_for(lambda: assistant.confirmations.pending is not None, 60,
                     lambda: f"the question; heard {[h.decision for h in heard]}")
        assert [h.decision.action for h in heard] == ["command"] and not typed_by(desktop)
        assert voice.pipeline.unshown >= 1
        mic.feed(recording(tmp_path / "answer.wav", [said(answer)]))
        wait_for(lambda: results, 60, lambda: f"the command's end; heard {[h.decision for h in heard]}")
        wait_for(lambda: replies, what="CONFIRM_ANSWERED")
        assert replies[0]["frontend"] == "voice", (replies, [h.decision for h in heard])
        if answer == "yes":
            assert replies[0]["answer"] == Answer.YES.value and results[0].status is Status.DONE
            assert typed_by(desktop) == ["ls"]
        else:
            assert replies[0]["answer"] == Answer.NO.value and results[0].status is Status.NEEDS_YES
            assert typed_by(desktop) == []
        voice.close()
        assert assistant.confirmations.frontends() == ()  # and unregistered once it stops
        assert not voice_threads(voice), voice_threads(voice)
    finally:
        if voice is not None:  # a failure here must not leave its threads to the next test
            voice.close()
        assistant.close()


def test_a_question_already_waiting_when_the_microphone_comes_up_can_be_answered(said, recognizer, tmp_path):
    from helpers import in_thread

    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None)
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=SimulatedDesktop())
    unregister_orb = assistant.confirmations.register("orb")  # the question went to the orb only
    try:
        question = assistant.confirmations.new_question("c1", "Type `ls` and press Enter in Terminal?", [], "xterm")
        reply = in_thread(lambda: assistant.confirmations.ask(question, None))
        wait_for(lambda: assistant.confirmations.pending is not None, what="the question")
        voice, _, heard = listening(assistant, RealTimeMicrophone(recording(tmp_path / "y.wav", [said("yes")])),
                                    recognizer)
        result = reply.result(60)
        assert result.answer is Answer.YES and result.frontend == "voice", [h.decision for h in heard]
        voice.close()
    finally:
        unregister_orb()
        assistant.close()


def test_a_muted_microphone_cannot_answer(said, recognizer, tmp_path):
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None)
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=SimulatedDesktop())
    try:
        voice, _, _ = listening(assistant, FakeMicrophone(), recognizer)
        assert assistant.confirmations.frontends() == ("voice",)
        voice.set_muted(True)
        assert assistant.confirmations.frontends() == ()
        voice.set_muted(False)
        assert assistant.confirmations.frontends() == ("voice",)
        voice.close()
        assert assistant.confirmations.frontends() == ()
    finally:
        assistant.close()


def test_the_real_microphone_path_answers(pulse_env, said, recognizer, tmp_path):
    """PulseAudio's null sink as the microphone, the phrases played into it by paplay."""
    from anovax.voice.listener import open_microphone

    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None)
    desktop = SimulatedDesktop()
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=desktop)
    voice = None
    try:
        from anovax.voice.listener import VoiceInput

        states, results, heard = [], [], []
        voice = VoiceInput.for_assistant(assistant, microphone_factory=open_microphone,
                                         recognizer_factory=lambda: recognizer, on_state=states.append,
                                         on_result=results.append, on_heard=heard.append)
        voice.start()
        wait_for(voice.settled.is_set, timeout_s=30, what="the listener to open the microphone")
        if states and states[-1].state == "unavailable":
            pytest.skip(f"PortAudio does not reach PulseAudio here: {states[-1].detail}")
        assert assistant.confirmations.frontends() == ("voice",)
        pulse_env.play(said(COMMAND))
        try:
            wait_for(lambda: assistant.confirmations.pending is not None, 30, "the question")
        except AssertionError:  # not heard as a command (the wake gate's recall is not 100%): said again
            pulse_env.play(said(COMMAND))
            wait_for(lambda: assistant.confirmations.pending is not None, 60,
                     lambda: f"the question; heard {[h.decision for h in heard]}")
        pulse_env.play(said("yes"))
        wait_for(lambda: results, 60, lambda: f"the command's end; heard {[h.decision for h in heard]}")
        assert results[0].status is Status.DONE and typed_by(desktop) == ["ls"], [h.decision for h in heard]
        voice.close()
        assert assistant.confirmations.frontends() == ()
    finally:
        if voice is not None:  # a failure here must not leave its threads to the next test
            voice.close()
        assistant.close()


def test_a_recording_stops_a_running_command_too(said, tmp_path):
    """The command runs while the recording goes on: a "cancel" in the file stops half a minute of
    typing (before, the recording waited for the command to end)."""
    from anovax.frontends import audio_file_main

    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None)
    slow = build_assistant(settings, memory=Memory(settings.memory_path),
                           desktop=SimulatedDesktop(delays={"type": 30.0}))
    path = recording(tmp_path / "stop.wav", [said("hey anova type hello world"), said("cancel")], gap_s=1.5)
    out = io.StringIO()
    finished = []
    slow.bus.subscribe("t", lambda e: finished.append(e.data) if e.type.value == "COMMAND_DONE" else None)
    try:
        audio_file_main(slow, path, False, out)
        wait_for(lambda: finished, 10, "COMMAND_DONE")
        assert 'heard "cancel" -> command "cancel"' in out.getvalue(), out.getvalue()
        assert [d["status"] for d in finished] == ["stopped"], finished
    finally:
        slow.close()


# --- a real terminal: xterm on Xvfb, its $SHELL a recorder ----------------------------------------------


@pytest.mark.parametrize("answer, expected", [("yes", ["ls"]), ("no", [])])
def test_a_spoken_answer_decides_what_reaches_a_real_terminal(answer, expected, said, tmp_path, cli_env, xvfb):
    if not xvfb.wm:
        pytest.skip("openbox is not installed: without a window manager no window gets the focus")
    shell = ShellRecorder(tmp_path / "shell")
    env = dict(cli_env, **xvfb.env, **shell.env)
    path = recording(tmp_path / "said.wav", [said(COMMAND), said(answer)], gap_s=ANSWER_GAP_S + 2.0)
    try:
        code, lines = audio_file(env, path)
        _, answered = the_question(lines)
        assert answered["answer"] == answer and answered["frontend"] == "voice"
        wait_for(shell.started, 20, "the terminal's shell to start")
        if expected:
            wait_for(lambda: shell.lines() == expected, 20, lambda: f"the typed line; got {shell.lines()!r}")
            assert code == 0
        else:
            time.sleep(1.0)  # nothing is on its way either: give a stray key time to arrive
            assert shell.lines() == [] and code == 3
    finally:
        shell.close_terminals()


# --- the console's [y/N] for a question a spoken command put: a pty, the microphone a PulseAudio sink ---


def asked_at_the_idle_console(said, tmp_path, pulse):  # noqa: ANN001, ANN201 - a pty_kit.Pty
    """A console in a pty, idle at its prompt, showing the [y/N] a spoken command put (the
    microphone a PulseAudio sink); skips where PortAudio cannot reach PulseAudio."""
    from pty_kit import Pty, cli_environment

    env = cli_environment(tmp_path, "http://127.0.0.1:9")
    env.pop("GEMINI_API_KEY", None)
    env.update(ANOVAX_PLANNER="offline", ANOVAX_VOICE="on", PULSE_SERVER=pulse.server,
               XDG_RUNTIME_DIR=pulse.env["XDG_RUNTIME_DIR"])
    term = Pty(env)
    try:
        term.read_until(b"you> ", 60)
        if b"voice input is off" in term.seen:
            pytest.skip(f"PortAudio does not reach PulseAudio here: {term.seen.decode(errors='replace')[-300:]}")
        for attempt in range(2):  # the wake gate's recall is not 100%: said again once
            pulse.play(said(COMMAND))
            try:
                term.read_until(b"[y/N] ", 30)
                break
            except AssertionError:
                if attempt:
                    raise
    except BaseException:
        if term.proc.poll() is None:
            term.proc.kill()
        raise
    return term


@pytest.mark.parametrize("typed, shows", [
    ("y", b"Typing"),
    # a new request typed at the [y/N]: the question is declined and the request runs, as when spoken
    ("what time is it", b"You asked for something else, so I didn't type into Terminal."),
    # "quit" there was a no, and the console stayed: now a no, and it ends
    ("quit", b"You said no, so I didn't type into Terminal."),
])
def test_the_idle_console_shows_a_spoken_commands_question_and_takes_the_answer(typed, shows, said, tmp_path, pulse):
    """A first-time user's spoken "open a terminal and type ls…" asked its question only in the
    event log: the console, idle at its prompt, showed nothing, and the "y" typed next ran as a
    command ("I didn't understand 'y'")."""
    from pty_kit import screen

    term = asked_at_the_idle_console(said, tmp_path, pulse)
    try:
        assert "Type `ls` and press Enter in Terminal?" in term.seen.decode(errors="replace")
        time.sleep(console_question.ANSWER_AFTER_S + 0.1)  # read first: a line sooner was typed before it
        term.type(typed + "\n")
        term.read_until(shows, 60)
        if typed == "what time is it":
            term.read_until(b"Here's the time.", 60)  # the new request ran
        if typed != "quit":
            term.type("quit\n")  # a command again, not an answer: the console ends
        assert term.close() == 0
        shown = "\n".join(screen(term.seen))
        assert "I didn't understand" not in shown, shown
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_ctrl_c_at_the_idle_consoles_question_stops_the_spoken_command(said, tmp_path, pulse):
    """Ctrl-C typed at the [y/N] a spoken command put under the idle prompt stops that command
    (nothing typed) and the console goes on, through a real terminal: the in-process test
    (test_console_idle_question.py) interrupts the main thread itself, and checks the prompt is
    drawn once. (Here, under two busy loops, the prompt was once not drawn again after "Stopped."
    within 30 s: a known race, not yet found; the console still took the next line.)"""
    from pty_kit import screen

    term = asked_at_the_idle_console(said, tmp_path, pulse)
    try:
        time.sleep(console_question.ANSWER_AFTER_S + 0.1)
        term.type("\x03")  # the terminal's own Ctrl-C: SIGINT to the foreground process
        term.read_until(b"Stopped", 30)
        time.sleep(1.0)  # the question's going away is seen within 0.1 s
        term.type("quit\n")
        assert term.close() == 0
        shown = "\n".join(screen(term.seen))
        after = shown[shown.index("Stopped"):]
        assert after.count("you> ") <= 1, after  # never drawn twice
        assert "Typing" not in shown and "I didn't understand" not in shown, shown
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
