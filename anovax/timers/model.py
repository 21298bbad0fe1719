"""The plain data of timers and reminders: one frozen ``Timer`` and the sentences said about it."""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from anovax.timers.when import duration_adjective, say_clock, say_duration

#: a timer label that names no purpose ("set a timer", "cancel the timer")
_GENERIC = re.compile(r"^(?:(?:a|an|the|my|one)\s+)?(?:timers?|reminders?|alarms?|countdown)?$", re.I)


class Kind(enum.StrEnum):
    """A timer runs for a span; a reminder is due at a moment and says its text."""

    TIMER = "timer"
    REMINDER = "reminder"


def is_generic(label: str) -> bool:
    return bool(_GENERIC.match(" ".join(label.split())))


def cancels_all(words: str) -> bool:
    """Whether cancelling by ``words`` cancels every timer and reminder ("all", "every timer");
    the safety gate asks first when the user's own words did not say so."""
    low = " ".join(words.lower().split())
    return low in ("all", "everything") or low.startswith(("all ", "every "))


@dataclass(frozen=True)
class Timer:
    """One timer or reminder, as persisted and as carried by the TIMER_* events."""

    timer_id: str
    kind: Kind
    #: a timer: what it is for ("tea"; "" for none); a reminder: what to say ("stretch")
    label: str
    #: when it fires, seconds since the epoch (wall clock: it must survive a restart)
    due: float
    #: when it was set, seconds since the epoch
    created: float
    #: a timer: the span asked for, in seconds (a reminder: 0)
    seconds: float = 0.0

    @property
    def name(self) -> str:
        """ "5 minute timer", "tea timer", "reminder: stretch" (a reminder's text is not a name:
        "the check the oven reminder" read badly)."""
        if self.kind is Kind.REMINDER:
            return f"reminder: {self.label}"
        return f"{self.label} timer" if self.label else f"{duration_adjective(self.seconds)} timer"

    def set_message(self, now: float) -> str:
        """What is said when it is set."""
        if self.kind is Kind.REMINDER:
            at = say_clock(datetime.fromtimestamp(self.due), datetime.fromtimestamp(now))
            return f"I'll remind you at {at}: {self.label}."
        what = f"{self.label.capitalize()} timer" if self.label else "Timer"
        return f"{what} set for {say_duration(self.seconds)}."

    def fired_message(self, *, late: bool) -> str:
        """What is said when it fires; ``late``: it came due while AnovaX was not running."""
        if self.kind is Kind.REMINDER:
            if late:
                when = datetime.fromtimestamp(self.due)
                return f"While I was off, a reminder came due at {say_clock(when, when)}: {self.label}."
            return f"Reminder: {self.label}."
        return f"While I was off, your {self.name} finished." if late else f"Your {self.name} is done."

    def left_message(self, now: float) -> str:
        """ "Your tea timer has 4 minutes and 10 seconds left." """
        left = say_duration(max(0.0, self.due - now))
        if self.kind is Kind.REMINDER:
            return f"Reminder: {self.label}, due in {left}."
        return f"Your {self.name} has {left} left."

    def matches(self, words: str) -> bool:
        """Whether the user's words name this one ("tea", "5 minute", "stretch", "the stretch reminder")."""
        key = re.sub(r"^(?:the|my|a|an)\s+|\s+(?:timer|reminder|alarm)s?$", "", " ".join(words.lower().split()))
        if not key:
            return False
        spans = (duration_adjective(self.seconds), f"{round(self.seconds)} second") if self.kind is Kind.TIMER else ()
        names = (self.label.lower(), self.name.lower(), *spans)
        return any(key == n or (len(key) > 2 and key in n) for n in names if n)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "kind": self.kind.value}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Timer:
        """A timer read back from the state file; ValueError/KeyError/TypeError for a bad record."""
        timer = cls(timer_id=str(data["timer_id"]), kind=Kind(data["kind"]), label=str(data["label"])[:80],
                    due=float(data["due"]), created=float(data["created"]), seconds=float(data.get("seconds", 0)))
        if not timer.timer_id or timer.due != timer.due:  # NaN
            raise ValueError("a timer without an id or a due time")
        return timer
