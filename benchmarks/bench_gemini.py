"""The Gemini planner's own overhead around the model call (prompt building, strict parse, registry check).

    python -m benchmarks.bench_gemini [--n N]

The model is an in-process JsonModel that returns a canned plan instantly, so what is timed is
everything GeminiPlanner does per command besides the network: target p99 < 5 ms. No network,
no SDK import. Prints one markdown table in the style of bench_planner.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from anovax.planner.slurp_eval import percentile  # noqa: E402

TARGET_P99_MS = 5.0
WARMUP = 200

CANNED = json.dumps(
    {
        "steps": [
            {"tool": "open_app", "params": {"name": "notepad"}},
            {"tool": "type_text", "params": {"text": "milk, eggs, bread"}},
            {"tool": "press_keys", "params": {"keys": "ctrl+s"}},
        ],
        "final_response": "Opening Notepad and writing your list.",
        "remember": {"shop": "the corner shop"},
    }
)
CONTEXT = "name: Ada\nprefers: short answers\nlast request: open the calculator"


class InstantModel:
    """A JsonModel that answers at once with a canned plan (or the answers given, in turn)."""

    name = "instant"
    timeout_s = 1.0

    def __init__(self, *answers: str) -> None:
        self._answers = answers or (CANNED,)
        self._i = 0

    def generate_json(self, system: str, prompt: str, schema: Mapping[str, Any], *, timeout_s: float) -> str:
        answer = self._answers[self._i % len(self._answers)]
        self._i += 1
        return answer


def planner_overhead_samples(n: int = 2000, *answers: str) -> list[int]:
    """``n`` timings (ns) of GeminiPlanner.plan_with_refusal over an InstantModel."""
    from anovax.planner.gemini import GeminiPlanner
    from anovax.planner.offline import OfflinePlanner

    planner = GeminiPlanner(InstantModel(*answers), fallback=OfflinePlanner())
    for _ in range(WARMUP):
        planner.plan_with_refusal("open notepad and write milk, eggs, bread", CONTEXT, current_app="calculator")
    clock = time.perf_counter_ns
    samples = []
    for _ in range(n):
        t0 = clock()
        planner.plan_with_refusal("open notepad and write milk, eggs, bread", CONTEXT, current_app="calculator")
        samples.append(clock() - t0)
    return samples


def _row(name: str, samples_ns: Sequence[int]) -> str:
    ms = [s / 1e6 for s in samples_ns]
    p50, p99, worst = percentile(ms, 50), percentile(ms, 99), max(ms)
    verdict = "PASS" if p99 < TARGET_P99_MS else "FAIL"
    return f"| {name} | {len(ms)} | {p50:.3f} | {p99:.3f} | {worst:.3f} | p99 < {TARGET_P99_MS:g} ms | {verdict} |"


def run(n: int = 2000) -> str:
    lines = [
        "### Gemini planner overhead around an instant in-process model",
        "",
        "| stage | n | p50 ms | p99 ms | max ms | target | result |",
        "|---|---:|---:|---:|---:|---|---|",
        _row("plan (valid answer)", planner_overhead_samples(n)),
        _row("plan (one repair)", planner_overhead_samples(n, "not json", CANNED)),
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=2000, help="timed calls per row")
    args = ap.parse_args(argv)
    print(run(args.n))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
