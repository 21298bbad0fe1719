"""Windows window tools: WindowsDesktop's ``app_windows``, ``focus_window``, ``close_window`` and
``set_window_state`` over the ``WinApi`` port (win32.py), each verified before it returns.

- the windows are EnumWindows' visible, captioned, unowned top-level windows in z-order
  (topmost first); owned windows are dialogs and tool windows, never an app of their own;
- a window is an app's by its process image ("notepad.exe" -> notepad); a UWP app's window
  belongs to ApplicationFrameHost.exe, so its caption ("Calculator") names it too;
- closing posts WM_CLOSE, what the caption's X button sends: the app decides, so Notepad with
  unsaved text shows its "save changes?" dialog, a new window *owned* by it, which is how the
  wait tells ASKING from CLOSED. Never DestroyWindow or TerminateProcess;
- minimise, maximise and restore are ShowWindow (SW_MINIMIZE, SW_MAXIMIZE, SW_RESTORE), read
  back through IsIconic / IsZoomed; focus is SetForegroundWindow, read back as the foreground.

Not testable on the Linux CI against the real OS: tested against a fake ``WinApi``
(tests/test_desktop_windows_tools.py).
"""

from __future__ import annotations

import ntpath
import os
from typing import Any

from anovax.desktop import windowing
from anovax.desktop.apps import normalise_title
from anovax.desktop.base import CancelToken
from anovax.desktop.windowing import AppWindow, CloseOutcome, WindowState, program_key

#: ShowWindow commands
SW_MAXIMIZE, SW_MINIMIZE, SW_RESTORE = 3, 6, 9
SHOW = {WindowState.MINIMIZED: SW_MINIMIZE, WindowState.MAXIMIZED: SW_MAXIMIZE, WindowState.NORMAL: SW_RESTORE}
#: the process that shows UWP apps' windows: its name says nothing about the app
_UWP_HOST = "applicationframehost"


def app_label(title: str, image: str) -> str:
    """How a list names the app: the caption's last part ("Untitled - Notepad" -> "Notepad"), else
    the program's name ("msedge.exe" -> "Msedge")."""
    if " - " in title:
        return title.rsplit(" - ", 1)[-1].strip()
    stem = ntpath.splitext(ntpath.basename(image))[0]
    return title.strip() if program_key(image) == _UWP_HOST or not stem else stem[:1].upper() + stem[1:]


class WinWindowMethods:
    """The window tools of WindowsDesktop (which supplies ``_api``, ``_kb_lock`` and the target)."""

    _api: Any

    def app_windows(self, name: str | None) -> list[AppWindow]:
        api, own = self._api, os.getpid()
        out = []
        for hwnd in api.z_order():
            title = api.window_title(hwnd)
            pid = api.window_pid(hwnd)
            if not title or pid is None or pid == own or api.owner(hwnd):
                continue  # helper windows have no caption; owned ones are dialogs; the orb is ours
            image = api.process_image(pid)
            programs = {program_key(image)}
            if program_key(image) == _UWP_HOST:
                programs.add(normalise_title(title))
            out.append(AppWindow(hwnd, app_label(title, image), title, frozenset(programs - {""}), pid,
                                 WindowState(api.window_state(hwnd))))
        if name is None:
            return out
        return windowing.of_app(out, windowing.wanted_programs(name, "windows",
                                                              extra=getattr(self._settings, "apps", ())))  # type: ignore[attr-defined]

    def focus_window(self, window: AppWindow, cancel: CancelToken) -> None:
        api, hwnd = self._api, window.window
        windowing.verify(lambda: api.foreground_window() == hwnd, lambda: api.activate(hwnd), cancel,
                         f"I couldn't bring {window.app} to the front.", gone=lambda: not api.is_window(hwnd),
                         gone_msg=f"{window.app} closed before I could switch to it.")
        with self._kb_lock:  # type: ignore[attr-defined]
            self.target_window, self._aimed = hwnd, False  # type: ignore[attr-defined]

    def close_window(self, window: AppWindow, cancel: CancelToken) -> CloseOutcome:
        api, hwnd = self._api, window.window
        before = api.owned_windows(hwnd)
        api.post_close(hwnd)
        return windowing.wait_closed(lambda: not api.is_window(hwnd), lambda: bool(api.owned_windows(hwnd) - before),
                                     cancel, window.app, had_dialog=bool(before))

    def set_window_state(self, window: AppWindow, state: WindowState, cancel: CancelToken) -> None:
        api, hwnd = self._api, window.window
        words = {WindowState.MINIMIZED: "minimise", WindowState.MAXIMIZED: "maximise", WindowState.NORMAL: "restore"}
        windowing.verify(lambda: api.window_state(hwnd) == state.value, lambda: api.show_window(hwnd, SHOW[state]),
                         cancel, f"I asked to {words[state]} {window.app}, but its window did not change.",
                         gone=lambda: not api.is_window(hwnd))
