"""The phone's Yes into a real terminal: Xvfb + openbox, the real LinuxDesktop, Debian's xterm
running a $SHELL that records each line it reads, and the phone page in Chromium.

"open a terminal and type ls and press enter" from the phone opens the terminal and is held; a
tap on Yes re-activates it and types ``ls`` + Enter, which the recorder reads back; a No types nothing.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from helpers import wait_for
from remote_kit import CHROMIUM, PHONE, TEST_LIMITS, playwright_or_skip

from anovax.app import build_assistant
from anovax.events import EventType
from anovax.memory import Memory
from anovax.remote import MssScreen, RemoteServer
from anovax.remote.state import assistant_state
from anovax.settings import Settings

COMMAND = "open a terminal and type ls and press enter"
#: what xterm runs instead of a shell: every line the terminal hands it, appended to $RECORD
RECORDER = """#!/bin/sh
: > "$RECORD.started"
while IFS= read -r line; do printf '%s\\n' "$line" >> "$RECORD"; done
"""

pytestmark = pytest.mark.skipif(not (shutil.which("xterm") and shutil.which("xdotool")),
                                reason="needs xterm and xdotool (Debian packages xterm, xdotool)")


@pytest.fixture
def desk_env(xvfb, monkeypatch, tmp_path):
    """This test's process on the private X server, with $SHELL the recorder: (record file, env)."""
    if not xvfb.wm:
        pytest.skip("openbox is not installed: without a window manager no window gets the focus")
    recorder = tmp_path / "record.sh"
    recorder.write_text(RECORDER)
    recorder.chmod(0o755)
    record = tmp_path / "typed.txt"
    for key, value in xvfb.env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("SHELL", str(recorder))
    monkeypatch.setenv("RECORD", str(record))
    return record, xvfb


def _lines(record) -> list[str]:
    return record.read_text().splitlines() if record.exists() else []


def _window_name(window: int) -> str:
    return subprocess.run(["xdotool", "getwindowname", str(window)], capture_output=True, text=True,
                          timeout=5).stdout.strip()


def test_phone_yes_types_ls_into_a_real_xterm_and_no_types_nothing(desk_env, tmp_path):
    from anovax.desktop.linux import LinuxDesktop
    from anovax.speech.engine import ConsoleSpeech

    record, xvfb = desk_env
    sync_playwright = playwright_or_skip()
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None, remote_port=0,
                        remote_bind="127.0.0.1", confirm_timeout_s=60.0)
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

            for word, expected in (("yes", ["ls"]), ("no", ["ls"])):
                done_before = sum(1 for e in assistant.bus.recent(0) if e.type == EventType.COMMAND_DONE)
                page.fill("#command-text", COMMAND)
                page.press("#command-text", "Enter")
                page.wait_for_selector("#confirm:not([hidden])", timeout=30_000)
                # the terminal is open and has the focus; not one key has reached it yet
                wait_for(lambda: record.with_name(record.name + ".started").exists(), timeout_s=15,
                         what="the recorder running in xterm")
                assert _lines(record) == (["ls"] if word == "no" else [])
                title = page.locator("#confirm-target").inner_text()
                assert desk.target_window is not None and title == _window_name(desk.target_window)
                page.tap(f"#confirm-{word}")
                done = wait_for(lambda: [e for e in assistant.bus.recent(0)
                                         if e.type == EventType.COMMAND_DONE][done_before:], timeout_s=60,
                                what="the command to finish")[0]
                if word == "yes":
                    assert done.data["status"] == "done", done.data
                    wait_for(lambda: _lines(record) == expected, timeout_s=15,
                             what=lambda: f"ls + Enter in the terminal (it read {_lines(record)!r})")
                else:
                    assert done.data["status"] != "done", done.data
                record.with_name(record.name + ".started").unlink()
            # the No's terminal read nothing: still only the Yes's one line, after every key of it was handled
            assert _lines(record) == ["ls"]
            browser.close()
    finally:
        server.stop()
        assistant.close()
        for child in desk.children:
            child.terminate()
        desk.close()
