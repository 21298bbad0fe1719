"""The orb's plain data: states, chips, history entries and the ``Snapshot`` front ends draw.

Dependency-free (no Tk, no events): model.py builds these from the event stream; view.py,
console.py, widgets.py and style.py only read them.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class OrbState(enum.StrEnum):
    ASLEEP = "asleep"
    AWAKE = "awake"
    THINKING = "thinking"
    #: a held plan waits for the person's yes or no (CONFIRM_REQUESTED)
    ASKING = "asking"
    ACTING = "acting"
    SPEAKING = "speaking"
    REFUSED = "refused"
    ERROR = "error"


class ChipState(enum.StrEnum):
    WAITING = "waiting"  # spawned, waiting for its locks
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    EXPIRED = "expired"
    STOPPED = "stopped"  # the user stopped its command: neutral, not an error


ENDED = frozenset({ChipState.DONE, ChipState.FAILED, ChipState.EXPIRED, ChipState.STOPPED})
_ARG_CHARS = 22


def short_arg(tool: str, params: Mapping[str, Any] | None) -> str:
    """The one argument worth showing on a chip, cut to fit ("notepad", "hello wor…")."""
    params = dict(params or {})
    value: Any = ""
    for key in ("name", "text", "keys", "query", "address", "goal", "seconds"):
        if key in params:
            value = params[key] if key != "address" else re.sub(r"(?i)^https?://", "", str(params[key]))
            break
    else:
        value = next(iter(params.values()), "")
    text = " ".join(str(value).split())
    if tool == "wait" and text:
        text = f"{text} s"
    return text if len(text) <= _ARG_CHARS else text[:_ARG_CHARS - 1] + "…"


def clip(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


#: a reply of several lines (a list under its first line, as "what can I say" gives) is shown
#: line by line, up to this many lines
REPLY_LINES = 14


def clip_reply(text: str, limit: int) -> str:
    """The reply as the orb shows it: its first line clipped to ``limit``; the lines after it (a
    list to read) kept as lines, each clipped to ``limit``, at most REPLY_LINES in all."""
    lines = [clip(line, limit) for line in str(text).split("\n") if line.strip()]
    if len(lines) > REPLY_LINES:
        lines = lines[:REPLY_LINES - 1] + ["…"]
    return "\n".join(lines)


@dataclass
class Chip:
    """One child agent, from AGENT_SPAWNED until it has faded out after ending."""

    agent_id: str
    command_id: str
    tool: str
    arg: str
    spawned: float
    state: ChipState = ChipState.WAITING
    ended: float | None = None
    error: str = ""
    attempts: int = 1


@dataclass(frozen=True)
class ChipView:
    """A chip as drawn at one moment: ``fade`` is 1.0 (solid) down to 0.0 (gone)."""

    agent_id: str
    tool: str
    arg: str
    state: ChipState
    elapsed_s: float
    fade: float
    error: str = ""
    attempts: int = 1

    @property
    def failed(self) -> bool:
        return self.state in (ChipState.FAILED, ChipState.EXPIRED)

    @property
    def label(self) -> str:
        arg = f" {self.arg}" if self.arg else ""
        retry = f" ×{self.attempts}" if self.attempts > 1 else ""
        return f"{self.tool}{arg} · {self.state.value}{retry} {self.elapsed_s:.1f}s"


@dataclass(frozen=True)
class HistoryEntry:
    """One finished command: what was asked and how it ended (COMMAND_DONE's data)."""

    command_id: str
    text: str
    #: done, planned, not_done, needs_yes, refused, failed, stopped, or rejected (the queue was full)
    status: str
    message: str

    @property
    def ok(self) -> bool:
        return self.status in ("done", "planned")


@dataclass(frozen=True)
class QuestionView:
    """The question a held plan waits on, as drawn at one moment (CONFIRM_REQUESTED's data)."""

    #: what an answer names (``Confirmations.answer``): a stale id is refused there
    question_id: str
    command_id: str
    #: the sentence to answer ("Type `ls` and press Enter in Terminal?")
    text: str
    #: the window the keys would go to (its title, else the app's name)
    target: str
    #: whole seconds until it is denied for want of an answer (the countdown), never below 0
    seconds_left: int
    timeout_s: float
    #: the front ends that were asked (who else may answer first)
    frontends: tuple[str, ...] = ()


@dataclass(frozen=True)
class Snapshot:
    """Everything a front end draws, at one moment."""

    state: OrbState
    #: one short line under the orb: what it is working on, or why it stopped
    detail: str
    chips: tuple[ChipView, ...]
    #: chips that did not fit (only ever running ones are counted here)
    hidden_chips: int
    #: the last thing AnovaX said (or would have said)
    response: str
    history: tuple[HistoryEntry, ...]
    #: voice input: "" (no voice events seen), listening, unavailable, awake, asleep, stopped, muted
    voice: str
    voice_detail: str
    #: phones watching the screen through the remote (0 when the remote is off)
    viewers: int
    #: the last phrase the voice gate turned into a command
    heard: str
    version: int
    #: the phone remote's latest news ("phone paired: 192.168.1.7"); pairings counts REMOTE_PAIRED
    remote_note: str = ""
    pairings: int = 0
    #: the open question (None: nothing is waiting for a yes)
    question: QuestionView | None = None
    #: for a few seconds after a question ended: how it ended ("yes from the phone: going ahead")
    answered: str = ""
    #: the pending timers and reminders, soonest first (``anovax.orb.countdown.TimerView``)
    timers: tuple[Any, ...] = ()
    #: a fired timer's or reminder's message, shown apart until the next command or a click
    alert: str = ""
    #: for a few seconds: the last phrase said to AnovaX and what the gate did ('heard "…" → command')
    heard_line: str = ""

    @property
    def running(self) -> tuple[ChipView, ...]:
        return tuple(c for c in self.chips if c.state not in ENDED)
