"""The JSONL event log: one event per line, rotated by size with the standard library's handler.

Both writers here take any event: ``json_line`` turns a lone surrogate into U+FFFD before
anything is encoded, so bad input never costs an event and logging never prints a traceback.
"""

from __future__ import annotations

import codecs
import json
import logging
import logging.handlers
import sys
from pathlib import Path
from typing import Any, TextIO

from anovax.events import Event
from anovax.textclean import fix_surrogates

MAX_BYTES = 5 * 1024 * 1024
BACKUPS = 3


#: JSON leaves these raw in strings, but ``str.splitlines`` (and some JSONL readers) break lines at them
_LINE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def json_line(obj: Any, *, ascii_only: bool = False) -> str:
    """``obj`` as one line of JSON that any UTF-8 writer takes: surrogates (from undecodable
    input) become U+FFFD, a non-JSON value becomes its ``str``, and nothing in it splits the line.
    ``ascii_only`` for a stream whose encoding is not UTF-8."""
    line = fix_surrogates(json.dumps(obj, ensure_ascii=False, default=str)).translate(_LINE_BREAKS)
    return json.dumps(json.loads(line)) if ascii_only else line


def _is_utf(stream: TextIO) -> bool:
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str):
        return True  # StringIO and friends hold str, not bytes
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


class _LogFileHandler(logging.handlers.RotatingFileHandler):
    """The rotating file handler, but a write that fails (disk full, folder gone) is one line on
    stderr, once, instead of a ``--- Logging error ---`` traceback per event."""

    failures = 0

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        self.failures += 1
        if self.failures == 1:
            exc = sys.exc_info()[1]
            try:
                sys.stderr.write(f"anovax: cannot write the event log {self.baseFilename}: {exc}\n")
            except Exception:  # noqa: BLE001 - stderr itself is gone: nowhere left to say it
                pass


class JsonlLog:
    """A bus subscriber that appends each event to ``path`` and rotates at ``max_bytes``."""

    def __init__(self, path: Path, *, max_bytes: int = MAX_BYTES, backups: int = BACKUPS) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        # RotatingFileHandler already gets rollover and partial-write edge cases right.
        # errors="replace" is a second net: json_line already leaves nothing UTF-8 cannot encode
        self._handler = _LogFileHandler(
            path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8", errors="replace", delay=True
        )
        self._handler.setFormatter(logging.Formatter("%(message)s"))

    def __call__(self, event: Event) -> None:
        line = json_line(event.to_dict())
        self._handler.handle(logging.makeLogRecord({"msg": line, "levelno": logging.INFO}))

    def close(self) -> None:
        self._handler.close()


class JsonLines:
    """A bus subscriber that prints each event as one JSON line (``--json``)."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._ascii_only = not _is_utf(out)

    def __call__(self, event: Event) -> None:
        self._out.write(json_line(event.to_dict(), ascii_only=self._ascii_only) + "\n")
        self._out.flush()
