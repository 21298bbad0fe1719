"""The Desktop interface every adapter implements, and the cancel token agents carry.

Methods block until the action is done, raise ``TransientToolError`` or
``PermanentToolError`` (anovax.errors) when it fails, and ``Cancelled`` when the
token is set. Long actions (typing) work in small units and check the
token between them: a Python thread cannot be killed, so this is how an expired
agent stops within one unit.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from anovax.errors import Cancelled
from anovax.target import TargetClass, WindowIdentity

if TYPE_CHECKING:  # windowing imports this module for CancelToken
    from anovax.desktop.windowing import AppWindow, CloseOutcome, WindowState

#: typing goes in chunks of this many characters, with a cancel check between chunks
TYPE_CHUNK_CHARS = 8


class CancelToken:
    """Set once, by the janitor or a stop button; checked by agents between units of work.

    A token made with a ``parent`` (an agent's token under its command's, a sub-plan's under
    its MetaAgent's, an utterance's under the agent speaking) is cancelled as soon as the parent
    is, with the parent's reason, without the parent having to know its children."""

    #: how often ``wait`` looks at the parent (the only extra latency a chained stop has)
    PARENT_POLL_S = 0.01

    def __init__(self, parent: CancelToken | None = None) -> None:
        self._event = threading.Event()
        self.reason = ""
        self._parent = parent

    def cancel(self, reason: str = "cancelled") -> None:
        if not self._event.is_set():
            self.reason = reason
            self._event.set()

    def _follow(self) -> bool:
        parent = self._parent
        if parent is not None and not self._event.is_set() and parent.cancelled:
            self.cancel(parent.reason or "cancelled")
        return self._event.is_set()

    @property
    def cancelled(self) -> bool:
        return self._follow()

    def check(self) -> None:
        """Raise Cancelled if the token is set."""
        if self._follow():
            raise Cancelled(f"Stopped: {self.reason}.")

    def wait(self, seconds: float | None) -> bool:
        """Sleep up to ``seconds``; True if cancelled meanwhile (an interruptible sleep)."""
        if self._parent is None:
            return self._event.wait(seconds)
        deadline = None if seconds is None else time.monotonic() + seconds
        while not self._follow():
            left = self.PARENT_POLL_S if deadline is None else min(self.PARENT_POLL_S, deadline - time.monotonic())
            if left <= 0:
                return self._follow()
            self._event.wait(left)
        return True


@dataclass(frozen=True)
class LaunchEvidence:
    """Proof that a launched app's window exists and has the focus (issue 5, point 2)."""

    #: the window's id (X11: the client window, not the window manager's frame)
    window: int
    #: its title when it got the focus
    title: str
    #: its class (X11 WM_CLASS as "instance.Class"); "" when unset
    wm_class: str
    #: the process that owns it, when the window says so (Tk windows don't), else None
    pid: int | None
    #: from the start of launch_app to verified focus
    seconds: float
    #: how the app was judged ready for keys where there is more than one way (X11: "quiet",
    #: waiting for events; "busy", an app that never idles), else ""
    ready: str = ""

    def as_data(self) -> dict[str, Any]:
        """The ``verified`` payload of AGENT_VERIFIED."""
        data = {"window": hex(self.window), "title": self.title, "class": self.wm_class,
                "pid": self.pid, "seconds": round(self.seconds, 4)}
        return data | ({"ready": self.ready} if self.ready else {})


def launch_evidence(desktop: object) -> LaunchEvidence | None:
    """The evidence of ``desktop``'s last successful launch_app, or None.

    ``launch_evidence()`` is an optional Desktop method: adapters that verify the new
    window (LinuxDesktop on X11) return a ``LaunchEvidence``; the others lack it or
    return None, and open_app then reports the launch without a ``verified`` payload.
    """
    method = getattr(desktop, "launch_evidence", None)
    return method() if callable(method) else None


@dataclass(frozen=True)
class KeyTarget:
    """The window the next keys would go to, named for a question and re-activated after a yes."""

    #: the adapter's window id (X11: the client window); None when only the name is known
    window: int | None
    #: its title (or the app's name when the adapter has no titles)
    title: str


def keyboard_target(desktop: object) -> KeyTarget | None:
    """``desktop``'s optional ``keyboard_target()``: the window keys would go to now, or None
    when the adapter cannot tell (then a question names the app the plan named)."""
    method = getattr(desktop, "keyboard_target", None)
    return method() if callable(method) else None


def refocus(desktop: object, target: KeyTarget, cancel: CancelToken) -> None:
    """``desktop``'s optional ``refocus(target, cancel)``: bring ``target`` back to the front and
    verify it has the focus before the first key of a confirmed plan (a click on the orb's Yes
    moved the focus to the orb). Raises PermanentToolError when it cannot."""
    method = getattr(desktop, "refocus", None)
    if callable(method):
        method(target, cancel)


def user_target(desktop: object) -> WindowIdentity | None:
    """``desktop``'s optional ``user_target()``: the window keys go to when the plan opens no app:
    the focused window unless it is AnovaX's own, else the last active window that was not
    AnovaX's (the user clicked the orb to talk to it), identified by the desktop. None when the
    adapter cannot tell (the gate then has no target and the runtime treats keys as unknown)."""
    method = getattr(desktop, "user_target", None)
    return method() if callable(method) else None


def classify_app(desktop: object, name: str) -> TargetClass | None:
    """``desktop``'s optional ``classify_app(name)``: the class of the app ``name`` resolves to in
    its app table (before launching it), or None when the adapter cannot tell (the gate then
    judges the name with its own table)."""
    method = getattr(desktop, "classify_app", None)
    return method(name) if callable(method) else None


def aim(desktop: object, target: WindowIdentity, cancel: CancelToken) -> None:
    """``desktop``'s optional ``aim(target, cancel)``: make ``target`` the window keys go to:
    re-activate it when something else (the orb) has the focus, verify that it has, and from
    then on check before every chunk that it still has (point 3 of issue 16: a change refuses
    the rest). Raises PermanentToolError when the window is gone or will not take the focus."""
    method = getattr(desktop, "aim", None)
    if callable(method):
        method(target, cancel)


def return_to_user(desktop: object) -> None:
    """``desktop``'s optional ``return_to_user()``: give the focus back to the last window the
    user was in that is not AnovaX's (after an orb command that acted on no window)."""
    method = getattr(desktop, "return_to_user", None)
    if callable(method):
        method()


class Desktop(Protocol):
    """What agents may do to the machine. One implementation per platform, plus a simulated one.

    Speaking is not the desktop's: speech out is a port of its own (``anovax.speech``)."""

    #: "simulated", "linux", "windows", "macos"
    name: str

    def launch_app(self, name: str, cancel: CancelToken) -> str:
        """Start the app known by ``name`` (an everyday name, never a path); return a description."""
        ...

    def type_text(self, text: str, cancel: CancelToken) -> int:
        """Type ``text`` into the focused window in chunks; return the number of characters typed."""
        ...

    def press_keys(self, keys: str, cancel: CancelToken) -> None:
        """Press a hotkey such as ``ctrl+s`` or a key such as ``enter``."""
        ...

    def open_url(self, url: str, cancel: CancelToken) -> Any:
        """Open an http(s) URL in the user's browser. Real adapters return the window evidence
        (``browser_watch.BrowserEvidence``: a browser window in front, new or retitled) or raise
        PermanentToolError "The browser did not open: ..."; None where windows can't be seen."""
        ...

    def screenshot(self, cancel: CancelToken) -> Path:
        """Save a PNG of the screen; return its path."""
        ...

    def now(self) -> dt.datetime:
        """The current local time (with tzinfo)."""
        ...

    # -- window tools (anovax.desktop.windowing): each verifies before it returns ----------

    def app_windows(self, name: str | None) -> list[AppWindow]:
        """The top-level windows of the app ``name`` (an everyday name, resolved as launch_app
        does), topmost first; ``None``: every app window except AnovaX's own."""
        ...

    def focus_window(self, window: AppWindow, cancel: CancelToken) -> None:
        """Bring ``window`` to the front (restored if minimised) and verify it has the focus;
        it becomes the keyboard's target, as a launched app's window does."""
        ...

    def close_window(self, window: AppWindow, cancel: CancelToken) -> CloseOutcome:
        """Ask the app politely to close ``window`` (X11 WM_DELETE_WINDOW, Windows WM_CLOSE, the
        macOS close button), never destroy it: its own "save changes?" dialog protects unsaved
        work. CLOSED when the window is gone, ASKING when that dialog waits."""
        ...

    def set_window_state(self, window: AppWindow, state: WindowState, cancel: CancelToken) -> None:
        """Minimise, maximise or restore ``window`` and verify that it is so."""
        ...

    def close(self) -> None:
        """Release threads and devices."""
        ...


def chunks(text: str, size: int = TYPE_CHUNK_CHARS) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]
