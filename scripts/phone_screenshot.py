"""Take docs/phone.png: the phone remote's page in Chromium, paired, after two commands, with the live screen.

    .venv/bin/python scripts/phone_screenshot.py [--out docs/phone.png]

The same scene as tests/test_remote_browser.py, from the same kit (tests/remote_kit.py): the
assistant on the simulated desktop behind a RemoteServer on a loopback port, the screen a private
Xvfb with a ticking xterm (the synthetic screen without Xvfb or xterm), and Debian's Chromium
driven by Playwright in a phone viewport. It pairs as scanning the QR code does, taps "open
notepad", types "what time is it", waits for the screen image to move, and saves the whole page.
Everything else it writes stays in a temporary folder.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from helpers import wait_or_exit  # noqa: E402
from remote_kit import CHROMIUM, PHONE, SCREEN_SUM, phone_remote  # noqa: E402

from anovax.events import EventType  # noqa: E402

wait = functools.partial(wait_or_exit, prog="phone_screenshot")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "phone.png")
    args = ap.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise SystemExit("phone_screenshot: playwright is not installed (`make test` installs it)") from None
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"phone_screenshot: {CHROMIUM} is missing (Debian package chromium; `make test` installs it)")

    with tempfile.TemporaryDirectory(prefix="phone-screenshot-") as tmp:
        with phone_remote(Path(tmp)) as (assistant, server, frames):
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
                page = browser.new_context(**PHONE).new_page()
                page.goto(server.pairing_url)  # what scanning the QR code does
                page.wait_for_selector("#remote:not([hidden])")
                wait(lambda: server.event_clients == 1 and server.viewers == 1, 30, "the page's streams")

                page.tap("button[data-command='open notepad']")
                page.wait_for_selector("#events li[data-type='AGENT_DONE']")
                page.wait_for_selector("#replies li")
                page.fill("#command-text", "what time is it")
                page.press("#command-text", "Enter")
                wait(lambda: any(e.type == EventType.COMMAND_DONE and e.data["text"] == "what time is it"
                                 for e in assistant.bus.recent(0)), 30, "the typed command")
                page.wait_for_function("() => document.querySelectorAll('#replies li').length >= 2")

                first = wait(lambda: page.evaluate(SCREEN_SUM), 30, "a first frame on the page")
                wait(lambda: page.evaluate(SCREEN_SUM) not in (None, first), 30, "the screen image to change")
                page.locator("#command-text").blur()
                args.out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(args.out), full_page=True)
                browser.close()
    print(f"saved {args.out} ({frames.__class__.__name__} screen)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
