"""The orb's Yes / No on the real window (Xvfb + openbox, xdotool, mss), with the real broker:
the harness holds a question as the command worker would (``Confirmations.ask`` on a thread
of its own) and the window must show it, take the answer from a click, Enter or Esc, and hide
it when any front end answered. Every wait polls with a deadline.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys

import pytest

from anovax.orb.model import OrbState
from helpers import wait_for
from orb_harness import OrbProcess, active_window
from test_orb_window import click, wait_for_pixels, xdo, xorb  # noqa: F401 - xorb is a fixture

pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")
pytest.importorskip("mss")

QUESTION = "Type `ls` and press Enter in Terminal?"
STEPS = [{"index": 2, "tool": "type_text", "params": {"text": "ls"}}, {"index": 3, "tool": "press_keys",
                                                                       "params": {"keys": "enter"}}]


@pytest.fixture(scope="module")
def orb(xorb, tmp_path_factory):  # noqa: F811
    proc = OrbProcess(xorb.env, tmp_path_factory.mktemp("orb-question"))
    yield proc
    assert proc.close() == 0, proc.stderr()


def ask(orb_proc, target="xterm") -> str:
    """Hold a question; wait until the window shows it and takes keys for it; its id."""
    question_id = orb_proc.ask("ask", question=QUESTION, steps=STEPS, target=target)["question_id"]
    wait_for(lambda: (s := orb_proc.ask("inspect"))["question"] == QUESTION and s["question_armed"], 10.0,
             what=lambda: f"the question in the window: {orb_proc.ask('inspect')}")
    return question_id


def reply(orb_proc, question_id: str) -> dict:
    return wait_for(lambda: next((r for r in orb_proc.ask("replies")["replies"] if r["question_id"] == question_id),
                                 None), 10.0, what=f"the reply to {question_id}")


def gone(orb_proc) -> dict:
    return wait_for(lambda: (s := orb_proc.ask("inspect"))["question"] == "" and s, 10.0,
                    what=lambda: f"the question to go: {orb_proc.ask('inspect')}")


def test_the_open_orb_can_ask(orb):
    assert orb.ask("replies")["frontends"] == ["orb"]


def test_the_question_shows_with_its_target_and_countdown_and_a_click_on_yes_answers_it(xorb, orb):
    question_id = ask(orb)
    shown = orb.ask("inspect")
    assert shown["question_target"] == "in: xterm"
    assert shown["countdown"].endswith(" s · Enter = yes · Esc = no")
    assert 0 < int(shown["countdown"].split()[0]) <= 20
    assert shown["state"] == "asking" and shown["state_label"] == "Asking you"
    wait_for_pixels(xorb, orb, OrbState.ASKING)
    click(xorb, orb.ask("geometry")["yes"])
    answer = reply(orb, question_id)
    assert (answer["answer"], answer["frontend"]) == ("yes", "orb")
    assert gone(orb)["answered"] == "yes from the orb: going ahead"


def test_a_click_on_no_answers_no(xorb, orb):
    question_id = ask(orb)
    click(xorb, orb.ask("geometry")["no"])
    answer = reply(orb, question_id)
    assert (answer["answer"], answer["frontend"]) == ("no", "orb")
    assert gone(orb)["answered"] == "no from the orb: did not go ahead"


def test_in_the_text_box_enter_means_yes_and_esc_means_no_and_neither_runs_nor_stops_anything(xorb, orb):
    click(xorb, orb.ask("geometry")["entry"])
    xdo(xorb, "type", "--delay", "5", "open notepad")
    wait_for(lambda: orb.ask("inspect")["entry"] == "open notepad", what="the text in the box")
    calls_before = list(orb.ask("inspect")["calls"])

    question_id = ask(orb)
    assert orb.ask("inspect")["focus"].endswith("entry")
    xdo(xorb, "key", "Escape")
    answer = reply(orb, question_id)
    assert (answer["answer"], answer["frontend"]) == ("no", "orb")
    gone(orb)

    question_id = ask(orb)
    xdo(xorb, "key", "Return")
    answer = reply(orb, question_id)
    assert (answer["answer"], answer["frontend"]) == ("yes", "orb")
    shown = gone(orb)
    # Enter did not submit the box as a command, Esc did not press Stop
    assert shown["entry"] == "open notepad" and shown["kinds"] == []
    assert shown["calls"] == calls_before

    # with no question the keys are the box's again: Esc is Stop
    xdo(xorb, "key", "Escape")
    wait_for(lambda: orb.ask("inspect")["calls"][len(calls_before):] == [["stop"]], what="Esc to stop again")
    xdo(xorb, "key", "End")  # leave the box empty for the next test
    xdo(xorb, "key", "--repeat", "12", "BackSpace")
    wait_for(lambda: orb.ask("inspect")["entry"] == "", what="the box to be emptied")


@pytest.mark.parametrize("typed, answer", [("no", "no"), ("stop", "no"), ("yes", "yes"), ("n", "no")])
def test_words_typed_while_the_question_shows_are_the_answer_not_a_yes_by_enter(xorb, orb, typed, answer):
    """Found by a first-time user: "no" + Enter in the text box answered yes and ran the command."""
    question_id = ask(orb)
    xdo(xorb, "type", "--delay", "5", typed)
    xdo(xorb, "key", "Return")
    got = reply(orb, question_id)
    assert (got["answer"], got["frontend"]) == (answer, "orb"), got
    shown = gone(orb)
    assert shown["entry"] == "" and shown["calls"][-1:] != [["submit", typed]], shown  # nothing left, nothing run


def test_words_that_answer_nothing_leave_the_question_open(xorb, orb):
    question_id = ask(orb)
    xdo(xorb, "type", "--delay", "5", "hello")
    xdo(xorb, "key", "Return")
    wait_for(lambda: orb.ask("inspect")["entry"] == "", what="the words to be taken out of the box")
    assert orb.ask("inspect")["question"] == QUESTION  # still asking: "hello" is no answer
    xdo(xorb, "key", "Escape")
    got = reply(orb, question_id)
    assert got["answer"] == "no", got
    gone(orb)


@pytest.mark.skipif(not shutil.which("xterm"), reason="xterm is not installed")
def test_the_orb_takes_the_keyboard_from_the_window_that_had_it(xorb, orb, tmp_path):
    """A launch just gave the focus to a terminal: the question must not leave Enter/Esc there."""
    env = {**os.environ, **xorb.env}
    log = tmp_path / "keys.txt"
    # the terminal runs `cat` into a file, so a key that reached it can be read back
    term = subprocess.Popen(["xterm", "-title", "victim", "-e", "sh", "-c", f"cat > {log}"], env=env,
                            start_new_session=True)
    try:
        window = wait_for(lambda: subprocess.run(["xdotool", "search", "--name", "^victim$"], env=env,
                                                 capture_output=True, text=True).stdout.split(), 15.0,
                          what="the xterm window")[0]
        xdo(xorb, "windowactivate", window)
        wait_for(lambda: active_window(xorb) == window, 10.0, what="the xterm to be active")
        wait_for(lambda: orb.ask("inspect")["focus"] == "", what="the orb to lose the focus")
        question_id = ask(orb, target="victim")
        wait_for(lambda: orb.ask("inspect")["focus"].endswith("entry"), what="the orb to take the keyboard")
        xdo(xorb, "key", "Escape")
        answer = reply(orb, question_id)
        assert (answer["answer"], answer["frontend"]) == ("no", "orb")
    finally:
        os.killpg(term.pid, signal.SIGTERM)
        term.wait(10)
    assert log.read_bytes() == b""


def test_an_answer_from_another_front_end_hides_the_question(xorb, orb):
    question_id = ask(orb)
    no_box = orb.ask("geometry")["no"]
    assert orb.ask("answer", question_id=question_id, yes=True, frontend="phone")["ok"]
    answer = reply(orb, question_id)
    assert (answer["answer"], answer["frontend"]) == ("yes", "phone")
    assert gone(orb)["answered"] == "yes from the phone: going ahead"
    click(xorb, no_box)  # where No was: nothing is asked any more, nothing is answered
    assert orb.ask("inspect")["state"] != "asking"
    assert len([r for r in orb.ask("replies")["replies"] if r["question_id"] == question_id]) == 1


RUN_ORB = """
import sys, threading, time
from pathlib import Path
from anovax.app import build_assistant
from anovax.orb.controls import OrbControls
from anovax.orb.run import run_orb
from anovax.settings import Settings

state = Path(sys.argv[1])
assistant = build_assistant(Settings(planner="offline", memory_path=state / "memory.json", log_path=None))
controls = OrbControls.for_assistant(assistant)
print("before:", assistant.confirmations.frontends(), flush=True)
built = []

def close_when_registered():
    while assistant.confirmations.frontends() != ("orb",):
        time.sleep(0.01)
    print("open:", assistant.confirmations.frontends(), flush=True)
    import os, signal
    os.kill(os.getpid(), signal.SIGINT)  # nothing runs: Ctrl-C closes the window

threading.Thread(target=close_when_registered, daemon=True).start()
run_orb(assistant, controls, prefs_path=state / "orb.json")
print("closed:", assistant.confirmations.frontends(), flush=True)
assistant.close()
"""


def test_the_orb_can_ask_only_while_its_window_is_open(xorb, tmp_path):
    done = subprocess.run([sys.executable, "-c", RUN_ORB, str(tmp_path)], env={**os.environ, **xorb.env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["before: ()", "open: ('orb',)", "closed: ()"], done.stdout + done.stderr
