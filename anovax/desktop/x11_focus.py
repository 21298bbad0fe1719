"""Which window has the focus on X11, and typing that cannot land in the wrong one.

Everything here talks to the X server through one python-xlib connection: a poll of
the active window is one or two round trips (< 1 ms), against 7-11 ms per ``xdotool``
process (PLATFORM_NOTES). Focus is EWMH's ``_NET_ACTIVE_WINDOW``, trusted only while
the window named by ``_NET_SUPPORTING_WM_CHECK`` still exists and names itself: a
killed window manager leaves both properties behind on the root window.

Guarded typing (``type_guarded``): checking the focus and then typing leaves a gap in
which a focus thief wins and the rest of the chunk lands in its window. So one chunk is
typed as XTEST key events inside a server grab: while we hold it, no other client (the
window manager included) can move the focus, and every key event is addressed when the
server handles it. The grab lasts one chunk (well under a millisecond of requests).
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

#: windows looked at when comparing a window's tree (a toolkit window has a handful)
TREE_MAX = 64

#: keysyms for the two control characters that are typed as keys
_XK_RETURN, _XK_TAB, _XK_SHIFT_L = 0xFF0D, 0xFF09, 0xFFE1


@dataclass(frozen=True)
class WindowInfo:
    """What X says about one top-level window."""

    #: the X window id
    window: int
    #: _NET_WM_NAME (UTF-8), else WM_NAME; "" when it has none
    title: str
    #: WM_CLASS as "instance.Class"; "" when unset
    wm_class: str
    #: _NET_WM_PID, or None (Tk, for one, does not set it)
    pid: int | None


_AUTH_LOCK = threading.Lock()


def open_display(display_name: str | None = None) -> Any:
    """An Xlib connection, also where no Xauthority file exists.

    python-xlib raises when ``$XAUTHORITY`` (or ``~/.Xauthority``) is missing, although
    the server may need no cookie at all (a bare Xvfb, a container's display); X's own
    libraries connect without one then, and so do we: retried with an empty authority.
    """
    from Xlib import display, error, xauth

    # python-xlib print()s a warning to stdout for an empty authority file, which would land in
    # the middle of `anovax --json` output: send it to the log instead (this module only)
    xauth.print = lambda *args, **_: log.debug(" ".join(map(str, args)))  # type: ignore[attr-defined]
    try:
        return display.Display(display_name)
    except error.XauthError:
        with _AUTH_LOCK:  # the environment is process-wide: one retry at a time
            saved = os.environ.get("XAUTHORITY")
            os.environ["XAUTHORITY"] = os.devnull
            try:
                return display.Display(display_name)
            finally:
                if saved is None:
                    os.environ.pop("XAUTHORITY", None)
                else:
                    os.environ["XAUTHORITY"] = saved


class X11Focus:
    """One X connection for focus queries and guarded typing; thread-safe."""

    def __init__(self, display_name: str | None = None) -> None:
        from Xlib import X, error  # python-xlib, a pyautogui dependency on Linux
        from Xlib.ext import xtest

        self._X, self._error, self._xtest = X, error, xtest
        self._display = open_display(display_name)
        if not self._display.has_extension("XTEST"):
            self._display.close()
            raise RuntimeError("the X server has no XTEST extension")
        self._root = self._display.screen().root
        self._lock = threading.Lock()
        #: top-level windows created since watch_new_windows(), and still alive
        self._created: set[int] = set()
        atom = self._display.intern_atom
        self._wm_check, self._active = atom("_NET_SUPPORTING_WM_CHECK"), atom("_NET_ACTIVE_WINDOW")
        self._clients, self._pid = atom("_NET_CLIENT_LIST"), atom("_NET_WM_PID")
        self._net_name, self._utf8 = atom("_NET_WM_NAME"), atom("UTF8_STRING")
        info = self._display.display.info
        self._first, self._count = info.min_keycode, info.max_keycode - info.min_keycode + 1
        #: X-Resource's opcode once asked (None: the server has none); False: not asked yet
        self._xres: int | None | bool = False

    # -- focus ------------------------------------------------------------------------

    def wm_running(self) -> bool:
        """True when a window manager announces itself and its check window is alive."""
        with self._lock:
            return self._wm_running()

    def _wm_running(self) -> bool:
        child = self._window_prop(self._root, self._wm_check)
        # EWMH: the check window carries the same property, pointing at itself; a stale id
        # (WM killed) is a BadWindow, or a recycled id without the property
        return child is not None and self._window_prop(self._display.create_resource_object("window", child),
                                                       self._wm_check) == child

    def active_window(self) -> int | None:
        """The EWMH active window, or None (no window has focus, or no window manager)."""
        with self._lock:
            return self._active_window()

    def _active_window(self) -> int | None:
        if not self._wm_running():
            return None
        return self._window_prop(self._root, self._active) or None

    def has_input_focus(self, window: int) -> bool:
        """True when the X keyboard focus is ``window`` or inside it (not only the EWMH hint:
        the window manager moves the focus first and updates _NET_ACTIVE_WINDOW after)."""
        with self._lock:
            return self._has_input_focus(window)

    def _has_input_focus(self, window: int) -> bool:
        try:
            current = self._display.get_input_focus().focus
            for _ in range(16):  # a focus window is a few levels below its top-level, at most
                wid = getattr(current, "id", current)
                if wid == window:
                    return True
                if not isinstance(wid, int) or wid in (0, 1, self._root.id):  # None, PointerRoot, root
                    return False
                current = current.query_tree().parent
        except self._error.XError:
            return False
        return False

    def focused(self, window: int) -> bool:
        """Both signs agree that ``window`` has the focus: the EWMH active window and the
        X keyboard focus (one alone is stale for a moment in every focus change)."""
        with self._lock:
            return self._active_window() == window and self._has_input_focus(window)

    def activate(self, window: int) -> None:
        """Ask the window manager to raise and focus ``window`` (EWMH _NET_ACTIVE_WINDOW, source
        2 = a pager: the user's own request, which openbox and others honour without the
        focus-stealing prevention an application's request meets)."""
        from Xlib import X
        from Xlib.protocol import event

        with self._lock:
            target = self._display.create_resource_object("window", window)
            message = event.ClientMessage(window=target, client_type=self._active,
                                          data=(32, [2, X.CurrentTime, 0, 0, 0]))
            mask = X.SubstructureRedirectMask | X.SubstructureNotifyMask
            self._root.send_event(message, event_mask=mask)
            self._display.flush()

    def client_windows(self) -> set[int]:
        """The top-level windows the window manager manages now (_NET_CLIENT_LIST)."""
        with self._lock:
            prop = self._prop(self._root, self._clients)
            return set(prop.value) if prop is not None else set()

    def stacking(self) -> list[int]:
        """The managed top-level windows, topmost first (_NET_CLIENT_LIST_STACKING; [] without it)."""
        with self._lock:
            prop = self._prop(self._root, self._display.intern_atom("_NET_CLIENT_LIST_STACKING"))
            return list(reversed(prop.value)) if prop is not None else []

    def watch_new_windows(self, on: bool) -> None:
        """Start (or stop) collecting top-level windows as they are created.

        "New" cannot be told from a list of ids taken before the launch: X reuses the ids
        of a client that has gone, and the window manager may still list its old window.
        """
        X = self._X
        with self._lock:
            self._root.change_attributes(event_mask=X.SubstructureNotifyMask if on else X.NoEventMask)
            self._display.sync()
            self._drain()
            self._created.clear()

    def new_windows(self) -> set[int]:
        """Top-level windows created since watching started (and not destroyed since)."""
        with self._lock:
            self._drain()
            return set(self._created)

    def _drain(self) -> None:
        X = self._X
        while self._display.pending_events():
            event = self._display.next_event()
            if event.type == X.CreateNotify:
                self._created.add(event.window.id)
            elif event.type == X.DestroyNotify:
                self._created.discard(event.window.id)

    def describe(self, window: int) -> WindowInfo | None:
        """Title, class and pid of ``window``; None if it no longer exists."""
        with self._lock:
            win = self._display.create_resource_object("window", window)
            try:
                title = self._prop(win, self._net_name, self._utf8)
                if title is not None:
                    # python-xlib hands format-8 data back as str when it is valid UTF-8
                    value = title.value
                    name = value if isinstance(value, str) else bytes(value).decode("utf-8", "replace")
                else:
                    legacy = win.get_wm_name()
                    name = legacy.decode("latin-1") if isinstance(legacy, bytes) else (legacy or "")
                cls = win.get_wm_class()
                pid = self._prop(win, self._pid)
            except self._error.XError:
                return None
            return WindowInfo(window, name, ".".join(cls) if cls else "", int(pid.value[0]) if pid else None)

    def client_pid(self, window: int) -> int | None:
        """The pid of the client that created ``window``, asked of the X server (X-Resource), for
        windows without _NET_WM_PID; None when the server cannot say."""
        from anovax.desktop.x11_identity import xres_opcode, xres_pid

        with self._lock:
            try:
                if self._xres is False:
                    self._xres = xres_opcode(self._display)
                return xres_pid(self._display, self._xres, window) if self._xres is not None else None
            except self._error.XError:
                return None

    def tree_state(self, window: int) -> tuple[tuple[int, int, int, int], ...] | None:
        """(id, map state, width, height) of ``window`` and the windows inside it; None if gone.

        Toolkits map a toplevel first and the widgets inside it a moment later (Tk: 3-10 ms
        here); keys that arrive in between go to the bare toplevel and are lost. A tree
        that has stopped changing is the one readiness sign every X app gives.
        """
        with self._lock:
            out: list[tuple[int, int, int, int]] = []
            todo = [self._display.create_resource_object("window", window)]
            try:
                while todo and len(out) < TREE_MAX:
                    win = todo.pop()
                    geometry = win.get_geometry()
                    out.append((win.id, win.get_attributes().map_state, geometry.width, geometry.height))
                    todo.extend(win.query_tree().children)
            except self._error.XError:
                return None
            return tuple(sorted(out))

    # -- typing -------------------------------------------------------------------------

    def type_guarded(self, target: int, text: str) -> int | None:
        """Type ``text`` into ``target`` only if it has the focus; None when typed, else the
        window that has the focus instead (0: none). Nothing is typed in that case.

        Raises LookupError (before any key) for a character not on the keyboard map.
        """
        X, xtest = self._X, self._xtest
        with self._lock:
            self._display.grab_server()
            try:
                active = self._active_window()
                if active != target or not self._has_input_focus(target):
                    # the keyboard focus leaves before the hint follows: mid-switch, no culprit yet
                    return active if active != target else 0
                shift, keys = self._keycodes(text)
                for keycode, shifted in keys:
                    if shifted:
                        xtest.fake_input(self._display, X.KeyPress, shift)
                    xtest.fake_input(self._display, X.KeyPress, keycode)
                    xtest.fake_input(self._display, X.KeyRelease, keycode)
                    if shifted:
                        xtest.fake_input(self._display, X.KeyRelease, shift)
            finally:
                self._display.ungrab_server()
                self._display.sync()
        return None

    def _keycodes(self, text: str) -> tuple[int, list[tuple[int, bool]]]:
        """Shift's keycode and (keycode, needs Shift) per character, from the map as it is
        now (read under the grab, so nobody changes it before the keys are handled)."""
        from anovax.desktop.typing import keysym_for_char

        rows = self._display.get_keyboard_mapping(self._first, self._count)
        where: dict[int, tuple[int, bool]] = {}
        for level in (1, 0):  # level 0 last, so it wins: prefer no Shift
            for i, row in enumerate(rows):
                if len(row) > level and row[level]:
                    where[row[level]] = (self._first + i, level == 1)
        shift = where.get(_XK_SHIFT_L, (0, False))[0]
        out = []
        for ch in text:
            keysym = _XK_RETURN if ch == "\n" else _XK_TAB if ch == "\t" else keysym_for_char(ch)
            if keysym not in where or (where[keysym][1] and not shift):
                raise LookupError(ch)
            out.append(where[keysym])
        return shift, out

    # -- plumbing ---------------------------------------------------------------------------

    def _prop(self, win: Any, atom: int, kind: int | None = None) -> Any:
        try:
            return win.get_full_property(atom, kind if kind is not None else self._X.AnyPropertyType)
        except self._error.XError:
            return None

    def _window_prop(self, win: Any, atom: int) -> int | None:
        prop = self._prop(win, atom)
        return int(prop.value[0]) if prop is not None and len(prop.value) else None

    def close(self) -> None:
        with self._lock:
            try:
                self._display.close()
            except Exception:  # noqa: BLE001 - the server may already be gone; nothing to release then
                pass
