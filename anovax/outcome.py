"""What dispatching a plan produced: one StepResult per step, in plan order."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from anovax.plan import Step


class StepStatus(enum.StrEnum):
    DONE = "done"
    FAILED = "failed"
    EXPIRED = "expired"
    #: never started: an earlier core step failed, or the agent budget ran out
    NOT_RUN = "not_run"


#: a plan's reply that only acknowledges: its steps' own sentences say what happened
_PLACEHOLDERS = frozenset({"okay.", "okay", "ok.", "ok"})


def spoken_reply(final_response: str, says: Iterable[str]) -> str:
    """What is said when a plan ends: its reply, then each step's sentence. A bare "Okay." only
    when no step says anything ("Okay. You have no timers or reminders running." read oddly)."""
    said = [say for say in says if say]
    reply = final_response.strip()
    if said and reply.casefold() in _PLACEHOLDERS:
        reply = ""
    return " ".join(part for part in (reply, *said) if part)


@dataclass(frozen=True)
class StepResult:
    """How one step ended."""

    index: int
    tool: str
    status: StepStatus
    #: short account of what happened, or empty
    value: str = ""
    #: a sentence for the spoken reply
    say: str = ""
    error: str | None = None
    attempts: int = 0
    agent_id: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status is StepStatus.DONE

    def to_dict(self) -> dict[str, Any]:
        out = {"index": self.index, "tool": self.tool, "status": self.status.value, "value": self.value,
               "attempts": self.attempts, "agent_id": self.agent_id}
        if self.error:
            out["error"] = self.error
        return out


@dataclass(frozen=True)
class Outcome:
    """The result of dispatch: per-step results in plan order, and where the plan stopped."""

    steps: tuple[StepResult, ...]
    #: index of the core step whose failure stopped the plan, or None
    failed: int | None = None
    #: the steps that never ran because of that failure (what recovery would redo)
    remaining: tuple[Step, ...] = ()
    #: what was said (or would be said) at the end
    spoken: str = ""
    #: why the command as a whole did not succeed when no single step says so (recovery gave up)
    error: str = ""
    #: the steps held for a yes did not get one: the sentence that says so ("You said no, ...")
    denied: str = ""

    @property
    def ok(self) -> bool:
        return self.failed is None and not self.error and not self.denied

    @property
    def done(self) -> tuple[int, ...]:
        return tuple(r.index for r in self.steps if r.ok)

    def error_summary(self) -> str:
        if self.denied:
            return self.denied
        if self.error:
            return self.error
        if self.failed is None:
            return ""
        result = self.steps[self.failed]
        return result.error or result.status.value

    def to_dict(self) -> dict[str, Any]:
        return {
            "done": list(self.done),
            "failed": self.failed,
            "remaining": [s.to_dict() for s in self.remaining],
            "steps": [r.to_dict() for r in self.steps],
            "spoken": self.spoken,
            "error": self.error,
            "denied": self.denied,
        }
