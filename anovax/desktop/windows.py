"""The Windows desktop: pyautogui for keys and ASCII text, SendInput for the rest.

pyautogui types through virtual-key codes, so it can only type what is on the
keyboard layout (and silently drops the rest). Other characters go through
``SendInput`` with ``KEYEVENTF_UNICODE``: one key-down/key-up pair per UTF-16 code
unit, which Windows delivers as WM_CHAR whatever the layout. Apps start directly
from their .exe (never ``start``, which needs a shell) in a console of their own, so
cmd.exe opens a window instead of inheriting ours. A program that is not on PATH is
looked up where installers register it, the App Paths registry key (chrome.exe,
msedge.exe, winword.exe), as the Run box does.

Verified launches (as on X11, linux.py): ``launch_app`` returns once a *new* visible
top-level window of the app is the foreground window and has stayed so for
``SETTLE_S``; ``launch_evidence()`` says which window, and it becomes the keyboard's
target. A window is the app's when its process is the one we started, or runs the
same program (chrome.exe, explorer.exe hand the window to an instance that was already
running and exit), or its title contains the app's name: UWP apps such as calc.exe
show their window from ApplicationFrameHost.exe, whose name says nothing. A new window
that is not brought to the front (Windows' foreground lock may only flash its taskbar
button when AnovaX itself is not in front) is not verified: the launch then fails
with "did not open a window in time" when the agent's time runs out. Windows 11's
Notepad may open a tab in a window that is already there instead of a new window;
that is not verified either.

The focus guard: while a target is known, each run of text and each chord is sent
only after checking that the target is still the foreground window, else typing stops
with "Focus moved to <title>." (a closed target is forgotten and keys go wherever the
focus is, as before any launch). A dialog of the app itself (Save As) is a window of its
own, so it stops typing too, as on X11. Windows has no equivalent of the X server grab
linux.py types under, so the gap between the check and SendInput remains: a window
that takes the focus in that gap gets the rest of that run (at most one chunk).
SendInput is also subject to UIPI: keys meant for a window of an elevated
("run as administrator") process are dropped, and per the SendInput documentation
neither its return value nor GetLastError says so; nothing here can notice that.

Not testable on the Linux CI against the real OS: the logic is unit-tested against a
fake ``WinApi`` (tests/test_desktop_windows.py); win32.py is written from the Win32 docs.
"""

from __future__ import annotations

import logging
import ntpath
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from anovax.desktop import apps
from anovax.desktop.apps import normalise_name
from anovax.desktop.apps import normalise_title as normalise
from anovax.desktop.base import CancelToken, LaunchEvidence
from anovax.desktop.browser_watch import FrontWindow
from anovax.desktop.front_target import FrontTargetMethods, FrontTargeting, windows_identity
from anovax.desktop.known_apps import windows_image
from anovax.desktop.launcher import SETTLE_S, Launcher, browser_app_argv
from anovax.desktop.real import RealDesktop
from anovax.desktop.typing import pyautogui_chord, split_runs, utf16_units
from anovax.desktop.win32 import Win32Api, WinApi
from anovax.desktop.win_windows import WinWindowMethods
from anovax.errors import PermanentToolError, TransientToolError
from anovax.target import TargetClass, WindowIdentity

log = logging.getLogger(__name__)

INPUT_KEYBOARD = 1
KEYEVENTF_KEYUP = 0x0002
KEYEVENTF_UNICODE = 0x0004

#: how often launch_app looks at the foreground window (GetForegroundWindow is a cheap call)
POLL_S = 0.01
# a new foreground window counts as the app's once it has kept the foreground for SETTLE_S
# (anovax.desktop.launcher): a splash window, or another window that grabs the foreground
# right after, is not taken for the app
#: a safety net for a token that never fires: no app takes this long to show a window
LAUNCH_MAX_S = 60.0
#: while the foreground changes GetForegroundWindow answers NULL for a moment: look this
#: long for the window that took it (nothing is typed meanwhile) so the message can name it
FOCUS_SETTLE_S = 0.2


def unicode_events(text: str) -> list[tuple[int, int]]:
    """(scan code, flags) for each SendInput event that types ``text``: down then up per unit."""
    events = []
    for unit in utf16_units(text):
        events.append((unit, KEYEVENTF_UNICODE))
        events.append((unit, KEYEVENTF_UNICODE | KEYEVENTF_KEYUP))
    return events


def send_unicode(text: str) -> None:
    """Type ``text`` with SendInput(KEYEVENTF_UNICODE)."""
    import ctypes
    from ctypes import wintypes

    class KEYBDINPUT(ctypes.Structure):
        _fields_ = [("wVk", wintypes.WORD), ("wScan", wintypes.WORD), ("dwFlags", wintypes.DWORD),
                    ("time", wintypes.DWORD), ("dwExtraInfo", ctypes.c_size_t)]

    class MOUSEINPUT(ctypes.Structure):  # the largest member: it fixes sizeof(INPUT)
        _fields_ = [("dx", wintypes.LONG), ("dy", wintypes.LONG), ("mouseData", wintypes.DWORD),
                    ("dwFlags", wintypes.DWORD), ("time", wintypes.DWORD), ("dwExtraInfo", ctypes.c_size_t)]

    class _INPUTUNION(ctypes.Union):
        _fields_ = [("ki", KEYBDINPUT), ("mi", MOUSEINPUT)]

    class INPUT(ctypes.Structure):
        _fields_ = [("type", wintypes.DWORD), ("u", _INPUTUNION)]

    events = unicode_events(text)
    array = (INPUT * len(events))()
    for slot, (scan, flags) in zip(array, events):
        slot.type = INPUT_KEYBOARD
        slot.u.ki = KEYBDINPUT(0, scan, flags, 0, 0)
    sent = ctypes.windll.user32.SendInput(len(events), array, ctypes.sizeof(INPUT))
    if sent != len(events):
        # the documented cause is input blocked by another thread (BlockInput); a UIPI block
        # (an elevated target window) is *not* reported here: those keys vanish silently
        raise TransientToolError(f"Windows refused the typing (it took {sent} of {len(events)} key events).")


def program_name(proc: subprocess.Popen[bytes]) -> str:
    """The file name of the program ``proc`` runs, lower case: "c:\\windows\\explorer.exe" -> "explorer.exe"."""
    args = proc.args if isinstance(proc.args, (list, tuple)) else [proc.args]
    return ntpath.basename(str(args[0])).casefold()  # ntpath: backslashes are separators on any OS


def belongs(api: WinApi, hwnd: int, proc: subprocess.Popen[bytes], name: str) -> tuple[bool, int | None, str]:
    """Whether ``hwnd`` is a window of the app started as ``proc`` under the name ``name``,
    with the window's pid and title (looked up anyway, for the evidence).

    The window's process is ``proc``; or it runs the same program (explorer.exe and
    chrome.exe pass the request to their running instance, which opens the window, and
    exit); or its title contains the app's name or the program's: UWP apps (calc.exe)
    show their window from ApplicationFrameHost.exe, so neither pid nor program can tell.
    """
    pid = api.window_pid(hwnd)
    title = api.window_title(hwnd)
    if pid is not None and pid == proc.pid:
        return True, pid, title
    program = program_name(proc)
    if pid is not None and ntpath.basename(api.process_image(pid)).casefold() == program:
        return True, pid, title
    names = {normalise(normalise_name(name)), normalise(Path(program).stem)} - {""}
    seen = normalise(title)
    return any(n in seen for n in names), pid, title


def wait_for_foreground(api: WinApi, proc: subprocess.Popen[bytes], name: str, before: set[int],
                        cancel: CancelToken, started: float) -> LaunchEvidence:
    """Poll until a window of ``proc`` that was not visible before the launch (``before``) is the
    foreground window and has stayed so for ``SETTLE_S``.

    TransientToolError when ``cancel`` fires first (the agent's TTL ran out) or after
    ``LAUNCH_MAX_S``. The process's exit code is not looked at: explorer.exe exits with 1
    after handing the window to the running shell, so exit codes say nothing here.
    """
    candidate, since = 0, 0.0  # the app's window, and when it was first seen in front
    pid: int | None = None
    title = ""
    while True:
        hwnd = api.foreground_window()
        if hwnd and hwnd == candidate:
            now = time.monotonic()
            if now - since >= SETTLE_S:
                title = api.window_title(hwnd) or title  # the caption it settled with
                return LaunchEvidence(hwnd, title, api.window_class(hwnd), pid, now - started)
        elif hwnd and hwnd not in before:
            mine, pid, title = belongs(api, hwnd, proc, name)
            candidate, since = (hwnd, time.monotonic()) if mine else (0, 0.0)
        else:
            candidate = 0
        if cancel.wait(POLL_S) or time.monotonic() - started > LAUNCH_MAX_S:
            raise TransientToolError(f"{name} did not open a window in time.", code="no_window")


class WindowsDesktop(WinWindowMethods, FrontTargetMethods, RealDesktop):
    """Windows 10/11 desktop; its window tools are win_windows.py's."""

    name = "windows"
    platform = "windows"

    def __init__(self, settings: Any = None, *, launcher: Launcher | None = None,
                 which: Callable[[str], str | None] = shutil.which, api: WinApi | None = None,
                 track_focus: bool = True) -> None:
        self._api: WinApi = api if api is not None else Win32Api()
        self._path_which = which
        super().__init__(settings, launcher=launcher, which=self._find_program)
        self._kb_lock = threading.Lock()
        self._launching = threading.local()  # this thread's launch: start time, windows before
        #: the target was aimed at (aim), not launched: if it closes, the keys stop
        self._aimed = False
        api_ = self._api
        # GetForegroundWindow is a cheap call: polled 10 times a second for the last user window
        self._targeting = FrontTargeting(
            self._front_identity, alive=lambda i: api_.window_pid(i.window) == i.pid,  # type: ignore[arg-type]
            activate=lambda i: api_.activate(i.window), focused=lambda i: api_.foreground_window() == i.window,
            track=track_focus, name="win-foreground", every_s=0.1)

    def _find_program(self, program: str) -> str | None:
        """PATH first, then App Paths: browsers and Office install outside PATH and register there."""
        found = self._path_which(program)
        if found or not program or any(sep in program for sep in "\\/:"):
            return found  # a path is the table's business, never a registry key name
        exe = program if program.casefold().endswith(".exe") else f"{program}.exe"
        try:
            registered = self._api.app_paths(exe)
        except OSError as exc:
            log.debug("App Paths lookup of %s failed: %s", exe, exc)
            return None
        # uninstallers do not always remove their App Paths key: only a program that is there counts
        return registered if registered and Path(registered).is_file() else None

    # -- launching: wait for the app's window -------------------------------------------

    def _popen_options(self) -> dict[str, Any]:
        # no DEVNULL handles: a console app given NUL as stdin would exit at once
        return {"creationflags": getattr(subprocess, "CREATE_NEW_CONSOLE", 0x10)}

    def _before_launch(self, name: str) -> None:
        self._last_launch = None
        self._launching.started = time.monotonic()
        try:
            self._launching.before = self._api.top_level_windows()
        except (OSError, AttributeError) as exc:  # user32 unusable (no interactive session?)
            log.warning("Can't list windows (%s): the launch of %s is not verified.", exc, name)
            self._launching.before = None

    def _after_launch(self, proc: subprocess.Popen[bytes], name: str, cancel: CancelToken) -> None:
        before: set[int] | None = getattr(self._launching, "before", None)
        if before is None:
            # explorer.exe exits with 1 after handing the window to the running shell: exit
            # codes say nothing about success here, so only the short settle wait remains
            self.launcher.settle(proc, name, cancel, check_exit=False)
            return
        evidence = wait_for_foreground(self._api, proc, name, before, cancel, self._launching.started)
        self._last_launch, self.target_window, self._aimed = evidence, evidence.window, False
        log.info("%s has the foreground after %.3f s: window %#x %r", name, evidence.seconds, evidence.window,
                 evidence.title)

    # -- the target, identified (issue 16; front_target.py) ----------------------------------

    def identify(self, hwnd: int) -> WindowIdentity | None:
        """What window ``hwnd`` is (by its process image); None when it is gone."""
        pid = self._api.window_pid(hwnd)
        if pid is None:
            return None
        return windows_identity(hwnd, pid, self._api.process_image(pid), self._api.window_title(hwnd), os.getpid())

    def _front_identity(self) -> WindowIdentity | None:
        hwnd = self._api.foreground_window()
        return self.identify(hwnd) if hwnd else None

    def classify_app(self, name: str) -> TargetClass | None:
        """The class of the program ``name`` would start (its image name), without starting it."""
        try:
            resolved = apps.resolve(name, self.platform, apps.platform_finder(self.platform, self._which),
                                    extra=getattr(self._settings, "apps", ()),
                                    browser=browser_app_argv() if os.environ.get("BROWSER") else None)
        except PermanentToolError:
            return TargetClass.UNKNOWN
        return windows_image(resolved.argv[0]) or TargetClass.UNKNOWN

    def launch_identity(self) -> WindowIdentity | None:
        """What the last verified launch really opened (None: unverified, or gone since)."""
        evidence = self._last_launch
        return self.identify(evidence.window) if evidence is not None else None

    def close(self) -> None:
        self._targeting.close()
        super().close()

    # -- the browser's window (browser_watch.py) ---------------------------------------------

    def _window_titles(self) -> dict[int, str] | None:
        try:
            return {hwnd: self._api.window_title(hwnd) for hwnd in self._api.top_level_windows()}
        except (OSError, AttributeError) as exc:  # user32 unusable: only the exit code is left
            log.warning("Can't list windows (%s): the browser is not verified.", exc)
            return None

    def _front_window(self) -> FrontWindow | None:
        hwnd = self._api.foreground_window()
        return FrontWindow(hwnd, self._api.window_title(hwnd)) if hwnd and self._api.is_window(hwnd) else None

    def _is_browser_window(self, front: FrontWindow, proc: subprocess.Popen[bytes] | None) -> bool:
        # by process image (the running browser the default handler gave the page to), or the
        # window of the browser command itself
        found = self.identify(front.window)
        return found is not None and (found.klass is TargetClass.BROWSER or (proc is not None and found.pid == proc.pid))

    # -- the focus guard --------------------------------------------------------------------

    def _check_focus(self) -> None:
        """Raise "Focus moved to ..." unless the target (if any) is the foreground window."""
        target = self.target_window
        if not self.focus_guard or target is None:
            return
        if not self._api.is_window(target):
            self.target_window, aimed, self._aimed = None, self._aimed, False
            if aimed:  # the window the keys were aimed at: refuse this once, never type elsewhere
                raise PermanentToolError("The window I was typing into was closed, so I stopped.",
                                         code="target_gone")
            # the user closed it: keys go where the focus is, as before the launch
            log.info("The window I was typing into (%#x) is gone; typing unguarded.", target)
            return
        foreground = self._api.foreground_window()
        if foreground != target:
            raise self._focus_moved(target, foreground)

    def _focus_moved(self, target: int, foreground: int) -> PermanentToolError:
        deadline = time.monotonic() + FOCUS_SETTLE_S
        while foreground in (0, target) and time.monotonic() < deadline:
            time.sleep(0.005)
            foreground = self._api.foreground_window()
        if foreground in (0, target):
            return PermanentToolError("Focus moved away from the window I was typing into.", code="focus_moved")
        title = self._api.window_title(foreground)
        return PermanentToolError(f"Focus moved to {title or f'window {foreground:#x}'}.", code="focus_moved")

    # -- the keyboard -------------------------------------------------------------------

    def _type_chunk(self, chunk: str) -> None:
        with self._kb_lock:
            for plain, run in split_runs(chunk):
                self._check_focus()  # before every run: the check-to-keys gap is one run
                if plain:
                    self._gui("write", run, interval=0)
                else:
                    try:
                        send_unicode(run)
                    except (OSError, AttributeError) as exc:
                        raise PermanentToolError(f"I couldn't type {run!r}: {exc}.") from exc

    def _press_chord(self, chord: tuple[str, ...]) -> None:
        with self._kb_lock:
            self._check_focus()
            self._gui("hotkey", *pyautogui_chord(chord, "windows"))
