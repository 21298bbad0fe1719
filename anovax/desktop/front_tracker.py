"""Windows and macOS: the last window (or app) the user was in that is not AnovaX's.

X11 announces focus changes as events (x11_tracker.py); here the cheap question is "what is in
front now" (GetForegroundWindow; lsappinfo), so a named thread asks it every ``every_s`` and
remembers the last answer that is not ours. ``close()`` stops and joins it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class FrontTracker(Generic[T]):
    """Polls ``front()`` on a thread named ``name``; ``last()`` is the last answer ``own`` rejected not."""

    def __init__(self, front: Callable[[], T | None], own: Callable[[T], bool], *, name: str,
                 every_s: float) -> None:
        self._front, self._own, self._every_s = front, own, every_s
        self._lock = threading.Lock()
        self._last: T | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def last(self) -> T | None:
        with self._lock:
            return self._last

    def forget(self, value: T) -> None:
        with self._lock:
            if self._last == value:
                self._last = None

    def _run(self) -> None:
        failures = 0
        while not self._stop.wait(self._every_s):
            try:
                seen = self._front()
                failures = 0
            except Exception as exc:  # one failed look is no reason to stop; a broken API is
                failures += 1
                if failures >= 10:
                    log.warning("stopped tracking the front window: %s", exc)
                    return
                continue
            if seen is not None and not self._own(seen):
                with self._lock:
                    self._last = seen

    def close(self) -> None:
        self._stop.set()
        self._thread.join(self._every_s * 10 + 1.0)
