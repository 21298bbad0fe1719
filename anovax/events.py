"""Lifecycle events and the bus that carries them to the log, the orb and the phone.

Every stage of a command emits a frozen ``Event``; the JSONL log, the in-memory
ring (which feeds the orb and the phone's SSE stream) and ``--json`` stdout all
serialise the same objects. Publishing never blocks the publisher: each
subscriber has its own bounded queue and thread, so one that raises or stalls
loses its own events (counted in ``stats()``) and slows nobody else.
"""

from __future__ import annotations

import enum
import itertools
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


class EventType(enum.StrEnum):
    """What happened. One enum for every producer, so a typo is an AttributeError, not a silent miss."""

    COMMAND_RECEIVED = "COMMAND_RECEIVED"
    COMMAND_REJECTED = "COMMAND_REJECTED"  # the command queue was full
    PLAN_READY = "PLAN_READY"
    SAFETY_REFUSED = "SAFETY_REFUSED"
    #: the gate let the plan go ahead, before any step runs; data: the verdict (decision "allow", or
    #: "confirm" with the question asked before the held steps)
    SAFETY_PASSED = "SAFETY_PASSED"
    #: the plan waits for a person's yes; data: question_id, question, steps, target, timeout_s, frontends
    CONFIRM_REQUESTED = "CONFIRM_REQUESTED"
    #: the wait ended; data: question_id, answer (yes, no, timeout, nobody, stopped), frontend, seconds
    CONFIRM_ANSWERED = "CONFIRM_ANSWERED"
    AGENT_SPAWNED = "AGENT_SPAWNED"
    AGENT_STARTED = "AGENT_STARTED"
    AGENT_RETRY = "AGENT_RETRY"
    AGENT_VERIFIED = "AGENT_VERIFIED"  # the desktop confirmed the effect (window up and focused); data has evidence
    AGENT_DONE = "AGENT_DONE"
    AGENT_FAILED = "AGENT_FAILED"
    AGENT_EXPIRED = "AGENT_EXPIRED"
    SPEAK_START = "SPEAK_START"
    SPEAK_END = "SPEAK_END"
    COMMAND_DONE = "COMMAND_DONE"
    COMMAND_STOPPED = "COMMAND_STOPPED"  # the user said stop; data: source, dropped (queued commands), message
    PLANNER_FAULT = "PLANNER_FAULT"  # the online planner failed; data.kind says how
    RECOVERY_STARTED = "RECOVERY_STARTED"
    RECOVERY_TURN = "RECOVERY_TURN"
    RECOVERY_DONE = "RECOVERY_DONE"
    SPECULATION_HIT = "SPECULATION_HIT"
    SPECULATION_MISS = "SPECULATION_MISS"
    VOICE_STATE = "VOICE_STATE"  # voice input: listening, unavailable (data.detail says why), awake, asleep, stopped
    # one phrase said to AnovaX (it woke it, or came while awake) and what the wake gate did with it
    # (data.heard, data.action, data.reason); a phrase dropped while asleep never becomes one
    VOICE_HEARD = "VOICE_HEARD"
    REMOTE_VIEWERS = "REMOTE_VIEWERS"  # phones watching the screen changed; data.viewers is the count now
    REMOTE_PAIRED = "REMOTE_PAIRED"  # a phone used the one-time pairing link; data.ip
    REMOTE_BANNED = "REMOTE_BANNED"  # a client was locked out after failed logins; data.ip, data.until
    #: a timer or reminder is pending (set now, or restored at start); data: Timer.to_dict()
    TIMER_SET = "TIMER_SET"
    #: it came due; data: the timer, message (what is said and shown), late (it came due while AnovaX was off)
    TIMER_FIRED = "TIMER_FIRED"
    #: the user cancelled it; data: the timer
    TIMER_CANCELLED = "TIMER_CANCELLED"


@dataclass(frozen=True)
class Event:
    """One lifecycle event."""

    type: EventType
    #: the user command this belongs to
    command_id: str
    #: wall-clock time, seconds since the epoch
    ts: float = field(default_factory=time.time)
    #: the child agent, for AGENT_* events
    agent_id: str | None = None
    tool: str | None = None
    params: Mapping[str, Any] | None = None
    #: a human-readable error for *_FAILED, *_EXPIRED, SAFETY_REFUSED
    error: str | None = None
    #: anything else worth showing (plan, result, text, rule); JSON-serialisable
    data: Mapping[str, Any] | None = None
    #: position in the bus's sequence, assigned on publish (SSE ids, replay)
    seq: int = 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "type": self.type.value, "ts": self.ts, "command_id": self.command_id}
        for name in ("agent_id", "tool", "error"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.params is not None:
            out["params"] = dict(self.params)
        if self.data is not None:
            out["data"] = dict(self.data)
        return out


Subscriber = Callable[[Event], None]


class _Subscription:
    """One subscriber's bounded queue and the named thread that drains it."""

    def __init__(self, name: str, fn: Subscriber, maxsize: int) -> None:
        self.name = name
        self.fn = fn
        self.queue: queue.Queue[Event | None] = queue.Queue(maxsize=maxsize)
        self.dropped = 0
        self.errors = 0
        self._count_lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name=f"bus-{name}", daemon=True)
        self.thread.start()

    def offer(self, event: Event) -> None:
        try:
            self.queue.put_nowait(event)
        except queue.Full:
            with self._count_lock:  # publishers run on many threads
                self.dropped += 1  # a stalled subscriber loses its own events, nobody waits for it

    def _run(self) -> None:
        while True:
            event = self.queue.get()
            try:
                if event is None:
                    return
                self.fn(event)
            except Exception:
                self.errors += 1
                if self.errors <= 3:
                    log.exception("event subscriber %s failed", self.name)
            finally:
                self.queue.task_done()


class EventBus:
    """Fan-out of events to subscribers, plus a ring of the most recent ones for replay."""

    def __init__(self, ring_size: int = 2000, queue_size: int = 10000) -> None:
        self._subs: list[_Subscription] = []
        self._ring: deque[Event] = deque(maxlen=ring_size)
        self._seq = itertools.count(1)
        self._lock = threading.Lock()
        self._queue_size = queue_size
        self._closed = False

    def subscribe(self, name: str, fn: Subscriber, *, maxsize: int | None = None,
                  replay: Callable[[Event], bool] | None = None) -> None:
        """Hand ``fn`` every event from now on; with ``replay``, first the ring's events it
        accepts, under the lock so none is missed or handed twice. A subscriber that attaches
        after start-up (the event log, the orb) still gets what fired before it (a timer missed
        while AnovaX was off fires the moment the timer service starts)."""
        sub = _Subscription(name, fn, maxsize or self._queue_size)
        with self._lock:
            for event in self._ring if replay is not None else ():
                if replay(event):
                    sub.offer(event)
            self._subs.append(sub)

    def publish(self, event: Event) -> Event:
        """Number the event, keep it in the ring, hand it to every subscriber; never blocks."""
        with self._lock:
            if self._closed:
                return event
            stamped = Event(**{**event.__dict__, "seq": next(self._seq)})
            self._ring.append(stamped)
            subs = list(self._subs)
        for sub in subs:
            sub.offer(stamped)
        return stamped

    def emit(self, type: EventType, command_id: str, **fields: Any) -> Event:
        return self.publish(Event(type=type, command_id=command_id, **fields))

    def recent(self, after_seq: int = 0) -> list[Event]:
        """Events still in the ring with ``seq > after_seq`` (SSE replay from Last-Event-ID)."""
        with self._lock:
            return [e for e in self._ring if e.seq > after_seq]

    def flush(self, timeout_s: float = 5.0) -> bool:
        """Wait until every subscriber has handled what it was given (tests, shutdown)."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            while sub.queue.unfinished_tasks:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.005)
        return True

    def close(self, timeout_s: float = 2.0) -> None:
        with self._lock:
            self._closed = True
            subs = list(self._subs)
        for sub in subs:
            try:
                sub.queue.put(None, timeout=timeout_s)
            except queue.Full:
                continue
        for sub in subs:
            sub.thread.join(timeout_s)

    def stats(self) -> dict[str, dict[str, int]]:
        with self._lock:
            subs = list(self._subs)
        return {s.name: {"queued": s.queue.qsize(), "dropped": s.dropped, "errors": s.errors} for s in subs}
