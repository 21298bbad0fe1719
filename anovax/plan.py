"""Plan and Step, and the one strict parser that turns a model's text into them.

A plan is untrusted input. The parser only checks *shape* (keys, types, JSON
hygiene); whether the tools and their arguments are allowed is safety_check's
job. Parse once, then hand the same Plan object to both the check and the
executor, so the two can never disagree about what the plan says.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from anovax.errors import PlanError

#: keys a plan object may have; "steps" is required, the others default
PLAN_KEYS = frozenset({"steps", "final_response", "remember"})
#: keys a step object may have; "tool" is required, "params" defaults to {}
STEP_KEYS = frozenset({"tool", "params"})
#: raw model output larger than this is refused before parsing (bytes of UTF-8)
MAX_RAW_CHARS = 256 * 1024
#: nesting deeper than this is refused (a plan is at most 4 levels deep)
MAX_JSON_DEPTH = 8


@dataclass(frozen=True)
class PlanLimits:
    """How big a plan may be, in one place: the planners, the prompts and response schemas,
    safety_check, recovery and the orchestrator's agent budget all read ``LIMITS``."""

    #: most steps one plan may have, and most actions one recovery turn may ask for
    max_steps: int = 8
    #: deepest plan allowed; a plan_subtask at depth d makes a child at d + 1
    max_depth: int = 2
    #: most agents one spoken command may start, across all its plans and recovery turns
    max_agents: int = 20


LIMITS = PlanLimits()


@dataclass(frozen=True)
class Step:
    """One tool call: the tool's name and its parameters, exactly as planned."""

    tool: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.params, MappingProxyType):
            object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, "params": dict(self.params)}


@dataclass(frozen=True)
class Plan:
    """What the planner wants done: ordered steps, the reply to speak, facts to keep."""

    steps: tuple[Step, ...]
    final_response: str = ""
    remember: Mapping[str, str] = field(default_factory=dict)
    #: the planner found nothing in the request it can do (words it did not understand, or a
    #: request it cannot carry out here) and the reply says why: the command ends ``not_done``
    #: (exit code 5), not ``done``. Set by the offline planner only; a model's zero-step reply
    #: may be a plain answer, so it stays False. Not part of the plan's JSON: it is the
    #: planner's note to the assistant, never a model's to set, nor part of what two equal
    #: plans hold.
    unable: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(self.steps))
        if not isinstance(self.remember, MappingProxyType):
            object.__setattr__(self, "remember", MappingProxyType(dict(self.remember)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "steps": [s.to_dict() for s in self.steps],
            "final_response": self.final_response,
            "remember": dict(self.remember),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)


# --- strict JSON decoding -------------------------------------------------------


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Python keeps the last duplicate, other parsers (and humans reading logs) the
    # first: a duplicate key can show a reviewer one value and run another.
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise PlanError(f"The plan repeats the key {key!r}; each key may appear only once.")
        out[key] = value
    return out


def _no_constants(name: str) -> Any:
    raise PlanError(f"The plan contains {name}, which is not a real number.")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e309 overflows to inf without any error
        raise PlanError(f"The plan contains the number {text}, which is too large.")
    return value


_DECODER = json.JSONDecoder(
    object_pairs_hook=_no_duplicates,
    parse_constant=_no_constants,
    parse_float=_finite_float,
)

_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n(.*?)\n?```\s*$", re.S)


def decode_json_text(raw: str) -> Any:
    """Decode one JSON value from model text, allowing prose or a fence around one object."""
    if len(raw) > MAX_RAW_CHARS:
        raise PlanError("The plan is too large to be a real plan.")
    fenced = _FENCE.match(raw)
    text = fenced.group(1) if fenced else raw
    stripped = text.strip()
    if not stripped:
        raise PlanError("The planner returned an empty answer.")
    try:
        if stripped[0] in "{[":
            value, end = _DECODER.raw_decode(stripped)
            if stripped[end:].strip():
                raise PlanError("The planner's answer has text after the plan.")
            return value
        # Prose around the JSON: accept exactly one object and nothing JSON-like beside it.
        start = stripped.find("{")
        if start < 0:
            raise PlanError("The planner's answer contains no plan.")
        value, end = _DECODER.raw_decode(stripped, start)
        rest = stripped[end:]
        if "{" in rest or "[" in stripped[:start]:
            raise PlanError("The planner's answer contains more than one JSON value.")
        return value
    except json.JSONDecodeError as exc:
        raise PlanError(f"The plan is not valid JSON ({exc.msg} at position {exc.pos}).") from exc
    except ValueError as exc:  # e.g. an integer longer than int_max_str_digits (4300 digits)
        raise PlanError("The plan contains a number that is too long.") from exc
    except RecursionError as exc:
        raise PlanError("The plan is nested too deeply.") from exc


def _depth(value: Any, limit: int) -> int:
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        if isinstance(item, Mapping):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((v, level + 1) for v in item)
    return deepest


# --- shape validation -----------------------------------------------------------

_SCALARS = (str, int, float, bool, type(None))


def _check_param_value(tool: str, key: str, value: Any) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise PlanError(f"Parameter {key!r} of {tool!r} is not a finite number.")
    if not isinstance(value, _SCALARS):
        raise PlanError(f"Parameter {key!r} of {tool!r} must be a plain value, not {type(value).__name__}.")


def _step_from(obj: Any, index: int) -> Step:
    where = f"Step {index + 1}"
    if isinstance(obj, Step):
        obj = obj.to_dict()
    if not isinstance(obj, Mapping):
        raise PlanError(f"{where} must be an object with 'tool' and 'params', not {type(obj).__name__}.")
    unknown = set(obj) - STEP_KEYS
    if unknown:
        raise PlanError(f"{where} has unknown keys: {', '.join(sorted(map(str, unknown)))}.")
    if "tool" not in obj:
        raise PlanError(f"{where} does not name a tool.")
    tool = obj["tool"]
    if not isinstance(tool, str):
        raise PlanError(f"{where}: the tool name must be text, not {type(tool).__name__}.")
    params = obj.get("params", {})
    if not isinstance(params, Mapping):
        raise PlanError(f"{where}: 'params' must be an object, not {type(params).__name__}.")
    for key, value in params.items():
        if not isinstance(key, str):
            raise PlanError(f"{where}: parameter names must be text.")
        _check_param_value(tool, key, value)
    return Step(tool=tool, params=dict(params))


def plan_from_obj(obj: Any) -> Plan:
    """Validate an already-decoded object (dict) and build a Plan."""
    if isinstance(obj, Plan):
        return obj
    if not isinstance(obj, Mapping):
        raise PlanError(f"A plan must be a JSON object, not {type(obj).__name__}.")
    if _depth(obj, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise PlanError("The plan is nested too deeply.")
    unknown = set(obj) - PLAN_KEYS
    if unknown:
        raise PlanError(f"The plan has unknown keys: {', '.join(sorted(map(str, unknown)))}.")
    if "steps" not in obj:
        raise PlanError("The plan has no 'steps' list.")
    steps = obj["steps"]
    if not isinstance(steps, (list, tuple)):
        raise PlanError(f"The 'steps' field must be a list, not {type(steps).__name__}.")
    final = obj.get("final_response", "")
    if final is None:
        final = ""
    if not isinstance(final, str):
        raise PlanError(f"The 'final_response' field must be text, not {type(final).__name__}.")
    remember = obj.get("remember", {})
    if remember is None:
        remember = {}
    if not isinstance(remember, Mapping):
        raise PlanError(f"The 'remember' field must be an object of facts, not {type(remember).__name__}.")
    for key, value in remember.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise PlanError("Each remembered fact must be a text name with a text value.")
    return Plan(
        steps=tuple(_step_from(s, i) for i, s in enumerate(steps)),
        final_response=final,
        remember=dict(remember),
    )


def parse_plan(raw: str | bytes | Mapping[str, Any] | Plan) -> Plan:
    """Parse a model's raw text (or an already-decoded dict) into a Plan, or raise PlanError."""
    if isinstance(raw, Plan):
        return raw
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PlanError("The plan is not valid UTF-8 text.") from exc
    if isinstance(raw, str):
        return plan_from_obj(decode_json_text(raw))
    return plan_from_obj(raw)
