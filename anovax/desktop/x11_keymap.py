"""X11: characters missing from the keyboard map, bound to spare keycodes while typing (``X11Keymap``).

Typing non-ASCII text: ``xdotool type`` sends a character that is not on the keyboard
map by binding it to one scratch keycode, pressing it and unbinding it at once. The
target app looks the keycode up later, when it handles the event, and by then the
binding may already be the *next* character's or gone: measured here, "日本語" came out
as "日語語" or "日本" in about 1 of 5 runs in a Tk window (also when each character
got its own xdotool call). ``X11Keymap`` avoids the race: before a chunk is typed,
every missing character gets its own spare keycode, and the binding stays until the
keycode is needed again (least recently used first) or the desktop closes, so the
app finds the right character whenever it reads the map. xdotool then finds those
characters on the map and types them like ordinary keys.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable

from anovax.desktop.typing import is_ascii_typable, keysym_for_char
from anovax.desktop.x11_focus import open_display

log = logging.getLogger(__name__)

#: a keycode is rebound to another character only this long after its last keys were sent.
#: A client translates a key event with the keyboard map it fetches when it gets round to the
#: event, so a window still catching up on older keys would read them with the new binding:
#: measured, a target window paused while 180 characters were typed showed nearly all of them
#: wrong. Only texts with more distinct non-ASCII characters than spare keycodes recycle.
RECYCLE_AFTER_S = 0.5


class X11Keymap:
    """Keeps characters missing from the keyboard map bound to spare keycodes while typing.

    Every change of the map makes the X server notify every client, and window managers
    answer by re-grabbing their key bindings: measured with openbox, 10 separate changes
    delayed the next window's appearance by ~0.5 s and 100 by ~2 s. So each ``bind`` makes
    at most one change request, covering all the keycodes it rebinds.
    """

    def __init__(self, display_name: str | None = None, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self._display = open_display(display_name)
        info = self._display.display.info
        self._first, self._count = info.min_keycode, info.max_keycode - info.min_keycode + 1
        self._lock = threading.Lock()
        #: keycode -> keysym we bound there, least recently used first
        self._owned: OrderedDict[int, int] = OrderedDict()
        #: keycode -> when keys for it were last about to be sent
        self._used_at: dict[int, float] = {}
        self._clock, self._sleep = clock, sleep

    def bind(self, text: str, *, all_or_nothing: bool = False) -> list[str]:
        """Make the characters of ``text`` typable; return those left to xdotool's scratch key.

        ``all_or_nothing``: bind nothing unless every character fits (used for a whole text
        up front; chunk by chunk, least recently used bindings are recycled instead).
        """
        wanted = {keysym_for_char(ch): ch for ch in text if not is_ascii_typable(ch)}
        if not wanted:
            return []
        with self._lock:
            rows = [list(row) for row in self._display.get_keyboard_mapping(self._first, self._count)]
            present = {ks for row in rows for ks in row}
            missing = [ks for ks in wanted if ks not in present]
            now = self._clock()
            for keycode in [kc for kc, ks in self._owned.items() if ks in wanted]:
                self._owned.move_to_end(keycode)  # in use again: recycle it last
                self._used_at[keycode] = now
            # xdotool rebinds the first keycode whose first keysym is empty: leave that one to it
            scratch = next((self._first + i for i, row in enumerate(rows) if not row[0]), None)
            spare = [self._first + i for i, row in enumerate(rows)
                     if not any(row) and self._first + i not in (scratch, *self._owned)]
            recyclable = [kc for kc, ks in self._owned.items() if ks not in wanted]
            slots = spare + recyclable  # fresh keycodes first, then least recently used
            if not missing or (all_or_nothing and len(missing) > len(slots)):
                return []
            changes = dict(zip(slots, missing))
            # the keys typed last with a recycled keycode must have been read before it changes
            recycled = [self._used_at.get(kc, 0.0) for kc in changes if kc in self._owned]
            if recycled:
                wait = max(recycled) + RECYCLE_AFTER_S - self._clock()
                if wait > 0:
                    self._sleep(wait)
            now = self._clock()
            for keycode, keysym in changes.items():
                self._used_at[keycode] = now
                # the same keysym at every level and group: Shift or a layout switch can't change it
                rows[keycode - self._first] = [keysym] * len(rows[0])
                self._owned.pop(keycode, None)
                self._owned[keycode] = keysym
            self._write(rows, changes)
            return [wanted[ks] for ks in missing[len(changes):]]

    def _write(self, rows: list[list[int]], keycodes: Iterable[int]) -> None:
        """One ChangeKeyboardMapping for the span of ``keycodes`` (unchanged rows rewritten as they are)."""
        keycodes = sorted(keycodes)
        if not keycodes:
            return
        lo, hi = keycodes[0], keycodes[-1]
        self._display.change_keyboard_mapping(lo, rows[lo - self._first : hi - self._first + 1])
        self._display.sync()  # on the server before xdotool starts and reads the map

    def close(self) -> None:
        """Unbind our keycodes (one request) and disconnect."""
        with self._lock:
            try:
                rows = [list(row) for row in self._display.get_keyboard_mapping(self._first, self._count)]
                for keycode in self._owned:
                    rows[keycode - self._first] = [0] * len(rows[0])
                self._write(rows, self._owned)
                self._display.close()
            except Exception as exc:  # the X server may already be gone
                log.debug("could not restore the keyboard map: %s", exc)
            self._owned.clear()
