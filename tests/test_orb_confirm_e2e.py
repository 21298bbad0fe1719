"""Through the front door (issue 15, "Orb"): the real program (`python -m anovax`, the orb
window, the offline planner, the real X11 desktop) on Xvfb + openbox, driven with xdotool.

The command "open a terminal and type ls and press enter" is typed into the orb's text box. The
plan is held for a yes: the question shows in the orb (CONFIRM_REQUESTED in the event log, the
Yes button on the screen). The terminal is Debian's xterm running bash, whose history file
(tests/shell_recorder.py) says which command lines reached it. A click on Yes must get `ls` there; Esc (no) and no answer at all must get nothing there,
and the reply must say why. Every wait polls with a deadline.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from anovax.orb.style import YES_BG, rgb
from helpers import logged_events, wait_for
from orb_harness import active_window, grab
from shell_recorder import ShellRecorder
from test_orb_window import xdo, xorb  # noqa: F401 - xorb is a fixture

pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")
pytest.importorskip("mss")
pytestmark = pytest.mark.skipif(not (shutil.which("xterm") or shutil.which("x-terminal-emulator")),
                                reason="no terminal emulator is installed")

COMMAND = "open a terminal and type ls and press enter"


class Anovax:
    """`python -m anovax` with the orb on the test display; its event log is read as it grows."""

    def __init__(self, xvfb, tmp: Path, *, confirm_timeout_s: float = 20.0, env: dict | None = None) -> None:
        self.xvfb = xvfb
        self.tmp = tmp
        self.shell = ShellRecorder(tmp / "shell")
        self.log = tmp / "events.jsonl"
        env = {**os.environ, **xvfb.env, "ANOVAX_ORB": "on", "ANOVAX_VOICE": "off", "ANOVAX_PLANNER": "offline",
               "ANOVAX_REMOTE": "0", "ANOVAX_MEMORY": str(tmp / "memory.json"), "ANOVAX_LOG": str(self.log),
               "ANOVAX_CONFIRM_TIMEOUT": str(confirm_timeout_s), "XDG_STATE_HOME": str(tmp / "state"),
               **self.shell.env, **(env or {})}
        self.proc = subprocess.Popen([sys.executable, "-m", "anovax"], env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        for stream in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=lambda s=stream: self.lines.extend(s), daemon=True).start()
        wait_for(lambda: any("the orb window is open" in line for line in self.lines) or self.proc.poll() is not None,
                 60.0, lambda: f"the orb to open: {self.lines}")
        assert self.proc.poll() is None, self.output()
        self.window = wait_for(self._orb_window, 20.0, "the orb's window")

    def output(self) -> str:
        return "".join(self.lines)

    def _orb_window(self) -> str | None:
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^AnovaX$"],
                               env={**os.environ, **self.xvfb.env}, capture_output=True, text=True)
        return found.stdout.split()[0] if found.stdout.split() else None

    def events(self, kind: str | None = None) -> list[dict]:
        return [e for e in logged_events(self.log) if kind is None or e["type"] == kind]

    def event(self, kind: str, timeout_s: float = 30.0) -> dict:
        return wait_for(lambda: (found := self.events(kind)) and found[-1], timeout_s,
                        lambda: f"{kind} in the event log: {[e['type'] for e in self.events()]}\n{self.output()}")

    def type_command(self, text: str) -> None:
        """Into the orb's text box, as a person would: bring the orb to the front and type."""
        # the pointer off every button: a button under it is drawn in its hover colour
        xdo(self.xvfb, "mousemove", "1", "1")
        xdo(self.xvfb, "windowactivate", self.window)
        wait_for(lambda: active_window(self.xvfb) == self.window, 10.0, "the orb to be active")
        xdo(self.xvfb, "type", "--delay", "5", text)
        xdo(self.xvfb, "key", "Return")

    def yes_button(self) -> tuple[int, int] | None:
        """The centre of the Yes button on the screen (found by its colour), or None while not shown."""
        geometry = xdo(self.xvfb, "getwindowgeometry", "--shell", self.window)
        box = {k: int(v) for k, v in (line.split("=") for line in geometry.split() if "=" in line) if k != "SCREEN"}
        (width, height), pixels = grab(self.xvfb.display, (box["X"], box["Y"], box["WIDTH"], box["HEIGHT"]))
        want = bytes(rgb(YES_BG))
        spots = [i // 3 for i in range(0, len(pixels), 3) if pixels[i:i + 3] == want]
        if len(spots) < 50:  # a button, not a stray pixel
            return None
        xs, ys = [s % width for s in spots], [s // width for s in spots]
        return box["X"] + (min(xs) + max(xs)) // 2, box["Y"] + (min(ys) + max(ys)) // 2

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # nothing runs: Ctrl-C closes the window
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.shell.close_terminals()  # the terminals this run opened


@pytest.fixture
def anovax(xorb, tmp_path):  # noqa: F811
    started: list[Anovax] = []

    def start(**options) -> Anovax:
        started.append(Anovax(xorb, tmp_path, **options))
        return started[-1]
    yield start
    for run in started:
        run.close()


def held(run: Anovax) -> dict:
    """Type the command; wait until the plan is held for a yes and the orb shows the question.

    The terminal is opened first (the question names its window); only the keys are held."""
    run.type_command(COMMAND)
    asked = run.event("CONFIRM_REQUESTED")
    assert asked["data"]["question"] == "Type `ls` and press Enter in Terminal?", asked
    assert "orb" in asked["data"]["frontends"], asked
    assert [s["tool"] for s in asked["data"]["steps"]] == ["type_text", "press_keys"], asked
    wait_for(run.yes_button, 10.0, "the Yes button on the screen")
    wait_for(run.shell.started, 30.0, "the shell to run in the terminal")
    return asked


def spawned(run: Anovax) -> list[str]:
    return [e["tool"] for e in run.events("AGENT_SPAWNED")]


def done(run: Anovax) -> dict:
    return run.event("COMMAND_DONE", 60.0)["data"]


def test_a_click_on_yes_in_the_orb_types_ls_into_the_terminal(anovax):
    run = anovax()
    held(run)
    assert run.shell.lines() == []  # nothing typed before the yes
    xdo(run.xvfb, "mousemove", *map(str, run.yes_button()), "click", "1")
    answered = run.event("CONFIRM_ANSWERED")["data"]
    assert (answered["answer"], answered["frontend"]) == ("yes", "orb"), answered
    wait_for(lambda: run.shell.lines() == ["ls"], 30.0,
             lambda: f"`ls` in the terminal: {run.shell.lines()!r}\n{[e['type'] for e in run.events()]}\n"
                     f"{done(run) if run.events('COMMAND_DONE') else ''}")
    result = done(run)
    assert result["status"] == "done", result
    assert spawned(run) == ["open_app", "type_text", "press_keys"]


def answer_no_with_esc(run: Anovax, question_id: str) -> None:
    """Esc in the orb; pressed again only if the first came before the orb took keys for the
    question (keys in its first half second are swallowed as meant for the window before)."""
    for _attempt in range(5):
        xdo(run.xvfb, "key", "Escape")
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            if any(e["data"]["question_id"] == question_id for e in run.events("CONFIRM_ANSWERED")):
                return
            time.sleep(0.02)
    raise AssertionError(f"Esc did not answer the question: {[e['type'] for e in run.events()]}")


def test_esc_in_the_orb_means_no_and_the_terminal_gets_nothing(anovax):
    run = anovax()
    asked = held(run)
    answer_no_with_esc(run, asked["data"]["question_id"])
    answered = run.event("CONFIRM_ANSWERED")["data"]
    assert (answered["answer"], answered["frontend"]) == ("no", "orb"), answered
    result = done(run)
    assert result["status"] == "needs_yes" and result["message"] == "You said no, so I didn't type into Terminal.", \
        result
    assert spawned(run) == ["open_app"] and not run.events("COMMAND_STOPPED")
    assert run.shell.lines() == []


def test_no_answer_in_time_is_a_no_and_the_terminal_gets_nothing(anovax):
    run = anovax(confirm_timeout_s=8)
    held(run)
    answered = run.event("CONFIRM_ANSWERED", 30.0)["data"]
    assert (answered["answer"], answered["frontend"]) == ("timeout", None), answered
    result = done(run)
    assert result["status"] == "needs_yes", result
    assert result["message"] == "I needed a yes to type into Terminal and got no answer in 8 seconds, so I stopped " \
                                "there.", result
    wait_for(lambda: run.yes_button() is None, 10.0, "the question to leave the orb")
    assert spawned(run) == ["open_app"]
    assert run.shell.lines() == []
