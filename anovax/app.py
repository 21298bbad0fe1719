"""The assistant: ``on_speech(text)`` is the one entry point for voice, the orb and the phone.

One command at a time: plan → safety_check → (act). Commands from different
sources are serialised by a lock in arrival order, so two of them never
interleave keystrokes or argue over the session state.
"""

from __future__ import annotations

import enum
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from anovax.errors import AnovaXError, ConfigError, PlanError
from anovax.memory import Memory
from anovax.plan import Plan
from anovax.planner import OfflinePlanner, Planner
from anovax.safety import Rule, Verdict, safety_check
from anovax.settings import Settings

log = logging.getLogger(__name__)

#: longer than any sentence a person says in one breath; longer input is refused before planning
MAX_COMMAND_CHARS = 2000


class Status(enum.Enum):
    """How a command ended; ``exit_code`` is what the CLI returns for it."""

    DONE = ("done", 0)
    PLANNED = ("planned", 0)  # dry run: planned and checked, nothing executed
    REFUSED = ("refused", 3)
    FAILED = ("failed", 4)

    def __init__(self, label: str, exit_code: int) -> None:
        self.label = label
        self.exit_code = exit_code


@dataclass(frozen=True)
class CommandResult:
    """Everything one command produced, for the console, the orb, the phone and tests."""

    text: str
    status: Status
    #: the sentence AnovaX says back
    message: str
    planner: str
    plan: Plan | None = None
    verdict: Verdict | None = None
    #: stage name → milliseconds
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        return self.status.exit_code

    def to_dict(self) -> dict[str, Any]:
        verdict = None
        if self.verdict is not None:
            verdict = {"ok": self.verdict.ok, "rule": self.verdict.rule, "reason": self.verdict.reason,
                       "step": self.verdict.step}
        return {
            "text": self.text,
            "status": self.status.label,
            "exit_code": self.exit_code,
            "message": self.message,
            "planner": self.planner,
            "plan": self.plan.to_dict() if self.plan is not None else None,
            "verdict": verdict,
            "timings_ms": {k: round(v, 3) for k, v in self.timings_ms.items()},
        }


def make_planner(settings: Settings) -> Planner:
    """The planner the settings ask for."""
    if settings.use_gemini:
        # The Gemini planner is not part of this release; say so instead of
        # silently answering with a different planner than the user chose.
        if settings.planner == "gemini":
            raise ConfigError("ANOVAX_PLANNER=gemini is not available in this version; use auto or offline.")
        log.info("A Gemini key is set but this version plans offline.")
    return OfflinePlanner()


class Assistant:
    """Owns the planner, memory and the command lock; ``on_speech`` runs one command."""

    def __init__(self, settings: Settings, *, planner: Planner | None = None, memory: Memory | None = None) -> None:
        self.settings = settings
        self.planner = planner if planner is not None else make_planner(settings)
        self.memory = memory if memory is not None else Memory(settings.memory_path)
        self._lock = threading.Lock()

    def on_speech(self, text: str) -> CommandResult:
        """Plan and check one command from any source. Never raises for bad input.

        This release plans and checks; it does not act on the desktop yet, so
        every allowed command ends as ``Status.PLANNED``.
        """
        with self._lock:
            try:
                return self._handle(text)
            except Exception as exc:  # the assistant must outlive any one command
                log.exception("command failed unexpectedly")
                return CommandResult(text=str(text), status=Status.FAILED, planner=self.planner.name,
                                     message=f"Something went wrong inside AnovaX: {type(exc).__name__}.")

    def _handle(self, text: str) -> CommandResult:
        name = self.planner.name
        text = (text if isinstance(text, str) else "").strip()
        if not text:
            return CommandResult(text=text, status=Status.FAILED, planner=name, message="I didn't catch that.")
        if len(text) > MAX_COMMAND_CHARS:
            verdict = Verdict.refuse(Rule.TOO_LONG, "That is too long for one command.")
            return CommandResult(text=text[:80], status=Status.REFUSED, planner=name,
                                 message=verdict.reason, verdict=verdict)

        timings: dict[str, float] = {}
        started = time.perf_counter()
        try:
            plan, declined = self.planner.plan_with_refusal(text, self.memory.build_context(),
                                                            current_app=self.memory.session.current_app)
        except PlanError as exc:
            return CommandResult(text=text, status=Status.FAILED, planner=name, message=exc.message)
        except AnovaXError as exc:
            return CommandResult(text=text, status=Status.FAILED, planner=name, message=exc.message)
        timings["plan"] = (time.perf_counter() - started) * 1000

        if declined:
            verdict = Verdict.refuse(Rule.PLANNER_DECLINED, declined)
            self.memory.add_turn(text, declined)
            return CommandResult(text=text, status=Status.REFUSED, planner=name, message=declined,
                                 plan=plan, verdict=verdict, timings_ms=timings)

        started = time.perf_counter()
        verdict = safety_check(plan, text, memory=self.memory.facts.snapshot(),
                               focused_app=self.memory.session.current_app)
        timings["safety"] = (time.perf_counter() - started) * 1000

        if not verdict.ok:
            self.memory.add_turn(text, verdict.reason)
            return CommandResult(text=text, status=Status.REFUSED, planner=name, message=verdict.reason,
                                 plan=plan, verdict=verdict, timings_ms=timings)
        message = plan.final_response or "Okay."
        self.memory.add_turn(text, message)
        return CommandResult(text=text, status=Status.PLANNED, planner=name, message=message,
                             plan=plan, verdict=verdict, timings_ms=timings)
