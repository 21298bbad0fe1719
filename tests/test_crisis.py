"""Words that say someone is in danger take over the reply before any planner (anovax/crisis.py):
through the console's front door, with the real google-genai client pointed at the loopback fake
Gemini, the model is never asked, nothing runs, and the reply points to emergency help."""

from __future__ import annotations

import pytest
from pty_kit import Pty, cli_environment

from anovax.crisis import EMERGENCY_REPLY, SELF_HARM_REPLY, crisis_reply


@pytest.mark.parametrize(("said", "reply"), [
    ("my kitchen is on fire", EMERGENCY_REPLY),
    ("search for the easiest way to kill myself", SELF_HARM_REPLY),
    ("I\u2019m  Being ATTACKED!", EMERGENCY_REPLY),  # curly apostrophe, capitals, punctuation
])
def test_words_of_danger_are_recognised_however_written(said, reply):
    assert crisis_reply(said) == reply


@pytest.mark.parametrize("said", ["what is the suicide rate in japan", "how to treat a burn", "play firestarter",
                                  "open notepad and type hello", ""])
def test_ordinary_requests_are_not_a_crisis(said):
    assert crisis_reply(said) is None


def test_the_console_answers_danger_without_asking_the_model(tmp_path, fake_gemini):
    term = Pty(cli_environment(tmp_path, fake_gemini.base_url))
    try:
        term.read_until(b"you> ", 30)
        term.type("play something calm, i took too many pills\n")
        term.read_until(b"emergency number", 15)
        term.read_until(b"you> ", 10)
        term.type("quit\n")
    finally:
        code = term.close()
    assert code == 0
    assert fake_gemini.requests == []  # the words never left the machine
    assert b"Searching" not in term.seen
