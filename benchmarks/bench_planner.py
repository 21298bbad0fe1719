"""Latency of the offline planner and safety_check, per command, over the SLURP test sentences.

    python -m benchmarks.bench_planner [--data DIR] [--split test|devel] [--repeat N]

Prints one markdown table: planner only, safety only, planner + safety; n, p50, p99 and max in
milliseconds against the target p99 < 5 ms. Warm-up runs first; every call is timed on its own
with time.perf_counter_ns.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from anovax.planner.slurp_eval import default_data_dir, load_split, percentile  # noqa: E402

TARGET_P99_MS = 5.0
WARMUP = 300


def _row(name: str, samples_ns: Sequence[int]) -> str:
    ms = [s / 1e6 for s in samples_ns]
    p50, p99, worst = percentile(ms, 50), percentile(ms, 99), max(ms)
    verdict = "PASS" if p99 < TARGET_P99_MS else "FAIL"
    return f"| {name} | {len(ms)} | {p50:.3f} | {p99:.3f} | {worst:.3f} | p99 < {TARGET_P99_MS:g} ms | {verdict} |"


def run(data_dir: Path | None = None, split: str = "test", repeat: int = 1) -> str:
    """Run the bench and return its markdown report."""
    from anovax.planner.offline import OfflinePlanner

    from anovax.safety import safety_check

    sentences = [row["sentence"] for row in load_split(split, data_dir)]
    planner = OfflinePlanner()
    # warm up: caches, the grammar, the regex engine, lazy imports inside safety
    for text in sentences[:WARMUP]:
        safety_check(planner.plan(text), text)

    plan_ns: list[int] = []
    safety_ns: list[int] = []
    both_ns: list[int] = []
    clock = time.perf_counter_ns
    for _ in range(max(1, repeat)):
        for text in sentences:
            t0 = clock()
            plan = planner.plan(text)
            t1 = clock()
            plan_ns.append(t1 - t0)
            t2 = clock()
            safety_check(plan, text)
            t3 = clock()
            safety_ns.append(t3 - t2)
            # the pipeline as the assistant runs it: plan, then check, timed as one
            t4 = clock()
            safety_check(planner.plan(text), text)
            both_ns.append(clock() - t4)

    lines = [
        f"### Offline planner latency: SLURP {split} sentences ({len(sentences)} commands x {max(1, repeat)})",
        "",
        "| stage | n | p50 ms | p99 ms | max ms | target | result |",
        "|---|---:|---:|---:|---:|---|---|",
        _row("planner only", plan_ns),
        _row("safety only", safety_ns),
        _row("planner + safety", both_ns),
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None, help=f"SLURP folder (default {default_data_dir()})")
    ap.add_argument("--split", choices=("test", "devel"), default="test")
    ap.add_argument("--repeat", type=int, default=1, help="passes over the sentences")
    args = ap.parse_args(argv)
    try:
        print(run(args.data, args.split, args.repeat))
    except FileNotFoundError as exc:
        print(f"bench_planner: skipped: {exc}")
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
