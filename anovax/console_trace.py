"""What ``--verbose`` adds to the console: the plan and the safety verdict, printed as they
happen, so "Safety: allowed" comes before the actions it let run, not after them.

The lines are built from the event stream (the same events the orb and the log see):

- PLAN_READY (top level) → the plan block;
- SAFETY_PASSED → "Safety: allowed", or "Safety: asks first: …" (the question comes before the
  held steps, after the ones before them); SAFETY_REFUSED → "Safety: refused [rule] reason";
- COMMAND_DONE of a planned command whose verdict was not seen (a dry run has no SAFETY_PASSED)
  → its verdict, from the result.

The steps' results and the reply follow when the command ends (``console.emit_result``).
``format_plan`` and ``format_verdict`` are shared with the dry run's block.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from anovax.events import Event, EventType


def format_plan(steps: Iterable[tuple[str, Mapping[str, Any]]], remember: Mapping[str, Any], planner: str,
                ms: float | None) -> list[str]:
    """``Plan (offline planner, 1.4 ms):`` and one numbered line per step."""
    took = f", {ms:.1f} ms" if ms is not None else ""
    lines = [f"Plan ({planner} planner{took}):"]
    for i, (tool, params) in enumerate(steps, 1):
        lines.append(f"  {i}. {tool} {json.dumps(dict(params), ensure_ascii=False)}")
    if len(lines) == 1:
        lines.append("  (no actions)")
    lines += [f"  remember {key} = {value!r}" for key, value in remember.items()]
    return lines


def format_verdict(ok: bool, question: str = "", rule: str = "", reason: str = "") -> str:
    if ok:
        return "Safety: allowed"
    if question:
        return f"Safety: asks first: {question}"
    return f"Safety: refused [{rule}] {reason}"


class VerboseTrace:
    """A bus subscriber that prints the plan and the verdict of every command through ``say``
    (a writer that keeps the console's prompt whole)."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self._say = say
        #: planned commands whose verdict has not been printed yet
        self._waiting: set[str] = set()

    def feed(self, event: Event) -> None:
        data = event.data or {}
        command = event.command_id
        if data.get("depth"):
            return  # a sub-plan of a MetaAgent: its own gate, shown in the steps' results
        if event.type is EventType.PLAN_READY:
            plan = data.get("plan") or {}
            steps = [(str(s.get("tool", "?")), s.get("params") or {}) for s in plan.get("steps", ())
                     if isinstance(s, Mapping)]
            ms = data.get("ms")
            self._waiting.add(command)
            self._say("\n".join(format_plan(steps, plan.get("remember") or {}, str(data.get("planner", "?")),
                                            float(ms) if isinstance(ms, (int, float)) else None)))
        elif command not in self._waiting:
            return
        elif event.type is EventType.SAFETY_REFUSED:
            self._verdict(command, format_verdict(False, rule=str(data.get("rule", "")), reason=event.error or ""))
        elif event.type is EventType.SAFETY_PASSED:
            self._verdict(command, format_verdict(bool(data.get("ok")), question=str(data.get("question", ""))))
        elif event.type is EventType.COMMAND_DONE:
            verdict = data.get("verdict")
            if isinstance(verdict, Mapping):
                self._verdict(command, format_verdict(bool(verdict.get("ok")), str(verdict.get("question", "")),
                                                      str(verdict.get("rule", "")), str(verdict.get("reason", ""))))
            self._waiting.discard(command)

    def _verdict(self, command: str, line: str) -> None:
        self._waiting.discard(command)
        self._say(line)
