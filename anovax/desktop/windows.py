"""The Windows desktop: pyautogui for keys and ASCII text, SendInput for the rest.

pyautogui types through virtual-key codes, so it can only type what is on the
keyboard layout (and silently drops the rest). Other characters go through
``SendInput`` with ``KEYEVENTF_UNICODE``: one key-down/key-up pair per UTF-16 code
unit, which Windows delivers as WM_CHAR whatever the layout. Apps start directly
from their .exe (never ``start``, which needs a shell) in a console of their own, so
cmd.exe opens a window instead of inheriting ours. Not testable on the Linux CI:
only the pure helpers are unit-tested; the rest is written from the Win32 docs.
"""

from __future__ import annotations

import subprocess
from typing import Any

from anovax.desktop.base import CancelToken
from anovax.desktop.real import LAUNCH_SETTLE_S, RealDesktop
from anovax.desktop.typing import pyautogui_chord, split_runs, utf16_units
from anovax.errors import PermanentToolError, TransientToolError

INPUT_KEYBOARD = 1
KEYEVENTF_KEYUP = 0x0002
KEYEVENTF_UNICODE = 0x0004


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
        # UIPI: input into a window of a more privileged (elevated) process is blocked
        raise TransientToolError("Windows blocked the typing (is the window running as administrator?).")


class WindowsDesktop(RealDesktop):
    """Windows 10/11 desktop."""

    name = "windows"
    platform = "windows"

    def _popen_options(self) -> dict[str, Any]:
        # no DEVNULL handles: a console app given NUL as stdin would exit at once
        return {"creationflags": getattr(subprocess, "CREATE_NEW_CONSOLE", 0x10)}

    def _after_launch(self, proc: subprocess.Popen[bytes], name: str, cancel: CancelToken) -> None:
        # explorer.exe exits with 1 after handing the window to the running shell: exit
        # codes say nothing about success here, so only the short settle wait remains
        cancel.wait(LAUNCH_SETTLE_S)

    def _type_chunk(self, chunk: str) -> None:
        for plain, run in split_runs(chunk):
            if plain:
                self._gui("write", run, interval=0)
            else:
                try:
                    send_unicode(run)
                except (OSError, AttributeError) as exc:
                    raise PermanentToolError(f"I couldn't type {run!r}: {exc}.") from exc

    def _press_chord(self, chord: tuple[str, ...]) -> None:
        self._gui("hotkey", *pyautogui_chord(chord, "windows"))
