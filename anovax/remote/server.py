"""The phone remote's Flask app: ``create_app(settings, bus, submit)``.

gate.py vets every request first (Host allowlist, cross-site check, credentials and bans);
writes must be ``application/json`` within ``max_body_bytes`` (413) and nested at most
``MAX_JSON_DEPTH`` deep (400). Errors are JSON without tracebacks; every response carries the
security headers (wsgi.py adds them to the server's own error pages too). A command only
enters the assistant's queue through ``submit``, so it meets the same planner and
``safety_check`` as a spoken one; an answer to a held plan only reaches the ``Confirmations``
broker from a paired phone (remote/confirm.py).
"""
from __future__ import annotations

import json
import logging
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, jsonify, redirect, request, send_from_directory
from werkzeug.exceptions import HTTPException
from werkzeug.wsgi import ClosingIterator

from anovax.confirm import Confirmations
from anovax.events import Event, EventBus
from anovax.remote.auth import Guard, allowed_hosts
from anovax.remote.bans import BanStore
from anovax.remote.capture import FrameSource, MssScreen
from anovax.remote.confirm import PhoneSeats
from anovax.remote.streams import EventFanout, ScreenBroadcaster
from anovax.settings import Settings

log = logging.getLogger(__name__)

PAGE_DIR = Path(__file__).resolve().parent / "page"
SESSION_COOKIE = "anovax_session"
#: the assistant refuses longer commands anyway; refusing here spends no planner call
MAX_TEXT_CHARS = 2000
#: events replayed to a client that connects without Last-Event-ID (the page's first view)
REPLAY_ON_CONNECT = 20
#: stream threads look at the stop and revocation flags this often
POLL_S = 0.25
#: bodies are flat objects: deeper JSON is refused (400) before it reaches the parser
MAX_JSON_DEPTH = 8
#: the only paths that take a stream ticket (``?ticket=``); a ``?token=`` is never read anywhere
STREAM_PATHS = ("/api/events", "/api/screen")

SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; img-src 'self'; connect-src 'self'; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Pragma": "no-cache",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}

#: Assistant.submit(text, source=...) -> Future[CommandResult]; a full queue resolves it at once
Submit = Callable[..., Future]


@dataclass(frozen=True)
class Limits:
    """Caps that keep a hostile or broken client from hurting the assistant."""

    max_body_bytes: int = 16 * 1024
    max_event_clients: int = 8
    max_screen_viewers: int = 4
    #: events one SSE client may fall behind by before it is dropped (it reconnects and replays)
    event_queue: int = 256
    keepalive_s: float = 15.0
    #: commands one address may send per minute (429 beyond)
    commands_per_minute: int = 20
    retry_after_s: int = 5
    #: an idle keep-alive connection, or a response the client stopped reading, is closed after this
    read_timeout_s: float = 10.0
    #: a request's headers must be complete this long after the connection opened (slowloris)
    header_timeout_s: float = 5.0
    #: the slowest body accepted: its deadline is header_timeout_s + max_body_bytes / this (9 s)
    min_upload_bytes_per_s: int = 4096
    #: at a cap the connection waiting longest on its current step (headers, body, idle, an answer
    #: it does not read), not a paired phone's, is evicted, else a 503. The per-address cap is a
    #: quarter of the total so that two or three addresses cannot fill it
    max_connections: int = 64
    max_connections_per_ip: int = 16
    #: requests sent ahead of their answers on one connection before it is answered and closed
    max_pipelined: int = 8
    #: a refused request's socket is drained (and discarded) this long and this much at most before it
    #: closes, so the client reads the answer instead of a reset
    linger_s: float = 1.0
    linger_bytes: int = 64 * 1024
    #: request threads beyond the stream caps (every open stream holds one): commands, state and
    #: pages are still served while every stream slot is taken
    spare_threads: int = 6

    @property
    def threads(self) -> int:
        return self.max_event_clients + self.max_screen_viewers + self.spare_threads


@dataclass
class RemoteContext:
    """What the routes share; the RemoteServer reads ``guard``, ``screen`` and ``events`` from it."""

    bus: EventBus
    submit: Submit
    guard: Guard
    screen: ScreenBroadcaster
    events: EventFanout
    limits: Limits
    state: Callable[[], Mapping[str, Any]] | None = None
    hosts: frozenset[str] = frozenset()
    stopping: threading.Event = field(default_factory=threading.Event)
    on_ban: Callable[[str, int], None] | None = None
    on_pair: Callable[[str], None] | None = None
    #: the broker a paired phone answers held plans through (None: this remote takes no answers)
    confirmations: Confirmations | None = None
    #: registers "phone" with ``confirmations`` while a paired phone's event stream is open
    seats: PhoneSeats | None = None
    _commands: dict[str, deque[float]] = field(default_factory=dict)
    _commands_lock: threading.Lock = field(default_factory=threading.Lock)

    def command_allowed(self, ip: str) -> bool:
        now = time.monotonic()
        with self._commands_lock:
            window = self._commands.setdefault(ip, deque())
            while window and window[0] <= now - 60.0:
                window.popleft()
            if len(window) >= self.limits.commands_per_minute:
                return False
            window.append(now)
            return True


def error(status: int, message: str, **headers: str) -> Response:
    response = jsonify(error=message)
    response.status_code = status
    response.headers.update(headers)
    return response


def ctx() -> RemoteContext:
    return current_app.extensions["anovax.remote"]


def create_app(settings: Settings, bus: EventBus, submit: Submit, *,
               state: Callable[[], Mapping[str, Any]] | None = None, frames: FrameSource | None = None,
               guard: Guard | None = None, limits: Limits | None = None,
               on_viewers: Callable[[int], None] | None = None,
               confirmations: Confirmations | None = None) -> Flask:
    """The Flask app. ``frames`` defaults to the real screen; ``hosts`` is filled in once the port is known."""
    limits = limits or Limits()
    app = Flask(__name__, static_folder=str(PAGE_DIR), static_url_path="/static")
    # never the debugger, never a traceback to a client, whatever FLASK_* says in the environment
    app.debug = False
    app.config.update(DEBUG=False, TESTING=False, PROPAGATE_EXCEPTIONS=False, TRAP_HTTP_EXCEPTIONS=False,
                      MAX_CONTENT_LENGTH=limits.max_body_bytes, MAX_FORM_MEMORY_SIZE=limits.max_body_bytes,
                      SEND_FILE_MAX_AGE_DEFAULT=0)
    screen = ScreenBroadcaster(frames or MssScreen(), width=settings.remote_width, max_fps=settings.remote_fps,
                               max_viewers=limits.max_screen_viewers, on_viewers=on_viewers)
    app.extensions["anovax.remote"] = RemoteContext(
        bus=bus, submit=submit, guard=guard or Guard(settings.remote_token or None, store=_ban_store(settings)),
        screen=screen,
        events=EventFanout(bus, max_clients=limits.max_event_clients, queue_size=limits.event_queue),
        limits=limits, state=state, hosts=allowed_hosts(("127.0.0.1", "localhost", "::1"), settings.remote_port),
        confirmations=confirmations, seats=PhoneSeats(confirmations) if confirmations is not None else None)
    app.url_map.merge_slashes = False  # "/static//etc/passwd" is a 404, not a redirect to a cleaned-up path
    from anovax.remote import gate, routes

    app.before_request(gate.gatekeeper)
    app.after_request(_secure_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _internal_error)
    routes.register(app)
    return app


def _ban_store(settings: Settings) -> BanStore | None:
    return BanStore(settings.remote_bans_path) if settings.remote_bans_path is not None else None


def _secure_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers[name] = value  # also over send_file's own "no-cache, max-age=0"
    return response


def _http_error(exc: HTTPException) -> Response:
    response = error(exc.code or 500, (exc.name or "error").lower())
    for name, value in exc.get_headers():
        if name.lower() in ("allow", "retry-after"):
            response.headers[name] = value
    return response


def _internal_error(exc: Exception) -> Response:
    log.exception("phone remote request failed")
    return error(500, "internal")


def streaming(body: Iterator[bytes], release: Callable[[], None], mimetype: str) -> Response:
    """A streamed response whose ``release`` runs exactly once however it ends.

    Two paths because neither is enough alone: the server calls ``close()`` (ClosingIterator)
    even on a stream that never started, but skips it when draining a reset socket raises;
    then the generator's own ``finally`` runs when the abandoned generator is collected."""
    lock = threading.Lock()
    done = False

    def once() -> None:
        nonlocal done
        with lock:
            if done:
                return
            done = True
        release()

    def guarded() -> Iterator[bytes]:
        try:
            yield from body
        finally:
            once()

    response = Response(ClosingIterator(guarded(), [once]), mimetype=mimetype, direct_passthrough=True)
    response.headers["X-Accel-Buffering"] = "no"
    return response


def read_json_body(limit: int) -> Any:
    """The request's JSON, reading at most ``limit`` bytes: 413 beyond, None when it is not JSON.

    Flask's MAX_CONTENT_LENGTH refuses a declared Content-Length; a chunked body has none, and
    ``get_json(silent=True)`` would swallow the overflow, so the cap is enforced here as well."""
    from werkzeug.exceptions import RequestEntityTooLarge

    if request.content_length is not None and request.content_length > limit:
        raise RequestEntityTooLarge()
    if request.content_length is not None:
        raw = request.stream.read(limit)
    elif request.environ.get("wsgi.input_terminated"):  # chunked: the server de-chunks, we count
        raw = request.input_stream.read(limit + 1)
    else:
        raw = b""  # neither a length nor chunks: HTTP/1.1 says there is no body
    if len(raw) > limit:
        raise RequestEntityTooLarge()
    if json_depth(raw) > MAX_JSON_DEPTH:
        return None  # the routes take flat objects; deep nesting is only a way to exhaust the parser
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError: undecodable text is a 400
        return None


def json_depth(raw: bytes) -> int:
    """The deepest nesting of ``[``/``{`` in ``raw``, outside strings (counted before parsing)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def client_gone(environ: Mapping[str, Any]) -> Callable[[], bool]:
    """A check a stream makes between writes: has its client gone away?

    waitress keeps reading a connection while a stream is served (``channel_request_lookahead``)
    and says so through ``waitress.client_disconnected``; a write to a closed or reset connection
    also ends the stream (waitress raises, the stream's ``close`` runs). Other servers hand over
    the socket, which is peeked at instead."""
    probe = environ.get("waitress.client_disconnected")
    if callable(probe):
        return probe
    sock = environ.get("werkzeug.socket")
    return lambda: peer_gone(sock)


def peer_gone(sock: socket.socket | None) -> bool:
    """True when the client closed its end: found between writes, so a stream whose screen is
    still (nothing to send) does not hold a viewer slot until its next write fails."""
    if sock is None:
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


def sse_line(event: Event) -> bytes:
    data = json.dumps(event.to_dict(), default=str, ensure_ascii=True)  # one line: no raw newlines
    return f"id: {event.seq}\ndata: {data}\n\n".encode()


def page_file(name: str) -> Response:
    return send_from_directory(PAGE_DIR, name)


def see_other(location: str) -> Response:
    return redirect(location, 303)
