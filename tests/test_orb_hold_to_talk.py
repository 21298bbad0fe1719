"""The orb's Mute button as hold-to-talk, on Xvfb + openbox with xdotool's mouse: a click still
mutes and unmutes; held down it starts talking (the orb says "listening (key held)") and its
release ends it without muting."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from helpers import wait_for
from orb_harness import OrbProcess

pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")


@pytest.fixture(scope="module")
def orb(xvfb, tmp_path_factory):
    if not xvfb.wm:
        pytest.skip("openbox is not installed: the orb tests need a window manager")
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed")
    proc = OrbProcess(xvfb.env, tmp_path_factory.mktemp("orb"))
    proc.xvfb = xvfb
    yield proc
    assert proc.close() == 0, proc.stderr()


def xdo(orb, *args: str) -> None:
    done = subprocess.run(["xdotool", *args], env={**os.environ, **orb.xvfb.env}, capture_output=True, text=True,
                          timeout=20)
    assert done.returncode == 0, done.stderr


def mute_button(orb) -> tuple[str, str]:
    orb.ask("emit", events=[{"type": "VOICE_STATE", "command_id": "voice", "data": {"state": "listening"}}])
    wait_for(lambda: orb.ask("inspect")["mute_enabled"], what="Mute to come on")
    left, top, width, height = orb.ask("geometry")["buttons"]["mute"]
    return str(left + width // 2), str(top + height // 2)


def talk_calls(orb) -> list[list]:
    return [c for c in orb.ask("inspect")["calls"] if c[0] == "hold_to_talk"]


def test_a_click_still_mutes_and_starts_no_talking(orb):
    xdo(orb, "mousemove", *mute_button(orb))
    xdo(orb, "click", "1")
    wait_for(lambda: orb.ask("inspect")["muted"], what="muted")
    xdo(orb, "click", "1")
    wait_for(lambda: not orb.ask("inspect")["muted"], what="unmuted")
    shown = orb.ask("inspect")
    assert [c for c in shown["calls"] if c[0] == "set_muted"] == [["set_muted", True], ["set_muted", False]]
    assert talk_calls(orb) == []


def test_held_down_it_talks_and_the_release_is_no_click(orb):
    before = [c for c in orb.ask("inspect")["calls"] if c[0] == "set_muted"]
    xdo(orb, "mousemove", *mute_button(orb))
    xdo(orb, "mousedown", "1")
    shown = wait_for(lambda: (s := orb.ask("inspect"))["mute_label"] == "Talking" and s,
                     what=lambda: f"the button to say Talking; calls {talk_calls(orb)}")
    assert talk_calls(orb) == [["hold_to_talk", True]]
    assert shown["state"] == "awake" and shown["detail"] == "listening (key held)…"
    xdo(orb, "mouseup", "1")
    wait_for(lambda: talk_calls(orb) == [["hold_to_talk", True], ["hold_to_talk", False]], what="talking to end")
    shown = wait_for(lambda: (s := orb.ask("inspect"))["mute_label"] == "Mute" and s, what="Mute again")
    assert not shown["muted"]
    assert [c for c in shown["calls"] if c[0] == "set_muted"] == before, "the release of a hold is no click"
    # the next short click mutes as ever (the swallowed release does not eat it)
    xdo(orb, "click", "1")
    wait_for(lambda: orb.ask("inspect")["muted"], what="muted by the next click")
    xdo(orb, "click", "1")
    wait_for(lambda: not orb.ask("inspect")["muted"], what="unmuted")
