"""Taking back a voice command just given: "no, cancel that", "no stop", "that's wrong".

A recogniser sometimes hears a command the person did not say, and a person sometimes says the
wrong one. Right after it they say "no, cancel that" or "that's wrong": that stops the command
through the ordinary stop path (``Assistant.stop``), like "stop" does.

- "no, cancel that", "cancel that", "no stop" are stop utterances anyway (cancel.py): they stop
  a running command whenever they are heard as a command. Said while AnovaX speaks they are a
  barge-in, which only cuts off speech ("stop" while it talks means "be quiet"), so with a
  voice command running or just started (``RecentCommands.open``) they stop that command too.
- "that's wrong" is not a stop on its own ("that's wrong" typed a minute later is a sentence
  for the planner): it takes back a voice command only inside the window.

A "no" alone is never a take-back: while a question waits it is the answer (gate.py decides
answers before anything here sees the phrase), and otherwise it is an ordinary word.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

from anovax.cancel import is_stop_utterance

#: how long after a voice command began a take-back still reaches it (if it ended meanwhile,
#: the stop finds nothing to stop and says so)
WINDOW_S = 8.0
#: what the assistant is handed for a take-back that is not a stop utterance itself
STOP_TEXT = "cancel that"
#: whole phrases that take back the command just given (lower case; "anova" may come before)
TAKE_BACK_PHRASES: tuple[str, ...] = (
    "no cancel that", "no cancel it", "no cancel", "cancel that", "cancel it", "no stop", "no stop that",
    "no stop it", "that's wrong", "no that's wrong", "that is wrong", "no that is wrong", "that's not right",
    "no that's not right", "wrong", "no wrong",
)
#: what the offline recogniser makes of the "no" in "no, cancel that" / "no stop" (espeak-ng speech,
#: 3 voices x clean and noisy: "no cancel that" came out as itself once in 6, as "go / yo / show
#: cancel that" 3 times; "no stop" as "go stop" or "yo stop" 2 times in 6). Inside the window they
#: take back too: as a whole phrase right after a command nothing else is meant by them.
MISHEARD_NO: tuple[str, ...] = ("go", "yo", "show")

_WORD = re.compile(r"[a-z0-9']+")
_PHRASES = frozenset(tuple(p.split()) for p in (*TAKE_BACK_PHRASES, *(f"{m} {p}" for m in MISHEARD_NO
                                                                       for p in ("cancel that", "stop"))))
_NAME_LEADS = (("hey", "anova"), ("anova",))


def _words(text: str) -> tuple[str, ...]:
    words = tuple(_WORD.findall(text.lower().replace("\u2019", "'")))
    for lead in _NAME_LEADS:
        if words[:len(lead)] == lead:
            return words[len(lead):]
    return words


def takes_back(text: object) -> bool:
    """True when the whole phrase takes back the command just given ("no, cancel that")."""
    if not isinstance(text, str) or len(text) > 60:
        return False
    return _words(text) in _PHRASES


def stop_text(text: str, recent: RecentCommands) -> str | None:
    """What to hand the assistant's stop path for this voice command, or None (a command).

    A stop utterance is itself; a take-back that is not one ("that's wrong") is ``STOP_TEXT``
    while a voice command is running or just began, else None (then it is a command)."""
    if is_stop_utterance(text):
        return text
    if takes_back(text) and recent.open():
        return STOP_TEXT
    return None


class RecentCommands:
    """Voice commands running, and when the last one began; thread-safe."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, window_s: float = WINDOW_S) -> None:
        self._clock = clock
        self.window_s = window_s
        self._lock = threading.Lock()
        self._running = 0
        self._began: float | None = None

    def began(self) -> None:
        """A voice command was handed on (queued or started)."""
        with self._lock:
            self._running += 1
            self._began = self._clock()

    def ended(self) -> None:
        with self._lock:
            self._running = max(0, self._running - 1)

    def open(self) -> bool:
        """A take-back now would be about a voice command: one runs, or began within the window."""
        with self._lock:
            if self._running > 0:
                return True
            return self._began is not None and self._clock() - self._began <= self.window_s
