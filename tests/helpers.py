"""Small test helpers: a fake clock and waiting for observable state (never a bare sleep)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path


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


def logged_events(path: Path) -> list[dict]:
    """The events a running AnovaX has finished writing to its JSONL log.

    A reader can catch the writer mid-line: Linux grows a file a page at a time, so a line that
    straddles a 4 KB boundary is visible half-written for a moment (it failed a CI run). Only
    the lines up to the last line break are whole."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    whole = raw[: raw.rfind(b"\n") + 1]
    return [json.loads(line) for line in whole.decode("utf-8").splitlines() if line.strip()]


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


def in_thread(fn: Callable[[], object]) -> Future:
    """Start ``fn()`` on a daemon thread; its Future says whether it has returned yet (and what)."""
    future: Future = Future()

    def run() -> None:
        try:
            future.set_result(fn())
        except BaseException as exc:  # handed to whoever asks the future
            future.set_exception(exc)

    threading.Thread(target=run, name="in-thread", daemon=True).start()
    return future


def finishes(fn: Callable[[], object], timeout_s: float = 30.0, what: str = "the call") -> object:
    """Run ``fn()`` on a thread and return its result (or raise what it raised); fail the test if it
    is still running after ``timeout_s``. A generous deadline against a hang, not a measurement:
    pick a ``fn`` that can only finish the way the test means (e.g. a wait only a token ends)."""
    future = in_thread(fn)
    try:
        return future.result(timeout_s)
    except FutureTimeout:
        if future.done():  # fn itself raised a TimeoutError
            raise
        raise AssertionError(f"{what} was still running after {timeout_s} s") from None


def wait_or_exit(predicate: Callable[[], object], timeout_s: float, what: str, *, prog: str) -> object:
    """``wait_for`` for scripts: on time-out, exit with one line naming ``prog`` (no traceback)."""
    try:
        return wait_for(predicate, timeout_s, what)
    except AssertionError as exc:
        raise SystemExit(f"{prog}: {exc}") from None


def voice_threads(voice) -> list[str]:  # noqa: ANN001 - a VoiceInput
    """The names of ``voice``'s own threads still alive (after ``close`` there should be none).
    Only its own: a thread another test left behind must not fail this one."""
    return [t.name for t in (voice._listener, voice._worker) if t.is_alive()]
