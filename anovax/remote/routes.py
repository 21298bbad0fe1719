"""The phone remote's routes; the gatekeeper in server.py has already vetted every request."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask, Response, g, jsonify, request

from anovax.cancel import is_stop_utterance
from anovax.events import Event
from anovax.remote.auth import Via
from anovax.remote.confirm import BODY_HINT, deliver, parse_answer, pending_view
from anovax.remote.gate import count_failure, locked_out
from anovax.remote.server import (
    MAX_TEXT_CHARS, POLL_S, REPLAY_ON_CONNECT, SESSION_COOKIE, STREAM_PATHS, RemoteContext, client_gone, ctx, error,
    page_file, read_json_body, see_other, sse_line, streaming,
)
from anovax.remote.streams import SseClient
from anovax.textclean import clean_text

#: a phone keeps its pairing across restarts of its browser, not of AnovaX (sessions live in memory)
COOKIE_MAX_AGE_S = 30 * 24 * 3600
BOUNDARY = "frame"


def register(app: Flask) -> None:
    def add(rule: str, view, methods: tuple[str, ...]) -> None:
        # no automatic OPTIONS: a preflight gets 405 (or 403 from the origin check), never CORS headers
        app.add_url_rule(rule, view.__name__, view, methods=list(methods), provide_automatic_options=False)

    add("/", index, ("GET",))
    add("/pair", pair, ("GET",))
    add("/api/command", command, ("POST",))
    add("/api/confirm", confirm, ("POST",))
    add("/api/events", events, ("GET",))
    add("/api/screen", screen, ("GET",))
    add("/api/state", state, ("GET",))
    add("/api/stream-ticket", stream_ticket, ("POST",))
    add("/api/unpair", unpair, ("POST",))


def index() -> Response:
    return page_file("index.html")


def pair() -> Response:
    c = ctx()
    ip = request.remote_addr or "?"
    if request.method == "HEAD":
        # a link preview or a scanner looking before the phone opens it: nothing spent, nothing counted
        return Response(status=204)
    code = request.args.get("code") or None
    session = c.guard.pair(code) if code is not None else None
    if session is None:
        if c.guard.banned(ip):
            return locked_out(api=False)
        if code is not None:  # a wrong or spent code is a guess; no code at all is not
            count_failure(c, ip)
        return error(401, "this pairing link was used or has expired: show a new one on the desktop")
    if c.on_pair is not None:
        c.on_pair(ip)
    response = see_other("/")
    response.set_cookie(SESSION_COOKIE, session, max_age=COOKIE_MAX_AGE_S, path="/", httponly=True,
                        samesite="Strict", secure=request.is_secure)
    return response


def unpair() -> Response:
    ctx().guard.forget(request.cookies.get(SESSION_COOKIE))
    response = jsonify(ok=True)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="Strict")
    return response


def command() -> Response:
    c = ctx()
    body = read_json_body(c.limits.max_body_bytes)
    if not isinstance(body, dict) or set(body) != {"text"} or not isinstance(body["text"], str):
        # also a body that is not UTF-8 (read_json_body gives None for it)
        return error(400, 'send {"text": "..."} as UTF-8 JSON')
    text = clean_text(body["text"]).strip()  # a lone "\ud800" or a NUL becomes U+FFFD
    if not text:
        return error(400, "text is empty")
    if len(text) > MAX_TEXT_CHARS:
        return error(422, "text too long")
    # a stop is never rate limited: it is how a paired phone ends a flood of its own commands
    if not is_stop_utterance(text) and not c.command_allowed(request.remote_addr or "?"):
        return error(429, "too many commands; wait a minute", **{"Retry-After": "60"})
    future = c.submit(text, source="phone")
    command_id = getattr(future, "command_id", None)
    if future.done():
        result = future.result()
        status = getattr(getattr(result, "status", None), "label", "")
        if status == "done":  # a control message ("stop"), handled at once
            return jsonify(status="stop", message=getattr(result, "message", ""), command_id=command_id)
        # refused at once: the queue was full, or the assistant is shutting down
        response = jsonify(error="busy", message=getattr(result, "message", "The assistant is busy."),
                           command_id=getattr(result, "command_id", command_id))
        response.status_code = 503
        response.headers["Retry-After"] = str(c.limits.retry_after_s)
        return response
    response = jsonify(status="queued", command_id=command_id)
    response.status_code = 202
    return response


def confirm() -> Response:
    """A paired phone's yes or no to the held plan; nothing else reaches the broker from here."""
    c = ctx()
    if g.identity.via is not Via.SESSION:
        return error(403, "only a paired phone can answer a question")
    answer = parse_answer(read_json_body(c.limits.max_body_bytes))
    if answer is None:
        return error(400, BODY_HINT)
    outcome = deliver(c.confirmations, c.bus, answer)
    if not outcome.ok:
        return error(outcome.status, outcome.message)
    return jsonify(ok=True, question_id=answer.question_id, answer="yes" if answer.yes else "no",
                   message=outcome.message)


def state() -> Response:
    c = ctx()
    info: dict[str, Any] = dict(c.state()) if c.state is not None else {}
    info["remote"] = {"viewers": c.screen.viewers, "event_clients": c.events.clients,
                      "paired_phones": c.guard.sessions, "capturing": c.screen.capturing,
                      "via": g.identity.via.value,
                      "phones_watching": c.seats.open if c.seats is not None else 0}
    # the page shows a question that was asked before it loaded; the phone's clock may be off,
    # so it counts down from the server's own time
    info["confirm"] = {"pending": pending_view(c.confirmations), "server_time": time.time(),
                       "can_answer": g.identity.via is Via.SESSION and c.confirmations is not None}
    return jsonify(info)


def stream_ticket() -> Response:
    c = ctx()
    body = read_json_body(c.limits.max_body_bytes)
    path = body.get("path") if isinstance(body, dict) else None
    if path not in STREAM_PATHS:
        return error(400, f"path must be one of {', '.join(STREAM_PATHS)}")
    return jsonify(ticket=c.guard.issue_ticket(path), path=path, expires_in_s=c.guard.policy.ticket_ttl_s)


def events() -> Response:
    c = ctx()
    if request.method == "HEAD":
        return _stream_head("text/event-stream")
    client = c.events.attach()
    if client is None:
        return error(503, "too many event streams", **{"Retry-After": str(c.limits.retry_after_s)})
    after = _last_event_id()
    # attach first, then read the ring: an event published in between is in both, never in neither
    recent = c.bus.recent(after if after is not None else 0)
    replay = recent if after is not None else recent[-REPLAY_ON_CONNECT:]
    # a paired phone's open stream is what makes the phone a front end that can be asked
    session = request.cookies.get(SESSION_COOKIE) if g.identity.via is Via.SESSION else None
    seat = c.seats.take() if session is not None and c.seats is not None else None

    def release() -> None:
        c.events.detach(client)
        if seat is not None:
            seat()
    body = _sse(c, client, replay, g.identity.generation, client_gone(request.environ), session)
    return streaming(body, release, "text/event-stream")


def _sse(c: RemoteContext, client: SseClient, replay: list[Event], generation: int, gone: Callable[[], bool],
         session: str | None) -> Iterator[bytes]:
    yield b"retry: 3000\n\n"
    last = 0
    for event in replay:
        last = event.seq
        yield sse_line(event)
    written = time.monotonic()
    # an unpaired phone (``/api/unpair``, or evicted by newer pairings) stops seeing events at once
    while not c.stopping.is_set() and c.guard.generation == generation and (session is None or c.guard.knows(session)):
        if client.overflowed.is_set():
            yield b"event: reconnect\ndata: {}\n\n"  # fell behind: reconnect and replay from Last-Event-ID
            return
        try:
            event = client.queue.get(timeout=POLL_S)
        except queue.Empty:
            if gone():
                return
            # a comment now and then also finds peers that vanished without closing
            if time.monotonic() - written >= c.limits.keepalive_s:
                written = time.monotonic()
                yield b": keepalive\n\n"
            continue
        if event.seq > last:
            last = event.seq
            written = time.monotonic()
            yield sse_line(event)


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    if raw is None:
        return None
    try:
        return max(0, int(raw.strip()[:20]))
    except ValueError:
        return None


def screen() -> Response:
    c = ctx()
    if request.method == "HEAD":
        return _stream_head(f"multipart/x-mixed-replace; boundary={BOUNDARY}")
    if not c.screen.attach():
        return error(503, "too many screen viewers", **{"Retry-After": str(c.limits.retry_after_s)})
    body = _mjpeg(c, g.identity.generation, client_gone(request.environ))
    return streaming(body, c.screen.detach, f"multipart/x-mixed-replace; boundary={BOUNDARY}")


def _stream_head(mimetype: str) -> Response:
    """A stream's headers without the stream: no slot taken, no thread held, no body sent."""
    return Response(iter(()), mimetype=mimetype, direct_passthrough=True)


def _mjpeg(c: RemoteContext, generation: int, gone: Callable[[], bool]) -> Iterator[bytes]:
    seq = 0
    while not c.stopping.is_set() and c.guard.generation == generation:
        frame = c.screen.next_frame(seq, POLL_S)
        if frame is None:
            if c.screen.error is not None and not c.screen.capturing:
                return  # no display: end the stream instead of hanging the phone
            if gone():
                return
            continue
        seq = frame.seq
        yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(frame.jpeg)}\r\n\r\n".encode()
               + frame.jpeg + b"\r\n")

