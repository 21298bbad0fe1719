"""Through the front door (issue 16, "typing goes where the user was"): the real program
(`python -m anovax`, the orb window, the offline planner, the real X11 desktop) on Xvfb +
openbox, commands typed into the orb's text box with xdotool, Debian's mousepad as "notepad".

The orb has the focus whenever a command is typed into it, yet the keys must reach the window
the person was in: "press enter and type world" after "open notepad and type hello" ends as
"hello\\nworld" in mousepad; after a fresh start, "type hello" from the orb lands in the mousepad
that was active before the orb was clicked, never in the orb's own text box; and a command that
acts on no window ("what time is it") gives the focus back to mousepad. The buffer is read back
as a person would copy it: Ctrl+A, Ctrl+C in mousepad, then the clipboard (xclip). Every wait
polls observable state (the event log, the active window, the clipboard) with a deadline.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from collections.abc import Iterator

import pytest

from helpers import wait_for
from orb_harness import active_window
from test_orb_confirm_e2e import Anovax
from test_orb_window import xdo, xorb  # noqa: F401 - xorb is a fixture

pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")
pytest.importorskip("mss")
pytestmark = pytest.mark.skipif(not (shutil.which("mousepad") and shutil.which("xclip")),
                                reason="needs Debian's mousepad and xclip (apt-get install mousepad xclip)")

#: a launch, a plan and a few keys on a machine whose two cores are busy
COMMAND_S = 60.0


def mousepads(xvfb) -> list[str]:
    """The visible mousepad windows (ids as xdotool prints them).

    xdotool's search walks every window; one that goes away meanwhile (the orb's Tk windows come
    and go) makes it die of an X error with nothing printed, which is not "no mousepad": ask again."""
    for _ in range(5):
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "mousepad"],
                               env={**os.environ, **xvfb.env}, capture_output=True, text=True, timeout=20)
        if found.returncode == 0 or "X Error" not in found.stderr:
            return found.stdout.split()
    return found.stdout.split()


def the_mousepads(xvfb) -> list[str]:
    """The visible mousepads once there is at least one (a search can come while the window
    manager has one unmapped for a moment); a second one, had the keys opened it, is in the list."""
    return wait_for(lambda: mousepads(xvfb), 10.0, "a visible mousepad")


def clipboard(xvfb) -> str | None:
    """The clipboard's text, or None while nobody holds it."""
    done = subprocess.run(["xclip", "-o", "-selection", "clipboard"], env={**os.environ, **xvfb.env},
                          capture_output=True, text=True, timeout=20)
    return done.stdout if done.returncode == 0 else None


def buffer_of(xvfb, window: str) -> str:
    """What ``window`` (a mousepad) holds: select all and copy there, then read the clipboard.

    ``window`` must be the active window already: activating it here would hide a focus that
    went astray. The copy is asked again until the clipboard has changed (the keys may land
    while GTK is still drawing); a changed clipboard is what mousepad copied."""
    assert active_window(xvfb) == window, f"mousepad {window} is not the active window: {active_window(xvfb)}"
    marker = "\u2063nothing copied yet"
    subprocess.run(["xclip", "-i", "-selection", "clipboard"], input=marker, env={**os.environ, **xvfb.env},
                   text=True, timeout=20, check=True)
    wait_for(lambda: clipboard(xvfb) == marker, 10.0, "the marker in the clipboard")

    def copied() -> str | None:
        # to the focused window, as a person's keys go; --clearmodifiers: a modifier another tool
        # left down would turn the copy into another shortcut on every try (one CI run under two
        # busy loops never copied in 15 s)
        focus = subprocess.run(["xdotool", "getwindowfocus", "-f"], env={**os.environ, **xvfb.env},
                               capture_output=True, text=True, timeout=20).stdout.strip()
        if focus != window:
            # the window manager names mousepad the active window but X's keyboard focus was on no
            # window (one CI run under two busy loops, for 30 s): give the copy keys to that same
            # window. Text typed earlier into another window would still be missing from it.
            xdo(xvfb, "windowfocus", "--sync", window)
        xdo(xvfb, "key", "--clearmodifiers", "ctrl+a", "ctrl+c")
        text = clipboard(xvfb)
        return None if text is None or text == marker else text

    def why() -> str:
        focus = subprocess.run(["xdotool", "getwindowfocus", "-f", "getwindowname"], env={**os.environ, **xvfb.env},
                               capture_output=True, text=True, timeout=20)
        return (f"mousepad's text in the clipboard (still {clipboard(xvfb)!r}; active window "
                f"{active_window(xvfb)}, input focus {focus.stdout.strip() or focus.stderr.strip()!r})")
    return wait_for(copied, 30.0, why)


def close_mousepads(xvfb) -> None:
    """End the mousepads this test's runs opened, by the pid their windows name."""
    env = {**os.environ, **xvfb.env}
    for window in mousepads(xvfb):
        done = subprocess.run(["xdotool", "getwindowpid", window], env=env, capture_output=True, text=True,
                              timeout=20)
        if done.returncode == 0 and done.stdout.strip().isdigit():
            try:
                os.kill(int(done.stdout), signal.SIGKILL)  # an unsaved buffer would ask before closing
            except ProcessLookupError:
                pass
    wait_for(lambda: not mousepads(xvfb), 20.0, "the mousepads to close")


@pytest.fixture
def desktop(xorb) -> Iterator:  # noqa: F811
    """The test display with no mousepad open before the test, and none left after it."""
    close_mousepads(xorb)
    yield xorb
    close_mousepads(xorb)


@pytest.fixture
def anovax(desktop, tmp_path):
    started: list[Anovax] = []

    def start() -> Anovax:
        started.append(Anovax(desktop, tmp_path / f"run{len(started)}"))
        return started[-1]
    yield start
    for run in started:
        run.close()


def click_orb(run: Anovax) -> None:
    """Click the orb window (its top strip, where no button is), as a person going to it would;
    the text box has the keyboard once the window is active (a click anywhere on it)."""
    xdo(run.xvfb, "mousemove", "--window", run.window, "150", "95", "click", "1")
    wait_for(lambda: active_window(run.xvfb) == run.window, 10.0, "the orb to be active")


def send(run: Anovax, text: str) -> dict:
    """Click the orb, type ``text`` (into its box) and press Enter; COMMAND_DONE's data for it."""
    count = len(run.events("COMMAND_DONE"))
    click_orb(run)
    xdo(run.xvfb, "type", "--delay", "5", text)
    xdo(run.xvfb, "key", "Return")
    done = wait_for(lambda: len(found := run.events("COMMAND_DONE")) > count and found[count], COMMAND_S,
                    lambda: f"{text!r} to end: {[e['type'] for e in run.events()]}\n{run.output()}")
    received = [e["data"]["text"] for e in run.events("COMMAND_RECEIVED")]
    # exactly what was typed reached the assistant: no key of an earlier command was left in the box
    assert received[-1] == text, received
    return done["data"]


def active_is(xvfb, window: str, what: str) -> None:
    wait_for(lambda: active_window(xvfb) == window, 10.0,
             lambda: f"{what}: the active window is {active_window(xvfb)}, mousepad is {window}")


def start_mousepad(xvfb, tmp_path) -> str:
    """Mousepad as the person's own window (started by the test, not by AnovaX), active."""
    subprocess.Popen(["mousepad"], env={**os.environ, **xvfb.env}, cwd=tmp_path, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    window = wait_for(lambda: mousepads(xvfb), 30.0, "mousepad's window")[0]
    active_is(xvfb, window, "mousepad to take the focus")
    return window


def test_press_enter_and_type_world_after_open_notepad_and_type_hello_goes_to_mousepad(anovax):
    run = anovax()
    first = send(run, "open notepad and type hello")
    assert first["status"] == "done", first
    window = wait_for(lambda: mousepads(run.xvfb), 10.0, "mousepad's window")[0]
    active_is(run.xvfb, window, "the focus to stay in mousepad after typing")

    second = send(run, "press enter and type world")
    assert second["status"] == "done", second
    assert [s["tool"] for s in second["outcome"]["steps"]] == ["press_keys", "type_text"], second
    assert the_mousepads(run.xvfb) == [window]  # no second mousepad: the keys went to the first
    active_is(run.xvfb, window, "the focus to stay in mousepad after the keys")
    assert buffer_of(run.xvfb, window) == "hello\nworld"


def test_after_a_fresh_start_type_hello_lands_in_the_window_the_person_was_in(anovax, desktop, tmp_path):
    window = start_mousepad(desktop, tmp_path)  # the person is in mousepad before AnovaX starts
    run = anovax()
    done = send(run, "type hello")  # they click the orb and type there
    assert done["status"] == "done", done
    active_is(run.xvfb, window, "the focus to be in mousepad after typing")
    assert buffer_of(run.xvfb, window) == "hello"


def test_what_time_is_it_from_the_orb_gives_the_focus_back_to_mousepad(anovax, desktop, tmp_path):
    window = start_mousepad(desktop, tmp_path)
    run = anovax()
    # the person was in mousepad, clicked the orb (it is active now) and asks for the time
    done = send(run, "what time is it")
    assert done["status"] == "done", done
    assert [s["tool"] for s in done["outcome"]["steps"]] == ["get_time"], done
    active_is(run.xvfb, window, "the focus to go back to mousepad")
    # and the box is empty again: the next command is exactly what is typed next
    again = send(run, "type hi")
    assert again["status"] == "done", again
    active_is(run.xvfb, window, "the focus to be in mousepad after typing")
    assert buffer_of(run.xvfb, window) == "hi"
