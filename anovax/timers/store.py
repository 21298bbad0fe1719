"""The timers file in the state folder: read once at start, rewritten atomically on every change."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable
from pathlib import Path

from anovax.atomicfile import write_atomic

from anovax.timers.model import Timer

log = logging.getLogger(__name__)
FILE_VERSION = 1


class TimerStore:
    """``timers.json``: the pending timers. None as the path keeps them in memory only."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        #: why the file could not be read or written ("" when all is well), for the front ends
        self.warning = ""

    def load(self) -> list[Timer]:
        """The timers in the file; a missing file is none, a damaged one is set aside and says so."""
        if self.path is None or not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return [Timer.from_dict(item) for item in data["timers"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            aside = self.path.with_name(self.path.name + ".damaged")
            try:
                os.replace(self.path, aside)
            except OSError:
                aside = self.path
            self.warning = f"the timers file could not be read ({exc}); it was kept as {aside}"
            log.warning("%s", self.warning)
            return []

    def save(self, timers: Iterable[Timer]) -> None:
        """Write ``timers`` so a reader sees the old file or the new one, never half of one.
        A failure is kept in ``warning`` and logged: the timers still run in memory."""
        if self.path is None:
            return
        payload = json.dumps({"version": FILE_VERSION, "timers": [t.to_dict() for t in timers]}, indent=1)
        try:
            write_atomic(self.path, payload + "\n")
            self.warning = ""
        except OSError as exc:
            self.warning = f"timers are not saved ({exc.strerror or exc}): a restart would lose them"
            log.warning("%s", self.warning)
