"""An advisory lock between AnovaX processes around read-change-write of one state file (two
consoles, or the assistant and an ``anovax --text`` command, on one memory or timers file).

POSIX ``flock`` on a hidden ``.<name>.lock`` next to the file. Where there is no ``fcntl``
(Windows), the folder cannot be written, or the filesystem refuses locks (some network and FUSE
mounts: ENOLCK, EOPNOTSUPP), nothing is locked and the caller's re-read before writing is all that
narrows the race: a save must never fail for want of a lock.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import IO

log = logging.getLogger(__name__)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the lock of ``path`` (a file, existing or not) for the ``with`` block."""
    handle = _lock(path)
    try:
        yield
    finally:
        if handle is not None:
            handle.close()  # releases the lock


def _lock(path: Path) -> IO[str] | None:
    """The open, locked lock file, or None when nothing could be locked."""
    try:
        import fcntl
    except ImportError:
        return None
    if path.is_dir():  # not a state file: the write will fail and say so
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path.with_name(f".{path.name}.lock"), "a")  # noqa: SIM115 - closed by locked()
    except OSError:
        return None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
    except OSError as exc:
        log.debug("cannot lock %s (%s): writing without the lock", path, exc)
        handle.close()
        return None
    return handle
