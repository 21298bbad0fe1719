"""X11: the window a held plan will type into, and bringing it back after the person's yes.

The question is asked while the target (a terminal the plan just opened) has the focus; the
person then clicks Yes in the orb or on the phone, or says it, and the orb's click moves the
focus. So after a yes the window is re-activated through the window manager and the keys
wait until both the EWMH active window and the X input focus are it: never typing into the
orb, or into whatever came up meanwhile.
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path

from anovax.desktop.base import CancelToken, KeyTarget
from anovax.desktop.x11_focus import X11Focus
from anovax.errors import Cancelled, PermanentToolError

#: how long a re-activation may take (openbox: one round trip, a few ms; a loaded machine: more)
REFOCUS_MAX_S = 3.0
#: ask the window manager again this often (a request can be lost in a focus change)
_RETRY_S = 0.25
_POLL_S = 0.01
#: the orb's own window class (tk.Tk(className="AnovaX")): never a target. Tk capitalises only
#: the first letter, so the window's WM_CLASS reads "anovaX.Anovax": compared case-insensitively
OWN_CLASS = "AnovaX"


def own_window(info_class: str, pid: int | None) -> bool:
    """The orb, or the terminal the console runs in (a process above ours: keys sent there would
    be typed into AnovaX's own prompt, and the person talking to it is not "in" that window)."""
    return (pid is not None and pid in _own_line()) or info_class.rsplit(".", 1)[-1].casefold() == OWN_CLASS.casefold()


@functools.lru_cache(maxsize=1)
def _line_of(pid: int) -> frozenset[int]:
    line, current = {pid}, pid
    for _ in range(64):  # a runaway chain of parents is not a real process tree
        try:
            stat = Path(f"/proc/{current}/stat").read_text()
            current = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        if current <= 1 or current in line:
            break
        line.add(current)
    return frozenset(line)


def _own_line() -> frozenset[int]:
    """This process and its ancestors (cached per pid: a fork gets its own line)."""
    return _line_of(os.getpid())


def current_target(focus: X11Focus, guarded: int | None) -> KeyTarget | None:
    """The guarded window (the app the plan launched) if there is one, else the active window;
    None when that is AnovaX's own window or nothing has the focus."""
    window = guarded if guarded is not None else focus.active_window()
    if not window:
        return None
    info = focus.describe(window)
    if info is None or own_window(info.wm_class, info.pid):
        return None
    return KeyTarget(window, info.title or info.wm_class or f"window {window:#x}")


def bring_back(focus: X11Focus, target: KeyTarget, cancel: CancelToken) -> None:
    """Re-activate ``target`` and wait until it has the focus; PermanentToolError if it cannot."""
    if target.window is None:
        return
    deadline = time.monotonic() + REFOCUS_MAX_S
    asked = 0.0
    while not focus.focused(target.window):
        if focus.describe(target.window) is None:
            raise PermanentToolError(f"{target.title} was closed while I waited for your yes, so I typed nothing.",
                                     code="focus_moved")
        now = time.monotonic()
        if now > deadline:
            raise PermanentToolError(f"I couldn't bring {target.title} back to the front, so I typed nothing.",
                                     code="focus_moved")
        if now - asked >= _RETRY_S:
            focus.activate(target.window)
            asked = now
        if cancel.wait(_POLL_S):
            raise Cancelled("Stopped before typing.")
