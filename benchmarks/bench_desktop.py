"""Verified launches and the focus guard on a real X server (Xvfb + openbox).

    python -m benchmarks.bench_desktop [--runs N] [--trials N]

1. Time from ``launch_app`` start to verified focus of the test editor (the Tk target in
   tests/targets, registered in the app table), against the paper's fixed 1.5 s sleep.
2. Typing throughput into that editor with the focus guard on (each chunk sent as XTEST
   keys under a server grab, after checking the focus) and off (plain ``xdotool type``),
   timed until the editor's buffer holds the whole text.
3. Misdirected keystrokes: while 1,824 characters are typed, a focus thief activates another
   window at a random moment within the typing time that mode needs (from 2.); we count the
   characters that arrive in the thief's window. Target with the guard: 0.
"""

from __future__ import annotations

import argparse
import random
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

from anovax.desktop.base import CancelToken  # noqa: E402
from anovax.errors import ToolError  # noqa: E402
from anovax.planner.slurp_eval import percentile  # noqa: E402

TARGET = ROOT / "tests" / "targets" / "text_target.py"
PAPER_WAIT_S = 1.5
TEXT = "The quick brown fox jumps over the lazy dog, 0123456789. " * 8


def read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def wait_until(predicate, timeout_s: float) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.005)
    return False


def settle(*paths: Path, quiet_s: float = 0.15, timeout_s: float = 5.0) -> None:
    """Wait until none of the buffers has changed for ``quiet_s`` (the editors have handled
    every key that was sent)."""
    last, since, end = None, time.monotonic(), time.monotonic() + timeout_s
    while time.monotonic() < end:
        now = tuple(read(p) for p in paths)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            return
        time.sleep(0.01)


class Bench:
    def __init__(self, work: Path) -> None:
        from anovax.desktop.apps import user_apps
        from anovax.desktop.linux import LinuxDesktop
        from anovax.settings import Settings

        self.out = work / "editor.txt"
        table = user_apps({"test editor": [sys.executable, str(TARGET), str(self.out), "--class",
                                           "anovax-test-editor", "--title", "AnovaX test editor"]})
        self.desk = LinuxDesktop(Settings(apps=table, log_path=None))

    def launch(self) -> float:
        self.out.unlink(missing_ok=True)
        self.desk.launch_app("test editor", CancelToken())
        evidence = self.desk.launch_evidence()
        assert evidence is not None, "launch was not verified"
        return evidence.seconds

    def close_editor(self) -> None:
        for child in self.desk.children:
            child.terminate()
        wait_until(lambda: not self.desk.children, 5.0)

    def close(self) -> None:
        self.close_editor()
        self.desk.close()


def measure_launch(bench: Bench, runs: int) -> list[float]:
    seconds = []
    for _ in range(runs):
        seconds.append(bench.launch())
        bench.desk.type_text("hello world", CancelToken())
        if not wait_until(lambda: read(bench.out) == "hello world", 5.0):
            raise AssertionError(f"the editor has {read(bench.out)!r}, not 'hello world'")
        bench.close_editor()
    return seconds


def measure_throughput(bench: Bench, guard: bool, runs: int) -> list[float]:
    rates = []
    for _ in range(runs):
        bench.launch()
        bench.desk.focus_guard = guard
        started = time.perf_counter()
        bench.desk.type_text(TEXT, CancelToken())
        if not wait_until(lambda: read(bench.out) == TEXT, 20.0):
            raise AssertionError(f"typed {len(read(bench.out))} of {len(TEXT)} characters")
        rates.append(len(TEXT) / (time.perf_counter() - started))
        bench.desk.focus_guard = True
        bench.close_editor()
    return rates


def measure_thief(bench: Bench, guard: bool, trials: int, rng: random.Random,
                  rate: float) -> tuple[int, int, int, int]:
    """(characters that arrived anywhere, characters that reached the thief, trials with any,
    trials where typing was cut short), typing at about ``rate`` chars/s."""
    text = TEXT * 4
    window_s = len(text) / rate
    thief_out = bench.out.with_name("thief.txt")
    ready = thief_out.with_suffix(".ready")
    thief = subprocess.Popen([sys.executable, str(TARGET), str(thief_out), "--ready", str(ready), "--title",
                              "AnovaX thief", "--class", "anovax-thief"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sent = stolen = hit = stopped = 0
    try:
        if not wait_until(ready.exists, 10.0):
            raise AssertionError("the thief window did not start")
        thief_id = subprocess.run(["xdotool", "search", "--sync", "--name", "AnovaX thief"], capture_output=True,
                                  text=True, timeout=10).stdout.split()[0]
        for _ in range(trials):
            bench.launch()
            bench.desk.focus_guard = guard
            before = len(read(thief_out))
            delay = rng.uniform(0.0, 0.9 * window_s)
            timer = threading.Timer(delay, subprocess.run, args=(["xdotool", "windowactivate", thief_id],),
                                    kwargs={"capture_output": True, "timeout": 10})
            timer.start()
            try:
                bench.desk.type_text(text, CancelToken())
            except ToolError:
                stopped += 1  # the guard stopped it: "Focus moved to AnovaX thief."
            timer.join()
            settle(bench.out, thief_out)
            arrived = len(read(thief_out)) - before
            sent += len(read(bench.out)) + arrived
            stolen += arrived
            hit += arrived > 0
            bench.desk.focus_guard = True
            bench.close_editor()
    finally:
        thief.terminate()
        try:
            thief.wait(5)
        except subprocess.TimeoutExpired:
            thief.kill()
            thief.wait()
    return sent, stolen, hit, stopped


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    from xserver import XServerMissing, x_display

    try:
        display = x_display(1280, 800)
        server = display.__enter__()
    except XServerMissing as exc:
        print(f"skipped: {exc}")
        return 0
    try:
        if not server.wm:
            print("skipped: openbox is not installed")
            return 0
        with tempfile.TemporaryDirectory() as tmp:
            bench = Bench(Path(tmp))
            try:
                launch = sorted(measure_launch(bench, args.runs))
                on = measure_throughput(bench, True, max(3, args.runs // 3))
                off = measure_throughput(bench, False, max(3, args.runs // 3))
                rng = random.Random(args.seed)
                guarded = measure_thief(bench, True, args.trials, rng, sorted(on)[len(on) // 2])
                blind = measure_thief(bench, False, args.trials, rng, sorted(off)[len(off) // 2])
            finally:
                bench.close()
    finally:
        display.__exit__(None, None, None)

    print(f"| launch -> verified focus ({args.runs} runs, test editor) | p50 {percentile(launch, 50) * 1000:.0f} ms"
          f" | max {launch[-1] * 1000:.0f} ms | paper: fixed {PAPER_WAIT_S * 1000:.0f} ms, unverified |")
    print("| typing throughput | guard on | guard off |")
    print(f"| chars/s (median of {len(on)}, {len(TEXT)} chars) | {sorted(on)[len(on) // 2]:.0f} "
          f"| {sorted(off)[len(off) // 2]:.0f} |")
    print(f"| focus thief at a random moment ({args.trials} trials each) | misdirected chars | trials hit "
          f"| typing stopped |")
    for label, (sent, stolen, hit, stopped) in (("guard on", guarded), ("guard off", blind)):
        rate = stolen / sent if sent else 0.0
        print(f"| {label} | {stolen} of {sent} ({rate:.1%}) | {hit} of {args.trials} | {stopped} of {args.trials} |")
    return 0 if guarded[1] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
