"""The global talk key: on Xvfb, xdotool's keydown/keyup (XTEST, as a keyboard) reach the RECORD
watcher, autorepeat is one hold, and ``VoiceInput.hold_to_talk`` turns it into the gate's hold and
the "talking" state. Where it cannot work it is a NullTalkKey with the reason, never an exception."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time

import pytest
from helpers import wait_for

from anovax.events import EventBus, EventType
from anovax.voice.gate import WakeGate
from anovax.voice.listener import VoiceInput, VoiceState
from anovax.voice.talkkey import HeldKey, NullTalkKey, start_talk_key

X11 = {"WAYLAND_DISPLAY": "", "XDG_SESSION_TYPE": "x11"}


@pytest.fixture
def x11(xvfb):
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed")
    return xvfb


def xdo(xvfb, *args: str) -> None:
    done = subprocess.run(["xdotool", *args], env={**os.environ, **xvfb.env}, capture_output=True, text=True,
                          timeout=20)
    assert done.returncode == 0, done.stderr


def changes_of(key_name: str, xvfb) -> tuple[object, list[bool]]:
    seen: list[bool] = []
    key = start_talk_key(key_name, seen.append, env={**xvfb.env, **X11}, platform="linux")
    assert not key.reason, key.reason
    return key, seen


def test_keydown_and_keyup_are_one_hold(x11):
    key, seen = changes_of("Control_R", x11)
    try:
        xdo(x11, "keydown", "Control_R")
        wait_for(lambda: seen == [True], what=lambda: f"the press; saw {seen}")
        xdo(x11, "key", "a")  # other keys are not the talk key
        xdo(x11, "keyup", "Control_R")
        wait_for(lambda: seen == [True, False], what=lambda: f"the release; saw {seen}")
        xdo(x11, "key", "Control_L")  # the other Ctrl is not it either
    finally:
        key.close()
    assert seen == [True, False]
    assert not any(t.name.startswith("voice-talk-key") for t in threading.enumerate())


def test_an_autorepeating_key_is_one_hold(x11):
    key, seen = changes_of("F12", x11)
    try:
        # held past the server's autorepeat delay (660 ms), so repeated presses come meanwhile
        xdo(x11, "keydown", "F12", "sleep", "1.2", "keyup", "F12")
        wait_for(lambda: seen == [True, False], what=lambda: f"the release; saw {seen}")
    finally:
        key.close()
    assert seen == [True, False]


def test_closing_while_held_lets_go(x11):
    key, seen = changes_of("Control_R", x11)
    try:
        xdo(x11, "keydown", "Control_R")
        wait_for(lambda: seen == [True], what=lambda: f"the press; saw {seen}")
        key.close()
        assert seen == [True, False]
    finally:
        xdo(x11, "keyup", "Control_R")


def test_a_release_and_press_together_is_autorepeat_not_a_release():
    seen: list[bool] = []
    held = HeldKey(seen.append, settle_s=5.0)  # long: the press surely comes before the timer
    held.press()
    held.press()  # a repeated press
    held.release()
    held.press()  # release+press: X's autorepeat
    assert seen == [True] and held.held
    held = HeldKey(seen.append, settle_s=0.01)
    seen.clear()
    held.press()
    held.release()
    wait_for(lambda: seen == [True, False], what=lambda: f"the release; saw {seen}")
    held.close()
    assert seen == [True, False]


@pytest.mark.parametrize("env, platform, words, quiet", [
    ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, "linux", "Wayland", False),
    ({"DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland"}, "linux", "Wayland", False),
    ({}, "linux", "no X display", True),
    ({}, "win32", "Windows", True),
    ({}, "darwin", "macOS", True),
])
def test_where_it_cannot_work_it_says_why(env, platform, words, quiet):
    key = start_talk_key("Control_R", print, env=env, platform=platform)
    assert isinstance(key, NullTalkKey) and words in key.reason and key.quiet is quiet
    key.close()


def test_off_unknown_keys_and_dead_displays_are_reasons_not_crashes(x11, tmp_path):
    assert start_talk_key("off", print, env=x11.env, platform="linux").reason.startswith("turned off")
    bad = start_talk_key("Nope_Key", print, env={**x11.env, **X11}, platform="linux")
    assert "not an X key name" in bad.reason and not bad.quiet
    gone = start_talk_key("Control_R", print, env={"DISPLAY": ":9999", "XAUTHORITY": str(tmp_path / "none")},
                          platform="linux")
    assert "cannot be watched" in gone.reason


def test_the_key_drives_the_listener_and_the_gate(x11):
    bus = EventBus()
    gate = WakeGate()
    voice = VoiceInput(on_speech=print, stop_speaking=lambda: None, recognizer_factory=lambda: None, gate=gate,
                       bus=bus)
    voice.state = VoiceState("listening", 'say "hey anova"')  # as after start-up (no microphone here)
    voice.talk_key = start_talk_key("Control_R", voice.hold_to_talk, env={**x11.env, **X11}, platform="linux")
    try:
        xdo(x11, "keydown", "Control_R")
        wait_for(lambda: gate.holds.held and voice.state.state == "talking", what="talking")
        now = time.monotonic()
        assert gate.decide("open the calculator", now - 1, now).action == "command"
        xdo(x11, "keyup", "Control_R")
        wait_for(lambda: not gate.holds.held, what="the release")
        assert voice.state.state == "listening"
    finally:
        voice.close()  # closes the key too
    bus.flush()
    states = [e.data["state"] for e in bus.recent() if e.type is EventType.VOICE_STATE]
    assert states == ["talking", "listening"]
    assert [e.data["detail"] for e in bus.recent() if e.type is EventType.VOICE_STATE][0] == "listening (key held)"
    assert not any(t.name.startswith("voice-talk-key") for t in threading.enumerate())


def test_the_talk_key_setting(tmp_path):
    from anovax.errors import ConfigError
    from anovax.settings import load_settings

    assert load_settings(env={}).talk_key == "Control_R"
    assert load_settings(env={"ANOVAX_TALK_KEY": " F12 "}).talk_key == "F12"
    assert load_settings(env={"ANOVAX_TALK_KEY": "OFF"}).talk_key == "off"
    cfg = tmp_path / "config.toml"
    cfg.write_text('[anovax]\ntalk_key = "Pause"\n')
    assert load_settings(env={}, config_file=cfg).talk_key == "Pause"
    for bad in ("right ctrl", "ctrl+space", "F12;rm"):
        with pytest.raises(ConfigError, match="ANOVAX_TALK_KEY must be an X key name"):
            load_settings(env={"ANOVAX_TALK_KEY": bad})
    # a name no key has was taken silently and never worked: now hold-to-talk is off and the
    # start-up says why, naming the file's key (not a variable the user never set); the rest runs
    cfg.write_text('[anovax]\ntalk_key = "NoSuchKey"\nwake_timeout_s = "8"\n')
    got = load_settings(env={}, config_file=cfg)
    assert got.talk_key == "off" and got.wake_timeout_s == 8
    assert any(n.startswith("talk_key in ") and "'NoSuchKey' is not a key name AnovaX can grab" in n for n in got.notices)
    assert load_settings(env={"ANOVAX_TALK_KEY": "F12"}).notices == ()
    cfg.write_text('[anovax]\nwake_timeout_s = "ten"\n')
    with pytest.raises(ConfigError, match=r"^wake_timeout_s in .*config.toml must be a number of seconds"):
        load_settings(env={}, config_file=cfg)
    cfg.write_text('[anovax]\ngemini_api_key = "abc"\n')
    with pytest.raises(ConfigError, match="secrets are read from the environment only"):
        load_settings(env={}, config_file=cfg)
