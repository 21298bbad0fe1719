"""The orb's countdown chips: from the TIMER_* events (model, no Tk), and through the front door
(a timer typed into the orb's text box with xdotool on Xvfb, its chip counting down, its alert shown)."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess

import pytest

from anovax.events import Event, EventBus, EventType
from anovax.orb.countdown import TimerView
from anovax.orb.model import OrbModel

T0 = 1_000_000.0
_seq = itertools.count(1)


def ev(type_: EventType, ts: float = T0, command_id: str = "timers", **data) -> Event:
    return Event(type=type_, command_id=command_id, ts=ts, seq=next(_seq), data=data)


def timer_set(timer_id: str, name: str, due: float, ts: float = T0) -> Event:
    return ev(EventType.TIMER_SET, ts, timer_id=timer_id, name=name, due=due, kind="timer", label="")


def test_a_chip_per_pending_timer_soonest_first_counting_down():
    model = OrbModel()
    model.apply_all([timer_set("a", "5 minute timer", T0 + 300), timer_set("b", "tea timer", T0 + 120)])
    snap = model.snapshot(T0 + 0.5)
    assert [t.label for t in snap.timers] == ["◷ tea timer 2:00", "◷ 5 minute timer 5:00"]
    assert model.snapshot(T0 + 61).timers[0].label == "◷ tea timer 0:59"
    assert model.snapshot(T0 + 500).timers[0].left_s == 0.0  # due, until TIMER_FIRED takes it away


def test_the_chip_moves_once_a_second_without_animating_the_orb():
    model = OrbModel()
    model.apply(timer_set("a", "tea timer", T0 + 120))
    model.tick(T0)
    version = model.version
    assert not model.tick(T0 + 0.3) and model.version == version  # same second: nothing to redraw
    assert model.tick(T0 + 1.2) and model.version > version  # the next second: redraw once
    assert not model.animating(T0 + 1.2)  # an idle orb with a timer stays a still picture between seconds


def test_fired_and_cancelled_timers_go_and_never_come_back():
    model = OrbModel()
    model.apply_all([timer_set("a", "tea timer", T0 + 120), timer_set("b", "stretch reminder", T0 + 600)])
    model.apply(ev(EventType.TIMER_FIRED, T0 + 120, timer_id="a", message="Your tea timer is done."))
    model.apply(ev(EventType.TIMER_CANCELLED, T0 + 130, timer_id="b"))
    model.apply(timer_set("a", "tea timer", T0 + 120))  # a late duplicate (a replay) of a fired one
    assert model.snapshot(T0 + 131).timers == ()
    # the alert's words reach the reply line as what was said (the service says it with SPEAK_START)
    model.apply(ev(EventType.SPEAK_START, T0 + 120, text="Your tea timer is done."))
    assert model.snapshot(T0 + 131).response == "Your tea timer is done."


def test_malformed_timer_events_are_harmless():
    model = OrbModel()
    model.apply_all([ev(EventType.TIMER_SET), ev(EventType.TIMER_SET, timer_id="x", due="soon"),
                     ev(EventType.TIMER_FIRED, timer_id=""), Event(EventType.TIMER_SET, "timers", data=None)])
    assert model.snapshot(T0).timers == ()


def test_a_window_that_opens_late_replays_the_timers_from_the_ring():
    bus = EventBus()
    bus.publish(timer_set("a", "tea timer", T0 + 120))
    bus.publish(timer_set("b", "eggs timer", T0 + 400))
    bus.publish(ev(EventType.TIMER_CANCELLED, timer_id="b"))
    model = OrbModel()
    model.countdowns.replay(bus.recent(0))
    assert [t.name for t in model.snapshot(T0).timers] == ["tea timer"]
    bus.close()


def test_a_long_name_is_cut_never_the_time_left():
    label = TimerView("a", "remember to take the bread out of the oven reminder", 3599).label
    assert label == "◷ remember to take the bread… 59:59"
    assert len(label) <= 40  # one chip per row holds about 40 characters at the orb's 280 px


def test_an_alert_stays_apart_until_the_next_command_and_is_listed_in_the_history():
    model = OrbModel()
    model.apply(ev(EventType.COMMAND_RECEIVED, command_id="c1", text="search for pasta"))
    model.apply(ev(EventType.TIMER_FIRED, timer_id="r", name="check the oven reminder",
                   message="Reminder: check the oven."))
    # the search's reply comes after the alert: the reply line has it, the alert stays
    model.apply(ev(EventType.COMMAND_DONE, command_id="c1", text="search for pasta", status="done",
                   message="Searching for pasta."))
    snap = model.snapshot(T0)
    assert snap.alert == "Reminder: check the oven." and snap.response == "Searching for pasta."
    assert [(h.status, h.message) for h in snap.history] == [("alert", "Reminder: check the oven."),
                                                             ("done", "Searching for pasta.")]
    model.apply(ev(EventType.COMMAND_RECEIVED, command_id="c2", text="what time is it"))
    assert model.snapshot(T0).alert == ""  # the next command takes it away
    model.apply(ev(EventType.TIMER_FIRED, timer_id="t", name="tea timer", message="Your tea timer is done."))
    version = model.version
    model.dismiss_alert()  # a click
    assert model.snapshot(T0).alert == "" and model.version > version
    model.apply(ev(EventType.TIMER_FIRED, timer_id="t", name="tea timer", message="Your tea timer is done."))
    assert model.snapshot(T0).alert == ""  # a replayed duplicate is not shown twice


def test_a_late_subscriber_gets_the_ring_once_without_a_gap():
    bus = EventBus()
    bus.publish(ev(EventType.TIMER_FIRED, timer_id="r", message="While I was off, a reminder came due"))
    bus.publish(ev(EventType.SPEAK_START, text="x"))
    got: list[Event] = []
    bus.subscribe("late", got.append, replay=lambda e: e.type is EventType.TIMER_FIRED)
    bus.publish(ev(EventType.TIMER_FIRED, timer_id="s", message="Reminder: later."))
    assert bus.flush()
    assert [e.data["timer_id"] for e in got] == ["r", "s"]
    bus.close()


# --- through the front door: typed into the orb on Xvfb -------------------------------------------------------

@pytest.fixture()
def xorb(xvfb):
    pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")
    if not xvfb.wm:
        pytest.skip("openbox is not installed: the orb tests need a window manager")
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed")
    return xvfb


def test_a_timer_typed_into_the_orb_shows_a_chip_and_its_alert(xorb, tmp_path):
    from helpers import wait_for
    from orb_harness import OrbProcess

    # a state folder of its own: the timers file is not shared with other tests' assistants
    env = {**xorb.env, "XDG_STATE_HOME": str(tmp_path / "state")}
    orb = OrbProcess(env, tmp_path / "orb")
    try:
        geometry = orb.ask("geometry")
        width = geometry["window"][2]

        def xdo(*args: str) -> None:
            subprocess.run(["xdotool", *args], env={**os.environ, **xorb.env}, check=True, timeout=20)

        def command(text: str) -> None:
            box = orb.ask("geometry")["entry"]
            xdo("mousemove", str(box[0] + box[2] // 2), str(box[1] + box[3] // 2), "click", "1")
            xdo("type", "--delay", "5", text)
            wait_for(lambda: orb.ask("inspect")["entry"] == text, what=f"{text!r} in the box")
            xdo("key", "Return")

        command("set a tea timer for 10 minutes")
        shown = wait_for(lambda: (s := orb.ask("inspect"))["timer_chips"] and s, 30.0, what="a countdown chip")
        assert shown["timer_chips"][0].startswith("◷ tea timer 9:5") or shown["timer_chips"][0] == "◷ tea timer 10:00"
        wait_for(lambda: "Tea timer set for 10 minutes." in orb.ask("inspect")["response"], 30.0, what="the reply")

        command("set a timer for 2 seconds")
        wait_for(lambda: len(orb.ask("inspect")["timer_chips"]) == 2, 30.0, what="two chips")
        assert orb.ask("geometry")["window"][2] == width  # the chips fit the orb's width
        done = wait_for(lambda: (s := orb.ask("inspect"))["response"] == "Your 2 second timer is done." and s, 60.0,
                        what=lambda: f"the alert: {orb.ask('inspect')}")
        assert [c.split(" 1")[0].split(" 9")[0] for c in done["timer_chips"]] == ["◷ tea timer"]
        assert "speak" in done["kinds"]  # said through the (simulated) loudspeaker

        command("cancel the tea timer")
        wait_for(lambda: not orb.ask("inspect")["timer_chips"], 30.0, what="the chip to go")
    finally:
        assert orb.close() == 0, orb.stderr()


def test_a_reminder_missed_while_off_reaches_the_orb_after_a_restart(xorb, tmp_path):
    """The user's bug: with the orb, a reminder due while AnovaX was off fired at start-up, before
    the window subscribed, and was lost (gone from timers.json, never shown)."""
    import json
    import time

    from helpers import wait_for
    from orb_harness import OrbProcess

    from anovax.timers.model import Kind, Timer
    from anovax.timers.store import TimerStore

    state = tmp_path / "orb"
    now = time.time()
    TimerStore(state / "anovax" / "timers.json").save(
        [Timer("r1", Kind.REMINDER, "water the plants", due=now - 20, created=now - 35)])
    (state / "anovax" / "orb.json").write_text(json.dumps({"expanded": True}))  # the history is shown
    orb = OrbProcess({**xorb.env, "XDG_STATE_HOME": str(state)}, state)
    try:
        shown = wait_for(lambda: (s := orb.ask("inspect"))["alert"] and s, 30.0,
                         what=lambda: f"the missed reminder: {orb.ask('inspect')}")
        assert shown["alert"].startswith("While I was off, a reminder came due at ")
        assert shown["alert"].endswith(": water the plants.")
        history = wait_for(lambda: orb.ask("inspect")["history"], 30.0, what="the history")
        assert "water the plants" in history[0]
        assert json.loads((state / "anovax" / "timers.json").read_text())["timers"] == []
    finally:
        assert orb.close() == 0, orb.stderr()
