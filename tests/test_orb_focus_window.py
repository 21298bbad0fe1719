"""Issue 16 on the real orb window (Xvfb + openbox, xdotool): activating the orb puts the
cursor in its text box, and after a command typed there the focus goes back to the person's
window only when the command acted on no window and nothing else wants the keyboard.

The window runs in the harness (tests/orb_harness.py) on a simulated desktop, whose "give the
focus back" is a recorded call; the real hand-back to a real window is in
test_orb_typing_e2e.py. Every wait polls with a deadline.
"""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

from anovax.orb import focus
from helpers import wait_for
from orb_harness import OrbProcess, active_window
from test_orb_window import click, xdo, xorb  # noqa: F401 - xorb is a fixture

pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")
pytest.importorskip("mss")

#: a screenshot that takes a minute: a command that acts on no window and runs until stopped
SLOW_SCREENSHOT_S = 60.0


@pytest.fixture(scope="module")
def orb(xorb, tmp_path_factory):  # noqa: F811
    proc = OrbProcess(xorb.env, tmp_path_factory.mktemp("orb-focus"), delays={"screenshot": SLOW_SCREENSHOT_S})
    yield proc
    assert proc.close() == 0, proc.stderr()


@pytest.fixture
def other_window(xorb, tmp_path):  # noqa: F811
    """An xterm standing for the person's window; its id."""
    env = {**os.environ, **xorb.env}
    term = subprocess.Popen(["xterm", "-title", "elsewhere", "-e", "sh", "-c", f"cat > {tmp_path / 'keys.txt'}"],
                            env=env, start_new_session=True)
    try:
        window = wait_for(lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^elsewhere$"],
                                                 env=env, capture_output=True, text=True).stdout.split(), 15.0,
                          what="the xterm window")[0]
        # a new window takes the focus when it maps: only then may the test click elsewhere
        wait_for(lambda: active_window(xorb) == window, 10.0, what="the xterm to be active")
        yield window
    finally:
        os.killpg(term.pid, signal.SIGTERM)
        term.wait(10)


def focus_of(orb_proc) -> str:
    return orb_proc.ask("inspect")["focus"]


def away(xvfb, orb_proc, window: str) -> None:
    xdo(xvfb, "windowactivate", window)
    wait_for(lambda: active_window(xvfb) == window, 10.0, what="the other window to be active")
    wait_for(lambda: focus_of(orb_proc) == "", what="the orb to lose the focus")


def tab_to_a_button(xvfb, orb_proc) -> None:
    click(xvfb, orb_proc.ask("geometry")["entry"])
    wait_for(lambda: focus_of(orb_proc).endswith("entry"), what="the text box to have the focus")
    xdo(xvfb, "key", "Tab")
    wait_for(lambda: "button" in focus_of(orb_proc), what=lambda: f"Tab to a button: {focus_of(orb_proc)}")


def send(xvfb, orb_proc, text: str) -> None:
    """Type a command into the box as a person would, and press Enter."""
    click(xvfb, orb_proc.ask("geometry")["entry"])
    wait_for(lambda: focus_of(orb_proc).endswith("entry"), what="the text box to have the focus")
    xdo(xvfb, "type", "--delay", "5", text)
    wait_for(lambda: orb_proc.ask("inspect")["entry"] == text, what=f"{text!r} in the box")
    xdo(xvfb, "key", "Return")


def decided(orb_proc, count: int) -> list[list[str]]:
    """The keeper's decisions once there are ``count`` of them."""
    return wait_for(lambda: len(d := orb_proc.ask("inspect")["focus_decisions"]) >= count and d, 30.0,
                    what=lambda: f"{count} focus decisions: {orb_proc.ask('inspect')}")


def test_activating_the_orb_by_the_window_manager_puts_the_cursor_in_the_text_box(xorb, orb, other_window):
    tab_to_a_button(xorb, orb)
    away(xorb, orb, other_window)
    xdo(xorb, "windowactivate", orb.ask("geometry")["xid"])
    wait_for(lambda: focus_of(orb).endswith("entry"), what=lambda: f"the cursor in the box: {focus_of(orb)}")


def test_a_click_anywhere_on_the_orb_puts_the_cursor_in_the_text_box(xorb, orb, other_window):
    tab_to_a_button(xorb, orb)
    away(xorb, orb, other_window)
    cx, cy, _r = orb.ask("geometry")["orb"]
    xdo(xorb, "mousemove", str(cx), str(cy), "click", "1")  # the orb itself, not the box
    wait_for(lambda: focus_of(orb).endswith("entry"), what=lambda: f"the cursor in the box: {focus_of(orb)}")
    # and typing goes there at once
    xdo(xorb, "type", "--delay", "5", "hi")
    wait_for(lambda: orb.ask("inspect")["entry"] == "hi", what="the keys in the box")
    xdo(xorb, "key", "BackSpace", "BackSpace")
    wait_for(lambda: orb.ask("inspect")["entry"] == "", what="the box to be emptied")


def test_after_a_command_that_acted_on_no_window_the_focus_goes_back(xorb, orb):
    before = len(orb.ask("inspect")["focus_decisions"])
    send(xorb, orb, "what time is it")
    decision = decided(orb, before + 1)[-1][1]
    assert decision == focus.GIVEN_BACK
    shown = wait_for(lambda: (s := orb.ask("inspect"))["given_back"] and s, what="the hand-back to run")
    assert ["return_focus"] in shown["calls"]


def test_after_a_command_that_typed_the_focus_stays_where_it_typed(xorb, orb):
    before = orb.ask("inspect")
    send(xorb, orb, "open notepad and type hi")
    send(xorb, orb, "what time is it")  # queued behind it: its decision comes second
    decisions = decided(orb, len(before["focus_decisions"]) + 2)[-2:]
    assert [why for _command, why in decisions] == [focus.ACTED, focus.GIVEN_BACK]
    after = wait_for(lambda: (s := orb.ask("inspect"))["given_back"] > before["given_back"] and s,
                     what="the hand-back to run")
    assert after["calls"].count(["return_focus"]) == before["calls"].count(["return_focus"]) + 1
    assert after["typed"].endswith("hi")


def slow_command_then_stop(xvfb, orb_proc, meanwhile) -> str:
    """Send a screenshot that runs until stopped; do ``meanwhile()``; stop it; the decision."""
    before = len(orb_proc.ask("inspect")["focus_decisions"])
    send(xvfb, orb_proc, "take a screenshot")
    wait_for(lambda: any(c.startswith("screenshot") for c in orb_proc.ask("inspect")["chips"]), 15.0,
             what="the screenshot chip")
    meanwhile()
    orb_proc.ask("submit", text="stop")  # as a stop from the phone or the voice would
    return decided(orb_proc, before + 1)[-1][1]


def test_text_in_the_box_keeps_the_keyboard_for_the_next_command(xorb, orb):
    def type_the_next_command() -> None:
        xdo(xorb, "type", "--delay", "5", "open no")
        wait_for(lambda: orb.ask("inspect")["entry"] == "open no", what="the next command in the box")
    assert slow_command_then_stop(xorb, orb, type_the_next_command) == focus.TYPING
    xdo(xorb, "key", "--repeat", "7", "BackSpace")
    wait_for(lambda: orb.ask("inspect")["entry"] == "", what="the box to be emptied")


def test_a_person_who_went_to_another_window_meanwhile_is_left_there(xorb, orb, other_window):
    assert slow_command_then_stop(xorb, orb, lambda: away(xorb, orb, other_window)) == focus.ELSEWHERE
    assert active_window(xorb) == other_window
