"""An advisory lock between AnovaX processes around read-change-write of one state file (two
consoles, or the assistant and an ``anovax --text`` command, on one memory or timers file).

POSIX ``flock`` on a hidden ``.<name>.lock`` next to the file; where there is no ``fcntl``
(Windows) or the folder cannot be written, nothing is locked and the caller's re-read before
writing is all that narrows the race.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the lock of ``path`` (a file, existing or not) for the ``with`` block."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    if path.is_dir():  # not a state file: the write will fail and say so
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(path.with_name(f".{path.name}.lock"), "a")  # noqa: SIM115 - closed below
    except OSError:
        yield
        return
    try:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield
    finally:
        fh.close()  # releases the lock
