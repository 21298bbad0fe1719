"""The Windows adapter's window tools (win_windows.py) against a fake WinApi: which windows are an
app's, focus read back as the foreground, WM_CLOSE and the owned "save changes?" dialog, ShowWindow
read back through IsIconic/IsZoomed."""

from __future__ import annotations

import pytest

from anovax.desktop.base import CancelToken
from anovax.desktop.win_windows import SW_MAXIMIZE, SW_MINIMIZE, SW_RESTORE, app_label
from anovax.desktop.windowing import CloseOutcome, WindowState
from anovax.errors import PermanentToolError
from test_desktop_windows import FakeWinApi, KeysDesktop, Win

PAD, CALC, DIALOG, EDGE = 0x10, 0x20, 0x30, 0x40


class WindowWorld(FakeWinApi):
    """FakeWinApi plus z-order, owners, ShowWindow and WM_CLOSE as Windows answers them."""

    def __init__(self, **kwargs) -> None:
        super().__init__({PAD: Win(11, "Untitled - Notepad", "Notepad"),
                          CALC: Win(22, "Calculator", "ApplicationFrameWindow"),
                          EDGE: Win(33, "News - Microsoft Edge", "Chrome_WidgetWin_1")}, [EDGE], **kwargs)
        self.images = {11: r"C:\Windows\System32\notepad.exe", 22: r"C:\Windows\System32\ApplicationFrameHost.exe",
                       33: r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe"}
        self.order = [EDGE, CALC, PAD]
        self.owners: dict[int, int] = {}
        self.states = {hwnd: "normal" for hwnd in self.windows}
        self.shown: list[tuple[int, int]] = []
        self.closes: list[int] = []
        #: windows with unsaved text: WM_CLOSE brings up a dialog they own
        self.unsaved: set[int] = set()
        #: windows that ignore ShowWindow (a hung app)
        self.stuck: set[int] = set()

    def z_order(self) -> list[int]:
        return [h for h in self.order if h in self.windows]

    def owner(self, hwnd: int) -> int:
        return self.owners.get(hwnd, 0)

    def owned_windows(self, hwnd: int) -> set[int]:
        return {w for w, o in self.owners.items() if o == hwnd and w in self.windows}

    def window_state(self, hwnd: int) -> str:
        return self.states.get(hwnd, "normal")

    def show_window(self, hwnd: int, command: int) -> None:
        self.shown.append((hwnd, command))
        if hwnd not in self.stuck:
            self.states[hwnd] = {SW_MINIMIZE: "minimized", SW_MAXIMIZE: "maximized", SW_RESTORE: "normal"}[command]

    def post_close(self, hwnd: int) -> None:
        self.closes.append(hwnd)
        if hwnd in self.unsaved:
            self.windows[DIALOG] = Win(11, "Notepad", "#32770")
            self.owners[DIALOG] = hwnd
            self.order.insert(0, DIALOG)
        else:
            self.close(hwnd)


@pytest.fixture
def world():
    return WindowWorld()


@pytest.fixture
def desk(world):
    desk = KeysDesktop(world, lambda _name: None)
    yield desk
    desk.close()


def test_windows_are_listed_topmost_first_by_app_and_matched_through_the_app_table(desk, world):
    assert [w.app for w in desk.app_windows(None)] == ["Microsoft Edge", "Calculator", "Notepad"]
    assert [w.window for w in desk.app_windows("notepad")] == [PAD]
    assert [w.window for w in desk.app_windows("the calculator")] == [CALC]  # UWP: by its caption
    assert [w.window for w in desk.app_windows("browser")] == [EDGE]
    assert desk.app_windows("paint") == []


def test_a_dialog_is_never_an_app_window(desk, world):
    world.windows[DIALOG] = Win(11, "Save As", "#32770")
    world.owners[DIALOG] = PAD
    world.order.insert(0, DIALOG)
    assert DIALOG not in [w.window for w in desk.app_windows(None)]


def test_focus_is_verified_as_the_foreground_and_the_window_becomes_the_keys_target(desk, world):
    pad = desk.app_windows("notepad")[0]
    desk.focus_window(pad, CancelToken())
    assert world.activations[-1] == PAD and desk.target_window == PAD


def test_a_refused_foreground_is_a_failure_not_a_done(desk, world, monkeypatch):
    monkeypatch.setattr("anovax.desktop.windowing.VERIFY_MAX_S", 0.1)
    world.refuse_activation = True
    with pytest.raises(PermanentToolError, match="couldn't bring Notepad to the front"):
        desk.focus_window(desk.app_windows("notepad")[0], CancelToken())


def test_close_posts_wm_close_and_a_saved_window_goes(desk, world):
    assert desk.close_window(desk.app_windows("calculator")[0], CancelToken()) is CloseOutcome.CLOSED
    assert world.closes == [CALC] and CALC not in world.windows


def test_close_with_unsaved_text_is_the_apps_own_dialog_and_the_window_stays(desk, world):
    world.unsaved.add(PAD)
    assert desk.close_window(desk.app_windows("notepad")[0], CancelToken()) is CloseOutcome.ASKING
    assert PAD in world.windows
    # asked again while its dialog waits: the dialog is already there, and the window stays
    assert desk.close_window(desk.app_windows("notepad")[0], CancelToken()) is CloseOutcome.DIALOG_OPEN


def test_an_app_that_ignores_the_request_is_reported(desk, world, monkeypatch):
    monkeypatch.setattr("anovax.desktop.windowing.CLOSE_MAX_S", 0.1)
    world.post_close = lambda hwnd: world.closes.append(hwnd)  # type: ignore[method-assign]
    with pytest.raises(PermanentToolError, match="still open"):
        desk.close_window(desk.app_windows("notepad")[0], CancelToken())


@pytest.mark.parametrize("state, command", [(WindowState.MINIMIZED, SW_MINIMIZE), (WindowState.MAXIMIZED, SW_MAXIMIZE),
                                            (WindowState.NORMAL, SW_RESTORE)])
def test_show_window_is_read_back(desk, world, state, command):
    world.states[PAD] = "maximized" if state is WindowState.NORMAL else "normal"
    desk.set_window_state(desk.app_windows("notepad")[0], state, CancelToken())
    assert world.shown[-1] == (PAD, command) and world.states[PAD] == state.value


def test_a_window_that_does_not_change_is_a_failure(desk, world, monkeypatch):
    monkeypatch.setattr("anovax.desktop.windowing.VERIFY_MAX_S", 0.1)
    world.stuck.add(PAD)
    with pytest.raises(PermanentToolError, match="did not change"):
        desk.set_window_state(desk.app_windows("notepad")[0], WindowState.MINIMIZED, CancelToken())


def test_app_labels():
    assert app_label("Untitled - Notepad", r"C:\x\notepad.exe") == "Notepad"
    assert app_label("Calculator", r"C:\x\ApplicationFrameHost.exe") == "Calculator"
    assert app_label("", r"C:\x\msedge.exe") == "Msedge"
