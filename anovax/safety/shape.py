"""Shape and limits: the first rules, checked before any content is scanned.

Exact tool names (``registry.get`` never normalises a look-alike into the allowlist), the
exact parameter schema, step/agent/depth budgets from trusted runtime state, per-field
length caps, and characters that are never legitimate anywhere.
"""

from __future__ import annotations

from collections.abc import Iterator

from anovax.plan import LIMITS, Plan
from anovax.safety import limits
from anovax.safety.canon import balloons, forbidden
from anovax.safety.context import Context
from anovax.safety.verdict import Rule, Verdict
from anovax.toolspec import Effect


def check_budget(ctx: Context) -> Verdict | None:
    """Counters that are already over their limit fail closed, whatever the plan says."""
    if ctx.depth > LIMITS.max_depth:
        return Verdict.refuse(Rule.DEPTH, detail=f"depth {ctx.depth} > {LIMITS.max_depth}")
    if ctx.agents_spawned > LIMITS.max_agents:
        return Verdict.refuse(Rule.AGENT_BUDGET, detail=f"{ctx.agents_spawned} agents already")
    return None


def check_steps(plan: Plan, ctx: Context) -> Verdict | None:
    count = len(plan.steps)
    if count > LIMITS.max_steps:
        return Verdict.refuse(Rule.TOO_MANY_STEPS, detail=f"{count} steps")
    if ctx.agents_spawned + count > LIMITS.max_agents:
        return Verdict.refuse(Rule.AGENT_BUDGET, detail=f"{ctx.agents_spawned} + {count} agents")
    for index, step in enumerate(plan.steps):
        spec = ctx.registry.get(step.tool)
        if spec is None:
            return Verdict.refuse(Rule.UNKNOWN_TOOL, step=index, detail=f"tool {step.tool!r}")
        problem = spec.param_problem(step.params)
        if problem:
            return Verdict.refuse(Rule.BAD_PARAMS, step=index, detail=f"{step.tool}: {problem}")
        if spec.effect is Effect.SUBPLAN and ctx.depth + 1 > LIMITS.max_depth:
            return Verdict.refuse(Rule.DEPTH, step=index, detail=f"sub-task at depth {ctx.depth}")
    return None


def check_sizes(plan: Plan) -> Verdict | None:
    if len(plan.final_response) > limits.MAX_FINAL_RESPONSE:
        return Verdict.refuse(Rule.TOO_LONG, detail="final_response")
    if len(plan.remember) > limits.MAX_REMEMBER_FACTS:
        return Verdict.refuse(Rule.TOO_LONG, "The plan asks me to remember too many things at once.",
                              detail=f"{len(plan.remember)} facts")
    for key, value in plan.remember.items():
        if not key.strip() or len(key) > limits.MAX_FACT_KEY or len(value) > limits.MAX_FACT_VALUE:
            return Verdict.refuse(Rule.TOO_LONG, "That memory is too long or has no name.", detail="remember")
    return None


def strings(plan: Plan) -> Iterator[tuple[int | None, str]]:
    """Every string in the plan, with the index of the step it belongs to."""
    for index, step in enumerate(plan.steps):
        for value in step.params.values():
            if isinstance(value, str):
                yield index, value
    yield None, plan.final_response
    for key, value in plan.remember.items():
        yield None, key
        yield None, value


def expands(text: str) -> bool:
    return balloons(text, limits.MAX_EXPANSION)


def check_characters(plan: Plan, ctx: Context) -> Verdict | None:
    """Tag characters, bidi overrides, NUL and other controls are refused in every field, and so
    is text whose canonical form balloons."""
    for index, text in strings(plan):
        found = forbidden(text)
        if found:
            return Verdict.refuse(Rule.FORBIDDEN_CHAR, step=index, detail=found)
        if expands(text):
            return Verdict.refuse(Rule.TOO_LONG, step=index, detail="canonical form expands")
    found = forbidden(ctx.user_text)
    if found:
        return Verdict.refuse(Rule.FORBIDDEN_CHAR, "Your request contains hidden or control characters.",
                              detail=f"user text: {found}")
    if expands(ctx.user_text):
        return Verdict.refuse(Rule.TOO_LONG, detail="user text: canonical form expands")
    return None
