"""X11 window tools: list an app's windows, ask one to close, minimise, maximise, restore.

``X11Windows`` speaks EWMH/ICCCM over a python-xlib connection of its own:

- the windows are the window manager's ``_NET_CLIENT_LIST_STACKING`` (topmost first), less
  dialogs (``WM_TRANSIENT_FOR``, ``_NET_WM_WINDOW_TYPE_DIALOG``) and windows kept off the taskbar;
- closing is ICCCM's ``WM_DELETE_WINDOW`` client message, what a title bar's X button sends: the
  app decides, so an editor with unsaved text puts up its "save changes?" dialog (a new window
  transient for it, or of its process) instead of losing the text. ``xdotool windowclose`` (a
  DestroyWindow) and ``XKillClient`` are never used: they lose unsaved work. A window that does
  not take WM_DELETE_WINDOW is left open with a sentence saying so;
- minimising is ICCCM's ``WM_CHANGE_STATE`` (IconicState) to the root window, maximising and
  restoring EWMH ``_NET_WM_STATE`` requests (source 2: a pager, the user's own request), and a
  minimised window comes back with ``_NET_ACTIVE_WINDOW``;
- each is verified by reading ``_NET_WM_STATE`` (HIDDEN, MAXIMIZED_VERT and _HORZ) back.

``X11WindowMethods`` is LinuxDesktop's half: the Desktop's window methods over this and the
desktop's focus connection (activation and the focus check are x11_focus.py's).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from anovax.desktop import procfs, refocus, windowing
from anovax.desktop.base import CancelToken
from anovax.desktop.identity import key_gap_s
from anovax.desktop.windowing import AppWindow, CloseOutcome, WindowState, program_key
from anovax.desktop.x11_focus import open_display
from anovax.errors import PermanentToolError

#: ICCCM WM_STATE / WM_CHANGE_STATE value of a minimised window
_ICONIC = 3
#: _NET_WM_STATE actions
_REMOVE, _ADD = 0, 1
#: EWMH source indication: a pager (the user's own request, not an app's)
_SOURCE_USER = 2


@dataclass(frozen=True)
class XWindow:
    """One managed top-level window as X describes it."""

    window: int
    title: str
    #: WM_CLASS (instance, class); empty strings when unset
    instance: str
    klass: str
    pid: int | None
    state: WindowState


class X11Windows:
    """EWMH/ICCCM window requests and reads on a connection of its own; thread-safe."""

    def __init__(self, display_name: str | None = None) -> None:
        from Xlib import X, error

        self._X, self._error = X, error
        self._display = open_display(display_name)
        self._root = self._display.screen().root
        self._lock = threading.Lock()
        atom = self._display.intern_atom
        self._atoms = {name: atom(name) for name in (
            "_NET_CLIENT_LIST", "_NET_CLIENT_LIST_STACKING", "_NET_WM_STATE", "_NET_WM_STATE_HIDDEN",
            "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ", "_NET_WM_STATE_SKIP_TASKBAR",
            "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_NORMAL", "_NET_WM_WINDOW_TYPE_DIALOG", "_NET_WM_PID",
            "_NET_WM_NAME", "UTF8_STRING", "WM_PROTOCOLS", "WM_DELETE_WINDOW", "WM_CHANGE_STATE", "WM_STATE")}

    # -- reading ------------------------------------------------------------------------

    def app_windows(self) -> list[XWindow]:
        """The managed app windows, topmost first (dialogs and taskbar-less windows left out)."""
        with self._lock:
            prop = self._prop(self._root, "_NET_CLIENT_LIST_STACKING") or self._prop(self._root, "_NET_CLIENT_LIST")
            out = []
            for wid in reversed(list(prop.value) if prop is not None else []):
                win = self._display.create_resource_object("window", wid)
                try:
                    if self._is_dialog(win) or self._atoms["_NET_WM_STATE_SKIP_TASKBAR"] in self._states(win):
                        continue
                    out.append(self._describe(win))
                except self._error.XError:  # closed while we looked
                    continue
            return out

    def exists(self, window: int) -> bool:
        """Whether the window manager still manages ``window``."""
        with self._lock:
            prop = self._prop(self._root, "_NET_CLIENT_LIST")
            return prop is not None and window in prop.value

    def state(self, window: int) -> WindowState | None:
        """How ``window`` is shown now; None when it is gone."""
        with self._lock:
            try:
                return self._state(self._display.create_resource_object("window", window))
            except self._error.XError:
                return None

    def dialogs(self, window: int, pid: int | None) -> set[int]:
        """The managed windows that are ``window``'s dialogs: transient for it, or dialogs of its process."""
        with self._lock:
            prop = self._prop(self._root, "_NET_CLIENT_LIST")
            found = set()
            for wid in (prop.value if prop is not None else ()):
                if wid == window:
                    continue
                win = self._display.create_resource_object("window", wid)
                try:
                    owner = win.get_wm_transient_for()
                    mine = owner is not None and getattr(owner, "id", owner) == window
                    if not mine and pid is not None and self._is_dialog(win):
                        owned = self._prop(win, "_NET_WM_PID")
                        mine = owned is not None and int(owned.value[0]) == pid
                except self._error.XError:
                    continue
                if mine:
                    found.add(wid)
            return found

    # -- requests -----------------------------------------------------------------------

    def ask_to_close(self, window: int) -> bool:
        """Send WM_DELETE_WINDOW (the X button's request); False when the window does not take it."""
        from Xlib.protocol import event

        with self._lock:
            win = self._display.create_resource_object("window", window)
            try:
                protocols = win.get_wm_protocols() or []
            except self._error.XError:
                return False
            if self._atoms["WM_DELETE_WINDOW"] not in protocols:
                return False
            message = event.ClientMessage(window=win, client_type=self._atoms["WM_PROTOCOLS"],
                                          data=(32, [self._atoms["WM_DELETE_WINDOW"], self._X.CurrentTime, 0, 0, 0]))
            win.send_event(message, event_mask=self._X.NoEventMask)
            self._display.flush()
            return True

    def minimise(self, window: int) -> None:
        self._to_root(window, "WM_CHANGE_STATE", [_ICONIC, 0, 0, 0, 0])

    def maximise(self, window: int, on: bool) -> None:
        self._to_root(window, "_NET_WM_STATE", [_ADD if on else _REMOVE, self._atoms["_NET_WM_STATE_MAXIMIZED_VERT"],
                                                self._atoms["_NET_WM_STATE_MAXIMIZED_HORZ"], _SOURCE_USER, 0])

    def close(self) -> None:
        with self._lock:
            try:
                self._display.close()
            except Exception:  # noqa: BLE001 - the server may be gone already: nothing to release
                pass

    # -- plumbing -------------------------------------------------------------------------

    def _to_root(self, window: int, kind: str, data: list[int]) -> None:
        from Xlib.protocol import event

        with self._lock:
            win = self._display.create_resource_object("window", window)
            message = event.ClientMessage(window=win, client_type=self._atoms[kind], data=(32, data))
            self._root.send_event(message, event_mask=self._X.SubstructureRedirectMask | self._X.SubstructureNotifyMask)
            self._display.flush()

    def _prop(self, win: Any, name: str) -> Any:
        try:
            return win.get_full_property(self._atoms[name], self._X.AnyPropertyType)
        except self._error.XError:
            return None

    def _states(self, win: Any) -> set[int]:
        prop = self._prop(win, "_NET_WM_STATE")
        return set(prop.value) if prop is not None else set()

    def _state(self, win: Any) -> WindowState:
        states = self._states(win)
        wm_state = win.get_full_property(self._atoms["WM_STATE"], self._atoms["WM_STATE"])
        if self._atoms["_NET_WM_STATE_HIDDEN"] in states or (wm_state is not None and wm_state.value
                                                              and wm_state.value[0] == _ICONIC):
            return WindowState.MINIMIZED
        if {self._atoms["_NET_WM_STATE_MAXIMIZED_VERT"], self._atoms["_NET_WM_STATE_MAXIMIZED_HORZ"]} <= states:
            return WindowState.MAXIMIZED
        return WindowState.NORMAL

    def _is_dialog(self, win: Any) -> bool:
        if win.get_wm_transient_for() is not None:
            return True
        kinds = self._prop(win, "_NET_WM_WINDOW_TYPE")
        return kinds is not None and self._atoms["_NET_WM_WINDOW_TYPE_NORMAL"] not in kinds.value and \
            self._atoms["_NET_WM_WINDOW_TYPE_DIALOG"] in kinds.value

    def _describe(self, win: Any) -> XWindow:
        title = self._prop(win, "_NET_WM_NAME")
        if title is not None:
            value = title.value
            name = value if isinstance(value, str) else bytes(value).decode("utf-8", "replace")
        else:
            legacy = win.get_wm_name()
            name = legacy.decode("latin-1") if isinstance(legacy, bytes) else (legacy or "")
        cls = win.get_wm_class() or ("", "")
        pid = self._prop(win, "_NET_WM_PID")
        return XWindow(win.id, name, cls[0], cls[1], int(pid.value[0]) if pid else None, self._state(win))


class X11WindowMethods:
    """LinuxDesktop's window tools (anovax.desktop.windowing), verified through X."""

    _x11_windows: X11Windows | None = None

    def _xwin(self) -> X11Windows:
        if self._x11_windows is None:
            if not getattr(self, "_x11", False):
                raise PermanentToolError("I can't manage windows here: that needs an X11 session.", code="no_x11")
            try:
                self._x11_windows = X11Windows(getattr(self, "_display_name", None))
            except Exception as exc:  # no python-xlib, no server
                raise PermanentToolError(f"I can't see the windows on this desktop ({exc}).") from exc
        return self._x11_windows

    def _focus_or_fail(self) -> Any:
        focus = self._focus_conn()  # type: ignore[attr-defined]
        if focus is None or not focus.wm_running():
            raise PermanentToolError("No window manager is running, so I can't switch or arrange windows.",
                                     code="no_window_manager")
        return focus

    def app_windows(self, name: str | None) -> list[AppWindow]:
        focus = self._focus_conn()  # type: ignore[attr-defined]
        out = []
        for xw in self._xwin().app_windows():
            pid = xw.pid if xw.pid is not None or focus is None else focus.client_pid(xw.window)
            if refocus.own_window(f"{xw.instance}.{xw.klass}", pid):
                continue  # the orb, the console's terminal: never a window tool's target
            programs = {program_key(xw.instance), program_key(xw.klass)}
            proc = procfs.read_proc(pid) if pid is not None else None
            if proc is not None and proc.exe:
                programs.add(program_key(Path(proc.exe).name))
            app = xw.klass or xw.instance or xw.title or f"window {xw.window:#x}"
            out.append(AppWindow(xw.window, app, xw.title, frozenset(programs - {""}), pid, xw.state))
        if name is None:
            return out
        wanted = windowing.wanted_programs(name, "linux", extra=getattr(self._settings, "apps", ()),  # type: ignore[attr-defined]
                                          entries=self._desktop_entries())  # type: ignore[attr-defined]
        return windowing.of_app(out, wanted)

    def focus_window(self, window: AppWindow, cancel: CancelToken) -> None:
        focus, xwin = self._focus_or_fail(), self._xwin()
        got: list[int] = []

        def in_front() -> bool:
            # the window, or its dialog: a window manager gives the focus to a modal dialog it has
            active = focus.active_window()
            # and shown: openbox moves the focus before it drops _NET_WM_STATE_HIDDEN (measured)
            if active and (active == window.window or active in xwin.dialogs(window.window, window.pid)) \
                    and focus.focused(active) and xwin.state(window.window) is not WindowState.MINIMIZED:
                got[:] = [active]
            return bool(got)

        windowing.verify(in_front, lambda: focus.activate(window.window), cancel,
                         f"I couldn't bring {window.app} to the front.", gone=lambda: not xwin.exists(window.window),
                         gone_msg=f"{window.app} closed before I could switch to it.")
        info = focus.describe(got[0])
        with self._kb_lock:  # type: ignore[attr-defined]
            # the keys now go here, guarded as after a launch
            self.target_window, self._aimed = got[0], False  # type: ignore[attr-defined]
            self._target_sig = (info.wm_class, info.pid) if info is not None else None  # type: ignore[attr-defined]
            self._key_gap_s = key_gap_s(self._targeting.identify(got[0]))  # type: ignore[attr-defined]

    def close_window(self, window: AppWindow, cancel: CancelToken) -> CloseOutcome:
        xwin = self._xwin()
        before = xwin.dialogs(window.window, window.pid)
        if not xwin.ask_to_close(window.window):
            if not xwin.exists(window.window):
                return CloseOutcome.CLOSED
            raise PermanentToolError(f"{window.app} can't be asked to close politely, so I left it open.",
                                     code="no_polite_close")
        return windowing.wait_closed(lambda: not xwin.exists(window.window),
                                     lambda: bool(xwin.dialogs(window.window, window.pid) - before), cancel, window.app,
                                     had_dialog=bool(before))

    def set_window_state(self, window: AppWindow, state: WindowState, cancel: CancelToken) -> None:
        focus, xwin = self._focus_or_fail(), self._xwin()
        wid, gone = window.window, (lambda: not xwin.exists(window.window))
        words = {WindowState.MINIMIZED: "minimise", WindowState.MAXIMIZED: "maximise", WindowState.NORMAL: "restore"}
        failed = f"I asked to {words[state]} {window.app}, but its window did not change."
        if state is WindowState.MINIMIZED:
            windowing.verify(lambda: xwin.state(wid) is WindowState.MINIMIZED, lambda: xwin.minimise(wid), cancel,
                             failed, gone=gone)
            return
        if xwin.state(wid) is WindowState.MINIMIZED:  # shown again first: the one way back EWMH has
            windowing.verify(lambda: xwin.state(wid) is not WindowState.MINIMIZED, lambda: focus.activate(wid),
                             cancel, failed, gone=gone)
        on = state is WindowState.MAXIMIZED
        if (xwin.state(wid) is WindowState.MAXIMIZED) != on:
            windowing.verify(lambda: (xwin.state(wid) is WindowState.MAXIMIZED) == on, lambda: xwin.maximise(wid, on),
                             cancel, failed, gone=gone)

    def _close_windows(self) -> None:
        xwin, self._x11_windows = self._x11_windows, None
        if xwin is not None:
            xwin.close()
