"""How the server frames requests it will not take, over raw loopback sockets (issue 20's attack report).

``Expect: 100-continue`` with a body over the cap is refused at once (never a 100); a
Content-Length that is not one plain decimal number and a transfer coding other than chunked are
400s with the security headers and nothing on the console; HEAD on a stream has no body.
"""

from __future__ import annotations

import socket
import time

import pytest
from remote_attacks import connect, exchange
from remote_kit import start_remote, stop_remote
from test_remote_server import assert_secure, head

from anovax.remote.wsgi_task import OncePerInterval


@pytest.fixture
def remote(tmp_path):
    r = start_remote(tmp_path)
    yield r
    stop_remote(r)


def read_until_closed(sock: socket.socket, wait_s: float) -> tuple[bytes, float | None]:
    """Everything the server sends until it closes (and when), or what came within ``wait_s``."""
    started, data = time.monotonic(), b""
    sock.settimeout(0.5)
    while time.monotonic() - started < wait_s:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except OSError:
            return data, time.monotonic() - started
        if not chunk:
            return data, time.monotonic() - started
        data += chunk
    return data, None


@pytest.mark.parametrize("length", [16 * 1024 + 1, 65536, 300_000_000])
def test_expect_continue_over_the_body_cap_is_413_at_once_and_closed(remote, length):
    sock = connect(remote.port)
    try:
        sock.sendall(head(remote, f"Content-Type: application/json\r\nExpect: 100-continue\r\n"
                                  f"Content-Length: {length}\r\n\r\n", "POST", "/api/command"))
        data, closed_after = read_until_closed(sock, 30.0)
    finally:
        sock.close()
    assert data.startswith(b"HTTP/1.1 413 "), data[:80]  # not "100 Continue"
    assert b"100 Continue" not in data
    # closed like any refused body (a short linger), not after the declared length's upload time
    assert closed_after is not None, "the connection stayed open"
    assert remote.submit.calls == []


def test_a_body_within_the_cap_that_never_comes_after_100_continue_meets_the_body_deadline(remote):
    sock = connect(remote.port)
    try:
        sock.sendall(head(remote, "Content-Type: application/json\r\nExpect: 100-continue\r\n"
                                  "Content-Length: 16000\r\n\r\n", "POST", "/api/command"))
        data, closed_after = read_until_closed(sock, 60.0)
    finally:
        sock.close()
    assert data.startswith(b"HTTP/1.1 100 Continue\r\n\r\n"), data[:80]
    assert closed_after is not None, "the connection stayed open"
    assert remote.submit.calls == []


@pytest.mark.parametrize("value", ["9" * 4301, "9" * 20000, "1" + "0" * 30, "-1", "+2", "0x10", "1_0",
                                   "5, 6", "\u0665"])
def test_a_content_length_that_is_not_one_plain_number_is_400_with_nothing_on_the_console(remote, value, caplog):
    payload = head(remote, f"Content-Type: application/json\r\nContent-Length: {value}\r\n\r\n", "POST",
                   "/api/command")
    resp = exchange(remote.port, payload)
    assert resp.status == 400, (value[:20], resp.status)
    assert_secure(resp)
    assert "Traceback" not in caplog.text and "uncaptured" not in caplog.text
    assert remote.submit.calls == []


def test_duplicate_content_lengths_are_400(remote):
    payload = head(remote, "Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 20\r\n\r\n{}",
                   "POST", "/api/command")
    assert exchange(remote.port, payload).status == 400


@pytest.mark.parametrize("coding", ["gzip", "gzip, chunked", "identity", "chunked, gzip", "x"])
def test_a_transfer_coding_we_do_not_support_is_400_not_501(remote, coding):
    payload = head(remote, f"Content-Type: application/json\r\nTransfer-Encoding: {coding}\r\n\r\n"
                           "3\r\nabc\r\n0\r\n\r\n", "POST", "/api/command")
    resp = exchange(remote.port, payload)
    assert resp.status == 400, (coding, resp.status)
    assert_secure(resp)


@pytest.mark.parametrize("path", ["/api/events", "/api/screen"])
def test_head_on_a_stream_sends_headers_and_no_body(remote, path):
    sock = connect(remote.port)
    try:
        sock.sendall(head(remote, "Connection: close\r\n\r\n", "HEAD", path))
        data, closed_after = read_until_closed(sock, 20.0)
    finally:
        sock.close()
    assert closed_after is not None
    headers, _, body = data.partition(b"\r\n\r\n")
    assert headers.startswith(b"HTTP/1.1 200 "), headers[:80]
    assert body == b"", body
    # nothing was held open for it
    assert remote.server._ctx.events.clients == 0 and remote.server._ctx.screen.viewers == 0


def test_the_queue_warning_is_let_through_once_per_interval():
    import logging

    now = [0.0]
    limiter = OncePerInterval(60.0, clock=lambda: now[0])

    def record() -> logging.LogRecord:
        return logging.LogRecord("waitress.queue", logging.WARNING, __file__, 1, "Task queue depth is %d", (5,), None)

    assert limiter.filter(record())
    assert not any(limiter.filter(record()) for _ in range(1000))
    now[0] = 61.0
    passed = record()
    assert limiter.filter(passed) and "1000 more" in passed.getMessage()


def test_unsent_bytes_sees_what_the_kernel_holds_for_a_client_that_does_not_read():
    from anovax.remote.wsgi_task import unsent_bytes

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        client = socket.socket()
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.connect(listener.getsockname())
        server, _ = listener.accept()
        try:
            server.setblocking(False)
            sent = 0
            try:
                while sent < 64 * 1024 * 1024:
                    sent += server.send(b"x" * 65536)
            except BlockingIOError:
                pass
            # send() took all of it; the client's end acknowledged only its small window
            assert unsent_bytes(server) > sent // 2, (unsent_bytes(server), sent)
            assert unsent_bytes(None) == 0
        finally:
            server.close()
            client.close()
