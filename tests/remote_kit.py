"""Helpers for the phone remote's tests: a recording submit, a server on a loopback port, raw HTTP."""

from __future__ import annotations

import contextlib
import dataclasses
import http.client
import json
import os
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from anovax.app import Assistant, CommandResult, Status, build_assistant
from anovax.confirm import Confirmations
from anovax.desktop import SimulatedDesktop
from anovax.events import EventBus
from anovax.memory import Memory
from anovax.remote import AuthPolicy, Guard, Limits, RemoteServer, SyntheticScreen
from anovax.remote.bans import BanStore
from anovax.remote.state import assistant_state
from anovax.settings import Settings


class RecordingSubmit:
    """Stands in for Assistant.submit: records every call; ``busy`` answers like a full queue."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.busy = False
        self._lock = threading.Lock()

    def __call__(self, text: str, source: str = "text") -> Future:
        with self._lock:
            self.calls.append((text, source))
            n = len(self.calls)
        future: Future = Future()
        future.command_id = f"c{n}"  # type: ignore[attr-defined]
        if self.busy:
            future.set_result(CommandResult(text=text, status=Status.REFUSED, planner="fake", command_id=f"c{n}",
                                            message="I'm still busy with earlier commands; please try again in a moment."))
        return future


#: small caps so the tests reach them quickly
TEST_LIMITS = Limits(max_event_clients=3, max_screen_viewers=2, commands_per_minute=5, keepalive_s=0.2,
                     read_timeout_s=1.0, event_queue=64, max_connections_per_ip=48)


@dataclass
class Remote:
    """A started RemoteServer and its fakes."""

    server: RemoteServer
    bus: EventBus
    submit: RecordingSubmit
    screen: SyntheticScreen
    seen: list = field(default_factory=list)
    #: the broker the remote answers through (start_remote(confirm_timeout_s=...)), else None
    confirmations: Confirmations | None = None

    @property
    def host(self) -> str:
        return "127.0.0.1"

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.server.token}"}

    def request(self, method: str, path: str, *, headers: dict[str, str] | None = None,
                body: bytes | str | dict | None = None, timeout: float = 5.0) -> Response:
        return request(self.port, method, path, headers=headers, body=body, timeout=timeout)

    def open_stream(self, path: str, headers: dict[str, str] | None = None) -> Stream:
        return Stream.open(self.port, path, headers)


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


def request(port: int, method: str, path: str, *, headers: dict[str, str] | None = None,
            body: bytes | str | dict | None = None, timeout: float = 5.0) -> Response:
    headers = dict(headers or {})
    if isinstance(body, dict):
        body = json.dumps(body)
        headers.setdefault("Content-Type", "application/json")
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        skip_host = any(k.lower() == "host" for k in headers)
        conn.putrequest(method, path, skip_host=skip_host, skip_accept_encoding=True)
        data = body.encode() if isinstance(body, str) else body
        if data is not None and not any(k.lower() in ("content-length", "transfer-encoding") for k in headers):
            headers["Content-Length"] = str(len(data))
        for key, value in headers.items():
            conn.putheader(key, value)
        conn.endheaders(data)
        resp = conn.getresponse()
        content_type = resp.getheader("Content-Type", "")
        streaming = content_type.startswith(("text/event-stream", "multipart/"))
        payload = resp.read1(256) if streaming else resp.read()  # what has arrived; a stream never ends
        return Response(resp.status, {k.lower(): v for k, v in resp.getheaders()}, payload)
    finally:
        conn.close()


class Stream:
    """An open streaming response (SSE or MJPEG), read incrementally."""

    def __init__(self, conn: http.client.HTTPConnection, resp: http.client.HTTPResponse) -> None:
        self.conn = conn
        self.resp = resp
        self.status = resp.status
        self.headers = {k.lower(): v for k, v in resp.getheaders()}

    @classmethod
    def open(cls, port: int, path: str, headers: dict[str, str] | None = None, timeout: float = 10.0) -> Stream:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request("GET", path, headers=headers or {})
        return cls(conn, conn.getresponse())

    def events(self) -> Iterator[dict]:
        """Parsed SSE ``data:`` payloads (with the ``id`` as ``_id``), as they arrive."""
        event_id = None
        while True:
            line = self.resp.readline()
            if not line:
                return
            line = line.rstrip(b"\r\n")
            if line.startswith(b"id: "):
                event_id = int(line[4:])
            elif line.startswith(b"data: "):
                data = json.loads(line[6:])
                if isinstance(data, dict):
                    data["_id"] = event_id
                    yield data
            elif line.startswith(b"event: reconnect"):
                yield {"type": "reconnect"}

    def jpegs(self) -> Iterator[bytes]:
        """The JPEG parts of an MJPEG stream, as they arrive."""
        while True:
            line = self.resp.readline()
            if not line:
                return
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
                self.resp.readline()  # the blank line after the part's headers
                yield self.resp.read(length)

    def close(self) -> None:
        try:
            sock = self.conn.sock
            if sock is not None:
                sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.resp.close()  # the response's file holds the socket open otherwise
        self.conn.close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_remote(tmp_path, *, limits: Limits = TEST_LIMITS, policy: AuthPolicy | None = None, clock=None,
                 token: str | None = None, confirm_timeout_s: float | None = None, bans_path=None,
                 **settings: Any) -> Remote:
    """A started remote on a loopback port; ``bans_path`` keeps its bans in that file (as the
    assistant keeps them in its state folder)."""
    bus = EventBus()
    submit = RecordingSubmit()
    screen = SyntheticScreen(320, 180)
    base = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None, remote_port=0,
                    remote_bind="127.0.0.1")
    guard_kwargs: dict[str, Any] = {"policy": policy or AuthPolicy(max_failures=5)}
    if clock is not None:
        guard_kwargs["clock"] = clock
    if bans_path is not None:
        guard_kwargs["store"] = BanStore(bans_path)
    confirmations = Confirmations(bus, timeout_s=confirm_timeout_s) if confirm_timeout_s is not None else None
    server = RemoteServer(dataclasses.replace(base, **settings), bus, submit, frames=screen, limits=limits,
                          guard=Guard(token, **guard_kwargs), confirmations=confirmations)
    remote = Remote(server, bus, submit, screen, confirmations=confirmations)
    bus.subscribe("test-seen", remote.seen.append)
    server.start()
    return remote


def stop_remote(remote: Remote) -> None:
    remote.server.stop()
    remote.bus.close()


# ----- the phone page in a browser: shared by tests/test_remote_browser.py and scripts/phone_screenshot.py -----

#: Debian's Chromium, driven by Playwright (no browser download)
CHROMIUM = "/usr/bin/chromium"
#: the phone Playwright emulates: an iPhone-sized viewport at twice the pixels, touch
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

#: a checksum of what the page's <img> shows now: changes when a new MJPEG frame has been drawn
SCREEN_SUM = """() => {
  const img = document.getElementById('screen');
  if (!img || !img.naturalWidth) return null;
  const c = document.createElement('canvas');
  c.width = 64; c.height = 36;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0, 64, 36);
  const d = g.getImageData(0, 0, 64, 36).data;
  let sum = 0;
  for (let i = 0; i < d.length; i++) sum = (sum * 31 + d[i]) % 1000000007;
  return sum;
}"""


def playwright_or_skip():
    """Playwright's ``sync_playwright``, or skip the test when it or Debian's Chromium is missing."""
    import pytest

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install playwright; it is in the [dev] extra)")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing (Debian package chromium; `make test` installs it)")
    return sync_playwright


def phone_settings(tmp_path) -> Settings:
    """The assistant behind the phone page: offline planner, all state in ``tmp_path``."""
    return Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None, remote_port=0,
                    remote_bind="127.0.0.1", remote_width=960, remote_fps=10)


@contextlib.contextmanager
def desktop_screen(tmp_path) -> Iterator[Any]:
    """A real screen with something that changes on it (Xvfb + a ticking xterm), or the synthetic one."""
    if not (shutil.which("Xvfb") and shutil.which("xterm")):
        yield SyntheticScreen(1280, 800)
        return
    from anovax.remote import MssScreen
    from xserver import x_server

    with x_server(1280, 800, workdir=tmp_path) as xs:
        clock = subprocess.Popen(
            ["xterm", "-geometry", "64x14+120+90", "-fa", "Monospace", "-fs", "18", "-bg", "#1e2430", "-fg", "#e8ecf4",
             "-T", "AnovaX desktop",
             "-e", "sh", "-c", "while :; do clear; echo 'AnovaX desktop under Xvfb'; date +%T.%N; sleep 0.1; done"],
            env={**os.environ, **xs.env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            yield MssScreen(display=xs.display)
        finally:
            clock.terminate()
            clock.wait(5)


@contextlib.contextmanager
def phone_remote(tmp_path, desktop: SimulatedDesktop | None = None, *, confirm_timeout_s: float | None = None,
                 limits: Limits = TEST_LIMITS, frames: Any = None) -> Iterator[tuple[Assistant, RemoteServer, Any]]:
    """The assistant (offline, ``desktop`` or a simulated one) behind a started remote that streams
    ``desktop_screen``: yields (assistant, server, frames) and stops both afterwards.
    ``confirm_timeout_s`` shortens the 20 s a held plan waits for a yes (timeout tests); ``frames``
    replaces the screen (a SyntheticScreen where no desktop is watched)."""
    settings = phone_settings(tmp_path)
    if confirm_timeout_s is not None:
        settings = dataclasses.replace(settings, confirm_timeout_s=confirm_timeout_s)
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=desktop or SimulatedDesktop())
    try:
        with (contextlib.nullcontext(frames) if frames is not None else desktop_screen(tmp_path)) as frames:
            server = RemoteServer(settings, assistant.bus, assistant.submit, state=assistant_state(assistant),
                                  frames=frames, limits=limits, confirmations=assistant.confirmations)
            server.start()
            try:
                yield assistant, server, frames
            finally:
                server.stop()
    finally:
        assistant.close()
