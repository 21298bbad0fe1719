"""The macOS adapter's window tools (mac_windows.py) against a fake System Events and the fake
frontmost-app port: apps matched through the app table, focus read back as the frontmost app, the
close button and the "save changes?" sheet, AXMinimized / AXFullScreen read back."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from anovax.desktop.base import CancelToken
from anovax.desktop.mac_windows import LIST_SCRIPT, MacApp, SystemEvents, parse_apps
from anovax.desktop.macfront import Frontmost
from anovax.desktop.windowing import CloseOutcome, WindowState
from anovax.errors import PermanentToolError
from test_desktop_macos import FakeMacApi, mac  # noqa: F401 - a fixture

EDIT, CALC = 77, 88


class FakeSystemEvents:
    """Two apps, each with one window; the requests change them as macOS would."""

    def __init__(self, front: FakeMacApi) -> None:
        self.front = front
        self.table = {EDIT: MacApp(EDIT, "TextEdit", "Untitled", 1, False, False, 0),
                      CALC: MacApp(CALC, "Calculator", "Calculator", 1, False, False, 0)}
        self.unsaved: set[int] = set()
        self.requests: list[tuple] = []
        self.deaf = False

    def apps(self) -> list[MacApp]:
        return list(self.table.values())

    def raise_app(self, pid: int) -> None:
        self.requests.append(("raise", pid))
        self.front.set_front(Frontmost(self.table[pid].name, pid))

    def press_close(self, pid: int) -> None:
        self.requests.append(("close", pid))
        app = self.table[pid]
        self.table[pid] = replace(app, sheets=1) if pid in self.unsaved else replace(app, windows=0)

    def set_flag(self, pid: int, attribute: str, on: bool) -> None:
        self.requests.append((attribute, pid, on))
        if not self.deaf:
            field = {"AXMinimized": "minimized", "AXFullScreen": "full_screen"}[attribute]
            self.table[pid] = replace(self.table[pid], **{field: on})


@pytest.fixture
def world(mac):  # noqa: F811
    front = FakeMacApi([Frontmost("Calculator", CALC)])
    desk = mac(front)
    events = FakeSystemEvents(front)
    desk._mac_windows = events
    return desk, events


def test_apps_are_matched_through_the_mac_table_with_the_front_app_first(world):
    desk, _ = world
    assert [w.app for w in desk.app_windows(None)] == ["Calculator", "TextEdit"]
    assert [w.window for w in desk.app_windows("notepad")] == [EDIT]  # notepad is TextEdit on a Mac
    assert desk.app_windows("paint") == []


def test_focus_is_read_back_as_the_frontmost_app(world):
    desk, events = world
    desk.focus_window(desk.app_windows("notepad")[0], CancelToken())
    assert events.requests == [("raise", EDIT)] and desk.target_window == EDIT


def test_close_clicks_the_close_button_and_a_sheet_means_the_app_is_asking(world):
    desk, events = world
    events.unsaved.add(EDIT)
    assert desk.close_window(desk.app_windows("notepad")[0], CancelToken()) is CloseOutcome.ASKING
    assert desk.close_window(desk.app_windows("calculator")[0], CancelToken()) is CloseOutcome.CLOSED
    assert events.table[EDIT].windows == 1 and events.table[CALC].windows == 0


@pytest.mark.parametrize("state", [WindowState.MINIMIZED, WindowState.MAXIMIZED, WindowState.NORMAL])
def test_states_are_read_back(world, state):
    desk, events = world
    events.table[EDIT] = replace(events.table[EDIT], full_screen=state is WindowState.NORMAL)
    desk.set_window_state(desk.app_windows("notepad")[0], state, CancelToken())
    assert events.table[EDIT].state is state


def test_a_window_that_does_not_change_is_a_failure(world, monkeypatch):
    desk, events = world
    monkeypatch.setattr("anovax.desktop.windowing.VERIFY_MAX_S", 0.1)
    events.deaf = True
    with pytest.raises(PermanentToolError, match="did not change"):
        desk.set_window_state(desk.app_windows("notepad")[0], WindowState.MINIMIZED, CancelToken())


def test_system_events_output_is_parsed_and_a_refusal_is_a_clear_error():
    out = "77\tTextEdit\tUntitled\t1\tfalse\tfalse\t1\n88\tFinder\tmissing value\t0\tfalse\tfalse\t0\njunk\n"
    assert parse_apps(out) == [MacApp(77, "TextEdit", "Untitled", 1, False, False, 1),
                               MacApp(88, "Finder", "", 0, False, False, 0)]
    calls = []

    def run(argv, **kwargs):
        calls.append(argv)
        return SimpleNamespace(returncode=1, stdout="", stderr="execution error: not allowed assistive access (-1719)")
    with pytest.raises(PermanentToolError, match="Accessibility"):
        SystemEvents(run).apps()
    assert calls == [["osascript", "-e", LIST_SCRIPT]]
