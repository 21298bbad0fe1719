"""Timers through the front door: typed at the console on a pseudo-terminal, fired, said and shown.

The console runs as a person starts it (``python -m anovax --simulate`` on a pty, offline
planner): the simulated desktop's loudspeaker records what is said, and the event log shows it
went through the speech output (SPEAK_START with the alert's text)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from helpers import logged_events
from pty_kit import Pty, cli_environment, screen

#: generous: the CLI starts in about a second, the timer is 2 s, a loaded CI machine is slow
DEADLINE_S = 60.0


def offline_env(tmp_path: Path) -> dict[str, str]:
    env = cli_environment(tmp_path, "http://127.0.0.1:9")
    env.pop("GEMINI_API_KEY", None)
    env["ANOVAX_PLANNER"] = "offline"
    return env


def spoken(log: Path, text: str, timeout_s: float = DEADLINE_S) -> dict:
    """The SPEAK_START event of ``text`` in the event log (waits for it, with a deadline)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for event in logged_events(log):
            if event["type"] == "SPEAK_START" and text in (event.get("data") or {}).get("text", ""):
                return event
        time.sleep(0.1)
    raise AssertionError(f"{text!r} was never said; the log has:\n" + (log.read_text() if log.exists() else ""))


def test_a_two_second_timer_set_at_the_console_fires_said_and_shown(tmp_path):
    term = Pty(offline_env(tmp_path))
    try:
        term.read_until(b"you> ", DEADLINE_S)
        term.type("set a timer for 2 seconds\n")
        term.read_until(b"Timer set for 2 seconds.", DEADLINE_S)
        term.read_until(b"you> ", DEADLINE_S)
        # nothing typed: the alert arrives on its own line, and the prompt comes back under it
        term.read_until(b"AnovaX: Your 2 second timer is done.", DEADLINE_S)
        term.read_until(b"you> ", DEADLINE_S)
        lines = screen(term.seen)  # as the terminal shows it: the prompt's line is cleared first
        at = lines.index("AnovaX: Your 2 second timer is done.")  # a line of its own
        assert lines[at + 1].startswith("you> ")  # and the prompt again below it
        event = spoken(tmp_path / "events.jsonl", "Your 2 second timer is done.")
        assert event["command_id"] == "timers"
        # the console still takes commands
        term.type("how long is left\n")
        term.read_until(b"You have no timers or reminders running.", DEADLINE_S)
        term.type("quit\n")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    types = [json.loads(line)["type"] for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert types.index("TIMER_SET") < types.index("TIMER_FIRED")


def test_a_timer_left_running_at_quit_fires_late_at_the_next_start(tmp_path):
    env = offline_env(tmp_path)
    term = Pty(env, "--planner", "offline")  # no display: simulated, timers saved
    try:
        term.read_until(b"you> ", DEADLINE_S)
        term.type("remind me in 5 seconds to stretch\n")
        term.read_until(b"I'll remind you at", DEADLINE_S)
        term.type("quit\n")  # at once: the reminder is due while AnovaX is off
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    saved = json.loads((tmp_path / "timers.json").read_text())  # beside the event log, in the state folder
    if not saved["timers"]:  # the machine was so slow that it fired before the quit: nothing to test
        return
    while time.time() <= saved["timers"][0]["due"]:  # AnovaX is off while it comes due
        time.sleep(0.2)
    term = Pty(env, "--planner", "offline")  # no display: simulated, timers saved
    try:
        term.read_until(b"While I was off, a reminder came due at", DEADLINE_S)
        term.read_until(b": stretch.", DEADLINE_S)
        term.type("quit\n")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    assert json.loads((tmp_path / "timers.json").read_text())["timers"] == []


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_one_shot_reminder_says_it_waits_and_a_missed_one_reaches_the_event_log(tmp_path, as_json):
    """``anovax --text`` exits at once: its reply says the reminder waits for the next start. The
    reminder missed meanwhile fires when the next process starts, before the event log (ANOVAX_LOG)
    subscribes, and must still be written there (it was lost: the log began at seq 5), and to
    stdout: as a line for a person, or with ``--json`` as an event line (it was dropped there)."""
    import subprocess
    import sys

    env = offline_env(tmp_path)
    run = [sys.executable, "-m", "anovax", "--text"]  # no display: a simulated desktop, timers saved
    first = subprocess.run([*run, "remind me in 1 second to water the plants"], env=env, capture_output=True,
                           text=True, timeout=DEADLINE_S)
    assert first.returncode == 0, first.stderr
    assert "I'll remind you at" in first.stdout and "only go off when you start AnovaX again" in first.stdout
    log = Path(env["ANOVAX_LOG"])
    log.unlink()
    state = next(tmp_path.rglob("timers.json"))
    while json.loads(state.read_text())["timers"][0]["due"] > time.time():  # due while AnovaX is off
        time.sleep(0.2)
    second = subprocess.run([*run, "what time is it", *(["--json"] if as_json else [])], env=env,
                            capture_output=True, text=True, timeout=DEADLINE_S)
    assert second.returncode == 0, second.stderr
    assert "only go off" not in second.stdout  # said only when a timer is set
    if as_json:
        lines = [json.loads(line) for line in second.stdout.splitlines()]  # every line is JSON
        alerts = [e["data"]["message"] for e in lines if e.get("type") == "TIMER_FIRED"]
        assert len(alerts) == 1 and alerts[0].startswith("While I was off, a reminder came due at"), second.stdout
    else:
        # printed too: a one-shot run took it off timers.json without a word (a first-time user's report)
        assert "AnovaX: While I was off, a reminder came due at" in second.stdout, second.stdout
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert events[0]["seq"] == 1  # nothing from before the log subscribed is missing
    fired = [e for e in events if e["type"] == "TIMER_FIRED"]
    assert len(fired) == 1 and fired[0]["data"]["message"].endswith(": water the plants.")
    assert json.loads(state.read_text())["timers"] == []


def test_cancel_that_right_after_a_timer_takes_it_back_and_stop_does_not(tmp_path):
    """"cancel that" found nothing running and said "Nothing to stop.", and the timer went off
    anyway (a first-time user's report). Right after the command that set it, it takes the timer
    back; "stop" there still only means "be quiet", and leaves the timer running."""
    term = Pty(offline_env(tmp_path))
    try:
        term.read_until(b"you> ", DEADLINE_S)
        term.type("set a timer for 5 minutes\n")
        term.read_until(b"Timer set for 5 minutes.", DEADLINE_S)
        term.type("no, cancel that\n")
        term.read_until(b"Cancelled the 5 minute timer you just set.", DEADLINE_S)
        term.type("how long is left\n")
        term.read_until(b"You have no timers or reminders running.", DEADLINE_S)
        term.type("set a timer for 10 minutes\n")
        term.read_until(b"Timer set for 10 minutes.", DEADLINE_S)
        term.type("stop\n")
        term.read_until(b"Nothing to stop.", DEADLINE_S)
        term.type("how long is left\n")
        term.read_until(b"Your 10 minute timer has", DEADLINE_S)
        term.type("cancel that\n")  # the last command was "how long is left": it set nothing
        term.read_until(b"Nothing to stop.", DEADLINE_S)
        term.type("how long is left\n")
        term.read_until(b"Your 10 minute timer has", DEADLINE_S)
        term.type("quit\n")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    cancelled = [e for e in logged_events(tmp_path / "events.jsonl") if e["type"] == "TIMER_CANCELLED"]
    assert [e["data"]["seconds"] for e in cancelled] == [300]


def test_a_simulated_run_leaves_no_timer_behind(tmp_path):
    """``--simulate`` rehearses: a first-time user's simulated ``--audio-file`` runs each left a real
    5 minute timer in timers.json, to go off at the next real start."""
    import subprocess
    import sys

    env = offline_env(tmp_path)
    done = subprocess.run([sys.executable, "-m", "anovax", "--simulate", "--text", "set a timer for 5 minutes"],
                          env=env, capture_output=True, text=True, timeout=DEADLINE_S)
    assert done.returncode == 0 and "Timer set for 5 minutes." in done.stdout, done.stdout + done.stderr
    assert "This is a simulation: the timer is not kept" in done.stdout and "only go off" not in done.stdout
    saved = list(tmp_path.rglob("timers.json"))
    assert all(json.loads(path.read_text())["timers"] == [] for path in saved), [p.read_text() for p in saved]


def test_which_timer_and_no_timer_are_answers_not_failures(tmp_path):
    # a first-time user: "Failed: I couldn't finish that: You have 2 running: … Say which one" read as a breakdown
    term = Pty(offline_env(tmp_path))
    try:
        term.read_until(b"you> ", DEADLINE_S)
        term.type("cancel the timer\n")
        term.read_until(b"you> ", DEADLINE_S)
        term.type("set a tea timer for 5 minutes\n")
        term.read_until(b"you> ", DEADLINE_S)
        term.type("set a timer for 9 minutes\n")
        term.read_until(b"you> ", DEADLINE_S)
        term.type("cancel the timer\n")
        term.read_until(b"Say which one", DEADLINE_S)
        term.read_until(b"you> ", DEADLINE_S)
        term.type("quit\n")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    shown = screen(term.seen)
    assert "AnovaX: You have no timers or reminders running." in shown, shown
    (which,) = [line for line in shown if "Say which one" in line]
    assert which.startswith("AnovaX: You have 2 running: "), which
    assert not [line for line in shown if line.startswith("Failed:")], shown
