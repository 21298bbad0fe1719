""""What can I say" in the orb: the list under the reply's first line is shown line by line."""

from __future__ import annotations

import pytest

from anovax.orb.snapshot import REPLY_LINES, clip_reply
from anovax.planner.examples import INTRO
from anovax.planner.handlers import help_text
from helpers import wait_for
from test_orb_window import orb, xorb  # noqa: F401 - fixtures

pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")


def test_the_orb_shows_the_examples_one_ability_per_line(orb):  # noqa: F811
    orb.ask("submit", text="what can I say")
    shown = wait_for(lambda: "\n" in (r := orb.ask("inspect")["response"]) and r.split("\n")[0].endswith(INTRO) and r, 20.0,
                     lambda: f"the list in the orb (shows {orb.ask('inspect')['response']!r})")
    assert shown == clip_reply(help_text(), 240)
    assert shown.split("\n")[0].endswith(INTRO) and len(shown.split("\n")) == len(help_text().split("\n"))


def test_a_reply_keeps_its_lines_and_a_long_list_is_cut():
    assert clip_reply("one line   reply", 240) == "one line reply"
    assert clip_reply("head\nA: x\n\nB: y", 240) == "head\nA: x\nB: y"
    long = "\n".join(f"line {i}" for i in range(30))
    cut = clip_reply(long, 240).split("\n")
    assert len(cut) == REPLY_LINES and cut[-1] == "…"
    assert clip_reply("x" * 300, 240) == "x" * 239 + "…"


def test_the_said_first_line_does_not_replace_the_shown_list_in_the_model():
    from test_orb_model import done, ev

    from anovax.orb.model import OrbModel

    model = OrbModel()
    listing = help_text()
    model.apply(ev("COMMAND_RECEIVED", data={"text": "what can I say"}))
    model.apply(done(message=listing, text="what can I say"))
    model.apply(ev("SPEAK_START", data={"text": listing.split("\n")[0]}))  # the speaker says the first line after
    assert model.snapshot(0).response == listing
    model.apply(ev("SPEAK_START", command_id="c2", data={"text": "Something else."}))
    assert model.snapshot(0).response == "Something else."
