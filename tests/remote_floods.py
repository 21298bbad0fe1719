"""The attacks that broke the first production remote (issue 20's attack report), as loopback clients.

Each ``Flood`` holds ``sockets`` connections from one source address, all doing the same thing,
and reconnects one as soon as the server drops it (a patient attacker keeps the pressure on):

* ``expect``: a POST head with ``Expect: 100-continue`` and a 300 MB Content-Length, then silence;
* ``body``: a POST head with ``Content-Length: 16000``, then one body byte a second;
* ``chunked``: a chunked POST head, then one 1-byte chunk a second;
* ``pipeline``: 2000 pipelined ``GET /static/app.js`` and a 4 KB receive buffer never read.

Used by tests/test_remote_floods.py and benchmarks/bench_remote_attacks.py.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from dataclasses import dataclass, field

from remote_attacks import AttackLoop

MODES = ("expect", "body", "chunked", "pipeline")


def _head(mode: str, port: int) -> bytes:
    host = f"Host: 127.0.0.1:{port}\r\n"
    post = f"POST /api/command HTTP/1.1\r\n{host}Content-Type: application/json\r\n"
    if mode == "expect":
        return f"{post}Expect: 100-continue\r\nContent-Length: 300000000\r\n\r\n".encode()
    if mode == "body":
        return f"{post}Content-Length: 16000\r\n\r\n".encode()
    if mode == "chunked":
        return f"{post}Transfer-Encoding: chunked\r\n\r\n".encode()
    if mode == "pipeline":
        return f"GET /static/app.js HTTP/1.1\r\n{host}\r\n".encode() * 2000
    raise ValueError(mode)


_ESTABLISHED = 1  # Linux's TCP_INFO state

#: what a trickling socket sends every second
_DRIP = {"body": b" ", "chunked": b"1\r\n \r\n"}


@dataclass
class Flood(AttackLoop):
    """``sockets`` connections from ``source`` in one ``mode``, each reopened when the server drops it."""

    port: int
    source: str
    mode: str
    sockets: int = 32
    connects: int = 0
    drops: int = 0
    #: first status line seen on each connection (``100``, ``413``, ``200``...), counted
    statuses: dict[int, int] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def _name(self) -> str:
        return f"flood-{self.mode}-{self.source}"

    def _open(self) -> list | None:
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            if self.mode == "pipeline":  # set before connecting, so the window stays small
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.bind((self.source, 0))
            sock.settimeout(2.0)
            sock.connect(("127.0.0.1", self.port))
            sock.setblocking(False)
        except OSError:
            sock.close()
            return None
        self.connects += 1
        # [socket, bytes still to send, read anything yet]
        return [sock, _head(self.mode, self.port), False]

    def _run(self) -> None:
        held = [self._open() for _ in range(self.sockets)]
        next_drip = time.monotonic() + 1.0
        try:
            while not self._stop.is_set():
                live = [h[0] for h in held if h is not None]
                readable = select.select(live, [], [], 0.1)[0] if live else []
                drip = time.monotonic() >= next_drip
                if drip:
                    next_drip += 1.0
                for i, entry in enumerate(held):
                    if entry is None or not self._step(entry, entry[0] in readable, drip):
                        if entry is not None:
                            entry[0].close()
                            self.drops += 1
                        held[i] = self._open()
                if not live:
                    self._stop.wait(0.1)
        finally:
            for entry in held:
                if entry is not None:
                    entry[0].close()

    def _step(self, entry: list, readable: bool, drip: bool) -> bool:
        """One turn for one socket; False when the server has dropped it."""
        sock = entry[0]
        try:
            if readable and self.mode != "pipeline":  # the pipeliner never reads: that is its attack
                data = sock.recv(65536)
                if not data:
                    return False
                if not entry[2] and data.startswith(b"HTTP/1."):
                    status = int(data.split(b" ", 2)[1])
                    self.statuses[status] = self.statuses.get(status, 0) + 1
                    entry[2] = status != 100
            elif sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0] != _ESTABLISHED:
                return False  # the server closed it: unread answers do not show an EOF to a peek
            if entry[1]:
                entry[1] = entry[1][sock.send(entry[1][:65536]):]
            elif drip and self.mode in _DRIP:
                sock.send(_DRIP[self.mode])
            return True
        except BlockingIOError:
            return True
        except OSError:
            return False
