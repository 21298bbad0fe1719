"""The phone's side of asking the person: when the phone counts as a front end, and what an answer must look like.

Who may answer: only a **paired phone** (a request that proved itself with the session
cookie). The bearer token is for scripts: a script that can send "open a terminal and run
ls" must not also be the one that says yes to it, or the question would ask nobody. Stream
tickets carry no session either, so they do not count. Unpaired clients never get this far:
the gatekeeper answers them 401 (403 from a banned address) before any route runs; the paired
phone itself is served even from a banned address (gate.py).

When the phone counts (``PhoneSeats``): the remote registers "phone" with the broker only
while at least one paired phone holds its event stream (``/api/events``) open. Why the
stream and not the pairing: a question waits up to 20 s for every registered front end, and
a phone that was paired last week and lies in a drawer cannot answer. The phone page keeps
its stream open only while it is shown (it lets go when hidden: screen off, another app) and
reconnects within 3 s when it drops; a page that is closed or a phone that left the network
loses its stream (the peer-gone check, keep-alives and TCP_USER_TIMEOUT end it within 30 s)
and stops counting, so a question is only held for the phone when someone could see it in time. A phone that opens its page while a
question is already pending still sees it (``GET /api/state`` carries it) and may answer.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from anovax.confirm import Confirmations
from anovax.events import EventBus, EventType

#: the name the phone answers under, in CONFIRM_ANSWERED and the broker's front-end list
FRONTEND = "phone"
#: ``Confirmations.new_question`` makes "q<n>-<8 hex>"; anything else is not an id (kept loose, bounded)
_QUESTION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
ANSWERS = {"yes": True, "no": False}
BODY_HINT = 'send {"question_id": "...", "answer": "yes" | "no"} as UTF-8 JSON'


class PhoneSeats:
    """Counts the paired phones that can see a question; "phone" is registered while there is one."""

    def __init__(self, confirmations: Confirmations) -> None:
        self.confirmations = confirmations
        self._lock = threading.Lock()
        self._open = 0
        self._unregister: Callable[[], None] | None = None

    @property
    def open(self) -> int:
        with self._lock:
            return self._open

    def take(self) -> Callable[[], None]:
        """A paired phone's stream opened; call the result (once is enough, more is harmless) when it ends."""
        with self._lock:
            self._open += 1
            if self._unregister is None:
                self._unregister = self.confirmations.register(FRONTEND)
        done = threading.Event()

        def release() -> None:
            if done.is_set():
                return
            done.set()
            with self._lock:
                self._open -= 1
                if self._open <= 0 and self._unregister is not None:
                    self._open = 0
                    self._unregister()
                    self._unregister = None
        return release


@dataclass(frozen=True)
class PhoneAnswer:
    """A well-formed answer from the phone page."""

    question_id: str
    yes: bool


def parse_answer(body: Any) -> PhoneAnswer | None:
    """The answer in a request body, or None when the body is anything but exactly
    ``{"question_id": str, "answer": "yes"|"no"}`` (no extra keys, no booleans, no "YES ")."""
    if not isinstance(body, dict) or set(body) != {"question_id", "answer"}:
        return None
    question_id, answer = body["question_id"], body["answer"]
    if not isinstance(question_id, str) or not _QUESTION_ID.fullmatch(question_id):
        return None
    if not isinstance(answer, str) or answer not in ANSWERS:
        return None
    return PhoneAnswer(question_id, ANSWERS[answer])


@dataclass(frozen=True)
class Outcome:
    """What the answer endpoint says: an HTTP status and a sentence for the phone."""

    status: int
    message: str

    @property
    def ok(self) -> bool:
        return self.status == 200


def deliver(confirmations: Confirmations | None, bus: EventBus, answer: PhoneAnswer) -> Outcome:
    """Hand ``answer`` to the broker; 404 for an id never asked, 409 for one that is over."""
    if confirmations is None:
        return Outcome(404, "no question is waiting")
    if confirmations.answer(answer.question_id, answer.yes, FRONTEND):
        return Outcome(200, "You said yes." if answer.yes else "You said no.")
    if _was_asked(bus, answer.question_id):
        return Outcome(409, "that question is over: it was answered, timed out or withdrawn")
    return Outcome(404, "no such question")


def _was_asked(bus: EventBus, question_id: str) -> bool:
    # the ring holds the last 2000 events: a question older than that is "no such question",
    # which is still a clear refusal and never an answer
    return any(e.type == EventType.CONFIRM_REQUESTED and (e.data or {}).get("question_id") == question_id
               for e in bus.recent(0))


def pending_view(confirmations: Confirmations | None) -> dict[str, Any] | None:
    """The pending question as the page shows it on load (None: nothing is waiting)."""
    question = confirmations.pending if confirmations is not None else None
    return question.to_dict() if question is not None else None
