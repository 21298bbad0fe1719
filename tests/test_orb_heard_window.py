"""The heard line in the real orb window (Xvfb + openbox, the harness process of test_orb_window)."""

from __future__ import annotations

import pytest

from anovax.orb.model import OrbState
from helpers import wait_for

pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")
pytest.importorskip("mss")

from test_orb_window import orb, reset, xorb  # noqa: E402,F401 - fixtures


def test_the_window_shows_the_heard_line_under_the_state_for_a_few_seconds(orb):
    reset(orb, "heard")
    orb.ask("emit", events=[
        {"type": "VOICE_STATE", "command_id": "voice", "data": {"state": "awake", "detail": "hey anova"}},
        {"type": "VOICE_HEARD", "command_id": "voice",
         "data": {"action": "drop", "text": "", "heard": "what's the weather", "reason": "did you say …?"}},
    ])
    shown = wait_for(lambda: (s := orb.ask("inspect"))["detail"].endswith("→ dropped: did you say …?") and s, 10.0,
                     what=lambda: f"the heard line in the window: {orb.ask('inspect')['detail']!r}")
    assert shown["state"] == OrbState.AWAKE.value
    assert shown["detail"] == 'listening…\nheard "what\'s the weather" → dropped: did you say …?'
    # a few seconds later it is gone (a deadline, not a timed assert)
    wait_for(lambda: orb.ask("inspect")["detail"] == "listening…", 20.0,
             what=lambda: f"the heard line to go: {orb.ask('inspect')['detail']!r}")
    reset(orb, "heard")
