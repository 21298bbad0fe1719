"""Hold-to-talk's global key: while it is held, the listener takes a phrase as a command without
the wake word (``VoiceInput.hold_to_talk``; the wake gate's rule is in holds.py).

``start_talk_key(name, on_change)`` returns a ``TalkKey`` that calls ``on_change(True)`` when the
key goes down and ``on_change(False)`` when it comes up, on its own thread, until ``close``. Where
it cannot work it returns a ``NullTalkKey`` whose ``reason`` says why; it never raises.

- X11 (talkkey_x11.py): the RECORD extension shows every key event of the server without taking
  the key away. A passive grab (``XGrabKey``) was the other way: it turns into an active keyboard
  grab while the key is down, so Right Ctrl would stop being Ctrl for every other app
  (Ctrl+C in a terminal with it held would reach AnovaX, not the terminal).
- Wayland: a Wayland compositor sends keys only to the focused window; an ordinary app cannot
  watch or grab a key globally (by design). The orb's held Mute button does the same job.
- Windows and macOS: not built (it would need a keyboard hook: pynput or the platform's own
  API; macOS also asks the user for Input Monitoring permission). The orb's button works there.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger(__name__)

#: the default: Right Ctrl, a key most layouts have and few shortcuts need on its own
DEFAULT_TALK_KEY = "Control_R"
#: how common X key names are printed ("hold Right Ctrl", not "hold Control_R"); others as named
KEY_LABELS = {"Control_R": "Right Ctrl", "Control_L": "Left Ctrl", "Alt_R": "Right Alt", "Alt_L": "Left Alt",
              "Shift_R": "Right Shift", "Shift_L": "Left Shift", "Super_R": "Right Super", "Super_L": "Left Super",
              "ISO_Level3_Shift": "AltGr", "Menu": "the Menu key", "Pause": "Pause", "Scroll_Lock": "Scroll Lock"}


def key_label(name: str) -> str:
    """``Right Ctrl`` for ``Control_R``; ``F12`` stays ``F12``."""
    return KEY_LABELS.get(name, name)


#: ANOVAX_TALK_KEY values that turn it off
OFF_WORDS = frozenset({"off", "none", "0", "false", "no"})
#: an X keysym name ("Control_R", "F12", "Pause", "Super_R"); anything else is a typo
KEY_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,39}$")
#: a release is final only when no press of the same key follows this soon: X's autorepeat
#: may send release+press pairs (same timestamp) for as long as a key is held
REPEAT_SETTLE_S = 0.06


class TalkKey(Protocol):
    """A running (or impossible) global talk key."""

    #: why it does not work here; "" while it does
    reason: str
    #: the key, as configured
    name: str

    def close(self) -> None: ...


@dataclass
class NullTalkKey:
    """No global talk key here; ``reason`` says why. ``quiet``: not worth a start-up line
    (turned off, no display at all: nobody expects a key there)."""

    reason: str
    name: str = ""
    quiet: bool = False

    def close(self) -> None:
        pass


class HeldKey:
    """Turns a key's raw presses and releases into held/let-go changes: repeated presses
    (autorepeat) are one hold, and a release followed within ``settle_s`` by a press is no
    release. ``on_change`` runs on the caller's thread for a press and on a timer thread for a
    release; it is never called twice in a row with the same value."""

    def __init__(self, on_change: Callable[[bool], Any], settle_s: float = REPEAT_SETTLE_S) -> None:
        self._on_change = on_change
        self._settle_s = settle_s
        self._lock = threading.Lock()
        self._held = False
        self._pending: threading.Timer | None = None
        #: which release the pending timer is for (a cancelled timer may fire anyway)
        self._generation = 0
        self._closed = False

    @property
    def held(self) -> bool:
        with self._lock:
            return self._held

    def press(self) -> None:
        with self._lock:
            if self._pending is not None:  # release+press: autorepeat, still held
                self._pending.cancel()
                self._pending = None
                return
            if self._held or self._closed:
                return
            self._held = True
        self._call(True)

    def release(self) -> None:
        with self._lock:
            if not self._held or self._pending is not None or self._closed:
                return
            self._generation += 1
            timer = self._pending = threading.Timer(self._settle_s, self._settled, args=(self._generation,))
            timer.name = "voice-talk-key-release"
            timer.daemon = True
        timer.start()

    def close(self) -> None:
        """Let go (if held) and call nothing afterwards."""
        with self._lock:
            self._closed = True
            if self._pending is not None:
                self._pending.cancel()
                self._pending = None
            was, self._held = self._held, False
        if was:
            self._call(False)

    def _settled(self, generation: int) -> None:
        with self._lock:
            if self._pending is None or generation != self._generation:
                return  # cancelled by a press that came in as it fired
            self._pending = None
            self._held = False
        self._call(False)

    def _call(self, held: bool) -> None:
        try:
            self._on_change(held)
        except Exception:  # noqa: BLE001 - a failing listener must not kill the key's thread
            log.exception("talk key callback failed")


def parse_talk_key(value: str) -> str:
    """"off" or a key name, from ANOVAX_TALK_KEY; ValueError with the reason otherwise."""
    value = value.strip()
    if value.lower() in OFF_WORDS:
        return "off"
    if not KEY_NAME.match(value):
        raise ValueError(f"must be an X key name such as {DEFAULT_TALK_KEY}, F12 or Pause, or off; not {value!r}")
    return value


def keysym(name: str) -> int:
    """The X keysym of the key name ``name``, 0 for none; raises ImportError without python-xlib.
    Only a talk key set by the user pays for the import (about 20 ms), never a default start."""
    from Xlib import XK

    for group in ("xf86", "xkb"):  # media and modifier keys are not in the default tables
        XK.load_keysym_group(group)
    return int(XK.string_to_keysym(name))


def known_keysym(name: str) -> bool:
    """Whether the key name is one the talk key can grab ("NoSuchKey" was taken silently and
    never worked); True where python-xlib is not installed, which has no talk key anyway."""
    try:
        return keysym(name) != 0
    except ImportError:
        return True


def talk_key_problem(env: Mapping[str, str] | None = None, platform: str | None = None) -> tuple[str, bool] | None:
    """Why a global talk key cannot work here, and whether that is worth no start-up line; None: try X11."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if platform == "win32":
        return "hold-to-talk has no global key on Windows yet; hold the orb's Mute button instead", True
    if platform == "darwin":
        return "hold-to-talk has no global key on macOS yet; hold the orb's Mute button instead", True
    if env.get("WAYLAND_DISPLAY") or env.get("XDG_SESSION_TYPE", "").lower() == "wayland":
        return ("Wayland lets no ordinary app watch a key outside its own window, so the talk key "
                "cannot work here; hold the orb's Mute button instead", False)
    if not env.get("DISPLAY"):
        return "no X display", True
    return None


def start_talk_key(name: str, on_change: Callable[[bool], Any], *, env: Mapping[str, str] | None = None,
                   platform: str | None = None) -> TalkKey:
    """The talk key ``name`` watched on its own thread, or a NullTalkKey saying why not. Never raises."""
    if name == "off":
        return NullTalkKey("turned off (ANOVAX_TALK_KEY=off)", name, quiet=True)
    problem = talk_key_problem(env, platform)
    if problem is not None:
        return NullTalkKey(problem[0], name, quiet=problem[1])
    try:
        from anovax.voice.talkkey_x11 import X11TalkKey

        return X11TalkKey.start(name, on_change, display_name=(env or os.environ).get("DISPLAY"))
    except Exception as exc:  # noqa: BLE001 - no key is a notice, never a crash
        log.debug("talk key failed", exc_info=True)
        return NullTalkKey(f"the talk key {name} cannot be watched ({exc or type(exc).__name__})", name)
