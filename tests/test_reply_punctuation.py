"""Replies that quote typed words end in one mark (issue 18, round 2: "…and bread...." on the orb)."""

from __future__ import annotations

import pytest

from anovax.planner.assemble import tidy
from anovax.planner.offline import OfflinePlanner


@pytest.fixture(scope="module")
def planner() -> OfflinePlanner:
    return OfflinePlanner(strict=True)


@pytest.mark.parametrize("said, tidied", [
    ("and bread....", "and bread..."), ("foo..", "foo."), ("done!.", "done!"), ("end….", "end…"),
    ("I didn't understand 'foo.'.", "I didn't understand 'foo.'"), ('see "hi!". Okay.', 'see "hi!" Okay.'),
    ("Wait...", "Wait..."), ("Really?!", "Really?!"), ("version 1.5.", "version 1.5."), ("ok.)", "ok.)"),
])
def test_one_sentence_end(said, tidied):
    assert tidy(said) == tidied


def test_a_long_typed_text_ending_in_a_period_is_shortened_without_four_dots(planner):
    plan = planner.plan("type grocery list: milk, eggs, and bread.\n\nRemember the coffee!", current_app="notepad")
    assert plan.final_response == "Typing into Notepad: grocery list: milk, eggs, and bread..."


@pytest.mark.parametrize("text", ["type hello.", "type are you there?", "frobnicate the wug.", "search for cats."])
def test_no_doubled_marks_in_offline_replies(planner, text):
    reply = planner.plan(text, current_app="notepad").final_response
    for doubled in ("..", ".'.", "?.", "!.", "'.'"):
        assert doubled not in reply.replace("...", "…"), reply
