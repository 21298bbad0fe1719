"""Small pieces wsgi.py adds around waitress: its request task, its console warnings, the kernel's send queue.

* ``Task``: waitress's WSGI task with HEAD answered by headers only (waitress 3.0.2 writes a
  chunked ``0\\r\\n\\r\\n`` after a HEAD whose response has no length), and a hook the gatekeeper
  calls once a request on the connection carried a valid credential (``TRUST_KEY``): such a
  connection is never evicted to make room (only its deadlines end it).
* ``OncePerInterval``: waitress logs "Task queue depth is N" for every request queued behind
  busy threads; an attack turns that into thousands of lines a second on the user's console.
* ``unsent_bytes``: what the kernel still holds for a socket. A client that stopped reading
  is invisible to ``send()`` until the kernel's buffer (megabytes on loopback) is full.
"""

from __future__ import annotations

import logging
import socket
import struct
import time
from typing import Any

from waitress.task import WSGITask

try:  # Linux and macOS; elsewhere a stopped reader is found once the server's own buffer stalls
    import fcntl
    import termios
except ImportError:  # pragma: no cover - Windows
    fcntl = termios = None  # type: ignore[assignment]

#: environ key of a callable marking the request's connection as a paired phone's
TRUST_KEY = "anovax.trust_connection"


class Task(WSGITask):
    """One request; HEAD gets headers and no body, and the environ carries the trust hook."""

    def get_environment(self) -> dict[str, Any]:
        environ = super().get_environment()
        environ[TRUST_KEY] = self.channel.mark_trusted
        return environ

    def write(self, data: bytes) -> None:
        # a HEAD answer is its headers: a streaming view's first chunk (or the chunked terminator
        # below) would be read by the client as the start of its next response
        super().write(b"" if self.request.command == "HEAD" else data)

    def finish(self) -> None:
        if self.request.command == "HEAD":
            if not self.wrote_header:
                self.write(b"")
            self.chunked_response = False
        super().finish()


class OncePerInterval(logging.Filter):
    """Lets a record through at most once per ``interval_s``, saying how many were held back."""

    def __init__(self, interval_s: float = 60.0, clock: Any = time.monotonic) -> None:
        super().__init__()
        self.interval_s = interval_s
        self._clock = clock
        self._next = 0.0
        self.suppressed = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = self._clock()
        if now < self._next:
            self.suppressed += 1
            return False
        if self.suppressed:
            record.msg = f"{record.msg} ({self.suppressed} more such warnings held back)"
        self._next, self.suppressed = now + self.interval_s, 0
        return True


def quiet_queue_warnings(interval_s: float = 60.0) -> None:
    """Install ``OncePerInterval`` on waitress's queue logger, once per process."""
    logger = logging.getLogger("waitress.queue")
    if not any(isinstance(f, OncePerInterval) for f in logger.filters):
        logger.addFilter(OncePerInterval(interval_s))


def unsent_bytes(sock: socket.socket | None) -> int:
    """Bytes the kernel has queued for ``sock`` and the peer has not acknowledged (0 where unknown)."""
    if sock is None or fcntl is None or not hasattr(termios, "TIOCOUTQ"):
        return 0
    try:
        raw = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
        return int(struct.unpack("i", raw)[0])
    except (OSError, ValueError, AttributeError):
        return 0
