"""X11: which windows changed their title at any moment, by PropertyNotify (issue 18, round 2).

A browser asked for a page whose title equals the tab before it ("www.google.com" error pages with
no network) ends with the same window title it had: polling the title sees no change. Measured with
Chromium 1xx on Xvfb (two loopback pages titled "Same"): the window goes "Same - Chromium" ->
"Untitled - Chromium" -> "Same - Chromium", the middle title lasting 6-35 ms, shorter than the
50 ms poll. So the title properties are watched instead, on a connection of our own:

- a title read right after its PropertyNotify that differs from the one before the request: changed;
- ``_NET_WM_NAME`` set twice since the request: changed too, even when the reader came too late to
  see the middle title (the value was set away and back; a browser does not re-set its title
  unasked while it is waited for).
"""

from __future__ import annotations

import logging
import select
import threading
from collections import Counter
from collections.abc import Mapping
from typing import Any

from anovax.desktop.x11_focus import open_display

log = logging.getLogger(__name__)

#: how long the reader blocks before it looks whether it should stop
_TICK_S = 0.05


class TitleWatch:
    """Collects the windows of ``before`` (id -> title) whose title changed; ``close()`` ends it."""

    def __init__(self, before: Mapping[int, str], display_name: str | None = None) -> None:
        from Xlib import X, Xatom

        self._before = dict(before)
        self._changed: set[int] = set()
        self._sets: Counter[int] = Counter()
        #: title events read so far (tests wait on it before they call "unchanged" a result)
        self.events = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._display = open_display(display_name)
        self._net_name = self._display.intern_atom("_NET_WM_NAME")
        self._utf8 = self._display.intern_atom("UTF8_STRING")
        self._wm_name = Xatom.WM_NAME
        self._names = {self._net_name, Xatom.WM_NAME}
        self._X = X
        for window in self._before:
            try:
                self._display.create_resource_object("window", window).change_attributes(
                    event_mask=X.PropertyChangeMask)
            except Exception as exc:  # a window gone meanwhile has no title to change
                log.debug("cannot watch window %#x: %s", window, exc)
        self._display.sync()
        self._thread = threading.Thread(target=self._run, name="x11-title-watch", daemon=True)
        self._thread.start()

    def changed(self) -> frozenset[int]:
        """The windows whose title changed at some moment since the watch began."""
        with self._lock:
            return frozenset(self._changed)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1.0)
        try:
            self._display.close()
        except Exception:  # already broken: nothing to release
            pass

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                readable, _, _ = select.select([self._display.fileno()], [], [], _TICK_S)
                if readable or self._display.pending_events():
                    self._drain()
        except Exception as exc:  # the X server went away: what was seen stays seen
            log.debug("title watch stopped: %s", exc)

    def _drain(self) -> None:
        while self._display.pending_events():
            event = self._display.next_event()
            if event.type != self._X.PropertyNotify or event.atom not in self._names:
                continue
            window = event.window.id
            title = self._title(event.window)
            with self._lock:
                self.events += 1
                if event.atom == self._net_name and event.state == self._X.PropertyNewValue:
                    self._sets[window] += 1
                if (title is not None and title != self._before.get(window)) or self._sets[window] >= 2:
                    self._changed.add(window)

    def _title(self, win: Any) -> str | None:
        try:
            prop = (win.get_full_property(self._net_name, self._utf8)
                    or win.get_full_property(self._wm_name, self._X.AnyPropertyType))
        except Exception:
            return None
        if prop is None:
            return None
        value = prop.value
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
