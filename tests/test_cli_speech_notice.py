"""Where replies go when speech is off (issue 18, round 2): the orb's terminal said "Replies are
printed only" and printed nothing; the console without a display printed its notices once each,
before the banner, never after the first prompt."""

from __future__ import annotations

import os
import shutil

import pytest

from helpers import wait_for
from pty_kit import Pty, cli_environment
from test_orb_window import xorb  # noqa: F401 - a fixture
from test_speech import fake_aplay

pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")


def _speech_off(lines: list[str]) -> list[str]:
    return [line.strip() for line in lines if "speech is off" in line]


@pytest.mark.skipif(not shutil.which("xdotool"), reason="needs xdotool")
def test_in_orb_mode_the_terminal_says_replies_are_in_the_orb(xorb, tmp_path):  # noqa: F811
    from test_orb_confirm_e2e import Anovax

    bin_dir = tmp_path / "bin"
    fake_aplay(bin_dir)
    run = Anovax(xorb, tmp_path / "run", env={"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"})
    try:
        said = wait_for(lambda: _speech_off(run.lines), 30.0, lambda: f"the speech notice: {run.output()}")
        assert len(said) == 1 and said[0].endswith("Replies are shown in the orb window only."), run.output()
        assert "printed only" not in run.output()
    finally:
        run.close()


def test_the_console_without_a_display_says_each_notice_once_before_the_prompt(tmp_path):
    bin_dir = tmp_path / "bin"
    fake_aplay(bin_dir)
    env = cli_environment(tmp_path, "http://127.0.0.1:9")
    env.pop("GEMINI_API_KEY")
    env.update(ANOVAX_PLANNER="offline", PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", TERM="xterm")
    env.pop("ANOVAX_ORB")
    term = Pty(env, "--planner", "offline")
    try:
        term.read_until(b"you> ", 60)
        os.write(term.master, b"what time is it\r")
        term.read_until(b"AnovaX: ", 60)
        term.read_until(b"you> ", 60)
    finally:
        term.proc.kill()
        term.proc.wait()
    shown = term.seen.decode(errors="replace")
    before, _, after = shown.partition("you> ")
    assert shown.count("No display") == 1 and "No display" in before, shown
    assert "No display" not in after and "speech is off" not in after, shown
    for line in _speech_off(shown.splitlines()):
        assert line.endswith("Replies are printed only."), shown
