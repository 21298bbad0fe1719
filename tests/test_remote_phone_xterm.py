"""The phone's Yes into a real terminal: Xvfb + openbox, the real LinuxDesktop, Debian's xterm
running bash, whose history file records each command line it ran, and the phone page in Chromium.

"open a terminal and type ls and press enter" from the phone opens the terminal and is held; a
tap on Yes re-activates it and types ``ls`` + Enter, which bash's history file shows; a No, and a
question left unanswered past its (here 2 s) window, type nothing.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess

import pytest
from helpers import wait_for
from remote_kit import CHROMIUM, PHONE, TEST_LIMITS, playwright_or_skip
from shell_recorder import ShellRecorder

from anovax.app import build_assistant
from anovax.events import EventType
from anovax.memory import Memory
from anovax.remote import MssScreen, RemoteServer
from anovax.remote.state import assistant_state
from anovax.settings import Settings

COMMAND = "open a terminal and type ls and press enter"
pytestmark = pytest.mark.skipif(not (shutil.which("xterm") and shutil.which("xdotool")),
                                reason="needs xterm and xdotool (Debian packages xterm, xdotool)")


@pytest.fixture
def desk_env(xvfb, monkeypatch, tmp_path):
    """This test's process on the private X server, its terminals running a recording bash:
    (recorder, xvfb)."""
    if not xvfb.wm:
        pytest.skip("openbox is not installed: without a window manager no window gets the focus")
    shell = ShellRecorder(tmp_path / "shell")
    for key, value in {**xvfb.env, **shell.env}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    return shell, xvfb


def _window_name(window: int) -> str:
    return subprocess.run(["xdotool", "getwindowname", str(window)], capture_output=True, text=True,
                          timeout=5).stdout.strip()


@contextlib.contextmanager
def phone_on_x(xvfb, tmp_path, confirm_timeout_s: float):
    """The assistant on the real LinuxDesktop behind a started remote, and a paired phone page:
    yields (assistant, desktop, page)."""
    from anovax.desktop.linux import LinuxDesktop
    from anovax.speech.engine import ConsoleSpeech

    sync_playwright = playwright_or_skip()
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None, remote_port=0,
                        remote_bind="127.0.0.1", confirm_timeout_s=confirm_timeout_s)
    desk = LinuxDesktop(settings)
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=desk, speech=ConsoleSpeech())
    server = RemoteServer(settings, assistant.bus, assistant.submit, state=assistant_state(assistant),
                          frames=MssScreen(display=xvfb.display), limits=TEST_LIMITS,
                          confirmations=assistant.confirmations)
    server.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_context(**PHONE).new_page()
            page.goto(server.pairing_url)
            page.wait_for_selector("#remote:not([hidden])")
            wait_for(lambda: assistant.confirmations.frontends() == ("phone",), what="the phone registered")
            yield assistant, desk, page
            browser.close()
    finally:
        server.stop()
        assistant.close()
        for child in desk.children:
            child.terminate()
        desk.close()


def _ask_from_the_phone(page, assistant, desk, shell) -> int:
    """Send the command from the phone and wait for its question while the new terminal waits;
    how many commands had finished before."""
    shell.pids.unlink(missing_ok=True)
    before = sum(1 for e in assistant.bus.recent(0) if e.type == EventType.COMMAND_DONE)
    page.fill("#command-text", COMMAND)
    page.press("#command-text", "Enter")
    page.wait_for_selector("#confirm:not([hidden])", timeout=30_000)
    wait_for(shell.started, timeout_s=15, what="the shell running in the new xterm")
    # the question names the real window the keys would go to
    assert desk.target_window is not None
    assert page.locator("#confirm-target").inner_text() == _window_name(desk.target_window)
    return before


def _done(assistant, before: int) -> dict:
    return dict(wait_for(lambda: [e for e in assistant.bus.recent(0) if e.type == EventType.COMMAND_DONE][before:],
                         timeout_s=60, what="the command to finish")[0].data)


def test_phone_yes_types_ls_into_a_real_xterm_and_no_types_nothing(desk_env, tmp_path):
    shell, xvfb = desk_env
    with phone_on_x(xvfb, tmp_path, confirm_timeout_s=60.0) as (assistant, desk, page):
        before = _ask_from_the_phone(page, assistant, desk, shell)
        assert shell.lines() == []  # the terminal is open and has the focus; not one key yet
        page.tap("#confirm-yes")
        done = _done(assistant, before)
        assert done["status"] == "done", done
        wait_for(lambda: shell.lines() == ["ls"], timeout_s=15,
                 what=lambda: f"ls + Enter in the terminal (it read {shell.lines()!r})")

        before = _ask_from_the_phone(page, assistant, desk, shell)
        page.tap("#confirm-no")
        done = _done(assistant, before)
        assert done["status"] == "needs_yes", done
        # the No's terminal read nothing: still only the Yes's one line
        assert shell.lines() == ["ls"]


def test_phone_left_unanswered_times_out_and_the_real_xterm_gets_nothing(desk_env, tmp_path):
    shell, xvfb = desk_env
    with phone_on_x(xvfb, tmp_path, confirm_timeout_s=2.0) as (assistant, desk, page):
        before = _ask_from_the_phone(page, assistant, desk, shell)
        done = _done(assistant, before)
        assert done["status"] == "needs_yes" and "no answer" in done["message"].lower(), done
        page.wait_for_selector("#confirm", state="hidden")
        assert shell.lines() == []
