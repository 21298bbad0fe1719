"""Memory both ways through the front door (issue 18, point 3): separate ``anovax --text`` processes
sharing one ``memory.json``, "forget everything" with nobody to answer, the console's [y/N] on a
pseudo-terminal, and a model's plan that forgets what the person never named.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes.fake_gemini import plan_reply
from pty_kit import Pty, cli_environment

REPO = Path(__file__).resolve().parents[1]
FACTS = {"favourite_colour": "green", "wife_s_birthday": "May 3rd"}


@pytest.fixture
def env(tmp_path):
    """An offline run with a private home and memory file, no key and no display."""
    clean = {k: v for k, v in os.environ.items()
             if k not in {"GEMINI_API_KEY", "GOOGLE_API_KEY", "DISPLAY", "WAYLAND_DISPLAY"}
             and not k.startswith("ANOVAX_")}
    clean.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_DATA_HOME=str(tmp_path / "data"),
                 XDG_STATE_HOME=str(tmp_path / "state"), ANOVAX_MEMORY=str(tmp_path / "memory.json"),
                 ANOVAX_PLANNER="offline", PYTHONPATH=str(REPO))
    return clean


def anovax(env, text, *args):
    """One process of the CLI, as a person runs it."""
    return subprocess.run([sys.executable, "-m", "anovax", "--text", text, "--simulate", *args],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=120)


def done(proc) -> dict:
    """What the command ended with: the COMMAND_DONE event of a ``--json`` run."""
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return next(e for e in lines if e.get("type") == "COMMAND_DONE")["data"]


def asked(proc) -> dict:
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return next(e for e in lines if e.get("type") == "CONFIRM_REQUESTED")["data"]


def stored(env) -> dict[str, str]:
    return json.loads(Path(env["ANOVAX_MEMORY"]).read_text(encoding="utf-8"))["facts"]


def test_a_later_process_remembers_and_after_forgetting_no_longer_does(env):
    told = anovax(env, "remember my favourite colour is green")
    assert told.returncode == 0, told.stdout + told.stderr
    assert stored(env) == {"favourite_colour": "green"}

    asked = anovax(env, "what is my favourite colour")
    assert asked.returncode == 0, asked.stdout + asked.stderr
    assert "Your favourite colour is green." in asked.stdout

    paraphrase = anovax(env, "what's my favorite color?")
    assert "Your favourite colour is green." in paraphrase.stdout

    forgot = anovax(env, "forget my favourite colour")
    assert forgot.returncode == 0, forgot.stdout + forgot.stderr
    assert "Okay, I've forgotten your favourite colour." in forgot.stdout
    assert stored(env) == {}

    again = anovax(env, "what is my favourite colour")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "I don't know your favourite colour yet." in again.stdout
    assert "green" not in again.stdout


def test_what_do_you_remember_about_me_lists_the_facts(env):
    Path(env["ANOVAX_MEMORY"]).write_text(json.dumps({"version": 1, "facts": FACTS}), encoding="utf-8")
    proc = anovax(env, "what do you remember about me", "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = done(proc)
    assert result["message"] == "I remember that your favourite colour is green and your wife's birthday is May 3rd."
    assert [s["tool"] for s in result["plan"]["steps"]] == ["recall_all"]


def test_forget_everything_with_nobody_to_answer_is_denied_and_nothing_is_lost(env):
    path = Path(env["ANOVAX_MEMORY"])
    path.write_text(json.dumps({"version": 1, "facts": FACTS}), encoding="utf-8")
    before = path.read_bytes()
    proc = anovax(env, "forget everything", "--json")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    question = asked(proc)
    assert question["question"] == "Forget everything I remember about you (2 things)?"
    assert question["frontends"] == [] and question["target"] == "your memory"
    assert done(proc)["status"] == "needs_yes"
    assert done(proc)["message"] == "I needed a yes to forget what I know about you, so I did nothing."
    assert path.read_bytes() == before


def console(env, tmp_path):
    Path(env["ANOVAX_MEMORY"]).write_text(json.dumps({"version": 1, "facts": FACTS}), encoding="utf-8")
    term = Pty({**env, "ANOVAX_VOICE": "off", "ANOVAX_ORB": "off", "TERM": "dumb"}, "--simulate")
    term.read_until(b"you> ", 60)
    term.type("forget everything\n")
    term.read_until(b"Forget everything I remember about you (2 things)? [y/N] ", 60)
    return term


def test_the_console_asks_and_a_yes_forgets_everything(env, tmp_path):
    term = console(env, tmp_path)
    try:
        term.type("y\n")
        term.read_until(b"Done: I've forgotten all 2 things I knew about you.", 60)
        term.read_until(b"you> ", 10)
        assert stored(env) == {}
        term.type("what is my favourite colour\n")
        term.read_until(b"I don't know your favourite colour yet.", 60)
        term.read_until(b"you> ", 10)
        term.type("quit\n")
    finally:
        assert term.close() == 0


def test_the_console_asks_and_a_no_keeps_everything(env, tmp_path):
    term = console(env, tmp_path)
    try:
        term.type("n\n")
        term.read_until(b"You said no, so I didn't forget what I know about you.", 60)
        term.read_until(b"you> ", 10)
        assert stored(env) == FACTS
        term.type("quit\n")
    finally:
        assert term.close() == 0


# -- the online planner: the same tools, and the same gate --------------------------------------


@pytest.fixture
def gemini_env(tmp_path, fake_gemini):
    env = cli_environment(tmp_path, fake_gemini.base_url)
    Path(env["ANOVAX_MEMORY"]).write_text(json.dumps({"version": 1, "facts": FACTS}), encoding="utf-8")
    return env


def test_the_model_answers_with_recall(gemini_env, fake_gemini):
    fake_gemini.script(plan_reply({"steps": [{"tool": "recall", "params": {"key": "favorite_color"}}],
                                   "final_response": "", "remember": {}}))
    proc = anovax(gemini_env, "what's my favorite color")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Your favourite colour is green." in proc.stdout
    prompt = json.dumps(fake_gemini.requests[0].body)
    assert "recall(key: string)" in prompt and "forget_all()" in prompt


def test_a_model_talked_into_forgetting_what_nobody_named_is_stopped(gemini_env, fake_gemini):
    """A page or a poisoned fact persuades the model to wipe a fact during an unrelated request: the
    person never named it, so a yes is needed, and a ``--text`` run has nobody to give one."""
    fake_gemini.script(plan_reply({"steps": [{"tool": "web_search", "params": {"query": "weather in lisbon"}},
                                             {"tool": "forget", "params": {"key": "wife_s_birthday"}}],
                                   "final_response": "Here's the weather.", "remember": {}}))
    before = Path(gemini_env["ANOVAX_MEMORY"]).read_bytes()
    proc = anovax(gemini_env, "what's the weather in lisbon", "--json")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert asked(proc)["question"] == "Forget your wife's birthday?"
    assert done(proc)["message"] == "I needed a yes to forget your wife's birthday, so I did nothing."
    assert Path(gemini_env["ANOVAX_MEMORY"]).read_bytes() == before
