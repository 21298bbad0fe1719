"""Whether a browser really showed the page: window evidence, never exit codes (issue 18, point 2).

A browser hands a URL to its running instance and exits at once with 0; one that dies at start-up
(Chromium as root without a sandbox) exits almost as quickly with 1, and a ``webbrowser`` call
says True either way. So a request to open a page is *done* only when a browser window has the
focus and is new, or has a title other than the one it had before the request (a new tab, the
page's title). The adapters (X11, Windows, macOS) supply three small looks at the desktop; the
wait itself is here, once, so every platform keeps the same contract:

    before = titles of the windows now            (taken before the browser is asked)
    loop:  front = the focused window and its title
           done when front is a browser window not in ``before`` or titled otherwise, or one
           whose title changed at any moment since the request (``retitled``: a page titled
           like the tab before it passes through "Untitled" for a few ms) while the browser
           command has not failed
           failed when the browser command exited with an error and no window came meanwhile,
           or when nothing came to the front within ``wait_s``
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from anovax.desktop.base import CancelToken
from anovax.errors import PermanentToolError

#: how long a browser gets to bring a window to the front (Chromium's cold start: 0.4-1.7 s here)
BROWSER_WAIT_S = 10.0
#: a browser command that exited with an error may still have handed the page on: look this long more
EXIT_GRACE_S = 1.0
#: how often the focused window is looked at (a look costs < 1 ms on X11)
POLL_S = 0.05
#: a new window's first title is often a placeholder ("Untitled - Chromium"): look this long for the
#: title it changes to, so the evidence names the page (the window already counts)
NEW_TITLE_S = 1.0


@dataclass(frozen=True)
class FrontWindow:
    """The window with the keyboard focus, as the adapter sees it."""

    #: the adapter's window id (X11 client window, HWND; the app's pid on macOS)
    window: int
    #: its title now
    title: str


class TitleWatcher(Protocol):
    """Notes which windows changed their title at any moment (x11_title_watch.py on X11)."""

    def changed(self) -> frozenset[int]: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class BrowserEvidence:
    """Proof that a browser showed the page: the AGENT_VERIFIED payload of a search."""

    #: the browser window that has the focus
    window: int
    #: its title when it was accepted (the page's title, or its address while it loads)
    title: str
    #: True: a window that did not exist before the request; False: an old one whose title changed
    new: bool
    #: from the request to the evidence
    seconds: float

    def as_data(self) -> dict[str, Any]:
        return {"window": hex(self.window), "title": self.title, "new": self.new, "seconds": round(self.seconds, 4)}


def why_exit(name: str, log_path: Path | None = None) -> str:
    """What to add to "<browser> exited with code N": where its own words went, and the one cause
    a first-time user hit (Chromium refuses to run as root without --no-sandbox)."""
    out = f"; its output is in {log_path}" if log_path is not None else ""
    if "chrom" in name.lower() and getattr(os, "geteuid", lambda: 1)() == 0:
        out += '; run as root, Chromium needs --no-sandbox (BROWSER="chromium --no-sandbox %s")'
    return out


def did_not_open(why: str) -> PermanentToolError:
    """The one failure sentence. Permanent: a retry would open a second tab or fail the same way."""
    return PermanentToolError(f"The browser did not open: {why}.", code="browser_failed")


def wait_for_browser(front: Callable[[], FrontWindow | None], is_browser: Callable[[FrontWindow], bool],
                     before: Mapping[int, str], cancel: CancelToken, *,
                     exit_code: Callable[[], int | None] = lambda: None, name: str = "it",
                     retitled: Callable[[], Collection[int]] = frozenset,
                     wait_s: float = BROWSER_WAIT_S,
                     clock: Callable[[], float] = time.monotonic,
                     log_path: Path | None = None) -> BrowserEvidence:
    """Poll until a browser window that is new or retitled since ``before`` has the focus.

    ``front()`` is the focused window (None: none, or the adapter cannot tell now);
    ``is_browser(front)`` says whether it is the browser's (asked once per window and title);
    ``exit_code()`` is the browser command's exit status, None while it runs or when there is
    no command; ``name`` says whose ("chromium exited with code 1"); ``retitled()`` the windows of
    ``before`` whose title changed at some moment since the request (even if back now); ``log_path``
    where the browser's output went. Raises ``did_not_open(...)``
    (PermanentToolError) or Cancelled.
    """
    started = clock()
    judged: dict[tuple[int, str], bool] = {}
    failed_at: float | None = None
    while True:
        seen = front()
        if seen is not None and (before.get(seen.window) != seen.title
                                 or (seen.window in retitled() and exit_code() in (None, 0))):
            key = (seen.window, seen.title)
            if key not in judged:
                judged[key] = is_browser(seen)
            if judged[key]:
                if seen.window in before:
                    return BrowserEvidence(seen.window, seen.title, False, clock() - started)
                return BrowserEvidence(seen.window, _next_title(front, seen, cancel, clock), True, clock() - started)
        now = clock()
        code = exit_code()
        if code not in (None, 0):
            failed_at = now if failed_at is None else failed_at
            if now - failed_at >= EXIT_GRACE_S:
                raise did_not_open(f"{name} exited with code {code}{why_exit(name, log_path)}")
        if now - started >= wait_s:
            raise did_not_open(f"no browser window came to the front within {wait_s:g} s")
        if cancel.wait(POLL_S):
            cancel.check()


def _next_title(front: Callable[[], FrontWindow | None], first: FrontWindow, cancel: CancelToken,
                clock: Callable[[], float]) -> str:
    """The title a new window changes to within NEW_TITLE_S (while it keeps the focus), else its first."""
    until = clock() + NEW_TITLE_S
    while clock() < until and not cancel.wait(POLL_S):
        seen = front()
        if seen is None or seen.window != first.window:
            break
        if seen.title != first.title:
            return seen.title
    return first.title
