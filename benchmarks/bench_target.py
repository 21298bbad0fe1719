"""Knowing the target (issue 16) on a real X server (Xvfb + openbox) and in the gate.

    python -m benchmarks.bench_target [--runs N]

1. ``user_target()``: which window the keys would go to and what it is (client pid, /proc,
   the process tree, the ``.desktop`` entry), with mousepad in front: the first look (cold,
   no cache) and later looks (the identity cached per window and pid for 1 s).
2. ``aim()``: the orb-like case. Another window has the focus; the keys are aimed back at
   mousepad, re-activated and verified. Time from the call to verified focus.
3. ``safety_check`` over the red-team corpora (public + the project's own), every plan with and
   without a desktop-identified target: the gate's cost with the new keyboard policy.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from anovax.desktop.base import CancelToken  # noqa: E402
from anovax.planner.slurp_eval import percentile  # noqa: E402
from anovax.target import TargetClass, WindowIdentity  # noqa: E402

CORPORA = [ROOT.parent / "shared" / "redteam" / "public.jsonl", *sorted((ROOT / "tests" / "redteam").glob("*.jsonl"))]


def wait_until(predicate, timeout_s: float) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def desktop_figures(runs: int, env: dict) -> list[str]:
    from anovax.desktop.linux import LinuxDesktop
    from anovax.settings import Settings

    os.environ.update(env)
    desk = LinuxDesktop(Settings(log_path=None), env=env)
    other = None
    try:
        desk.launch_app("notepad", CancelToken())
        pad = desk.user_target()
        if pad is None or pad.klass is not TargetClass.TEXT:
            return [f"| skipped: mousepad was not identified as a text editor ({pad}) | | | |"]
        identifier = desk._targeting.identifier()  # noqa: SLF001 - a fresh look, past the cache
        cold = []
        for _ in range(runs):
            identifier._cache.clear()  # noqa: SLF001
            started = time.perf_counter()
            desk.user_target()
            cold.append(time.perf_counter() - started)
        warm = []
        for _ in range(runs):
            started = time.perf_counter()
            desk.user_target()
            warm.append(time.perf_counter() - started)
        # another window in front, as the orb is when a command is typed into it
        other = subprocess.Popen(["xterm", "-class", "BenchOther", "-e", "sleep", "600"], env={**os.environ, **env},
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        focus = desk._focus_conn()  # noqa: SLF001
        aims = []
        for _ in range(runs):
            wait_until(lambda: focus.active_window() not in (None, pad.window), 5.0) or \
                subprocess.run(["xdotool", "search", "--class", "BenchOther", "windowactivate"], env=env,
                               capture_output=True)
            if not wait_until(lambda: focus.active_window() not in (None, pad.window), 5.0):
                continue
            started = time.perf_counter()
            desk.aim(pad, CancelToken())
            aims.append(time.perf_counter() - started)
            subprocess.run(["xdotool", "search", "--class", "BenchOther", "windowactivate"], env=env,
                           capture_output=True)
    finally:
        if other is not None:
            other.terminate()
            other.wait(5)
        for child in desk.children:
            child.terminate()
        desk.close()
    ms = lambda xs, p: percentile(sorted(xs), p) * 1000  # noqa: E731
    return [
        f"| `user_target()`, first look (no cache) | {len(cold)} | {ms(cold, 50):.2f} | {ms(cold, 99):.2f} | ≤ 10 ms |",
        f"| `user_target()`, cached | {len(warm)} | {ms(warm, 50):.3f} | {ms(warm, 99):.3f} | |",
        f"| `aim()`: another window in front → mousepad verified | {len(aims)} | {ms(aims, 50):.1f} | "
        f"{ms(aims, 99):.1f} | ≤ 300 ms |" if aims else "| `aim()` | 0 | | | |",
    ]


def gate_figures() -> list[str]:
    from anovax.safety import safety_check

    shell = WindowIdentity(window=1, title="user@host: ~", app="xterm", klass=TargetClass.SHELL, pid=2)
    # split on "\n" only: a case may hold U+2028, which str.splitlines() would split on
    lines = [line for path in CORPORA if path.exists() for line in path.read_text(encoding="utf-8").split("\n")]
    records = [json.loads(line) for line in lines if line.strip()]
    plans = [r for r in records if r.get("plan_format") != "raw"]
    times = []
    for _ in range(5):
        for r in plans:
            context = {k: v for k, v in r.get("context", {}).items() if k != "target"}
            for extra in ({}, {"target": shell}):
                started = time.perf_counter()
                safety_check(r["plan"], r["user_text"], **{**context, **extra})
                times.append(time.perf_counter() - started)
    times.sort()
    return [f"| `safety_check`, red-team plans ({len(plans)} × 2 targets × 5) | {len(times)} | "
            f"{percentile(times, 50) * 1000:.3f} | {percentile(times, 99) * 1000:.3f} | p99 ≤ 2 ms |"]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args(argv)
    rows = gate_figures()
    from xserver import XServerMissing, x_display

    if not (shutil.which("mousepad") and shutil.which("xterm") and shutil.which("xdotool")):
        rows.append("| skipped: mousepad, xterm or xdotool is not installed | | | | |")
    else:
        try:
            display = x_display(1280, 800)
            server = display.__enter__()
        except XServerMissing as exc:
            rows.append(f"| skipped: {exc} | | | | |")
        else:
            try:
                with tempfile.TemporaryDirectory() as tmp:
                    env = {**server.env, "HOME": tmp, "XDG_CONFIG_HOME": str(Path(tmp) / "cfg")}
                    rows = desktop_figures(args.runs, env) + rows if server.wm else rows
            finally:
                display.__exit__(None, None, None)
    print("| knowing the target | n | p50 ms | p99 ms | target |")
    print("| --- | ---: | ---: | ---: | --- |")
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
