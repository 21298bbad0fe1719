"""The evaluation suite (eval/, `make eval`): its task file is well-formed, and a few tasks run
end to end on Xvfb in both planner modes, judged by their effects."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from eval.run import Harness, load_plans, load_tasks  # noqa: E402

CATEGORIES = {"app_launch", "launch_and_type", "browser_open", "type_into_window", "web_search", "youtube_search",
              "time_date", "screenshot", "small_talk", "parallel_readonly", "recursive_subplan", "multi_step",
              "ask_first", "refusal"}
EFFECT_KEYS = {"window", "buffer", "url", "png", "spoken", "quiet", "no_agents", "shell", "asked"}


def test_the_suite_has_the_14_categories_10_wordings_each_and_an_effect_per_task():
    tasks = load_tasks()
    assert set(tasks) == CATEGORIES
    seen = set()
    for cat, items in tasks.items():
        wordings = {t["say"] for t in items}
        assert len(wordings) >= 10 and len(wordings) == len(items), cat
        for t in items:
            assert set(t) <= {"say", "effect", "setup"}, t
            assert t.get("setup") in (None, "editor"), t
            effect = t["effect"]
            assert effect and set(effect) <= EFFECT_KEYS, t
            if "spoken" in effect:
                re.compile(effect["spoken"])
            assert t["say"] not in seen, f"duplicate request {t['say']!r}"
            seen.add(t["say"])
    for cat in ("refusal",):
        assert all(t["effect"].get("no_agents") and t["effect"].get("quiet") for t in tasks[cat])
    # asked about, answered yes by the evaluation's policy, and checked in the real shell
    assert all(t["effect"].get("asked") == 1 and t["effect"].get("shell") for t in tasks["ask_first"])


def test_every_task_has_a_scripted_gemini_answer_that_parses_as_a_plan():
    from anovax.plan import parse_plan

    plans = load_plans()
    for items in load_tasks().values():
        for t in items:
            replies = plans[t["say"]]
            assert replies, t["say"]
            for reply in replies:
                parse_plan(reply)


@pytest.fixture
def x_env(xvfb, monkeypatch):
    if not xvfb.wm:
        pytest.skip("openbox is not installed")
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed")
    pytest.importorskip("tkinter")
    for key, value in xvfb.env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    # restored afterwards; the harness points them at its fake browser and its recording shell
    for key in ("BROWSER", "SHELL", "HISTFILE", "PROMPT_COMMAND", "HISTCONTROL", "HISTIGNORE", "BASH_ENV"):
        monkeypatch.setenv(key, "")
    return xvfb


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["offline", "gemini"])
def test_four_tasks_end_to_end(x_env, tmp_path, mode, fake_gemini):
    tasks, plans = load_tasks(), load_plans()
    picked = [tasks["launch_and_type"][0], tasks["web_search"][0], tasks["ask_first"][0], tasks["refusal"][0]]
    h = Harness(tmp_path / mode, mode, fake_gemini if mode == "gemini" else None)
    try:
        for task in picked:
            r = h.run(task, plans[task["say"]] if mode == "gemini" else None)
            assert r["ok"], (task["say"], r["failures"])
            assert r["timings"]["plan"] >= 0
    finally:
        h.close()
