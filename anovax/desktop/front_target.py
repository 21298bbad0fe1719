"""Windows and macOS: the window keys go to, identified (issue 16), and aiming at it.

On Windows the evidence is the foreground window's process image (GetWindowThreadProcessId,
QueryFullProcessImageNameW) looked up in known_apps.WINDOWS_IMAGES; on macOS the front app's
bundle id in known_apps.MAC_BUNDLES. Neither platform gives the command line or the child
processes cheaply, so nothing else vouches: what is not listed is UNKNOWN (UWP apps such as the
Calculator show their window from ApplicationFrameHost.exe and are UNKNOWN too). ``[apps]``
kinds are honoured on Linux only.

``FrontTargeting`` is the platform-neutral half: the last window the user was in that is not
AnovaX's (``FrontTracker``), ``user_target``, ``aim`` (re-activate, verify) and ``return_to_user``.
"""

from __future__ import annotations

import logging
import ntpath
import threading
import time
from collections.abc import Callable

from anovax.desktop.base import CancelToken
from anovax.desktop.front_tracker import FrontTracker
from anovax.desktop.known_apps import mac_bundle, windows_image
from anovax.errors import Cancelled, PermanentToolError
from anovax.target import TargetClass, WindowIdentity, unknown

log = logging.getLogger(__name__)

#: how long a re-activation may take before aim gives up (as refocus.REFOCUS_MAX_S on X11)
AIM_MAX_S = 3.0
#: ask again this often (a request can be lost while the foreground changes)
_RETRY_S = 0.25
_POLL_S = 0.01


def windows_identity(hwnd: int, pid: int | None, image: str, title: str, own_pid: int) -> WindowIdentity:
    """What a Windows window is, from its process and that process's image path."""
    program = ntpath.basename(image)
    if pid is not None and pid == own_pid:
        return WindowIdentity(hwnd, title, "AnovaX", TargetClass.ASSISTANT, pid, image, why="AnovaX's own window")
    if pid is None:
        return unknown(title, window=hwnd, why="no process for the window")
    if not image:
        return WindowIdentity(hwnd, title, title, TargetClass.UNKNOWN, pid, why="process image unreadable")
    klass = windows_image(image)
    why = f"process image {program}: {klass.value}" if klass else f"unknown program {program}"
    return WindowIdentity(hwnd, title, program, klass or TargetClass.UNKNOWN, pid, image, why=why)


def mac_identity(pid: int, name: str, bundle_id: str, title: str, own_pid: int) -> WindowIdentity:
    """What the front macOS app is, from its bundle id (``window`` holds its pid, as on launch)."""
    if pid == own_pid:
        return WindowIdentity(pid, title, "AnovaX", TargetClass.ASSISTANT, pid, bundle_id, why="AnovaX's own window")
    klass = mac_bundle(bundle_id) if bundle_id else None
    why = (f"bundle id {bundle_id}: {klass.value}" if klass else f"unknown bundle id {bundle_id}") if bundle_id \
        else "no bundle id"
    return WindowIdentity(pid, title, name or bundle_id, klass or TargetClass.UNKNOWN, pid, bundle_id, why=why)


class FrontTargeting:
    """``front()`` identifies what is in front now; ``alive(identity)`` says it is still there as
    the same process; ``activate(identity)`` asks for it to come to the front; ``focused(identity)``
    says it is."""

    def __init__(self, front: Callable[[], WindowIdentity | None], *, alive: Callable[[WindowIdentity], bool],
                 activate: Callable[[WindowIdentity], None], focused: Callable[[WindowIdentity], bool],
                 track: bool, name: str, every_s: float) -> None:
        self._front, self._alive, self._activate, self._focused = front, alive, activate, focused
        self._tracker: FrontTracker[WindowIdentity] | None = None
        if track:
            self._tracker = FrontTracker(front, lambda i: i.klass is TargetClass.ASSISTANT, name=name,
                                         every_s=every_s)

    def last(self) -> WindowIdentity | None:
        """The last window the user was in that is still there; a gone one is dropped."""
        last = self._tracker.last() if self._tracker is not None else None
        if last is None:
            return None
        if not self._alive(last):
            self._tracker.forget(last)  # type: ignore[union-attr]
            return None
        return last

    def user_target(self) -> WindowIdentity:
        try:
            now = self._front()
        except Exception as exc:  # the OS would not say: nobody can vouch for the target
            return unknown(why=f"could not ask what is in front: {exc}")
        if now is not None and now.klass is not TargetClass.ASSISTANT:
            return now
        return self.last() or unknown(why="no window of yours has been in front")

    def aim(self, target: WindowIdentity, cancel: CancelToken) -> None:
        """Bring ``target`` to the front and verify it is; PermanentToolError when it is gone,
        AnovaX's own, or will not come."""
        if target.window is None or target.klass is TargetClass.ASSISTANT:
            raise PermanentToolError(f"I won't type into {target.name}.", code="bad_target")
        if not self._alive(target):  # also an id now owned by another process
            raise PermanentToolError(f"{target.name} was closed, so I typed nothing.", code="target_gone")
        deadline, asked = time.monotonic() + AIM_MAX_S, 0.0
        while not self._focused(target):
            if not self._alive(target):
                raise PermanentToolError(f"{target.name} was closed, so I typed nothing.", code="target_gone")
            now = time.monotonic()
            if now > deadline:
                raise PermanentToolError(f"I couldn't bring {target.name} to the front, so I typed nothing.",
                                         code="focus_moved")
            if now - asked >= _RETRY_S:
                self._activate(target)
                asked = now
            if cancel.wait(_POLL_S):
                raise Cancelled("Stopped before typing.")

    def return_to_user(self) -> None:
        last = self.last()
        if last is None:
            return
        try:
            self._activate(last)
        except Exception as exc:  # best effort: the user is wherever they are
            log.info("could not give the focus back to %s: %s", last.name, exc)

    def close(self) -> None:
        tracker, self._tracker = self._tracker, None
        if tracker is not None:
            tracker.close()



class FrontTargetMethods:
    """The desktop port's ``user_target``, ``aim`` and ``return_to_user`` for the adapters that
    identify the front window or app through a ``FrontTargeting`` (Windows, macOS)."""

    #: the identity's id the focus guard compares: the window (Windows) or the app's pid (macOS)
    GUARD_ID = "window"
    _targeting: FrontTargeting
    _kb_lock: threading.Lock
    target_window: int | None
    _aimed: bool

    def user_target(self) -> WindowIdentity | None:
        """The front window unless it is AnovaX's, else the last one the user was in."""
        return self._targeting.user_target()

    def aim(self, target: WindowIdentity, cancel: CancelToken) -> None:
        """Bring ``target`` to the front, verify it, and guard every run typed from then on."""
        with self._kb_lock:
            self._targeting.aim(target, cancel)
            self.target_window, self._aimed = getattr(target, self.GUARD_ID), True

    def return_to_user(self) -> None:
        # never waits for the keyboard: a command typing now keeps the focus (as on Linux)
        if not self._kb_lock.acquire(blocking=False):
            return
        try:
            self._targeting.return_to_user()
        finally:
            self._kb_lock.release()
