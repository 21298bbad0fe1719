"""`make eval`: the task suite end to end through the real pipeline, the ablations, SLURP,
and docs/EVALUATION.md with its latency chart.

    python -m eval.run [--reps-offline N] [--reps-gemini N] [--realapps-reps N] [--quick] [--out docs/EVALUATION.md]

Text goes in through ``Assistant.on_speech``; real agents act on a private X server (Xvfb +
openbox) through the real ``LinuxDesktop``: the Tk test editor (tests/targets/text_target.py,
registered as the app "test editor"), a stand-in browser set as ``BROWSER`` whose small Tk window
is titled with the URL (tests/targets/browser_window.py; it logs each title it showed), a pictures folder for screenshots and a recording speech output. Tasks
are judged by those effects only (eval/effects.py), never by the plan.

Two planner modes: offline, and Gemini through the real google-genai client talking to the
loopback fake server (tests/fakes/fake_gemini.py), scripted with eval/gemini_plans.yaml.

Then the real-app suite (eval/realapps.py, runnable alone): AnovaX's orb with Mousepad,
galculator and Chromium, commands typed into the orb; its section of the report is kept when
it is skipped (``--no-realapps``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from anovax.planner.slurp_eval import percentile  # noqa: E402
from eval.effects import RecordingSpeech, Targets, judge, read, snapshot, wait_until  # noqa: E402

HERE = Path(__file__).resolve().parent
TARGET = ROOT / "tests" / "targets" / "text_target.py"
BROWSER_WINDOW = ROOT / "tests" / "targets" / "browser_window.py"
EDITOR_CLASS = "anovax-test-editor"
STAGES = ("plan", "safety", "dispatch", "agents", "speech")


def load_tasks(path: Path = HERE / "tasks.yaml") -> dict[str, list[dict]]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["categories"]


def load_plans(path: Path = HERE / "gemini_plans.yaml") -> dict[str, list[dict]]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


# -- the harness ------------------------------------------------------------------------------


class Harness:
    """One assistant (one planner mode) on the shared X server, with its targets."""

    def __init__(self, work: Path, mode: str, fake: Any = None, *, recovery: bool = True) -> None:
        from anovax.app import build_assistant
        from anovax.desktop.apps import user_apps
        from anovax.desktop.linux import LinuxDesktop
        from anovax.memory import Memory
        from anovax.settings import Settings

        work.mkdir(parents=True, exist_ok=True)
        (work / "pictures").mkdir(exist_ok=True)
        self.t = Targets(editor_out=work / "editor.txt", editor_ready=work / "editor.ready",
                         browser_log=work / "browser.log", pictures=work / "pictures", speech=RecordingSpeech(),
                         shell_log=work / "bash_history")
        # the terminals AnovaX opens (xterm runs $SHELL) are a real bash that logs each command line
        os.environ.update(SHELL="/bin/bash", HISTFILE=str(self.t.shell_log), PROMPT_COMMAND="history -a",
                          HISTCONTROL="", HISTIGNORE="", BASH_ENV="")
        # a stand-in browser with a real window titled with the URL (AnovaX's search is done only
        # when a browser window comes to the front); it logs each title once its window shows it
        browser = work / "fakebrowser"
        browser.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{BROWSER_WINDOW}" "{self.t.browser_log}" "$1"\n')
        browser.chmod(0o755)
        os.environ["BROWSER"] = str(browser)
        # vouched for as text, as a user would for an editor of their own (README, Apps): a Tk
        # program has no desktop entry, so nothing else can say what its window is
        table = user_apps({"test editor": {"run": [sys.executable, str(TARGET), str(self.t.editor_out), "--ready",
                                                   str(self.t.editor_ready), "--class", EDITOR_CLASS,
                                                   "--title", "AnovaX test editor"], "kind": "text"}})
        extra: dict[str, Any] = {}
        if mode == "gemini":
            extra = {"planner": "gemini", "gemini_api_key": "eval-key", "gemini_base_url": fake.base_url,
                     "planner_timeout_s": 5.0}
        else:
            extra = {"planner": "offline"}
        self.settings = Settings(apps=table, log_path=None, pictures_dir=self.t.pictures,
                                 memory_path=work / "memory.json", **extra)
        self.desk = LinuxDesktop(self.settings)
        self.app = build_assistant(self.settings, memory=Memory(self.settings.memory_path), desktop=self.desk,
                                   speech=self.t.speech, **({} if recovery else {"recover": None}))
        self.mode, self.fake = mode, fake
        self.events: list[Any] = []
        self.app.bus.subscribe("eval", self.events.append)
        # the stated answering policy of the evaluation: a person at the desk who says yes to every
        # question (what was asked is counted per category; the red-team suite scores a question
        # on a dangerous plan as held, never as allowed)
        self.app.confirmations.register("eval-policy-yes")
        self.app.bus.subscribe("eval-policy-yes", self._say_yes)

    def _say_yes(self, event: Any) -> None:
        if event.type.name == "CONFIRM_REQUESTED":
            self.app.confirmations.answer(event.data["question_id"], True, "eval-policy-yes")

    def reset(self) -> None:
        """Close the editor and forget its files: every task starts from the same desktop."""
        for child in list(self.desk.children):
            child.terminate()
        wait_until(lambda: not self.desk.children, 5.0)
        self.t.editor_out.unlink(missing_ok=True)
        self.t.editor_ready.unlink(missing_ok=True)

    def open_editor(self) -> None:
        from anovax.desktop.base import CancelToken

        self.desk.launch_app("test editor", CancelToken())
        wait_until(self.t.editor_ready.exists, 5.0)

    def run(self, task: dict, replies: list | None = None) -> dict:
        from fakes.fake_gemini import plan_reply, text_reply

        self.reset()
        if task.get("setup") == "editor":
            self.open_editor()
        if self.fake is not None:
            self.fake._replies.clear()  # noqa: SLF001 - a task's unused replies never leak into the next
            for r in replies or []:
                self.fake.script(text_reply(r) if isinstance(r, str) else plan_reply(r))
        snap = snapshot(self.t)
        started = time.perf_counter()
        result = self.app.on_speech(task["say"])
        total_ms = (time.perf_counter() - started) * 1000
        self.app.bus.flush()
        mine = [e for e in self.events if e.command_id == result.command_id]
        spawned = sum(1 for e in mine if e.type.name == "AGENT_SPAWNED")
        questions = sum(1 for e in mine if e.type.name == "CONFIRM_REQUESTED")
        obs = judge(task["effect"], self.t, snap, spawned, questions=questions)
        return {"ok": not obs.failures, "failures": obs.failures, "status": result.status.name, "questions": questions,
                "timings": {**result.timings_ms, **stage_times(mine)}, "total_ms": total_ms}

    def close(self) -> None:
        self.reset()
        self.app.close()


def stage_times(events: list[Any]) -> dict[str, float]:
    """Agent time (first AGENT_STARTED to last agent end) and speech time (SPEAK_START..END) in ms."""
    starts = [e.ts for e in events if e.type.name == "AGENT_STARTED" and e.tool != "speak"]
    ends = [e.ts for e in events if e.type.name in ("AGENT_DONE", "AGENT_FAILED", "AGENT_EXPIRED") and e.tool != "speak"]
    out: dict[str, float] = {}
    if starts and ends:
        out["agents"] = max(0.0, (max(ends) - min(starts)) * 1000)
    s0 = [e.ts for e in events if e.type.name == "SPEAK_START"]
    s1 = [e.ts for e in events if e.type.name == "SPEAK_END"]
    if s0 and s1:
        out["speech"] = sum(b - a for a, b in zip(s0, s1)) * 1000
    return out


def run_suite(work: Path, mode: str, tasks: dict, plans: dict, reps: int, log) -> dict[str, list[dict]]:
    from fakes.fake_gemini import FakeGemini

    fake = FakeGemini() if mode == "gemini" else None
    h = Harness(work / mode, mode, fake)
    results: dict[str, list[dict]] = defaultdict(list)
    try:
        for rep in range(reps):
            for cat, items in tasks.items():
                for task in items:
                    r = h.run(task, plans.get(task["say"]) if fake else None)
                    r["say"] = task["say"]
                    results[cat].append(r)
                    if not r["ok"]:
                        log(f"  [{mode} rep {rep + 1}] FAIL {cat}: {task['say']!r}: {'; '.join(r['failures'])}")
            log(f"{mode}: rep {rep + 1} of {reps} done")
    finally:
        h.close()
        if fake is not None:
            fake.close(check=False)
    return results


# -- ablations --------------------------------------------------------------------------------


def ablation_recovery(work: Path, trials: int) -> dict[str, Any]:
    """A failing core step (an app that does not exist) then a follow-up, with and without the
    recovery loop; the model's answers are scripted through the fake Gemini."""
    from fakes.fake_gemini import FakeGemini

    apps = ["zork", "photoshop", "winamp", "frobnicator", "netscape"][:trials]
    out = {}
    for recovery in (True, False):
        fake = FakeGemini()
        h = Harness(work / f"recovery-{recovery}", "gemini", fake, recovery=recovery)
        surfaced = 0
        try:
            for name in apps:
                say = f"open {name} and then search for {name} tips"
                plan = {"steps": [{"tool": "open_app", "params": {"name": name}},
                                  {"tool": "web_search", "params": {"query": f"{name} tips"}}],
                        "final_response": "On it.", "remember": {}}
                turns = [json.dumps({"thought": f"{name} is not installed; do the search anyway",
                                     "actions": [{"tool": "web_search", "params": {"query": f"{name} tips"}}],
                                     "done": False, "summary": ""}),
                         json.dumps({"thought": "done", "actions": [], "done": True,
                                     "summary": f"{name} isn't installed, but I searched for {name} tips."})]
                r = h.run({"say": say, "effect": {"url": [f"{name} tips"]}}, [plan, *(turns if recovery else [])])
                surfaced += r["status"] == "FAILED"
                out.setdefault(recovery, {"n": 0, "effect": 0})
                out[recovery]["n"] += 1
                out[recovery]["effect"] += r["ok"]
            out[recovery]["surfaced"] = surfaced
        finally:
            h.close()
            fake.close(check=False)
    return out


class NoLocks:
    """A LockTable that never blocks (the locks-off ablation)."""

    def acquire(self, names, owner, cancel) -> None:
        pass

    def release_all(self, owner) -> list[str]:
        return []

    def holder(self, name):
        return None

    def stats(self):
        return {}


def ablation_locks(work: Path, trials: int) -> dict[str, Any]:
    """Two commands typing into the same editor at once, with the kb_mouse lock and without:
    a trial is interleaved when the buffer is not one text followed by the other."""
    from anovax.locks import LockTable
    from anovax.orchestrator import Orchestrator
    from anovax.plan import Plan, Step

    a, b = "a" * 48, "b" * 48
    out = {}
    h = Harness(work / "locks", "offline")
    try:
        for locked in (True, False):
            orch = Orchestrator(h.desk, h.app.bus)
            orch.locks = LockTable() if locked else NoLocks()
            mixed = 0
            for i in range(trials):
                h.reset()
                h.open_editor()
                barrier = threading.Barrier(2)

                def go(text: str, cid: str) -> None:
                    barrier.wait()
                    orch.dispatch(Plan(steps=(Step("type_text", {"text": text}),)), command_id=cid)

                threads = [threading.Thread(target=go, args=(a, f"l{i}a")), threading.Thread(target=go, args=(b, f"l{i}b"))]
                for th in threads:
                    th.start()
                for th in threads:
                    th.join(30)
                wait_until(lambda: len(read(h.t.editor_out)) >= len(a) + len(b), 5.0)
                time.sleep(0.2)
                buf = read(h.t.editor_out)
                mixed += buf not in (a + b, b + a)
            orch.close()
            out[locked] = {"n": trials, "interleaved": mixed}
    finally:
        h.close()
    return out


def ablation_focus(trials: int) -> dict[str, Any]:
    """The focus thief of benchmarks/bench_desktop.py, guard on and off."""
    from benchmarks.bench_desktop import Bench, measure_thief, measure_throughput

    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(Path(tmp))
        try:
            rate_on = sorted(measure_throughput(bench, True, 3))[1]
            rate_off = sorted(measure_throughput(bench, False, 3))[1]
            rng = random.Random(7)
            on = measure_thief(bench, True, trials, rng, rate_on)
            off = measure_thief(bench, False, trials, rng, rate_off)
        finally:
            bench.close()
    return {"on": on, "off": off, "trials": trials}


def ablation_speculation(runs: int) -> str:
    from benchmarks.bench_recovery import run

    return run(runs)


# -- SLURP ------------------------------------------------------------------------------------


def slurp() -> str:
    from anovax.planner.offline import OfflinePlanner
    from anovax.planner.slurp_eval import evaluate, load_split

    try:
        rows = load_split("test", None)
    except FileNotFoundError as exc:
        return f"SLURP data not found ({exc}): not measured."
    return evaluate(rows, OfflinePlanner().plan, split="test").markdown()


# -- the report -------------------------------------------------------------------------------


def pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:.0f}%" if d else "n/a"


def chart(lat: dict[str, dict[str, list[float]]], path: Path) -> None:
    """Grouped bars of p50 (solid) and p95 (outline) per stage and mode, drawn with Pillow."""
    from PIL import Image, ImageDraw

    w, h, left, bottom, top = 900, 420, 70, 60, 40
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    modes = list(lat)
    colours = {"offline": (52, 101, 164), "gemini": (204, 102, 0)}
    vals = [percentile(v, 95) for m in modes for v in lat[m].values() if v]
    vmax = max(vals + [1.0])
    d.text((left, 10), "AnovaX stage latency (ms, log scale): bar = p50, outline = p95", fill="black")
    import math

    def y(v: float) -> float:
        lv = math.log10(max(v, 0.01)) + 2  # 0.01 ms .. vmax
        return h - bottom - (h - bottom - top) * lv / (math.log10(vmax) + 2)

    d.line((left, top, left, h - bottom), fill="black")
    d.line((left, h - bottom, w - 20, h - bottom), fill="black")
    for k in range(-2, int(math.log10(vmax)) + 1):
        yy = y(10 ** k)
        d.line((left - 4, yy, w - 20, yy), fill=(225, 225, 225))
        d.text((5, yy - 6), f"{10 ** k:g}", fill="black")
    group = (w - 20 - left) / len(STAGES)
    bar = group / (len(modes) + 1)
    for i, stage in enumerate(STAGES):
        x0 = left + i * group + bar / 2
        d.text((x0, h - bottom + 8), stage, fill="black")
        for j, m in enumerate(modes):
            v = lat[m].get(stage) or []
            if not v:
                continue
            bx = x0 + j * bar
            d.rectangle((bx, y(percentile(v, 50)), bx + bar - 4, h - bottom), fill=colours.get(m, (90, 90, 90)))
            d.rectangle((bx, y(percentile(v, 95)), bx + bar - 4, h - bottom), outline="black")
    for j, m in enumerate(modes):
        d.rectangle((w - 200, 12 + j * 16, w - 188, 24 + j * 16), fill=colours.get(m, (90, 90, 90)))
        d.text((w - 182, 12 + j * 16), m, fill="black")
    img.save(path)


#: categories whose requests are meant to be asked about or refused: not "benign plans"
NOT_BENIGN = ("ask_first", "refusal")


def questions_table(tasks: dict, suites: dict) -> list[str]:
    """Questions put to the person (CONFIRM_REQUESTED), per category and per 100 benign plans."""
    lines = ["", "## Questions asked before acting", "",
             "The evaluation registers one answering front end with a stated policy: **yes to every question** "
             "(a person at the desk who agrees). A task whose effect expects no question fails when one is asked.",
             "", "| category | " + " | ".join(f"{m} questions / runs" for m in suites) + " |",
             "|---|" + "---:|" * len(suites)]
    for cat in tasks:
        row = f"| {cat.replace('_', ' ')} |"
        for res in suites.values():
            rs = res.get(cat, [])
            row += f" {sum(r.get('questions', 0) for r in rs)} / {len(rs)} |"
        lines.append(row)
    benign = []
    for m, res in suites.items():
        rs = [r for cat, rows in res.items() if cat not in NOT_BENIGN for r in rows]
        asked = sum(r.get("questions", 0) for r in rs)
        benign.append(f"{m}: **{100 * asked / len(rs):.1f}** per 100 ({asked} in {len(rs)} runs)" if rs else f"{m}: n/a")
    lines += ["", "Questions per 100 benign plans (every category but " + " and ".join(NOT_BENIGN) + "; "
              "target at most 5): " + "; ".join(benign) + "."]
    return lines


def report(args, tasks, suites, ablations, slurp_md, seconds, chart_name) -> str:
    lines = [
        "# AnovaX evaluation",
        "",
        f"Generated by `make eval` (`python -m eval.run`) in {seconds / 60:.1f} minutes on this machine "
        f"({os.cpu_count()} CPUs) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Do not edit by hand.",
        "",
        "Every request goes in as text through `Assistant.on_speech` and runs through the real pipeline "
        "(planner → `safety_check` → orchestrator → agents) on a private X server (Xvfb + openbox) with the "
        "real `LinuxDesktop`. Targets: the Tk test editor (registered as the app \"test editor\"), a stand-in "
        "browser set as `BROWSER` whose small window is titled with the URL, a pictures folder and a recording "
        "speech output. A task passes only when its **effect** is observed (`eval/tasks.yaml`: the editor's "
        "buffer, the URL in the browser window's title, a new PNG, the spoken reply, nothing done and no agent spawned "
        "for a refusal); the plan is never inspected.",
        "",
        "Modes: **offline** (the offline planner, no model) and **gemini** (the real `google-genai` client "
        "against the loopback fake Gemini server, `tests/fakes/fake_gemini.py`, answering with the plans in "
        "`eval/gemini_plans.yaml`, written as a careful model would answer). The scripted mode measures the "
        "pipeline given a good model, not Gemini's own accuracy.",
        "",
        "## Pass rate per category",
        "",
        "| category | wordings | " + " | ".join(f"{m} (runs)" for m in suites) + " |",
        "|---|---:|" + "---:|" * len(suites),
    ]
    passed = {m: 0 for m in suites}
    for cat, items in tasks.items():
        row = f"| {cat.replace('_', ' ')} | {len(items)} |"
        for m, res in suites.items():
            rs = res.get(cat, [])
            ok = sum(r["ok"] for r in rs)
            bar = 0.90 if m == "offline" else 0.95
            good = rs and ok / len(rs) >= bar
            passed[m] += bool(good)
            row += f" {'**' if good else ''}{pct(ok, len(rs))}{'**' if good else ''} ({ok}/{len(rs)}) |"
        lines.append(row)
    verdicts = []
    n_cat = len(tasks)
    if "offline" in passed:
        need = n_cat - 2
        verdicts.append(f"offline ≥ {need} of {n_cat} categories at ≥ 90%: "
                        f"**{'met' if passed['offline'] >= need else 'not met'}**")
    if "gemini" in passed:
        verdicts.append(f"scripted Gemini {n_cat} of {n_cat} at ≥ 95%: "
                        f"**{'met' if passed['gemini'] >= n_cat else 'not met'}**")
    lines += ["", "Bold: at or above the bar (offline ≥ 90% of runs, gemini ≥ 95%). "
              + "; ".join(f"{m}: **{passed[m]} of {len(tasks)}** categories, "
                          f"{sum(r['ok'] for rs in res.values() for r in rs)}/{sum(len(rs) for rs in res.values())} runs"
                          for m, res in suites.items()) + ".", "", "Targets: " + "; ".join(verdicts) + "."]
    fails = defaultdict(int)
    for m, res in suites.items():
        for cat, rs in res.items():
            for r in rs:
                if not r["ok"]:
                    fails[(m, cat, r["say"], r["failures"][0][:110])] += 1
    if fails:
        lines += ["", "<details><summary>Failed runs</summary>", "", "| mode | category | request | first failed check | runs |",
                  "|---|---|---|---|---:|"]
        for (m, cat, say, why), n in sorted(fails.items()):
            lines.append(f"| {m} | {cat} | {say} | {why.replace('|', '/')} | {n} |")
        lines += ["", "</details>"]

    lines += questions_table(tasks, suites)

    lat: dict[str, dict[str, list[float]]] = {}
    for m, res in suites.items():
        lat[m] = {s: [r["timings"][s] for rs in res.values() for r in rs if s in r["timings"]] for s in STAGES}
        lat[m]["total"] = [r["total_ms"] for rs in res.values() for r in rs]
    lines += ["", "## Latency per stage", "",
              "`plan`, `safety`, `dispatch` from `CommandResult.timings_ms` (dispatch includes agents and any "
              "recovery); `agents` from the first `AGENT_STARTED` to the last agent end; `speech` is the time "
              "under `SPEAK_START`..`SPEAK_END` (the recording speech output returns at once, so this is the "
              "pipeline's own overhead, not audio); `total` is `on_speech` wall time.", "",
              "| stage | " + " | ".join(f"{m} n | {m} p50 ms | {m} p95 ms" for m in suites) + " |",
              "|---|" + "---:|---:|---:|" * len(suites)]
    for s in (*STAGES, "total"):
        row = f"| {s} |"
        for m in suites:
            v = lat[m][s]
            row += f" {len(v)} | {percentile(v, 50):.1f} | {percentile(v, 95):.1f} |" if v else " 0 | | |"
        lines.append(row)
    lines += ["", f"![stage latency]({chart_name})", ""]

    lines += ["## Ablations", "", "| ablation | with | without | measured as |", "|---|---|---|---|"]
    fg = ablations.get("focus")
    if fg:
        (s_on, st_on, hit_on, _), (s_off, st_off, hit_off, _) = fg["on"], fg["off"]
        lines.append(f"| focus guard | {st_on} of {s_on} chars misdirected ({hit_on}/{fg['trials']} trials hit) "
                     f"| {st_off} of {s_off} chars misdirected ({hit_off}/{fg['trials']} trials hit) "
                     "| a focus thief activates another window at a random moment while 1,824 chars are typed; chars counted as "
                     "they arrived, in the editor and the thief (benchmarks/bench_desktop.py) |")
    lk = ablations.get("locks")
    if lk:
        lines.append(f"| `kb_mouse` lock | {lk[True]['interleaved']} of {lk[True]['n']} trials interleaved "
                     f"| {lk[False]['interleaved']} of {lk[False]['n']} trials interleaved "
                     "| two 48-char `type_text` plans dispatched at once into the same editor |")
    rc = ablations.get("recovery")
    if rc:
        lines.append(f"| recovery loop | {rc[True]['surfaced']} of {rc[True]['n']} failures surfaced; search done "
                     f"{rc[True]['effect']}/{rc[True]['n']} | {rc[False]['surfaced']} of {rc[False]['n']} failures "
                     f"surfaced; search done {rc[False]['effect']}/{rc[False]['n']} "
                     "| \"open <missing app> and then search for <app> tips\", recovery scripted through the fake Gemini |")
    if suites.get("offline") and suites.get("gemini"):
        lines.append(f"| Gemini planner (scripted) vs offline | {passed['gemini']} of {len(tasks)} categories at the bar "
                     f"| {passed['offline']} of {len(tasks)} (offline) | the suite above |")
    if ablations.get("speculation"):
        lines += ["", "Speculation off (perceived recovery latency, `benchmarks/bench_recovery.py`, simulated desktop):",
                  "", ablations["speculation"]]
    for name, why in ablations.get("skipped", {}).items():
        lines.append(f"\n{name}: not measured ({why}).")
    lines += ["", "## SLURP: the offline planner on the test split", "", slurp_md, ""]
    lines += ["## Limits", "",
              "- The wordings were written by the developers of the planner, some after seeing its answers to a "
              "first list of candidates; the ones it missed were kept, and none was changed after a full run. The "
              "suite is not an independent sample of how people speak (SLURP is).",
              "- Each wording runs several times, but on one fixed desktop: repetitions mostly measure the desktop's "
              "flakiness (none seen here); the planner's answer to a wording does not vary.",
              "- `speech` latency is the pipeline's overhead around a recording speech output, not audio time.",
              "- The offline planner has no recursive sub-plans: an open-ended goal becomes a flat plan of a web "
              "search for a guide and a YouTube search for a video (issue 21), which passes a recursive task when "
              "those searches carry the goal's words.",
              "- Gemini mode is scripted: it shows the pipeline carries out a good plan, not that Gemini produces one.",
              "- The task suite uses a Tk test editor and a stand-in browser window; real apps (Mousepad, galculator, "
              "Chromium) through the orb are measured in \"Real apps through the orb\", one request sequence per category, repeated.",
              "- One machine (Xvfb, openbox): other desktops, window managers and editors are not measured.", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="AnovaX end-to-end evaluation")
    ap.add_argument("--reps-offline", type=int, default=3)
    ap.add_argument("--reps-gemini", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="3 wordings per category, 1 rep, small ablations")
    ap.add_argument("--modes", default="offline,gemini")
    ap.add_argument("--no-ablations", action="store_true")
    ap.add_argument("--realapps-reps", type=int, default=3, help="runs per real-app category (eval/realapps.py)")
    ap.add_argument("--no-realapps", action="store_true", help="skip the real-app suite (its old section is kept)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "EVALUATION.md")
    args = ap.parse_args(argv)
    from xserver import XServerMissing, x_server

    t0 = time.monotonic()
    tasks, plans = load_tasks(), load_plans()
    if args.quick:
        tasks = {c: items[:3] for c, items in tasks.items()}
        args.reps_offline = args.reps_gemini = args.realapps_reps = 1
    log = lambda msg: print(msg, flush=True)  # noqa: E731
    try:
        server_cm = x_server(1280, 800)
        server = server_cm.__enter__()
    except XServerMissing as exc:
        print(f"cannot evaluate: {exc}", file=sys.stderr)
        return 2
    os.environ.update(server.env)
    os.environ.pop("WAYLAND_DISPLAY", None)
    suites: dict[str, dict] = {}
    ablations: dict[str, Any] = {"skipped": {}}
    try:
        if not server.wm:
            print("cannot evaluate: openbox is not installed", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory(prefix="anovax-eval-") as tmp:
            work = Path(tmp)
            for mode in args.modes.split(","):
                reps = args.reps_offline if mode == "offline" else args.reps_gemini
                t = time.monotonic()
                suites[mode] = run_suite(work, mode, tasks, plans, reps, log)
                log(f"{mode}: {time.monotonic() - t:.0f} s")
            if not args.no_ablations:
                small = args.quick
                t = time.monotonic()
                ablations["focus"] = ablation_focus(4 if small else 10)
                ablations["locks"] = ablation_locks(work, 4 if small else 10)
                ablations["recovery"] = ablation_recovery(work, 3 if small else 5)
                ablations["speculation"] = ablation_speculation(3 if small else 5)
                log(f"ablations: {time.monotonic() - t:.0f} s")
    finally:
        server_cm.__exit__(None, None, None)
    realapps_md = None
    if not args.no_realapps:
        from eval import realapps

        t = time.monotonic()
        log("real apps through the orb:")
        got = realapps.measure(args.realapps_reps, None, log)
        realapps_md = f"{realapps.HEADING}\n\n{got}.\n" if isinstance(got, str) else got[0]
        log(got if isinstance(got, str) else got[1])
        log(f"real apps: {time.monotonic() - t:.0f} s")
    slurp_md = slurp()
    seconds = time.monotonic() - t0
    chart_path = args.out.with_name("eval_latency.png")
    lat = {m: {s: [r["timings"][s] for rs in res.values() for r in rs if s in r["timings"]] for s in STAGES}
           for m, res in suites.items()}
    chart(lat, chart_path)
    from eval.realapps import old_section, splice

    previous = old_section(args.out.read_text(encoding="utf-8")) if args.out.exists() else None
    text = report(args, tasks, suites, ablations, slurp_md, seconds, chart_path.name)
    if realapps_md or previous:
        text = splice(text, realapps_md or previous)
    args.out.write_text(text, encoding="utf-8")
    log(f"wrote {args.out} and {chart_path} in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
