"""The phone remote's HTTP server: waitress (pinned in pyproject.toml), with what a LAN sidecar needs added.

(wsgi_parse.py holds the limits, the counters, the request parser's caps and the error pages;
wsgi_channel.py one connection's deadlines, eviction order and pipelining cap; wsgi_task.py the
request task, the console's queue warnings and the kernel's send queue.)

waitress reads every request on one event loop and hands only complete requests (headers and
a body already within its cap) to a fixed pool of threads, so a slow client costs a socket,
never a thread. What it lacks, and this module adds by extending its internals:

* **whole-request deadlines**: a new connection must finish its headers within
  ``header_timeout_s``; a body must arrive within ``header_timeout_s`` plus its size (at most
  the cap) over ``min_upload_bytes_per_s``, after an ``Expect: 100-continue`` too; a keep-alive
  connection idles ``read_timeout_s``; a response whose bytes the client does not take for
  ``read_timeout_s`` closes the connection, counting what the kernel still holds (waitress only
  has an idle timeout, and a kernel buffer hides a client that stopped reading for megabytes);
* **connection caps** in total and per address (the per-address cap is a quarter of the total, so
  a few addresses cannot fill it); at a cap the connection that has waited longest on its current
  request (headers, body, idle, a stalled answer, a pipeline), and has not shown a paired
  phone's credential, is evicted before a newcomer is refused with a 503;
* **pipelining is bounded**: past ``max_pipelined`` requests sent ahead of their answers the
  connection reads no more; it is answered so far, then closed;
* **no reading of refused bodies**: a body over the cap is refused from ``Content-Length``
  before it is read (waitress), then no more of the socket is read; the connection closes after
  a short lingering drain, bounded in time and bytes, so the client still sees the answer. With
  ``Expect: 100-continue`` the refusal comes instead of the ``100 Continue`` (waitress 3.0.2 sends
  the 100 and then waits for the body it has already refused);
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
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from anovax.remote.wsgi_channel import Channel
from anovax.remote.wsgi_parse import MAX_HEADER_BYTES, ServerLimits, ServerStats, json_error
from anovax.remote.wsgi_task import quiet_queue_warnings

log = logging.getLogger(__name__)

#: the event loop wakes this often, and deadlines are checked as often
TICK_S = 0.25
#: a phone that vanished (WiFi off) sends no reset: unacknowledged stream data ends it after this
USER_TIMEOUT_MS = 30_000
IDENT = "AnovaX"  # no waitress or Python version for a scanner to match


class _Dispatcher(ThreadedTaskDispatcher):
    """waitress's thread pool, with the threads named for the remote."""

    def start_new_thread(self, target: Callable[[int], None], thread_no: int) -> None:
        threading.Thread(target=target, name=f"remote-worker-{thread_no}", args=(thread_no,), daemon=True).start()


class HttpServer(TcpWSGIServer):
    """waitress's TCP server with deadlines, caps and eviction; ``serve_once`` runs one loop turn."""

    channel_class = Channel

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
        quiet_queue_warnings()
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

    def connections(self) -> list[Channel]:
        return [c for c in list(self.active_channels.values()) if isinstance(c, Channel)]

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

    def _live(self) -> list[Channel]:
        return [c for c in self.connections() if c.socket is not None]

    def _evict(self, channels: list[Channel]) -> bool:
        """Close the evictable connection (lingering ones first) that has waited longest on its
        current step: a slow header, a slow body, an idle keep-alive, an answer nobody reads."""
        now = time.monotonic()
        candidates = [c for c in channels if c.socket is not None and c.evictable(now)]
        if not candidates:
            return False
        victim = min(candidates, key=lambda c: (c.linger_until is None, c.waiting_for(now)))
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
