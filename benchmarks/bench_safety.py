"""safety_check on its own: latency on ordinary plans, the worst adversarial plan, and questions.

    python -m benchmarks.bench_safety [--data DIR] [--split test|devel] [--quick]

Three tables:

1. latency over the offline planner's plans for the SLURP sentences (as ``bench_planner`` builds
   them; warm caches, each call timed with perf_counter_ns): p50, p99, max against p99 <= 2 ms;
2. the worst adversarial plan of ``tests/adversarial.py`` (every place x every special unit, and
   the pattern words the regex screen finds slowest), cold caches, this thread's CPU time:
   plan fields against 50 ms; the runtime's context (stored memory, transcript, screen text,
   session line) is reported beside it;
3. questions (confirm verdicts) per 100 benign plans: the SLURP plans, and the eval task suite's
   plans (offline planner and the scripted Gemini plans, tasks that expect no question and no
   refusal) against <= 5.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import adversarial  # noqa: E402
from anovax.planner.slurp_eval import default_data_dir, load_split, percentile  # noqa: E402
from anovax.safety import Decision, safety_check  # noqa: E402
from anovax.target import TargetClass, WindowIdentity  # noqa: E402

TARGET_P99_MS = 2.0
TARGET_WORST_MS = 50.0
TARGET_QUESTIONS = 5.0
WARMUP = 300
CONTEXT_PLACES = ("memory", "user_text", "observation", "session_typed")
#: pattern words (from the regex screen) also tried through the whole check
WORST_WORDS = 12


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def slurp_latency(sentences: list[str]) -> tuple[str, list[Any]]:
    from anovax.planner.offline import OfflinePlanner

    planner = OfflinePlanner()
    plans = [planner.plan(text) for text in sentences]
    for plan, text in list(zip(plans, sentences))[:WARMUP]:
        safety_check(plan, text)
    samples, verdicts = [], []
    clock = time.perf_counter_ns
    for plan, text in zip(plans, sentences):
        start = clock()
        verdict = safety_check(plan, text)
        samples.append((clock() - start) / 1e6)
        verdicts.append(verdict)
    p50, p99, worst = percentile(samples, 50), percentile(samples, 99), max(samples)
    row = (f"| SLURP plans (warm) | {len(samples)} | {p50:.3f} | {p99:.3f} | {worst:.3f} "
           f"| p99 <= {TARGET_P99_MS:g} ms | {_verdict(p99 <= TARGET_P99_MS)} |")
    return row, verdicts


def _regex_worst_words(limit: int) -> list[str]:
    timed = []
    for _, pattern in adversarial.patterns():
        for word in adversarial.words_of(pattern.pattern):
            text = adversarial.fill(word + " ", 2000)
            start = time.thread_time()
            pattern.search(text)
            timed.append((time.thread_time() - start, word))
    timed.sort(reverse=True)
    out: list[str] = []
    for _, word in timed:
        if word not in out:
            out.append(word)
        if len(out) == limit:
            break
    return out


def adversarial_worst(quick: bool) -> list[str]:
    """The slowest plan-field family and the slowest context family, re-timed (least of 3)."""
    families = adversarial.families(words=False)
    for word in _regex_worst_words(4 if quick else WORST_WORDS):
        for place in ("type_text.text", "plan_subtask.goal", "remember"):
            families.append(adversarial.family(place, f"word:{word}", word + " "))
    if quick:
        families = [f for f in families if not f.name.startswith(CONTEXT_PLACES)][::7]
    screened = []
    for family in families:
        case = family.build(1.0)
        screened.append((adversarial.cpu_ms(case, runs=1), family.name, case))
    screened.sort(key=lambda row: row[:2], reverse=True)
    rows = []
    for label, is_context in (("plan fields", False), ("runtime context", True)):
        everyone = [row for row in screened if row[1].startswith(CONTEXT_PLACES) == is_context]
        mine = everyone[:3]
        if not mine:
            continue
        best = max(((adversarial.cpu_ms(case, runs=3), name, case) for _, name, case in mine), key=lambda r: r[0])
        ms, name, case = best
        verdict = case.check()
        target = f"<= {TARGET_WORST_MS:g} ms" if not is_context else "(first command; cached after)"
        result = _verdict(ms <= TARGET_WORST_MS) if not is_context else "info"
        rows.append(f"| {label} | {len(everyone)} "
                    f"| `{name}` | {ms:.1f} | {verdict.decision.value} ({verdict.rule}) | {target} | {result} |")
    return rows


def _eval_cases() -> list[tuple[str, Any, dict[str, Any]]]:
    """(request, plan, context) for the eval suite's benign tasks: no question and no refusal
    expected. The test editor is vouched for as a text window, as the suite's app table does."""
    import yaml

    from anovax.planner.offline import OfflinePlanner

    tasks = yaml.safe_load((ROOT / "eval" / "tasks.yaml").read_text(encoding="utf-8"))["categories"]
    scripted = yaml.safe_load((ROOT / "eval" / "gemini_plans.yaml").read_text(encoding="utf-8")) or {}
    planner = OfflinePlanner()
    editor = WindowIdentity(window=1, title="test editor", app="test editor", klass=TargetClass.TEXT)

    def classify(name: str) -> TargetClass | None:
        return TargetClass.TEXT if name.strip().lower() == "test editor" else None

    out = []
    for entries in tasks.values():
        for task in entries:
            effect = task.get("effect", {})
            if effect.get("asked") or effect.get("no_agents") or effect.get("quiet"):
                continue
            context: dict[str, Any] = {"classify": classify}
            if task.get("setup") == "editor":
                context["target"] = editor
            out.append((task["say"], planner.plan(task["say"]), context))
            replies = scripted.get(task["say"])
            if isinstance(replies, list) and replies and isinstance(replies[0], dict) and "steps" in replies[0]:
                out.append((task["say"], replies[0], context))
    return out


def questions_rows(slurp_verdicts: list[Any]) -> list[str]:
    rows = []

    def row(name: str, verdicts: list[Any]) -> str:
        asked = sum(v.decision is Decision.CONFIRM for v in verdicts)
        per100 = 100.0 * asked / max(1, len(verdicts))
        refused = sum(v.decision is Decision.REFUSE for v in verdicts)
        return (f"| {name} | {len(verdicts)} | {asked} | {refused} | {per100:.2f} "
                f"| <= {TARGET_QUESTIONS:g} | {_verdict(per100 <= TARGET_QUESTIONS)} |")

    if slurp_verdicts:
        rows.append(row("SLURP plans (offline planner)", slurp_verdicts))
    try:
        cases = _eval_cases()
    except (FileNotFoundError, ImportError) as exc:
        rows.append(f"| eval task plans | skipped: {exc} | | | | | |")
    else:
        rows.append(row("eval task plans (offline + scripted Gemini)",
                        [safety_check(plan, say, **context) for say, plan, context in cases]))
    return rows


def run(data_dir: Path | None = None, split: str = "test", quick: bool = False) -> str:
    lines = [f"### safety_check latency: SLURP {split} plans", "",
             "| plans | n | p50 ms | p99 ms | max ms | target | result |", "|---|---:|---:|---:|---:|---|---|"]
    verdicts: list[Any] = []
    try:
        sentences = [row["sentence"] for row in load_split(split, data_dir)]
        if quick:
            sentences = sentences[:1000]
        row, verdicts = slurp_latency(sentences)
        lines.append(row)
    except FileNotFoundError as exc:
        lines.append(f"| SLURP | skipped: {exc} | | | | | |")
    lines += ["", "### safety_check worst case: adversarial plans at the size caps (cold caches, CPU ms)", "",
              "| where | families | worst family | ms | verdict | target | result |", "|---|---:|---|---:|---|---|---|"]
    lines += adversarial_worst(quick)
    lines += ["", "### questions per 100 benign plans", "",
              "| plans | n | questions | refused | per 100 | target | result |", "|---|---:|---:|---:|---:|---|---|"]
    lines += questions_rows(verdicts)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None, help=f"SLURP folder (default {default_data_dir()})")
    ap.add_argument("--split", choices=("test", "devel"), default="test")
    ap.add_argument("--quick", action="store_true", help="a sample of the families and sentences")
    args = ap.parse_args(argv)
    print(run(args.data, args.split, args.quick))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
