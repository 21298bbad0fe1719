"""After a yes the target window is brought back and verified before the first key.

A click on the orb's Yes (or any window raised while the person thinks) takes the focus from the
terminal the plan opened. On Xvfb + openbox with the real LinuxDesktop and a real xterm running
bash: the keys still reach the terminal's shell, never the window that took the focus; and a
terminal closed during the question gets nothing and says so.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import wait_for
from shell_recorder import ShellRecorder

from anovax.app import Status, build_assistant
from anovax.events import EventType
from anovax.memory import Memory
from anovax.settings import Settings

TARGET = Path(__file__).resolve().parent / "targets" / "text_target.py"
THIEF_CLASS = "anovax-test-thief"


def xdotool(*args: str) -> str:
    return subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=10).stdout.strip()


@pytest.fixture
def desk_env(xvfb, monkeypatch, tmp_path):
    if not xvfb.wm:
        pytest.skip("openbox is not installed: without a window manager no window gets the focus")
    pytest.importorskip("tkinter")
    for key, value in xvfb.env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    recorder = ShellRecorder(tmp_path / "shell")
    for key, value in recorder.env.items():
        monkeypatch.setenv(key, value)
    out = tmp_path / "thief.txt"
    thief = subprocess.Popen([sys.executable, str(TARGET), str(out), "--class", THIEF_CLASS, "--title", "thief"])
    try:
        window = wait_for(lambda: xdotool("search", "--class", THIEF_CLASS).split("\n")[0], 20.0, "the thief window")
        yield recorder, window, out
    finally:
        thief.terminate()
        thief.wait(5)


def assistant(tmp_path):
    from anovax.desktop.linux import LinuxDesktop

    settings = Settings(log_path=None, memory_path=tmp_path / "memory.json")
    desk = LinuxDesktop(settings)
    return build_assistant(settings, desktop=desk, memory=Memory(settings.memory_path)), desk


def answer_after(app, do_first):
    """A front end that does ``do_first(event)`` (what the person's click does), then says yes."""
    app.confirmations.register("test")

    def on(event):
        if event.type is EventType.CONFIRM_REQUESTED:
            do_first(event)
            app.confirmations.answer(event.data["question_id"], True, "test")

    app.bus.subscribe("test-answer", on)


def close_terminals(desk):
    for child in list(desk.children):
        child.terminate()


def test_a_window_that_took_the_focus_during_the_question_does_not_get_the_keys(desk_env, tmp_path):
    recorder, thief, thief_out = desk_env
    app, desk = assistant(tmp_path)
    answer_after(app, lambda event: xdotool("windowactivate", "--sync", thief))
    try:
        result = app.on_speech("open a terminal and type echo refocused and press enter")
        assert result.status is Status.DONE, result.message
        wait_for(lambda: "echo refocused" in recorder.lines(), 15.0, "the command in the terminal's shell")
        asked = next(e for e in app.bus.recent() if e.type is EventType.CONFIRM_REQUESTED)
        assert asked.data["target"] and asked.data["target"] != "terminal"  # the window's own title
    finally:
        close_terminals(desk)
        app.close()
    time.sleep(0.3)
    assert not thief_out.exists() or thief_out.read_text() == ""


def test_a_terminal_closed_while_the_person_thinks_gets_nothing(desk_env, tmp_path):
    recorder, _thief, _ = desk_env
    app, desk = assistant(tmp_path)

    def close_it(event):
        close_terminals(desk)
        wait_for(lambda: not desk.children, 10.0, "the terminal to close")

    answer_after(app, close_it)
    try:
        result = app.on_speech("open a terminal and type echo too-late and press enter")
    finally:
        app.close()
    assert result.status is Status.FAILED
    assert "closed while I waited for your yes" in result.message
    assert "echo too-late" not in recorder.lines()
