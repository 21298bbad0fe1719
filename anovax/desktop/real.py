"""The real desktop: what every platform adapter shares, and ``make_real_desktop``.

``RealDesktop`` does the platform-neutral parts (launching apps and browsers through the
``Launcher``, screenshots, the chunked typing loop with its cancel checks); ``LinuxDesktop``,
``WindowsDesktop`` and ``MacDesktop`` supply the keyboard and the app table. GUI
libraries (pyautogui, mss, Xlib) are imported inside methods, so importing
this module never fails on a headless machine; a missing one becomes a clear
``PermanentToolError`` or ``ConfigError``.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from anovax.desktop import apps
from anovax.desktop.base import CancelToken, Desktop, LaunchEvidence, chunks
from anovax.desktop.browser_watch import (BrowserEvidence, FrontWindow, TitleWatcher, did_not_open, wait_for_browser,
                                          why_exit)
from anovax.desktop.launcher import (UNVERIFIED_SETTLE_S, Launcher, browser_app_argv, cant_start, find_browser,
                                     launched_log, state_dir)
from anovax.desktop.typing import parse_chords, prepare_text
from anovax.errors import ConfigError, PermanentToolError, TransientToolError
from anovax.target import TargetClass

#: a browser command whose exit tells success is waited for this long, then left running
OPEN_URL_WAIT_S = 3.0


def make_real_desktop(settings: Any = None, env: Mapping[str, str] | None = None) -> Desktop:
    """The adapter for this OS; ConfigError when there is no desktop to act on."""
    env = os.environ if env is None else env
    if sys.platform.startswith("linux"):
        if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
            raise ConfigError("No display: AnovaX can't act on a desktop here (DISPLAY and WAYLAND_DISPLAY are "
                              "unset); run it in a desktop session to act for real.")
        from anovax.desktop.linux import LinuxDesktop

        return LinuxDesktop(settings)
    if sys.platform == "win32":
        from anovax.desktop.windows import WindowsDesktop

        return WindowsDesktop(settings)
    if sys.platform == "darwin":
        from anovax.desktop.macos import MacDesktop

        return MacDesktop(settings)
    raise ConfigError(f"AnovaX has no desktop adapter for {sys.platform}; use --simulate.")


def check_url(url: str) -> str:
    """The URL if it is an http(s) address with a host; PermanentToolError otherwise."""
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise PermanentToolError("I only open web addresses that start with http:// or https://.", code="bad_url")
    if any(ch.isspace() or ord(ch) < 0x20 for ch in url):
        raise PermanentToolError("That web address contains spaces or control characters.", code="bad_url")
    return url


def screenshot_path(folder: Path, when: dt.datetime) -> Path:
    """``folder/anovax-YYYYmmdd-HHMMSS.png``, or ``...-2.png`` etc. when that name is taken."""
    stem = f"anovax-{when.strftime('%Y%m%d-%H%M%S')}"
    path, n = folder / f"{stem}.png", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.png"
    return path


def pictures_dir(settings: Any, run: Callable[..., Any] = subprocess.run) -> Path:
    """settings.pictures_dir, else XDG's PICTURES folder, else ~/Pictures."""
    configured = getattr(settings, "pictures_dir", None)
    if configured:
        return Path(configured).expanduser()
    home = Path.home()
    if shutil.which("xdg-user-dir"):
        try:
            out = run(["xdg-user-dir", "PICTURES"], capture_output=True, text=True, timeout=2).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            out = ""
        # xdg-user-dir answers $HOME when PICTURES is not configured: not a pictures folder
        if out and Path(out) != home:
            return Path(out)
    return home / "Pictures"


class RealDesktop:
    """The platform-neutral half of a real desktop adapter."""

    name = "real"
    #: which app table applies: "linux", "windows" or "macos"
    platform = "linux"

    def __init__(self, settings: Any = None, *, launcher: Launcher | None = None,
                 which: Callable[[str], str | None] = shutil.which) -> None:
        self._settings = settings
        self._which = which
        #: starts apps and browsers: own session, output to <state>/launched.log, reaped
        self.launcher = launcher if launcher is not None else Launcher(launched_log(state_dir(settings)))
        self._url_threads: list[threading.Thread] = []
        self._browser_lock = threading.Lock()
        self._pyautogui: Any = None
        #: the last launch_app the adapter could verify (None: unverified, or none yet)
        self._last_launch: LaunchEvidence | None = None
        #: what keys are meant for: the window (X11, Windows) or app pid (macOS) the last
        #: verified launch_app brought to the front; None types into whatever has the focus
        self.target_window: int | None = None
        #: check that the target has the focus before each chunk (a bench switches it off)
        self.focus_guard = True

    # -- apps -------------------------------------------------------------------------

    @property
    def children(self) -> list[subprocess.Popen[bytes]]:
        """Apps we started that have not been reaped yet (for status displays and tests)."""
        return self.launcher.reaper.running

    def launch_app(self, name: str, cancel: CancelToken) -> str:
        resolved = apps.resolve(name, self.platform, apps.platform_finder(self.platform, self._which),
                                extra=getattr(self._settings, "apps", ()), entries=self._desktop_entries(),
                                browser=browser_app_argv())
        cancel.check()
        self._before_launch(name.strip())
        try:
            proc = self.launcher.start(list(resolved.argv), self._popen_options())
        except OSError as exc:
            program = Path(resolved.argv[0]).name
            if resolved.kind is TargetClass.BROWSER:
                raise PermanentToolError(cant_start(program, exc) + ".") from exc
            why = f"'{program}' is not installed" if isinstance(exc, FileNotFoundError) else exc.strerror or exc
            raise PermanentToolError(f"I couldn't start {name.strip()}: {why}.") from exc
        self._after_launch(proc, name.strip(), cancel)
        return f"Opened {name.strip()}"

    def _desktop_entries(self) -> Iterable[apps.DesktopEntry]:
        """Installed apps by the names menus show (Linux overrides this); read lazily, only
        when a name is neither in the tables nor a command."""
        return ()

    def launch_evidence(self) -> LaunchEvidence | None:
        """Window, title, class, pid and time of the last verified launch (None if unverified)."""
        return self._last_launch

    def _popen_options(self) -> dict[str, Any] | None:
        """Popen options of this platform's own, or None: the launcher's (its own session, no
        stdin, output to the launch log)."""
        return None

    def _before_launch(self, name: str) -> None:
        """Note what is on screen before the app starts (so its window can be told apart), or
        raise a tool error when a launch could not be verified at all."""

    def _after_launch(self, proc: subprocess.Popen[bytes], name: str, cancel: CancelToken) -> None:
        """Give the app a moment; one that already exited with an error did not open."""
        self.launcher.settle(proc, name, cancel)

    # -- keyboard: the loop here, the keys in the platform adapter ------------------------

    def type_text(self, text: str, cancel: CancelToken) -> int:
        text = prepare_text(text)
        self._before_typing(text)
        typed = 0
        for chunk in chunks(text):
            cancel.check()
            try:
                self._type_chunk(chunk)
            except PermanentToolError as exc:
                if not typed or exc.code != "focus_moved":
                    raise
                # the person must know some of it is already in their window
                raise PermanentToolError(f"{exc.message} I had typed {typed} of {len(text)} characters.",
                                         code=exc.code) from exc
            typed += len(chunk)
        return typed

    def press_keys(self, keys: str, cancel: CancelToken) -> None:
        chords = parse_chords(keys)
        for chord in chords:
            cancel.check()
            self._press_chord(chord)

    def _before_typing(self, text: str) -> None:
        """Raise PermanentToolError, before a key is sent, for text this adapter cannot type."""

    def _type_chunk(self, chunk: str) -> None:
        raise NotImplementedError

    def _press_chord(self, chord: tuple[str, ...]) -> None:
        raise NotImplementedError

    def _gui(self, func: str, *args: Any, **kwargs: Any) -> None:
        """Call ``pyautogui.<func>``; its failures become tool errors."""
        if self._pyautogui is None:
            try:
                import pyautogui
            except Exception as exc:  # ImportError, or Xlib failing to connect at import time
                raise PermanentToolError(f"I can't use the keyboard: pyautogui could not start ({exc!r}).") from exc
            pyautogui.PAUSE = 0  # its default sleeps 0.1 s after every call
            self._pyautogui_loaded(pyautogui)
            self._pyautogui = pyautogui
        if func == "hotkey":  # pyautogui silently skips key names it does not know
            for key in args:
                if not self._pyautogui.isValidKey(key):
                    raise PermanentToolError(f"The key {key!r} can't be pressed on this desktop.", code="bad_key")
        try:
            getattr(self._pyautogui, func)(*args, **kwargs)
        except self._pyautogui.FailSafeException as exc:
            raise PermanentToolError(
                "Stopped: the mouse pointer is in a screen corner (pyautogui's fail-safe).") from exc
        except Exception as exc:
            raise TransientToolError(f"Keyboard input failed: {exc}.") from exc

    def _pyautogui_loaded(self, pyautogui: Any) -> None:
        """Platform fix-ups once pyautogui is imported."""

    # -- browser, screen, clock ------------------------------------------------------------

    def open_url(self, url: str, cancel: CancelToken) -> BrowserEvidence | None:
        """Open ``url`` and return the window evidence that the browser showed it (browser_watch.py),
        or None where this desktop cannot see windows (then only the browser command's exit
        code is looked at). Raises ``did_not_open(...)`` when it did not open."""
        url = check_url(url)
        cancel.check()
        try:
            browser = find_browser()
        except webbrowser.Error as exc:
            raise PermanentToolError("I couldn't find a web browser on this computer.", code="no_browser") from exc
        name = Path(getattr(browser, "name", "") or "the browser").name
        # one request at a time: two searches at once would each take the other's window as theirs
        while not self._browser_lock.acquire(timeout=0.05):
            cancel.check()
        try:
            return self._open_and_watch(url, browser, name, cancel)
        finally:
            self._browser_lock.release()

    def _open_and_watch(self, url: str, browser: webbrowser.BaseBrowser, name: str,
                        cancel: CancelToken) -> BrowserEvidence | None:
        before = self._window_titles()  # before the request: what is new or retitled after it
        watch = self._watch_titles(before) if before else None
        try:
            return self._request_and_wait(url, browser, name, cancel, before, watch)
        finally:
            if watch is not None:
                watch.close()

    def _request_and_wait(self, url: str, browser: webbrowser.BaseBrowser, name: str, cancel: CancelToken,
                          before: dict[int, str] | None, watch: TitleWatcher | None) -> BrowserEvidence | None:
        # a browser that is a command runs through the launcher: its output goes to the log
        try:
            started = self.launcher.start_browser(url, lambda: browser)
        except OSError as exc:
            raise PermanentToolError(cant_start(name, exc) + ".", code="browser_failed") from exc
        proc = started[0] if started is not None else None
        if started is None:
            self._open_on_thread(browser, url)
        if before is None:
            if started is not None:
                self._unverified_exit(*started, name, cancel)
            return None
        return wait_for_browser(self._front_window, lambda front: self._is_browser_window(front, proc), before,
                                cancel, exit_code=proc.poll if proc is not None else lambda: None, name=name,
                                retitled=watch.changed if watch is not None else frozenset,
                                log_path=self.launcher.log_path)

    def _unverified_exit(self, proc: subprocess.Popen[bytes], waits: bool, name: str, cancel: CancelToken) -> None:
        """Where no window can be seen: a browser command that exits with an error did not open.
        One whose exit tells nothing (a background browser) gets the short settle wait."""
        deadline = time.monotonic() + (OPEN_URL_WAIT_S if waits else UNVERIFIED_SETTLE_S)
        # a command that stays in the foreground is left running: it has the page
        while proc.poll() is None and time.monotonic() < deadline and not cancel.wait(0.05):
            pass
        if proc.returncode not in (None, 0):
            raise did_not_open(f"{name} exited with code {proc.returncode}{why_exit(name, self.launcher.log_path)}")

    def _open_on_thread(self, browser: webbrowser.BaseBrowser, url: str) -> None:
        """A browser that is not a command (the macOS and Windows defaults) opens on a thread of its
        own; one that stays in the foreground would hold the agent: stop waiting after OPEN_URL_WAIT_S."""
        result: list[bool | BaseException] = []

        def run() -> None:
            try:
                result.append(browser.open(url, new=2))
            except Exception as exc:  # reported to the caller below
                result.append(exc)

        thread = threading.Thread(target=run, name="open-url", daemon=True)
        thread.start()
        self._url_threads = [t for t in self._url_threads if t.is_alive()] + [thread]
        thread.join(OPEN_URL_WAIT_S)
        if result and isinstance(result[0], BaseException):
            raise did_not_open(str(result[0]) or type(result[0]).__name__) from result[0]
        if result and result[0] is False:
            raise did_not_open("it exited with an error")

    # the platform's looks at its windows, for browser_watch (None / False: it cannot see them)

    def _window_titles(self) -> dict[int, str] | None:
        """The titles of the windows there are now, by window id; None: this desktop can't see windows."""
        return None

    def _watch_titles(self, before: dict[int, str]) -> TitleWatcher | None:
        """Start noting which of ``before``'s windows change title at any moment; None: cannot."""
        return None

    def _front_window(self) -> FrontWindow | None:
        """The window with the focus now, or None."""
        return None

    def _is_browser_window(self, front: FrontWindow, proc: subprocess.Popen[bytes] | None) -> bool:
        """Whether ``front`` is a browser's window (or one of ``proc``, the browser command started)."""
        return False

    def screenshot(self, cancel: CancelToken) -> Path:
        cancel.check()
        try:
            import mss
            import mss.tools
        except ImportError as exc:
            raise PermanentToolError(f"Screenshots need the mss package ({exc}).") from exc
        folder = pictures_dir(self._settings)
        folder.mkdir(parents=True, exist_ok=True)
        factory = getattr(mss, "MSS", None) or mss.mss  # mss 10 renamed mss.mss to mss.MSS
        try:
            with factory() as sct:  # created in this thread: mss objects are per-thread
                shot = sct.grab(sct.monitors[0])  # monitor 0 = all screens together
                png = mss.tools.to_png(shot.rgb, shot.size)
        except Exception as exc:
            raise TransientToolError(f"I couldn't capture the screen: {exc}.") from exc
        cancel.check()  # stopped while capturing: leave no picture behind
        while True:
            path = screenshot_path(folder, self.now())
            try:
                with path.open("xb") as fh:  # "x": never overwrite a picture taken the same second
                    fh.write(png)
                return path
            except FileExistsError:
                continue

    def now(self) -> dt.datetime:
        return dt.datetime.now().astimezone()

    def close(self) -> None:
        self.launcher.close()
        for thread in self._url_threads:
            thread.join(0.5)
