"""AnovaX started as a person starts it (``python run.py``, the orb window on the display, the
offline planner, no key, the microphone off, a state folder of its own), and a command typed into
the orb's text box with xdotool. What AnovaX did and said is read from its event log
(``events.jsonl``, anovax/eventlog.py): the reply (COMMAND_DONE) and every sentence spoken
(SPEAK_START), with the time each was written.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eval.realdesk import Desk, poll

ROOT = Path(__file__).resolve().parents[1]

#: a plan, a launch and the keys on two busy cores; a hang ends the run, not the suite
COMMAND_S = 90.0
START_S = 90.0
#: the orb's window title (anovax/orb/view.py)
ORB_TITLE = "^AnovaX$"
#: where the orb takes a click that is no button (its top strip, as tests/test_orb_typing_e2e.py):
#: a click anywhere gives its text box the keyboard
CLICK_AT = ("150", "95")


@dataclass(frozen=True)
class Said:
    """One command typed into the orb and AnovaX's answer to it."""

    text: str
    #: COMMAND_DONE's status label (done, failed, refused, ...) or "no answer"
    status: str
    #: the sentence AnovaX answered with
    message: str
    #: from Enter to COMMAND_DONE
    seconds: float
    #: wall-clock time of Enter (the event log's clock), for "said after this command"
    ts: float
    #: what went wrong on the way (the orb not active, the text not received as typed), or ""
    problem: str = ""


class Orb:
    """One AnovaX process with its orb on ``desk``; ``state`` holds its memory, log and XDG folders."""

    def __init__(self, desk: Desk, state: Path, env: dict[str, str]) -> None:
        self.desk, self.state = desk, state
        self.log = state / "events.jsonl"
        for sub in ("state", "pictures"):
            (state / sub).mkdir(parents=True, exist_ok=True)
        # no key: the offline planner, as a first-time user without one gets
        base = {k: v for k, v in os.environ.items()
                if not k.startswith("ANOVAX_") and k not in ("GEMINI_API_KEY", "GOOGLE_API_KEY")}
        self.env = {**base, **desk.env, **env, "ANOVAX_ORB": "on", "ANOVAX_VOICE": "off", "ANOVAX_PLANNER": "offline",
                    "ANOVAX_REMOTE": "0", "ANOVAX_MEMORY": str(state / "memory.json"), "ANOVAX_LOG": str(self.log),
                    "ANOVAX_PICTURES": str(state / "pictures"), "XDG_STATE_HOME": str(state / "state")}
        self.proc: subprocess.Popen[str] | None = None
        self.lines: list[str] = []
        self.window = ""

    # -- life ---------------------------------------------------------------------------------

    def start(self) -> str:
        """Start AnovaX and wait for its orb window; "" when it is up, else why not."""
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "run.py")], env=self.env, cwd=self.state,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        threading.Thread(target=self._read, args=(self.proc,), name="orb-output", daemon=True).start()
        opened = poll(lambda: self.proc.poll() is not None or any("the orb window is open" in ln for ln in self.lines),
                      START_S)
        if not opened or self.proc.poll() is not None:
            return f"AnovaX did not open its orb: {self.output()[-600:]}"
        found = poll(lambda: self.desk.titled(ORB_TITLE), 20.0)
        if not found:
            return "the orb's window did not show"
        self.window = found[0]
        return ""

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.lines.append(line)

    def output(self) -> str:
        return "".join(self.lines)

    def stop(self) -> None:
        """Ctrl-C, as in the terminal it was started from (closes the window), then wait."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    # -- the event log ------------------------------------------------------------------------

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        try:
            text = self.log.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        out = []
        for line in text.splitlines():
            try:
                event = json.loads(line)
            except json.JSONDecodeError:  # a line being written right now
                continue
            if kind is None or event.get("type") == kind:
                out.append(event)
        return out

    def spoken(self, after_ts: float) -> list[str]:
        """Every sentence AnovaX began to say after ``after_ts``."""
        return [e["data"]["text"] for e in self.events("SPEAK_START")
                if e.get("ts", 0) >= after_ts and isinstance(e.get("data"), dict) and "text" in e["data"]]

    # -- a command ----------------------------------------------------------------------------

    def say(self, text: str) -> Said:
        """Click the orb, type ``text`` into its box, press Enter, and wait for the answer."""
        done_before = len(self.events("COMMAND_DONE"))
        ts = time.time()
        self.desk.run("xdotool", "mousemove", "--window", self.window, *CLICK_AT, "click", "1")
        if not poll(lambda: self.desk.active() == self.window, 10.0):
            return Said(text, "no answer", "", 0.0, ts, f"the orb did not become active (active: {self.desk.active()})")
        self.desk.xdo("type", "--delay", "5", text)
        started = time.monotonic()
        self.desk.xdo("key", "Return")
        done = poll(lambda: (found := self.events("COMMAND_DONE"))[done_before:] and found[done_before], COMMAND_S)
        seconds = time.monotonic() - started
        if not done:
            asked = self.events("CONFIRM_REQUESTED")
            why = f"a question: {asked[-1]['data'].get('question')!r}" if asked else "no COMMAND_DONE"
            return Said(text, "no answer", "", seconds, ts, f"no answer within {COMMAND_S:.0f} s ({why})")
        data = done.get("data") or {}
        received = [e["data"]["text"] for e in self.events("COMMAND_RECEIVED")]
        # exactly what was typed reached AnovaX: no key went elsewhere, none was left in the box
        problem = "" if received and received[-1] == text else f"AnovaX received {received[-1:]!r}"
        return Said(text, str(data.get("status", "")), str(data.get("message", "")), seconds, ts, problem)
