"""The timer service: one named thread that waits on a Condition for the next due timer.

The app owns it (``build_assistant`` makes it, ``Assistant.close`` closes it). Every change is
persisted first (``TimerStore``), then published (TIMER_SET / TIMER_FIRED / TIMER_CANCELLED) so
the log, the orb, the console and the phone see it, and a fired one is then said aloud through
``announce`` (the speaker, under the tts lock). Timers due while AnovaX was off fire at
``start`` with a "While I was off" message.

Time is the wall clock (``clock``, injectable): a due time must mean the same after a restart.
The thread wakes at least every ``MAX_SLEEP_S``, so a clock that jumps (a suspended laptop)
delays a timer by at most that much.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from anovax.desktop.base import CancelToken
from anovax.errors import NothingToCancel, TimerError
from anovax.events import EventBus, EventType
from anovax.timers.model import Kind, Timer, cancels_all, is_generic
from anovax.timers.store import TimerStore
from anovax.timers.when import MAX_SECONDS

log = logging.getLogger(__name__)
#: the longest the thread sleeps without looking at the clock again
MAX_SLEEP_S = 30.0
#: at most this many pending timers and reminders (each is a chip, a line in a file)
MAX_TIMERS = 20
#: the command id of the events a firing timer causes (it belongs to no command)
TIMER_COMMAND = "timers"


class TimerService:
    """Pending timers and reminders; thread-safe."""

    def __init__(self, path: Path | None, bus: EventBus, *,
                 announce: Callable[[str, str, CancelToken], None] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.bus = bus
        self.store = TimerStore(path)
        self._announce = announce
        self._clock = clock
        self._timers: dict[str, Timer] = {}
        #: timer id -> the command that set it, for taking that command back ("cancel that")
        self._set_by: dict[str, str] = {}
        self._cond = threading.Condition()
        self._closing = CancelToken()
        self._thread: threading.Thread | None = None
        #: the process answers one command and exits (``anovax --text``): a timer set now cannot
        #: go off until AnovaX runs again, and the reply must say so
        self.one_shot = False
        #: a one-shot --simulate run: timers live in memory only, and a reply setting one says so
        self.rehearsal = False

    # -- life cycle ---------------------------------------------------------------------

    def start(self, *, thread: bool = True) -> TimerService:
        """Load the saved timers, fire the ones missed while AnovaX was off, and start waiting.
        ``thread=False`` (tests with a fake clock): no thread; call ``fire_due`` yourself."""
        restored = self.store.load()
        now = self._clock()
        with self._cond:
            self._timers = {t.timer_id: t for t in restored}
        for timer in sorted(restored, key=lambda t: t.due):
            if timer.due > now:
                self.bus.emit(EventType.TIMER_SET, TIMER_COMMAND, data={**_data(timer), "restored": True})
        self.fire_due(late=True)
        if thread:
            self._thread = threading.Thread(target=self._run, name="timers", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop waiting (pending timers stay in the file) and cut off an alert being said."""
        self._closing.cancel("closing")
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5.0)

    # -- requests (the timer agent calls these) ---------------------------------------------

    def add(self, kind: Kind, label: str, *, seconds: float = 0.0, due: float | None = None,
            command_id: str = TIMER_COMMAND) -> Timer:
        """A new timer (``seconds`` from now) or reminder (at ``due``); TimerError if it cannot be."""
        now = self._clock()
        due = now + seconds if due is None else due
        if not 0 < due - now <= MAX_SECONDS + 60:
            raise TimerError("A timer or reminder must be due within a week from now.")
        label = " ".join(label.split())[:80]
        if kind is Kind.TIMER:  # "tea timer" from a model is the tea timer, not the "tea timer timer"
            label = re.sub(r"\s+(?:timer|countdown)$", "", label, flags=re.I)
        timer = Timer(timer_id=uuid.uuid4().hex[:10], kind=kind, label="" if is_generic(label) else label,
                      due=due, created=now, seconds=seconds if kind is Kind.TIMER else 0.0)
        if kind is Kind.REMINDER and not timer.label:
            if not re.search(r"\balarms?\b", label, re.I):
                raise TimerError("What should I remind you of? Say, for example, 'remind me in 10 minutes to stretch'.")
            # "set an alarm for 6:45" (the README's own example): an alarm needs no other purpose
            timer = dataclasses.replace(timer, label="alarm")
        with self._cond:
            if len(self._timers) >= MAX_TIMERS:
                raise TimerError(f"You already have {MAX_TIMERS} timers and reminders; cancel one first.")
            self._timers[timer.timer_id] = timer
            self._set_by[timer.timer_id] = command_id
            self._save()
            self._cond.notify_all()
        self.bus.emit(EventType.TIMER_SET, command_id, data=_data(timer))
        return timer

    def now(self) -> float:
        """The service's clock (seconds since the epoch): a reminder's clock time is read against it."""
        return self._clock()

    def pending(self) -> tuple[Timer, ...]:
        """The pending timers and reminders, soonest first."""
        with self._cond:
            return tuple(sorted(self._timers.values(), key=lambda t: t.due))

    def left_message(self) -> str:
        """What "how long is left" is answered with."""
        pending, now = self.pending(), self._clock()
        if not pending:
            return "You have no timers or reminders running."
        return " ".join(t.left_message(now) for t in pending)

    def cancel(self, words: str, command_id: str = TIMER_COMMAND) -> tuple[Timer, ...]:
        """Cancel what ``words`` name: "all", a kind ("timer", "the reminder": the only one of
        it), or a label ("tea", "5 minute", "stretch"). TimerError when none or several match."""
        low = " ".join(words.lower().split())
        with self._cond:
            chosen = _choose(tuple(sorted(self._timers.values(), key=lambda t: t.due)), low)
            for timer in chosen:
                del self._timers[timer.timer_id]
                self._set_by.pop(timer.timer_id, None)
            self._save()
            self._cond.notify_all()
        for timer in chosen:
            self.bus.emit(EventType.TIMER_CANCELLED, command_id, data=_data(timer))
        return chosen

    def take_back(self, set_by: str, command_id: str = TIMER_COMMAND) -> tuple[Timer, ...]:
        """Cancel the timers and reminders the command ``set_by`` set that are still pending
        (none: an empty tuple), for the command ``command_id``: "cancel that" right after "set a
        timer for five minutes"."""
        with self._cond:
            chosen = tuple(t for t in self._timers.values() if self._set_by.get(t.timer_id) == set_by)
            for timer in chosen:
                del self._timers[timer.timer_id]
                self._set_by.pop(timer.timer_id, None)
            if chosen:
                self._save()
                self._cond.notify_all()
        for timer in chosen:
            self.bus.emit(EventType.TIMER_CANCELLED, command_id, data=_data(timer))
        return chosen

    # -- firing ---------------------------------------------------------------------------

    def fire_due(self, *, late: bool = False) -> list[Timer]:
        """Fire every timer due by now: persist, publish TIMER_FIRED, then say each in turn."""
        now = self._clock()
        with self._cond:
            due = sorted((t for t in self._timers.values() if t.due <= now), key=lambda t: t.due)
            if due:  # one another AnovaX process cancelled (or rang) is not rung here too
                self._forget(self.store.gone_elsewhere())
                due = [t for t in due if t.timer_id in self._timers]
            for timer in due:
                del self._timers[timer.timer_id]
                self._set_by.pop(timer.timer_id, None)
            if due:
                self._save()
        messages = []
        for timer in due:
            message = timer.fired_message(late=late)
            messages.append(message)
            self.bus.emit(EventType.TIMER_FIRED, TIMER_COMMAND,
                          data={**_data(timer), "message": message, "late": late})
        for message in messages:
            self._say(message)
        return due

    def _say(self, message: str) -> None:
        if self._announce is None or self._closing.cancelled:
            return
        try:
            self._announce(message, TIMER_COMMAND, self._closing)
        except Exception:  # the alert was shown already; a speech failure must not stop the timers
            log.exception("could not say a timer alert")

    def _run(self) -> None:
        while not self._closing.cancelled:
            with self._cond:
                nxt = min((t.due for t in self._timers.values()), default=None)
                wait = MAX_SLEEP_S if nxt is None else min(MAX_SLEEP_S, nxt - self._clock())
                if wait > 0:
                    self._cond.wait(wait)
            if not self._closing.cancelled:
                self.fire_due()

    def _save(self) -> None:
        self._forget(self.store.save(sorted(self._timers.values(), key=lambda t: t.due)))

    def _forget(self, ids: set[str]) -> None:
        """Drop timers another process cancelled or fired (under _cond)."""
        for timer_id in ids:
            self._timers.pop(timer_id, None)
            self._set_by.pop(timer_id, None)


def _data(timer: Timer) -> dict[str, object]:
    """A TIMER_* event's data: the timer, and its name as front ends show it ("tea timer")."""
    return {**timer.to_dict(), "name": timer.name}


def _choose(pending: tuple[Timer, ...], low: str) -> tuple[Timer, ...]:
    """The timers ``low`` names among ``pending`` (see ``TimerService.cancel``)."""
    if not pending:
        raise NothingToCancel("You have no timers or reminders running.")
    everything = cancels_all(low)
    if everything or is_generic(low.removeprefix("all ").removeprefix("every ")):
        # "timer" or "reminder" narrows to that kind when there is one of it ("alarm" does not:
        # an alarm is set as a reminder, and people call a reminder a timer too)
        kind = Kind.REMINDER if "remind" in low else Kind.TIMER if "timer" in low else None
        chosen = tuple(t for t in pending if t.kind is kind) or pending
        if not everything and len(chosen) > 1:
            names = ", ".join(t.name for t in chosen)
            raise NothingToCancel(f"You have {len(chosen)} running: {names}. Say which one, or 'cancel all timers'.")
        return chosen
    chosen = tuple(t for t in pending if t.matches(low))
    if not chosen:
        raise TimerError(f"You have no timer or reminder called '{low}'.")
    return chosen
