"""The orb's heard line: the last phrase said to AnovaX and the wake gate's decision, for a few
seconds; in the model (no Tk) and in the real window (Xvfb). The phone page words it the same."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from anovax.events import Event, EventType
from anovax.orb.heardline import heard_line
from anovax.orb.model import OrbModel

T0 = 1_000_000.0
_seq = itertools.count(1)
PAGE_JS = Path(__file__).resolve().parents[1] / "anovax" / "remote" / "page" / "app.js"


def heard(ts: float = T0, **data) -> Event:
    return Event(type=EventType.VOICE_HEARD, command_id="voice", ts=ts, seq=next(_seq), data=data)


@pytest.mark.parametrize("data, line", [
    ({"action": "command", "text": "open notepad", "heard": "hey anova open notepad", "reason": "wake words"},
     'heard "hey anova open notepad" → command'),
    ({"action": "answer", "text": "no", "heard": "no", "reason": "answer to the question"}, 'heard "no" → answered no'),
    ({"action": "wake", "text": "", "heard": "hey anova", "reason": "wake words"}, 'heard "hey anova" → awake'),
    ({"action": "barge_in", "text": "", "heard": "no stop", "reason": "'stop' while speaking"},
     'heard "no stop" → stop speaking'),
    ({"action": "drop", "text": "", "heard": "yes no", "reason": "not a clear yes or no"},
     'heard "yes no" → dropped: not a clear yes or no'),
    # a decision this orb does not know (the doubtful-phrase question): its reason is the line
    ({"action": "ask", "text": "what's the weather", "heard": "what's the weather",
      "reason": "asked: did you say what's the weather?"},
     "heard \"what's the weather\" → asked: did you say what's the weather?"),
])
def test_the_line_says_the_words_and_the_decision(data, line):
    assert heard_line(data) == line


def test_long_words_are_clipped():
    line = heard_line({"action": "command", "heard": "type " + "a" * 200, "text": "x"})
    assert len(line) < 80 and line.endswith('…" → command')


def test_the_line_shows_for_a_few_seconds_then_goes():
    model = OrbModel()
    assert model.snapshot(T0).heard_line == ""
    model.apply(heard(action="command", text="open notepad", heard="hey anova open notepad", reason="wake words"))
    snap = model.snapshot(T0 + 1)
    assert snap.heard_line == 'heard "hey anova open notepad" → command' and snap.heard == "open notepad"
    assert model.snapshot(T0 + model.heard.show_s - 0.1).heard_line
    version = model.version
    assert model.tick(T0 + model.heard.show_s) and model.version > version  # the window redraws without it
    assert model.snapshot(T0 + model.heard.show_s).heard_line == ""
    assert not model.tick(T0 + model.heard.show_s + 1)  # gone once, not every tick


def test_a_newer_phrase_replaces_the_line_and_a_drop_keeps_the_last_command():
    model = OrbModel()
    model.apply(heard(action="command", text="open notepad", heard="hey anova open notepad"))
    model.apply(heard(ts=T0 + 2, action="drop", heard="open it", reason="the assistant is speaking"))
    snap = model.snapshot(T0 + 2 + model.heard.show_s - 1)  # past the first line's time, within the second's
    assert snap.heard_line == 'heard "open it" → dropped: the assistant is speaking'
    assert snap.heard == "open notepad"


def test_the_phone_page_words_it_the_same():
    """The page's heardLine is a copy of heard_line: the same actions, the same words."""
    js = PAGE_JS.read_text()
    assert "VOICE_HEARD" not in re.search(r"const HIDDEN = new Set\(\[(.*?)\]\)", js).group(1)
    assert 'if (ev.type === "VOICE_HEARD") return heardLine(data);' in js
    for action, words in (("command", "command"), ("wake", "awake"), ("sleep", "asleep"),
                          ("barge_in", "stop speaking")):
        assert f'["{action}", "{words}"]' in js
        assert heard_line({"action": action, "heard": "x"}) == f'heard "x" → {words}'
    assert "`answered ${data.text" in js and "`dropped: ${reason}`" in js
