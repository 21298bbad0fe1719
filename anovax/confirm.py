"""Asking the person: the broker between a plan held for a yes and the front ends that can answer.

Who owns what:
- The command worker (``Orchestrator.dispatch``) calls ``ask`` between two batches, so no agent
  is running and no lock is held while it waits; it blocks for at most ``timeout_s`` (20 s).
- Front ends (orb, console on a terminal, paired phone, voice) ``register`` while they can show
  a question and take an answer. They learn of a question from the CONFIRM_REQUESTED event and
  answer with ``answer(question_id, yes, frontend)`` from their own threads; the first answer
  wins, a late or repeated one is ignored.
- Nobody registered (a ``--text`` run, a script calling ``on_speech``), no answer in time, a
  stop, or "no": the plan is denied. Default-deny: silence is never consent.
"""

from __future__ import annotations

import enum
import itertools
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from anovax.desktop.base import CancelToken
from anovax.events import EventBus, EventType

#: how long a question waits for an answer (issue 15: 20 s, then denied)
ANSWER_WINDOW_S = 20.0
#: how often a waiting ``ask`` looks at the command's cancel token
_POLL_S = 0.05


class Answer(enum.StrEnum):
    """How a question ended; only YES lets the held steps run."""

    YES = "yes"
    NO = "no"
    #: nobody answered within the window
    TIMEOUT = "timeout"
    #: no front end could ask (nobody registered)
    NOBODY = "nobody"
    #: the command was stopped while it waited
    STOPPED = "stopped"
    #: a new command came instead of an answer (said to AnovaX, or typed at the [y/N])
    REPLACED = "replaced"


@dataclass(frozen=True)
class Question:
    """One yes/no question about the steps a plan would run next."""

    #: unguessable, so a stale page or a replayed request cannot answer a newer question
    question_id: str
    command_id: str
    #: the sentence shown and said ("Type `ls` and press Enter in Terminal?")
    text: str
    #: the steps a yes runs, exactly as shown: {"index", "tool", "params"}
    steps: tuple[Mapping[str, Any], ...]
    #: the window the keys will go to: its title when the desktop knows it, else the app's name
    target: str
    timeout_s: float = ANSWER_WINDOW_S
    #: wall-clock second at which the question expires (front ends show a countdown)
    expires_ts: float = field(default_factory=lambda: time.time() + ANSWER_WINDOW_S)

    def to_dict(self) -> dict[str, Any]:
        return {"question_id": self.question_id, "question": self.text, "target": self.target,
                "steps": [dict(step) for step in self.steps], "timeout_s": self.timeout_s,
                "expires_ts": round(self.expires_ts, 3)}


@dataclass(frozen=True)
class Reply:
    """What came of a question."""

    question_id: str
    answer: Answer
    #: the front end that answered (None: nobody did)
    frontend: str | None
    #: from asking to the answer (or to giving up)
    seconds: float

    @property
    def yes(self) -> bool:
        return self.answer is Answer.YES

    def to_dict(self) -> dict[str, Any]:
        return {"question_id": self.question_id, "answer": self.answer.value, "frontend": self.frontend,
                "seconds": round(self.seconds, 3)}


def denied_message(reply: Reply, target: str, action: str = "type into", *, ran_before: bool = False) -> str:
    """The one sentence said when a held plan does not run: "... to <action> <target> ..." (an
    empty ``target``: the action says it all, "forget your home address"); ``ran_before``: steps
    before the held ones ran (the terminal was opened), so it was not "nothing"."""
    what = f"{action} {target}".strip()
    if reply.answer is Answer.NO:
        return f"You said no, so I didn't {what}."
    if reply.answer is Answer.REPLACED:
        return f"You asked for something else, so I didn't {what}."
    if reply.answer is Answer.TIMEOUT:
        return f"I needed a yes to {what} and got no answer in {reply.seconds:.0f} seconds, so I stopped there."
    if reply.answer is Answer.STOPPED:
        return "Stopped."
    return f"I needed a yes to {what}, so I {'stopped there' if ran_before else 'did nothing'}."


class Confirmations:
    """The pending question (at most one: commands run one at a time) and who may answer it."""

    def __init__(self, bus: EventBus, *, timeout_s: float = ANSWER_WINDOW_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.bus = bus
        self.timeout_s = timeout_s
        self._clock = clock
        self._lock = threading.Lock()
        self._frontends: Counter[str] = Counter()
        self._pending: Question | None = None
        self._answer: tuple[Answer, str] | None = None
        self._answered = threading.Event()
        self._ids = itertools.count(1)

    # -- front ends ---------------------------------------------------------------------

    def register(self, frontend: str) -> Callable[[], None]:
        """Say that ``frontend`` can show questions and answer them; call the result when it can't."""
        with self._lock:
            self._frontends[frontend] += 1
        done = threading.Event()

        def unregister() -> None:
            if done.is_set():
                return
            done.set()
            with self._lock:
                self._frontends[frontend] -= 1
                if self._frontends[frontend] <= 0:
                    del self._frontends[frontend]
                if not self._frontends and self._pending is not None and self._answer is None:
                    # the last one that could answer went away (the orb closed, the phone's page
                    # hid): nobody is left to say yes, so the question ends now, not in 20 s
                    self._answer = (Answer.NOBODY, "")
                    self._answered.set()
        return unregister

    def frontends(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(sorted(self._frontends))

    @property
    def can_ask(self) -> bool:
        with self._lock:
            return bool(self._frontends)

    @property
    def pending(self) -> Question | None:
        """The question waiting for an answer, if any."""
        with self._lock:
            return self._pending

    @property
    def unanswered(self) -> Question | None:
        """The pending question while it has no answer yet (``pending`` lasts until the command
        that asked takes the answer)."""
        with self._lock:
            return self._pending if self._answer is None else None

    def answer(self, question_id: str, yes: bool | None, frontend: str) -> bool:
        """Answer the pending question (``yes`` None: a new command came instead, which declines
        it too); False when ``question_id`` is not it (stale, or answered)."""
        with self._lock:
            if self._pending is None or self._answer is not None or question_id != self._pending.question_id:
                return False
            self._answer = (Answer.YES if yes is True else Answer.REPLACED if yes is None else Answer.NO, str(frontend))
            self._answered.set()
            return True

    # -- the command worker -------------------------------------------------------------

    def new_question(self, command_id: str, text: str, steps: Sequence[Mapping[str, Any]], target: str) -> Question:
        return Question(question_id=f"q{next(self._ids)}-{secrets.token_hex(4)}", command_id=command_id,
                        text=text, steps=tuple(steps), target=target, timeout_s=self.timeout_s,
                        expires_ts=time.time() + self.timeout_s)

    def ask(self, question: Question, cancel: CancelToken | None = None) -> Reply:
        """Show ``question`` to every registered front end and wait for the first answer.

        Never raises for a stop: a cancelled command comes back as ``Answer.STOPPED``."""
        started = self._clock()
        with self._lock:
            frontends = sorted(self._frontends)
            if frontends:
                self._pending, self._answer = question, None
                self._answered.clear()
        self.bus.emit(EventType.CONFIRM_REQUESTED, question.command_id,
                      data={**question.to_dict(), "frontends": frontends})
        answer: tuple[Answer, str | None] = (Answer.NOBODY, None)
        if frontends:
            answer = self._wait(started, cancel)
        reply = Reply(question.question_id, answer[0], answer[1], max(0.0, self._clock() - started))
        self.bus.emit(EventType.CONFIRM_ANSWERED, question.command_id, data=reply.to_dict())
        return reply

    def _wait(self, started: float, cancel: CancelToken | None) -> tuple[Answer, str | None]:
        try:
            while True:
                if self._answered.wait(_POLL_S):
                    with self._lock:
                        if self._answer is not None:
                            answer, frontend = self._answer
                            return answer, frontend or None
                if cancel is not None and cancel.cancelled:
                    result: tuple[Answer, str | None] = (Answer.STOPPED, None)
                elif self._clock() - started >= self.timeout_s:
                    result = (Answer.TIMEOUT, None)
                else:
                    continue
                with self._lock:  # an answer that landed at the last moment still counts
                    if self._answer is not None:
                        return self._answer
                    self._answer = (result[0], "")
                return result
        finally:
            with self._lock:
                self._pending = None
