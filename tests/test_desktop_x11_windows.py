"""The X11 adapter's window tools on Xvfb + openbox with real mousepad and galculator: the window
list, a switch that lands on a modal dialog, the polite close with and without unsaved text, and a
window that is gone meanwhile. Apps are started by LinuxDesktop (each test kills its own)."""

from __future__ import annotations

import os
import shutil
import signal

import pytest

from anovax.desktop.base import CancelToken
from anovax.desktop.linux import LinuxDesktop
from anovax.desktop.windowing import CloseOutcome, WindowState
from anovax.errors import PermanentToolError
from helpers import wait_for

pytestmark = pytest.mark.skipif(not (shutil.which("mousepad") and shutil.which("galculator")
                                     and shutil.which("xdotool")), reason="needs mousepad, galculator and xdotool")


@pytest.fixture
def desk(xvfb, monkeypatch):
    if not xvfb.wm:
        pytest.skip("openbox is not installed")
    for key, value in xvfb.env.items():
        monkeypatch.setenv(key, value)
    d = LinuxDesktop(track_focus=False)
    yield d
    for window in d.app_windows(None):  # whatever this test left: unsaved text too
        if window.pid:
            try:
                os.kill(window.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    d.close()


def test_the_list_names_apps_and_matches_everyday_names(desk):
    c = CancelToken()
    browsers = {w.window for w in desk.app_windows("browser")}  # the display is shared: another test's may be up
    desk.launch_app("notepad", c)
    desk.launch_app("calculator", c)
    listed = desk.app_windows(None)
    assert [w.app for w in listed][:2] == ["Galculator", "Mousepad"]  # topmost first
    assert [w.app for w in desk.app_windows("text editor")] == ["Mousepad"]
    assert [w.app for w in desk.app_windows("calc")] == ["Galculator"]
    assert {w.window for w in desk.app_windows("browser")} <= browsers


def test_switch_close_and_states_are_verified(desk):
    c = CancelToken()
    desk.launch_app("notepad", c)
    desk.launch_app("calculator", c)
    pad = desk.app_windows("notepad")[0]
    desk.focus_window(pad, c)
    assert desk.target_window == pad.window  # keys go there next
    desk.set_window_state(pad, WindowState.MAXIMIZED, c)
    assert desk.app_windows("notepad")[0].state is WindowState.MAXIMIZED
    desk.set_window_state(pad, WindowState.MINIMIZED, c)
    assert desk.app_windows("notepad")[0].state is WindowState.MINIMIZED
    desk.focus_window(pad, c)  # a minimised window comes back to the front
    assert desk.app_windows("notepad")[0].state is not WindowState.MINIMIZED

    desk.type_text("unsaved", c)
    assert desk.close_window(pad, c) is CloseOutcome.ASKING
    assert [w.window for w in desk.app_windows("notepad")] == [pad.window]  # not lost
    # asked again while that dialog waits: nothing new comes up, and AnovaX says what waits
    assert desk.close_window(pad, c) is CloseOutcome.DIALOG_OPEN
    # switching to it now lands on its save dialog, which has the focus: that is a switch too
    desk.focus_window(pad, c)
    assert desk.target_window != pad.window

    calc = desk.app_windows("calculator")[0]
    assert desk.close_window(calc, c) is CloseOutcome.CLOSED
    wait_for(lambda: not desk.app_windows("calculator"), 5.0, "galculator's window to go")
    with pytest.raises(PermanentToolError):
        desk.set_window_state(calc, WindowState.MAXIMIZED, c)  # gone: a failure, never a done
