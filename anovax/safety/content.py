"""Per-step content rules: what each tool's own parameters may contain.

Each text parameter is screened for the context it lands in, its ``Param.sink`` (see scan.py):
typed text and app names execute; goals are read by a sub-planner; queries are URL-encoded into
a search; spoken text (``speak``, ``final_response``) is said aloud, never executed, so it is
checked for secrets and for the advice a scam needs (``spoken.py``: run this, switch off that,
call this number, read me the code). A text whose sink is not declared (a plug-in's) is treated as
executable text: the safe assumption for a tool nobody described.
"""

from __future__ import annotations

from collections.abc import Callable

from anovax.plan import Plan
from anovax.safety import address, apps, keys, readable, settings_names, spoken
from anovax.safety.context import Context
from anovax.safety.scan import Issue, exec_issue, model_issue, query_issue, secret_issue
from anovax.safety.verdict import Rule, Verdict
from anovax.toolspec import Sink

_KEY_REASON = "I don't know one of the keys the plan asks me to press."
_SPOKEN_SECRET_REASON = "I won't read passwords, keys or other secrets out loud."


def _app_name(name: str) -> Issue | None:
    problem = apps.name_problem(name)
    if problem in ("mixed-script look-alike letters", "compatibility look-alike characters"):
        return Issue(Rule.CONFUSABLE, detail=f"app name: {problem}")
    if problem:
        return Issue(Rule.APP_NAME, detail=problem)
    return exec_issue(name)


def _keys(text: str) -> Issue | None:
    try:
        chords = keys.parse(text)
    except keys.KeyError_ as exc:
        return Issue(Rule.BAD_PARAMS, _KEY_REASON, str(exc))
    for chord in chords:
        effect = keys.denied(chord)
        if effect:
            return Issue(Rule(effect.rule), effect.reason, "+".join(sorted(chord)))
    return None


def _spoken(text: str) -> Issue | None:
    issue = secret_issue(text)
    if issue:
        return Issue(Rule.SECRET, _SPOKEN_SECRET_REASON, f"spoken: {issue.detail}")
    return spoken.spoken_issue(text)


#: how a text is screened, by where it ends up (``Param.sink`` in the tool's declaration)
_BY_SINK: dict[Sink, Callable[[str], Issue | None]] = {
    Sink.APP: _app_name,
    Sink.WINDOW: _app_name,
    Sink.KEYS: _keys,
    Sink.TYPED: exec_issue,
    Sink.QUERY: query_issue,
    Sink.ADDRESS: address.issue,
    Sink.GOAL: model_issue,
    Sink.SPOKEN: _spoken,
    # a fact's name is looked up and said back ("I don't know your ... yet"), never executed
    Sink.FACT_KEY: _spoken,
    Sink.UNDECLARED: exec_issue,
}


#: the one question for a goal no word list can screen; it does not quote the goal (a reason is
#: one plain sentence and never echoes a payload): the person sees the plan's goal beside it
_UNREADABLE_QUESTION = "Start a sub-task whose goal is in a language I can't check?"


def _unreadable_goal(plan: Plan, ctx: Context, index: int, goal: str) -> Verdict | None:
    """Default-deny for a goal no word list can screen: a person sees it and decides. A recovery
    turn never asks, and a yes must not also store facts the question never showed."""
    problem = readable.goal_problem(goal)
    if problem is None:
        return None
    if ctx.recovering or plan.remember:
        return Verdict.refuse(Rule.UNREADABLE, step=index, detail=problem)
    return Verdict.confirm(Rule.UNREADABLE, _UNREADABLE_QUESTION, step=index, target="a sub-task",
                           action="start a sub-task with a goal I can't check", detail=problem)


def _dose(text: str, ctx: Context, index: int | None = None) -> Verdict | None:
    """Policy: a changed medicine dose is said only in the user's own words (``spoken.dose_change``)."""
    if spoken.dose_change(text, ctx.user_text):
        return Verdict.refuse(Rule.PROMPT_INJECTION, spoken.DOSE_REASON, step=index, detail="spoken: a dose changed")
    return None


def check_steps(plan: Plan, ctx: Context) -> Verdict | None:
    held: Verdict | None = None
    for index, step in enumerate(plan.steps):
        spec = ctx.registry[step.tool]  # shape.check_steps has refused tools not in the registry
        for sink, value in spec.texts(step.params):
            if sink is Sink.SPOKEN and (dose := _dose(value, ctx, index)):
                return dose
            issue = _BY_SINK[sink](value)
            if issue and not (sink is Sink.TYPED and issue.in_documents):  # the focus walk judges those
                return issue.verdict(index)
            if sink is Sink.GOAL:
                setting = settings_names.goal_problem(value)
                if setting:
                    return Verdict.refuse(Rule.PROMPT_INJECTION, settings_names.REASON, step=index, detail=setting)
                question = _unreadable_goal(plan, ctx, index, value)
                if question and not question.needs_yes:
                    return question
                held = held or question  # every unreadable goal is covered by the one question
    issue = _spoken(plan.final_response)
    if issue:
        return issue.verdict()
    return _dose(plan.final_response, ctx) or held
