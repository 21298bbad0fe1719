"""How a command ended: ``Status``, ``CommandResult`` and what a stop did (``StopReport``).

Plain data shared by the assistant, the front ends (console, orb, phone, voice) and the one
place that decides what is said (``anovax.speech.reply_to_say``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from anovax.outcome import Outcome
from anovax.plan import Plan
from anovax.safety import Verdict


class Status(enum.Enum):
    """How a command ended; ``exit_code`` is what the CLI returns for it."""

    DONE = ("done", 0)
    PLANNED = ("planned", 0)  # dry run: planned and checked, nothing executed
    REFUSED = ("refused", 3)
    #: held for a person's yes that did not come (no, no answer, nobody to ask; a dry run)
    NEEDS_YES = ("needs_yes", 3)
    FAILED = ("failed", 4)
    #: nothing was done because the planner found nothing it can do in the words (not
    #: understood, or a request it cannot carry out here: ``Plan.unable``); the reply says why
    NOT_DONE = ("not_done", 5)
    #: the user stopped it; 130 is the shell's code for a command ended by Ctrl-C
    STOPPED = ("stopped", 130)

    def __init__(self, label: str, exit_code: int) -> None:
        self.label = label
        self.exit_code = exit_code


#: exit codes from least to most in need of a look: several commands (a recording) end with the
#: last of theirs here, so a misheard phrase (5) never hides a refusal or a failure, and a
#: recording with a command done is no "nothing done"
_EXIT_ORDER = (Status.NOT_DONE.exit_code, 0, Status.REFUSED.exit_code, Status.FAILED.exit_code,
               Status.STOPPED.exit_code)


def worst_exit_code(codes: list[int]) -> int:
    """The exit code of several commands: the one most in need of a look (0 for none)."""
    return max(codes, key=lambda code: _EXIT_ORDER.index(code) if code in _EXIT_ORDER else len(_EXIT_ORDER),
               default=0)


@dataclass(frozen=True)
class StopReport:
    """What a stop did: the command it cancelled, how many waiting ones it dropped."""

    running: str | None
    dropped: int
    speech: bool = False
    #: the running command had been stopped already (a second "stop")
    again: bool = False
    #: what "cancel that" took back of the command just finished ("Cancelled the 5 minute timer
    #: you just set."), when nothing was running or waiting
    taken_back: str = ""

    @property
    def message(self) -> str:
        if self.taken_back:
            return self.taken_back
        plural = "s" if self.dropped != 1 else ""
        if self.running is not None:
            head = "Still stopping." if self.again else "Stopping."
            return head + (f" I also dropped {self.dropped} waiting command{plural}." if self.dropped else "")
        if self.dropped:
            return f"Dropped {self.dropped} waiting command{plural}."
        return "Stopped speaking." if self.speech else "Nothing to stop."


@dataclass(frozen=True)
class CommandResult:
    """Everything one command produced, for the console, the orb, the phone and tests."""

    text: str
    status: Status
    #: the sentence AnovaX says back
    message: str
    planner: str
    command_id: str = ""
    plan: Plan | None = None
    verdict: Verdict | None = None
    outcome: Outcome | None = None
    #: stage name → milliseconds
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        return self.status.exit_code

    def to_dict(self) -> dict[str, Any]:
        verdict = self.verdict.to_dict() if self.verdict is not None else None
        return {
            "command_id": self.command_id,
            "text": self.text,
            "status": self.status.label,
            "exit_code": self.exit_code,
            "message": self.message,
            "planner": self.planner,
            "plan": self.plan.to_dict() if self.plan is not None else None,
            "verdict": verdict,
            "outcome": self.outcome.to_dict() if self.outcome is not None else None,
            "timings_ms": {k: round(v, 3) for k, v in self.timings_ms.items()},
        }
