"""Hold-to-talk end to end: Right Ctrl held with xdotool on Xvfb, "open the calculator" (no wake
word, espeak-ng) played into a PulseAudio null sink's monitor as the microphone, the REAL
recogniser and gate, wired as ``anovax`` wires them (frontends.start_voice), into an Assistant on
the simulated desktop. The same audio without the key does nothing, before and after."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import threading
import time

import pytest
from helpers import wait_for, voice_threads

from anovax.app import build_assistant
from anovax.desktop.simulated import SimulatedDesktop
from anovax.events import EventType
from anovax.frontends import start_voice
from anovax.memory import Memory
from anovax.settings import Settings

# the virtual microphone and the renders (skips the module without espeak-ng or PulseAudio)
from test_voice_listener import pulse, pulse_env, renders  # noqa: F401


@pytest.fixture
def x11(xvfb, monkeypatch):
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed")
    for name, value in xvfb.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("XDG_SESSION_TYPE", "x11")
    return xvfb


def xdo(xvfb, *args: str) -> None:
    done = subprocess.run(["xdotool", *args], env={**os.environ, **xvfb.env}, capture_output=True, text=True,
                          timeout=20)
    assert done.returncode == 0, done.stderr


def test_a_phrase_said_with_the_key_held_runs_without_the_wake_word(x11, pulse_env, renders, tmp_path):  # noqa: F811
    desktop = SimulatedDesktop()
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", voice="on")
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=desktop)
    lines: list[str] = []
    voice = start_voice(assistant, False, io.StringIO(), say=lambda text, stream=None: lines.append(text))
    try:
        wait_for(voice.settled.is_set, timeout_s=120, what="the listener to open the microphone")
        if voice.state.state == "unavailable":
            pytest.skip(f"PortAudio does not reach PulseAudio here: {voice.state.detail}")
        assert any(line.endswith("or hold Right Ctrl and speak.") for line in lines), lines

        def heard() -> list[dict]:
            return [e.data for e in assistant.bus.recent() if e.type is EventType.VOICE_HEARD]

        def launches() -> list[str]:  # the windows opened (the console takes the desktop's action list)
            return [w.app for w in desktop.windows]

        def unshown() -> int:  # dropped while asleep: counted, never shown (issue 19)
            return voice.pipeline.unshown if voice.pipeline is not None else 0

        phrase = renders("open the calculator")
        pulse_env.play(phrase)  # no key, no wake word: dropped
        wait_for(lambda: unshown() == 1, timeout_s=60, what="the first phrase to be dropped")
        assert heard() == [] and launches() == []

        xdo(x11, "keydown", "Control_R")
        wait_for(lambda: voice.state.state == "talking", what=lambda: f"talking; state {voice.state}")
        pulse_env.play(phrase)
        xdo(x11, "keyup", "Control_R")
        wait_for(launches, timeout_s=60, what=lambda: f"the calculator to launch; heard {heard()}; events {[(e.type.value, e.data) for e in assistant.bus.recent()][-12:]}")
        assert launches() == ["Calculator"]
        assert (heard()[-1]["action"], heard()[-1]["text"], heard()[-1]["reason"]) == \
            ("command", "open the calculator", "talk key held")
        wait_for(lambda: voice.state.state == "listening", what=lambda: f"listening again; state {voice.state}")
        states = [e.data["state"] for e in assistant.bus.recent() if e.type is EventType.VOICE_STATE]
        assert states[-2:] == ["talking", "listening"], states

        # the grace after the release over, the same words are dropped again
        wait_for(lambda: not voice.gate.holds.covers(time.monotonic(), time.monotonic()),
                 what="the hold's grace to pass")
        count = unshown()
        pulse_env.play(phrase)
        wait_for(lambda: unshown() > count, timeout_s=60, what="the third phrase to be dropped")
        assert launches() == ["Calculator"]
    finally:
        voice.close()
        assistant.close()
    assert not voice_threads(voice), voice_threads(voice)


def test_muted_only_a_phrase_said_with_the_key_held_is_heard(x11, pulse_env, renders, tmp_path):  # noqa: F811
    desktop = SimulatedDesktop()
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", voice="on")
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=desktop)
    voice = start_voice(assistant, False, io.StringIO(), say=lambda text, stream=None: None)
    try:
        wait_for(voice.settled.is_set, timeout_s=120, what="the listener to open the microphone")
        if voice.state.state == "unavailable":
            pytest.skip(f"PortAudio does not reach PulseAudio here: {voice.state.detail}")
        voice.set_muted(True)

        def heard() -> list[dict]:
            return [e.data for e in assistant.bus.recent() if e.type is EventType.VOICE_HEARD]

        phrase = renders("open the calculator")
        pulse_env.play(phrase)  # muted: not even recognised
        xdo(x11, "keydown", "Control_R")
        wait_for(lambda: voice.state.state == "talking", what=lambda: f"talking; state {voice.state}")
        pulse_env.play(phrase)
        xdo(x11, "keyup", "Control_R")
        wait_for(lambda: desktop.windows, timeout_s=60, what=lambda: f"the calculator to launch; heard {heard()}")
        # phrases are handled in order: had the first been heard, it would come before this one
        assert [(h["action"], h["reason"]) for h in heard()] == [("command", "talk key held")]
        wait_for(lambda: voice.state.state == "muted", what=lambda: f"muted again; state {voice.state}")
        assert voice.muted
    finally:
        voice.close()
        assistant.close()
