"""The orb's countdown chips: the pending timers and reminders, folded from the TIMER_* events.

Plain data like asking.py: no Tk, no clock of its own (``now`` is passed in, the clock of
``Event.ts``). A front end that subscribes late replays the bus's ring first (``replay``), so
timers restored at start-up are shown too; an id seen fired or cancelled never comes back.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from anovax.events import Event, EventType
from anovax.timers.when import countdown

TIMER_EVENTS = frozenset({EventType.TIMER_SET, EventType.TIMER_FIRED, EventType.TIMER_CANCELLED})
#: the name is cut, never the time: one chip per row in the 280 px orb holds about 40 characters
_NAME_CHARS = 28


@dataclass(frozen=True)
class TimerView:
    """One countdown chip as drawn at one moment."""

    timer_id: str
    #: "tea timer", "5 minute timer", "stretch reminder"
    name: str
    #: seconds until it fires (0 once due, until TIMER_FIRED takes it away)
    left_s: float

    @property
    def label(self) -> str:
        """ "◷ tea timer 4:59" (the name cut to fit the orb's fixed width)."""
        name = self.name if len(self.name) <= _NAME_CHARS else self.name[:_NAME_CHARS - 1].rstrip() + "…"
        return f"◷ {name} {countdown(self.left_s)}"


@dataclass
class Countdowns:
    """The pending timers by id: (name, due time in seconds since the epoch)."""

    _pending: dict[str, tuple[str, float]] = field(default_factory=dict)
    _ended: set[str] = field(default_factory=set)
    #: the labels last drawn: ``tick`` says when a second has passed on any of them
    _drawn: tuple[str, ...] = ()
    #: the last alert (a fired timer's message) until dismissed; "" for none
    alert: str = ""
    #: every alert's message, in order, for the model's history to take (``take_fired``)
    fired: list[str] = field(default_factory=list)

    def apply(self, event: Event) -> None:
        data = event.data or {}
        timer_id = str(data.get("timer_id", ""))
        if not timer_id:
            return
        if event.type is EventType.TIMER_SET:
            try:
                due = float(data.get("due", 0.0))
            except (TypeError, ValueError):
                return
            if timer_id not in self._ended:
                self._pending[timer_id] = (str(data.get("name") or "timer"), due)
        elif event.type in TIMER_EVENTS:
            self._pending.pop(timer_id, None)
            if event.type is EventType.TIMER_FIRED and timer_id not in self._ended:
                # said aloud only where speech works, and a command's reply may come right after:
                # it stays (in its own colour) until the next command or a click (``dismiss``)
                self.alert = str(data.get("message") or f"Your {data.get('name') or 'timer'} is done.")
                self.fired.append(self.alert)
            self._ended.add(timer_id)

    def dismiss(self) -> bool:
        """Hide the alert (a new command, a click); True if one was shown."""
        shown, self.alert = bool(self.alert), ""
        return shown

    def replay(self, events: Iterable[Event]) -> None:
        """Fold the TIMER_* events among ``events`` (the bus's ring, for a front end starting late)."""
        for event in events:
            if event.type in TIMER_EVENTS:
                self.apply(event)

    def views(self, now: float) -> tuple[TimerView, ...]:
        """The chips, soonest first."""
        ordered = sorted(self._pending.items(), key=lambda item: item[1][1])
        return tuple(TimerView(timer_id, name, max(0.0, due - now)) for timer_id, (name, due) in ordered)

    def tick(self, now: float) -> bool:
        """True when a chip's text changed since the last tick (once a second while any runs)."""
        drawn = tuple(v.label for v in self.views(now))
        changed, self._drawn = drawn != self._drawn, drawn
        return changed
