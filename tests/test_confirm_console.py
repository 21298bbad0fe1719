"""Asking from the command line, as a person uses it: ``--text`` (nobody to ask), ``--dry-run``,
and the console's [y/N] on a pseudo-terminal typing into a real xterm on Xvfb.

The model's plan comes from the real google-genai client talking to the loopback fake Gemini.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fakes.fake_gemini import plan_reply
from helpers import wait_for
from pty_kit import Pty, cli_environment
from shell_recorder import ShellRecorder, xterm_windows

REPO = Path(__file__).resolve().parents[1]
QUESTION = "Type `ls` and press Enter in Terminal?"


def step(tool, **params):
    return {"tool": tool, "params": params}


TERMINAL_LS = plan_reply({"steps": [step("open_app", name="terminal"), step("type_text", text="ls"),
                                    step("press_keys", keys="enter")],
                          "final_response": "Listing your files.", "remember": {}})


@pytest.fixture
def env(tmp_path, fake_gemini):
    return cli_environment(tmp_path, fake_gemini.base_url)


def test_a_text_run_has_nobody_to_ask_so_it_shows_the_question_types_nothing_and_exits_3(env, fake_gemini):
    fake_gemini.script(TERMINAL_LS)
    proc = subprocess.run([sys.executable, "-m", "anovax", "--text", "list my files in a terminal", "--simulate",
                           "--json"], capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    events = [e for e in lines if "type" in e]
    asked = next(e for e in events if e["type"] == "CONFIRM_REQUESTED")
    assert asked["data"]["question"] == QUESTION and asked["data"]["frontends"] == []
    answered = next(e for e in events if e["type"] == "CONFIRM_ANSWERED")
    assert answered["data"]["answer"] == "nobody"
    assert "AGENT_SPAWNED" not in [e["type"] for e in events]
    done = events[-1]
    assert done["type"] == "COMMAND_DONE" and done["data"]["status"] == "needs_yes"
    assert done["data"]["message"] == "I needed a yes to type into Terminal, so I did nothing."
    assert lines[-1]["typed_text"] == "" and lines[-1]["simulated_actions"] == []
    log = [json.loads(line) for line in Path(env["ANOVAX_LOG"]).read_text().splitlines()]
    assert {"CONFIRM_REQUESTED", "CONFIRM_ANSWERED"} <= {e["type"] for e in log}


def test_a_dry_run_prints_the_question_and_exits_3(env, fake_gemini):
    fake_gemini.script(TERMINAL_LS)
    proc = subprocess.run([sys.executable, "-m", "anovax", "--text", "list my files in a terminal", "--dry-run"],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert f"Safety: asks first: {QUESTION}" in proc.stdout
    assert "a dry run asks nobody" in proc.stdout


def test_there_is_no_yes_flag(env):
    proc = subprocess.run([sys.executable, "-m", "anovax", "--yes", "--text", "ls"], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=60)
    assert proc.returncode == 2 and "unrecognized arguments: --yes" in proc.stderr


# -- the console on a terminal, typing into a real xterm -----------------------------------------


@pytest.fixture
def desk_env(env, xvfb, tmp_path):
    if not xvfb.wm:
        pytest.skip("openbox is not installed: without a window manager no window gets the focus")
    recorder = ShellRecorder(tmp_path / "shell")
    env = {**env, **xvfb.env, **recorder.env}
    env.pop("WAYLAND_DISPLAY", None)
    before = set(xterm_windows(env))
    yield env, recorder
    # close the terminals this test opened (the recorder shell ends with its window)
    for window in set(xterm_windows(env)) - before:
        subprocess.run(["xdotool", "windowclose", window], env={**os.environ, **env}, timeout=5,
                       capture_output=True)


def console_asks(env, fake_gemini, timeout_s="20", *more):
    fake_gemini.script(TERMINAL_LS, *more)
    term = Pty({**env, "ANOVAX_CONFIRM_TIMEOUT": timeout_s}, "--planner", "gemini")
    term.read_until(b"you> ", 60)
    term.type("list my files in a terminal\n")
    term.read_until(f"{QUESTION} [y/N] ".encode(), 60)
    return term


def test_console_y_types_the_command_into_the_terminal(desk_env, fake_gemini):
    env, recorder = desk_env
    term = console_asks(env, fake_gemini)
    try:
        term.type("y\n")
        term.read_until(b"AnovaX: Listing your files.", 60)
        wait_for(lambda: recorder.lines(), 20.0, "the command to reach the terminal")
        assert recorder.lines() == ["ls"]
        term.read_until(b"you> ", 10)
        term.type("quit\n")
    finally:
        assert term.close() == 0


def test_console_n_or_an_empty_line_types_nothing(desk_env, fake_gemini):
    env, recorder = desk_env
    term = console_asks(env, fake_gemini)
    try:
        term.type("\n")  # the default is no
        term.read_until(b"Not done: You said no, so I didn't type into Terminal.", 60)
        term.read_until(b"you> ", 10)
        time.sleep(1.0)  # nothing is on its way either: give a stray key time to arrive
        assert recorder.lines() == []
        term.type("quit\n")
    finally:
        assert term.close() == 0


def test_console_no_answer_in_time_types_nothing_and_says_so(desk_env, fake_gemini):
    env, recorder = desk_env
    term = console_asks(env, fake_gemini, "2", plan_reply({"steps": [], "final_response": "Yes?", "remember": {}}))
    try:
        term.read_until(b"Not done: I needed a yes to type into Terminal and got no answer in 2 seconds", 60)
        term.read_until(b"you> ", 10)
        term.type("y\n")  # too late: this is a command line now, not an answer
        term.read_until(b"AnovaX: Yes?", 60)
        assert recorder.lines() == []
        term.type("quit\n")
    finally:
        assert term.close() == 0
