"""Questions said aloud while voice can answer them (anovax/speech/questions.py): a first-time
user talking from across the room never saw "Did you say …?" on the screen, and it was never said."""

from __future__ import annotations

import threading

from helpers import wait_for

from anovax.app import build_assistant
from anovax.desktop.simulated import SimulatedDesktop
from anovax.events import EventType
from anovax.memory import Memory
from anovax.settings import Settings
from anovax.speech.questions import spoken_question
from anovax.voice.doubts import Doubt, confirmed


def assistant_with_speech(tmp_path, speak_s: float = 0.0):
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None)
    assistant = build_assistant(settings, memory=Memory(settings.memory_path),
                                desktop=SimulatedDesktop(delays={"speak": speak_s}))
    events = []
    assistant.bus.subscribe("test", events.append)
    return assistant, events


def spoken(events, kind=EventType.SPEAK_START):
    return [e for e in events if e.type is kind]


def test_a_doubt_is_said_while_voice_listens_and_the_answer_cuts_it_short(tmp_path):
    assistant, events = assistant_with_speech(tmp_path, speak_s=30.0)
    try:
        assistant.confirmations.register("voice")
        answer: list[bool] = []
        asking = threading.Thread(target=lambda: answer.append(
            confirmed(assistant.confirmations, Doubt("open the calculator"))), daemon=True)
        asking.start()
        wait_for(lambda: spoken(events), 10, "the question to be said")
        assert spoken(events)[0].data["text"] == "Did you say \u201copen the calculator\u201d?"
        question = next(e for e in events if e.type is EventType.CONFIRM_REQUESTED)
        assert assistant.confirmations.answer(question.data["question_id"], True, "voice")
        asking.join(10)
        assert answer == [True]
        # 30 s of speech cut short by the answer, not said to its end
        wait_for(lambda: spoken(events, EventType.SPEAK_END), 5, "the question's speech to end")
        assert spoken(events, EventType.SPEAK_END)[0].data == {"stopped": "the question was answered"}
    finally:
        assistant.close()


def test_a_question_only_the_screen_can_answer_is_not_said(tmp_path):
    assistant, events = assistant_with_speech(tmp_path)
    try:
        assistant.confirmations.register("console")
        answer: list[bool] = []
        asking = threading.Thread(target=lambda: answer.append(
            confirmed(assistant.confirmations, Doubt("open the calculator"))), daemon=True)
        asking.start()
        wait_for(lambda: [e for e in events if e.type is EventType.CONFIRM_REQUESTED], 10, "the question")
        question = next(e for e in events if e.type is EventType.CONFIRM_REQUESTED)
        assert assistant.confirmations.answer(question.data["question_id"], False, "console")
        asking.join(10)
        assistant.bus.flush()
        assert answer == [False] and spoken(events) == []
    finally:
        assistant.close()


def test_a_held_plan_s_question_is_said_without_its_code_quotes(tmp_path):
    assert spoken_question("Type `ls -la` and press Enter in\n Terminal?") == "Type ls -la and press Enter in Terminal?"
    assert spoken_question("") == ""
