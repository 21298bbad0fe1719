"""How far ``anovax --audio-file`` has read, on one line of a terminal while it works.

A ten-minute recording takes a minute or two to hear, and said nothing meanwhile (a first-time
user thought it had hung). On a terminal one line, rewritten in place, says where it is:
``anovax: reading talk.wav: 2:31 of 9:45 (26%)``. It appears only once the reading has taken
``SHOW_AFTER_S`` (a short file never flickers one), and is erased before anything else is
written, under the same lock as every other write, so the heard lines and results are never
written over. Not on a pipe or a file: a log gets no ``\\r`` lines.

The "audio-progress" thread is this module's own; ``close`` ends it and erases the line.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TextIO

#: how long reading must have taken before the line appears
SHOW_AFTER_S = 1.0
#: how often the line is rewritten
REFRESH_S = 0.5
_CLEAR = "\r\x1b[K"


def clock_text(seconds: float) -> str:
    """``9:45``; ``1:02:03`` past an hour."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def progress_text(name: str, position_s: float, duration_s: float) -> str:
    if duration_s <= 0:
        return f"anovax: reading {name}: {clock_text(position_s)}"
    share = min(100, int(100 * position_s / duration_s))
    return f"anovax: reading {name}: {clock_text(position_s)} of {clock_text(duration_s)} ({share}%)"


class ReadProgress:
    """The progress line for one recording: ``position()`` and ``duration()`` are read on each refresh."""

    def __init__(self, out: TextIO, lock: Any, name: str, position: Callable[[], float],
                 duration: Callable[[], float], *, inline: bool | None = None) -> None:
        self.out = out
        self.lock = lock
        self.inline = _isatty(out) if inline is None else inline
        self._name = name
        self._position = position
        self._duration = duration
        self._shown = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="audio-progress", daemon=True)

    def start(self) -> ReadProgress:
        if self.inline:
            self._thread.start()
        return self

    def erase(self) -> None:
        """Take the line off the screen (call with ``lock`` held, before writing); it comes back
        at the next refresh."""
        if self._shown:
            self.out.write(_CLEAR)
            self.out.flush()
            self._shown = False

    def above(self, text: str, out: TextIO | None = None) -> None:
        """Print ``text`` on a line of its own with the progress line out of its way (the console's
        ``Lines`` call this while it is their ``status``: the verbose trace, a timer's alert)."""
        with self.lock:
            self.erase()
            stream = out if out is not None else self.out
            stream.write(text + "\n")
            stream.flush()

    def close(self) -> None:
        self._done.set()
        if self._thread.is_alive():
            self._thread.join(2.0)
        with self.lock:
            self.erase()

    def _run(self) -> None:
        if self._done.wait(SHOW_AFTER_S):
            return
        while not self._done.is_set():
            text = progress_text(self._name, self._position(), self._duration())
            with self.lock:
                if self._done.is_set():
                    return
                self.out.write(_CLEAR + text)
                self.out.flush()
                self._shown = True
            self._done.wait(REFRESH_S)


def _isatty(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):  # a stream without a terminal, or already closed
        return False
