"""Write a file so a reader (or the next start after a power cut) sees the old text or the new one,
never half of one: a temporary file in the same folder, fsync, ``os.replace``, then fsync of the
folder so the rename itself is durable. Used by every file AnovaX keeps state in (memory.json,
timers, the phone remote's bans)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8), creating its folder; raises OSError on failure,
    with the old file untouched and no temporary file left behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # some platforms cannot open folders; the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass  # fsync on a folder is unsupported on some filesystems
    finally:
        os.close(fd)
