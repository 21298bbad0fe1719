"""Per-step content rules: what each tool's own parameters may contain.

Each tool's text is screened for the context it lands in (see scan.py): typed text and app
names execute; goals are read by a sub-planner; queries are URL-encoded into a search;
spoken text (``speak``, ``final_response``) is only checked for secrets, because it is said
aloud, never executed. Strings of tools this module does not know (plug-ins added to the
registry) are treated as executable text: the safe assumption for a tool nobody described.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from anovax.plan import Plan
from anovax.safety import apps, keys, leaks
from anovax.safety.scan import Issue, exec_issue, model_issue, query_issue
from anovax.safety.verdict import Rule, Verdict

_KEY_REASON = "I don't know one of the keys the plan asks me to press."
_SPOKEN_SECRET_REASON = "I won't read passwords, keys or other secrets out loud."


def _open_app(params: Mapping[str, Any]) -> Issue | None:
    name = params["name"]
    problem = apps.name_problem(name)
    if problem in ("mixed-script look-alike letters", "compatibility look-alike characters"):
        return Issue(Rule.CONFUSABLE, detail=f"app name: {problem}")
    if problem:
        return Issue(Rule.APP_NAME, detail=problem)
    return exec_issue(name)


def _press_keys(params: Mapping[str, Any]) -> Issue | None:
    try:
        chords = keys.parse(params["keys"])
    except keys.KeyError_ as exc:
        return Issue(Rule.BAD_PARAMS, _KEY_REASON, str(exc))
    for chord in chords:
        effect = keys.denied(chord)
        if effect:
            return Issue(Rule(effect.rule), effect.reason, "+".join(sorted(chord)))
    return None


def _type_text(params: Mapping[str, Any]) -> Issue | None:
    return exec_issue(params["text"])


def _search(params: Mapping[str, Any]) -> Issue | None:
    return query_issue(params["query"])


def _subtask(params: Mapping[str, Any]) -> Issue | None:
    return model_issue(params["goal"])


def _speak(params: Mapping[str, Any]) -> Issue | None:
    return _spoken(params["text"])


def _spoken(text: str) -> Issue | None:
    if leaks.find_secret(text):
        return Issue(Rule.SECRET, _SPOKEN_SECRET_REASON, "secret in spoken text")
    return None


def _nothing(params: Mapping[str, Any]) -> Issue | None:
    return None


def _unknown_tool(params: Mapping[str, Any]) -> Issue | None:
    for value in params.values():
        if isinstance(value, str):
            issue = exec_issue(value)
            if issue:
                return issue
    return None


_RULES: dict[str, Callable[[Mapping[str, Any]], Issue | None]] = {
    "open_app": _open_app,
    "press_keys": _press_keys,
    "type_text": _type_text,
    "web_search": _search,
    "youtube_search": _search,
    "plan_subtask": _subtask,
    "speak": _speak,
    "screenshot": _nothing,
    "get_time": _nothing,
    "get_date": _nothing,
    "wait": _nothing,
}


def check_steps(plan: Plan) -> Verdict | None:
    for index, step in enumerate(plan.steps):
        issue = _RULES.get(step.tool, _unknown_tool)(step.params)
        if issue:
            return issue.verdict(index)
    issue = _spoken(plan.final_response)
    return issue.verdict() if issue else None
