"""Hold-to-talk in the wake gate, as pure logic on a fake clock: a phrase said with the talk key
held is a command without the wake word; after the release and its grace the gate is as before;
the barge-in, overlap and question rules still apply."""

import pytest
from helpers import FakeClock

from anovax.voice.gate import WakeGate
from anovax.voice.holds import TALK_GRACE_S, TalkHolds
from anovax.voice.trust import Trust
from anovax.voice.understand import understanding


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def gate(clock):
    return WakeGate(timeout_s=30.0, clock=clock)


def say(gate, clock, text, seconds=1.0):
    """A phrase that lasts ``seconds`` and ends now; decided a moment later (recognition)."""
    start = clock() - seconds
    end = clock()
    clock.advance(0.15)
    return gate.decide(text, start, end)


def test_asleep_and_held_a_phrase_is_a_command_without_the_name(gate, clock):
    assert say(gate, clock, "open the calculator").action == "drop"
    gate.talk_started()
    clock.advance(2.0)
    decision = say(gate, clock, "open the calculator")
    assert (decision.action, decision.text, decision.reason) == ("command", "open the calculator", "talk key held")
    assert not gate.awake, "a held phrase does not wake the assistant for the phrases after it"


def test_held_a_leading_name_or_wake_words_are_stripped(gate, clock):
    gate.talk_started()
    clock.advance(1.5)
    assert say(gate, clock, "anova open notepad").text == "open notepad"
    clock.advance(1.5)
    decision = say(gate, clock, "hey anova open notepad")
    assert (decision.action, decision.text) == ("command", "open notepad")
    assert not gate.awake, "a command with the wake words uses the wake up, held or not"


def test_held_words_before_the_wake_words_do_not_drop_the_phrase(gate, clock):
    # asleep, "so hey anova…" run together is taken for a sentence said to someone else; the held
    # key says it is for AnovaX
    assert say(gate, clock, "so they said hey anova open notepad").action == "drop"
    gate.talk_started()
    clock.advance(1.5)
    decision = say(gate, clock, "so they said hey anova open notepad")
    assert (decision.action, decision.text) == ("command", "open notepad")


def test_held_the_name_alone_is_not_a_command(gate, clock):
    gate.talk_started()
    clock.advance(1.0)
    assert say(gate, clock, "anova").action == "drop"


def test_a_phrase_ending_within_the_grace_after_the_release_counts(gate, clock):
    gate.talk_started()
    clock.advance(1.5)
    gate.talk_ended()
    clock.advance(TALK_GRACE_S * 0.6)  # the listener's pause before it ends the phrase
    assert say(gate, clock, "open the calculator", seconds=1.5).action == "command"


def test_after_the_release_and_its_grace_it_is_asleep_again(gate, clock):
    gate.talk_started()
    clock.advance(1.0)
    gate.talk_ended()
    clock.advance(TALK_GRACE_S + 0.5)
    decision = say(gate, clock, "open the calculator", seconds=0.5)
    assert decision.action == "drop" and decision.reason == "asleep: no wake words"
    # a phrase that began with the key held but ran on long after the release is not held either
    gate.talk_started()
    clock.advance(0.5)
    gate.talk_ended()
    clock.advance(TALK_GRACE_S + 2.0)
    assert say(gate, clock, "open the calculator", seconds=3.0).action == "drop"


def test_a_phrase_that_ended_before_the_key_went_down_is_not_held(gate, clock):
    start, end = clock() - 1.0, clock()
    clock.advance(0.3)
    gate.talk_started()  # pressed while the earlier phrase was still being recognised
    assert gate.decide("open the calculator", start, end).action == "drop"


def test_while_it_speaks_only_a_stop_gets_through_held_or_not(gate, clock):
    gate.talk_started()
    gate.speaking_started("It is ten o'clock.")
    clock.advance(1.0)
    assert say(gate, clock, "open the calculator").action == "drop"
    assert say(gate, clock, "stop").action == "barge_in"
    gate.speaking_ended()


def test_a_held_phrase_that_overlapped_its_speech_is_still_dropped(gate, clock):
    gate.talk_started()
    gate.speaking_started("Opening the calculator.")
    clock.advance(1.0)
    gate.speaking_ended()
    clock.advance(0.1)
    decision = say(gate, clock, "open the calculator", seconds=0.5)  # began before SPEAK_END
    assert decision.action == "drop" and "overlapped" in decision.reason


def test_during_a_question_held_yes_answers_and_a_held_command_replaces_it(gate, clock):
    gate.question_asked("q1", 20.0)
    clock.advance(0.5)
    gate.talk_started()
    clock.advance(1.0)
    decision = say(gate, clock, "yes", seconds=0.5)
    assert (decision.action, decision.text, decision.question_id) == ("answer", "yes", "q1")
    gate.question_asked("q2", 20.0)
    clock.advance(1.0)
    assert say(gate, clock, "yes no", seconds=0.5).action == "drop"
    assert say(gate, clock, "cancel", seconds=0.5).action == "command"
    assert gate.question == "q2"  # a stop stops the command that asked; the question stays
    start, end = clock() - 0.5, clock()  # a command held replaces it
    replaced = gate.decide("open the calculator", start, end, Trust(None, understanding))
    assert (replaced.action, replaced.question_id) == ("command", "q2") and gate.question is None


def test_held_go_to_sleep_is_not_a_command(gate, clock):
    gate.talk_started()
    clock.advance(1.0)
    assert say(gate, clock, "go to sleep").action != "command"


def test_start_and_end_report_changes_only(gate):
    assert gate.talk_started() and gate.holds.held
    assert not gate.talk_started(), "a second press (autorepeat, the orb too) is no new hold"
    assert gate.talk_ended() and not gate.holds.held
    assert not gate.talk_ended()


def test_holds_remember_a_few_past_holds(clock):
    holds = TalkHolds(clock, grace_s=1.0)
    for _ in range(3):
        holds.start()
        clock.advance(1.0)
        holds.end()
        clock.advance(5.0)
    # the last hold ran from now-6 to now-5; a phrase inside it, decided late, still counts
    assert holds.covers(clock() - 5.8, clock() - 5.2)
    assert not holds.covers(clock() - 4.5, clock() - 4.0)  # began after release
    assert not holds.covers(clock() - 5.5, clock() - 3.5)  # ran on past the grace
