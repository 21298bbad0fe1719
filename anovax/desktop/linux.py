"""The Linux desktop: X11 keyboard through xdotool, pyautogui as an ASCII-only fallback.

Typing non-ASCII text: characters missing from the keyboard map are bound to spare keycodes
first (``X11Keymap``, x11_keymap.py), so xdotool types them like ordinary keys.

Wayland-only sessions (no DISPLAY) can launch apps, open URLs and speak, but not type:
xdotool and pyautogui speak X11.

Verified launches and the focus guard (x11.py): ``launch_app`` returns once a new window
of the app is the EWMH active window (``launch_evidence()`` says which, and how long it
took); that window becomes the keyboard's *target*. While a target is known,
``type_text`` types each chunk only if the target still has the focus (atomically, under
a server grab) and ``press_keys`` checks it before each chord; if the focus moved they
stop with "Focus moved to <title>." before another key is sent. With no target yet
(nothing launched by this desktop), keys go to whatever window has the focus, as before.
Without python-xlib or an X connection, launches are not verified (a short settle wait).

Browser evidence (browser_watch.py): a URL counts as opened once a window that is new or retitled
since the request has the focus and is a browser's (x11_browser.py).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from anovax.desktop import apps, refocus
from anovax.desktop.base import CancelToken, KeyTarget
from anovax.desktop.identity import key_gap_s
from anovax.desktop.linux_target import X11Targeting
from anovax.desktop.real import RealDesktop
from anovax.desktop.launcher import Launcher, browser_app_argv
from anovax.desktop.typing import is_ascii_typable, keysym_for_char, pyautogui_chord, xdotool_chord
from anovax.desktop.x11 import NO_WM, X11Focus, wait_for_window
from anovax.desktop.x11_browser import X11BrowserWindows
from anovax.desktop.x11_keymap import RECYCLE_AFTER_S, X11Keymap
from anovax.desktop.x11_windows import X11WindowMethods
from anovax.errors import PermanentToolError, TransientToolError
from anovax.target import TargetClass, WindowIdentity

__all__ = ["RECYCLE_AFTER_S", "XDOTOOL_DELAY_MS", "LinuxDesktop", "X11Keymap", "fix_pyautogui_shifted_keys"]

log = logging.getLogger(__name__)

#: how long the installed apps' desktop entries are reused before they are read again
ENTRIES_TTL_S = 30.0

#: milliseconds between keystrokes within a chunk (xdotool's default is 12); 1 ms was
#: enough for a Tk window to keep up here, measured at ~800 characters per second
XDOTOOL_DELAY_MS = 1
#: one xdotool call types at most one chunk; it is wedged if it takes this long
XDOTOOL_TIMEOUT_S = 10.0


class LinuxDesktop(X11WindowMethods, X11BrowserWindows, RealDesktop):
    """X11 (or XWayland) desktop; its window tools are x11_windows.py's, its browser evidence x11_browser.py's."""

    name = "linux"
    platform = "linux"

    def __init__(self, settings: Any = None, *, launcher: Launcher | None = None,
                 which: Callable[[str], str | None] = shutil.which, env: Mapping[str, str] | None = None,
                 use_xdotool: bool = True, track_focus: bool = True) -> None:
        super().__init__(settings, launcher=launcher, which=which)
        env = os.environ if env is None else env
        self._x11 = bool(env.get("DISPLAY"))
        #: None: pyautogui is the keyboard (ASCII only)
        self.xdotool = which("xdotool") if self._x11 and use_xdotool else None
        self._keymap: X11Keymap | None = None
        self._keymap_failed = False
        self._kb_lock = threading.Lock()
        self._display_name = env.get("DISPLAY")
        self._focus: X11Focus | None = None
        self._focus_failed = False
        self._launching = threading.local()  # the window list before this thread's launch
        #: (WM_CLASS, _NET_WM_PID) the target had when it became the target: X reuses ids
        self._target_sig: tuple[str, int | None] | None = None
        #: the target was aimed at (aim), not launched: if it closes, the keys stop
        self._aimed = False
        #: seconds between keys for the target (calculators drop keys that come too fast)
        self._key_gap_s = 0.0
        self._last_key_at = 0.0
        self._entries: tuple[float, list[apps.DesktopEntry]] | None = None
        # started now: the window the user was in before clicking the orb must already be known
        self._targeting = X11Targeting(self._display_name, self._focus_conn, vouched=getattr(settings, "apps", ()),
                                       track=self._x11 and track_focus)
        if self._x11 and self.xdotool is None:
            log.warning("xdotool is not installed: typing is limited to plain ASCII (Debian package xdotool).")

    # -- launching: wait for the app's window -------------------------------------------

    def _desktop_entries(self) -> Iterator[apps.DesktopEntry]:
        # read again at most every ENTRIES_TTL_S: parsing every entry costs ~7 ms, and the gate asks
        # for each app a plan opens (classify_app); an app installed meanwhile shows up within it
        now = time.monotonic()
        cached = self._entries
        if cached is None or now - cached[0] > ENTRIES_TTL_S:
            cached = self._entries = (now, apps.desktop_entries(apps.application_dirs(os.environ)))
        yield from cached[1]

    def _focus_conn(self) -> X11Focus | None:
        if self._focus is None and not self._focus_failed and self._x11:
            try:
                self._focus = X11Focus(self._display_name)
            except Exception as exc:  # no python-xlib, no X authority, no server: launches go unverified
                self._focus_failed = True
                log.warning("Can't watch window focus (%s): launches are not verified and typing "
                            "is not guarded.", exc)
        return self._focus

    def _before_launch(self, name: str) -> None:
        self._last_launch = None
        self._launching.started = time.monotonic()
        self._launching.watching = False
        focus = self._focus_conn()
        if focus is None:
            return
        # checked first: without a window manager no new window ever gets the focus
        if not focus.wm_running():
            raise PermanentToolError(NO_WM, code="no_window_manager")
        focus.watch_new_windows(True)
        self._launching.watching = True

    def _after_launch(self, proc: subprocess.Popen[bytes], name: str, cancel: CancelToken) -> None:
        if not getattr(self._launching, "watching", False) or self._focus is None:
            super()._after_launch(proc, name, cancel)
            return
        try:
            evidence = wait_for_window(self._focus, proc, name, cancel, self._launching.started)
        finally:
            self._focus.watch_new_windows(False)
        self._last_launch, self.target_window = evidence, evidence.window
        self._target_sig, self._aimed = (evidence.wm_class, evidence.pid), False
        self._key_gap_s = key_gap_s(self._targeting.identify(evidence.window))
        log.info("%s has the focus after %.3f s: window %#x %r", name, evidence.seconds, evidence.window,
                 evidence.title)

    def _guarded(self) -> tuple[X11Focus, int] | None:
        if self.focus_guard and self.target_window is not None and self._focus is not None:
            now, then = self._focus.describe(self.target_window), self._target_sig
            # X hands a closed client's ids to the next client: same id, other app = gone too
            if now is None or (then is not None and (now.wm_class, now.pid) != then):
                window, aimed = self.target_window, self._aimed
                self.target_window, self._aimed = None, False
                if aimed:  # the window the keys were aimed at: refuse this once, never type elsewhere
                    raise PermanentToolError("The window I was typing into was closed, so I stopped.",
                                             code="target_gone")
                # the app was closed: "type ..." now means the window the user is in, as before
                # any launch (refusing every later command would be the wrong kind of safe)
                log.info("the target window %#x is gone; typing into the focused window", window)
                return None
            return self._focus, self.target_window
        return None

    def _focus_moved(self, focus: X11Focus, active: int | None) -> PermanentToolError:
        # mid-switch the window manager clears _NET_ACTIVE_WINDOW before naming the new one:
        # look a little longer (nothing is typed meanwhile) so the message can name the thief
        deadline = time.monotonic() + 0.2
        while active in (None, 0, self.target_window) and time.monotonic() < deadline:
            time.sleep(0.005)
            active = focus.active_window()
        if active == self.target_window:
            active = None
        info = focus.describe(active) if active else None
        if info is None:
            return PermanentToolError("Focus moved away from the window I was typing into.", code="focus_moved")
        return PermanentToolError(f"Focus moved to {info.title or f'window {active:#x}'}.", code="focus_moved")

    def _check_focus(self) -> None:
        """Raise "Focus moved to ..." unless the target (if any) has the focus."""
        guarded = self._guarded()
        if guarded is not None:
            focus, target = guarded
            if not focus.focused(target):
                raise self._focus_moved(focus, focus.active_window())

    def keyboard_target(self) -> KeyTarget | None:
        focus = self._focus_conn()
        try:
            guarded = self._guarded()
        except PermanentToolError:  # an aimed window that closed: the focused one is what keys would reach
            guarded = None
        return refocus.current_target(focus, guarded[1] if guarded else None) if focus is not None else None

    def refocus(self, target: KeyTarget, cancel: CancelToken) -> None:
        if self._focus is not None:
            refocus.bring_back(self._focus, target, cancel)

    # -- the target, identified (issue 16; linux_target.py) ---------------------------------

    def user_target(self) -> WindowIdentity | None:
        """The focused window unless it is AnovaX's, else the last window the user was in."""
        return self._targeting.user_target()

    def classify_app(self, name: str) -> TargetClass | None:
        """The class of what ``name`` would open (resolved through the app table, not started)."""
        try:
            resolved = apps.resolve(name, self.platform, apps.platform_finder(self.platform, self._which),
                                    extra=getattr(self._settings, "apps", ()), entries=self._desktop_entries(),
                                    browser=browser_app_argv())
        except PermanentToolError:  # nothing to open: the launch fails anyway, and nobody vouches for it
            return TargetClass.UNKNOWN
        return resolved.kind or self._targeting.classify_argv(resolved.argv)

    def aim(self, target: WindowIdentity, cancel: CancelToken) -> None:
        """Make ``target`` the keyboard's target: re-activated and verified now, checked before
        every chunk from then on; PermanentToolError when it is gone or won't take the focus."""
        with self._kb_lock:
            info = self._targeting.aim(target, cancel)
            self.target_window, self._target_sig, self._aimed = info.window, (info.wm_class, info.pid), True
            self._key_gap_s = key_gap_s(target)

    def return_to_user(self) -> None:
        # never waits for the keyboard: a command typing now (voice, the phone) owns the focus, and
        # moving it right after that command's keys would be the wrong window for the next ones
        if not self._kb_lock.acquire(blocking=False):
            return
        try:
            self._targeting.return_to_user()
        finally:
            self._kb_lock.release()

    def launch_identity(self) -> WindowIdentity | None:
        """What the last verified launch really opened (None: unverified, or gone since)."""
        evidence = self._last_launch
        return self._targeting.identify(evidence.window) if evidence is not None else None

    # -- the keyboard -------------------------------------------------------------------

    def _before_typing(self, text: str) -> None:
        if not self._x11:
            raise PermanentToolError("I can't type here: typing needs an X11 session and this one is Wayland-only.")
        if self.xdotool is None and not is_ascii_typable(text):
            raise PermanentToolError("I can only type plain English letters here; installing xdotool would let "
                                     "me type accents and other scripts.", code="needs_xdotool")
        if self.xdotool is not None and not is_ascii_typable(text):
            with self._kb_lock:
                self._bind(text, all_or_nothing=True)  # usually the only keymap change for the whole text

    def _type_chunk(self, chunk: str) -> None:
        if not self._key_gap_s:
            self._type_keys(chunk)
            return
        for char in chunk:  # a calculator: one key at a time, each checked like a chunk
            self._pace()
            self._type_keys(char)

    def _pace(self) -> None:
        wait = self._last_key_at + self._key_gap_s - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._last_key_at = time.monotonic()

    def _type_keys(self, chunk: str) -> None:
        with self._kb_lock:
            guarded = self._guarded()
            if guarded is not None and self.xdotool is not None:
                if not is_ascii_typable(chunk):
                    self._bind(chunk)  # before the grab: the keymap has its own connection
                try:
                    active = guarded[0].type_guarded(guarded[1], chunk)
                except LookupError:  # a character not on the map: xdotool's scratch key, checked first
                    active = None
                    self._check_focus()
                    self._xdotool("type", "--delay", str(XDOTOOL_DELAY_MS), "--", chunk)
                if active is not None:
                    raise self._focus_moved(guarded[0], active)
                return
            self._check_focus()
            if self.xdotool is None:
                self._gui("write", chunk, interval=0)
                return
            if not is_ascii_typable(chunk):
                self._bind(chunk)
            # "--": a chunk starting with "-" is text, not an option; \n and \t become Return and Tab
            self._xdotool("type", "--delay", str(XDOTOOL_DELAY_MS), "--", chunk)

    def _press_chord(self, chord: tuple[str, ...]) -> None:
        if not self._x11:
            raise PermanentToolError("I can't press keys here: that needs an X11 session and this one is Wayland-only.")
        if self._key_gap_s:
            self._pace()
        with self._kb_lock:
            self._check_focus()  # a chord is one or two events: the gap after the check is tiny
            if self.xdotool is None:
                self._gui("hotkey", *pyautogui_chord(chord, "linux"))
            else:
                # --clearmodifiers: a modifier still held (by the user) must not change the chord
                self._xdotool("key", "--clearmodifiers", xdotool_chord(chord))

    def _bind(self, text: str, *, all_or_nothing: bool = False) -> None:
        if self._keymap is None and not self._keymap_failed:
            try:
                self._keymap = X11Keymap()
            except Exception as exc:  # no python-xlib, no X authority: fall back to xdotool alone
                self._keymap_failed = True
                log.warning("Can't prepare the keyboard map (%s); accented and CJK characters may be "
                            "dropped or repeated.", exc)
        if self._keymap is not None:
            try:
                left = self._keymap.bind(text, all_or_nothing=all_or_nothing)
            except Exception as exc:  # e.g. the connection dropped: type with xdotool alone
                log.warning("Keyboard map update failed (%s); typing without it.", exc)
                self._keymap, self._keymap_failed = None, True
                return
            if left:
                log.warning("No spare keycode for %r; xdotool will try its own.", "".join(left))

    def _xdotool(self, *args: str) -> None:
        assert self.xdotool is not None
        try:
            done = subprocess.run([self.xdotool, *args], capture_output=True, text=True,
                                  timeout=XDOTOOL_TIMEOUT_S, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as exc:
            raise TransientToolError(f"xdotool {args[0]} did not finish within {XDOTOOL_TIMEOUT_S:.0f} s.") from exc
        except OSError as exc:
            raise PermanentToolError(f"I couldn't run xdotool: {exc.strerror or exc}.") from exc
        if done.returncode != 0:
            detail = (done.stderr.strip().splitlines() or ["no details"])[-1]
            raise TransientToolError(f"xdotool {args[0]} failed: {detail}")

    def _pyautogui_loaded(self, pyautogui: Any) -> None:
        fix_pyautogui_shifted_keys()

    def screenshot(self, cancel: CancelToken) -> Path:
        if not self._x11:
            raise PermanentToolError("I can't take screenshots here: that needs an X11 session and this one is "
                                     "Wayland-only.")
        return super().screenshot(cancel)

    def close(self) -> None:
        self._targeting.close()
        self._close_windows()
        focus, self._focus = self._focus, None
        if focus is not None:
            focus.close()
        keymap, self._keymap = self._keymap, None
        if keymap is not None:
            keymap.close()
        super().close()


#: characters pyautogui always types as Shift + their key (its US-keyboard assumption)
_PYAUTOGUI_SHIFTED = '~!@#$%^&*()_+{}|:"<>?'


def fix_pyautogui_shifted_keys() -> None:
    """Point pyautogui's shifted characters at keys where they really are the shifted symbol.

    pyautogui looks "<" up by keysym and finds the ISO "<>" key (unshifted "<"), then
    holds Shift because "<" is a shifted character on a US keyboard: out comes ">"
    (measured). Mapping each such character to a keycode where it sits at the shifted
    level makes Shift + key right on any layout that has one.
    """
    try:
        from pyautogui import _pyautogui_x11 as x11

        for ch in _PYAUTOGUI_SHIFTED:
            shifted = [kc for kc, index in x11._display.keysym_to_keycodes(keysym_for_char(ch)) if index == 1]
            if shifted:
                x11.keyboardMapping[ch] = shifted[0]
    except Exception as exc:  # private pyautogui internals: if they moved, keep its own mapping
        log.warning("Could not correct pyautogui's keyboard map (%s): '<' may come out as '>'.", exc)
