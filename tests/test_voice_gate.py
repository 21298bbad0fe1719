"""The wake gate as pure logic (fake clock, text in, decisions out), and barge-in stopping speech
through the orchestrator without a planner."""

import threading

import pytest
from helpers import FakeClock, wait_for

from anovax.app import build_assistant
from anovax.desktop.base import CancelToken
from anovax.desktop.simulated import HANG, SimulatedDesktop
from anovax.events import EventBus, EventType
from anovax.memory import Memory
from anovax.settings import Settings
from anovax.speech import Speaker
from anovax.voice.gate import SPEECH_TAIL_S, GateDecision, WakeGate
from anovax.voice.listener import Phrase, VoicePipeline


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def gate(clock):
    return WakeGate(timeout_s=30.0, clock=clock)


def test_decisions_are_typed_dataclasses(gate):
    decision = gate.decide("hey anova open notepad")
    assert isinstance(decision, GateDecision)
    assert decision == GateDecision("command", "open notepad", "wake words with a command", "hey anova open notepad")
    assert decision.to_dict()["action"] == "command"


@pytest.mark.parametrize("phrase", ["hey anova", "hello anova", "hi anova", "yo anova", "wake up anova",
                                    "anova wake up", "Hey, Anova!", "um hey anova"])
def test_wake_words_with_the_name_wake_it(gate, phrase):
    decision = gate.decide(phrase)
    assert decision.action == "wake" and decision.text == ""
    assert gate.awake


@pytest.mark.parametrize("phrase, command", [
    ("hey anova open notepad", "open notepad"),
    ("hello anova what time is it", "what time is it"),
    ("wake up anova take a screenshot", "take a screenshot"),
    ("anova wake up open the browser", "open the browser"),
    ("Hey Anova, type Hello World.", "type Hello World"),  # an online recogniser's casing survives
])
def test_a_command_may_follow_the_wake_words(gate, phrase, command):
    decision = gate.decide(phrase)
    assert decision.action == "command" and decision.text == command
    # and the talk that follows needs the name again (issue 19: chatter after a command)
    assert not gate.awake
    assert gate.decide("open the calculator").action == "drop"


@pytest.mark.parametrize("phrase", [
    "can us hi anova time is it", "go ask hi anova take a screenshot",  # "ask Hannah" (a red team's find)
    "did you hey anova what's the date", "i told her hey anova open notepad",
])
def test_wake_words_in_the_middle_of_a_sentence_do_not_wake_it(gate, phrase):
    # a sentence said to someone else, turned into wake words part-way by the recogniser
    decision = gate.decide(phrase)
    assert decision == GateDecision("drop", "", "asleep: wake words in the middle of a sentence", phrase)
    assert not gate.awake


@pytest.mark.parametrize("phrase", ["um hey anova open notepad", "so hi anova open notepad"])
def test_one_word_before_the_wake_words_is_a_filler(gate, phrase):
    assert gate.decide(phrase) == GateDecision("command", "open notepad", "wake words with a command", phrase)


@pytest.mark.parametrize("phrase", [
    "open notepad", "what time is it", "anova", "anova open notepad",  # the name alone is not enough
    "hey", "hello there", "wake up",  # a wake word alone is not enough
    "a nova open notepad", "hey nova", "and over", "hey now", "another one", "hello nova open notepad",
    "anovax", "hey anovas",  # near misses of the word itself
    "", "   ", "...",
])
def test_everything_else_is_dropped_while_asleep(gate, phrase):
    decision = gate.decide(phrase)
    assert decision.action == "drop" and decision.text == ""
    assert not gate.awake


def test_after_the_name_alone_one_phrase_is_the_command_and_a_leading_name_is_stripped(gate):
    gate.decide("hey anova")
    assert gate.decide("").action == "drop" and gate.awake  # nothing heard: still waiting
    assert gate.decide("open notepad") == GateDecision("command", "open notepad", "awake", "open notepad")
    assert not gate.awake and gate.decide("type hello").action == "drop"  # one phrase only
    gate.decide("hey anova")
    assert gate.decide("anova type hello").text == "type hello"
    gate.decide("hey anova")
    assert gate.decide("hey anova").action == "wake" and gate.awake
    assert gate.decide("hey anova what time is it").text == "what time is it"
    assert not gate.awake


def test_go_to_sleep(gate):
    gate.decide("hey anova")
    decision = gate.decide("go to sleep")
    assert decision.action == "sleep" and not gate.awake
    assert gate.decide("open notepad").action == "drop"
    assert gate.decide("hey anova go to sleep").action == "sleep" and not gate.awake


def test_sleeps_after_the_timeout_without_a_phrase(gate, clock):
    gate.decide("hey anova")
    clock.advance(29.9)
    assert gate.poll() is None
    assert gate.decide("").action == "drop"  # a phrase (even an empty one) restarts the timeout
    clock.advance(29.9)
    assert gate.awake
    clock.advance(0.2)
    decision = gate.poll()
    assert decision is not None and decision.action == "sleep" and "30 s" in decision.reason
    assert not gate.awake
    assert gate.poll() is None  # said once


def test_a_phrase_after_the_timeout_is_judged_asleep_even_without_poll(gate, clock):
    gate.decide("hey anova")
    clock.advance(31)
    decision = gate.decide("open notepad")
    assert decision.action == "drop" and "timed out" in decision.reason


def test_time_spent_speaking_or_running_a_command_does_not_count(gate, clock):
    gate.decide("hey anova")
    gate.speaking_started("Yes?")
    clock.advance(100)
    assert gate.poll() is None and gate.awake
    gate.speaking_ended()
    clock.advance(29)
    assert gate.poll() is None
    gate.touch()  # a command finished
    clock.advance(29)
    assert gate.awake and gate.poll() is None


def test_the_timeout_is_configurable(clock):
    gate = WakeGate(timeout_s=5, clock=clock)
    gate.decide("hey anova")
    clock.advance(5)
    assert gate.poll().action == "sleep"


def test_self_speech_is_ignored(gate, clock):
    gate.decide("hey anova")
    gate.speaking_started("Say hey anova open notepad to start.")
    for phrase in ("hey anova open notepad", "open notepad", "go to sleep"):
        decision = gate.decide(phrase, clock() - 1, clock())
        assert decision.action == "drop" and decision.reason == "the assistant is speaking"
    assert gate.awake  # not even "go to sleep" said by itself counts


def test_self_speech_does_not_wake_it(gate, clock):
    gate.speaking_started("hey anova open notepad")
    assert gate.decide("hey anova open notepad").action == "drop"
    assert not gate.awake


def test_a_phrase_that_overlapped_the_speech_is_ignored(gate, clock):
    gate.decide("hey anova")
    clock.advance(1)
    started = clock()  # the capture began while the assistant was talking...
    gate.speaking_started("It's ten o'clock.")
    clock.advance(1.5)
    gate.speaking_ended()
    clock.advance(0.8)  # ...and ended after it: the listener decides once the pause is over
    decision = gate.decide("it's ten o'clock", started, clock())
    assert decision.action == "drop" and "overlapped" in decision.reason
    # a capture that began inside the tail after SPEAK_END is still the echo of the reply
    decision = gate.decide("ten o'clock", clock() - 0.8 - SPEECH_TAIL_S / 2, clock())
    assert decision.action == "drop"
    # one that began after the tail is the user again
    clock.advance(1)
    assert gate.decide("open notepad", clock() - 0.5, clock()).action == "command"


@pytest.mark.parametrize("phrase", ["stop", "cancel", "anova stop", "stop it", "cancel that please", "Stop!",
                                    "hey anova stop"])
def test_stop_or_cancel_while_speaking_is_a_barge_in(gate, phrase):
    gate.speaking_started("Here is a long answer about the weather tomorrow.")
    decision = gate.decide(phrase)
    assert decision.action == "barge_in" and decision.text == ""


def test_barge_in_works_asleep_too_but_only_while_speaking(gate):
    assert gate.decide("stop").action == "drop"  # nothing to stop, and asleep
    gate.decide("hey anova")
    assert gate.decide("stop") == GateDecision("command", "stop", "awake", "stop")  # not speaking: a command
    gate.decide("go to sleep")
    gate.speaking_started("Goodbye.")
    assert gate.decide("cancel").action == "barge_in"


def test_stop_inside_a_longer_phrase_is_not_a_barge_in(gate):
    gate.speaking_started("Opening the browser.")
    assert gate.decide("don't stop the music").action == "drop"


def test_a_stop_the_reply_itself_says_needs_the_name(gate):
    gate.speaking_started("I couldn't finish that: Stopped: cancelled.")
    decision = gate.decide("stop")
    assert decision.action == "drop" and "anova stop" in decision.reason
    assert gate.decide("anova stop").action == "barge_in"


def test_unbalanced_speak_end_is_harmless(gate):
    gate.speaking_ended()
    assert not gate.speaking
    gate.speaking_started("a")
    gate.speaking_started("b")  # nested utterances (a dialog agent, then the final reply)
    gate.speaking_ended()
    assert gate.speaking
    gate.speaking_ended()
    assert not gate.speaking


class NoPlanner:
    """Fails the test if anything is planned."""

    name = "none"

    def __init__(self):
        self.calls = []

    def plan_with_refusal(self, text, context="", *, current_app=None, cancel=None):
        self.calls.append(text)
        raise AssertionError(f"planner called with {text!r}")


class ScriptedRecognizer:
    name = "scripted"
    offline = True

    def __init__(self, *texts):
        self.texts = list(texts)

    def recognize(self, audio):
        return self.texts.pop(0)


def test_barge_in_stops_speech_without_the_planner(tmp_path):
    """A reply that would never end on its own is cut off by "stop": SPEAK_END comes, nothing planned."""
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json")
    planner = NoPlanner()
    desktop = SimulatedDesktop(delays={"speak": HANG})
    assistant = build_assistant(settings, planner=planner, memory=Memory(settings.memory_path), desktop=desktop)
    ends = []
    assistant.bus.subscribe("t", lambda e: ends.append(e) if e.type is EventType.SPEAK_END else None)
    gate = WakeGate()
    assistant.bus.subscribe("gate", lambda e: gate.speaking_started(e.data["text"])
                            if e.type is EventType.SPEAK_START else gate.speaking_ended()
                            if e.type is EventType.SPEAK_END else None)
    spoken = threading.Thread(target=assistant.speaker.say, args=("A very long reply.", "c1"), daemon=True)
    spoken.start()
    wait_for(lambda: gate.speaking, what="SPEAK_START to reach the gate")
    commands = []
    pipeline = VoicePipeline(ScriptedRecognizer("stop"), gate, on_command=commands.append,
                             stop_speaking=assistant.stop_speaking)
    heard = pipeline.handle(Phrase(audio=None, start=0.0, end=0.0))
    assert heard.decision.action == "barge_in"
    spoken.join(5)
    assert not spoken.is_alive()
    wait_for(lambda: ends, what="SPEAK_END")
    assert ends[0].data == {"stopped": "stopped by the user"}
    assert commands == [] and planner.calls == []
    wait_for(lambda: not gate.speaking, what="the gate to hear SPEAK_END")
    assert not assistant.stop_speaking()  # nothing left to stop
    assistant.close()


def test_stop_speaking_leaves_the_agent_that_spoke_alone():
    """The utterance's own token is cancelled, not the agent's: the command goes on."""
    bus = EventBus()
    speaker = Speaker(SimulatedDesktop(delays={"speak": HANG}).speech, bus)
    agent_token = CancelToken()
    spoken = threading.Thread(target=speaker.say, args=("hello", "c1", agent_token), daemon=True)
    spoken.start()
    wait_for(lambda: speaker.locks.holder("tts"), what="speech to start")
    assert speaker.stop_speaking()
    spoken.join(5)
    assert not spoken.is_alive() and not agent_token.cancelled
    assert speaker.locks.holder("tts") is None
    speaker.close()
    bus.close()


def test_an_agents_cancel_still_stops_its_speech():
    bus = EventBus()
    speaker = Speaker(SimulatedDesktop(delays={"speak": HANG}).speech, bus)
    agent_token = CancelToken()
    spoken = threading.Thread(target=speaker.say, args=("hello", "c1", agent_token), daemon=True)
    spoken.start()
    wait_for(lambda: speaker.locks.holder("tts"), what="speech to start")
    agent_token.cancel("expired")
    spoken.join(5)
    assert not spoken.is_alive()
    speaker.close()
    bus.close()


def test_stop_speaking_also_cancels_speech_waiting_for_the_tts_lock():
    bus = EventBus()
    speaker = Speaker(SimulatedDesktop(delays={"speak": HANG}).speech, bus)
    first = threading.Thread(target=speaker.say, args=("one", "c1"), daemon=True)
    first.start()
    wait_for(lambda: speaker.locks.holder("tts"), what="the first sentence")
    second = threading.Thread(target=speaker.say, args=("two", "c1"), daemon=True)
    second.start()
    wait_for(lambda: speaker.locks.stats()["tts"]["waiters"] == 1, what="the second sentence to wait")
    speaker.stop_speaking()
    first.join(5)
    second.join(5)
    assert not first.is_alive() and not second.is_alive()
    speaker.close()
    bus.close()


def test_pipeline_survives_a_failing_recognizer_and_callbacks(clock):
    class Broken:
        name, offline = "broken", True

        def recognize(self, audio):
            raise RuntimeError("decoder crashed")

    gate = WakeGate(clock=clock)
    pipeline = VoicePipeline(Broken(), gate, on_command=lambda text: 1 / 0, stop_speaking=lambda: None)
    heard = pipeline.handle(Phrase(audio=None, start=0.0, end=0.0))
    assert heard.decision.action == "drop" and "decoder crashed" in heard.decision.reason
    pipeline = VoicePipeline(ScriptedRecognizer("hey anova open notepad"), gate, on_command=lambda text: 1 / 0,
                             stop_speaking=lambda: None, report=lambda heard: 1 / 0)
    assert pipeline.handle(Phrase(audio=None, start=0.0, end=0.0)).decision.action == "command"


# --- the voice settings -----------------------------------------------------------------------------


def test_voice_settings_defaults_and_environment(tmp_path):
    from anovax.settings import load_settings

    s = load_settings(env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert (s.stt, s.voice, s.wake_timeout_s) == ("sphinx", "auto", 8.0)
    s = load_settings(env={"ANOVAX_STT": "Google", "ANOVAX_VOICE": "off", "ANOVAX_WAKE_TIMEOUT": "12.5"})
    assert (s.stt, s.voice, s.wake_timeout_s) == ("google", "off", 12.5)


def test_voice_settings_from_the_file(tmp_path):
    from anovax.settings import load_settings

    cfg = tmp_path / "c.toml"
    cfg.write_text('[anovax]\nstt = "sphinx"\nvoice = "on"\nwake_timeout_s = "45"\n')
    s = load_settings(env={}, config_file=cfg)
    assert (s.stt, s.voice, s.wake_timeout_s) == ("sphinx", "on", 45.0)


@pytest.mark.parametrize("env, fragment", [
    ({"ANOVAX_STT": "whisper"}, "ANOVAX_STT must be one of sphinx, google"),
    ({"ANOVAX_VOICE": "maybe"}, "ANOVAX_VOICE must be one of auto, on, off"),
    ({"ANOVAX_WAKE_TIMEOUT": "0"}, "ANOVAX_WAKE_TIMEOUT must be a number of seconds from 1 to 3600"),
    ({"ANOVAX_WAKE_TIMEOUT": "nan"}, "ANOVAX_WAKE_TIMEOUT"),
    ({"ANOVAX_WAKE_TIMEOUT": "soon"}, "ANOVAX_WAKE_TIMEOUT"),
])
def test_bad_voice_settings_are_config_errors(env, fragment):
    from anovax.errors import ConfigError
    from anovax.settings import load_settings

    with pytest.raises(ConfigError, match=fragment):
        load_settings(env=env)


def test_settings_know_every_recogniser():
    from anovax.settings import STT_ENGINES
    from anovax.voice.stt import STT_CHOICES

    assert STT_ENGINES == STT_CHOICES


def test_readme_says_google_sends_audio_to_google():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    row = next(line for line in readme.splitlines() if "`ANOVAX_STT`" in line and line.startswith("|"))
    assert "google" in row and "sends" in row and "Google" in row
