"""The phone page's Yes / No in Debian's Chromium (Playwright, phone viewport): a held plan's
question appears on a paired phone only, names the target window, counts down, and a tap answers it."""

from __future__ import annotations

import re

from helpers import in_thread, wait_for
from remote_kit import CHROMIUM, PHONE, phone_remote, playwright_or_skip

from anovax.confirm import Answer
from anovax.desktop import SimulatedDesktop
from anovax.events import EventType

QUESTION = "Type `ls` and press Enter in Terminal?"
STEPS = [{"index": 1, "tool": "type_text", "params": {"text": "ls"}}, {"index": 2, "tool": "press_key",
                                                                       "params": {"keys": "enter"}}]
TARGET = "xterm — ~/projects"
XSS = '<img src=x onerror="document.title=\'owned\'">'


def _ask(assistant, target: str = TARGET):
    q = assistant.confirmations.new_question("c-phone", QUESTION, STEPS, target)
    return q, in_thread(lambda: assistant.confirmations.ask(q, None))


def _paired_page(browser, server):
    page = browser.new_context(**PHONE).new_page()
    page.goto(server.pairing_url)
    page.wait_for_selector("#remote:not([hidden])")
    return page


def test_a_paired_phone_sees_the_question_and_answers_yes_or_no_and_an_unpaired_one_sees_nothing(tmp_path):
    sync_playwright = playwright_or_skip()
    with phone_remote(tmp_path, confirm_timeout_s=60.0) as (assistant, server, _frames):
        confirmations = assistant.confirmations
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            stranger = browser.new_context(**PHONE).new_page()
            stranger.goto(server.address + "/")
            stranger.wait_for_selector("#unpaired:not([hidden])")

            page = _paired_page(browser, server)
            # the open page is what makes the phone a front end the question may wait for
            wait_for(lambda: confirmations.frontends() == ("phone",), what="the phone registered")

            q, reply = _ask(assistant)
            page.wait_for_selector("#confirm:not([hidden])")
            assert page.locator("#confirm-question").inner_text() == QUESTION
            assert page.locator("#confirm-target").inner_text() == TARGET  # the window the keys go to
            assert re.fullmatch(r"\d+ s left", page.locator("#confirm-countdown").inner_text())
            assert page.locator("#confirm-steps li").all_inner_texts() == ["type_text ls", "press_key enter"]
            page.tap("#confirm-yes")
            got = reply.result(timeout=20)
            assert got.answer is Answer.YES and got.frontend == "phone"
            page.wait_for_selector("#confirm", state="hidden")
            wait_for(lambda: re.match(r"(You said|Answered) yes", page.locator("#confirm-note").inner_text()),
                     what="the yes noted")

            q, reply = _ask(assistant, target=XSS)  # a window title is anybody's text: shown, never run
            page.wait_for_selector("#confirm:not([hidden])")
            assert page.locator("#confirm-target").inner_text() == XSS
            assert page.locator("#confirm img").count() == 0
            page.tap("#confirm-no")
            got = reply.result(timeout=20)
            assert got.answer is Answer.NO and got.frontend == "phone"
            page.wait_for_selector("#confirm", state="hidden")

            # the stranger's page asked nothing, streamed nothing and shows no question
            assert stranger.locator("#confirm-question").inner_text() == ""
            assert stranger.locator("#unpaired").is_visible()
            assert server.phones_watching == 1
            assert page.title() == "AnovaX remote"
            browser.close()


def test_a_page_opened_while_a_question_waits_shows_it_from_the_server_state(tmp_path):
    sync_playwright = playwright_or_skip()
    with phone_remote(tmp_path, confirm_timeout_s=60.0) as (assistant, server, _frames):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            unregister = assistant.confirmations.register("orb")  # someone else can answer meanwhile
            q, reply = _ask(assistant)
            wait_for(lambda: assistant.confirmations.pending == q, what="the question pending")
            for _ in range(30):  # push the question out of what a new stream replays (20 events)
                assistant.bus.emit(EventType.SPEAK_END, "noise")
            page = _paired_page(browser, server)
            page.wait_for_selector("#confirm:not([hidden])")
            assert page.locator("#confirm-target").inner_text() == TARGET
            page.tap("#confirm-yes")
            assert reply.result(timeout=20).frontend == "phone"
            unregister()
            browser.close()


def test_an_unanswered_question_times_out_on_the_page_too(tmp_path):
    sync_playwright = playwright_or_skip()
    with phone_remote(tmp_path, confirm_timeout_s=3.0) as (assistant, server, _frames):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = _paired_page(browser, server)
            wait_for(lambda: assistant.confirmations.frontends() == ("phone",), what="the phone registered")
            q, reply = _ask(assistant)
            page.wait_for_selector("#confirm:not([hidden])")
            assert reply.result(timeout=30).answer is Answer.TIMEOUT
            page.wait_for_selector("#confirm", state="hidden", timeout=30_000)
            wait_for(lambda: "No answer in time" in page.locator("#confirm-note").inner_text(),
                     what="the timeout noted")
            # a late tap has nothing left to answer: the buttons are gone with the card
            assert not page.locator("#confirm-yes").is_visible()
            browser.close()


#: a tap that lands on Yes the instant the card appears (it was aimed at what the card pushed down)
TAP_ON_ARRIVAL = """() => {
  const card = document.getElementById('confirm');
  window.earlyTaps = 0;
  new MutationObserver(() => {
    if (!card.hidden) { window.earlyTaps += 1; document.getElementById('confirm-yes').click(); }
  }).observe(card, {attributes: true, attributeFilter: ['hidden']});
}"""


def test_a_tap_the_moment_the_question_appears_does_not_answer_it(tmp_path):
    sync_playwright = playwright_or_skip()
    with phone_remote(tmp_path, confirm_timeout_s=60.0) as (assistant, server, _frames):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = _paired_page(browser, server)
            wait_for(lambda: assistant.confirmations.frontends() == ("phone",), what="the phone registered")
            page.evaluate(TAP_ON_ARRIVAL)
            q, reply = _ask(assistant)
            page.wait_for_selector("#confirm:not([hidden])")
            assert page.evaluate("() => window.earlyTaps") == 1
            page.wait_for_selector("#confirm-yes:enabled")  # armed: now a tap counts
            assert assistant.confirmations.pending == q and not reply.done()
            page.tap("#confirm-no")
            assert reply.result(timeout=20).answer is Answer.NO
            browser.close()


#: what the browser does when the phone's screen goes off or another app comes to the front
HIDE = """(hidden) => {
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => hidden ? 'hidden' : 'visible'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def test_a_hidden_page_is_not_asked_and_a_page_shown_again_is(tmp_path):
    sync_playwright = playwright_or_skip()
    with phone_remote(tmp_path, confirm_timeout_s=60.0) as (assistant, server, _frames):
        confirmations = assistant.confirmations
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = _paired_page(browser, server)
            wait_for(lambda: confirmations.frontends() == ("phone",), what="the phone registered")
            page.evaluate(HIDE, True)
            wait_for(lambda: confirmations.frontends() == (), timeout_s=10, what="the hidden phone unregistered")
            q, reply = _ask(assistant)
            assert reply.result(timeout=10).answer is Answer.NOBODY  # nobody was looking: denied at once
            page.evaluate(HIDE, False)
            wait_for(lambda: confirmations.frontends() == ("phone",), timeout_s=10, what="registered again")
            q, reply = _ask(assistant)
            page.wait_for_selector("#confirm:not([hidden])")
            page.tap("#confirm-yes")
            assert reply.result(timeout=20).frontend == "phone"
            browser.close()


# -- the real chain: offline planner, safety's third verdict, the orchestrator holding the batch ----

COMMAND = "open a terminal and type ls and press enter"


def _finished(assistant) -> int:
    return sum(1 for e in assistant.bus.recent(0) if e.type == EventType.COMMAND_DONE)


def _send(page, assistant, text: str = COMMAND) -> int:
    """Type ``text`` on the phone and wait for its question; how many commands had finished before."""
    before = _finished(assistant)
    page.fill("#command-text", text)
    page.press("#command-text", "Enter")
    page.wait_for_selector("#confirm:not([hidden])", timeout=30_000)
    assert page.locator("#confirm-question").inner_text() == QUESTION
    return before


def _done(assistant, before: int, page=None) -> dict:
    """The COMMAND_DONE data of the command sent when ``before`` commands had finished."""
    def finished():
        done = [e for e in assistant.bus.recent(0) if e.type == EventType.COMMAND_DONE]
        return done[before] if len(done) > before else None

    def what() -> str:
        # a timeout says where the answer stopped: the page's note, the card, the broker's events
        seen = [(e.type.name, (e.data or {}).get("answer") or (e.data or {}).get("status") or "")
                for e in assistant.bus.recent(0) if e.type.name.startswith(("CONFIRM", "COMMAND"))]
        shown = "" if page is None else (f"; page note {page.locator('#confirm-note').inner_text()!r}, card "
                                         f"{'hidden' if page.locator('#confirm').is_hidden() else 'shown'}")
        return f"the command to finish{shown}; events {seen[-8:]}"
    return dict(wait_for(finished, timeout_s=30, what=what).data)


def _typed(desktop) -> list[tuple[str, str]]:
    return [(a.kind, a.arg) for a in desktop.actions if a.kind in ("type", "keys")]


def test_phone_yes_types_ls_into_the_terminal_and_no_types_nothing(tmp_path):
    sync_playwright = playwright_or_skip()
    desktop = SimulatedDesktop()
    with phone_remote(tmp_path, desktop, confirm_timeout_s=60.0) as (assistant, server, _frames):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = _paired_page(browser, server)
            wait_for(lambda: assistant.confirmations.frontends() == ("phone",), what="the phone registered")

            sent = _send(page, assistant)
            assert page.locator("#confirm-target").inner_text() == "terminal"
            assert _typed(desktop) == []  # held: the terminal is open, not one key typed yet
            page.tap("#confirm-yes")
            done = _done(assistant, sent, page)
            assert done["status"] == "done", done
            assert _typed(desktop) == [("type", "ls"), ("keys", "enter")]
            page.wait_for_selector("#confirm", state="hidden")

            desktop.take_actions()
            sent = _send(page, assistant)
            page.tap("#confirm-no")
            done = _done(assistant, sent, page)
            assert done["status"] != "done" and "no" in done["message"].lower(), done
            assert _typed(desktop) == []
            # the answer's own reply or its CONFIRM_ANSWERED, whichever reaches the page first
            wait_for(lambda: re.match(r"(You said|Answered) no", page.locator("#confirm-note").inner_text()),
                     what=lambda: f"the no noted, not {page.locator('#confirm-note').inner_text()!r}")
            answered = [e for e in assistant.bus.recent(0) if e.type == EventType.CONFIRM_ANSWERED]
            assert [(e.data["answer"], e.data["frontend"]) for e in answered] == [("yes", "phone"), ("no", "phone")]
            browser.close()


def test_phone_left_unanswered_times_out_and_types_nothing(tmp_path):
    sync_playwright = playwright_or_skip()
    desktop = SimulatedDesktop()
    with phone_remote(tmp_path, desktop, confirm_timeout_s=2.0) as (assistant, server, _frames):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = _paired_page(browser, server)
            wait_for(lambda: assistant.confirmations.frontends() == ("phone",), what="the phone registered")
            sent = _send(page, assistant)
            done = _done(assistant, sent)
            assert done["status"] != "done" and "no answer" in done["message"].lower(), done
            assert _typed(desktop) == []
            page.wait_for_selector("#confirm", state="hidden")
            browser.close()
