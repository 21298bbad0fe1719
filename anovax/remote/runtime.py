"""RemoteServer: the phone remote inside the assistant's process, on threads of its own.

Server: Werkzeug's threaded WSGI server (a thread per connection). Every open stream
holds a thread, and waitress with its default 4 threads stopped answering from the 5th
open stream on; the threaded server held 20 MJPEG viewers at 30 fps. What it lacks is
added here: a read timeout (slowloris), connection caps in total and per address, quiet
logs without query strings, and no version banner.

Threads: "remote-http" runs the accept loop; each connection gets a daemon thread from
the server; "remote-capture" runs only while someone watches. ``stop`` ends the accept
loop, tells every stream to finish (they poll every 0.25 s) and joins "remote-http".
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from anovax.confirm import Confirmations
from anovax.events import EventBus, EventType
from anovax.net import lan_address
from anovax.remote.auth import Ban, Guard, allowed_hosts
from anovax.remote.capture import FrameSource
from anovax.remote.server import Limits, RemoteContext, Submit, create_app
from anovax.settings import Settings

log = logging.getLogger(__name__)

#: events about the remote itself belong to no command
COMMAND_ID = "remote"
#: sent stream data unacknowledged this long means the phone is gone (SSE keep-alives every 15 s)
USER_TIMEOUT_MS = 30_000


class _Handler(WSGIRequestHandler):
    # streams are written as several small sends per event (chunk size, data, CRLF): with Nagle
    # on, each waited for the phone's delayed ACK and SSE p99 rose to hundreds of milliseconds
    disable_nagle_algorithm = True

    def version_string(self) -> str:
        return "AnovaX"  # no Werkzeug or Python version for a scanner to match

    def setup(self) -> None:
        self.timeout = getattr(self.server, "read_timeout_s", None)
        super().setup()
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            # a phone that vanished (WiFi off) sends no reset: without this, unacknowledged stream
            # data would hold its thread and its stream slot for the ~15 minutes of TCP retries
            try:
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, USER_TIMEOUT_MS)
            except OSError:
                pass

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        # the path only: a pairing code in the query string must not reach a log file
        path = getattr(self, "path", "").split("?", 1)[0]
        log.debug("%s %s %s %s", self.address_string(), getattr(self, "command", "-"), path, code)

    def log(self, type: str, message: str, *args: Any) -> None:
        log.debug("http %s: %s", type, message % args if args else message)


class _Server(ThreadedWSGIServer):
    """The threaded server with connection caps: over a cap, a one-line 503 and close."""

    def __init__(self, host: str, port: int, app: Any, limits: Limits) -> None:
        # bind here: Werkzeug answers a taken port with sys.exit(1), which would end the assistant
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((host, port))
            listener.listen(128)
            super().__init__(host, port, app, handler=_Handler, fd=listener.fileno())
        finally:
            listener.close()  # the server holds its own duplicate
        self.read_timeout_s = limits.read_timeout_s
        self._limits = limits
        self._active: Counter[str] = Counter()
        self._active_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        ip = str(client_address[0])
        with self._active_lock:
            busy = (sum(self._active.values()) >= self._limits.max_connections
                    or self._active[ip] >= self._limits.max_connections_per_ip)
            if not busy:
                self._active[ip] += 1
        if busy:
            try:
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\n"
                                b"Content-Length: 0\r\nConnection: close\r\n\r\n")
            except OSError:
                pass
            self.shutdown_request(request)
            return
        thread = threading.Thread(target=self.process_request_thread, args=(request, client_address),
                                  name=f"remote-conn-{ip}", daemon=True)
        try:
            thread.start()
        except RuntimeError:  # no more threads: refuse this one, keep serving
            self._release(ip)
            self.shutdown_request(request)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(str(client_address[0]))

    def _release(self, ip: str) -> None:
        with self._active_lock:
            self._active[ip] -= 1
            if self._active[ip] <= 0:
                del self._active[ip]


class RemoteServer:
    """The phone remote for the assistant: start/stop it as often as the orb's switch is flipped."""

    def __init__(self, settings: Settings, bus: EventBus, submit: Submit, state: Callable[[], Mapping[str, Any]]
                 | None = None, frames: FrameSource | None = None, *, limits: Limits | None = None,
                 guard: Guard | None = None, confirmations: Confirmations | None = None) -> None:
        self.settings = settings
        self.bus = bus
        self.limits = limits or Limits()
        # ``confirmations``: the assistant's broker; a paired phone with its page open answers
        # held plans through it (remote/confirm.py says when the phone counts as a front end)
        self.app = create_app(settings, bus, submit, state=state, frames=frames, guard=guard, limits=self.limits,
                              on_viewers=self._viewers_changed, confirmations=confirmations)
        self._ctx: RemoteContext = self.app.extensions["anovax.remote"]
        self._ctx.on_ban = self._banned
        self._ctx.on_pair = self._paired
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._public_host = "127.0.0.1"

    # -- what the desktop shows -----------------------------------------------------------

    @property
    def running(self) -> bool:
        with self._lock:
            return self._thread is not None and self._thread.is_alive()

    @property
    def port(self) -> int:
        with self._lock:
            return self._server.port if self._server is not None else self.settings.remote_port

    @property
    def address(self) -> str:
        """Where a phone on the same network finds the remote, e.g. http://192.168.1.20:8765."""
        return f"http://{self._public_host}:{self.port}"

    @property
    def pairing_url(self) -> str:
        """A one-time link (the QR code): opening it pairs that browser; it is then spent."""
        return f"{self.address}/pair?code={self._ctx.guard.pairing_code()}"

    def new_pairing(self) -> str:
        """A fresh pairing link; the previous one stops working."""
        self._ctx.guard.new_pairing()
        return self.pairing_url

    @property
    def token(self) -> str:
        """The bearer token for scripts (``Authorization: Bearer …``)."""
        return self._ctx.guard.token

    @property
    def viewers(self) -> int:
        return self._ctx.screen.viewers

    @property
    def event_clients(self) -> int:
        return self._ctx.events.clients

    @property
    def phones_watching(self) -> int:
        """Paired phones with their event stream open: the phone is asked while this is > 0."""
        return self._ctx.seats.open if self._ctx.seats is not None else 0

    def bans(self) -> list[Ban]:
        return self._ctx.guard.bans()

    def unban(self, ip: str | None = None) -> int:
        """Let ``ip`` (every banned address when None) try again; how many bans were lifted."""
        return self._ctx.guard.unban(ip)

    def forget_phones(self) -> None:
        """Unpair every phone: sessions, tickets and (unless fixed) the token end; open streams close."""
        self._ctx.guard.revoke_all()

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> str:
        """Bind and serve on a daemon thread; the address. Raises OSError when the port is taken."""
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return self.address
            bind = self.settings.remote_bind or lan_address() or "127.0.0.1"
            if self.app.debug:  # the debugger runs arbitrary code for anyone who can reach it
                raise RuntimeError("refusing to serve the phone remote with Flask debug on")
            server = _Server(bind, self.settings.remote_port, self.app, self.limits)
            lan = lan_address()
            self._public_host = (lan or "127.0.0.1") if bind in ("0.0.0.0", "::") else bind
            names = {"127.0.0.1", "localhost", "::1", bind, self._public_host}
            if lan and bind in ("0.0.0.0", "::"):
                names |= {lan, socket.gethostname(), f"{socket.gethostname()}.local"}
            elif bind not in ("127.0.0.1", "::1"):
                names |= {socket.gethostname(), f"{socket.gethostname()}.local"}
            self._ctx.hosts = allowed_hosts(names - {"0.0.0.0", "::"}, server.port)
            self._ctx.stopping.clear()
            self._ctx.screen.reopen()
            self._server = server
            self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                                            name="remote-http", daemon=True)
            self._thread.start()
        log.info("phone remote at %s", self.address)
        return self.address

    def stop(self, timeout_s: float = 5.0) -> None:
        with self._lock:
            server, thread = self._server, self._thread
            self._server = self._thread = None
        if server is None or thread is None:
            return
        self._ctx.stopping.set()  # streams notice within POLL_S and release their threads
        server.shutdown()
        thread.join(timeout_s)
        server.server_close()
        # connection threads are the server's daemons; wait (briefly) until every stream let go
        deadline = time.monotonic() + min(timeout_s, 2.0)
        while (self._ctx.events.clients or self._ctx.screen.viewers) and time.monotonic() < deadline:
            time.sleep(0.02)
        self._ctx.screen.close(timeout_s)

    # -- events for the desktop -------------------------------------------------------------

    def _viewers_changed(self, count: int) -> None:
        self.bus.emit(EventType.REMOTE_VIEWERS, COMMAND_ID, data={"viewers": count})

    def _banned(self, ip: str, failures: int) -> None:
        log.warning("phone remote: %s banned after %d failed attempts", ip, failures)
        self.bus.emit(EventType.REMOTE_BANNED, COMMAND_ID, data={"ip": ip, "failures": failures,
                                                                 "ban_s": self._ctx.guard.policy.ban_s})

    def _paired(self, ip: str) -> None:
        self.bus.emit(EventType.REMOTE_PAIRED, COMMAND_ID, data={"ip": ip})
