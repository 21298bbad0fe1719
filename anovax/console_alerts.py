"""Timer alerts in the console: each TIMER_FIRED message on a line of its own.

The console subscribes when it starts, after the timer service may already have fired the
timers missed while AnovaX was off, so it first replays the bus's ring; an alert is printed
once however it arrived (by the event's ``seq``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from anovax.events import Event, EventBus, EventType


class TimerAlerts:
    """Hands each timer alert to ``write`` once, until ``close``."""

    def __init__(self, bus: EventBus, write: Callable[[str], None]) -> None:
        self._write = write
        self._seen: set[int] = set()
        self._lock = threading.Lock()
        self._open = True
        bus.subscribe("console-timers", self.feed)
        for event in bus.recent(0):
            self.feed(event)

    def feed(self, event: Event) -> None:
        if event.type is not EventType.TIMER_FIRED:
            return
        message = str((event.data or {}).get("message") or "A timer finished.")
        with self._lock:
            if not self._open or event.seq in self._seen:
                return
            self._seen.add(event.seq)
            self._write(f"AnovaX: {message}")

    def close(self) -> None:
        """No more alerts: the console is gone (the bus keeps its subscribers)."""
        with self._lock:
            self._open = False
