"""The timers file in the state folder: read at start, rewritten atomically on every change, and
merged: another AnovaX process's timers in the file are kept, not overwritten."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable
from pathlib import Path

from anovax.atomicfile import write_atomic
from anovax.filelock import locked
from anovax.timers.model import Timer

log = logging.getLogger(__name__)
FILE_VERSION = 1


class TimerStore:
    """``timers.json``: the pending timers. None as the path keeps them in memory only."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        #: why the file could not be read or written ("" when all is well), for the front ends
        self.warning = ""
        #: ids of the timers this process loaded or saved: any other id in the file was set by
        #: another process, and stays
        self._known: set[str] = set()
        #: ids in the file as this process last read or wrote it: one gone from the file since was
        #: cancelled or fired by another process, and is not written back (nor rung here)
        self._on_disk: set[str] = set()

    def load(self) -> list[Timer]:
        """The timers in the file; a missing file is none, a damaged one is set aside and says so."""
        if self.path is None or not self.path.exists():
            return []
        try:
            timers = self._read()
            self._known |= {t.timer_id for t in timers}
            self._on_disk = {t.timer_id for t in timers}
            return timers
        except (OSError, ValueError, KeyError, TypeError) as exc:
            aside = self.path.with_name(self.path.name + ".damaged")
            try:
                os.replace(self.path, aside)
            except OSError:
                aside = self.path
            self.warning = f"the timers file could not be read ({exc}); it was kept as {aside}"
            log.warning("%s", self.warning)
            return []

    def save(self, timers: Iterable[Timer]) -> set[str]:
        """Write ``timers`` so a reader sees the old file or the new one, never half of one, merged
        with the file as it is now: another process's new timers are kept, and a timer it cancelled
        or fired is not written back. Returns the ids of those (drop them from memory too). A failure
        is kept in ``warning`` and logged: the timers still run in memory."""
        if self.path is None:
            return set()
        mine = list(timers)
        try:
            with locked(self.path):
                try:
                    now = self._read()
                except (ValueError, KeyError, TypeError):  # a damaged file: ours replaces it
                    now = None
                gone = self._on_disk - {t.timer_id for t in now} if now is not None else set()
                others = [t for t in now or () if t.timer_id not in self._known]
                mine = [t for t in mine if t.timer_id not in gone]
                self._known |= {t.timer_id for t in mine}
                merged = sorted(mine + others, key=lambda t: t.due)
                payload = json.dumps({"version": FILE_VERSION, "timers": [t.to_dict() for t in merged]}, indent=1)
                write_atomic(self.path, payload + "\n")
                self._on_disk = {t.timer_id for t in merged}
            self.warning = ""
            return gone
        except OSError as exc:
            self.warning = f"timers are not saved ({exc.strerror or exc}): a restart would lose them"
            log.warning("%s", self.warning)
            return set()

    def gone_elsewhere(self) -> set[str]:
        """Ids this process last saw in the file that another process has since cancelled or fired."""
        if self.path is None:
            return set()
        try:
            now = self._read()
        except (OSError, ValueError, KeyError, TypeError):
            return set()
        return self._on_disk - {t.timer_id for t in now}

    def _read(self) -> list[Timer]:
        """The timers in the file (none without one); ValueError, KeyError or TypeError when damaged."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8")) if self.path is not None else {"timers": []}
        except FileNotFoundError:
            return []
        return [Timer.from_dict(item) for item in data["timers"]]
