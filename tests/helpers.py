"""Small test helpers: a fake clock and waiting for observable state (never a bare sleep)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class FakeClock:
    """A monotonic clock that moves only when a test says so."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


def wait_for(predicate: Callable[[], object], timeout_s: float = 5.0,
             what: str | Callable[[], str] = "condition") -> object:
    """Poll until ``predicate()`` is truthy; fail the test with ``what`` (or what it returns) after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s} s waiting for {what() if callable(what) else what}")
        time.sleep(0.002)
