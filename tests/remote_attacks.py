"""The attacks of issue 20 as reusable clients over loopback raw sockets (tests and benchmarks/bench_remote.py).

* ``credentialless_gets``: what a web page's ``<img src=http://desk:port/api/state?n>`` tags send;
* ``Trickler``: slow sockets from one source address, one header byte every few seconds, each
  reconnected as soon as the server drops it (a patient attacker keeps the pressure on);
* ``upload``: a credential-less POST declaring a huge body and pushing it as fast as the socket
  takes it, while another thread reads the answer (as curl does).

127.0.0.2 and 127.0.0.3 are loopback addresses on Linux (the whole 127/8 is); ``can_bind`` says
whether this machine lets a client use them as its source.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from dataclasses import dataclass, field


def can_bind(ip: str) -> bool:
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.bind((ip, 0))
        return True
    except OSError:
        return False


def connect(port: int, source: str | None = None, host: str = "127.0.0.1", timeout: float = 5.0) -> socket.socket:
    return socket.create_connection((host, port), timeout=timeout, source_address=(source, 0) if source else None)


@dataclass
class RawResponse:
    status: int
    headers: dict[str, str]
    body: bytes

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


def exchange(port: int, payload: bytes, *, source: str | None = None, host: str = "127.0.0.1",
             timeout: float = 5.0) -> RawResponse:
    """Send ``payload`` as it is (any bytes) and read one response."""
    sock = connect(port, source, host, timeout)
    try:
        sock.sendall(payload)
        resp = http.client.HTTPResponse(sock)
        resp.begin()
        return RawResponse(resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read())
    finally:
        sock.close()


def credentialless_gets(port: int, count: int, *, source: str | None = None) -> list[int]:
    """``count`` GETs of /api/state with no credential at all, as image tags send them: the statuses."""
    statuses = []
    for i in range(count):
        resp = exchange(port, f"GET /api/state?{i} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: image/*\r\n"
                              f"Connection: close\r\n\r\n".encode(), source=source)
        statuses.append(resp.status)
    return statuses


class AttackLoop:
    """A background attack: ``start`` runs ``_run`` on a daemon thread named ``_name()`` until
    ``stop``; a dataclass subclass holds the ``_stop`` event and the ``_thread``."""

    _stop: threading.Event
    _thread: threading.Thread | None

    def _name(self) -> str:
        raise NotImplementedError

    def _run(self) -> None:
        raise NotImplementedError

    def start(self):  # noqa: ANN201 - the subclass itself, for chaining
        self._thread = threading.Thread(target=self._run, name=self._name(), daemon=True)
        self._thread.start()
        return self

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)


@dataclass
class Trickler(AttackLoop):
    """``sockets`` slow connections from ``source``: one header byte each every ``gap_s``, reconnected when dropped."""

    port: int
    source: str
    sockets: int = 32
    gap_s: float = 5.0
    connects: int = 0
    drops: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def _name(self) -> str:
        return f"trickle-{self.source}"

    def _open(self) -> tuple[socket.socket, int, float] | None:
        try:
            s = connect(self.port, self.source, timeout=2.0)
            s.setblocking(False)
            self.connects += 1
            return s, 0, time.monotonic()
        except OSError:
            return None

    def _run(self) -> None:
        header = f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nX-Pad: {'a' * 64}\r\n".encode()
        held: list[tuple[socket.socket, int, float] | None] = [self._open() for _ in range(self.sockets)]
        try:
            while not self._stop.wait(0.1):
                now = time.monotonic()
                for i, entry in enumerate(held):
                    if entry is None or _dropped(entry[0]):
                        if entry is not None:
                            entry[0].close()
                            self.drops += 1
                        held[i] = self._open()
                        continue
                    sock, sent, last = entry
                    if now - last >= self.gap_s:
                        try:
                            sock.send(header[sent % len(header):sent % len(header) + 1])
                            held[i] = (sock, sent + 1, now)
                        except OSError:
                            sock.close()
                            self.drops += 1
                            held[i] = self._open()
        finally:
            for entry in held:
                if entry is not None:
                    entry[0].close()


def _dropped(sock: socket.socket) -> bool:
    try:
        return sock.recv(4096) == b""  # EOF, or a 503 (then EOF next time)
    except BlockingIOError:
        return False
    except OSError:
        return True


@dataclass
class UploadResult:
    """A huge upload's outcome: the answer read while pushing, how much the socket took, how it ended."""

    status: int | None
    body: bytes
    sent_bytes: int
    #: the server ended the connection: its answer ended (EOF) and the pushing then failed (reset)
    closed: bool
    seconds: float


def upload(port: int, size: int, *, source: str | None = None, path: str = "/api/command",
           headers: str = "", wait_s: float = 15.0) -> UploadResult:
    """POST ``size`` bytes (declared in Content-Length) as fast as the socket takes them while
    another thread reads the answer, as curl does. Ends when the server has closed the connection
    (its answer ended and pushing failed) or after ``wait_s``."""
    sock = connect(port, source, timeout=wait_s)
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"{headers}Content-Length: {size}\r\n\r\n").encode()
    sent = 0
    reset = threading.Event()
    started = time.monotonic()

    def push() -> None:
        nonlocal sent
        block = b"0" * 65536
        try:
            sock.sendall(head)
            while sent < size:
                sent += sock.send(block[: min(len(block), size - sent)])
        except OSError:
            reset.set()  # reset or shut by the server: what we wanted to see

    pusher = threading.Thread(target=push, name="upload-push", daemon=True)
    pusher.start()
    received = b""
    eof = False
    deadline = started + wait_s
    try:
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            except OSError:
                eof = True
                break
            if not chunk:
                eof = True
                break
            received += chunk
        pusher.join(max(0.0, deadline - time.monotonic()))  # ends when the server's close resets it
    finally:
        seconds = time.monotonic() - started
        closed = eof and reset.is_set()
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()
        pusher.join(5)
    status = int(received.split(b" ", 2)[1]) if received.startswith(b"HTTP/1.") else None
    return UploadResult(status, received.partition(b"\r\n\r\n")[2], sent, closed, seconds)
