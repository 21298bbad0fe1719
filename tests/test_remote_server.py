"""The phone remote's HTTP server (waitress, extended in anovax/remote/wsgi.py) over raw loopback sockets.

Each test is one of issue 20's smaller weaknesses or one of the server's own limits: its error
pages, deadlines, thread pool, HEAD /pair, IPv6 links, JSON depth, undecodable text.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import socket
import threading

import pytest
from helpers import wait_for
from remote_attacks import can_bind, connect, exchange
from remote_kit import TEST_LIMITS, start_remote, stop_remote

from anovax.remote.server import MAX_JSON_DEPTH, SECURITY_HEADERS


@pytest.fixture
def remote(tmp_path):
    r = start_remote(tmp_path)
    yield r
    stop_remote(r)


def head(r, extra: str = "", method: str = "GET", path: str = "/api/state", auth: bool = True) -> bytes:
    token = f"Authorization: Bearer {r.server.token}\r\n" if auth else ""
    return f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{r.port}\r\n{token}{extra}".encode()


def assert_secure(resp) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert resp.header(name) == value, (resp.status, name)
    assert "waitress" not in (resp.header("Server") or "").lower()


def test_waitress_is_the_pinned_version_whose_internals_wsgi_py_extends():
    # wsgi.py subclasses waitress's channel, parser, error task and server: an upgrade must be checked
    assert importlib.metadata.version("waitress") == "3.0.2"


def test_the_servers_own_error_pages_are_json_with_the_security_headers(remote):
    cases = {
        400: head(remote, "Content-Length: nope\r\n\r\n"),
        413: head(remote, "Content-Type: application/json\r\nContent-Length: 99999999\r\n\r\n", "POST", "/api/command"),
        414: b"GET /" + b"a" * 9000 + f" HTTP/1.1\r\nHost: 127.0.0.1:{remote.port}\r\n\r\n".encode(),
        431: head(remote, "".join(f"X-H{i}: 1\r\n" for i in range(150)) + "\r\n"),
    }
    for status, payload in cases.items():
        resp = exchange(remote.port, payload)
        assert resp.status == status and resp.header("Content-Type") == "application/json", (status, resp.body)
        assert set(json.loads(resp.body)) == {"error"} and b"waitress" not in resp.body
        assert_secure(resp)
    assert remote.request("GET", "/api/state", headers=remote.auth).status == 200


def test_malformed_chunking_from_a_paired_phone_is_400_not_500(remote, caplog):
    chunked = head(remote, "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", "POST", "/api/command")
    for chunks in (b"zz\r\nabc\r\n0\r\n\r\n", b"5\r\nabcdeXX0\r\n\r\n", b"-1\r\n\r\n", b"0x5\r\nabcde\r\n0\r\n\r\n",
                   b"5;\x00\r\nabcde\r\n0\r\n\r\n"):
        resp = exchange(remote.port, chunked + chunks)
        assert resp.status == 400, (chunks, resp.status, resp.body)
        assert_secure(resp)
    # a chunk declared bigger than the body cap is refused at once, not after 16 KB of it
    resp = exchange(remote.port, chunked + b"fffffffffffffffffffff\r\n")
    assert resp.status == 413
    assert remote.submit.calls == [] and "Traceback" not in caplog.text


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 5000])
def test_json_nested_beyond_a_small_depth_is_400(remote, depth):
    body = '{"text": ' + "[" * depth + "]" * depth + "}"
    resp = remote.request("POST", "/api/command", body=body, headers={**remote.auth, "Content-Type": "application/json"})
    assert resp.status == 400 and remote.submit.calls == []
    # brackets inside a string are text, not nesting
    ok = remote.request("POST", "/api/command", body={"text": "open [[[[[[[[[[[[ notepad"}, headers=remote.auth)
    assert ok.status == 202


def test_undecodable_text_anywhere_is_a_4xx_never_a_500(remote):
    json_head = "Content-Type: application/json\r\n"
    cases = [
        head(remote, json_head + "Content-Length: 12\r\n\r\n", "POST", "/api/command") + b'{"text":"\xff"}',
        head(remote, "\r\n", path="/api/state?x=%ff%fe&ticket=%c3") ,
        head(remote, "\r\n", path="/static/%ff%fe.js"),
        head(remote, "X-Junk: \xff\xfe\x80\r\nCookie: anovax_session=\xe9\xff\r\n\r\n"),
        head(remote, "Last-Event-ID: \xff\xff\r\n\r\n", path="/api/state"),
        f"GET /pair?code=%ff%fe%80 HTTP/1.1\r\nHost: 127.0.0.1:{remote.port}\r\n\r\n".encode(),
        f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{remote.port}\r\nAuthorization: Bearer \xff\xfe\r\n\r\n".encode(),
    ]
    for payload in cases:
        resp = exchange(remote.port, payload)
        assert 200 <= resp.status < 500, (payload[:60], resp.status, resp.body)
    assert remote.request("GET", "/api/state", headers=remote.auth).status == 200


def test_head_of_the_pairing_link_spends_nothing_and_counts_nothing(remote):
    path = remote.server.pairing_url.split(str(remote.port), 1)[1]
    for _ in range(3):  # a link preview, a scanner, a second look
        assert remote.request("HEAD", path).status == 204
    assert remote.request("HEAD", "/pair?code=wrong").status == 204
    assert remote.server._ctx.guard.failures("127.0.0.1") == 0
    assert remote.request("GET", path).status == 303  # the code still pairs the phone
    assert remote.request("GET", "/pair").status == 401 and remote.server._ctx.guard.failures("127.0.0.1") == 0
    assert remote.request("GET", "/pair?code=guess").status == 401 and remote.server._ctx.guard.failures("127.0.0.1") == 1


def test_ipv6_pairing_link_is_bracketed_and_works(tmp_path):
    if not can_bind("::1"):
        pytest.skip("::1 is not available here")
    r = start_remote(tmp_path, remote_bind="::1")
    try:
        assert r.server.address == f"http://[::1]:{r.port}"
        assert r.server.pairing_url.startswith(f"http://[::1]:{r.port}/pair?code=")
        path = r.server.pairing_url.split(f"]:{r.port}", 1)[1]
        resp = exchange(r.port, f"GET {path} HTTP/1.1\r\nHost: [::1]:{r.port}\r\n\r\n".encode(), host="::1")
        assert resp.status == 303
        cookie = resp.header("Set-Cookie").split(";", 1)[0]
        state = exchange(r.port, f"GET /api/state HTTP/1.1\r\nHost: [::1]:{r.port}\r\nCookie: {cookie}\r\n\r\n".encode(),
                         host="::1")
        assert state.status == 200
    finally:
        stop_remote(r)


def test_a_request_must_finish_its_headers_in_time_even_trickling(tmp_path):
    r = start_remote(tmp_path, limits=dataclasses.replace(TEST_LIMITS, header_timeout_s=1.0, read_timeout_s=30.0))
    try:
        sock = connect(r.port)
        sock.settimeout(0.2)
        closed = threading.Event()

        def trickle() -> None:  # a byte every 0.2 s: never idle, never done
            try:
                for byte in head(r):
                    sock.send(bytes([byte]))
                    try:
                        if sock.recv(1) == b"":
                            closed.set()
                            return
                    except TimeoutError:
                        pass
            except OSError:
                closed.set()

        thread = threading.Thread(target=trickle, daemon=True)
        thread.start()
        wait_for(closed.is_set, timeout_s=10, what="the trickling connection cut at its header deadline")
        assert r.server.http_stats.expired >= 1
        sock.close()
    finally:
        stop_remote(r)


def test_a_body_must_arrive_within_its_deadline(tmp_path):
    limits = dataclasses.replace(TEST_LIMITS, header_timeout_s=1.0, min_upload_bytes_per_s=16 * 1024)
    r = start_remote(tmp_path, limits=limits)
    try:
        sock = connect(r.port)
        sock.sendall(head(r, "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n", "POST", "/api/command")
                     + b'{"text": "')
        sock.settimeout(10)
        assert sock.recv(100) == b""  # cut after 1 s + 16 KB at 16 KB/s, not left waiting
        sock.close()
        assert r.submit.calls == [] and r.server.http_stats.expired >= 1
    finally:
        stop_remote(r)


def test_threads_fit_every_stream_and_commands_still_get_through(remote):
    workers = [t for t in threading.enumerate() if t.name.startswith("remote-worker-")]
    assert len(workers) == TEST_LIMITS.threads == TEST_LIMITS.max_event_clients + TEST_LIMITS.max_screen_viewers + \
        TEST_LIMITS.spare_threads
    streams = [remote.open_stream("/api/events", remote.auth) for _ in range(TEST_LIMITS.max_event_clients)]
    streams += [remote.open_stream("/api/screen", remote.auth) for _ in range(TEST_LIMITS.max_screen_viewers)]
    try:
        assert all(s.status == 200 for s in streams)
        for i in range(3):
            assert remote.request("POST", "/api/command", body={"text": f"open notepad {i}"},
                                  headers=remote.auth).status == 202
        assert remote.request("GET", "/", timeout=5).status == 200
    finally:
        for s in streams:
            s.close()
    wait_for(lambda: remote.server.event_clients == 0 and remote.server.viewers == 0, what="streams released")


def test_a_stream_ends_when_its_client_goes_away_mid_stream(remote):
    sock = connect(remote.port)
    sock.sendall(head(remote, "\r\n", path="/api/screen"))
    assert sock.recv(64).startswith(b"HTTP/1.1 200")
    wait_for(lambda: remote.server.viewers == 1, what="viewer attached")
    sock.shutdown(socket.SHUT_RDWR)
    sock.close()
    wait_for(lambda: remote.server.viewers == 0, timeout_s=5, what="the viewer slot freed")


def test_at_the_total_cap_another_addresss_newcomer_evicts_the_oldest_header_waiter(tmp_path):
    if not can_bind("127.0.0.2"):
        pytest.skip("127.0.0.2 cannot be used as a source address here")
    r = start_remote(tmp_path, limits=dataclasses.replace(TEST_LIMITS, max_connections=4, header_timeout_s=30.0))
    held = [connect(r.port, "127.0.0.2") for _ in range(4)]
    try:
        for s in held:
            s.sendall(b"GET /api/state HTTP/1.1\r\n")  # and never the rest
        wait_for(lambda: r.server.http_stats.accepted >= 4, what="the cap filled")
        assert r.request("GET", "/api/state", headers=r.auth).status == 200
        assert r.server.http_stats.evicted == 1 and r.server.http_stats.refused == 0
    finally:
        for s in held:
            s.close()
        stop_remote(r)
