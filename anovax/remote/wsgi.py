"""The phone remote's HTTP server: waitress (pinned in pyproject.toml), with what a LAN sidecar needs added.

(wsgi_parse.py holds the limits, the counters, the request parser's caps and the error pages.)

waitress reads every request on one event loop and hands only complete requests (headers and
a body already within its cap) to a fixed pool of threads, so a slow client costs a socket,
never a thread. What it lacks, and this module adds by extending its internals:

* **whole-request deadlines**: a new connection must finish its headers within
  ``header_timeout_s``; a body must arrive within ``header_timeout_s`` plus its size over
  ``min_upload_bytes_per_s``; a keep-alive connection idles ``read_timeout_s``; a response
  nobody reads for ``read_timeout_s`` closes the connection (waitress only has an idle timeout);
* **connection caps** in total and per address; at a cap the oldest connection whose
  headers are not complete is evicted before a newcomer is refused with a 503;
* **no reading of refused bodies**: a body over the cap is refused from ``Content-Length``
  before it is read (waitress), then no more of the socket is read; the connection closes after
  a short lingering drain, bounded in time and bytes, so the client still sees the answer;
* **its own error pages** (400, 413, 414, 431, 501, 503) as JSON with the remote's security
  headers, no server version; a cap on the number of header lines and on the request line.

Threads: the event loop is the RemoteServer's "remote-http" thread; requests run on
"remote-worker-N" (``threads``: the stream caps plus spare, because an open stream holds one).
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from anovax.remote.wsgi_parse import MAX_HEADER_BYTES, ErrorPage, RequestParser, ServerLimits, ServerStats, json_error

log = logging.getLogger(__name__)

#: the event loop wakes this often, and deadlines are checked as often
TICK_S = 0.25
#: a phone that vanished (WiFi off) sends no reset: unacknowledged stream data ends it after this
USER_TIMEOUT_MS = 30_000
IDENT = "AnovaX"  # no waitress or Python version for a scanner to match


class _Channel(HTTPChannel):
    """One connection, with the clocks its deadlines are measured from."""

    parser_class = RequestParser
    error_task_class = ErrorPage

    def __init__(self, server: HttpServer, sock: socket.socket, addr: Any, adj: Adjustments, map: dict) -> None:
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
        super().__init__(server, sock, addr, adj, map=map)

    # -- reading ------------------------------------------------------------------------

    def readable(self) -> bool:
        if self.linger_until is not None:
            return self.lingered < self.server.limits.linger_bytes
        if any(r.error is not None for r in self.requests):
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

    def evictable(self) -> bool:
        """Waiting for headers (or lingering): nothing a thread is working on is lost by closing it."""
        if self.linger_until is not None:
            return True
        return not self.requests and (self.request is None or not self.request.headers_finished)

    def deadline(self, now: float, limits: ServerLimits) -> float | None:
        if self.linger_until is not None:
            return self.linger_until
        if self.requests:  # a thread answers: only a client that stopped reading is cut
            if not self.total_outbufs_len or self.bytes_sent != self._sent_seen:
                self._sent_seen, self._stall_since = self.bytes_sent, now
            return self._stall_since + limits.read_timeout_s
        request = self.request
        if request is not None and request.headers_finished:
            return self.headers_done + limits.body_deadline_s(request.content_length or None)
        if self.served == 0:  # a new connection: whole headers within the deadline of accept
            return self.accepted_at + limits.header_timeout_s
        if request is not None:
            return min(self.request_started + limits.header_timeout_s, self.waiting_since + limits.read_timeout_s)
        return self.waiting_since + limits.read_timeout_s


class _Dispatcher(ThreadedTaskDispatcher):
    """waitress's thread pool, with the threads named for the remote."""

    def start_new_thread(self, target: Callable[[int], None], thread_no: int) -> None:
        threading.Thread(target=target, name=f"remote-worker-{thread_no}", args=(thread_no,), daemon=True).start()


class HttpServer(TcpWSGIServer):
    """waitress's TCP server with deadlines, caps and eviction; ``serve_once`` runs one loop turn."""

    channel_class = _Channel

    def __init__(self, app: Any, host: str, port: int, limits: ServerLimits,
                 extra_headers: Iterable[tuple[str, str]] = ()) -> None:
        self.limits = limits
        self.stats = ServerStats()
        self.extra_headers = list(extra_headers)
        self._next_check = 0.0
        # a worker finishing a request wakes the loop through the trigger's pipe; once the pipe is
        # closed its fd number may belong to another file, so no write may reach it
        self._trigger_lock = threading.Lock()
        self._trigger_closed = False
        adj = Adjustments(
            host=host, port=port, threads=limits.threads, ident=IDENT, expose_tracebacks=False,
            # room for lingering sockets beyond the caps; past it waitress stops accepting (a backstop)
            connection_limit=2 * limits.max_connections + 8,
            max_request_header_size=MAX_HEADER_BYTES,
            # waitress refuses a body whose length reaches this: one byte over ours
            max_request_body_size=limits.max_body_bytes + 1,
            # > 0 keeps reading while a stream is served, so a client that went away is noticed
            channel_request_lookahead=1,
            outbuf_high_watermark=1 << 20, clear_untrusted_proxy_headers=False,
            asyncore_use_poll=True, log_socket_errors=False)
        options = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            options.append((socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, USER_TIMEOUT_MS))
        adj.socket_options = options
        dispatcher = _Dispatcher()
        try:
            super().__init__(app, map={}, dispatcher=dispatcher, adj=adj)  # binds: OSError when the port is taken
        except BaseException:
            for part in (getattr(self, "trigger", None), getattr(self, "socket", None)):
                if part is not None:
                    with contextlib.suppress(OSError):
                        part.close()  # a taken port must not leak the wake-up pipe or the socket
            raise
        dispatcher.set_thread_count(limits.threads)  # only once bound: a failed start leaves no threads

    @property
    def port(self) -> int:
        return int(self.effective_port)

    def serve_once(self) -> None:
        wasyncore.loop(timeout=TICK_S, map=self._map, use_poll=True, count=1)

    def connections(self) -> list[_Channel]:
        return [c for c in list(self.active_channels.values()) if isinstance(c, _Channel)]

    # -- accepting ----------------------------------------------------------------------

    def handle_accept(self) -> None:
        try:
            pair = self.accept()
            if pair is None:
                return
            conn, addr = pair
            self.set_socket_options(conn)
        except OSError:
            return  # the peer left before we got to it
        addr = self.fix_addr(addr)
        if not self._make_room(str(addr[0])):
            self._refuse(conn)
            return
        self.stats.accepted += 1
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    def _make_room(self, ip: str) -> bool:
        mine = [c for c in self._live() if str(c.addr[0]) == ip]
        if len(mine) >= self.limits.max_connections_per_ip and not self._evict(mine):
            return False
        live = self._live()
        return len(live) < self.limits.max_connections or self._evict(live)

    def _live(self) -> list[_Channel]:
        return [c for c in self.connections() if c.socket is not None]

    def _evict(self, channels: list[_Channel]) -> bool:
        """Close the oldest connection still waiting for its headers (lingering ones first)."""
        candidates = [c for c in channels if c.socket is not None and c.evictable()]
        if not candidates:
            return False
        victim = min(candidates, key=lambda c: (c.linger_until is None, c.waiting_since))
        victim._close_now()
        self.stats.evicted += 1
        return True

    def _refuse(self, conn: socket.socket) -> None:
        self.stats.refused += 1
        body, headers = json_error([*self.extra_headers, ("Retry-After", "5")], "too many connections")
        head = "".join(f"{k}: {v}\r\n" for k, v in headers)
        reply = (f"HTTP/1.1 503 Service Unavailable\r\n{head}Content-Length: {len(body)}\r\n"
                 f"Connection: close\r\n\r\n").encode("latin-1") + body
        try:
            conn.setblocking(False)
            conn.send(reply)
            conn.shutdown(socket.SHUT_WR)
            # what already arrived (a request line) is drained, so the close is a FIN, not a reset
            self.stats.bytes_drained += len(conn.recv(64 * 1024))
        except OSError:
            pass
        finally:
            conn.close()

    # -- deadlines ----------------------------------------------------------------------

    def readable(self) -> bool:
        now = time.monotonic()
        if now >= self._next_check:
            self._next_check = now + TICK_S
            self.check_deadlines(now)
        return super().readable()

    def maintenance(self, now: float) -> None:
        """waitress's idle sweep is replaced by ``check_deadlines``."""

    def check_deadlines(self, now: float) -> None:
        for channel in self.connections():
            deadline = channel.deadline(now, self.limits)
            if deadline is not None and now >= deadline and channel.socket is not None:
                self.stats.expired += channel.linger_until is None
                channel._close_now()

    def pull_trigger(self) -> None:
        with self._trigger_lock:
            if not self._trigger_closed:
                self.trigger.pull_trigger()

    def close(self) -> None:
        with self._trigger_lock:
            self._trigger_closed = True
            self.trigger.close()
        wasyncore.dispatcher.close(self)

    def close_all(self) -> None:
        """Close every connection and the listener (after the loop has stopped)."""
        for channel in self.connections():
            with contextlib.suppress(OSError):
                channel._close_now()
        self.close()
