"""Where typing goes after the calculator is closed (issue 18, round 2), through the front door:
the real program with the orb on Xvfb + openbox, commands typed into the orb's box with xdotool,
Debian's mousepad as "notepad" and galculator as "the calculator". The blind user's "close the
calculator" then "type see you tomorrow" was answered "Typing into the calculator" while the keys
went elsewhere; now the reply names the window the keys really go to, and two dictated commands
into it are spaced."""

from __future__ import annotations

import shutil

import pytest

from helpers import wait_for
from test_orb_typing_e2e import active_is, anovax, buffer_of, desktop, mousepads, send  # noqa: F401 - fixtures
from test_orb_window import xorb  # noqa: F401 - a fixture
from test_window_tools_e2e import no_calculators, windows_of  # noqa: F401 - an autouse fixture

pytestmark = pytest.mark.skipif(not (shutil.which("mousepad") and shutil.which("galculator") and shutil.which("xclip")),
                                reason="needs Debian's mousepad, galculator and xclip")


def test_after_closing_the_calculator_typing_names_and_reaches_notepad(anovax):
    run = anovax()
    assert send(run, "open notepad")["status"] == "done"
    pad = wait_for(lambda: mousepads(run.xvfb), 10.0, "mousepad's window")[0]
    assert send(run, "switch to the calculator")["status"] == "done"
    wait_for(lambda: windows_of(run.xvfb, "galculator"), 10.0, "galculator's window")
    closed = send(run, "close the calculator")
    assert closed["status"] == "done", closed
    assert closed["message"] == "Closed Galculator.", closed  # no "Asking the calculator to close." first

    first = send(run, "type see you tomorrow")
    assert first["status"] == "done", first
    assert "calculator" not in first["message"].lower(), first
    assert first["message"].startswith("Typing into Mousepad"), first
    second = send(run, "type at noon period")
    assert second["status"] == "done", second
    assert buffer_of(run.xvfb, pad) == "see you tomorrow at noon."
