"""safety_check: the one gate every plan passes before anything touches the keyboard.

Order (CWE-180): trusted counters -> strict parse -> shape and limits -> forbidden
characters -> memory -> per-step content -> what was asked for (acts, addresses) -> forgetting -> sequences and focus
-> split commands -> taint -> remembered facts sent out (personal).
Each stage returns a refusal, a confirm or None; the first refusal wins, and a confirm only
stands when every later stage passes too (a question is never asked about a plan that would
be refused anyway). Nothing here raises: any
unexpected exception is itself a refusal (``internal_error``), because a check that crashed
has not checked anything.

State across plans (what the runtime passes, all trusted, all validated in ``context``):

- ``target``: the window keys go to before the plan runs, as the desktop identified it
  (``WindowIdentity``; its ``klass`` decides the keyboard policy, its ``name`` is what a
  question shows). At run time it is always given, and it wins over ``focused_app``. For a
  sub-plan it is the window the parent's steps left in front; for a recovery turn, the window
  the failed step left. ``None`` with ``focused_app=None`` means "no claim": a plan-only check.
- ``focused_app``: plan-only checks (tests, the red-team corpus) name the window instead; a
  name the gate's static table does not vouch for counts as UNKNOWN (treated like a shell).
- ``classify``: the desktop's class for an app name an ``open_app`` step uses (what its app
  table resolves the name to); None, or an answer of None, leaves it to the static table.
- ``session_typed``: what was typed into the target since its last submit, in the line
  encoding of ``anovax.safety.focus`` (``<lt>`` for ``<``, other keys as ``<home>``,
  ``<ctrl+a>``..., ``<unknown>`` for a line nobody saw). Anything still on a SHELL or UNKNOWN
  window's line makes shell input unaskable: the question would not show the line that runs.
  Older text before a newline is only the prefix for split-command scanning.
- ``depth`` and ``observation``: a sub-plan (depth >= 1) gets the same verdict a top-level plan
  would, a question included (the runtime asks the person); a recovery turn (an observation)
  never gets a question, so shell input there is refused outright.

- ``recent_outbound``: what the last few plans sent out (queries, speech, goals, new facts),
  oldest first: a secret from memory split over two commands ("Sonnen" now, "blume7" next) is
  looked for in those texts and this plan's together (``anovax.safety.stored``).

``anovax.safety.carry.after(plan, before)`` computes the next plan's state from this one's
(the target class and name, and the line) for the simulated desktop and the session.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from anovax.errors import PlanError
from anovax.plan import LIMITS, Plan, parse_plan, plan_from_obj
from anovax.safety import address, asked, content, forget, memory, personal, sequence, shape, stream, taint
from anovax.safety.context import Context, build
from anovax.safety.verdict import Rule, Verdict
from anovax.target import TargetClass, WindowIdentity
from anovax.tools import TOOLS, ToolRegistry


def parse_untrusted(plan: Any) -> Plan | Verdict:
    """A Plan re-validated from its own dict, or an untrusted object parsed strictly."""
    try:
        if isinstance(plan, Plan):
            # Plan's constructor checks nothing; re-validate what it holds.
            try:
                data = plan.to_dict()
            except Exception as exc:  # a malformed Plan (steps that are not Steps)
                raise PlanError("The plan object is malformed.") from exc
            return plan_from_obj(data)
        if isinstance(plan, Mapping):
            steps = plan.get("steps")
            if isinstance(steps, (list, tuple)) and len(steps) > LIMITS.max_steps:
                return Verdict.refuse(Rule.TOO_MANY_STEPS, detail=f"{len(steps)} steps")
        return parse_plan(plan)
    except PlanError as exc:
        return Verdict.refuse(Rule.BAD_PLAN, detail=exc.message)
    except (ValueError, TypeError, RecursionError, OverflowError) as exc:
        # the JSON layer's own limits (e.g. a 5000-digit integer) are malformed plans too
        return Verdict.refuse(Rule.BAD_PLAN, detail=f"{type(exc).__name__}: {exc}")


def _check(plan: Plan, ctx: Context) -> Verdict:
    stages = (
        lambda: shape.check_steps(plan, ctx),
        lambda: shape.check_sizes(plan),
        lambda: shape.check_characters(plan, ctx),
        # what is to be stored first: a reply that repeats a refused fact ("I'll remember your
        # wifi password is ...") is refused for the fact, and the user hears why
        lambda: memory.check_remember(plan),
        lambda: content.check_steps(plan, ctx),
        # closing apps or cancelling every timer the request did not name (anovax.safety.asked)
        lambda: asked.check(plan, ctx),
        # ... and opening an address the request does not hold (anovax.safety.address)
        lambda: address.check(plan, ctx),
        # after the content rules: a fact name they refuse is never shown in a question
        lambda: forget.check(plan, ctx),
        lambda: sequence.check(plan, ctx),
        lambda: stream.check(plan, ctx),
        lambda: taint.check(plan, ctx),
        # after taint: a secret fact is refused there; any other fact sent unasked is asked about
        lambda: personal.check(plan, ctx),
    )
    held: Verdict | None = None
    for stage in stages:
        verdict = stage()
        if verdict is None:
            continue
        if not verdict.needs_yes:
            return verdict
        if held is not None and verdict.question != held.question:
            # one question, about one thing: a yes to one must not run what another would show
            return Verdict.refuse(Rule(verdict.rule), step=verdict.step, detail="two questions in one plan")
        held = held or verdict
    return held or Verdict.allow()


def safety_check(
    plan: Any,
    user_text: str = "",
    *,
    depth: int = 0,
    agents_spawned: int = 0,
    memory: Mapping[str, str] | None = None,
    observation: str | None = None,
    session_typed: str = "",
    focused_app: str | None = None,
    registry: ToolRegistry = TOOLS,
    target: WindowIdentity | None = None,
    classify: Callable[[str], TargetClass | None] | None = None,
    recent_outbound: Sequence[str] | None = None,
    search_hosts: Sequence[str] = (),
) -> Verdict:
    """Allow, hold for a yes, or refuse ``plan`` (a Plan or untrusted raw data); never raises.
    The keyword arguments are the trusted runtime state described in the module docstring."""
    try:
        ctx = build(
            user_text=user_text,
            depth=depth,
            agents_spawned=agents_spawned,
            memory=memory,
            observation=observation,
            session_typed=session_typed,
            focused_app=focused_app,
            registry=registry,
            target=target,
            classify=classify,
            recent_outbound=recent_outbound,
            search_hosts=search_hosts,
        )
        if isinstance(ctx, Verdict):
            return ctx
        budget = shape.check_budget(ctx)
        if budget is not None:
            return budget
        parsed = parse_untrusted(plan)
        if isinstance(parsed, Verdict):
            return parsed
        return _check(parsed, ctx)
    except Exception as exc:  # noqa: BLE001 - the whole point: fail closed, never raise
        return Verdict.refuse(Rule.INTERNAL_ERROR, detail=f"{type(exc).__name__}: {exc}")
