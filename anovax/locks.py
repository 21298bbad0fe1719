"""Named resource locks (``kb_mouse``, ``tts``) with owners, waiters and a lease.

Agents take their locks in ``LOCK_ORDER``, so two agents can never wait on each
other in a cycle. A lock is released when its holder's thread returns. A thread
that is stuck in a call that ignores its cancel token cannot be killed, so an
*expired* holder's locks are force-released after a grace period: its late
release is then a no-op, because the lock checks who is releasing it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from anovax.desktop.base import Cancelled, CancelToken
from anovax.toolspec import LOCK_ORDER

#: how often a waiter re-checks its cancel token (seconds)
_POLL_S = 0.05


class OwnedLock:
    """A non-reentrant lock that knows its holder and how many wait for it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._cond = threading.Condition()
        self.owner: str | None = None
        self.waiters = 0

    def acquire(self, owner: str, cancel: CancelToken) -> None:
        """Block until free or ``cancel`` is set (then raise Cancelled)."""
        with self._cond:
            self.waiters += 1
            try:
                while self.owner is not None:
                    if cancel.cancelled:
                        raise Cancelled(f"Stopped while waiting for the {self.name} lock.")
                    self._cond.wait(_POLL_S)
                self.owner = owner
            finally:
                self.waiters -= 1

    def release(self, owner: str) -> bool:
        """Release if ``owner`` holds it; False (and nothing changes) otherwise."""
        with self._cond:
            if self.owner != owner:
                return False
            self.owner = None
            self._cond.notify_all()
            return True


class LockTable:
    """The named locks of one orchestrator."""

    def __init__(self, names: Iterable[str] = LOCK_ORDER) -> None:
        self._locks = {name: OwnedLock(name) for name in names}

    def acquire(self, names: Iterable[str], owner: str, cancel: CancelToken) -> None:
        """Take every named lock in LOCK_ORDER; on cancel, give back what was taken."""
        wanted = set(names)
        taken: list[OwnedLock] = []
        try:
            for name in LOCK_ORDER:
                if name in wanted:
                    lock = self._locks[name]
                    lock.acquire(owner, cancel)
                    taken.append(lock)
        except BaseException:
            for lock in taken:
                lock.release(owner)
            raise

    def release_all(self, owner: str) -> list[str]:
        """Release whatever ``owner`` holds; returns the names released."""
        return [name for name, lock in self._locks.items() if lock.release(owner)]

    def holder(self, name: str) -> str | None:
        return self._locks[name].owner

    def stats(self) -> dict[str, dict[str, object]]:
        return {name: {"holder": lock.owner, "waiters": lock.waiters} for name, lock in self._locks.items()}
