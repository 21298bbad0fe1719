"""X11: the last window the user was in that is not AnovaX's (``ActiveWindowTracker``).

The person clicks the orb to talk to AnovaX, so when a command arrives the active window is
often AnovaX's own; the keys are still meant for the window they were in just before. A named
background thread with an X connection of its own listens for ``_NET_ACTIVE_WINDOW`` changes on
the root window (PropertyChangeMask) and remembers the last active window that is not ours. It
waits in ``select`` on the connection with a timeout, so ``close()`` stops it within
``WAKE_S`` and joins it.

What it remembers is a window id with the class and pid it had: X hands a closed client's ids to
the next client, so whoever uses it checks both again (``LinuxDesktop.user_target``).
"""

from __future__ import annotations

import logging
import select
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from anovax.desktop.refocus import own_window
from anovax.desktop.x11_focus import open_display
from anovax.desktop.x11_identity import xres_opcode, xres_pid

log = logging.getLogger(__name__)

#: the longest the thread sleeps without looking at its stop flag
WAKE_S = 0.2


@dataclass(frozen=True)
class Tracked:
    """A window the user was in."""

    window: int
    #: its WM_CLASS ("instance.Class") and client pid when it was active
    wm_class: str
    pid: int | None


class ActiveWindowTracker:
    """Remembers the last active window that is not AnovaX's; ``close()`` joins its thread."""

    def __init__(self, display_name: str | None = None, *, on_change: Callable[[int | None], None] | None = None,
                 display: Any = None) -> None:
        from Xlib import X, error

        self._X, self._error = X, error
        self._display = display if display is not None else open_display(display_name)
        self._root = self._display.screen().root
        self._active = self._display.intern_atom("_NET_ACTIVE_WINDOW")
        self._pid_atom = self._display.intern_atom("_NET_WM_PID")
        self._xres = xres_opcode(self._display)
        self._on_change = on_change
        self._lock = threading.Lock()
        self._last: Tracked | None = None
        self._stop = threading.Event()
        self._root.change_attributes(event_mask=X.PropertyChangeMask)
        self._display.sync()
        self._note()  # the window active before the first change
        self._thread = threading.Thread(target=self._run, name="x11-active-window", daemon=True)
        self._thread.start()

    def last(self) -> Tracked | None:
        """The last active window that was not AnovaX's (as seen; it may have closed since)."""
        with self._lock:
            return self._last

    def forget(self, window: int) -> None:
        """Drop ``window`` (it no longer exists)."""
        with self._lock:
            if self._last is not None and self._last.window == window:
                self._last = None

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        try:
            fileno = self._display.fileno()
            while not self._stop.is_set():
                ready, _, _ = select.select([fileno], [], [], WAKE_S)
                changed = False
                # pending_events() also reads what select saw arrive
                while self._display.pending_events():
                    event = self._display.next_event()
                    changed |= event.type == self._X.PropertyNotify and event.atom == self._active
                if changed:
                    self._note()
        except Exception as exc:  # the server went away: nothing more to track, and nothing to clean up
            if not self._stop.is_set():
                log.warning("stopped tracking the active window: %s", exc)

    def _note(self) -> None:
        window = self._active_window()
        if window:
            seen = self._describe(window)
            if seen is not None and not own_window(seen.wm_class, seen.pid):
                with self._lock:
                    self._last = seen
        if self._on_change is not None:
            self._on_change(window)

    def _active_window(self) -> int | None:
        try:
            prop = self._root.get_full_property(self._active, self._X.AnyPropertyType)
        except self._error.XError:
            return None
        return int(prop.value[0]) if prop is not None and len(prop.value) else None

    def _describe(self, window: int) -> Tracked | None:
        win = self._display.create_resource_object("window", window)
        try:
            cls = win.get_wm_class()
            prop = win.get_full_property(self._pid_atom, self._X.AnyPropertyType)
            pid = int(prop.value[0]) if prop is not None and len(prop.value) else None
            if pid is None and self._xres is not None:
                pid = xres_pid(self._display, self._xres, window)
        except self._error.XError:  # closed between the change and our look
            return None
        return Tracked(window, ".".join(cls) if cls else "", pid)

    def close(self) -> None:
        """Stop the thread (within WAKE_S), join it, and disconnect."""
        self._stop.set()
        self._thread.join(WAKE_S * 10)
        if self._thread.is_alive():
            log.warning("the active-window tracker did not stop in time")
            return  # its connection is still in use; the daemon thread ends with the process
        try:
            self._display.close()
        except Exception as exc:  # the server may already be gone: nothing left to release
            log.debug("closing the tracker's X connection: %s", exc)
