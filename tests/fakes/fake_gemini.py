"""A loopback fake of the Gemini REST API, for testing the real ``google-genai`` SDK end to end.

The test queues a SCRIPT of replies; each ``POST /{v1,v1beta}/models/{model}:generateContent``
consumes the next one. Every request is recorded (path, headers, parsed body). On close the
fake fails the test if a scripted reply was left unused or a request arrived that the script
did not expect (unknown path, or no reply left).

    from fakes.fake_gemini import FakeGemini, plan_reply, error_reply, delay_reply

    with FakeGemini() as fake:                   # or the ``fake_gemini`` pytest fixture
        fake.script(error_reply(429, retry_after=1), plan_reply({"steps": [], ...}))
        client = genai.Client(api_key="k", http_options=types.HttpOptions(base_url=fake.base_url))
        ...
        assert fake.requests[0].api_key == "k"

Reply builders:
    text_reply(text)          200, the model's answer text is ``text`` (any string, even non-JSON)
    plan_reply(obj)           200, the model's answer is ``json.dumps(obj)``
    error_reply(status, ...)  an HTTP error with a google.rpc-style JSON body, optional
                              ``Retry-After`` header and/or ``RetryInfo.retryDelay``
    delay_reply(seconds, then=None)  wait (the client should time out first), then send ``then``
                              (or nothing: the connection is closed)
    garbage_reply(text)       200 whose BODY is not JSON at all (a broken proxy)
    raw_reply(obj, status)    any JSON body as is (e.g. ``{"candidates": []}``)

The server is stdlib only (``ThreadingHTTPServer`` on 127.0.0.1, port 0, daemon threads).
"""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

__all__ = [
    "FakeGemini",
    "RecordedRequest",
    "Reply",
    "delay_reply",
    "error_reply",
    "fake_gemini",
    "garbage_reply",
    "plan_reply",
    "raw_reply",
    "text_reply",
]

_PATH = re.compile(r"^/(?P<version>v1|v1beta|v1alpha)/models/(?P<model>[^/:]+):generateContent$")

_STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}


@dataclass(frozen=True)
class Reply:
    """One scripted answer. Build it with the ``*_reply`` helpers."""

    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()
    delay_s: float = 0.0
    #: for a delay with no ``then``: close the connection without answering
    hang_up: bool = False
    label: str = ""


def raw_reply(obj: Any, status: int = 200, *, headers: dict[str, str] | None = None) -> Reply:
    """Send ``obj`` as the JSON body, unchanged."""
    return Reply(status=status, body=json.dumps(obj).encode(), headers=tuple((headers or {}).items()),
                 label=f"raw {status}")


def text_reply(text: str, *, finish_reason: str = "STOP") -> Reply:
    """A successful generateContent answer whose text is ``text``."""
    body = {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": finish_reason, "index": 0}
        ],
        "modelVersion": "fake-gemini",
    }
    return Reply(body=json.dumps(body).encode(), label=f"text {text[:40]!r}")


def plan_reply(plan: Any) -> Reply:
    """A successful answer whose text is the JSON of ``plan`` (a dict, or anything with ``to_dict``)."""
    if hasattr(plan, "to_dict"):
        plan = plan.to_dict()
    return text_reply(json.dumps(plan))


def error_reply(
    status: int,
    message: str | None = None,
    *,
    retry_after: float | str | None = None,
    retry_delay: str | None = None,
) -> Reply:
    """An HTTP error shaped like Google's: ``{"error": {code, message, status, details}}``.

    ``retry_after`` sets the ``Retry-After`` header; ``retry_delay`` (e.g. "2s") adds a
    ``google.rpc.RetryInfo`` detail, as the Gemini API sends with 429."""
    details: list[dict[str, Any]] = []
    if retry_delay is not None:
        details.append({"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": retry_delay})
    error: dict[str, Any] = {
        "code": status,
        "message": message or f"fake error {status}",
        "status": _STATUS_NAMES.get(status, "UNKNOWN"),
    }
    if details:
        error["details"] = details
    headers = []
    if retry_after is not None:
        headers.append(("Retry-After", str(retry_after)))
    return Reply(status=status, body=json.dumps({"error": error}).encode(), headers=tuple(headers),
                 label=f"error {status}")


def delay_reply(seconds: float, then: Reply | None = None) -> Reply:
    """Wait ``seconds`` before answering ``then`` (or hanging up). Use it to trigger client timeouts."""
    base = then or Reply(hang_up=True)
    return Reply(status=base.status, body=base.body, content_type=base.content_type, headers=base.headers,
                 delay_s=seconds, hang_up=base.hang_up, label=f"delay {seconds}s then {base.label or 'hang up'}")


def garbage_reply(text: str = "<html>502 bad gateway, not JSON</html>", status: int = 200) -> Reply:
    """A body that is not JSON at all."""
    return Reply(status=status, body=text.encode(), content_type="text/html", label=f"garbage {status}")


@dataclass(frozen=True)
class RecordedRequest:
    """What the client sent: ``headers`` has lower-case names; ``body`` is the parsed JSON (or None)."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    raw_body: bytes = field(repr=False, default=b"")
    api_version: str | None = None
    model: str | None = None

    @property
    def api_key(self) -> str | None:
        return self.headers.get("x-goog-api-key")

    @property
    def system_text(self) -> str:
        """The text of ``systemInstruction`` (all parts joined)."""
        si = (self.body or {}).get("systemInstruction") or {}
        return "".join(p.get("text", "") for p in si.get("parts", []))

    @property
    def user_text(self) -> str:
        """The text of every part of every content (the prompt)."""
        contents = (self.body or {}).get("contents") or []
        return "\n".join(p.get("text", "") for c in contents for p in c.get("parts", []))

    @property
    def generation_config(self) -> dict[str, Any]:
        return (self.body or {}).get("generationConfig") or {}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    fake: FakeGemini


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in separate writes: no 40 ms delayed-ACK stall

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
        pass

    def do_GET(self) -> None:  # noqa: N802
        self._unexpected_method()

    def do_PUT(self) -> None:  # noqa: N802
        self._unexpected_method()

    def do_DELETE(self) -> None:  # noqa: N802
        self._unexpected_method()

    def _unexpected_method(self) -> None:
        self.server.fake._record(self, b"", expected=False, why=f"unexpected method {self.command}")
        self._send(Reply(status=405, body=b'{"error":{"code":405,"message":"fake: method not allowed"}}'))

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        fake = self.server.fake
        path = self.path.split("?", 1)[0]
        match = _PATH.match(path)
        if not match:
            fake._record(self, raw, expected=False, why=f"unexpected path {self.path}")
            self._send(Reply(status=404, body=b'{"error":{"code":404,"message":"fake: unknown path"}}'))
            return
        reply = fake._next_reply()
        fake._record(self, raw, expected=reply is not None, why="no scripted reply left",
                     version=match["version"], model=match["model"])
        if reply is None:
            self._send(Reply(status=500, body=b'{"error":{"code":500,"message":"fake: nothing scripted"}}'))
            return
        if reply.delay_s and fake._stopping.wait(reply.delay_s):
            self.close_connection = True
            return  # the fake is closing: drop the connection
        if reply.hang_up:
            self.close_connection = True
            return
        self._send(reply)

    def _send(self, reply: Reply) -> None:
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type + "; charset=UTF-8")
            self.send_header("Content-Length", str(len(reply.body)))
            for name, value in reply.headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(reply.body)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timed out) first
            self.close_connection = True


class FakeGemini:
    """A scripted fake Gemini API on 127.0.0.1. Use as a context manager or via the fixture."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._replies: deque[Reply] = deque()
        self._requests: list[RecordedRequest] = []
        self._unexpected: list[str] = []
        self._stopping = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        name="fake-gemini", daemon=True)
        self._thread.start()
        self._closed = False

    # -- the test's side --------------------------------------------------------------------

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        """Pass to ``types.HttpOptions(base_url=...)`` (or GeminiModel's ``base_url``)."""
        return f"http://127.0.0.1:{self.port}"

    def script(self, *replies: Reply) -> FakeGemini:
        """Queue replies, answered in order, one per request."""
        with self._lock:
            self._replies.extend(replies)
        return self

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def pending(self) -> int:
        """Scripted replies not used yet."""
        with self._lock:
            return len(self._replies)

    @property
    def unexpected(self) -> list[str]:
        with self._lock:
            return list(self._unexpected)

    def problems(self) -> list[str]:
        """Why the script was not followed exactly (empty when it was)."""
        with self._lock:
            out = list(self._unexpected)
            if self._replies:
                out.append(f"{len(self._replies)} scripted replies unused: "
                           + ", ".join(r.label for r in self._replies))
        return out

    def close(self, *, check: bool = True) -> None:
        """Stop the server; with ``check``, raise AssertionError if the script was not followed."""
        if not self._closed:
            self._closed = True
            self._stopping.set()
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(timeout=5)
        if check:
            problems = self.problems()
            if problems:
                raise AssertionError("fake Gemini: " + "; ".join(problems))

    def __enter__(self) -> FakeGemini:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        # do not hide the test's own failure behind a script complaint
        self.close(check=exc_type is None)

    # -- the server's side ------------------------------------------------------------------

    def _next_reply(self) -> Reply | None:
        with self._lock:
            return self._replies.popleft() if self._replies else None

    def _record(self, handler: _Handler, raw: bytes, *, expected: bool, why: str,
                version: str | None = None, model: str | None = None) -> None:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = RecordedRequest(
            method=handler.command,
            path=handler.path,
            headers={k.lower(): v for k, v in handler.headers.items()},
            body=body,
            raw_body=raw,
            api_version=version,
            model=model,
        )
        with self._lock:
            self._requests.append(request)
            if not expected:
                self._unexpected.append(f"{why} ({handler.command} {handler.path})")


@pytest.fixture
def fake_gemini():
    """A running FakeGemini; the test fails at teardown if its script was not followed exactly."""
    fake = FakeGemini()
    try:
        yield fake
    finally:
        fake.close(check=True)
