"""X11: the window keys go to, identified (issue 16): ``X11Targeting`` behind LinuxDesktop's
``user_target``, ``classify_app``, ``aim`` and ``return_to_user``.

``user_target()`` is the focused window unless it is AnovaX's own (the orb the person clicked to
talk), else the last window they were in (``ActiveWindowTracker``, x11_tracker.py); either is
identified by x11_identity.py, never by a name a plan used. ``aim(target)`` makes that window the
keyboard's target again: it is re-activated when something else has the focus and verified
(refocus.bring_back); LinuxDesktop's focus guard then checks it before every chunk.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from anovax.desktop import refocus
from anovax.desktop.apps import App
from anovax.desktop.base import CancelToken, KeyTarget
from anovax.desktop.x11_focus import WindowInfo, X11Focus
from anovax.desktop.x11_identity import X11Identifier
from anovax.desktop.x11_tracker import ActiveWindowTracker
from anovax.errors import PermanentToolError
from anovax.target import TargetClass, WindowIdentity, unknown

log = logging.getLogger(__name__)


class X11Targeting:
    """Identities, the last user window and aiming, over the desktop's focus connection."""

    def __init__(self, display_name: str | None, focus: Callable[[], X11Focus | None], *,
                 vouched: Iterable[App] = (), track: bool = True) -> None:
        self._focus_conn = focus
        self._vouched = tuple(vouched)
        self._identifier: X11Identifier | None = None
        self._offline: X11Identifier | None = None
        self._tracker: ActiveWindowTracker | None = None
        if track:
            try:
                self._tracker = ActiveWindowTracker(display_name)
            except Exception as exc:  # no python-xlib or no server: only the focused window can be the target
                log.warning("Can't track the active window (%s): after a click on the orb I won't know "
                            "which window you were in.", exc)

    def identifier(self) -> X11Identifier | None:
        focus = self._focus_conn()
        if focus is None:
            return None
        if self._identifier is None:
            self._identifier = X11Identifier(focus.describe, focus.client_pid, vouched=self._vouched)
        return self._identifier

    def identify(self, window: int) -> WindowIdentity | None:
        """What ``window`` is; None when it is gone or there is no X connection."""
        identifier = self.identifier()
        return identifier.identify(window) if identifier is not None else None

    def user_target(self) -> WindowIdentity | None:
        """The focused window unless it is AnovaX's, else the last window the user was in; an
        UNKNOWN identity when there is neither; None without an X connection."""
        focus = self._focus_conn()
        if focus is None:
            return None
        try:
            active = focus.active_window()
        except Exception as exc:  # a dead connection: nobody can vouch for the target
            return unknown(why=f"could not ask which window is active: {exc}")
        if active:
            found = self.identify(active)
            if found is not None and found.klass is not TargetClass.ASSISTANT:
                return found
        last = self._last_user_window(focus)
        if last is not None:
            found = self.identify(last)
            if found is not None:
                return found
        # nothing seen since AnovaX started (a one-shot `--text` from a terminal): the window the
        # person raised last before ours, the next one down the stacking order
        for window in self._below(focus, active):
            found = self.identify(window)
            if found is not None and found.klass is not TargetClass.ASSISTANT:
                return found
        return unknown(why="no window of yours has had the focus" if not active else "only AnovaX's window is open")

    @staticmethod
    def _below(focus: X11Focus, active: int | None) -> list[int]:
        try:
            order = focus.stacking()
        except Exception:  # noqa: BLE001 - no stacking list: nothing more to go on
            return []
        return [w for w in order if w != active][:8]

    def tracked(self) -> int | None:
        """The last window the tracker saw the user in (not re-checked); None without a tracker."""
        last = self._tracker.last() if self._tracker is not None else None
        return last.window if last is not None else None

    def _last_user_window(self, focus: X11Focus) -> int | None:
        """The tracked window, if it still exists as the same client; a gone one is dropped."""
        tracked = self._tracker.last() if self._tracker is not None else None
        if tracked is None:
            return None
        now = focus.describe(tracked.window)
        pid = None if now is None else now.pid if now.pid is not None else focus.client_pid(tracked.window)
        if now is None or (now.wm_class, pid) != (tracked.wm_class, tracked.pid):
            self._tracker.forget(tracked.window)  # type: ignore[union-attr]
            return None
        return tracked.window

    def classify_argv(self, argv: tuple[str, ...]) -> TargetClass:
        identifier = self.identifier()
        if identifier is None:  # no X: the entries and /proc still tell, the window is not needed
            if self._offline is None:  # kept, so its entries are read once, not per question
                self._offline = X11Identifier(lambda _w: None, lambda _w: None, vouched=self._vouched)
            identifier = self._offline
        return identifier.classify_argv(argv)

    def aim(self, target: WindowIdentity, cancel: CancelToken) -> WindowInfo:
        """Re-activate ``target`` if it has not the focus and verify it has; its WindowInfo then.
        PermanentToolError when it is gone, is AnovaX's own, or will not take the focus."""
        focus = self._focus_conn()
        if focus is None:
            raise PermanentToolError("I can't tell which window has the focus here, so I typed nothing.",
                                     code="focus_moved")
        if target.window is None or target.klass is TargetClass.ASSISTANT:
            raise PermanentToolError(f"I won't type into {target.name}.", code="bad_target")
        info = focus.describe(target.window)
        gone = PermanentToolError(f"{target.name} was closed, so I typed nothing.", code="target_gone")
        if info is None:
            raise gone
        pid = info.pid if info.pid is not None else focus.client_pid(target.window)
        if target.pid is not None and pid != target.pid:  # the id now belongs to another client
            raise gone
        if not focus.focused(target.window):
            refocus.bring_back(focus, KeyTarget(target.window, target.name), cancel)
        return info

    def return_to_user(self) -> None:
        """Give the focus back to the last window the user was in; nothing if there is none."""
        focus = self._focus_conn()
        window = self._last_user_window(focus) if focus is not None else None
        if focus is None or window is None:
            return
        try:
            refocus.bring_back(focus, KeyTarget(window, f"window {window:#x}"), CancelToken())
        except PermanentToolError as exc:  # closed meanwhile, or refused: the user is where they are
            log.info("could not return the focus: %s", exc)

    def close(self) -> None:
        tracker, self._tracker = self._tracker, None
        if tracker is not None:
            tracker.close()

