"""The JSONL event log: one event per line, rotated by size with the standard library's handler."""

from __future__ import annotations

import json
import logging
import logging.handlers
from pathlib import Path
from typing import TextIO

from anovax.events import Event

MAX_BYTES = 5 * 1024 * 1024
BACKUPS = 3


class JsonlLog:
    """A bus subscriber that appends each event to ``path`` and rotates at ``max_bytes``."""

    def __init__(self, path: Path, *, max_bytes: int = MAX_BYTES, backups: int = BACKUPS) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        # RotatingFileHandler already gets rollover and partial-write edge cases right.
        self._handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8", delay=True
        )
        self._handler.setFormatter(logging.Formatter("%(message)s"))

    def __call__(self, event: Event) -> None:
        line = json.dumps(event.to_dict(), ensure_ascii=False, default=str)
        self._handler.handle(logging.makeLogRecord({"msg": line, "levelno": logging.INFO}))

    def close(self) -> None:
        self._handler.close()


class JsonLines:
    """A bus subscriber that prints each event as one JSON line (``--json``)."""

    def __init__(self, out: TextIO) -> None:
        self._out = out

    def __call__(self, event: Event) -> None:
        self._out.write(json.dumps(event.to_dict(), ensure_ascii=False, default=str) + "\n")
        self._out.flush()
