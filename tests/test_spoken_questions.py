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


def ask_doubt(assistant, text: str = "open the calculator"):
    """Ask "Did you say …?" on a thread, as the listener does; returns it, its answer list and the question."""
    answer: list[bool] = []
    asking = threading.Thread(target=lambda: answer.append(confirmed(assistant.confirmations, Doubt(text))),
                              daemon=True)
    asking.start()
    wait_for(lambda: assistant.confirmations.pending is not None, 10, "the question")
    return asking, answer, assistant.confirmations.pending


def spoken(events, kind=EventType.SPEAK_START):
    return [e for e in events if e.type is kind]


def test_a_doubt_is_said_while_voice_listens_and_the_answer_cuts_it_short(tmp_path):
    assistant, events = assistant_with_speech(tmp_path, speak_s=30.0)
    try:
        assistant.confirmations.register("voice")
        asking, answer, question = ask_doubt(assistant)
        wait_for(lambda: spoken(events), 10, "the question to be said")
        assert spoken(events)[0].data["text"] == "Did you say \u201copen the calculator\u201d?"
        assert assistant.confirmations.answer(question.question_id, True, "voice")
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
        asking, answer, question = ask_doubt(assistant)
        assert assistant.confirmations.answer(question.question_id, False, "console")
        asking.join(10)
        assistant.bus.flush()
        assert answer == [False] and spoken(events) == []
    finally:
        assistant.close()


def test_a_held_plan_s_question_is_said_without_its_code_quotes(tmp_path):
    assert spoken_question("Type `ls -la` and press Enter in\n Terminal?") == "Type ls -la and press Enter in Terminal?"
    assert spoken_question("") == ""
