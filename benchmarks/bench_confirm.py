"""What asking costs: from a yes given in another window to the first key in the terminal.

    python -m benchmarks.bench_confirm [--runs N]

Xvfb + openbox, the real ``LinuxDesktop`` and ``Assistant`` (offline planner) and a real xterm
running bash, whose history file says which command lines arrived. Each run says "open a
terminal and type echo run-N and press enter". When the question comes, the answering front end
does what a click on the orb does: it raises and focuses a window of its own (a Tk window of
another process), waits until that window has the focus, then answers yes. Measured: the answer
to the ``type_text`` agent's start (the terminal's re-activation is in between), and how many
commands reached the shell (the target: every one, none anywhere else).

Also the broker's own round trip, on the simulated desktop with an answer given at once.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from anovax.app import Assistant, Status, build_assistant  # noqa: E402
from anovax.desktop.simulated import SimulatedDesktop  # noqa: E402
from anovax.events import Event, EventType  # noqa: E402
from anovax.memory import Memory  # noqa: E402
from anovax.planner.slurp_eval import percentile  # noqa: E402
from anovax.settings import Settings  # noqa: E402

TARGET = ROOT / "tests" / "targets" / "text_target.py"
THIEF_CLASS = "anovax-bench-frontend"


def _xdotool(*args: str) -> str:
    return subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=10).stdout.strip()


class Answerer:
    """Answers every question with yes, after focusing ``window`` (None: at once)."""

    def __init__(self, app: Assistant, window: str | None) -> None:
        self.app, self.window = app, window
        self.answered_at: dict[str, float] = {}
        self.started_at: dict[str, float] = {}
        self.done = threading.Condition()
        app.confirmations.register("bench")
        app.bus.subscribe("bench", self._on)

    def _on(self, event: Event) -> None:
        if event.type is EventType.CONFIRM_REQUESTED:
            if self.window is not None:
                _xdotool("windowactivate", "--sync", self.window)
            self.answered_at[event.command_id] = time.time()
            self.app.confirmations.answer(event.data["question_id"], True, "bench")
        elif event.type is EventType.AGENT_STARTED and event.tool == "type_text":
            with self.done:
                self.started_at.setdefault(event.command_id, event.ts)
                self.done.notify_all()


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def measure_real(work: Path, runs: int) -> tuple[list[float], int, list[str]]:
    from anovax.desktop.linux import LinuxDesktop

    history = work / "bash_history"
    os.environ.update(SHELL="/bin/bash", HISTFILE=str(history), PROMPT_COMMAND="history -a", HISTCONTROL="",
                      HISTIGNORE="", BASH_ENV="")
    thief = subprocess.Popen([sys.executable, str(TARGET), str(work / "thief.txt"), "--class", THIEF_CLASS,
                              "--title", "another window"])
    try:
        deadline = time.monotonic() + 20
        while not (window := _xdotool("search", "--class", THIEF_CLASS).split("\n")[0]):
            if time.monotonic() > deadline:
                raise RuntimeError("the front end's window never appeared")
            time.sleep(0.05)
        settings = Settings(log_path=None, memory_path=work / "memory.json")
        desk = LinuxDesktop(settings)
        app = build_assistant(settings, desktop=desk, memory=Memory(settings.memory_path))
        answerer = Answerer(app, window)
        delays, failures = [], []
        try:
            for n in range(runs):
                result = app.on_speech(f"open a terminal and type echo run-{n} and press enter")
                if result.status is not Status.DONE:
                    failures.append(f"run {n}: {result.message}")
                else:
                    delays.append(answerer.started_at[result.command_id] - answerer.answered_at[result.command_id])
                # bash writes its history at the next prompt: give it the time before closing the window
                end = time.monotonic() + 5
                while f"echo run-{n}" not in _lines(history) and time.monotonic() < end:
                    time.sleep(0.02)
                for child in list(desk.children):
                    child.terminate()
                end = time.monotonic() + 5
                while desk.children and time.monotonic() < end:
                    time.sleep(0.02)
        finally:
            app.close()
        lines = _lines(history)
        arrived = sum(f"echo run-{n}" in lines for n in range(runs))
        return delays, arrived, failures
    finally:
        thief.terminate()
        thief.wait(5)


def measure_broker(runs: int) -> list[float]:
    """Question to answer to the held step's start, simulated desktop, instant yes."""
    with tempfile.TemporaryDirectory() as tmp:
        desk = SimulatedDesktop()
        app = build_assistant(Settings(log_path=None, memory_path=Path(tmp) / "m.json"), desktop=desk,
                              memory=Memory(Path(tmp) / "m.json"))
        answerer = Answerer(app, None)
        asked: dict[str, float] = {}
        app.bus.subscribe("asked", lambda e: asked.setdefault(e.command_id, e.ts)
                          if e.type is EventType.CONFIRM_REQUESTED else None)
        out = []
        try:
            for _ in range(runs):
                result = app.on_speech("open a terminal and type ls and press enter")
                app.bus.flush()
                out.append(answerer.started_at[result.command_id] - asked[result.command_id])
        finally:
            app.close()
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args(argv)
    broker = sorted(measure_broker(max(args.runs, 20)))
    print("| asking | n | p50 ms | p95 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    print(f"| question -> instant yes -> held step starts (simulated desktop) | {len(broker)} | "
          f"{percentile(broker, 50) * 1000:.1f} | {percentile(broker, 95) * 1000:.1f} | {broker[-1] * 1000:.1f} |")
    from xserver import XServerMissing, x_display

    try:
        display = x_display(1280, 800)
        server = display.__enter__()
    except XServerMissing as exc:
        print(f"real desktop: skipped: {exc}")
        return 0
    try:
        if not server.wm:
            print("real desktop: skipped: openbox is not installed")
            return 0
        saved = {k: os.environ.get(k) for k in ("SHELL", "HISTFILE", "PROMPT_COMMAND", "HISTCONTROL", "HISTIGNORE",
                                                 "BASH_ENV")}
        try:
            with tempfile.TemporaryDirectory() as tmp:
                delays, arrived, failures = measure_real(Path(tmp), args.runs)
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    finally:
        display.__exit__(None, None, None)
    delays.sort()
    if delays:
        print(f"| yes given from another focused window -> terminal re-activated -> first key (xterm, bash) | "
              f"{len(delays)} | {percentile(delays, 50) * 1000:.1f} | {percentile(delays, 95) * 1000:.1f} | "
              f"{delays[-1] * 1000:.1f} |")
    print(f"\ncommands that reached the terminal's shell after a yes: {arrived} of {args.runs}")
    for failure in failures:
        print(f"- {failure}")
    return 0 if arrived == args.runs else 1


if __name__ == "__main__":
    raise SystemExit(main())
