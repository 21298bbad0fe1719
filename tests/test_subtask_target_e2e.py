"""Issue 16, done-when 2: focus carried into a sub-task, end to end with the real google-genai
client against the loopback fake Gemini server.

The parent plan opens a terminal and hands the rest to a sub-task; the sub-task's plan types
`whoami` and presses Enter. Checked on its own, that plan has no terminal in it: only the window
the parent left in front says the keys are shell input. So the sub-plan must be held for a yes:
a non-interactive run (`--text`, nobody to ask) types nothing and exits 3, and a click on Yes in
the orb gets `whoami` into the real xterm's bash (its history file is the witness).
"""

from __future__ import annotations

import json
import shutil

import pytest
from fakes.fake_gemini import plan_reply
from helpers import wait_for
from test_cli_gemini import env, run, step  # noqa: F401 - env is a fixture
from test_orb_confirm_e2e import anovax, done, spawned  # noqa: F401 - anovax is a fixture
from test_orb_window import xdo, xorb  # noqa: F401 - xorb is a fixture

PARENT = {"steps": [step("open_app", name="terminal"), step("plan_subtask", goal="find out which user I am")],
          "final_response": "Checking.", "remember": {}}
CHILD = {"steps": [step("type_text", text="whoami"), step("press_keys", keys="enter")],
         "final_response": "There you go.", "remember": {}}


def test_a_sub_task_typing_into_the_parents_terminal_is_held_and_nobody_can_say_yes(env, fake_gemini):  # noqa: F811
    """Nobody can answer: the hand-over to a sub-task in the terminal is denied before anything
    runs (the sub-task is never even planned: the script has no second reply)."""
    fake_gemini.script(plan_reply(PARENT))
    proc, events, last = run(env, "open a terminal and tell me which user I am")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    asked = [e for e in events if e["type"] == "CONFIRM_REQUESTED"]
    assert len(asked) == 1 and asked[0]["data"]["frontends"] == [], events
    assert [e for e in events if e["type"] == "COMMAND_DONE"][-1]["data"]["status"] == "needs_yes"
    assert not [a for a in last["simulated_actions"] if a["kind"] in ("type", "keys")], last["simulated_actions"]
    # denied, not failed: no recovery turn was asked for
    assert "RECOVERY_STARTED" not in [e["type"] for e in events]


def test_the_sub_plan_alone_is_held_when_the_terminal_is_in_front(env, fake_gemini):  # noqa: F811
    """The sub-plan's own check knows nothing of the parent's plan: only the window in front says
    the keys are shell input (the gate is told the desktop's target, here the simulated one)."""
    from anovax.desktop.simulated import SimulatedDesktop
    from anovax.gatecontext import GateContext
    from anovax.memory import SessionState
    from anovax.safety import safety_check
    from anovax.desktop.base import CancelToken

    desktop = SimulatedDesktop()
    desktop.launch_app("terminal", CancelToken())
    gate = GateContext(desktop, SessionState())
    verdict = gate.checked(safety_check)(CHILD, "find out which user I am", depth=1)
    assert verdict.needs_yes and "whoami" in verdict.question, verdict


@pytest.mark.skipif(not shutil.which("xterm"), reason="no xterm")
def test_a_yes_in_the_orb_types_the_sub_tasks_command_into_the_terminal(anovax, fake_gemini, tmp_path):  # noqa: F811
    fake_gemini.script(plan_reply(PARENT), plan_reply(CHILD))
    gemini = {"ANOVAX_PLANNER": "gemini", "GEMINI_API_KEY": "test", "ANOVAX_GEMINI_BASE_URL": fake_gemini.base_url,
              "ANOVAX_PLANNER_TIMEOUT": "10"}
    orb = anovax(env=gemini)
    orb.type_command("open a terminal and tell me which user I am")
    asked = orb.event("CONFIRM_REQUESTED", 60.0)
    assert [s["tool"] for s in asked["data"]["steps"]] == ["type_text", "press_keys"], asked
    assert "orb" in asked["data"]["frontends"], asked
    wait_for(orb.shell.started, 30.0, "the shell to run in the terminal")
    assert orb.shell.lines() == []  # nothing before the yes
    yes = wait_for(orb.yes_button, 10.0, "the Yes button on the screen")
    xdo(orb.xvfb, "mousemove", *map(str, yes), "click", "1")
    wait_for(lambda: orb.shell.lines() == ["whoami"], 30.0,
             lambda: f"`whoami` in the terminal: {orb.shell.lines()!r}\n{json.dumps(orb.events()[-5:])}")
    result = done(orb)
    assert result["status"] == "done", result
    assert spawned(orb) == ["open_app", "plan_subtask", "type_text", "press_keys"]
