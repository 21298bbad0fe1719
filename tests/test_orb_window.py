"""The real orb window on Xvfb + openbox, driven like a person would: xdotool types and clicks,
mss looks at the pixels.

The window runs in a harness process (tests/orb_harness.py: Tk must own its process's main
thread) with an Assistant on a slowed-down simulated desktop; the harness answers JSON
questions about what the window shows. Every wait polls with a deadline.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

from anovax.events import EventType
from anovax.orb.model import OrbState
from anovax.orb.style import CHIP_BG, STYLES, nearest_state, rgb
from helpers import wait_for
from orb_harness import OrbProcess, dominant_colour, grab, orb_colour

pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")
pytest.importorskip("mss")


@pytest.fixture(scope="module")
def xorb(xvfb):
    if not xvfb.wm:
        pytest.skip("openbox is not installed: the orb tests need a window manager")
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed")
    return xvfb


@pytest.fixture(scope="module")
def orb(xorb, tmp_path_factory):
    proc = OrbProcess(xorb.env, tmp_path_factory.mktemp("orb"))
    yield proc
    assert proc.close() == 0, proc.stderr()


def xdo(xvfb, *args: str) -> str:
    done = subprocess.run(["xdotool", *args], env={**os.environ, **xvfb.env}, capture_output=True, text=True,
                          timeout=20)
    assert done.returncode == 0, done.stderr
    return done.stdout


def centre(box):
    left, top, width, height = box
    return str(left + width // 2), str(top + height // 2)


def click(xvfb, box) -> None:
    # no --sync: xdotool's --sync waits 15 s when the pointer is already there
    xdo(xvfb, "mousemove", *centre(box), "click", "1")


def distance(a, b) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b))


def seen_state(xvfb, orb_geometry) -> OrbState:
    return nearest_state(orb_colour(xvfb.display, orb_geometry))


def wait_for_pixels(xvfb, orb_proc, state: OrbState, timeout_s: float = 5.0) -> tuple[int, int, int]:
    """Until the orb's core shows ``state``'s colour (nearly exactly, not merely nearest)."""
    geometry = orb_proc.ask("geometry")["orb"]
    want = rgb(STYLES[state].colour)
    seen = {}

    def shows() -> bool:
        seen["colour"] = orb_colour(xvfb.display, geometry)
        return distance(seen["colour"], want) < 30
    wait_for(shows, timeout_s, what=lambda: f"the orb to show {state.value} {want}, it shows {seen.get('colour')} "
                                            f"({nearest_state(seen['colour']).value})")
    return seen["colour"]


def reset(orb_proc, command_id: str) -> None:
    """Back to asleep: end whatever a test left running."""
    orb_proc.ask("emit", events=[
        {"type": "SPEAK_END", "command_id": command_id},
        {"type": "COMMAND_DONE", "command_id": command_id, "data": {"status": "done", "message": "ok", "text": ""}},
        {"type": "VOICE_STATE", "command_id": "voice", "data": {"state": "asleep"}},
    ])
    wait_for(lambda: orb_proc.ask("inspect")["state"] == "asleep", what="the orb to fall asleep")


STATE_EVENTS = {
    "asleep": [],
    "awake": [{"type": "VOICE_STATE", "command_id": "voice", "data": {"state": "awake", "detail": "hey anova"}}],
    "thinking": [{"type": "COMMAND_RECEIVED", "data": {"text": "write a poem"}}],
    "acting": [{"type": "COMMAND_RECEIVED", "data": {"text": "open notepad"}},
               {"type": "AGENT_SPAWNED", "agent_id": "a1", "tool": "open_app", "params": {"name": "notepad"}},
               {"type": "AGENT_STARTED", "agent_id": "a1", "tool": "open_app"}],
    "speaking": [{"type": "COMMAND_RECEIVED", "data": {"text": "what time is it"}},
                 {"type": "SPEAK_START", "data": {"text": "It's noon."}}],
    "refused": [{"type": "COMMAND_RECEIVED", "data": {"text": "rm -rf my files"}},
                {"type": "SAFETY_REFUSED", "error": "I won't delete files.", "data": {"rule": "command"}}],
    "error": [{"type": "COMMAND_RECEIVED", "data": {"text": "open the door"}},
              {"type": "COMMAND_DONE", "data": {"status": "failed", "message": "I couldn't finish that.",
                                                "text": "open the door"}}],
}


@pytest.mark.parametrize("state", list(STATE_EVENTS))
def test_each_state_renders_in_its_colour(xorb, orb, state):
    command_id = f"state-{state}"
    reset(orb, command_id)
    orb.ask("emit", events=[{**e, "command_id": e.get("command_id", command_id)} if e.get("command_id") != "voice"
                            else e for e in STATE_EVENTS[state]])
    wait_for(lambda: orb.ask("inspect")["state"] == state, what=f"the model to say {state}")
    colour = wait_for_pixels(xorb, orb, OrbState(state))
    assert nearest_state(colour) is OrbState(state)
    shown = orb.ask("inspect")
    assert shown["state_label"] == STYLES[OrbState(state)].label
    reset(orb, command_id)


def test_idle_orb_is_a_still_picture(xorb, orb):
    """Asleep with no chips: no frames drawn, only the queue polled."""
    reset(orb, "still")
    wait_for(lambda: not orb.ask("inspect")["chips"], 15.0, what="the chips to fade")
    before = orb.ask("inspect")["stats"]
    # ten more polls of the queue, however long a loaded machine takes for them (how much CPU
    # idling costs is a figure for `make bench`: bench_orb)
    after = wait_for(lambda: (now := orb.ask("inspect")["stats"])["ticks"] >= before["ticks"] + 10 and now,
                     30.0, what="ten idle ticks")
    assert after["redraws"] - before["redraws"] <= 1


def test_typed_command_runs_on_the_desktop_with_chips_that_come_and_go(xorb, orb):
    reset(orb, "typed")
    geometry = orb.ask("geometry")
    click(xorb, geometry["entry"])  # openbox focuses on click
    xdo(xorb, "type", "--delay", "5", "open notepad and type hello world")
    wait_for(lambda: orb.ask("inspect")["entry"] == "open notepad and type hello world", what="the text in the box")
    xdo(xorb, "key", "Return")

    shown = wait_for(lambda: (s := orb.ask("inspect"))["chips"] and s, what="a chip")
    assert shown["entry"] == ""
    assert shown["chips"][0].startswith("open_app notepad · ")
    wait_for_pixels(xorb, orb, OrbState.ACTING)
    chip_colours = [dominant_colour(grab(xorb.display, box)[1]) for box in orb.ask("geometry")["chips"].values()]
    assert chip_colours and all(any(distance(colour, rgb(CHIP_BG[s])) < 30 for s in ("waiting", "running", "done"))
                                for colour in chip_colours), chip_colours

    # the typing agent follows the launch; then both fade out
    wait_for(lambda: any(c.startswith("type_text hello world") for c in orb.ask("inspect")["chips"]), 10.0,
             what="the typing chip")
    final = wait_for(lambda: (s := orb.ask("inspect"))["typed"] == "hello world" and not s["chips"] and s, 15.0,
                     what=lambda: f"the chips to clear: {orb.ask('inspect')}")
    assert final["kinds"] == ["launch", "type", "type", "speak"]
    assert final["response"] == "Opening Notepad. Typing into Notepad: hello world."

    # Up recalls the command, Down goes back to an empty box
    xdo(xorb, "key", "Up")
    wait_for(lambda: orb.ask("inspect")["entry"] == "open notepad and type hello world", what="Up to recall")
    xdo(xorb, "key", "Down")
    wait_for(lambda: orb.ask("inspect")["entry"] == "", what="Down to clear")

    # expanded, the history shows the command and how it ended
    click(xorb, geometry["buttons"]["size"])
    shown = wait_for(lambda: (s := orb.ask("inspect"))["history_shown"] and s, what="the expanded orb")
    assert shown["expanded"]
    assert shown["history"][0].startswith("open notepad and type hello world — Opening Notepad.")
    click(xorb, orb.ask("geometry")["buttons"]["size"])
    wait_for(lambda: not orb.ask("inspect")["history_shown"], what="the compact orb")


def test_a_refused_command_from_the_box(xorb, orb):
    reset(orb, "refusal")
    orb.ask("submit", text="open a terminal and run rm -rf ~")
    wait_for_pixels(xorb, orb, OrbState.REFUSED)
    shown = wait_for(lambda: (s := orb.ask("inspect"))["response"].startswith("Sorry") and s, what="the refusal")
    assert shown["state"] == "refused" and "rm" not in orb.ask("inspect")["kinds"]


def test_failed_chip_is_red_and_says_why_on_hover(xorb, orb):
    reset(orb, "fail")
    orb.ask("emit", events=[
        {"type": "COMMAND_RECEIVED", "command_id": "fail", "data": {"text": "type into notepad"}},
        {"type": "AGENT_SPAWNED", "command_id": "fail", "agent_id": "fail.1", "tool": "type_text",
         "params": {"text": "hello"}},
        {"type": "AGENT_FAILED", "command_id": "fail", "agent_id": "fail.1", "tool": "type_text",
         "error": "Focus moved to AnovaX thief."}])
    box = wait_for(lambda: orb.ask("geometry")["chips"].get("fail.1"), what="the failed chip")
    colour = dominant_colour(grab(xorb.display, box)[1])
    assert distance(colour, rgb(CHIP_BG["failed"])) < 30, colour
    xdo(xorb, "mousemove", *centre(box))
    tip = wait_for(lambda: orb.ask("inspect")["tooltips"].get("fail.1"), what="the tooltip")
    assert tip == "type_text failed: Focus moved to AnovaX thief."
    xdo(xorb, "mousemove", "5", "5")
    reset(orb, "fail")


def test_controls_call_the_callables(xorb, orb):
    reset(orb, "controls")
    # Mute is offered once a listener says it has a microphone
    orb.ask("emit", events=[{"type": "VOICE_STATE", "command_id": "voice", "data": {"state": "listening"}}])
    wait_for(lambda: orb.ask("inspect")["mute_enabled"], what="Mute to come on")
    buttons = orb.ask("geometry")["buttons"]
    click(xorb, buttons["mute"])
    shown = wait_for(lambda: (s := orb.ask("inspect"))["muted"] and s, what="muted")
    assert ["set_muted", True] in shown["calls"] and "muted" in shown["detail"]
    click(xorb, buttons["mute"])
    wait_for(lambda: not orb.ask("inspect")["muted"], what="unmuted")
    click(xorb, buttons["stop"])
    wait_for(lambda: ["stop"] in orb.ask("inspect")["calls"], what="stop to be called")

    click(xorb, buttons["phone"])
    shown = wait_for(lambda: (s := orb.ask("inspect"))["remote"] and s, what="the remote panel")
    assert "http://192.0.2.10:8765" in shown["remote_text"]
    qr = wait_for(lambda: orb.ask("geometry")["qr"], what="the QR code")
    size, pixels = grab(xorb.display, qr)
    colours = {pixels[i:i + 3] for i in range(0, len(pixels), 3)}
    assert b"\x00\x00\x00" in colours and b"\xff\xff\xff" in colours  # black modules on white
    viewers = getattr(EventType, "REMOTE_VIEWERS", None)
    if viewers is not None:
        orb.ask("emit", events=[{"type": viewers.value, "command_id": "remote", "data": {"viewers": 2}}])
        wait_for(lambda: orb.ask("inspect")["viewers"] == "● 2 phones watching", what="the watching indicator")
        orb.ask("emit", events=[{"type": viewers.value, "command_id": "remote", "data": {"viewers": 0}}])
    paired = getattr(EventType, "REMOTE_PAIRED", None)
    if paired is not None:  # the code on screen is spent: the window shows a fresh one
        url = shown["remote_url"]
        orb.ask("emit", events=[{"type": paired.value, "command_id": "remote", "data": {"ip": "192.0.2.77"}}])
        shown = wait_for(lambda: (s := orb.ask("inspect"))["remote_url"] != url and s, what="a fresh pairing code")
        assert shown["viewers"] == "phone paired: 192.0.2.77"
    click(xorb, orb.ask("geometry")["buttons"]["phone"])
    wait_for(lambda: not orb.ask("inspect")["remote"], what="the remote panel to go")
    assert ["remote_toggle", True] in orb.ask("inspect")["calls"]


def test_a_burst_of_1000_events_keeps_the_window_responsive(xorb, orb):
    reset(orb, "burst")
    for seconds in (1.0, 0.0):  # spread over a second, then all at once
        report = orb.ask("burst", n=1000, seconds=seconds, timeout_s=30.0)
        assert report["events"] >= 1000  # all of them folded in (plus any stragglers from before)
        # an after() callback scheduled during the burst ran at most this late
        assert report["max_late_ms"] <= 200, report
        assert report["redraws"] < 200, report  # drained per tick and drawn once, not once per event
        print(f"burst over {seconds} s: {report}")
    reset(orb, "burst")  # the 1,000th event spawned an agent that never ends: its command does
    wait_for(lambda: not orb.ask("inspect")["chips"], 15.0, what="the flood's chips to fade")


def test_disabled_controls_say_why(xorb, tmp_path):
    proc = OrbProcess(xorb.env, tmp_path, fake_controls=False)
    try:
        buttons = proc.ask("geometry")["buttons"]
        xdo(xorb, "mousemove", *centre(buttons["mute"]))
        tip = wait_for(lambda: proc.ask("inspect")["tooltips"].get("mute"), what="the mute tooltip")
        assert tip.startswith("Off: voice input is off")
        shown = proc.ask("inspect")
        assert shown["mute_label"] == "No mic" and not shown["mute_enabled"]
        assert shown["state_label"] == "Ready" and shown["detail"] == "Type a command"  # never "Asleep"
        click(xorb, buttons["mute"])  # greyed out: nothing happens
        xdo(xorb, "mousemove", *centre(buttons["phone"]))
        tip = wait_for(lambda: proc.ask("inspect")["tooltips"].get("phone"), what="the phone tooltip")
        assert tip == "Off: the phone remote is not available"
        assert not proc.ask("inspect")["muted"]
        xdo(xorb, "mousemove", "5", "5")
    finally:
        assert proc.close() == 0


def test_esc_in_the_orb_stops_the_running_command_and_shows_it_neutral(xorb, tmp_path):
    # real controls: Esc is the Assistant's own stop for the orb; typing takes 5 s a chunk
    proc = OrbProcess(xorb.env, tmp_path, fake_controls=False, delays={"type": 5.0})
    try:
        geometry = proc.ask("geometry")
        click(xorb, geometry["entry"])
        xdo(xorb, "type", "--delay", "5", "type hello world")
        wait_for(lambda: proc.ask("inspect")["entry"] == "type hello world", what="the text in the box")
        xdo(xorb, "key", "Return")
        wait_for(lambda: any(c.startswith("type_text") and "running" in c for c in proc.ask("inspect")["chips"]),
                 10.0, what=lambda: f"the typing chip to run: {proc.ask('inspect')['chips']}")
        xdo(xorb, "key", "Escape")
        shown = wait_for(lambda: (s := proc.ask("inspect"))["response"] == "Stopped." and s, 5.0,
                         what=lambda: f"the stop: {proc.ask('inspect')}")
        assert shown["state"] != "error"  # a stop is not shown as a failure
        assert len(shown["typed"]) < len("hello world")
    finally:
        assert proc.close() == 0


def test_position_and_pin_are_remembered(xorb, tmp_path):
    first = OrbProcess(xorb.env, tmp_path)
    try:
        xdo(xorb, "windowmove", "--sync", first.ready["xid"], "140", "90")
        wait_for(lambda: first.ask("geometry")["frame"][:2] != first.ready["frame"][:2], what="the move")
        moved = first.ask("geometry")["frame"]
        click(xorb, first.ask("geometry")["buttons"]["pin"])
        wait_for(lambda: not first.ask("inspect")["on_top"], what="unpinned")
    finally:
        assert first.close() == 0
    saved = json.loads((tmp_path / "anovax" / "orb.json").read_text())
    assert [saved["x"], saved["y"]] == moved and saved["on_top"] is False

    second = OrbProcess(xorb.env, tmp_path)
    try:
        again = second.ask("geometry")["frame"]
        assert abs(again[0] - moved[0]) <= 2 and abs(again[1] - moved[1]) <= 2, (again, moved)
        assert not second.ask("inspect")["on_top"]
    finally:
        assert second.close() == 0

    (tmp_path / "anovax" / "orb.json").write_text("{not json")
    third = OrbProcess(xorb.env, tmp_path)  # a corrupt file: placed by the window manager, pinned
    try:
        assert third.ask("inspect")["on_top"]
    finally:
        assert third.close() == 0


def test_with_no_microphone_mute_is_off_and_says_why_and_the_hint_is_typing(xorb, tmp_path):
    # a first-time user without a microphone was offered Mute, "say hey anova" and "Asleep"
    orb = OrbProcess(xorb.env, tmp_path)
    try:
        check_no_microphone(xorb, orb)
    finally:
        assert orb.close() == 0


def check_no_microphone(xorb, orb):
    orb.ask("emit", events=[{"type": "VOICE_STATE", "command_id": "voice",
                             "data": {"state": "unavailable", "detail": "no microphone was found"}}])
    shown = wait_for(lambda: (s := orb.ask("inspect"))["mute_label"] == "No mic" and s, what="the No mic button")
    assert not shown["mute_enabled"]
    assert shown["state_label"] == "Ready" and shown["detail"] == "Type a command"
    mute = orb.ask("geometry")["buttons"]["mute"]
    xdo(xorb, "mousemove", *centre(mute))
    tip = wait_for(lambda: orb.ask("inspect")["tooltips"].get("mute"), what="the mute tooltip")
    assert tip == "Off: no microphone was found"
    calls = len(orb.ask("inspect")["calls"])
    click(xorb, mute)
    orb.ask("inspect")  # a round trip through the Tk thread: the click has been handled
    assert len(orb.ask("inspect")["calls"]) == calls  # disabled: the control was not called
    xdo(xorb, "mousemove", "5", "5")
    # a listener that has a microphone: Mute works and the hint says what to say
    orb.ask("emit", events=[{"type": "VOICE_STATE", "command_id": "voice", "data": {"state": "listening"}}])
    shown = wait_for(lambda: (s := orb.ask("inspect"))["mute_enabled"] and s, what="Mute to come on")
    assert shown["mute_label"] == "Mute" and shown["detail"] == "Say 'hey anova' or type"
    assert shown["state_label"] == "Ready"
    paired = getattr(EventType, "REMOTE_PAIRED", None)
    if paired is not None:  # a paired phone is one more way in
        orb.ask("emit", events=[{"type": paired.value, "command_id": "remote", "data": {"ip": "192.0.2.9"}}])
        wait_for(lambda: orb.ask("inspect")["detail"] == "Say 'hey anova', type, or use your phone",
                 what="the phone in the hint")


def test_a_long_reply_scrolls_inside_a_window_that_keeps_its_size(xorb, orb):
    reset(orb, "long")
    before = orb.ask("geometry")
    reply = " ".join(f"word{i:03d}" for i in range(64))[:500]
    assert len(reply) == 500
    orb.ask("emit", events=[{"type": "COMMAND_RECEIVED", "command_id": "long", "data": {"text": "tell me more"}},
                            {"type": "COMMAND_DONE", "command_id": "long",
                             "data": {"status": "done", "message": reply, "text": "tell me more"}}])
    shown = wait_for(lambda: (s := orb.ask("inspect"))["response"] == reply and s, what="the long reply")
    after = orb.ask("geometry")
    assert after["window"][2:] == before["window"][2:], (before["window"], after["window"])
    assert after["entry"] == before["entry"]  # the text box stays where it was, whole
    assert wait_for(lambda: orb.ask("inspect")["reply_scrolls"], what="the reply's scroll bar")
    assert shown["response"].endswith(reply[-20:])  # all of it is there to scroll to, nothing cut


def test_the_first_start_opens_near_the_bottom_right_corner(xorb, tmp_path):
    proc = OrbProcess(xorb.env, tmp_path)
    try:
        geometry = proc.ask("geometry")
        left, top, width, height = geometry["window"]
        screen_w, screen_h = geometry["screen"]
        # near the corner, whole: not dead centre, not cut off
        assert 0 < screen_w - (left + width) <= 60 and 0 < screen_h - (top + height) <= 120, geometry
    finally:
        assert proc.close() == 0


def drag(xvfb, start, by) -> None:
    """Press on ``start``, move in steps by ``by`` and let go, as a hand on a mouse does."""
    x, y = int(start[0]), int(start[1])
    xdo(xvfb, "mousemove", str(x), str(y))
    xdo(xvfb, "mousedown", "1")
    for step in range(1, 5):
        xdo(xvfb, "mousemove", str(x + by[0] * step // 4), str(y + by[1] * step // 4))
    xdo(xvfb, "mouseup", "1")


def test_dragging_the_body_moves_the_orb_and_the_next_start_opens_there(xorb, tmp_path):
    first = OrbProcess(xorb.env, tmp_path)
    try:
        before = first.ask("geometry")
        # the orb itself, not the title bar: the body is a handle
        orb_x, orb_y, _r = before["orb"]
        drag(xorb, (orb_x, orb_y), (-300, -200))
        moved = wait_for(lambda: (g := first.ask("geometry"))["drags"] == 1 and g, what="the drag to end")
        dx, dy = moved["frame"][0] - before["frame"][0], moved["frame"][1] - before["frame"][1]
        assert abs(dx + 300) <= 4 and abs(dy + 200) <= 4, (before["frame"], moved["frame"])
        # the controls still work after it: the text box takes typing, a button its click
        click(xorb, moved["entry"])
        xdo(xorb, "type", "--delay", "5", "hello")
        wait_for(lambda: first.ask("inspect")["entry"] == "hello", what="typing in the box")
        click(xorb, moved["buttons"]["size"])
        wait_for(lambda: first.ask("inspect")["expanded"], what="More to expand the orb")
        click(xorb, first.ask("geometry")["buttons"]["size"])
        wait_for(lambda: not first.ask("inspect")["expanded"], what="Less")
        assert first.ask("geometry")["drags"] == 1  # clicks on controls are no drags
        place = first.ask("geometry")["frame"]
    finally:
        assert first.close() == 0
    second = OrbProcess(xorb.env, tmp_path)
    try:
        again = second.ask("geometry")["frame"]
        assert abs(again[0] - place[0]) <= 2 and abs(again[1] - place[1]) <= 2, (again, place)
    finally:
        assert second.close() == 0


def test_a_place_off_a_smaller_screen_is_brought_back_on_it(xorb, tmp_path):
    (tmp_path / "anovax").mkdir()
    (tmp_path / "anovax" / "orb.json").write_text(json.dumps({"x": 3000, "y": 2000, "expanded": False,
                                                               "on_top": True}))
    proc = OrbProcess(xorb.env, tmp_path)
    try:
        geometry = proc.ask("geometry")
        left, top, width, height = geometry["window"]
        screen_w, screen_h = geometry["screen"]
        assert 0 <= left and left + width <= screen_w and 0 <= top and top + height <= screen_h, geometry
    finally:
        assert proc.close() == 0


RUN_ORB = """
import os, signal, sys, threading, time
from pathlib import Path
from anovax.app import build_assistant
from anovax.orb.controls import OrbControls
from anovax.orb.run import OrbUnavailable, run_orb
from anovax.settings import Settings

state = Path(sys.argv[1])
assistant = build_assistant(Settings(planner="offline", memory_path=state / "memory.json", log_path=None))
controls = OrbControls.for_assistant(assistant)
if sys.argv[2] == "interrupt-busy":
    # Ctrl-C while a command runs stops the command and keeps the window; a second one closes it
    from anovax.desktop.simulated import SimulatedDesktop
    assistant.close()
    assistant = build_assistant(Settings(planner="offline", memory_path=state / "memory.json", log_path=None),
                          desktop=SimulatedDesktop(delays={"type": 30.0}))
    controls = OrbControls.for_assistant(assistant)

    def script():
        future = assistant.submit("type hello world", source="orb")
        while not assistant.busy:
            time.sleep(0.01)
        time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGINT)
        print("first:", future.result(timeout=20).status.label, flush=True)
        time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=script, daemon=True).start()
elif sys.argv[2] == "interrupt-early":
    # Ctrl-C while Tk starts and the window is built (seconds on a busy machine): kept, then acted on
    import tkinter
    start_tk = tkinter.Tk.__init__

    def interrupted_start(self, *args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.2)  # the handler runs in this thread between bytecodes: it has run by now
        start_tk(self, *args, **kwargs)

    tkinter.Tk.__init__ = interrupted_start
elif sys.argv[2] == "interrupt":
    # Ctrl-C in the terminal: Tk would swallow a KeyboardInterrupt, so run_orb closes the window instead
    threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    code = run_orb(assistant, controls, prefs_path=state / "orb.json")
except OrbUnavailable as exc:
    print("unavailable:", exc)
    code = 9
assistant.close()
print("returned", code, flush=True)
"""


def run_orb_process(env, state, how):
    return subprocess.run([sys.executable, "-c", RUN_ORB, str(state), how], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=60)


def test_run_orb_returns_when_interrupted_and_saves_its_place(xorb, tmp_path):
    from anovax.orb.run import orb_unavailable

    assert orb_unavailable(xorb.env) is None
    done = run_orb_process(xorb.env, tmp_path, "interrupt")
    assert done.returncode == 0 and done.stdout.strip().endswith("returned 0"), done.stderr
    assert json.loads((tmp_path / "orb.json").read_text())["on_top"] is True


def test_ctrl_c_while_the_orb_is_being_built_closes_it_once_built(xorb, tmp_path):
    done = run_orb_process(xorb.env, tmp_path, "interrupt-early")
    assert done.returncode == 0 and done.stdout.strip().endswith("returned 0"), done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr


def test_ctrl_c_with_the_orb_open_stops_the_command_then_closes_the_window(xorb, tmp_path):
    done = run_orb_process(xorb.env, tmp_path, "interrupt-busy")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[-2:] == ["first: stopped", "returned 0"], done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "Exception in Tkinter" not in done.stderr, done.stderr


def test_run_orb_without_a_display_says_why(tmp_path):
    done = run_orb_process({"DISPLAY": ":12345"}, tmp_path, "plain")
    assert "unavailable: cannot open a window" in done.stdout, done.stderr
    from anovax.orb.run import orb_unavailable

    assert orb_unavailable({"DISPLAY": ":12345"}).startswith("cannot open a window")


def test_anovax_with_the_orb_says_in_the_terminal_where_commands_go_and_ctrl_c_closes_it(xorb, tmp_path):
    # the terminal stops reading commands once the window is up: a person who typed there was
    # met with silence, so the CLI says so once the window exists (not before: it may not open)
    env = {**os.environ, **xorb.env, "ANOVAX_ORB": "on", "ANOVAX_VOICE": "off", "ANOVAX_PLANNER": "offline",
           "ANOVAX_REMOTE": "0", "ANOVAX_MEMORY": str(tmp_path / "memory.json"), "ANOVAX_LOG": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "anovax"], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stderr), daemon=True)
    reader.start()
    try:
        wait_for(lambda: any("the orb window is open: type commands there" in line for line in lines), 30.0,
                 lambda: f"the orb's notice on stderr, got {lines!r}")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(10)
    assert "Traceback" not in "".join(lines), lines


def test_quit_typed_in_the_terminal_closes_the_orb_and_other_lines_say_where_commands_go(xorb, tmp_path):
    # the console's help says "quit" leaves; with the orb open the terminal read nothing, and a
    # first-time user's "quit" there did nothing at all
    from pty_kit import Pty

    env = {**os.environ, **xorb.env, "ANOVAX_ORB": "on", "ANOVAX_VOICE": "off", "ANOVAX_PLANNER": "offline",
           "ANOVAX_REMOTE": "0", "ANOVAX_MEMORY": str(tmp_path / "memory.json"), "ANOVAX_LOG": str(tmp_path)}
    term = Pty(env, "--simulate")
    try:
        term.read_until(b"the orb window is open", 60.0)
        term.type("open notepad\n")
        term.read_until(b"commands go in the orb window now; 'quit' here closes it.", 30.0)
        term.type("quit\n")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
            term.proc.wait()
    assert b"Traceback" not in term.seen, term.seen.decode(errors="replace")
