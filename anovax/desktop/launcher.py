"""One launcher for every process AnovaX starts: apps, browsers (and the speech player's log).

Every child gets a session of its own (our Ctrl+C or exit must not take the user's app with
it), no stdin, and its stdout/stderr appended to ``<state>/launched.log``: a browser's D-Bus
complaints or an app's GTK warnings never reach the console AnovaX is talking in. Children are
reaped when they exit (PID 1 in a container often reaps nothing, so ``<defunct>`` piles up).

``SETTLE_S`` is the one launch-settle time: a launched app counts as ready once what shows it
(its window tree on X11, the foreground window on Windows, the front app on macOS) has held
still this long. ``Launcher.settle`` is the one wait for launches nothing can verify. A browser
command is only started here (``start_browser``): whether it showed the page is the desktop's to
prove from its windows (browser_watch.py), since its exit code proves nothing.
"""

from __future__ import annotations

import os
import subprocess
import threading
import webbrowser
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from anovax.desktop.base import CancelToken
from anovax.errors import PermanentToolError

#: a launched app is settled once what shows it has held still this long (X11, Windows, macOS)
SETTLE_S = 0.1
#: where nothing can verify the launch: give the app this long to fail before calling it open
UNVERIFIED_SETTLE_S = 0.3
#: how often the reaper thread collects exited children
REAP_EVERY_S = 1.0


def state_dir(settings: Any) -> Path:
    """The state folder (where the event log lives): launched programs write beside it."""
    from anovax.settings import default_log_path

    log_path = getattr(settings, "log_path", None) or default_log_path()
    return Path(log_path).parent


def launched_log(state_dir: Path | None) -> Path | None:
    """``<state_dir>/launched.log``, where launched programs write (None: nowhere)."""
    return state_dir / "launched.log" if state_dir is not None else None


class ChildReaper:
    """Collects launched children when they exit, so none lingers as a zombie.

    We are the parent of every app we start, so reaping is our job. One named thread polls
    the Popen objects."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._children: list[subprocess.Popen[bytes]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._children.append(proc)
            if self._thread is None and not self._stop.is_set():
                self._thread = threading.Thread(target=self._loop, name="reaper", daemon=True)
                self._thread.start()

    @property
    def running(self) -> list[subprocess.Popen[bytes]]:
        with self._lock:
            return list(self._children)

    def reap(self) -> None:
        with self._lock:
            self._children = [p for p in self._children if p.poll() is None]

    def close(self) -> None:
        """Stop reaping; the apps keep running (they are the user's now)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(REAP_EVERY_S + 1.0)
        self.reap()

    def _loop(self) -> None:
        while not self._stop.wait(REAP_EVERY_S):
            self.reap()


class Launcher:
    """Starts programs without a shell, in their own session, writing into ``log_path``."""

    def __init__(self, log_path: Path | None = None) -> None:
        #: where children's stdout and stderr go; None: nowhere (os.devnull)
        self.log_path = log_path
        self.reaper = ChildReaper()

    def start(self, argv: list[str], options: Mapping[str, Any] | None = None) -> subprocess.Popen[bytes]:
        """Start ``argv`` (OSError when it cannot start): in its own session, no stdin, output
        to the log. ``options`` replace all of that for a platform that needs its own (Windows
        gives console apps a console of their own, whose output must stay there)."""
        if options is not None:
            proc = subprocess.Popen(argv, shell=False, **options)
        else:
            with self._open_log() as log_file:  # the child keeps its own copy of the descriptor
                proc = subprocess.Popen(argv, shell=False, start_new_session=True, stdin=subprocess.DEVNULL,
                                        stdout=log_file, stderr=log_file)
        self.reaper.add(proc)
        return proc

    def _open_log(self) -> IO[bytes]:
        if self.log_path is not None:
            try:
                self.log_path.parent.mkdir(parents=True, exist_ok=True)
                return open(self.log_path, "ab")
            except OSError:
                pass  # an unwritable state folder silences children rather than failing the launch
        return open(os.devnull, "wb")

    def settle(self, proc: subprocess.Popen[bytes], name: str, cancel: CancelToken, *,
               check_exit: bool = True) -> None:
        """The wait for a launch nothing can verify; an app that exits with an error meanwhile
        did not open (``check_exit=False`` where exit codes mean nothing, as on Windows)."""
        # a cancel here cuts the wait short but the app has started: it is reported as opened
        cancel.wait(UNVERIFIED_SETTLE_S)
        code = proc.poll()
        if check_exit and code not in (None, 0):
            raise PermanentToolError(f"{name} quit right after starting (exit code {code}).")

    def start_browser(self, url: str, browser: Callable[[], webbrowser.BaseBrowser] | None = None
                      ) -> tuple[subprocess.Popen[bytes], bool] | None:
        """Start the browser command for ``url``, and whether its exit code tells success;
        None when the browser is not a command. OSError when its program cannot start."""
        argv, waits = browser_command((browser or find_browser)(), url)
        if argv is None:
            return None
        return self.start(argv), waits  # OSError: no such program; the caller says so

    def close(self) -> None:
        self.reaper.close()


def browser_command(browser: webbrowser.BaseBrowser, url: str) -> tuple[list[str] | None, bool]:
    """The command ``browser`` would run for ``url`` (in a new tab), and whether its exit code
    tells success (wait for it); (None, False) for a browser that is not a command."""
    if isinstance(browser, webbrowser.BackgroundBrowser):  # a subclass of GenericBrowser
        return [browser.name, *(arg.replace("%s", url) for arg in browser.args)], False
    if isinstance(browser, webbrowser.GenericBrowser):
        return [browser.name, *(arg.replace("%s", url) for arg in browser.args)], True
    if isinstance(browser, webbrowser.UnixBrowser):
        action = browser.remote_action_newtab or browser.remote_action_newwin
        args = [arg.replace("%s", url).replace("%action", action) for arg in browser.remote_args]
        # a remote call exits once an open browser has the page, or stays up as the browser
        return [browser.name, *(arg for arg in args if arg)], True
    return None, False


def browser_app_argv(env: Mapping[str, str] | None = None) -> tuple[str, ...] | None:
    """The command that starts the browser searches use, without a page: what "open the browser"
    runs and the doctor shows. None: no browser found, or one that is not a command (the
    Windows/macOS defaults: the app table's browser then)."""
    try:
        browser = find_browser(env)
    except webbrowser.Error:
        return None
    if isinstance(browser, webbrowser.GenericBrowser):  # and BackgroundBrowser: "prog --flag %s"
        return (browser.name, *(arg for arg in browser.args if "%s" not in arg))
    if isinstance(browser, webbrowser.UnixBrowser):
        return (browser.name,)
    return None


def cant_start(name: str, exc: OSError) -> str:
    """Why the browser program ``name`` did not start, and what to do about it."""
    if isinstance(exc, FileNotFoundError):
        return f"I couldn't start the browser: '{name}' is not installed. Set BROWSER or install one"
    return f"I couldn't start the browser '{name}': {exc.strerror or exc}"


def find_browser(env: Mapping[str, str] | None = None) -> webbrowser.BaseBrowser:
    """The browser for a URL, honouring the *current* $BROWSER (of ``env``, else os.environ).

    ``webbrowser`` reads $BROWSER once per process; reading it here too means a setting
    made after start-up still counts. Entries are tried in order like webbrowser does.
    The one resolution for searches, "open the browser" and the doctor.
    """
    for entry in filter(None, (os.environ if env is None else env).get("BROWSER", "").split(os.pathsep)):
        for using in (entry,) if "%s" in entry else (entry, f"{entry} %s"):
            try:
                return webbrowser.get(using)
            except webbrowser.Error:
                continue
    return webbrowser.get()
