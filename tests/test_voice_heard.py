"""What was heard, shown privately: espeak-ng speech through the REAL recogniser and wake gate.

Only phrases that woke AnovaX or came while it was awake become VOICE_HEARD (with the words and
the gate's decision); what the room says while it sleeps is never shown, logged or sent: not in
the event log, the ``--json`` output, the console, the phone's event stream or the orb. Then
"no, cancel that" right after a voice command stops it (takeback.py).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import wait_for
from remote_kit import Stream, phone_remote

from anovax.app import Status, build_assistant
from anovax.desktop.simulated import SimulatedDesktop
from anovax.memory import Memory
from anovax.orb.model import OrbModel
from anovax.settings import Settings
from anovax.voice.gate import WakeGate
from anovax.voice.listener import Recording, VoiceInput, VoicePipeline

voicegen = pytest.importorskip("voicegen")
if not voicegen.have_espeak():
    pytest.skip("espeak-ng is not installed (Debian package espeak-ng)", allow_module_level=True)
sr = pytest.importorskip("speech_recognition")

from test_voice_listener import (  # noqa: E402,F401 - fixtures too
    REPO,
    FakeMicrophone,
    cli_env,
    recognizer,
    recording,
    renders,
)

#: said while AnovaX sleeps: the room talking (recognised word for word in every test voice)
CHATTER = "what time is it"
WOKEN = "hey anova open the browser"


def test_asleep_chatter_is_in_no_event_log_and_no_json_output(renders, tmp_path, cli_env):
    """A real ``python -m anovax --audio-file``: the woken command's phrase is in events.jsonl and
    in the ``--json`` output, the chatter before it in neither (nor on stderr)."""
    path = recording(tmp_path / "room.wav", [renders(CHATTER), renders(WOKEN)])
    log = tmp_path / "events.jsonl"
    proc = subprocess.run([sys.executable, "-m", "anovax", "--audio-file", str(path), "--json", "--dry-run"],
                          capture_output=True, text=True, env=dict(cli_env, ANOVAX_LOG=str(log)), cwd=REPO,
                          timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    logged = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    printed = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    for events in (logged, printed):
        heard = [e["data"] for e in events if e["type"] == "VOICE_HEARD"]
        assert [(h["heard"], h["action"], h["reason"]) for h in heard] == [
            (WOKEN, "command", "wake words with a command")], heard
    for where in (log.read_text(), proc.stdout, proc.stderr):
        assert CHATTER not in where and "what time" not in where


def test_asleep_chatter_is_not_printed_by_the_audio_file_console(renders, tmp_path, cli_env):
    path = recording(tmp_path / "room.wav", [renders(CHATTER), renders(WOKEN)])
    proc = subprocess.run([sys.executable, "-m", "anovax", "--audio-file", str(path), "--dry-run"],
                          capture_output=True, text=True, env=cli_env, cwd=REPO, timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f'heard "{WOKEN}" -> command "open the browser"' in proc.stdout
    assert "what time" not in proc.stdout + proc.stderr
    assert "2 phrases in" in proc.stdout  # counted, never shown
    # and said why nothing came of it (a first-time user's misses printed only "0 commands")
    assert '1 of them were not taken as commands (no clear "hey anova" and request)' in proc.stdout


def test_the_phone_stream_and_the_orb_get_only_woken_phrases(renders, recognizer, tmp_path):
    """The microphone thread into an assistant behind the phone remote: its SSE stream carries the
    woken phrase as VOICE_HEARD and not a word of the chatter; the orb, folding the same bus,
    shows the heard line."""
    mic = FakeMicrophone(recording(tmp_path / "room.wav", [renders(CHATTER), renders(WOKEN)]))
    with phone_remote(tmp_path) as (assistant, server, _frames):
        auth = {"Authorization": f"Bearer {server.token}"}
        results: list = []
        with Stream.open(server.port, "/api/events", auth, timeout=90) as stream:
            voice = VoiceInput.for_assistant(assistant, microphone_factory=lambda: mic,
                                             recognizer_factory=lambda: recognizer, on_result=results.append)
            voice.start()
            try:
                seen = []
                for event in stream.events():
                    seen.append(event)
                    if event.get("type") == "COMMAND_DONE":
                        break
            finally:
                voice.close()
        heard = [e["data"] for e in seen if e.get("type") == "VOICE_HEARD"]
        assert [(h["heard"], h["action"]) for h in heard] == [(WOKEN, "command")], heard
        assert "what time" not in json.dumps(seen)
        bus_events = assistant.bus.recent()
        assert "what time" not in json.dumps([e.to_dict() for e in bus_events])
        model = OrbModel()
        model.apply_all(bus_events)
        heard_event = next(e for e in bus_events if e.type.value == "VOICE_HEARD")
        assert model.snapshot(heard_event.ts + 1).heard_line == f'heard "{WOKEN}" → command'
        assert model.snapshot(heard_event.ts + model.heard.show_s + 1).heard_line == ""


def test_a_recording_reports_awake_drops_and_counts_asleep_ones(renders, recognizer, tmp_path):
    """The pipeline itself: a drop while awake (here: a phrase over the assistant's own voice) is
    reported with its reason; the same kind of drop while asleep is only counted."""
    path = recording(tmp_path / "r.wav", [renders(CHATTER), renders("hey anova"), renders(CHATTER)])
    rec = Recording(path)
    reported = []
    gate = WakeGate(clock=rec.now)
    pipeline = VoicePipeline(recognizer, gate, on_command=lambda text: None, stop_speaking=lambda: None,
                             report=reported.append)
    phrases = rec.phrases()
    pipeline.handle(next(phrases))  # asleep: dropped, not reported
    pipeline.handle(next(phrases))  # wakes it
    gate.speaking_started("it is noon")  # awake and speaking: the chatter is dropped, and shown
    pipeline.handle(next(phrases))
    assert [(h.decision.heard, h.decision.action) for h in reported] == [("hey anova", "wake"), (CHATTER, "drop")]
    assert reported[1].decision.reason == "the assistant is speaking"
    assert pipeline.unshown == 1


def test_chatter_after_the_sleep_timeout_is_not_reported(renders, recognizer, tmp_path):
    """Awake, then silent past the timeout: the gate has not been polled, so it falls asleep in
    the very call that drops the chatter; that drop was made asleep and is not reported."""
    path = recording(tmp_path / "r.wav", [renders("hey anova"), renders(CHATTER)], gap_s=1.5)
    rec = Recording(path)
    reported = []
    gate = WakeGate(timeout_s=1.0, clock=rec.now)
    pipeline = VoicePipeline(recognizer, gate, on_command=lambda text: None, stop_speaking=lambda: None,
                             report=reported.append)
    for phrase in rec.phrases():
        pipeline.handle(phrase)
    assert [h.decision.action for h in reported] == ["wake"] and pipeline.unshown == 1
    assert not gate.awake


# --- "no, cancel that" ----------------------------------------------------------------------------------


@pytest.fixture
def slow(tmp_path):
    """An assistant whose typing takes half a minute: a command that is still running."""
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None)
    assistant = build_assistant(settings, memory=Memory(settings.memory_path),
                                desktop=SimulatedDesktop(delays={"type": 30.0}))
    yield assistant
    assistant.close()


@pytest.mark.parametrize("speaker, words", [("en-us+f2", "no cancel that"),
                                          # heard as "go cancel that": a take-back inside the window
                                          ("en-us+klatt4", "go cancel that")])
def test_no_cancel_that_stops_the_voice_command_just_given(speaker, words, renders, recognizer, slow, tmp_path):
    mic = FakeMicrophone(recording(tmp_path / "a.wav", [renders("hey anova type hello world", speaker)]))
    heard, results = [], []
    voice = VoiceInput.for_assistant(slow, microphone_factory=lambda: mic, recognizer_factory=lambda: recognizer,
                                     on_heard=heard.append, on_result=results.append)
    voice.start()
    try:
        wait_for(lambda: slow.busy, 60, lambda: f"the typing command to start; heard {heard}")
        mic.feed(recording(tmp_path / "b.wav", [renders("no cancel that", speaker)]))
        wait_for(lambda: [r for r in results if r.status is Status.STOPPED], 30,
                 lambda: f"the command to be stopped; heard {heard}, results {results}")
        assert [h.decision.text for h in heard if h.decision.action == "command"] == ["type hello world", words]
    finally:
        voice.close()


def test_no_cancel_that_over_the_reply_stops_the_command_too(renders, recognizer, tmp_path):
    """While AnovaX speaks, "no, cancel that" is a barge-in (speech stops) that also takes back
    the command; a plain "anova stop" over its voice only silences it."""
    path = recording(tmp_path / "r.wav", [renders("no cancel that"), renders("anova stop")])
    rec = Recording(path)
    gate = WakeGate(clock=rec.now)
    calls: list[str] = []
    pipeline = VoicePipeline(recognizer, gate, on_command=calls.append, stop_speaking=lambda: calls.append("quiet"),
                             on_take_back=lambda words: calls.append(f"take back: {words}"))
    gate.speaking_started("typing hello world")
    decisions = [pipeline.handle(phrase).decision for phrase in rec.phrases()]
    assert [d.action for d in decisions] == ["barge_in", "barge_in"], decisions
    assert calls == ["quiet", "take back: no cancel that", "quiet"]


def test_a_no_that_answers_a_question_is_an_answer_not_a_take_back(recognizer, renders, tmp_path):
    """A yes/no question is open right after a voice command: "no" answers it (nothing is
    stopped), "no, cancel that" is not an answer but a stop."""
    path = recording(tmp_path / "r.wav", [renders("hey anova"), renders("no"), renders("no cancel that")])
    rec = Recording(path)
    gate = WakeGate(clock=rec.now)
    answers, commands = [], []
    pipeline = VoicePipeline(recognizer, gate, on_command=commands.append, stop_speaking=lambda: None,
                             on_answer=lambda qid, yes: answers.append((qid, yes)),
                             on_take_back=commands.append)
    phrases = rec.phrases()  # one by one: the gate's clock is the position in the file
    pipeline.handle(next(phrases))  # awake, as after a voice command
    gate.question_asked("q1", 60.0)
    pipeline.handle(next(phrases))
    assert answers == [("q1", False)] and commands == []
    gate.question_asked("q2", 60.0)
    pipeline.handle(next(phrases))
    assert answers == [("q1", False)] and commands == ["no cancel that"]


def test_a_phrase_from_the_very_start_of_a_recording_is_not_timed_before_zero():
    from types import SimpleNamespace

    from anovax.frontends import format_heard
    from anovax.voice.gate import GateDecision

    heard = SimpleNamespace(decision=GateDecision("wake", "", "wake words", "hey anova"), start=-0.001, end=2.26)
    assert format_heard(heard).startswith("[0.00-2.26 s] heard ")  # it read "[-0.00-2.26 s]"
