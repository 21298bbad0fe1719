"""macOS window tools: MacDesktop's ``app_windows``, ``focus_window``, ``close_window`` and
``set_window_state`` through System Events (AppleScript, the Accessibility permission), each
verified before it returns.

As elsewhere on macOS (macos.py) an app is known by its *pid*: ``AppWindow.window`` is the pid and
the tools act on the app's front window. Closing clicks that window's close button
(``AXCloseButton``), what a person's click does: an app with unsaved changes answers with its
"save changes?" sheet, seen as a sheet on the window, and the window stays. Minimise is
``AXMinimized``, maximise the green button's full screen (``AXFullScreen``), restore both off;
each is read back. Focus is ``frontmost``, read back through lsappinfo (macfront.py).

Not testable on the Linux CI against the real OS: tested against a fake ``MacWindowApi`` and a
scripted ``osascript`` (tests/test_desktop_macos_tools.py).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from anovax.desktop import windowing
from anovax.desktop.base import CancelToken
from anovax.desktop.windowing import AppWindow, CloseOutcome, WindowState, program_key
from anovax.errors import PermanentToolError

OSASCRIPT_TIMEOUT_S = 10.0

#: every visible app with its front window: pid, name, title, windows, minimised, full screen, sheets
LIST_SCRIPT = """tell application "System Events"
  set out to ""
  repeat with p in (every application process whose background only is false)
    set {ws, t, m, f, sh} to {0, "", false, false, 0}
    try
      set ws to count of windows of p
      if ws > 0 then
        set w to window 1 of p
        set t to name of w
        set m to value of attribute "AXMinimized" of w
        set f to value of attribute "AXFullScreen" of w
        set sh to count of sheets of w
      end if
    end try
    set out to out & (unix id of p) & tab & (name of p) & tab & t & tab & ws & tab & m & tab & f & tab & sh & linefeed
  end repeat
  return out
end tell"""


@dataclass(frozen=True)
class MacApp:
    """One visible app and its front window."""

    pid: int
    name: str
    title: str
    windows: int
    minimized: bool
    full_screen: bool
    #: sheets on its front window: a "save changes?" sheet is one
    sheets: int

    @property
    def state(self) -> WindowState:
        return WindowState.MINIMIZED if self.minimized else WindowState.MAXIMIZED if self.full_screen \
            else WindowState.NORMAL


def parse_apps(text: str) -> list[MacApp]:
    """LIST_SCRIPT's output; lines that do not parse are skipped."""
    out = []
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) != 7 or not parts[0].strip().isdigit():
            continue
        pid, name, title, windows, minimized, full, sheets = parts
        try:
            out.append(MacApp(int(pid), name, "" if title == "missing value" else title, int(windows),
                              minimized == "true", full == "true", int(sheets)))
        except ValueError:
            continue
    return out


class MacWindowApi(Protocol):
    """What the window tools ask macOS; a test fake implements the same methods."""

    def apps(self) -> list[MacApp]: ...

    def raise_app(self, pid: int) -> None: ...

    def press_close(self, pid: int) -> None: ...

    def set_flag(self, pid: int, attribute: str, on: bool) -> None:
        """Set ``AXMinimized`` or ``AXFullScreen`` of the app's front window."""
        ...


class SystemEvents:
    """``MacWindowApi`` through ``osascript`` and System Events."""

    def __init__(self, run: Callable[..., Any] = subprocess.run) -> None:
        self._run = run

    def _script(self, source: str) -> str:
        try:
            done = self._run(["osascript", "-e", source], capture_output=True, text=True, timeout=OSASCRIPT_TIMEOUT_S)
        except (OSError, subprocess.SubprocessError) as exc:
            raise PermanentToolError(f"I couldn't ask System Events about windows ({exc}).") from exc
        if done.returncode != 0:
            detail = (done.stderr.strip().splitlines() or ["no details"])[-1]
            raise PermanentToolError("I couldn't manage windows: macOS said " + detail + " (AnovaX needs the "
                                     "Accessibility permission).", code="no_accessibility")
        return str(done.stdout)

    def apps(self) -> list[MacApp]:
        return parse_apps(self._script(LIST_SCRIPT))

    def _process(self, pid: int, body: str) -> None:
        self._script(f'tell application "System Events" to tell (first process whose unix id is {int(pid)})\n'
                     f"{body}\nend tell")

    def raise_app(self, pid: int) -> None:
        self._process(pid, "set frontmost to true")

    def press_close(self, pid: int) -> None:
        self._process(pid, 'click (first button of window 1 whose subrole is "AXCloseButton")')

    def set_flag(self, pid: int, attribute: str, on: bool) -> None:
        if attribute not in ("AXMinimized", "AXFullScreen"):
            raise ValueError(attribute)
        self._process(pid, f'set value of attribute "{attribute}" of window 1 to {"true" if on else "false"}')


class MacWindowMethods:
    """The window tools of MacDesktop (which supplies ``_api``, the frontmost-app port)."""

    _mac_windows: MacWindowApi | None = None

    def _wapi(self) -> MacWindowApi:
        if self._mac_windows is None:
            self._mac_windows = SystemEvents()
        return self._mac_windows

    def _app(self, pid: int) -> MacApp | None:
        return next((a for a in self._wapi().apps() if a.pid == pid), None)

    def app_windows(self, name: str | None) -> list[AppWindow]:
        front = self._api.frontmost()  # type: ignore[attr-defined]
        found = [a for a in self._wapi().apps() if a.windows > 0]
        found.sort(key=lambda a: front is None or a.pid != front.pid)  # the app in front first
        out = [AppWindow(a.pid, a.name, a.title, frozenset({program_key(a.name)} - {""}), a.pid, a.state)
               for a in found]
        if name is None:
            return out
        return windowing.of_app(out, windowing.wanted_programs(name, "macos",
                                                              extra=getattr(self._settings, "apps", ())))  # type: ignore[attr-defined]

    def focus_window(self, window: AppWindow, cancel: CancelToken) -> None:
        api, wapi, pid = self._api, self._wapi(), window.window  # type: ignore[attr-defined]

        def in_front() -> bool:
            front = api.frontmost()
            return front is not None and front.pid == pid

        windowing.verify(in_front, lambda: wapi.raise_app(pid), cancel, f"I couldn't bring {window.app} to the front.",
                         gone=lambda: not api.alive(pid), gone_msg=f"{window.app} quit before I could switch to it.")
        with self._kb_lock:  # type: ignore[attr-defined]
            self.target_window, self._aimed = pid, False  # type: ignore[attr-defined]

    def close_window(self, window: AppWindow, cancel: CancelToken) -> CloseOutcome:
        before = self._app(window.window)
        if before is None or before.windows == 0:
            return CloseOutcome.CLOSED

        def now() -> MacApp | None:
            return self._app(window.window)

        self._wapi().press_close(window.window)
        return windowing.wait_closed(lambda: (a := now()) is None or a.windows < before.windows,
                                     lambda: (a := now()) is not None and a.sheets > before.sheets, cancel, window.app,
                                     had_dialog=before.sheets > 0)

    def set_window_state(self, window: AppWindow, state: WindowState, cancel: CancelToken) -> None:
        wapi, pid = self._wapi(), window.window
        words = {WindowState.MINIMIZED: "minimise", WindowState.MAXIMIZED: "maximise", WindowState.NORMAL: "restore"}

        def ask() -> None:
            current = self._app(pid)
            if current is not None and current.minimized and state is not WindowState.MINIMIZED:
                wapi.set_flag(pid, "AXMinimized", False)
            if state is WindowState.MINIMIZED:
                wapi.set_flag(pid, "AXMinimized", True)
            elif current is None or current.full_screen != (state is WindowState.MAXIMIZED):
                wapi.set_flag(pid, "AXFullScreen", state is WindowState.MAXIMIZED)

        windowing.verify(lambda: (a := self._app(pid)) is not None and a.state is state, ask, cancel,
                         f"I asked to {words[state]} {window.app}, but its window did not change.",
                         gone=lambda: self._app(pid) is None)
