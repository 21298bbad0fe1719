"""`--text` and `--dry-run` on a real display (Xvfb + openbox) judge keys by the window in front,
as the console, the orb and the phone do: a first-time user found `--dry-run` saying "allowed"
for a command the real run asked about, because a dry run had no desktop to ask."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import wait_for

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def terminal_in_front(xvfb, tmp_path):
    if not xvfb.wm or not shutil.which("xterm") or not shutil.which("xdotool"):
        pytest.skip("needs openbox, xterm and xdotool")
    env = {**os.environ, **xvfb.env}
    term = subprocess.Popen(["xterm", "-title", "victim-term", "-e", "sh", "-c", "sleep 600"], env=env,
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def in_front() -> bool:
        found = subprocess.run(["xdotool", "getactivewindow", "getwindowname"], env=env, capture_output=True,
                               text=True)
        return found.stdout.strip() == "victim-term"

    try:
        wait_for(in_front, 30.0, "the xterm to be in front")
        yield {**env, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
               "XDG_STATE_HOME": str(tmp_path / "state"), "ANOVAX_MEMORY": str(tmp_path / "memory.json"),
               "ANOVAX_PLANNER": "offline", "PYTHONPATH": str(REPO)}
    finally:
        os.killpg(term.pid, signal.SIGKILL)
        term.wait(10)


def run(env, *args):
    return subprocess.run([sys.executable, "-m", "anovax", "--text", "type whoami and press enter", *args],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=120)


def test_a_dry_run_asks_what_the_real_run_would_ask(terminal_in_front):
    dry = run(terminal_in_front, "--dry-run", "--json")
    assert dry.returncode == 3, dry.stdout + dry.stderr
    result = json.loads(dry.stdout)
    assert result["status"] == "needs_yes" and "whoami" in result["verdict"]["question"], result


def test_the_real_run_types_nothing_into_the_terminal_in_front_without_a_yes(terminal_in_front):
    real = run(terminal_in_front, "--json")
    assert real.returncode == 3, real.stdout + real.stderr
    events = [json.loads(line) for line in real.stdout.splitlines() if line.strip()]
    asked = [e for e in events if e.get("type") == "CONFIRM_REQUESTED"]
    assert asked and asked[0]["data"]["target"] == "XTerm", asked
    assert not [e for e in events if e.get("type") == "AGENT_SPAWNED"], events
