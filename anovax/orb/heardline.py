"""The orb's "heard" line: the last phrase said to AnovaX and what the wake gate made of it.

``heard "open notepad" → command``, ``heard "yes" → answered yes``, for a few seconds after the
phrase. VOICE_HEARD only ever carries phrases that woke AnovaX or came while it was awake
(voice/pipeline.py): what the room says while it sleeps never reaches this line.
The phone page (remote/page/app.js ``heardLine``) words it the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from anovax.events import Event
from anovax.orb.snapshot import clip

#: what each gate action is called on the line ("drop" and unknown ones add the reason)
_ACTIONS = {"command": "command", "wake": "awake", "sleep": "asleep", "barge_in": "stop speaking"}
#: the words shown, at most
WORDS_CHARS = 48


def heard_line(data: Mapping[str, Any]) -> str:
    """One VOICE_HEARD event's data as a line: the words and the decision (action, short reason)."""
    words = clip(str(data.get("heard") or data.get("text") or ""), WORDS_CHARS)
    action, reason = str(data.get("action", "")), str(data.get("reason", ""))
    if action in _ACTIONS:
        what = _ACTIONS[action]
    elif action == "answer":
        what = f"answered {data.get('text') or '?'}"
    elif action == "drop":
        what = f"dropped: {reason}" if reason else "dropped"
    else:  # a decision this orb does not know yet ("ask": did you say …?): its reason says it
        what = reason or action or "?"
    return f'heard "{words}" → {what}'


@dataclass
class HeardLine:
    """Folds VOICE_HEARD; ``line(now)`` is the line while it is fresh, else ""."""

    #: how long the line stays after the phrase
    show_s: float = 6.0
    #: the last phrase the gate turned into a command (``Snapshot.heard``)
    command: str = ""
    _line: str = field(default="", init=False, repr=False)
    _until: float = field(default=0.0, init=False, repr=False)

    def apply(self, event: Event) -> None:
        data = event.data or {}
        self._line, self._until = heard_line(data), event.ts + self.show_s
        if data.get("action") == "command":
            self.command = str(data.get("text") or data.get("heard") or "")

    def line(self, now: float) -> str:
        return self._line if now < self._until else ""

    def tick(self, now: float) -> bool:
        """Forget a line whose time is over; True if it just went (the window redraws)."""
        if self._line and now >= self._until:
            self._line = ""
            return True
        return False
