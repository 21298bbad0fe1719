"""Perceived recovery latency with and without speculation.

    python -m benchmarks.bench_recovery [--runs N]

A plan "open zork, then tell the time" fails at open_app. The recovery model
answers in 800 ms (turn 1: get_time; turn 2: done); reading the time takes
500 ms. With speculation the time is read while the model is thinking, so the
second wait disappears. Target: at least 400 ms saved.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from anovax.desktop.simulated import SimulatedDesktop  # noqa: E402
from anovax.errors import PermanentToolError  # noqa: E402
from anovax.events import EventBus  # noqa: E402
from anovax.orchestrator import AgentBudget, Orchestrator  # noqa: E402
from anovax.plan import Plan, Step  # noqa: E402
from anovax.planner.slurp_eval import percentile  # noqa: E402
from anovax.recovery import AutonomousLoop, Speculator  # noqa: E402
from anovax.safety import safety_check  # noqa: E402

MODEL_S = 0.8
READ_S = 0.5
PLAN = Plan(steps=(Step("open_app", {"name": "zork"}), Step("get_time", {})), final_response="Done.")


class SlowModel:
    """Answers the two recovery turns after MODEL_S seconds each, like a remote model."""

    name = "slow"

    def __init__(self) -> None:
        self.turn = 0

    def generate_json(self, system, prompt, schema, *, timeout_s):
        time.sleep(MODEL_S)
        self.turn += 1
        if self.turn == 1:
            return json.dumps({"thought": "tell the time anyway", "actions": [{"tool": "get_time", "params": {}}],
                               "done": False, "summary": ""})
        return json.dumps({"thought": "done", "actions": [], "done": True, "summary": "Zork is missing."})


def one_run(speculate: bool, model: object = None) -> float:
    """Milliseconds of recovery after the plan failed, with ``model`` (default: SlowModel)."""
    bus = EventBus()
    desktop = SimulatedDesktop(delays={"clock": READ_S},
                               failures={"launch": PermanentToolError("I couldn't find an app called zork.")})
    orch = Orchestrator(desktop, bus)
    budget = AgentBudget()
    failed = orch.dispatch(PLAN, command_id="r", budget=budget)
    speculator = Speculator(desktop, bus) if speculate else None
    loop = AutonomousLoop(model or SlowModel(), orch, bus, check=safety_check, speculator=speculator)
    t0 = time.perf_counter()
    outcome = loop.run("open zork and tell me the time", failed, command_id="r", budget=budget)
    elapsed = (time.perf_counter() - t0) * 1000
    assert outcome.ok, outcome
    if speculator is not None:
        speculator.close()
    orch.close()
    bus.close()
    return elapsed


class OneTurnModel:
    """Answers with the actions and ``"done": true`` together: the command ends when they succeed."""

    name = "one-turn"

    def generate_json(self, system, prompt, schema, *, timeout_s):
        time.sleep(MODEL_S)
        return json.dumps({"thought": "tell the time anyway", "actions": [{"tool": "get_time", "params": {}}],
                           "done": True, "summary": "Zork is missing."})


def run_done(runs: int = 5) -> str:
    one = [one_run(False, OneTurnModel()) for _ in range(runs)]
    two = [one_run(False, SlowModel()) for _ in range(runs)]
    saved = percentile(two, 50) - percentile(one, 50)
    return "\n".join([
        f"### Finishing a recovery: actions with \"done\": true vs actions, then a \"done\" turn "
        f"(model {MODEL_S * 1000:.0f} ms per turn, no speculation)",
        "",
        "| the model answers | round trips | n | p50 ms | max ms |",
        "|---|---:|---:|---:|---:|",
        f"| actions + done: true | 1 | {len(one)} | {percentile(one, 50):.0f} | {max(one):.0f} |",
        f"| actions, then done | 2 | {len(two)} | {percentile(two, 50):.0f} | {max(two):.0f} |",
        "",
        f"Saved by acting on done: true (p50): {saved:.0f} ms (one model round trip).",
    ])


def run(runs: int = 5) -> str:
    on = [one_run(True) for _ in range(runs)]
    off = [one_run(False) for _ in range(runs)]
    saved = percentile(off, 50) - percentile(on, 50)
    verdict = "PASS" if saved >= 400 else "FAIL"
    return "\n".join([
        f"### Recovery latency: model {MODEL_S * 1000:.0f} ms per turn, read-only step {READ_S * 1000:.0f} ms",
        "",
        "| speculation | n | p50 ms | max ms |",
        "|---|---:|---:|---:|",
        f"| on | {len(on)} | {percentile(on, 50):.0f} | {max(on):.0f} |",
        f"| off | {len(off)} | {percentile(off, 50):.0f} | {max(off):.0f} |",
        "",
        f"Saved by speculation (p50): {saved:.0f} ms; target ≥ 400 ms: {verdict}",
    ])


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    runs = ap.parse_args(argv).runs
    print(run(runs))
    print()
    print(run_done(runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
