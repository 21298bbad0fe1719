"""The macOS desktop: pyautogui for keys and ASCII text, the clipboard for the rest.

pyautogui (Quartz events) types only what is on the keyboard layout, and
``osascript ... keystroke`` turns most non-ASCII characters into "a". So other
characters are pasted: the clipboard's text is saved (``pbpaste``), the run is put
there (``pbcopy``), Cmd+V pressed, and the old text put back. Only text survives
that round trip (an image on the clipboard is lost): best effort, documented.
Apps start with ``open -a <App>``, which exits once the app is launching and
fails when there is no such app.

Verified launches (as on X11 and Windows, at app level): after ``open`` exits,
``launch_app`` waits until the frontmost app is the one asked for (its display name or
its bundle's name is the name given to ``open -a``; for a command from the settings
file, its own process) and has stayed in front for ``SETTLE_S``. macOS gives no window
ids without the Accessibility permission, so the evidence and the keyboard's target are
the app's *pid* (``LaunchEvidence.window`` holds the pid too), and the title is its
front window's name when System Events may read it (else ""). An app that was already
in front counts: ``open -a`` only brings it forward.

The focus guard: while a target is known, each run of text and each chord is sent only
after checking (macfront.py, lsappinfo) that the target app is still frontmost, else
typing stops with "Focus moved to <app>." A target that quit is forgotten and keys go
wherever the focus is. There is no grab: a switch between the check and the keys gets
the rest of that run (at most one chunk), and a switch between two windows of the
target app is not noticed. Not testable on the Linux CI against the real OS: the logic
is unit-tested against a fake ``MacApi`` (tests/test_desktop_macos.py).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

from anovax.desktop import apps
from anovax.desktop.base import CancelToken, LaunchEvidence
from anovax.desktop.browser_watch import FrontWindow
from anovax.desktop.front_target import FrontTargetMethods, FrontTargeting, mac_identity
from anovax.desktop.known_apps import mac_bundle
from anovax.desktop.mac_windows import MacWindowMethods
from anovax.desktop.macfront import Frontmost, FrontmostUnavailable, MacApi, MacFront
from anovax.desktop.launcher import SETTLE_S, Launcher, browser_app_argv
from anovax.desktop.real import RealDesktop
from anovax.desktop.typing import pyautogui_chord, split_runs
from anovax.errors import PermanentToolError, TransientToolError
from anovax.target import TargetClass, WindowIdentity

log = logging.getLogger(__name__)

#: pbcopy/pbpaste pick the text encoding from the locale: force UTF-8
_UTF8_ENV = {**os.environ, "LANG": "en_US.UTF-8", "LC_CTYPE": "en_US.UTF-8"}
#: the app reads the clipboard when it handles Cmd+V; restoring sooner would paste the old text
PASTE_SETTLE_S = 0.15
#: ``open -a`` normally returns within a second
OPEN_TIMEOUT_S = 10.0
#: how often launch_app asks which app is in front (each ask runs lsappinfo twice)
POLL_S = 0.01
# the app counts as opened once it has stayed in front for SETTLE_S (anovax.desktop.launcher):
# an app that another one pushes back at once (a login item, a crash reporter) is not opened
#: a safety net for a token that never fires: no app takes this long to come to the front
LAUNCH_MAX_S = 60.0


def bundle_asked(proc: subprocess.Popen[bytes]) -> str | None:
    """The app name ``open -a <App>`` was given (argv[2]); None for any other command."""
    args = proc.args if isinstance(proc.args, (list, tuple)) else [proc.args]
    if len(args) >= 3 and os.path.basename(str(args[0])) == "open" and args[1] == "-a":
        return str(args[2])
    return None


def is_app(front: Frontmost, proc: subprocess.Popen[bytes]) -> bool:
    """Whether ``front`` is the app ``proc`` started.

    For ``open -a <App>`` by name: the display name, or the bundle's file name (display
    names are localised: Calculator is "Rechner" in German); the app is launchd's child,
    not ``open``'s. Any other command (an app set up in the settings file) started the
    app itself: by pid, or by session (launched apps lead a session of their own, so a
    helper they start stays in it).
    """
    bundle = bundle_asked(proc)
    if bundle is not None:
        wanted = bundle.casefold()
        return front.name.casefold() == wanted or front.bundle_name.casefold() == wanted
    if front.pid == proc.pid:
        return True
    try:
        return os.getsid(front.pid) == proc.pid
    except OSError:  # gone, or not ours to ask about
        return False


def wait_for_front(api: MacApi, proc: subprocess.Popen[bytes], name: str, cancel: CancelToken,
                   started: float) -> LaunchEvidence:
    """Poll until the app ``proc`` started is frontmost and has stayed so (same pid) for ``SETTLE_S``.

    TransientToolError when ``cancel`` fires first (the agent's TTL ran out) or after
    ``LAUNCH_MAX_S``. FrontmostUnavailable propagates (the caller goes unverified).
    """
    candidate: Frontmost | None = None
    since = 0.0
    while True:
        front = api.frontmost()
        if front is not None and is_app(front, proc):
            now = time.monotonic()
            if candidate is None or front.pid != candidate.pid:
                candidate, since = front, now
            elif now - since >= SETTLE_S:
                title = api.window_title(front.pid)
                return LaunchEvidence(front.pid, title, front.name, front.pid, now - started)
        else:
            candidate = None
        if cancel.wait(POLL_S) or time.monotonic() - started > LAUNCH_MAX_S:
            raise TransientToolError(f"{name} did not open a window in time.", code="no_window")


class MacDesktop(MacWindowMethods, FrontTargetMethods, RealDesktop):
    """macOS desktop."""

    name = "macos"
    platform = "macos"
    #: the focus guard compares the front app's pid (window ids need Accessibility)
    GUARD_ID = "pid"

    def __init__(self, settings: Any = None, *, launcher: Launcher | None = None,
                 which: Callable[[str], str | None] = shutil.which, api: MacApi | None = None,
                 track_focus: bool = True) -> None:
        super().__init__(settings, launcher=launcher, which=which)
        self._api: MacApi = api if api is not None else MacFront()
        self._kb_lock = threading.Lock()
        self._started = threading.local()  # when this thread's launch_app began
        self._front_failed = False
        #: the target was aimed at (aim), not launched: if it quits, the keys stop
        self._aimed = False
        api_ = self._api

        def focused(target: WindowIdentity) -> bool:
            front = api_.frontmost()
            return front is not None and front.pid == target.pid

        # two lsappinfo calls per look: four looks a second are plenty to know the last app in front
        self._targeting = FrontTargeting(
            self._front_identity, alive=lambda i: i.pid is not None and api_.alive(i.pid),
            activate=lambda i: api_.activate(i.exe), focused=focused, track=track_focus, name="mac-front",
            every_s=0.25)

    # -- the target, identified (issue 16; front_target.py) ----------------------------------

    def _front_identity(self) -> WindowIdentity | None:
        front = self._api.frontmost()
        return mac_identity(front.pid, front.name, front.bundle_id, front.title, os.getpid()) if front else None

    def classify_app(self, name: str) -> TargetClass | None:
        """The class of the bundle ``name`` would open (its Info.plist's bundle id), not opened."""
        try:
            resolved = apps.resolve(name, self.platform, apps.platform_finder(self.platform, self._which),
                                    extra=getattr(self._settings, "apps", ()),
                                    browser=browser_app_argv() if os.environ.get("BROWSER") else None)  # its own default is an app, not a command
            bundle = apps.find_mac_bundle(resolved.argv[2]) if resolved.argv[:2] == ("open", "-a") else None
        except PermanentToolError:
            return TargetClass.UNKNOWN
        return (mac_bundle(self._api.bundle_id(bundle)) if bundle else None) or TargetClass.UNKNOWN

    def launch_identity(self) -> WindowIdentity | None:
        """What the last verified launch brought to the front (None: unverified)."""
        evidence = self._last_launch
        if evidence is None:
            return None
        front = self._front_identity()
        return front if front is not None and front.pid == evidence.pid else None

    def close(self) -> None:
        self._targeting.close()
        super().close()

    # -- launching: wait for the app to come to the front ----------------------------------

    def _before_launch(self, name: str) -> None:
        self._last_launch = None
        self._started.at = time.monotonic()

    def _after_launch(self, proc: subprocess.Popen[bytes], name: str, cancel: CancelToken) -> None:
        if bundle_asked(proc) is not None:  # `open` exits once the app is launching, or fails
            deadline = time.monotonic() + OPEN_TIMEOUT_S
            while proc.poll() is None and time.monotonic() < deadline:
                if cancel.wait(0.05):
                    break
            if proc.returncode not in (None, 0):
                raise PermanentToolError(f"I couldn't find an app called {name} on this computer.",
                                         code="app_not_found")
        if self._front_failed:
            return
        try:
            started = getattr(self._started, "at", None) or time.monotonic()
            evidence = wait_for_front(self._api, proc, name, cancel, started)
        except FrontmostUnavailable as exc:
            self._front_failed = True
            log.warning("Can't tell which app is in front (%s): launches are not verified and typing is "
                        "not guarded.", exc)
            return
        self._last_launch, self.target_window, self._aimed = evidence, evidence.pid, False
        log.info("%s is in front after %.3f s: pid %s %r", name, evidence.seconds, evidence.pid, evidence.title)

    # -- the browser's window (browser_watch.py): the front app's pid stands for its window -----

    def _front_window(self) -> FrontWindow | None:
        if self._front_failed:
            return None
        try:
            front = self._api.frontmost()
        except FrontmostUnavailable:
            self._front_failed = True
            return None
        return FrontWindow(front.pid, self._api.window_title(front.pid)) if front is not None else None

    def _window_titles(self) -> dict[int, str] | None:
        # only the app in front can be asked for its title: "new" means new in front, or retitled
        front = self._front_window()
        if self._front_failed or (front is not None and not front.title and self._is_browser_window(front, None)):
            return None  # a browser in front whose title can't be read (no Accessibility): no change to see
        return {front.window: front.title} if front is not None else {}

    def _is_browser_window(self, front: FrontWindow, proc: subprocess.Popen[bytes] | None) -> bool:
        found = self._front_identity()
        return found is not None and found.pid == front.window and found.klass is TargetClass.BROWSER

    # -- the focus guard --------------------------------------------------------------------

    def _check_focus(self) -> None:
        """Raise "Focus moved to ..." unless the target app (if any) is frontmost."""
        target = self.target_window
        if not self.focus_guard or target is None:
            return
        if not self._api.alive(target):
            self.target_window, aimed, self._aimed = None, self._aimed, False
            if aimed:  # the app the keys were aimed at: refuse this once, never type elsewhere
                raise PermanentToolError("The app I was typing into has quit, so I stopped.", code="target_gone")
            log.info("The app I was typing into (pid %s) has quit; typing unguarded.", target)
            return
        try:
            front = self._api.frontmost()
        except FrontmostUnavailable as exc:
            # it answered at launch: refuse to type blind rather than into the wrong app
            raise TransientToolError(f"I can't tell which app is in front ({exc}).") from exc
        if front is not None and front.pid == target:
            return
        if front is None:
            raise PermanentToolError("Focus moved away from the app I was typing into.", code="focus_moved")
        label = front.name or self._api.window_title(front.pid) or f"process {front.pid}"
        raise PermanentToolError(f"Focus moved to {label}.", code="focus_moved")

    # -- the keyboard -------------------------------------------------------------------

    def _type_chunk(self, chunk: str) -> None:
        with self._kb_lock:
            for plain, run in split_runs(chunk):
                self._check_focus()  # before every run: the check-to-keys gap is one run
                if plain:
                    self._gui("write", run, interval=0)
                else:
                    self._paste(run)

    def _press_chord(self, chord: tuple[str, ...]) -> None:
        with self._kb_lock:
            self._check_focus()
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
