"""The real-app suite of `make eval`: AnovaX as a person uses it, on real apps.

    python -m eval.realapps [--reps 3] [--only launch_type,switch] [--out docs/EVALUATION.md | --no-write]

Xvfb + openbox (tests/xserver.py); AnovaX started with its orb (eval/realorb.py); each command of
eval/realapps.yaml typed into the orb's text box with xdotool; the result read back through the
apps (eval/realchecks.py): windows and titles by class, the editor's text through the clipboard,
Chromium's title from a loopback page server (eval/realweb.py), and what AnovaX said from its
event log. Per category: runs passed, % (target >= 95%) and the p50 of the seconds AnovaX took to
answer a run's commands. The table goes into docs/EVALUATION.md as the section
"Real apps through the orb" (the rest of the file is kept) and is printed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from eval.realchecks import Context, judge  # noqa: E402
from eval.realdesk import Desk  # noqa: E402
from eval.realorb import Orb, Said  # noqa: E402
from eval.realweb import PageServer, browser_wrapper, started_pids  # noqa: E402

HERE = Path(__file__).resolve().parent
HEADING = "## Real apps through the orb"
TARGET = 0.95
#: the window classes a run may leave behind, ended before and after every run
APP_CLASSES = ("mousepad", "galculator", "chromium")
NEEDED = ("Xvfb", "openbox", "xdotool", "xclip", "mousepad", "galculator", "chromium")


@dataclass(frozen=True)
class RunResult:
    """One run of one category."""

    category: str
    rep: int
    ok: bool
    #: the failed checks, "step N (what was typed): check: what was seen"
    failures: tuple[str, ...]
    #: Enter to AnovaX's answer, summed over the run's commands
    seconds: float
    said: tuple[Said, ...]


def load(path: Path = HERE / "realapps.yaml") -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def missing_programs() -> list[str]:
    return [p for p in NEEDED if not shutil.which(p)]


class Suite:
    """The page server and the runs, on one X display."""

    def __init__(self, desk: Desk, work: Path, spec: dict[str, Any]) -> None:
        self.desk, self.work, self.spec = desk, work, spec
        self.pages = PageServer()

    def close(self) -> None:
        self.pages.close()

    def env_for(self, run_dir: Path) -> dict[str, str]:
        """A fresh home, profile and browser for one run, and the suite's settings."""
        home = run_dir / "home"
        dirs = {"HOME": home, "XDG_CONFIG_HOME": home / ".config", "XDG_DATA_HOME": home / ".local/share",
                "XDG_CACHE_HOME": home / ".cache"}
        for d in dirs.values():
            d.mkdir(parents=True, exist_ok=True)
        wrapper = browser_wrapper(run_dir / "bin", run_dir / "chromium-profile", run_dir / "chromium.pids")
        settings = {k: str(v).replace("{pages}", self.pages.base_url) for k, v in (self.spec.get("env") or {}).items()}
        return {**{k: str(v) for k, v in dirs.items()}, "BROWSER": str(wrapper), **settings}

    def run(self, category: str, rep: int) -> RunResult:
        steps = self.spec["categories"][category]["steps"]
        run_dir = self.work / f"{category}-{rep}"
        left = self.desk.end_apps(APP_CLASSES)
        orb = Orb(self.desk, run_dir / "anovax", self.env_for(run_dir))
        said: list[Said] = []
        failures: list[str] = []
        try:
            if left:
                failures.append(f"set-up: {left} windows from an earlier run stayed open")
            elif why := orb.start():
                failures.append(f"start: {why}")
            else:
                failures = self._steps(orb, steps, said)
        finally:
            orb.stop()
            self.desk.end_apps(APP_CLASSES, started_pids(run_dir / "chromium.pids"))
        return RunResult(category, rep, not failures, tuple(failures), sum(s.seconds for s in said), tuple(said))

    def _steps(self, orb: Orb, steps: list[dict[str, Any]], said: list[Said]) -> list[str]:
        seen: dict[str, set[str]] = {}
        for n, step in enumerate(steps, 1):
            if step.get("restart"):
                orb.stop()
                if why := orb.start():
                    return [f"step {n} (restart): {why}"]
                continue
            answer = orb.say(step["say"])
            said.append(answer)
            where = f"step {n} ({step['say']!r})"
            if answer.problem:
                return [f"{where}: {answer.problem}"]
            ctx = Context(self.desk, orb, self.pages, self.spec["editor"], answer, seen)
            failed = judge(ctx, step.get("expect") or {})
            if failed:
                return [f"{where}: " + "; ".join(failed)]
            for cls in APP_CLASSES:
                seen.setdefault(cls, set()).update(self.desk.windows(cls))
        return []


def run_all(desk: Desk, spec: dict[str, Any], reps: int, only: list[str] | None,
            log: Callable[[str], None]) -> dict[str, list[RunResult]]:
    """Every category ``reps`` times (repetition by repetition, so a slow spell of the machine
    spreads over the categories); results per category."""
    cats = [c for c in spec["categories"] if not only or c in only]
    results: dict[str, list[RunResult]] = {c: [] for c in cats}
    with tempfile.TemporaryDirectory(prefix="anovax-realapps-") as tmp:
        suite = Suite(desk, Path(tmp), spec)
        try:
            for rep in range(1, reps + 1):
                for cat in cats:
                    r = suite.run(cat, rep)
                    results[cat].append(r)
                    log(f"  [{rep}/{reps}] {cat}: {'pass' if r.ok else 'FAIL ' + '; '.join(r.failures)[:400]}"
                        f" ({r.seconds:.1f} s)")
        finally:
            suite.close()
    return results


# -- the table ----------------------------------------------------------------------------------


def p50(values: list[float]) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def table(spec: dict[str, Any], results: dict[str, list[RunResult]]) -> list[str]:
    lines = ["| category | typed into the orb | runs passed | % | p50 s |", "|---|---|---:|---:|---:|"]
    for cat, runs in results.items():
        meta = spec["categories"][cat]
        typed = " → ".join(f"\"{s['say']}\"" if "say" in s else "(restart)" for s in meta["steps"])
        ok = sum(r.ok for r in runs)
        share = ok / len(runs) if runs else 0.0
        pct = f"{100 * share:.0f}%"
        mid = p50([r.seconds for r in runs])
        lines.append(f"| {meta.get('title', cat)} | {typed} | {ok} / {len(runs)} | "
                     f"{f'**{pct}**' if runs and share >= TARGET else pct} | "
                     f"{'' if mid is None else f'{mid:.1f}'} |")
    return lines


def commit() -> str:
    """ " at commit abc1234" for the checkout measured (a "+" when it has changes), or ""."""
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no", "--", "anovax",
                                "eval"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    if head.returncode != 0:
        return ""
    return f" at commit `{head.stdout.strip()}{'+' if dirty.stdout.strip() else ''}`"


def section(spec: dict[str, Any], results: dict[str, list[RunResult]], reps: int, minutes: float) -> str:
    runs = [r for rs in results.values() for r in rs]
    met = sum(1 for rs in results.values() if rs and sum(r.ok for r in rs) / len(rs) >= TARGET)
    lines = [HEADING, "",
             f"Generated by `python -m eval.realapps --reps {reps}` (also part of `make eval`) in {minutes:.1f} minutes "
             f"on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}{commit()}. AnovaX is started as a person starts it "
             "(`python run.py`: the orb window on Xvfb + openbox, the offline planner, no key, the microphone off, a "
             "fresh state folder and home per run); every command is typed into the orb's text box with xdotool and "
             "Enter. The result is read through the apps themselves: visible windows and titles by class "
             "(`xdotool search --class`), Mousepad's text by Ctrl+A, Ctrl+C and `xclip -o`, Chromium's title "
             "showing a loopback page server's search page (`ANOVAX_SEARCH_URL` and `ANOVAX_VIDEO_URL` point at "
             "it; Chromium gets `--no-sandbox` through a wrapper only because the suite runs as root), and what AnovaX "
             "said or announced (`TIMER_FIRED`) from its event log; \"(restart)\" is Ctrl-C and a new start on the "
             "same state folder. Apps: Debian's mousepad as \"notepad\", galculator as \"calculator\", Chromium. Each run "
             "starts with no app open; steps and checks are in `eval/realapps.yaml`.", "",
             "Bold: at or above the target (95% of runs). p50 s: seconds from Enter to AnovaX's answer, summed "
             "over the run's commands (passed and failed runs alike).", "",
             *table(spec, results), "",
             f"{met} of {len(results)} categories at the target; {sum(r.ok for r in runs)} of {len(runs)} runs passed."]
    failed = [r for r in runs if not r.ok]
    if failed:
        lines += ["", "<details><summary>Failed runs: the first failed check</summary>", "",
                  "| category | run | failed check |", "|---|---:|---|"]
        for r in failed:
            why = r.failures[0].replace("|", "/").replace("\n", " ")
            lines.append(f"| {spec['categories'][r.category].get('title', r.category)} | {r.rep} | {why[:300]} |")
        lines += ["", "</details>"]
    return "\n".join(lines) + "\n"


def _span(text: str) -> tuple[int, int] | None:
    """Where the real-app section of an EVALUATION.md starts and ends (the next heading), or None."""
    start = text.find("\n" + HEADING + "\n")
    if start < 0:
        return None
    end = text.find("\n## ", start + 1)
    return start + 1, end + 1 if end >= 0 else len(text)


def old_section(text: str) -> str | None:
    """The real-app section of an EVALUATION.md (ending in one newline), or None."""
    span = _span(text)
    return None if span is None else text[span[0]:span[1]].rstrip("\n") + "\n"


def splice(text: str, new: str) -> str:
    """``text`` with its real-app section replaced by ``new`` (else put before "## Limits", else
    appended); a blank line between it and the next heading."""
    span = _span(text)
    if span is None:
        at = text.find("\n## Limits")
        span = (at + 1, at + 1) if at >= 0 else None
    if span is None:
        return text.rstrip("\n") + "\n\n" + new.rstrip("\n") + "\n"
    rest = text[span[1]:]
    return text[:span[0]] + new.rstrip("\n") + ("\n\n" + rest if rest else "\n")


def write_section(path: Path, new: str) -> None:
    text = path.read_text(encoding="utf-8") if path.exists() else "# AnovaX evaluation\n"
    path.write_text(splice(text, new), encoding="utf-8")


def measure(reps: int, only: list[str] | None = None, log: Callable[[str], None] = print) -> tuple[str, str] | str:
    """Run the suite on an X server of its own: (section, printed table), or why it could not run."""
    from xserver import XServerMissing, x_server

    spec = load()
    missing = missing_programs()
    if missing:
        return f"not measured: {', '.join(missing)} not installed (`make test` installs them)"
    t0 = time.monotonic()
    try:
        with x_server(1280, 800) as server:
            if not server.wm:
                return "not measured: openbox did not start"
            results = run_all(Desk(dict(server.env)), spec, reps, only, log)
    except XServerMissing as exc:
        return f"not measured: {exc}"
    md = section(spec, results, reps, (time.monotonic() - t0) / 60)
    return md, "\n".join(table(spec, results))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="AnovaX on real apps through the orb")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated categories (default: all)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "EVALUATION.md")
    ap.add_argument("--no-write", action="store_true", help="print the table only")
    args = ap.parse_args(argv)
    only = [c for c in args.only.split(",") if c] or None
    unknown = set(only or ()) - set(load()["categories"])
    if unknown:
        print(f"unknown categories: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    os.environ.pop("WAYLAND_DISPLAY", None)
    got = measure(args.reps, only, lambda m: print(m, flush=True))
    if isinstance(got, str):
        print(got, file=sys.stderr)
        return 2
    md, printed = got
    print(printed)
    if not args.no_write:
        write_section(args.out, md)
        print(f"wrote the section {HEADING[3:]!r} of {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
