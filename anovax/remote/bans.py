"""The phone remote's ban list on disk, so a restart does not hand a guesser a fresh start.

One JSON object, ``{"<ip>": {"until": <unix time>, "failures": <n>}}``, in the state folder
(``remote_bans.json``). Written atomically (a temporary file in the same folder, fsync,
``os.replace``, fsync of the folder): a crash mid-write leaves the old list or the new one,
never half of one. Wall-clock times, because the guard's monotonic clock restarts with the
process. A file that cannot be read or parsed is an empty list (and a warning): bans are a
brake on guessing, and the credentials they protect are too long to guess anyway.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from anovax.atomicfile import write_atomic

log = logging.getLogger(__name__)

FILE_NAME = "remote_bans.json"
#: entries read back at most (a hand-edited or hostile file cannot grow memory)
MAX_ENTRIES = 4096


@dataclass(frozen=True)
class StoredBan:
    """A ban as written: the address, the wall-clock time it ends, the failures that caused it."""

    ip: str
    until: float
    failures: int


class BanStore:
    """Reads and atomically rewrites the ban file; thread-safe."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def load(self) -> list[StoredBan]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            log.warning("phone remote: ignoring the ban list %s: %s", self.path, exc)
            return []
        if not isinstance(raw, dict):
            return []
        out: list[StoredBan] = []
        for ip, entry in list(raw.items())[:MAX_ENTRIES]:
            if not isinstance(entry, dict):
                continue
            until, failures = entry.get("until"), entry.get("failures", 0)
            if isinstance(ip, str) and isinstance(until, (int, float)) and isinstance(failures, int):
                out.append(StoredBan(ip[:64], float(until), failures))
        return out

    def save(self, bans: list[StoredBan]) -> bool:
        """Replace the file with ``bans``; False (and a warning) when it cannot be written."""
        data = {b.ip: {"until": round(b.until, 3), "failures": b.failures} for b in bans}
        with self._lock:
            try:
                write_atomic(self.path, json.dumps(data, sort_keys=True))
            except OSError as exc:
                log.warning("phone remote: cannot write the ban list %s: %s", self.path, exc)
                return False
        return True

