"""Window tools through the front door (issue 18, point 1): the real program with the orb, the
offline planner and the real X11 desktop on Xvfb + openbox, commands typed into the orb's text box
with xdotool; Debian's mousepad as "notepad" and galculator as "the calculator".

"open notepad", "open the calculator", "switch to notepad" leaves exactly one mousepad window, and
it has the focus (counted with ``xdotool search --onlyvisible --class``). Closing asks the app
politely: with unsaved text mousepad's own "save changes?" dialog comes up, AnovaX says so, and
the window is not lost; without, the window goes. Minimise and maximise are read back from
``_NET_WM_STATE`` with python-xlib (the state the window manager published).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess

import pytest

from helpers import wait_for
from orb_harness import active_window
from test_orb_typing_e2e import active_is, anovax, buffer_of, desktop, mousepads, send, xdo  # noqa: F401 - fixtures
from test_orb_window import xorb  # noqa: F401 - a fixture

pytestmark = pytest.mark.skipif(not (shutil.which("mousepad") and shutil.which("galculator") and shutil.which("xclip")),
                                reason="needs Debian's mousepad, galculator and xclip")


def windows_of(xvfb, klass: str) -> list[str]:
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", klass],
                           env={**os.environ, **xvfb.env}, capture_output=True, text=True, timeout=20)
    return found.stdout.split()


def net_wm_state(xvfb, window: str) -> set[str]:
    """The _NET_WM_STATE atoms of ``window``, by name."""
    from Xlib import X

    from anovax.desktop.x11_focus import open_display

    d = open_display(xvfb.display)
    try:
        win = d.create_resource_object("window", int(window))
        prop = win.get_full_property(d.intern_atom("_NET_WM_STATE"), X.AnyPropertyType)
        return {d.get_atom_name(a) for a in (prop.value if prop is not None else [])}
    finally:
        d.close()


@pytest.fixture(autouse=True)
def no_calculators(desktop):  # noqa: F811
    """No galculator before or after (mousepads are the typing tests' fixture's)."""
    def kill() -> None:
        for window in windows_of(desktop, "galculator"):
            done = subprocess.run(["xdotool", "getwindowpid", window], env={**os.environ, **desktop.env},
                                  capture_output=True, text=True, timeout=20)
            if done.stdout.strip().isdigit():
                try:
                    os.kill(int(done.stdout), signal.SIGKILL)
                except ProcessLookupError:
                    pass
        wait_for(lambda: not windows_of(desktop, "galculator"), 20.0, "the calculators to close")
    kill()
    yield
    kill()


def notepad_behind_the_calculator(run, first: str = "open notepad") -> str:
    """``first`` (opening mousepad), then the calculator in front of it: mousepad's window."""
    assert send(run, first)["status"] == "done"
    pad = wait_for(lambda: mousepads(run.xvfb), 10.0, "mousepad's window")[0]
    assert send(run, "open the calculator")["status"] == "done"
    calc = wait_for(lambda: windows_of(run.xvfb, "galculator"), 10.0, "galculator's window")[0]
    active_is(run.xvfb, calc, "the calculator to have the focus")
    return pad


@pytest.mark.parametrize("said", ["switch to notepad", "go to notepad"])  # "go to" launched a second copy
def test_switch_to_notepad_focuses_the_one_mousepad_there_is(anovax, said):
    run = anovax()
    pad = notepad_behind_the_calculator(run)

    done = send(run, said)
    assert done["status"] == "done", done
    assert [s["tool"] for s in done["outcome"]["steps"]] == ["switch_to_app"], done
    assert mousepads(run.xvfb) == [pad]  # exactly one: the old one, no new empty mousepad
    active_is(run.xvfb, pad, "mousepad to have the focus after the switch")
    # and the keys go there: the next command types into it (typing checks the focus before each
    # chunk). Where the focus goes after the typing has ended is not this test's question: once, in
    # an unloaded run, another window took it in between, so the text is read in mousepad itself;
    # keys that went elsewhere would be missing from it
    assert send(run, "type hello")["status"] == "done"
    if active_window(run.xvfb) != pad:
        xdo(run.xvfb, "windowactivate", "--sync", pad)
        active_is(run.xvfb, pad, "mousepad to have the focus back to read its text")
    assert buffer_of(run.xvfb, pad) == "hello"


def test_typing_into_notepad_by_name_uses_the_open_one_not_a_second_copy(anovax):
    # a first-time user: "type world into notepad" with Notepad open behind the calculator started
    # a second, empty Notepad and typed there
    run = anovax()
    pad = notepad_behind_the_calculator(run, "open notepad and type first")

    done = send(run, "type world into notepad")
    assert done["status"] == "done", done
    assert [s["tool"] for s in done["outcome"]["steps"]] == ["switch_to_app", "type_text"], done
    assert mousepads(run.xvfb) == [pad]  # the same window, no new empty one
    if active_window(run.xvfb) != pad:
        xdo(run.xvfb, "windowactivate", "--sync", pad)
        active_is(run.xvfb, pad, "mousepad to have the focus back to read its text")
    assert buffer_of(run.xvfb, pad).replace(" ", "") == "firstworld"


def test_close_with_unsaved_text_leaves_the_window_and_says_the_save_dialog_waits(anovax):
    run = anovax()
    assert send(run, "open notepad and type keep me")["status"] == "done"
    pad = wait_for(lambda: mousepads(run.xvfb), 10.0, "mousepad's window")[0]

    done = send(run, "close notepad")
    assert done["status"] == "done", done
    assert "Mousepad is asking whether to save your changes." in done["outcome"]["spoken"], done
    # its dialog is up, and the window with the text is still there
    wait_for(lambda: len(mousepads(run.xvfb)) == 2, 10.0, "mousepad's save dialog")
    assert pad in mousepads(run.xvfb)


def test_close_without_unsaved_text_closes_the_window(anovax):
    run = anovax()
    assert send(run, "open the calculator")["status"] == "done"
    wait_for(lambda: windows_of(run.xvfb, "galculator"), 10.0, "galculator's window")
    done = send(run, "close the calculator")
    assert done["status"] == "done", done
    assert not windows_of(run.xvfb, "galculator")  # verified before the reply: gone already


def test_minimise_and_maximise_show_in_the_window_managers_state(anovax):
    run = anovax()
    assert send(run, "open notepad")["status"] == "done"
    pad = wait_for(lambda: mousepads(run.xvfb), 10.0, "mousepad's window")[0]
    assert send(run, "maximise notepad")["status"] == "done"
    assert {"_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"} <= net_wm_state(run.xvfb, pad)
    assert send(run, "restore notepad")["status"] == "done"
    assert not {"_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"} & net_wm_state(run.xvfb, pad)
    assert send(run, "minimise notepad")["status"] == "done"
    assert "_NET_WM_STATE_HIDDEN" in net_wm_state(run.xvfb, pad)
    done = send(run, "what's open")
    assert done["status"] == "done", done
    assert "Open: Mousepad." in done["outcome"]["spoken"], done  # the orb's own window is not listed
    # where the focus goes next is the window manager's choice: with no other window openbox
    # sometimes leaves _NET_ACTIVE_WINDOW on the minimised one (1 run in 4 here), so it is not
    # checked; typing checks the focus itself before every chunk


def test_closing_two_apps_closes_each(anovax):
    # "close notepad and the calculator" was one close_app of an app called "notepad and the calculator"
    run = anovax()
    notepad_behind_the_calculator(run)
    done = send(run, "close notepad and the calculator")
    assert done["status"] == "done", done
    assert [s["tool"] for s in done["outcome"]["steps"]] == ["close_app", "close_app"], done
    assert not mousepads(run.xvfb) and not windows_of(run.xvfb, "galculator")
