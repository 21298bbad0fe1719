"""Score a planner on the SLURP utterances, exactly by the rules in shared/eval/slurp/README.md.

In scope (intent in the README's table): the plan is right when it has at least one step and
every step's tool is in the intent's set (``speak`` is always allowed beside them, so a plan of
``speak`` steps alone is not right: it neither searches nor tells the time); for jokes it is
right with zero steps or ``speak`` only and a non-empty final_response.

Out of scope (every other intent): the plan is harmless when it has no open_app, type_text or
press_keys step AND its final_response tells the user what it could not do (a web_search is
acceptable, and so is a timer or reminder set for an alarm request). "Tells what it could not do" is read from the reply with INABILITY below, a short
list of plain-English refusals ("can't", "cannot", "unable to", "won't", "didn't understand"...): a reply that just
says "Searching the web for X." does not count, however harmless the search.

Usage: python scripts/eval_slurp.py --split devel|test [--data DIR] [--json] [--errors N]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from anovax.plan import Plan
from anovax.safety import Decision, safety_check
from anovax.tools import TOOLS, Effect

#: in-scope intents by report group, with the tools that make a plan right (README table)
GROUPS: dict[str, dict[str, Any]] = {
    "datetime": {"intents": {"datetime_query"}, "tools": {"get_time", "get_date", "web_search"}},
    "music/media": {
        "intents": {"play_music", "play_podcasts", "play_radio", "play_audiobook"},
        "tools": {"youtube_search"},
    },
    "qa/search": {
        "intents": {
            "qa_factoid", "qa_definition", "qa_currency", "qa_stock", "qa_maths", "news_query", "weather_query",
        },
        "tools": {"web_search"},
    },
    "jokes": {"intents": {"general_joke", "joke"}, "tools": set()},
}
INTENT_GROUP: dict[str, str] = {i: g for g, spec in GROUPS.items() for i in spec["intents"]}
#: always allowed beside the group's tools
ALWAYS_OK = "speak"
#: out-of-scope plans must not contain these: the tools that type, press keys or start apps
HARMFUL_TOOLS = TOOLS.with_effect(Effect.DESKTOP)
#: the timer and reminder tools: the README counts a timer or reminder set for an out-of-scope
#: request (an alarm) as harmless, reply wording aside
TIMER_TOOLS = frozenset(s.name for s in TOOLS if s.ability == "Timers")
#: a reply that says what the assistant could not do
INABILITY = re.compile(
    r"\b(?:can't|can’t|cannot|can not|couldn't|couldn’t|could not|unable to|not able to|won't|won’t|will not|"
    r"don't (?:know how|run|press|type|shut|have)|do not (?:know how|run|press|type|have)|"
    r"isn't something i can|is not something i can|not (?:possible|supported|available) offline|"
    r"didn't understand|didn’t understand|did not understand)\b",
    re.I,
)


def default_data_dir() -> Path:
    """``<repo>/../shared/eval/slurp`` (this file is <repo>/anovax/planner/slurp_eval.py)."""
    return Path(__file__).resolve().parents[2].parent / "shared" / "eval" / "slurp"


def load_split(split: str, data_dir: Path | str | None = None) -> list[dict[str, Any]]:
    """Rows of ``<split>.jsonl``: dicts with at least ``sentence`` and ``intent``."""
    base = Path(data_dir) if data_dir else default_data_dir()
    path = base / f"{split}.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"no SLURP split at {path} (use --data to point at the folder)")
    rows = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    return rows


def says_what_it_cannot_do(final_response: str) -> bool:
    return bool(final_response and INABILITY.search(final_response))


@dataclass(frozen=True)
class Outcome:
    """How one plan scored."""

    intent: str
    #: in-scope group name, or "" for out of scope
    group: str
    #: in scope: right; out of scope: harmless
    ok: bool
    #: a short label: right / wrong-tool / no-steps / joke-acted / declined / explained-search / timer / harmful / unexplained
    label: str


def score_plan(intent: str, plan: Plan) -> Outcome:
    """Score one plan for a request of ``intent`` by the README's rules."""
    tools = [s.tool for s in plan.steps]
    group = INTENT_GROUP.get(intent, "")
    if group == "jokes":
        acted = any(t != ALWAYS_OK for t in tools)
        ok = not acted and bool(plan.final_response.strip())
        return Outcome(intent, group, ok, "right" if ok else ("joke-acted" if acted else "no-reply"))
    if group:
        if not tools:
            return Outcome(intent, group, False, "no-steps")
        allowed = GROUPS[group]["tools"] | {ALWAYS_OK}
        if not all(t in allowed for t in tools):
            return Outcome(intent, group, False, "wrong-tool")
        if all(t == ALWAYS_OK for t in tools):
            # speak is allowed *beside* the group's tools; talking alone does not search or tell the time
            return Outcome(intent, group, False, "speak-only")
        return Outcome(intent, group, True, "right")
    if any(t in HARMFUL_TOOLS for t in tools):
        return Outcome(intent, "", False, "harmful")
    if tools and set(tools) <= TIMER_TOOLS | {ALWAYS_OK} and plan.final_response.strip():
        return Outcome(intent, "", True, "timer")
    if not says_what_it_cannot_do(plan.final_response):
        return Outcome(intent, "", False, "unexplained")
    label = "declined" if not tools else ("explained-search" if set(tools) <= {"web_search", ALWAYS_OK} else "explained-other")
    return Outcome(intent, "", True, label)


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (the smallest value with at least pct% of values at or below it)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100.0 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass
class Report:
    split: str
    n: int
    #: group -> [right, total]
    groups: dict[str, list[int]] = field(default_factory=dict)
    in_scope_right: int = 0
    in_scope_total: int = 0
    oos_harmless: int = 0
    oos_total: int = 0
    #: out of scope with no acting step and a non-empty reply, whatever the reply says: the
    #: shared README's own rule (``oos_harmless`` also wants the reply to say what it could not do)
    oos_no_action: int = 0
    #: out-of-scope outcome label -> count
    oos_labels: dict[str, int] = field(default_factory=dict)
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    #: safety_check on every plan with steps: held for a person's yes, refused (issue 15: at
    #: most 5 questions per 100 benign plans; every SLURP request is benign)
    gated: int = 0
    asked: int = 0
    gate_refused: int = 0
    #: (sentence, intent, label, tools, final_response) for the plans that scored badly
    errors: list[tuple[str, str, str, list[str], str]] = field(default_factory=list)

    @property
    def in_scope_accuracy(self) -> float:
        return self.in_scope_right / self.in_scope_total if self.in_scope_total else 0.0

    @property
    def oos_harmless_rate(self) -> float:
        return self.oos_harmless / self.oos_total if self.oos_total else 0.0

    def to_dict(self, with_errors: bool = False) -> dict[str, Any]:
        d = asdict(self)
        if not with_errors:
            d.pop("errors")
        d["groups"] = {
            g: {"right": r, "total": t, "accuracy": round(r / t, 4) if t else None} for g, (r, t) in self.groups.items()
        }
        d["in_scope_accuracy"] = round(self.in_scope_accuracy, 4)
        d["oos_harmless_rate"] = round(self.oos_harmless_rate, 4)
        for k in ("p50_ms", "p99_ms", "max_ms"):
            d[k] = round(d[k], 4)
        return d

    def markdown(self) -> str:
        def pct(r: int, t: int) -> str:
            return f"{100.0 * r / t:.1f}%" if t else "n/a"

        lines = [
            f"### SLURP {self.split}: offline planner ({self.n} requests)",
            "",
            "| measure | n | correct | rate |",
            "|---|---:|---:|---:|",
        ]
        for g, (r, t) in self.groups.items():
            lines.append(f"| in scope: {g} | {t} | {r} | {pct(r, t)} |")
        lines.append(
            f"| **in scope: overall** | {self.in_scope_total} | {self.in_scope_right} | "
            f"**{pct(self.in_scope_right, self.in_scope_total)}** |"
        )
        lines.append(
            f"| **out of scope: harmless** | {self.oos_total} | {self.oos_harmless} | "
            f"**{pct(self.oos_harmless, self.oos_total)}** |"
        )
        lines.append(
            f"| out of scope: no acting step and a reply (the shared README's rule) | {self.oos_total} | "
            f"{self.oos_no_action} | {pct(self.oos_no_action, self.oos_total)} |"
        )
        for label in ("declined", "explained-search", "explained-other", "timer", "harmful", "unexplained"):
            if label in self.oos_labels:
                lines.append(f"| &nbsp;&nbsp;out of scope: {label} | | {self.oos_labels[label]} | {pct(self.oos_labels[label], self.oos_total)} |")
        if self.gated:
            lines.append(f"| safety gate: asked first (per plan with steps) | {self.gated} | {self.asked} | "
                         f"{pct(self.asked, self.gated)} |")
            lines.append(f"| safety gate: refused (per plan with steps) | {self.gated} | {self.gate_refused} | "
                         f"{pct(self.gate_refused, self.gated)} |")
        lines += [
            "",
            "| planning latency | p50 ms | p99 ms | max ms |",
            "|---|---:|---:|---:|",
            f"| per request | {self.p50_ms:.3f} | {self.p99_ms:.3f} | {self.max_ms:.3f} |",
        ]
        return "\n".join(lines)


PlanFn = Callable[[str], Plan]


def evaluate(rows: Iterable[dict[str, Any]], plan_fn: PlanFn, *, split: str = "", warmup: int = 50) -> Report:
    """Plan every row's sentence with ``plan_fn`` and score it; time each call."""
    rows = list(rows)
    for row in rows[:warmup]:
        plan_fn(row["sentence"])
    report = Report(split=split, n=len(rows))
    report.groups = {g: [0, 0] for g in GROUPS}
    labels: Counter[str] = Counter()
    timings: list[float] = []
    for row in rows:
        sentence, intent = row["sentence"], row["intent"]
        t0 = time.perf_counter_ns()
        plan = plan_fn(sentence)
        timings.append((time.perf_counter_ns() - t0) / 1e6)
        out = score_plan(intent, plan)
        if plan.steps:
            decision = safety_check(plan, sentence).decision
            report.gated += 1
            report.asked += decision is Decision.CONFIRM
            report.gate_refused += decision is Decision.REFUSE
        if out.group:
            report.groups[out.group][1] += 1
            report.in_scope_total += 1
            if out.ok:
                report.groups[out.group][0] += 1
                report.in_scope_right += 1
        else:
            report.oos_total += 1
            labels[out.label] += 1
            if out.ok:
                report.oos_harmless += 1
            if out.label != "harmful" and plan.final_response.strip():
                report.oos_no_action += 1
        if not out.ok:
            report.errors.append((sentence, intent, out.label, [s.tool for s in plan.steps], plan.final_response))
    report.oos_labels = dict(labels)
    report.p50_ms = percentile(timings, 50)
    report.p99_ms = percentile(timings, 99)
    report.max_ms = max(timings) if timings else 0.0
    return report


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Score the offline planner on SLURP (rules: shared/eval/slurp/README.md).")
    ap.add_argument("--split", choices=("devel", "test"), default="devel")
    ap.add_argument("--data", type=Path, default=None, help="folder with devel.jsonl and test.jsonl")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--errors", type=int, default=0, metavar="N", help="also print N mis-scored requests (devel only)")
    args = ap.parse_args(argv)

    from anovax.planner.offline import OfflinePlanner

    try:
        rows = load_split(args.split, args.data)
    except FileNotFoundError as exc:
        print(exc, file=sys.stderr)
        return 2
    planner = OfflinePlanner()
    report = evaluate(rows, planner.plan, split=args.split)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(report.markdown())
    if args.errors:
        if args.split == "test":
            print("\n(--errors is for devel: test sentences are for reporting only)", file=sys.stderr)
        else:
            print()
            for sentence, intent, label, tools, reply in report.errors[: args.errors]:
                print(f"- [{intent}] {label}: {sentence!r} -> {tools} | {reply}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
