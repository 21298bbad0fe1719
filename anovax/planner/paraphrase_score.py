"""Score the offline planner on a set of paraphrases: is each plan the kind of action expected?

A set is JSON lines ``{"text", "expect", "must_contain"}`` (``parts`` optional for compounds).
``expect`` is one of KINDS; a plan is right when it is that kind of action and every
``must_contain`` word appears (case-insensitive) in its steps' params or the facts it keeps. A plan
``safety_check`` refuses counts as what the assistant would do with it: nothing, and the reason.

- out_of_scope and greeting: no acting step (one that types, presses keys or starts an app) and
  a non-empty reply;
- goal: a web search and a YouTube search, each holding every goal word;
- compound: two or more steps (or kept facts) that act or answer; with ``parts``, each part's
  kind is among them.

Usage: python scripts/score_paraphrases.py FILE.jsonl
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from anovax.plan import Plan, Step
from anovax.planner import lexicon as lx
from anovax.safety import Decision, safety_check
from anovax.tools import TOOLS, Effect

#: the tools that act on the desktop: out-of-scope and small-talk plans must have none
ACTING = TOOLS.with_effect(Effect.DESKTOP)
#: what each expected kind's plan must contain (any one of the tools)
KIND_TOOLS: dict[str, frozenset[str]] = {
    "time": frozenset({"get_time"}),
    "date": frozenset({"get_date"}),
    # switch_to_app opens the app when none of its windows is open ("bring up the calculator")
    "open_app": frozenset({"open_app", "switch_to_app"}),
    "youtube": frozenset({"youtube_search"}),
    "web_search": frozenset({"web_search"}),
    "hotkey": frozenset({"press_keys"}),
    "type_text": frozenset({"type_text"}),
    "timer": frozenset({"set_timer", "set_reminder"}),
    "screenshot": frozenset({"screenshot"}),
    "recall": frozenset({"recall", "recall_all"}),
}
KINDS = (*KIND_TOOLS, "remember", "greeting", "goal", "compound", "out_of_scope")


@dataclass(frozen=True)
class Case:
    """One paraphrase and what its plan must be."""

    text: str
    expect: str
    must_contain: tuple[str, ...] = ()
    #: for a compound: the kind of each part (optional)
    parts: tuple[str, ...] = ()


def _said(step: Step) -> str:
    """A step's params, with what they stand for: an app's other names ("text editor" for notepad),
    a timer's length in minutes ("10 minutes" for 600 seconds)."""
    bits = [json.dumps(dict(step.params), ensure_ascii=False)]
    name = step.params.get("name")
    if step.tool in ("open_app", "switch_to_app") and isinstance(name, str):
        bits += [alias for alias, app in lx.APP_ALIASES.items() if app == name]
    seconds = step.params.get("seconds")
    if isinstance(seconds, (int, float)) and seconds % 60 == 0:
        bits.append(f"{int(seconds // 60)} minutes")
    return " ".join(bits)


def _words_in(plan: Plan, tools: frozenset[str] | None = None) -> str:
    """The params of the plan's steps (only ``tools``' when given) and its kept facts, lower-cased."""
    bits = [_said(s) for s in plan.steps if tools is None or s.tool in tools]
    if tools is None:
        bits += [f"{k} {v}" for k, v in plan.remember.items()]
    return " ".join(bits).lower().replace("_", " ")


def _has(plan: Plan, kind: str) -> bool:
    if kind == "remember":
        return bool(plan.remember)
    return any(s.tool in KIND_TOOLS.get(kind, ()) for s in plan.steps)


def judge(case: Case, plan: Plan) -> bool:
    """Is ``plan`` the kind of action ``case`` expects, with every must-contain word?"""
    words = [w.lower() for w in case.must_contain]
    said = bool(plan.final_response.strip())
    if case.expect in ("out_of_scope", "greeting"):
        return said and not any(s.tool in ACTING for s in plan.steps)
    if case.expect == "goal":
        return all(_has(plan, k) and all(w in _words_in(plan, KIND_TOOLS[k]) for w in words)
                   for k in ("web_search", "youtube"))
    if case.expect == "compound":
        count = sum(1 for s in plan.steps if s.tool != "speak") + (1 if plan.remember else 0)
        if count < 2 or not all(_has(plan, k) for k in case.parts if k in KIND_TOOLS or k == "remember"):
            return False
    elif not _has(plan, case.expect):
        return False
    text = _words_in(plan)
    return all(w in text for w in words)


def load(path: Path) -> list[Case]:
    """The cases of a JSONL file; a line that is not a case is reported and skipped."""
    cases = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            case = Case(str(row["text"]), str(row["expect"]), tuple(map(str, row.get("must_contain", ()))),
                        tuple(map(str, row.get("parts", ()))))
        except (ValueError, KeyError, TypeError) as exc:
            print(f"{path}:{n}: skipped ({exc})", file=sys.stderr)
            continue
        if case.expect not in KINDS:
            print(f"{path}:{n}: skipped (unknown expect {case.expect!r})", file=sys.stderr)
            continue
        cases.append(case)
    return cases


def score(cases: Sequence[Case], plan: Callable[[str], Plan]) -> tuple[Counter[str], Counter[str], list[tuple[Case, Plan]]]:
    """(cases per kind, right per kind, the misses with their plans)."""
    total: Counter[str] = Counter()
    right: Counter[str] = Counter()
    misses = []
    for case in cases:
        got = plan(case.text)
        verdict = safety_check(got, case.text)
        if verdict.decision is Decision.REFUSE:  # what the assistant would do: nothing, and say why
            got = Plan((), verdict.reason)
        total[case.expect] += 1
        if judge(case, got):
            right[case.expect] += 1
        else:
            misses.append((case, got))
    return total, right, misses


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print(__doc__.rsplit("Usage: ", 1)[1].strip(), file=sys.stderr)
        return 2
    from anovax.planner.offline import OfflinePlanner

    cases = load(Path(args[0]))
    total, right, misses = score(cases, OfflinePlanner().plan)
    print("| kind | right | of |\n|---|---:|---:|")
    for kind in KINDS:
        if total[kind]:
            print(f"| {kind} | {right[kind]} | {total[kind]} |")
    print(f"| **all** | **{sum(right.values())}** | **{sum(total.values())}** |")
    for case, plan in misses:
        print(f"\nMISS [{case.expect}] {case.text!r}\n  -> {plan.to_json()}")
    return 0
