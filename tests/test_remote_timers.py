"""Timers on the phone page (Chromium, phone viewport): the countdowns, and the alert when one fires."""

from __future__ import annotations

from helpers import wait_for
from remote_kit import CHROMIUM, PHONE, phone_remote, playwright_or_skip

from anovax.events import EventType


def test_the_phone_shows_the_countdowns_and_the_alert(tmp_path):
    sync_playwright = playwright_or_skip()
    with phone_remote(tmp_path) as (assistant, server, _frames):
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
                page = browser.new_context(**PHONE).new_page()
                page.goto(server.pairing_url)
                page.wait_for_selector("#remote:not([hidden])")
                wait_for(lambda: server.event_clients == 1, what="the event stream")
                assert page.locator("#timers").is_hidden()  # no timers, no card

                for command in ("set a tea timer for 10 minutes", "set a timer for 2 seconds"):
                    page.fill("#command-text", command)
                    page.press("#command-text", "Enter")
                    wait_for(lambda: any(e.type is EventType.COMMAND_DONE and e.data["text"] == command
                                         for e in assistant.bus.recent(0)), 30.0, what=f"{command!r} to be done")
                page.wait_for_selector("#timer-list li:has-text('tea timer')", timeout=30_000)
                tea = page.locator("#timer-list li", has_text="tea timer").inner_text()
                assert tea.startswith("tea timer · 9:5") or tea == "tea timer · 10:00", tea

                page.wait_for_selector("#timer-alert:not([hidden])", timeout=60_000)
                assert page.locator("#timer-alert").inner_text() == "Your 2 second timer is done."
                assert page.locator("#replies li", has_text="Your 2 second timer is done.").count() == 1
                assert page.locator("#timer-list li").count() == 1  # only the tea timer is left

                page.fill("#command-text", "cancel the tea timer")
                page.press("#command-text", "Enter")
                page.wait_for_selector("#timer-list li", state="detached", timeout=30_000)
                page.tap("#timer-alert")  # dismissed: with nothing running the card goes
                page.wait_for_selector("#timers", state="hidden", timeout=10_000)
                browser.close()
        finally:
            # the state folder is shared by the session's assistants: leave no timer behind
            if assistant.timers.pending():
                assistant.timers.cancel("all")
