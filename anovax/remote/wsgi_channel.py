"""One connection of the phone remote's server: waitress's channel with the clocks its deadlines and eviction use.

wsgi.py says what the server adds to waitress; this module holds the per-connection half: when a
connection's current step (headers, body, idle, an answer the client is not taking) must end,
whether it may be evicted for room and in which order, the pipelining cap, the refused-body
lingering close, and ``Expect: 100-continue`` only for a body the server will take.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterable
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel

from anovax.remote.wsgi_parse import ErrorPage, RequestParser, ServerLimits
from anovax.remote.wsgi_task import Task, unsent_bytes

#: an answer being written is only evictable once the client has taken none of it for this long
STALLED_S = 1.0


class Channel(HTTPChannel):
    """One connection, with the clocks its deadlines are measured from."""

    parser_class = RequestParser
    error_task_class = ErrorPage
    task_class = Task

    def __init__(self, server: Any, sock: socket.socket, addr: Any, adj: Adjustments, map: dict) -> None:
        now = time.monotonic()
        self.accepted_at = self.waiting_since = now
        self.served = 0
        self.request_started = self.headers_done = 0.0
        self._timed: Any = None
        self.bytes_sent = 0
        self._sent_seen = 0
        self._stall_since = now
        self.linger_on_close = False
        self.linger_until: float | None = None
        self.lingered = 0
        #: a request on it carried a valid credential (a paired phone's): never evicted for room
        self.trusted = False
        #: requests that arrived while an earlier one was unanswered; past the cap no more is read
        self.pipelined = 0
        self.pipeline_full = False
        self._requests: list = []
        super().__init__(server, sock, addr, adj, map=map)

    def mark_trusted(self) -> None:
        self.trusted = True  # one bool written by a worker, read by the loop: no lock needed

    # waitress appends each parsed request to ``requests`` (and replaces the list): the property
    # wraps every list it is given, so each append is seen as it happens
    @property
    def requests(self) -> list:
        return self._requests

    @requests.setter
    def requests(self, value: list) -> None:
        self._requests = Pending(self, value)

    def _parsed(self, request: Any, queued: int) -> None:
        if queued or self.total_outbufs_len:
            self.pipelined += 1
            if self.pipelined >= self.server.limits.max_pipelined and not self.pipeline_full:
                # this one is the last answered; the rest of what was sent ahead is drained, not read
                self.pipeline_full = True
                request.headers["CONNECTION"] = "close"
                request.connection_close = True
                self.linger_on_close = True

    # -- reading ------------------------------------------------------------------------

    def readable(self) -> bool:
        if self.linger_until is not None:
            return self.lingered < self.server.limits.linger_bytes
        if self.pipeline_full or any(r.error is not None for r in self.requests):
            return False  # refused: not one more byte of what the client is pushing
        return super().readable()

    def received(self, data: bytes) -> bool:
        self.server.stats.bytes_read += len(data)
        result = super().received(data)
        now, request = time.monotonic(), self.request
        if request is None:
            self._timed = None
        else:
            if request is not self._timed:
                self._timed, self.request_started, self.headers_done = request, now, 0.0
            if request.headers_finished and not self.headers_done:
                self.headers_done = now
        return result

    def handle_read(self) -> None:
        if self.linger_until is None:
            super().handle_read()
            return
        try:
            data = self.socket.recv(max(1, min(64 * 1024, self.server.limits.linger_bytes - self.lingered)))
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._close_now()
            return
        self.lingered += len(data)
        self.server.stats.bytes_drained += len(data)

    def send_continue(self) -> None:
        # only for a request still waiting for its body: waitress would also send it for one it has
        # just refused (413 from Content-Length) and un-complete it, waiting for a body it never takes
        if self.request is not None and not self.request.completed and self.request.error is None:
            super().send_continue()

    # -- writing ------------------------------------------------------------------------

    def writable(self) -> bool:
        return self.linger_until is None and bool(super().writable())

    def send(self, data: bytes, do_close: bool = True) -> int:
        sent = super().send(data, do_close=do_close)
        self.bytes_sent += sent or 0  # progress, for telling a slow reader from one that stopped
        return sent

    def service(self) -> None:
        try:
            super().service()
        finally:
            self.served += 1
            self.waiting_since = time.monotonic()

    # -- closing ------------------------------------------------------------------------

    def handle_close(self) -> None:
        if self.linger_on_close and self.linger_until is None and self.socket is not None:
            self._linger()
        else:
            self._close_now()

    def _linger(self) -> None:
        """Stop sending, keep draining (and discarding) for a moment: closing a socket with
        unread data resets it, and a reset can cost the client the answer it has not read yet."""
        self.linger_until = time.monotonic() + self.server.limits.linger_s
        self.will_close = self.close_when_flushed = False
        self.connected = False
        try:
            self.socket.shutdown(socket.SHUT_WR)
        except OSError:
            self._close_now()

    def _close_now(self) -> None:
        self.linger_on_close = False
        self.linger_until = None
        super().handle_close()

    # -- deadlines ----------------------------------------------------------------------

    def evictable(self, now: float) -> bool:
        """Lingering, or not a paired phone's and not in the middle of being answered (unless that
        answer is stalled or one of a pipeline): closing it loses nothing anyone waits for."""
        if self.linger_until is not None:
            return True
        if self.trusted:
            return False
        return not self.requests or self.pipelined > 0 or now - self._stall_since >= STALLED_S

    def waiting_for(self, now: float) -> float:
        """Since when this connection has been on its current, unfinished step (the eviction order)."""
        if self.requests:
            return self._stall_since
        if self.request is not None:
            return self.request_started
        return self.waiting_since

    def _track_writes(self, now: float) -> bool:
        """Whether bytes wait for the client; restarts the stall clock whenever it takes some."""
        unsent = unsent_bytes(self.socket)
        taken = self.bytes_sent - unsent  # what the client's end has acknowledged
        pending = bool(self.total_outbufs_len or unsent)
        if not pending or taken != self._sent_seen:
            self._sent_seen, self._stall_since = taken, now
        return pending

    def deadline(self, now: float, limits: ServerLimits) -> float | None:
        if self.linger_until is not None:
            return self.linger_until
        pending = self._track_writes(now)
        written = self._stall_since + limits.read_timeout_s  # an answer the client does not take
        if self.requests:  # a thread answers: only a client that stopped reading is cut
            return written
        reading = self._read_deadline(limits)
        return min(reading, written) if pending else reading

    def _read_deadline(self, limits: ServerLimits) -> float:
        request = self.request
        if request is not None and request.headers_finished:
            return self.headers_done + limits.body_deadline_s(request.content_length or None)
        if self.served == 0:  # a new connection: whole headers within the deadline of accept
            return self.accepted_at + limits.header_timeout_s
        if request is not None:
            return min(self.request_started + limits.header_timeout_s, self.waiting_since + limits.read_timeout_s)
        return self.waiting_since + limits.read_timeout_s


class Pending(list):
    """A channel's parsed, unanswered requests; tells the channel of each one as it is queued."""

    def __init__(self, channel: Channel, items: Iterable[Any] = ()) -> None:
        super().__init__(items)
        self._channel = channel

    def append(self, request: Any) -> None:
        self._channel._parsed(request, len(self))
        super().append(request)
