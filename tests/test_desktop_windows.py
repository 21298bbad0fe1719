"""WindowsDesktop's verified launches, focus guard and App Paths lookup, against a fake WinApi.

The Win32 calls cannot run here, so ``FakeWinApi`` plays Windows: a table of windows
(pid, title, class), the processes' program paths, App Paths entries, and a script of
what GetForegroundWindow answers poll after poll. Everything above it is the real
code: app resolution, launching a real process, the polling, the guard and its
messages. Only the keyboard itself is replaced (``_gui`` and ``send_unicode`` record
what would have been typed).
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from anovax.desktop import windows
from anovax.desktop.base import CancelToken
from anovax.desktop.win32 import Win32Api
from anovax.desktop.windows import SETTLE_S, WindowsDesktop
from anovax.errors import PermanentToolError, TransientToolError
from helpers import finishes

OLD, NEW, THIEF, OTHER = 0x100, 0x200, 0x300, 0x400
SHELL_PID = 40


@dataclass
class Win:
    pid: int | None
    title: str
    cls: str


class FakeWinApi:
    """Windows as WindowsDesktop sees it. ``foreground`` is a script: each GetForegroundWindow
    takes the next answer, and the last one stays."""

    def __init__(self, windows_: dict[int, Win], foreground: list[int], *, visible: set[int] | None = None,
                 images: dict[int, str] | None = None, app_paths: dict[str, str] | None = None) -> None:
        self.windows = dict(windows_)
        self.script = list(foreground)
        self.visible = set(windows_) if visible is None else set(visible)
        self.images = dict(images or {})
        self.registry = dict(app_paths or {})
        self.foreground_calls = 0
        self.app_paths_calls: list[str] = []
        self.activations: list[int] = []
        #: SetForegroundWindow refused (another process is in front)
        self.refuse_activation = False
        self._lock = threading.Lock()

    def set_foreground(self, hwnd: int) -> None:
        with self._lock:
            self.script = [hwnd]

    def close(self, hwnd: int) -> None:
        self.windows.pop(hwnd, None)
        self.visible.discard(hwnd)

    def foreground_window(self) -> int:
        with self._lock:
            self.foreground_calls += 1
            return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    def window_pid(self, hwnd: int) -> int | None:
        win = self.windows.get(hwnd)
        return win.pid if win else None

    def window_title(self, hwnd: int) -> str:
        win = self.windows.get(hwnd)
        return win.title if win else ""

    def window_class(self, hwnd: int) -> str:
        win = self.windows.get(hwnd)
        return win.cls if win else ""

    def is_window(self, hwnd: int) -> bool:
        return hwnd in self.windows

    def top_level_windows(self) -> set[int]:
        return set(self.visible)

    def process_image(self, pid: int) -> str:
        return self.images.get(pid, "")

    def activate(self, hwnd: int) -> None:
        self.activations.append(hwnd)
        if hwnd in self.windows and not self.refuse_activation:
            self.set_foreground(hwnd)

    def app_paths(self, exe_name: str) -> str | None:
        self.app_paths_calls.append(exe_name)
        return self.registry.get(exe_name)


class KeysDesktop(WindowsDesktop):
    """The real WindowsDesktop with the keyboard recorded instead of pressed."""

    def __init__(self, api: FakeWinApi, which: Any, *, track_focus: bool = False) -> None:
        # no tracker unless asked: it would take answers from the scripted GetForegroundWindow
        super().__init__(which=which, api=api, track_focus=track_focus)
        self.sent: list[tuple[str, tuple[Any, ...]]] = []
        #: called after each recorded key call: a test moves the focus from here
        self.after_key: Any = None

    def _gui(self, func: str, *args: Any, **kwargs: Any) -> None:
        self.sent.append((func, args))
        if self.after_key is not None:
            self.after_key()

    def _popen_options(self) -> dict[str, Any]:
        # CREATE_NEW_CONSOLE is Windows-only; the process started here is a stand-in script
        return {"start_new_session": True, "stdin": subprocess.DEVNULL,
                "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}


def fake_exe(folder: Path, name: str) -> Path:
    """An executable stand-in for a Windows program (it only sleeps), named like one."""
    path = folder / name
    path.write_text("#!/bin/sh\nexec sleep 5\n")
    path.chmod(0o755)
    return path


def on_path(*programs: Path) -> Any:
    table = {p.name: str(p) for p in programs}
    return lambda name: table.get(name)


@pytest.fixture
def made() -> Any:
    """Close the desktops a test makes and stop the processes they started."""
    desks: list[WindowsDesktop] = []

    def make(api: FakeWinApi, which: Any = lambda _name: None) -> KeysDesktop:
        desk = KeysDesktop(api, which)
        desks.append(desk)
        return desk

    yield make
    for desk in desks:
        for child in desk.children:
            child.terminate()
            child.wait(5)
        desk.close()


def notepad_world(notepad: Path, foreground: list[int]) -> FakeWinApi:
    """The user's old Notepad (OLD, pid 10) in front; NEW is the window our notepad.exe will show
    (pid 4242: the test does not know the real child's pid, so it matches by program)."""
    return FakeWinApi(
        {OLD: Win(10, "old.txt - Notepad", "Notepad"), NEW: Win(4242, "Untitled - Notepad", "Notepad"),
         THIEF: Win(77, "Chat - Friend", "Chrome_WidgetWin_1"), OTHER: Win(88, "Other", "OtherClass")},
        foreground, visible={OLD, THIEF},
        images={10: r"C:\Windows\System32\notepad.exe", 4242: r"C:\Windows\System32\NOTEPAD.EXE",
                77: r"C:\Program Files\Google\Chrome\Application\chrome.exe", 88: r"C:\Tools\other.exe"})


def launched(made: Any, tmp_path: Path, foreground: list[int]) -> tuple[KeysDesktop, FakeWinApi]:
    notepad = fake_exe(tmp_path, "notepad.exe")
    api = notepad_world(notepad, foreground)
    desk = made(api, on_path(notepad))
    assert desk.launch_app("notepad", CancelToken()) == "Opened notepad"
    return desk, api


# -- verified launches -------------------------------------------------------------------


def test_launch_is_verified_when_the_new_window_comes_to_the_front(made, tmp_path):
    notepad = fake_exe(tmp_path, "notepad.exe")
    api = notepad_world(notepad, [OLD, OLD, 0, OLD, NEW])
    desk = made(api, on_path(notepad))
    started = time.monotonic()
    assert desk.launch_app("notepad", CancelToken()) == "Opened notepad"
    took = time.monotonic() - started

    assert desk.children[0].args == [str(notepad)]
    evidence = desk.launch_evidence()
    assert evidence is not None
    assert (evidence.window, evidence.title, evidence.wm_class, evidence.pid) == (
        NEW, "Untitled - Notepad", "Notepad", 4242)
    assert desk.target_window == NEW
    # four polls before the window showed, then it was seen in front again after SETTLE_S (how
    # many polls fit in SETTLE_S depends on the machine's load, so they are not counted)
    assert api.foreground_calls >= 6
    assert SETTLE_S <= evidence.seconds <= took
    assert evidence.as_data()["window"] == "0x200"


def test_the_old_window_in_front_is_not_the_new_app(made, tmp_path):
    notepad = fake_exe(tmp_path, "notepad.exe")
    api = notepad_world(notepad, [OLD])  # the user's Notepad, same program, but it was there before
    desk = made(api, on_path(notepad))
    cancel = CancelToken()
    timer = threading.Timer(0.4, cancel.cancel, ("expired",))
    timer.start()
    try:
        with pytest.raises(TransientToolError, match="^notepad did not open a window in time.$") as info:
            desk.launch_app("notepad", cancel)
    finally:
        timer.cancel()
    assert info.value.code == "no_window"
    assert desk.launch_evidence() is None and desk.target_window is None
    assert api.foreground_calls > 10  # it kept looking until the token fired


def test_a_new_window_of_another_program_is_not_accepted(made, tmp_path):
    notepad = fake_exe(tmp_path, "notepad.exe")
    # OTHER: new, in front for longer than SETTLE_S, but pid 88 runs other.exe and its title
    # does not say notepad; then our window comes
    api = notepad_world(notepad, [OTHER] * 30 + [NEW])
    desk = made(api, on_path(notepad))
    desk.launch_app("notepad", CancelToken())
    assert desk.target_window == NEW
    assert desk.launch_evidence().window == NEW


def test_a_window_of_the_launched_process_itself_is_accepted(made):
    api = FakeWinApi({OLD: Win(10, "Desktop", "Progman")}, [OLD, OLD, NEW], visible={OLD})
    desk = made(api)
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(5)"])
    try:
        # the window's pid is our child's: no program image needed (process_image answers "")
        api.windows[NEW] = Win(proc.pid, "Some Tool", "ToolWindow")
        desk._before_launch("some tool")
        desk._after_launch(proc, "some tool", CancelToken())
    finally:
        proc.terminate()
        proc.wait(5)
    evidence = desk.launch_evidence()
    assert (evidence.window, evidence.pid, evidence.wm_class) == (NEW, proc.pid, "ToolWindow")


def test_a_uwp_window_is_matched_by_its_title(made):
    # calc.exe starts Calculator and exits; the window belongs to ApplicationFrameHost.exe
    frame = Win(900, "Calculator", "ApplicationFrameWindow")
    api = FakeWinApi({OLD: Win(10, "Desktop", "Progman"), NEW: frame}, [OLD, NEW], visible={OLD},
                     images={900: r"C:\Windows\System32\ApplicationFrameHost.exe"})
    desk = made(api)
    proc = SimpleNamespace(pid=31337, args=[r"C:\Windows\System32\calc.exe"], poll=lambda: 0)
    desk._before_launch("the calculator app")
    desk._after_launch(proc, "the calculator app", CancelToken())  # type: ignore[arg-type]
    evidence = desk.launch_evidence()
    assert (evidence.window, evidence.title, evidence.wm_class, evidence.pid) == (
        NEW, "Calculator", "ApplicationFrameWindow", 900)


def test_explorer_hands_its_window_to_the_running_shell(made):
    # explorer.exe exits (code 1) and the shell's explorer.exe, started long ago, opens the window
    api = FakeWinApi({OLD: Win(10, "Desktop", "Progman"), NEW: Win(SHELL_PID, "Home", "CabinetWClass")},
                     [OLD, NEW], visible={OLD}, images={SHELL_PID: r"C:\Windows\explorer.exe"})
    desk = made(api)
    proc = SimpleNamespace(pid=5555, args=[r"C:\Windows\Explorer.EXE"], poll=lambda: 1)
    desk._before_launch("files")
    desk._after_launch(proc, "files", CancelToken())  # type: ignore[arg-type]
    assert desk.launch_evidence().pid == SHELL_PID and desk.target_window == NEW


def test_a_window_that_loses_the_front_before_it_settles_is_not_taken(made):
    # NEW flashes in front for 3 polls (< SETTLE_S), the old window comes back: not verified
    api = FakeWinApi({OLD: Win(10, "Desktop", "Progman"), NEW: Win(7, "Tool", "ToolClass")},
                     [NEW, NEW, NEW, OLD], visible={OLD})
    desk = made(api)
    proc = SimpleNamespace(pid=7, args=["tool.exe"], poll=lambda: None)
    cancel = CancelToken()
    timer = threading.Timer(0.5, cancel.cancel)
    timer.start()
    try:
        desk._before_launch("tool")
        with pytest.raises(TransientToolError, match="^tool did not open a window in time.$"):
            desk._after_launch(proc, "tool", cancel)  # type: ignore[arg-type]
    finally:
        timer.cancel()


def test_an_expired_token_ends_the_wait_quickly(made, tmp_path, monkeypatch):
    notepad = fake_exe(tmp_path, "notepad.exe")
    api = notepad_world(notepad, [OLD])
    desk = made(api, on_path(notepad))
    monkeypatch.setattr(windows, "LAUNCH_MAX_S", 3600.0)  # only the token can end the wait
    cancel = CancelToken()
    timer = threading.Timer(0.2, cancel.cancel, ("expired",))
    timer.start()
    with pytest.raises(TransientToolError, match="did not open a window in time"):
        finishes(lambda: desk.launch_app("notepad", cancel), 30.0, "the launch after its token expired")
    assert desk.children and desk.children[0].poll() is None  # the app itself is left running


def test_without_a_window_list_the_launch_is_not_verified(made, tmp_path):
    notepad = fake_exe(tmp_path, "notepad.exe")
    api = notepad_world(notepad, [NEW])

    def broken() -> set[int]:
        raise OSError("EnumWindows failed")

    api.top_level_windows = broken  # type: ignore[method-assign]
    desk = made(api, on_path(notepad))
    assert desk.launch_app("notepad", CancelToken()) == "Opened notepad"
    assert desk.launch_evidence() is None and desk.target_window is None
    assert api.foreground_calls == 0


# -- the focus guard -----------------------------------------------------------------------


def test_focus_moving_mid_typing_stops_before_the_next_chunk(made, tmp_path):
    desk, api = launched(made, tmp_path, [OLD, NEW])
    desk.after_key = lambda: api.set_foreground(THIEF)  # a chat window pops up after the first chunk
    stopped = r"^Focus moved to Chat - Friend\. I had typed 8 of 20 characters\.$"  # how much got there
    with pytest.raises(PermanentToolError, match=stopped) as info:
        desk.type_text("abcdefgh" + "ijklmnop" + "qrst", CancelToken())
    assert info.value.code == "focus_moved"
    assert desk.sent == [("write", ("abcdefgh",))]


def test_focus_is_checked_before_each_run_of_a_chunk(made, tmp_path, monkeypatch):
    desk, api = launched(made, tmp_path, [OLD, NEW])
    unicode_sent: list[str] = []
    monkeypatch.setattr(windows, "send_unicode", unicode_sent.append)
    desk.type_text("hé", CancelToken())  # one chunk, two runs: "h" by pyautogui, "é" by SendInput
    assert desk.sent == [("write", ("h",))] and unicode_sent == ["é"]

    desk.sent.clear()
    desk.after_key = lambda: api.set_foreground(THIEF)
    with pytest.raises(PermanentToolError, match="^Focus moved to Chat - Friend.$"):
        desk.type_text("xö", CancelToken())
    assert desk.sent == [("write", ("x",))] and unicode_sent == ["é"]  # "ö" never sent


def test_press_keys_is_guarded(made, tmp_path):
    desk, api = launched(made, tmp_path, [OLD, NEW])
    desk.press_keys("ctrl+s", CancelToken())
    assert desk.sent == [("hotkey", ("ctrl", "s"))]
    api.set_foreground(OTHER)
    with pytest.raises(PermanentToolError, match="^Focus moved to Other.$"):
        desk.press_keys("ctrl+a", CancelToken())
    assert desk.sent == [("hotkey", ("ctrl", "s"))]


def test_a_focus_change_in_progress_names_the_window_that_gets_it(made, tmp_path):
    desk, api = launched(made, tmp_path, [OLD, NEW])
    api.script = [0, 0, 0, THIEF]  # GetForegroundWindow is NULL while the switch happens
    with pytest.raises(PermanentToolError, match="^Focus moved to Chat - Friend.$"):
        desk.type_text("abc", CancelToken())
    api.script = [0]  # and if nothing gets it, the message does not invent a name
    with pytest.raises(PermanentToolError, match="^Focus moved away from the window I was typing into.$"):
        desk.type_text("abc", CancelToken())
    api.windows[0x500] = Win(99, "", "Untitled")
    api.script = [0x500]
    with pytest.raises(PermanentToolError, match="^Focus moved to window 0x500.$"):
        desk.type_text("abc", CancelToken())
    assert desk.sent == []


def test_a_closed_target_window_is_forgotten_and_typing_goes_on_unguarded(made, tmp_path):
    desk, api = launched(made, tmp_path, [OLD, NEW])
    api.close(NEW)
    api.set_foreground(OLD)  # wherever the focus went after the window closed
    assert desk.type_text("abcdefghij", CancelToken()) == 10
    assert desk.target_window is None
    assert desk.sent == [("write", ("abcdefgh",)), ("write", ("ij",))]
    assert desk.launch_evidence().window == NEW  # the evidence of that launch stays what it was


def test_with_the_guard_off_keys_go_wherever_the_focus_is(made, tmp_path):
    desk, api = launched(made, tmp_path, [OLD, NEW])
    desk.focus_guard = False
    api.set_foreground(THIEF)
    assert desk.type_text("abc", CancelToken()) == 3
    assert desk.sent == [("write", ("abc",))]


def test_with_nothing_launched_typing_is_unguarded(made):
    api = FakeWinApi({OLD: Win(10, "x", "y")}, [OLD])
    desk = made(api)
    desk.type_text("hi", CancelToken())
    assert desk.sent == [("write", ("hi",))] and api.foreground_calls == 0


# -- finding programs: PATH, then App Paths ---------------------------------------------------


def test_a_program_not_on_path_is_found_through_app_paths(made, tmp_path):
    winword = fake_exe(tmp_path, "WINWORD.EXE")
    api = FakeWinApi({OLD: Win(10, "Desktop", "Progman"), NEW: Win(61, "Document1 - Word", "OpusApp")},
                     [OLD, NEW], visible={OLD}, images={61: r"C:\Program Files\Microsoft Office\root\WINWORD.EXE"},
                     app_paths={"winword.exe": str(winword)})
    desk = made(api)  # which() finds nothing
    assert desk.launch_app("winword", CancelToken()) == "Opened winword"
    assert api.app_paths_calls == ["winword.exe"]
    assert desk.children[0].args == [str(winword)]
    assert desk.launch_evidence().window == NEW  # and its window matched by program name


def test_app_paths_is_asked_only_when_path_has_nothing(made, tmp_path):
    on_disk = fake_exe(tmp_path, "chrome.exe")
    api = FakeWinApi({OLD: Win(10, "x", "y")}, [OLD], app_paths={"chrome.exe": str(on_disk)})
    found_on_path = made(api, lambda name: r"C:\bin\chrome.exe" if name == "chrome" else None)
    assert found_on_path._find_program("chrome") == r"C:\bin\chrome.exe"
    assert api.app_paths_calls == []

    desk = made(api)
    assert desk._find_program("chrome") == str(on_disk)
    assert desk._find_program("chrome.exe") == str(on_disk)
    assert api.app_paths_calls == ["chrome.exe", "chrome.exe"]
    # a path is never turned into a registry key name
    assert desk._find_program(r"..\chrome.exe") is None and desk._find_program("C:chrome") is None
    assert api.app_paths_calls == ["chrome.exe", "chrome.exe"]


def test_a_stale_app_paths_entry_is_not_a_program(made, tmp_path):
    api = FakeWinApi({OLD: Win(10, "x", "y")}, [OLD], app_paths={"msedge.exe": str(tmp_path / "gone" / "msedge.exe")})
    desk = made(api)
    assert desk._find_program("msedge") is None
    with pytest.raises(PermanentToolError, match="^I couldn't find an app called msedge on this computer.$"):
        desk.launch_app("msedge", CancelToken())
    assert desk.children == []


def test_the_real_api_loads_nothing_until_used():
    api = Win32Api()  # no ctypes.windll, no winreg: importable and constructible on any OS
    assert api._user32 is None and api._ctypes is None
    assert "winreg" not in sys.modules or sys.platform == "win32"


# -- know the target (issue 16): the foreground window's process image ---------------------------

CMD, ORB = 0x500, 0x600


def target_world(foreground: list[int]) -> FakeWinApi:
    """Notepad, a terminal (cmd.exe), Chrome, an unknown tool, and AnovaX's own orb (our pid)."""
    import os

    return FakeWinApi(
        {OLD: Win(10, "notes.txt - Notepad", "Notepad"), CMD: Win(20, "Command Prompt", "ConsoleWindowClass"),
         THIEF: Win(77, "Chat - Friend", "Chrome_WidgetWin_1"), OTHER: Win(88, "Other", "OtherClass"),
         ORB: Win(os.getpid(), "AnovaX", "TkTopLevel")},
        foreground,
        images={10: r"C:\Windows\System32\notepad.exe", 20: r"C:\Windows\System32\cmd.exe",
                77: r"C:\Program Files\Google\Chrome\Application\chrome.exe", 88: r"C:\Tools\other.exe"})


@pytest.mark.parametrize("hwnd, klass, app", [
    (OLD, "text", "notepad.exe"), (CMD, "shell", "cmd.exe"), (THIEF, "browser", "chrome.exe"),
    (OTHER, "unknown", "other.exe")])
def test_the_foreground_window_is_identified_by_its_process_image(made, hwnd, klass, app):
    desk = made(target_world([hwnd]))
    found = desk.user_target()
    assert (found.window, found.klass.value, found.app) == (hwnd, klass, app), found


def test_the_orb_in_front_means_the_window_the_user_was_in_before(made):
    api = target_world([CMD])
    desk = KeysDesktop(api, lambda _n: None, track_focus=True)
    try:
        finishes(lambda: _wait(lambda: desk._targeting.last() is not None), 10.0, "the tracker to see cmd.exe")
        api.set_foreground(ORB)  # the person clicks the orb
        assert desk.identify(ORB).klass.value == "assistant"
        target = desk.user_target()
        assert (target.window, target.klass.value) == (CMD, "shell")
        desk.aim(target, CancelToken())  # brings the terminal back and guards it
        assert api.activations == [CMD] and desk.target_window == CMD
        api.set_foreground(OLD)
        with pytest.raises(PermanentToolError, match="Focus moved to notes.txt - Notepad"):
            desk.type_text("dir", CancelToken())
        api.close(CMD)
        desk.return_to_user()  # to the last window still there (Notepad, if the tracker saw it), never CMD
        assert api.activations[0] == CMD and CMD not in api.activations[1:]
    finally:
        desk.close()


def _wait(predicate) -> bool:
    while not predicate():
        time.sleep(0.005)
    return True


def test_aim_refuses_a_closed_or_reused_window_and_the_orb(made):
    api = target_world([ORB])
    desk = made(api)
    notepad = desk.identify(OLD)
    api.windows[OLD] = Win(99, "someone else", "X")  # the handle now belongs to another process
    with pytest.raises(PermanentToolError, match="notepad.exe was closed"):
        desk.aim(notepad, CancelToken())
    with pytest.raises(PermanentToolError, match="won't type into AnovaX"):
        desk.aim(desk.identify(ORB), CancelToken())
    api.refuse_activation = True
    cmd = desk.identify(CMD)
    with pytest.raises(PermanentToolError, match="couldn't bring cmd.exe to the front"):
        desk.aim(cmd, CancelToken())


def test_an_aimed_window_that_closes_stops_the_typing_once(made):
    api = target_world([OLD])
    desk = made(api)
    desk.aim(desk.user_target(), CancelToken())
    api.close(OLD)
    api.set_foreground(OTHER)
    with pytest.raises(PermanentToolError, match="was closed, so I stopped"):
        desk.type_text("hello", CancelToken())
    assert desk.sent == []
    desk.type_text("hello", CancelToken())  # the next command types where the user is, as before
    assert desk.sent


def test_classify_app_by_the_program_the_table_would_start(made, tmp_path):
    programs = [fake_exe(tmp_path, n) for n in ("notepad.exe", "cmd.exe", "wt.exe", "explorer.exe")]
    desk = made(target_world([OLD]), on_path(*programs))
    assert [desk.classify_app(n).value for n in ("notepad", "terminal", "command prompt", "files", "zork")] == [
        "text", "shell", "shell", "unknown", "unknown"]
