"""The question a held plan waits on, folded from CONFIRM_REQUESTED / CONFIRM_ANSWERED alone.

Part of the orb's model (model.py delegates to ``Asking``): plain data, no Tk, no clock of
its own; every reading takes ``now`` (seconds since the epoch, the clock of ``Event.ts`` and
of the question's ``expires_ts``). Whichever front end answers (the orb, the console, a phone,
a spoken "yes"), CONFIRM_ANSWERED ends the question here, so every orb hides it at once.

A lost CONFIRM_ANSWERED must not leave a question on screen forever: a question also ends
with its command (COMMAND_DONE) and is dropped ``grace_s`` after its countdown ran out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from anovax.events import Event
from anovax.orb.snapshot import QuestionView, clip

#: what the orb says for each way a question can end (Confirmations' Answer values)
_ENDINGS = {
    "yes": "yes{by}: going ahead",
    "no": "no{by}: did not go ahead",
    "timeout": "no answer in {seconds:.0f} s: did not go ahead",
    "nobody": "nobody could answer: did not go ahead",
    "stopped": "stopped while asking",
    "replaced": "a new command{by}: did not go ahead",
}


def answered_note(data: Mapping[str, Any]) -> str:
    """One short line for CONFIRM_ANSWERED's data: "yes from the phone: going ahead"."""
    answer = str(data.get("answer", ""))
    frontend = str(data.get("frontend") or "")
    try:
        seconds = float(data.get("seconds") or 0.0)
    except (TypeError, ValueError):
        seconds = 0.0
    template = _ENDINGS.get(answer, answer or "answered")
    return template.format(by=f" from the {frontend}" if frontend else "", seconds=seconds)


@dataclass
class Asking:
    """At most one open question (commands run one at a time), and how the last one ended."""

    #: how long the answer stays on screen after the question went
    answer_linger_s: float = 4.0
    #: a question whose end was never heard of is dropped this long after its countdown ran out
    grace_s: float = 2.0

    _question: QuestionView | None = field(default=None, init=False, repr=False)
    _expires_ts: float = field(default=0.0, init=False, repr=False)
    _note: tuple[str, float] | None = field(default=None, init=False, repr=False)  # (text, until)

    def requested(self, event: Event) -> None:
        data = event.data or {}
        try:
            timeout_s = float(data.get("timeout_s") or 0.0)
        except (TypeError, ValueError):
            timeout_s = 0.0
        try:
            expires_ts = float(data["expires_ts"])
        except (KeyError, TypeError, ValueError):
            expires_ts = event.ts + timeout_s
        frontends = data.get("frontends") or ()
        self._question = QuestionView(
            question_id=str(data.get("question_id", "")), command_id=event.command_id,
            text=clip(str(data.get("question") or "Go ahead?"), 200), target=clip(str(data.get("target") or ""), 80),
            seconds_left=0, timeout_s=timeout_s,
            frontends=tuple(str(f) for f in frontends) if isinstance(frontends, (list, tuple)) else ())
        self._expires_ts = expires_ts
        self._note = None

    def answered(self, event: Event) -> None:
        data = event.data or {}
        asked = self._question
        # an answer to an older question (or a replay) leaves the open one alone
        if asked is not None and data.get("question_id") not in (None, "", asked.question_id):
            return
        self._question = None
        self._note = (answered_note(data), event.ts + self.answer_linger_s)

    def command_done(self, event: Event) -> None:
        if self._question is not None and self._question.command_id == event.command_id:
            self._question = None

    def tick(self, now: float) -> bool:
        """Drop what has run out; True if anything went."""
        changed = False
        if self._question is not None and now > self._expires_ts + self.grace_s:
            self._question, changed = None, True
        if self._note is not None and now >= self._note[1]:
            self._note, changed = None, True
        return changed

    def question(self, now: float) -> QuestionView | None:
        """The open question with its countdown at ``now``."""
        asked = self._question
        if asked is None or now > self._expires_ts + self.grace_s:
            return None
        left = max(0, math.ceil(self._expires_ts - now - 1e-9))
        return QuestionView(asked.question_id, asked.command_id, asked.text, asked.target, left, asked.timeout_s,
                            asked.frontends)

    def note(self, now: float) -> str:
        if self._note is None or now >= self._note[1]:
            return ""
        return self._note[0]

    @property
    def active(self) -> bool:
        """Something is on screen that changes with time (a countdown, an answer about to go)."""
        return self._question is not None or self._note is not None
