"""The macOS desktop: pyautogui for keys and ASCII text, the clipboard for the rest.

pyautogui (Quartz events) types only what is on the keyboard layout, and
``osascript ... keystroke`` turns most non-ASCII characters into "a". So other
characters are pasted: the clipboard's text is saved (``pbpaste``), the run is put
there (``pbcopy``), Cmd+V pressed, and the old text put back. Only text survives
that round trip (an image on the clipboard is lost): best effort, documented.
Apps start with ``open -a <App>``, which exits once the app is launching and
fails when there is no such app. Not testable on the Linux CI: only the pure
helpers are unit-tested.
"""

from __future__ import annotations

import os
import subprocess
import time

from anovax.desktop.base import CancelToken
from anovax.desktop.real import RealDesktop
from anovax.desktop.typing import pyautogui_chord, split_runs
from anovax.errors import PermanentToolError, TransientToolError

#: pbcopy/pbpaste pick the text encoding from the locale: force UTF-8
_UTF8_ENV = {**os.environ, "LANG": "en_US.UTF-8", "LC_CTYPE": "en_US.UTF-8"}
#: the app reads the clipboard when it handles Cmd+V; restoring sooner would paste the old text
PASTE_SETTLE_S = 0.15
#: ``open -a`` normally returns within a second
OPEN_TIMEOUT_S = 10.0


class MacDesktop(RealDesktop):
    """macOS desktop."""

    name = "macos"
    platform = "macos"

    def _after_launch(self, proc: subprocess.Popen[bytes], name: str, cancel: CancelToken) -> None:
        deadline = time.monotonic() + OPEN_TIMEOUT_S
        while proc.poll() is None and time.monotonic() < deadline:
            cancel.wait(0.05)
        if proc.returncode not in (None, 0):
            raise PermanentToolError(f"I couldn't find an app called {name} on this computer.", code="app_not_found")

    def _type_chunk(self, chunk: str) -> None:
        for plain, run in split_runs(chunk):
            if plain:
                self._gui("write", run, interval=0)
            else:
                self._paste(run)

    def _press_chord(self, chord: tuple[str, ...]) -> None:
        self._gui("hotkey", *pyautogui_chord(chord, "macos"))

    def _paste(self, text: str) -> None:
        try:
            saved = subprocess.run(["pbpaste"], capture_output=True, env=_UTF8_ENV, timeout=5).stdout
            subprocess.run(["pbcopy"], input=text.encode("utf-8"), env=_UTF8_ENV, timeout=5, check=True)
            self._gui("hotkey", "command", "v")
            time.sleep(PASTE_SETTLE_S)
            subprocess.run(["pbcopy"], input=saved, env=_UTF8_ENV, timeout=5, check=True)
        except (OSError, subprocess.SubprocessError) as exc:
            raise TransientToolError(f"I couldn't paste {text!r}: {exc}.") from exc
