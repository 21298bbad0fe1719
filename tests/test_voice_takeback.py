"""Taking back a voice command: which phrases, and for how long (takeback.py); and a recording's
player handing a take-back to the stop path. Audio through the recogniser: test_voice_heard.py."""

from __future__ import annotations

import pytest

from anovax.voice.playback import PlaybackClock, RecordingPlayer
from anovax.voice.takeback import STOP_TEXT, WINDOW_S, RecentCommands, stop_text, takes_back


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("text", ["no cancel that", "No, cancel that.", "cancel that", "no stop", "no, stop it",
                                  "that's wrong", "That\u2019s wrong!", "no that's wrong", "anova, no, cancel that"])
def test_take_backs(text):
    assert takes_back(text)


@pytest.mark.parametrize("text", ["stop", "anova stop", "cancel", "no", "no thanks", "wrong number",
                                  "that's wrong with notepad", "open notepad", "", "no " * 40, None])
def test_not_take_backs(text):
    """A plain "stop" over AnovaX's voice only silences it; "no" is an answer or a word."""
    assert not takes_back(text)


def test_thats_wrong_stops_only_within_the_window_after_a_voice_command():
    clock = Clock()
    recent = RecentCommands(clock)
    assert stop_text("that's wrong", recent) is None  # no voice command yet: a sentence for the planner
    recent.began()
    assert stop_text("that's wrong", recent) == STOP_TEXT
    clock.now += WINDOW_S + 5
    assert stop_text("that's wrong", recent) == STOP_TEXT  # still running: still about it
    recent.ended()
    assert stop_text("that's wrong", recent) is None  # ended long after it began
    recent.began()
    recent.ended()  # a quick one: the window still counts from its start
    clock.now += WINDOW_S - 1
    assert stop_text("no, that's wrong", recent) == STOP_TEXT
    clock.now += 2
    assert stop_text("no, that's wrong", recent) is None


def test_the_recognisers_mishearings_of_no_take_back_only_within_the_window():
    """"no cancel that" often comes out of the offline recogniser as "go / yo / show cancel that"."""
    clock = Clock()
    recent = RecentCommands(clock)
    assert stop_text("go cancel that", recent) is None and stop_text("yo stop", recent) is None
    recent.began()
    assert stop_text("go cancel that", recent) == STOP_TEXT and stop_text("yo stop", recent) == STOP_TEXT
    assert stop_text("go", recent) is None and stop_text("show me the weather", recent) is None


def test_stop_utterances_stay_stops_at_any_time():
    recent = RecentCommands(Clock())
    for text in ("no cancel that", "cancel that", "no stop", "never mind"):
        assert stop_text(text, recent) == text
    assert stop_text("open notepad", recent) is None


def test_a_recording_takes_back_its_command_through_the_stop_path(tmp_path):
    """``--audio-file``'s player: "that's wrong" right after a queued command is run at once as a
    stop (it must not wait behind the command it stops)."""
    from anovax.voice.audio import Recording

    ran: list[str] = []
    clock = Clock()
    player = RecordingPlayer(Recording(tmp_path / "unused.wav"), run_command=ran.append,
                             clock=PlaybackClock(wall=clock))
    player.submit("that's wrong")  # nothing given yet: an ordinary command, queued
    assert ran == [] and player.busy
    player.submit("that's wrong")  # now right after one: a take-back, run at once
    assert ran == [STOP_TEXT]


def test_over_assistant_speech_no_stop_is_a_barge_in_and_a_lone_no_is_not():
    from anovax.voice.gate import WakeGate

    clock = Clock()
    gate = WakeGate(clock=clock)
    gate.speaking_started("opening notepad")
    assert gate.decide("no stop").action == "barge_in"
    assert gate.decide("no, cancel that").action == "barge_in"
    assert gate.decide("no").action == "drop"  # not a stop; a question's answer comes after the speech
