"""Through the front door: dictation words and "what can I say" typed into the orb's text box
(xdotool) of the real program on Xvfb + openbox, typing into Debian's mousepad as "notepad",
read back as a person would copy it (Ctrl+A, Ctrl+C, the clipboard through xclip)."""

from __future__ import annotations

import shutil

import pytest

from helpers import wait_for
from test_orb_typing_e2e import active_is, anovax, buffer_of, desktop, mousepads, send  # noqa: F401 - fixtures
from test_orb_window import xdo, xorb  # noqa: F401 - xorb is a fixture

pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")
pytest.importorskip("mss")
pytestmark = pytest.mark.skipif(not (shutil.which("mousepad") and shutil.which("xclip")),
                                reason="needs Debian's mousepad and xclip (apt-get install mousepad xclip)")


def test_dictation_words_reach_mousepad_as_marks_and_a_line_break(anovax):
    run = anovax()
    done = send(run, "open notepad and type dear sir comma new line thank you period")
    assert done["status"] == "done", done
    window = wait_for(lambda: mousepads(run.xvfb), 10.0, "mousepad's window")[0]
    active_is(run.xvfb, window, "the focus to stay in mousepad after typing")
    # the "\n" arrived as a Return press: two lines, no space at the start of the second
    assert buffer_of(run.xvfb, window) == "dear sir,\nthank you."
    xdo(run.xvfb, "key", "ctrl+End")  # the copy left everything selected: the next words would replace it

    more = send(run, "type new paragraph cap best wishes exclamation mark")
    assert more["status"] == "done", more
    active_is(run.xvfb, window, "the focus to stay in mousepad")
    assert buffer_of(run.xvfb, window) == "dear sir,\nthank you.\n\nBest wishes!"

    # "what can I say" through the same orb: the whole list is the reply the orb shows
    from anovax.planner.handlers import help_text

    listed = send(run, "what can I say")
    assert listed["status"] == "done" and listed["message"] == help_text(), listed
