"""The orb's cost: CPU while idle and while animating, and how late Tk runs under an event flood.

    python -m benchmarks.bench_orb [--seconds S]

The orb runs in the test harness process (tests/orb_harness.py: an Assistant on the simulated
desktop plus the window) on a private Xvfb. CPU is that process's user + system time from
/proc over ``--seconds`` of wall time, in % of one core; the same process without a window
is the baseline (the assistant's janitor and threads). The X server's own drawing is not
counted. Target: under 3% of one core while idle.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

IDLE_TARGET = 3.0


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    # after "pid (comm)": state is field 3, utime 14 and stime 15 (man 5 proc)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_percent(pid: int, seconds: float) -> float:
    cpu0, wall0 = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return 100 * (cpu_seconds(pid) - cpu0) / (time.monotonic() - wall0)


SCENES = {
    "awake (breathing, 15 fps)": [
        {"type": "VOICE_STATE", "command_id": "voice", "data": {"state": "awake"}}],
    "thinking (spinner, 25 fps)": [
        {"type": "COMMAND_RECEIVED", "command_id": "b1", "data": {"text": "write a poem"}}],
    "acting, 3 agent chips (25 fps)": [
        *({"type": "AGENT_SPAWNED", "command_id": "b1", "agent_id": f"b1.{i}", "tool": "get_time"} for i in range(3)),
        *({"type": "AGENT_STARTED", "command_id": "b1", "agent_id": f"b1.{i}", "tool": "get_time"} for i in range(3))],
    "speaking (ripples, 25 fps)": [
        {"type": "SPEAK_START", "command_id": "b1", "data": {"text": "It's noon."}}],
}
RESET = [*({"type": "AGENT_DONE", "command_id": "b1", "agent_id": f"b1.{i}", "tool": "get_time"} for i in range(3)),
         {"type": "SPEAK_END", "command_id": "b1"},
         {"type": "COMMAND_DONE", "command_id": "b1", "data": {"status": "done", "message": "ok", "text": ""}},
         {"type": "VOICE_STATE", "command_id": "voice", "data": {"state": "asleep"}}]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="wall time per CPU measurement")
    args = ap.parse_args(argv)
    if not Path("/proc/self/stat").exists():
        print("skipped: CPU time is read from /proc (Linux only)")
        return 0
    try:
        import tkinter
    except ImportError:
        print("skipped: tkinter is not installed (Debian package python3-tk)")
        return 0
    del tkinter  # only its presence matters: the window runs in the harness process
    from orb_harness import OrbProcess
    from xserver import XServerMissing, x_server

    try:
        server_cm = x_server(1280, 800)
        server = server_cm.__enter__()
    except XServerMissing as exc:
        print(f"skipped: {exc}")
        return 0
    rows: list[tuple[str, float]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            baseline = OrbProcess(server.env, Path(tmp) / "base", window=False)
            try:
                time.sleep(1.0)  # start-up (imports, planner warm-up) is not idling
                base = cpu_percent(baseline.pid, args.seconds)
            finally:
                baseline.close()
            orb = OrbProcess(server.env, Path(tmp) / "orb")
            try:
                time.sleep(1.0)
                rows.append(("idle (asleep, no chips: a still picture)", cpu_percent(orb.pid, args.seconds)))
                for name, events in SCENES.items():
                    orb.ask("emit", events=events)
                    time.sleep(0.3)
                    rows.append((name, cpu_percent(orb.pid, args.seconds)))
                orb.ask("emit", events=RESET)
                flood = orb.ask("burst", n=1000, seconds=1.0, timeout_s=30.0)
                instant = orb.ask("burst", n=1000, seconds=0.0, timeout_s=30.0)
            finally:
                orb.close()
    finally:
        server_cm.__exit__(None, None, None)

    print(f"| orb window (Xvfb, {args.seconds:g} s each) | CPU, % of one core | orb's share | target |")
    print("| --- | ---: | ---: | --- |")
    print(f"| the assistant alone, no window (baseline) | {base:.2f} | | |")
    for i, (name, percent) in enumerate(rows):
        target = f"< {IDLE_TARGET:g}%" if i == 0 else ""
        print(f"| {name} | {percent:.2f} | {max(0.0, percent - base):.2f} | {target} |")
    print()
    print("| 1,000 events to the window | `after` probe lateness max ms | p50 ms | redraws | target |")
    print("| --- | ---: | ---: | ---: | --- |")
    for label, report in (("spread over 1 s", flood), ("all at once", instant)):
        print(f"| {label} | {report['max_late_ms']:.1f} | {report['p50_late_ms']:.1f} | {report['redraws']} "
              f"| ≤ 200 ms |")
    idle_ok = rows[0][1] < IDLE_TARGET
    flood_ok = max(flood["max_late_ms"], instant["max_late_ms"]) <= 200
    return 0 if idle_ok and flood_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
