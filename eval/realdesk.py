"""The X display of the real-app suite, seen and handled from outside AnovaX, as a person (or a
screen reader) would see it: visible windows by class and title, the active window, an editor's
text copied through the clipboard, and the apps a run opened ended by the pids their windows name.

Every look is an ``xdotool``/``xclip`` call against the suite's own Xvfb (``env``); nothing here
imports AnovaX.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

#: between two looks at the screen: each look is a process (7-11 ms), and two cores are shared
POLL_S = 0.05
#: a marker no editor holds, so a copy that did not happen is not read as the editor's text
_MARKER = "\u2063nothing copied yet"


def poll(look: Callable[[], T], timeout_s: float) -> T | None:
    """``look()`` until it is truthy (returned) or ``timeout_s`` has passed (None)."""
    end = time.monotonic() + timeout_s
    while True:
        value = look()
        if value:
            return value
        if time.monotonic() >= end:
            return None
        time.sleep(POLL_S)


@dataclass(frozen=True)
class Desk:
    """One X display (``env`` holds DISPLAY and XAUTHORITY)."""

    env: dict[str, str]

    def run(self, *argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(argv), env={**os.environ, **self.env}, input=stdin, capture_output=True,
                              text=True, timeout=30)

    def xdo(self, *args: str) -> str:
        """``xdotool args`` (its output); RuntimeError when it fails."""
        done = self.run("xdotool", *args)
        if done.returncode != 0:
            raise RuntimeError(f"xdotool {' '.join(args)}: {done.stderr.strip() or done.returncode}")
        return done.stdout

    # -- windows ------------------------------------------------------------------------------

    def windows(self, cls: str) -> list[str]:
        """The visible windows whose WM_CLASS matches ``cls`` (a regex, case-insensitive)."""
        return self.run("xdotool", "search", "--onlyvisible", "--class", cls).stdout.split()

    def titled(self, name: str) -> list[str]:
        """The visible windows whose title matches ``name`` (a regex)."""
        return self.run("xdotool", "search", "--onlyvisible", "--name", name).stdout.split()

    def name(self, window: str) -> str | None:
        """The title of ``window``, or None when it no longer exists."""
        done = self.run("xdotool", "getwindowname", window)
        return done.stdout.rstrip("\n") if done.returncode == 0 else None

    def exists(self, window: str) -> bool:
        return self.name(window) is not None

    def active(self) -> str:
        """The active window's id, or "" while none is (between two activations)."""
        done = self.run("xdotool", "getactivewindow")
        return done.stdout.strip() if done.returncode == 0 else ""

    def activate(self, window: str, timeout_s: float = 10.0) -> bool:
        self.run("xdotool", "windowactivate", window)
        return bool(poll(lambda: self.active() == window, timeout_s))

    def pid(self, window: str) -> int | None:
        done = self.run("xdotool", "getwindowpid", window)
        return int(done.stdout) if done.returncode == 0 and done.stdout.strip().isdigit() else None

    # -- text ---------------------------------------------------------------------------------

    def clipboard(self) -> str | None:
        """The clipboard's text, or None while nobody holds it."""
        done = self.run("xclip", "-o", "-selection", "clipboard")
        return done.stdout if done.returncode == 0 else None

    def copy_text(self, window: str, timeout_s: float = 15.0) -> str | None:
        """What the editor ``window`` holds, copied as a person would (Ctrl+A, Ctrl+C there) and
        read from the clipboard; None when nothing was copied in time. The window is activated
        first (whether it had the focus is a check of its own); the copy is asked again until the
        clipboard changes, since the keys may land while GTK is still drawing."""
        # not captured: xclip's child serves the selection and would hold the pipes open
        subprocess.run(["xclip", "-i", "-selection", "clipboard"], env={**os.environ, **self.env}, input=_MARKER,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True, timeout=30)
        if not poll(lambda: self.clipboard() == _MARKER, 10.0) or not self.activate(window):
            return None

        def copied() -> str | None:
            self.run("xdotool", "key", "ctrl+a", "ctrl+c")  # to the focused window (GTK ignores sent keys)
            text = self.clipboard()
            return None if text is None or text == _MARKER else text
        text = poll(copied, timeout_s)
        # leave no selection behind: a later command's keys would replace it
        self.run("xdotool", "key", "ctrl+End")
        return text

    # -- clean-up -----------------------------------------------------------------------------

    def end_apps(self, classes: Iterable[str], pids: Iterable[int] = (), timeout_s: float = 20.0) -> list[str]:
        """SIGKILL the processes behind the visible windows of ``classes`` and ``pids`` (an unsaved
        buffer would ask before closing); the classes whose windows stayed up."""
        owners = {p for cls in classes for w in self.windows(cls) if (p := self.pid(w))} | set(pids)
        for pid in owners:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        reap(owners)
        return [cls for cls in classes if not poll(lambda c=cls: not self.windows(c), timeout_s)]


def reap(pids: Iterable[int]) -> None:
    """Collect the ones that are our children (PID 1 here does not reap orphans)."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
