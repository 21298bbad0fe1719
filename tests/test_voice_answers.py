"""Answering a question by voice, as logic: the wake gate takes "yes"/"no" without the wake word
only while a question waits (fake clock), the pipeline hands them to the real Confirmations
broker, and a recording is played in recorded time (PlaybackClock)."""

from __future__ import annotations

import threading

import pytest
from helpers import FakeClock, in_thread, wait_for

from anovax.confirm import Answer, Confirmations
from anovax.events import Event, EventBus, EventType
from anovax.voice.answers import ANSWER_WORDS, NO_PHRASES, YES_PHRASES, spoken_answer
from anovax.voice.corpus import command_sentences
from anovax.voice.gate import WakeGate
from anovax.voice.trust import Trust
from anovax.voice.understand import understanding
from anovax.voice.pipeline import VoicePipeline, follow_events
from anovax.voice.playback import PlaybackClock
from anovax.voice.audio import Phrase

WINDOW_S = 20.0


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def gate(clock):
    return WakeGate(timeout_s=30.0, clock=clock)


def ask(gate, clock, question_id="q1", window_s=WINDOW_S):
    """Open a question on the gate; phrases said from now on can answer it."""
    gate.question_asked(question_id, window_s)
    clock.advance(0.5)


# --- the gate -------------------------------------------------------------------------------------


@pytest.mark.parametrize("phrase, yes", [
    ("yes", True), ("no", False), ("Yes.", True), ("No!", False), ("yes please", True), ("no thanks", False),
    ("no thank you", False), ("yes go ahead", True), ("anova yes", True), ("hey anova no", False),
    ("yes anova", True),
])
def test_a_clear_yes_or_no_answers_a_waiting_question_without_the_wake_word(gate, clock, phrase, yes):
    assert not gate.awake
    ask(gate, clock)
    decision = gate.decide(phrase)
    assert decision.action == "answer", decision
    assert decision.text == ("yes" if yes else "no") and decision.question_id == "q1"
    assert decision.to_dict()["question_id"] == "q1"
    assert not gate.awake  # answering does not wake it: the next command still needs "hey anova"


@pytest.mark.parametrize("phrase", ["yes", "no", "yes please", "no thanks"])
def test_outside_a_question_yes_and_no_are_ordinary_words(gate, phrase):
    asleep = gate.decide(phrase)
    assert asleep.action == "drop" and asleep.question_id == ""
    woken = gate.decide(f"hey anova {phrase}")  # with the wake words: a command, as any other words
    assert woken.action == "command" and woken.text == phrase
    gate.decide("hey anova")
    awake = gate.decide("yes")  # after the name alone: a command, exactly as before questions existed
    assert awake.action == "command" and awake.text == "yes" and awake.question_id == ""


@pytest.mark.parametrize("phrase", [
    "yes no", "no yes", "yes yes no", "yesterday", "yes today", "yes open notepad", "no way", "oh no",
    "yeah", "yeah no", "yes and no", "okay", "sure", "um", "nova", "type yes", "open notepad",
])
def test_anything_but_a_clear_answer_is_not_taken_during_a_question(gate, clock, phrase):
    ask(gate, clock)
    decision = gate.decide(phrase)
    assert decision.action not in ("answer", "command"), decision
    assert gate.question == "q1"  # still waiting for a real answer


def planned():
    """The trust of a phrase taken at its word, with the offline planner's reading."""
    return Trust(None, understanding)


@pytest.mark.parametrize("wake", [["hey anova open notepad"], ["hey anova", "open notepad"]],
                         ids=["wake-words", "awake"])
def test_a_new_command_said_to_anova_replaces_the_question(gate, clock, wake):
    # it was dropped: a first-time user's "hey anova, open the calculator" said while "Did you
    # say …?" waited did nothing; now the question is declined (question_id) and the command runs
    ask(gate, clock)
    for phrase in wake:
        clock.advance(0.5)
        decision = gate.decide(phrase, trust=planned())
    assert (decision.action, decision.text, decision.question_id) == ("command", "open notepad", "q1"), decision
    assert gate.question is None


@pytest.mark.parametrize("phrase", [
    # about the question, not a new request: they would act on whatever has the focus, or search
    "hey anova undo that", "hey anova close it", "hey anova go back", "hey anova do it", "hey anova please do",
    "hey anova what did you say", "hey anova repeat that", "hey anova press enter", "hey anova type ls",
    "hey anova not now",
])
def test_a_command_about_the_question_does_not_replace_it(gate, clock, phrase):
    ask(gate, clock)
    decision = gate.decide(phrase, trust=planned())
    assert decision.action == "drop" and decision.reason == "waiting for a yes or no", decision
    assert gate.question == "q1"


def test_a_command_begun_before_the_question_does_not_replace_it(gate, clock):
    began = clock()
    clock.advance(0.5)  # the question is put while the phrase is being said
    ask(gate, clock)
    decision = gate.decide("hey anova open notepad", began, clock(), trust=planned())
    assert decision.action == "drop" and gate.question == "q1", decision


def test_a_question_voice_was_not_offered_is_not_voices_to_answer():
    # a talk-key "yes" while muted (voice unregistered) answered a question only the phone was asked
    gate = WakeGate()
    follow_events(gate, Event(EventType.CONFIRM_REQUESTED, "c1", data={
        "question_id": "q1", "frontends": ["phone"], "timeout_s": 20.0}))
    assert gate.question is None
    follow_events(gate, Event(EventType.CONFIRM_REQUESTED, "c1", data={
        "question_id": "q2", "frontends": ["phone", "voice"], "timeout_s": 20.0}))
    assert gate.question == "q2"


def test_an_ambiguous_answer_says_why(gate, clock):
    ask(gate, clock)
    unclear, room = gate.decide("yes no"), gate.decide("what time is it")
    assert (unclear.reason, unclear.about_question) == ("not a clear yes or no", True)
    # the room's talk is not about the question: the pipeline never shows it
    assert (room.reason, room.about_question) == ("asleep: no wake words", False)


@pytest.mark.parametrize("phrase", ["cancel", "stop", "no stop", "anova stop", "never mind"])
def test_a_stop_during_a_question_still_stops(gate, clock, phrase):
    gate.decide("hey anova")
    ask(gate, clock)
    decision = gate.decide(phrase)
    assert decision.action == "command", decision  # the listener hands a stop to the assistant at once


def test_the_window_expires(gate, clock):
    ask(gate, clock, window_s=WINDOW_S)
    clock.advance(WINDOW_S - 1.0)
    assert gate.question == "q1"
    clock.advance(1.0)
    assert gate.question is None
    late = gate.decide("yes")
    assert late.action == "drop" and late.question_id == ""  # asleep: "yes" is just a word again


def test_an_answered_question_takes_no_second_answer(gate, clock):
    ask(gate, clock)
    assert gate.decide("no").action == "answer"
    gate.question_closed("q1")
    assert gate.decide("yes").action == "drop"
    gate.question_closed("q-unknown")  # harmless


def test_a_newer_question_replaces_the_old_one_and_a_stale_close_leaves_it(gate, clock):
    ask(gate, clock, "q1")
    ask(gate, clock, "q2")
    gate.question_closed("q1")
    decision = gate.decide("yes")
    assert decision.action == "answer" and decision.question_id == "q2"


def test_a_phrase_begun_before_the_question_is_not_its_answer(gate, clock):
    started = clock()
    clock.advance(0.2)
    gate.question_asked("q1", WINDOW_S)
    clock.advance(0.4)
    decision = gate.decide("yes", started_at=started, ended_at=clock())
    assert decision.action == "drop" and "before the question" in decision.reason
    assert decision.about_question  # an attempt at answering: shown, so the person sees why
    assert gate.decide("yes", started_at=clock() - 0.3, ended_at=clock()).action == "answer"


def test_while_the_assistant_speaks_the_question_yes_is_its_own_echo(gate, clock):
    ask(gate, clock)
    gate.speaking_started("Type ls and press Enter in Terminal? Say yes or no.")
    assert gate.decide("yes").action == "drop"
    gate.speaking_ended()
    clock.advance(1.0)
    assert gate.decide("yes").action == "answer"


def test_every_answer_form_is_in_the_closed_vocabulary():
    sentences = set(command_sentences())
    for phrase in (*YES_PHRASES, *NO_PHRASES):
        assert phrase in sentences and f"anova {phrase}" in sentences
    assert spoken_answer(["yes"]) is True and spoken_answer(["no"]) is False
    assert spoken_answer(["yes", "no"]) is None and spoken_answer([]) is None
    assert {"yes", "no"} <= ANSWER_WORDS


# --- the pipeline with the real broker ----------------------------------------------------------------


class ScriptedRecognizer:
    name, offline = "scripted", True

    def __init__(self, *texts):
        self.texts = list(texts)

    def recognize(self, audio):
        return self.texts.pop(0)


def voice_answering(confirmations, bus, gate, *texts):
    """A pipeline as the listener builds it: gate following the bus, answers to the broker, the
    offline planner's reading of requests."""
    commands: list[str] = []
    bus.subscribe("gate", lambda event: follow_events(gate, event))
    pipeline = VoicePipeline(ScriptedRecognizer(*texts), gate, on_command=commands.append,
                             stop_speaking=lambda: None, understands=understanding,
                             on_answer=lambda qid, yes: confirmations.answer(qid, yes, "voice"))
    return pipeline, commands


def phrase_now():
    """A phrase begun and ended just now (after the question was put)."""
    import time

    now = time.monotonic()
    return Phrase(audio=None, start=now, end=now)


@pytest.mark.parametrize("said, answer, action, run", [
    ("yes", Answer.YES, "answer", []), ("no thanks", Answer.NO, "answer", []),
    # a new request replaces the question: declined first, so the held plan does not run
    ("hey anova open the calculator", Answer.REPLACED, "command", ["open the calculator"]),
])
def test_a_spoken_answer_reaches_the_broker(said, answer, action, run):
    bus = EventBus()
    confirmations = Confirmations(bus, timeout_s=30.0)
    unregister = confirmations.register("voice")
    gate = WakeGate()
    pipeline, commands = voice_answering(confirmations, bus, gate, said)
    question = confirmations.new_question("c1", "Type `ls` and press Enter in Terminal?",
                                          [{"index": 1, "tool": "type_text", "params": {"text": "ls"}}], "xterm")
    reply = in_thread(lambda: confirmations.ask(question, None))
    wait_for(lambda: gate.question == question.question_id, what="CONFIRM_REQUESTED at the gate")
    heard = pipeline.handle(phrase_now())
    assert heard.decision.action == action
    result = reply.result(10)
    assert result.answer is answer and result.frontend == "voice"
    assert commands == run
    wait_for(lambda: gate.question is None, what="CONFIRM_ANSWERED at the gate")
    unregister()
    bus.close()


def test_no_answer_is_denied_after_the_window_and_yes_then_is_a_word_again():
    bus = EventBus()
    confirmations = Confirmations(bus, timeout_s=0.5)
    confirmations.register("voice")
    gate = WakeGate()
    pipeline, commands = voice_answering(confirmations, bus, gate, "yes")
    question = confirmations.new_question("c1", "Type `ls`?", [], "xterm")
    reply = confirmations.ask(question, None)
    assert reply.answer is Answer.TIMEOUT and reply.frontend is None
    wait_for(lambda: gate.question is None, what="CONFIRM_ANSWERED at the gate")
    assert pipeline.handle(phrase_now()).decision.action == "drop"  # asleep, no question: dropped
    assert commands == []
    bus.close()


def test_a_question_nobody_could_answer_opens_no_window():
    bus = EventBus()
    confirmations = Confirmations(bus)  # nobody registered: denied at once
    gate = WakeGate()
    seen = threading.Event()
    bus.subscribe("gate", lambda event: follow_events(gate, event))
    bus.subscribe("seen", lambda event: seen.set() if event.type is EventType.CONFIRM_ANSWERED else None)
    reply = confirmations.ask(confirmations.new_question("c1", "Type `ls`?", [], "xterm"), None)
    assert reply.answer is Answer.NOBODY
    wait_for(seen.is_set, what="CONFIRM_ANSWERED")
    bus.flush()
    assert gate.question is None and gate.decide("yes").action == "drop"
    bus.close()


# --- recorded time -------------------------------------------------------------------------------------


def test_playback_clock_follows_the_wall_clock_and_only_skips_forward():
    wall = FakeClock(500.0)
    clock = PlaybackClock(wall)
    assert clock.now() == 0.0
    wall.advance(2.0)
    assert clock.now() == 2.0
    clock.skip_to(10.0)  # nothing running: straight to the next phrase
    assert clock.now() == 10.0
    clock.skip_to(4.0)  # never back
    assert clock.now() == 10.0
    wall.advance(1.5)
    assert clock.now() == 11.5


def test_what_is_dropped_while_a_question_waits_is_shown_and_not_before_or_after():
    # a first-time user's "hey anova, do it" and an unclear "yes no" during a question left no
    # trace: the question invites speech without the wake word, so what it drops then is shown
    gate, reported = WakeGate(), []
    said = ("open notepad", "yes no", "hey anova do it", "can you pass the salt", "open notepad")
    pipeline = VoicePipeline(ScriptedRecognizer(*said), gate, on_command=lambda text: None,
                             stop_speaking=lambda: None, report=reported.append, understands=understanding)
    pipeline.handle(phrase_now())  # asleep, no question: the room talking, only counted
    gate.question_asked("q1", 20.0)
    for _ in range(3):  # the room talking during the question ("pass the salt") is not shown either
        pipeline.handle(phrase_now())
    gate.question_closed("q1")
    pipeline.handle(phrase_now())
    assert [(h.decision.heard, h.decision.action) for h in reported] == [("yes no", "drop"),
                                                                         ("hey anova do it", "drop")]
    assert [h.decision.reason for h in reported] == ["not a clear yes or no", "waiting for a yes or no"]
    assert pipeline.unshown == 3
