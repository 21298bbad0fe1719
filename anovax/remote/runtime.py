"""RemoteServer: the phone remote inside the assistant's process, on threads of its own.

Server: waitress, extended in wsgi.py (whole-request deadlines, connection caps with
eviction, refused bodies never read, its own error pages with the security headers). Its
event loop holds every socket; only complete requests reach its threads, so a slow or
hostile client costs a socket and never a thread. The threads are sized to the stream caps
plus spare (``Limits.threads``): an open SSE or MJPEG stream holds one for as long as it runs.

Threads: "remote-http" runs the event loop; "remote-worker-N" serve requests; "remote-capture"
runs only while someone watches. ``stop`` tells every stream to finish (they poll every
0.25 s), ends the loop, closes every connection and joins the workers.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from anovax.confirm import Confirmations
from anovax.events import EventBus, EventType
from anovax.net import lan_address, url_host
from anovax.remote.auth import Ban, Guard, allowed_hosts
from anovax.remote.capture import FrameSource
from anovax.remote.server import SECURITY_HEADERS, Limits, RemoteContext, Submit, create_app
from anovax.remote.wsgi import HttpServer, ServerLimits, ServerStats
from anovax.settings import Settings

log = logging.getLogger(__name__)

#: events about the remote itself belong to no command
COMMAND_ID = "remote"


def server_limits(limits: Limits) -> ServerLimits:
    return ServerLimits(threads=limits.threads, max_body_bytes=limits.max_body_bytes,
                        header_timeout_s=limits.header_timeout_s, min_upload_bytes_per_s=limits.min_upload_bytes_per_s,
                        read_timeout_s=limits.read_timeout_s, max_connections=limits.max_connections,
                        max_connections_per_ip=limits.max_connections_per_ip, linger_s=limits.linger_s,
                        linger_bytes=limits.linger_bytes, max_pipelined=limits.max_pipelined)


def serve(app: Any, host: str, port: int, limits: Limits) -> HttpServer:
    """The WSGI ``app`` on a bound waitress server (not yet looping); OSError when the port is taken."""
    return HttpServer(app, host, port, server_limits(limits), extra_headers=SECURITY_HEADERS.items())


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
        self._server: HttpServer | None = None
        self._thread: threading.Thread | None = None
        self._halt = threading.Event()
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
        return f"http://{url_host(self._public_host)}:{self.port}"

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
            server = serve(self.app, bind, self.settings.remote_port, self.limits)
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
            self._halt = threading.Event()
            self._thread = threading.Thread(target=self._loop, args=(server, self._halt), name="remote-http",
                                            daemon=True)
            self._thread.start()
        log.info("phone remote at %s", self.address)
        return self.address

    def stop(self, timeout_s: float = 5.0) -> None:
        with self._lock:
            server, thread, halt = self._server, self._thread, self._halt
            self._server = self._thread = None
        if server is None or thread is None:
            return
        self._ctx.stopping.set()  # streams notice within POLL_S, write their last bytes and let go
        deadline = time.monotonic() + min(timeout_s, 2.0)
        while (self._ctx.events.clients or self._ctx.screen.viewers) and time.monotonic() < deadline:
            time.sleep(0.02)
        halt.set()
        thread.join(timeout_s)
        server.close_all()  # a request still running finds its client gone at its next write
        server.task_dispatcher.shutdown(timeout=min(timeout_s, 2.0))
        self._ctx.screen.close(timeout_s)

    @property
    def http_stats(self) -> ServerStats | None:
        """The server's counters (bytes read, connections refused, evicted, expired) while it runs."""
        with self._lock:
            return self._server.stats if self._server is not None else None

    @staticmethod
    def _loop(server: HttpServer, halt: threading.Event) -> None:
        while not halt.is_set():
            try:
                server.serve_once()
            except Exception:  # one broken socket must not end the remote for everyone
                log.exception("phone remote event loop")
                time.sleep(0.05)

    # -- events for the desktop -------------------------------------------------------------

    def _viewers_changed(self, count: int) -> None:
        self.bus.emit(EventType.REMOTE_VIEWERS, COMMAND_ID, data={"viewers": count})

    def _banned(self, ip: str, failures: int) -> None:
        log.warning("phone remote: %s banned after %d failed attempts", ip, failures)
        self.bus.emit(EventType.REMOTE_BANNED, COMMAND_ID, data={"ip": ip, "failures": failures,
                                                                 "ban_s": self._ctx.guard.policy.ban_s})

    def _paired(self, ip: str) -> None:
        self.bus.emit(EventType.REMOTE_PAIRED, COMMAND_ID, data={"ip": ip})
