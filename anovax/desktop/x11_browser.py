"""X11: the looks at windows that prove a browser showed a page (browser_watch.py), for LinuxDesktop.

Before the request, the titles of the windows the window manager manages; after it, the window
with the focus (EWMH active and holding the X keyboard focus). It is a browser's when the desktop
identifies it as BROWSER (x11_identity.py: the running browser the command handed the page to),
or when it belongs to the browser command AnovaX started (a browser nobody lists, the eval's
stand-in; by pid, else by X-Resource's client pid, else by name).
"""

from __future__ import annotations

import dataclasses
import logging
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from anovax.desktop.browser_watch import FrontWindow
from anovax.desktop.x11 import NO_WM, belongs
from anovax.desktop.x11_title_watch import TitleWatch
from anovax.errors import PermanentToolError
from anovax.target import TargetClass

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from anovax.desktop.linux_target import X11Targeting
    from anovax.desktop.x11_focus import X11Focus


class X11BrowserWindows:
    """RealDesktop's three window looks, over LinuxDesktop's focus connection and identities."""

    _focus: X11Focus | None
    _display_name: str | None
    _targeting: X11Targeting

    def _focus_conn(self) -> X11Focus | None:  # LinuxDesktop's
        raise NotImplementedError

    def _window_titles(self) -> dict[int, str] | None:
        focus = self._focus_conn()
        if focus is None:
            return None
        if not focus.wm_running():  # no window manager: no window ever gets the focus
            raise PermanentToolError(NO_WM, code="no_window_manager")
        return {w: info.title for w in focus.client_windows() if (info := focus.describe(w)) is not None}

    def _watch_titles(self, before: dict[int, str]) -> TitleWatch | None:
        try:
            return TitleWatch(before, self._display_name)
        except Exception as exc:  # no second connection: the polled titles still count
            log.debug("no title watch: %s", exc)
            return None

    def _front_window(self) -> FrontWindow | None:
        focus = self._focus
        active = focus.active_window() if focus is not None else None
        if focus is None or not active or not focus.has_input_focus(active):
            return None
        info = focus.describe(active)
        return FrontWindow(active, info.title) if info is not None else None

    def _is_browser_window(self, front: FrontWindow, proc: subprocess.Popen[bytes] | None) -> bool:
        focus = self._focus
        info = focus.describe(front.window) if focus is not None else None
        if focus is None or info is None:
            return False
        # the browser command's own window (a browser nobody lists, the eval's fake), or a window
        # the desktop identifies as a browser's (the running instance the command handed the page to)
        if proc is not None:
            pid = info.pid if info.pid is not None else focus.client_pid(front.window)  # Tk sets no pid
            if belongs(dataclasses.replace(info, pid=pid), proc, Path(str(proc.args[0])).name):
                return True
        found = self._targeting.identify(front.window)
        return found is not None and found.klass is TargetClass.BROWSER
