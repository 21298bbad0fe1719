"""When the talk key was held, for the wake gate's hold-to-talk rule.

A phrase counts as said with the key held when its capture overlapped a hold and ended at most
``grace_s`` after the release: the listener ends a phrase only after a pause (audio.PAUSE_S; a
streaming listener may make it adaptive), a chunk may still be in flight, and people let go on
their last syllable. Pure: times come from the gate's injectable clock.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

#: seconds after the release during which a phrase that overlapped the hold may still end
TALK_GRACE_S = 1.5


class TalkHolds:
    """The hold in progress and the last few finished ones; thread-safe (the hotkey thread and
    the orb's control worker press, the listening thread asks)."""

    def __init__(self, clock: Callable[[], float], grace_s: float = TALK_GRACE_S) -> None:
        self._clock = clock
        self.grace_s = grace_s
        self._lock = threading.Lock()
        #: when the key went down; None: not held
        self._since: float | None = None
        #: (pressed, released) of recent holds; a phrase is decided seconds after it ends at most
        self._done: deque[tuple[float, float]] = deque(maxlen=8)

    @property
    def held(self) -> bool:
        with self._lock:
            return self._since is not None

    def start(self) -> bool:
        """The key went down; False if it already was (a second source, or autorepeat)."""
        with self._lock:
            if self._since is not None:
                return False
            self._since = self._clock()
            return True

    def end(self) -> bool:
        """The key came up; False if it was not down."""
        with self._lock:
            if self._since is None:
                return False
            self._done.append((self._since, self._clock()))
            self._since = None
            return True

    def recent(self, window_s: float = 30.0) -> bool:
        """Held now, or released within the last ``window_s`` seconds (a phrase still being
        decided may have been said with it)."""
        with self._lock:
            if self._since is not None:
                return True
            now = self._clock()
            return any(released >= now - window_s for _pressed, released in self._done)

    def covers(self, start: float, end: float) -> bool:
        """A phrase captured from ``start`` to ``end`` was said with the key held."""
        with self._lock:
            if self._since is not None and end >= self._since:
                return True
            return any(start <= released and pressed <= end <= released + self.grace_s
                       for pressed, released in self._done)
