"""The phone remote over real HTTP on a loopback port, case by case from redteam/http_cases.md (H-xx)."""

from __future__ import annotations

import dataclasses
import socket
import threading

import pytest
from helpers import FakeClock, wait_for
from remote_kit import TEST_LIMITS, start_remote, stop_remote

from anovax.events import EventBus, EventType
from anovax.remote import AuthPolicy, RemoteServer
from anovax.remote import auth as auth_module
from anovax.settings import Settings

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def remote(tmp_path):
    r = start_remote(tmp_path)
    yield r
    stop_remote(r)


def paired_cookie(remote) -> str:
    resp = remote.request("GET", remote.server.pairing_url.split(str(remote.port), 1)[1])
    assert resp.status == 303, resp.body
    return resp.header("Set-Cookie").split(";", 1)[0]


# -- A. authentication -----------------------------------------------------------------------


def test_h01_no_token_on_command_is_401_and_nothing_is_queued(remote):
    resp = remote.request("POST", "/api/command", body={"text": "open notepad"})
    assert resp.status == 401
    assert resp.header("WWW-Authenticate") == 'Bearer realm="anovax"'
    assert resp.json() == {"error": "unauthorized"}
    assert remote.submit.calls == []
    # a missing credential is not a guess: it never counts towards a ban (a web page's <img> tags)
    assert remote.server._ctx.guard.failures("127.0.0.1") == 0


def test_h02_no_token_on_events_is_401_before_any_stream(remote):
    resp = remote.request("GET", "/api/events")
    assert resp.status == 401 and resp.header("Content-Type") == "application/json"
    assert b"data:" not in resp.body and remote.server.event_clients == 0


def test_h03_no_token_on_screen_never_starts_the_capture(remote):
    resp = remote.request("GET", "/api/screen")
    assert resp.status == 401 and not resp.header("Content-Type").startswith("multipart/")
    assert remote.screen.opened == 0 and remote.screen.grabs == 0 and remote.server.viewers == 0


def test_h04_wrong_token_looks_exactly_like_no_token(remote):
    missing = remote.request("POST", "/api/command", body={"text": "x"})
    wrong = remote.request("POST", "/api/command", body={"text": "x"}, headers={"Authorization": "Bearer wrongwrong"})
    assert (wrong.status, wrong.body) == (missing.status, missing.body)
    # only the wrong one was a guess: a missing credential never counts
    assert remote.server._ctx.guard.failures("127.0.0.1") == 1 and remote.submit.calls == []


def test_h05_brute_force_bans_the_guesser_but_not_the_owner(remote):
    for _ in range(5):
        assert remote.request("POST", "/api/command", body={"text": "x"},
                              headers={"Authorization": "Bearer guess"}).status == 401
    guess = remote.request("POST", "/api/command", body={"text": "x"}, headers={"Authorization": "Bearer guess6"})
    assert guess.status == 403 and guess.json() == {"error": "forbidden"} and remote.submit.calls == []
    page = remote.request("GET", "/")  # a browser without credentials: a page that says so, not JSON
    assert page.status == 403 and page.header("Content-Type").startswith("text/html")
    assert b"Locked out" in page.body and b":unban" in page.body
    assert page.header("Content-Security-Policy") and page.header("X-Frame-Options") == "DENY"
    [ban] = remote.server.bans()
    assert ban.ip == "127.0.0.1" and ban.failures == 5
    wait_for(lambda: any(e.type == EventType.REMOTE_BANNED for e in remote.seen), what="REMOTE_BANNED event")
    # the owner, with a valid credential, is served from the banned address
    resp = remote.request("POST", "/api/command", body={"text": "open notepad"}, headers=remote.auth)
    assert resp.status == 202 and remote.submit.calls == [("open notepad", "phone")]
    assert remote.request("GET", "/", headers=remote.auth).status == 200
    assert remote.server.unban("127.0.0.1") == 1 and remote.server.bans() == []
    assert remote.request("GET", "/").status == 200


def test_h05_ban_expires_and_unban_all(tmp_path):
    clock = FakeClock()
    r = start_remote(tmp_path, policy=AuthPolicy(max_failures=2, ban_s=60), clock=clock)
    try:
        for _ in range(2):
            r.request("GET", "/api/state", headers={"Authorization": "Bearer nope"})
        assert r.request("GET", "/api/state").status == 403
        clock.advance(61)
        assert r.request("GET", "/api/state").status == 401
        for _ in range(2):
            r.request("GET", "/api/state", headers={"Authorization": "Bearer nope"})
        assert r.server.unban() == 1  # the orb's button: every ban at once
        assert r.request("GET", "/api/state").status == 401
    finally:
        stop_remote(r)


def test_h06_tokens_are_compared_in_constant_time(remote, monkeypatch):
    compared = []
    real = auth_module.hmac.compare_digest
    monkeypatch.setattr(auth_module.hmac, "compare_digest", lambda a, b: compared.append(1) or real(a, b))
    token = remote.server.token
    for prefix in (1, 20, len(token) - 1):
        offered = token[:prefix] + "x" * (len(token) - prefix)
        assert remote.request("GET", "/api/state", headers={"Authorization": f"Bearer {offered}"}).status == 401
    assert len(compared) >= 3
    # an overlong credential is refused without comparing anything; a 60 KB one by the server itself
    compared.clear()
    assert remote.request("GET", "/api/state", headers={"Authorization": "Bearer " + "a" * 300}).status == 401
    assert remote.request("GET", "/api/state", headers={"Authorization": "Bearer " + "a" * 60000}).status == 431
    assert compared == []


def test_h07_token_in_the_query_string_is_never_accepted(remote):
    token = remote.server.token
    assert remote.request("POST", f"/api/command?token={token}", body={"text": "x"}).status == 401
    assert remote.request("GET", f"/api/events?token={token}").status == 401
    assert remote.request("GET", f"/api/events?ticket={token}").status == 401
    assert remote.submit.calls == []


def test_h07_stream_tickets_are_single_use_and_tied_to_one_path(tmp_path):
    clock = FakeClock()
    r = start_remote(tmp_path, clock=clock)
    try:
        def ticket(path):
            resp = r.request("POST", "/api/stream-ticket", body={"path": path}, headers=r.auth)
            assert resp.status == 200
            return resp.json()["ticket"]

        first = ticket("/api/events")
        with r.open_stream(f"/api/events?ticket={first}") as stream:
            assert stream.status == 200 and stream.headers["content-type"].startswith("text/event-stream")
        assert r.request("GET", f"/api/events?ticket={first}").status == 401  # spent
        wrong_path = ticket("/api/events")
        assert r.request("GET", f"/api/screen?ticket={wrong_path}").status == 401
        late = ticket("/api/screen")
        clock.advance(61)
        assert r.request("GET", f"/api/screen?ticket={late}").status == 401
        assert r.request("POST", "/api/stream-ticket", body={"path": "/api/command"}, headers=r.auth).status == 400
        assert r.screen.opened == 0
    finally:
        stop_remote(r)


def test_h08_pairing_sets_a_strict_httponly_cookie_and_the_code_is_spent(remote):
    path = remote.server.pairing_url.split(str(remote.port), 1)[1]
    resp = remote.request("GET", path)
    assert resp.status == 303 and resp.header("Location") == "/"
    cookie = resp.header("Set-Cookie")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert remote.request("GET", "/api/state", headers={"Cookie": cookie.split(";", 1)[0]}).status == 200
    assert remote.request("GET", path).status == 401  # one use only
    assert remote.server.pairing_url.split("code=")[1] != path.split("code=")[1]  # the desktop shows a new one
    wait_for(lambda: any(e.type == EventType.REMOTE_PAIRED for e in remote.seen), what="REMOTE_PAIRED event")


def test_new_pairing_invalidates_the_shown_code(remote):
    old = remote.server.pairing_url.split(str(remote.port), 1)[1]
    remote.server.new_pairing()
    assert remote.request("GET", old).status == 401


def test_h09_forgetting_phones_revokes_cookies_and_closes_open_streams(remote):
    cookie = {"Cookie": paired_cookie(remote)}
    old_token = remote.server.token
    stream = remote.open_stream("/api/events", cookie)
    screen = remote.open_stream("/api/screen", cookie)
    assert stream.status == 200 and screen.status == 200
    wait_for(lambda: remote.server.event_clients == 1 and remote.server.viewers == 1, what="streams attached")
    remote.server.forget_phones()
    wait_for(lambda: remote.server.event_clients == 0 and remote.server.viewers == 0, timeout_s=2.0,
             what="streams closed after revocation")
    stream.close()
    screen.close()
    assert remote.request("GET", "/api/state", headers=cookie).status == 401
    assert remote.request("GET", "/api/state", headers={"Authorization": f"Bearer {old_token}"}).status == 401
    assert remote.server.token != old_token


# -- B. cross-origin -------------------------------------------------------------------------


def test_h10_form_csrf_fails_on_each_control_independently(remote):
    form = '{"text":"open cmd and run ...","x":"=x"}'
    plain = {"Content-Type": "text/plain"}
    assert remote.request("POST", "/api/command", body=form, headers={**plain, **remote.auth}).status == 415
    assert remote.request("POST", "/api/command", body=form, headers=plain).status == 401
    evil = {"Origin": "https://evil.example", **JSON, **remote.auth}
    assert remote.request("POST", "/api/command", body=form, headers=evil).status == 403
    site = {"Sec-Fetch-Site": "cross-site", **JSON, **remote.auth}
    assert remote.request("POST", "/api/command", body=form, headers=site).status == 403
    same_site = {"Sec-Fetch-Site": "same-site", **JSON, **remote.auth}  # another port on this machine
    assert remote.request("POST", "/api/command", body=form, headers=same_site).status == 403
    assert remote.submit.calls == []


def test_h11_no_cors_fetch_is_never_queued(remote):
    cookie = {"Cookie": paired_cookie(remote)}
    no_cors = {"Content-Type": "text/plain;charset=UTF-8", "Origin": "https://evil.example",
               "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}
    assert remote.request("POST", "/api/command", body='{"text":"x"}', headers={**no_cors, **cookie}).status == 403
    del no_cors["Origin"], no_cors["Sec-Fetch-Site"]
    assert remote.request("POST", "/api/command", body='{"text":"x"}', headers={**no_cors, **cookie}).status == 415
    assert remote.submit.calls == []


def test_h12_cors_preflight_gets_no_allow_headers(remote):
    preflight = {"Origin": "https://evil.example", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "authorization,content-type"}
    resp = remote.request("OPTIONS", "/api/command", headers=preflight)
    assert resp.status == 403
    same = remote.request("OPTIONS", "/api/command", headers=remote.auth)
    assert same.status == 405
    for r in (resp, same):
        assert not [h for h in r.headers if h.startswith("access-control-")]


@pytest.mark.parametrize("host", ["rebind.evil.example:{port}", "127.0.0.1:1", "localhost", "", "evil:{port}"])
def test_h13_h14_foreign_host_is_421_before_auth_even_on_loopback(remote, host):
    headers = {"Host": host.format(port=remote.port), **remote.auth}
    for method, path in (("GET", "/api/events"), ("GET", "/"), ("POST", "/api/command")):
        resp = remote.request(method, path, headers=headers, body={"text": "x"} if method == "POST" else None)
        assert resp.status == 421, (method, path, resp.status)
    assert remote.submit.calls == [] and remote.server.event_clients == 0


def test_h13_own_names_are_accepted(remote):
    for host in (f"127.0.0.1:{remote.port}", f"localhost:{remote.port}", f"LOCALHOST:{remote.port}"):
        assert remote.request("GET", "/api/state", headers={"Host": host, **remote.auth}).status == 200


def test_h15_the_page_cannot_be_framed(remote):
    resp = remote.request("GET", "/")
    assert resp.status == 200 and b"<title>AnovaX remote</title>" in resp.body
    assert resp.header("X-Frame-Options") == "DENY"
    csp = resp.header("Content-Security-Policy")
    assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp and "unsafe-inline" not in csp
    assert resp.header("X-Content-Type-Options") == "nosniff" and resp.header("Referrer-Policy") == "no-referrer"


def test_h16_forwarded_for_is_ignored_for_bans(remote):
    for i in range(5):
        remote.request("GET", "/api/state", headers={"X-Forwarded-For": f"10.0.0.{i}", "X-Real-IP": "10.9.9.9",
                                                     "Authorization": "Bearer guess"})
    assert [b.ip for b in remote.server.bans()] == ["127.0.0.1"]
    assert remote.request("GET", "/api/state", headers={"X-Forwarded-For": "10.0.0.77"}).status == 403


# -- C. resource exhaustion ------------------------------------------------------------------


def test_h17_oversized_body_is_413_without_reading_it(remote):
    headers = {**remote.auth, **JSON, "Content-Length": "50000000"}
    resp = remote.request("POST", "/api/command", headers=headers, body=b'{"text": "' + b"a" * 1000)
    assert resp.status == 413 and resp.json() == {"error": "request entity too large"}
    chunked = {**remote.auth, **JSON, "Transfer-Encoding": "chunked"}
    piece = b'{"text": "' + b"a" * 20000 + b'"}'
    body = f"{len(piece):x}\r\n".encode() + piece + b"\r\n0\r\n\r\n"
    assert remote.request("POST", "/api/command", headers=chunked, body=body).status == 413
    assert remote.submit.calls == []
    assert remote.request("GET", "/api/state", headers=remote.auth).status == 200


def test_h18_giant_command_is_422_and_never_planned(remote):
    resp = remote.request("POST", "/api/command", body={"text": "a" * 10000}, headers=remote.auth)
    assert resp.status == 422 and resp.json() == {"error": "text too long"}
    for bad in ({"text": 3}, {"text": "x", "extra": 1}, {"cmd": "x"}, {"text": "   "}):
        assert remote.request("POST", "/api/command", body=bad, headers=remote.auth).status == 400
    assert remote.request("POST", "/api/command", body="{not json", headers={**remote.auth, **JSON}).status == 400
    assert remote.submit.calls == []


def test_h19_command_flood_is_429_with_retry_after(remote):
    statuses = [remote.request("POST", "/api/command", body={"text": f"what time is it {i}"},
                               headers=remote.auth).status for i in range(8)]
    assert statuses == [202] * 5 + [429] * 3
    resp = remote.request("POST", "/api/command", body={"text": "again"}, headers=remote.auth)
    assert resp.status == 429 and resp.header("Retry-After") == "60"
    assert len(remote.submit.calls) == 5 and remote.submit.calls[0] == ("what time is it 0", "phone")


def test_accepted_command_is_202_with_its_id(remote):
    resp = remote.request("POST", "/api/command", body={"text": "open notepad"}, headers=remote.auth)
    assert resp.status == 202 and resp.json() == {"status": "queued", "command_id": "c1"}


def test_full_command_queue_is_503_with_the_assistants_message(remote):
    remote.submit.busy = True
    resp = remote.request("POST", "/api/command", body={"text": "open notepad"}, headers=remote.auth)
    assert resp.status == 503 and resp.header("Retry-After") == "5"
    assert resp.json()["error"] == "busy" and "still busy" in resp.json()["message"]


def test_h20_slowloris_sockets_are_cut_and_the_phone_still_gets_in(remote):
    trickles = []
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", remote.port))
        s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the end of the headers
        trickles.append(s)
    try:
        assert remote.request("GET", "/api/state", headers=remote.auth).status == 200
        # each is closed by the server once it has sent nothing for read_timeout_s
        wait_for(lambda: all(_closed(s) for s in trickles), timeout_s=10, what="idle sockets closed by the server")
    finally:
        for s in trickles:
            s.close()


def _closed(sock: socket.socket, wait_s: float = 0.01) -> bool:
    sock.settimeout(wait_s)
    try:
        return sock.recv(100) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_connection_cap_per_address_answers_503_when_nothing_can_be_evicted(tmp_path):
    limits = dataclasses.replace(TEST_LIMITS, max_connections_per_ip=3)
    r = start_remote(tmp_path, limits=limits)
    # open streams are being served: they are never evicted, so a fourth connection is refused
    held = [r.open_stream("/api/events", r.auth) for _ in range(3)]
    try:
        resp = r.request("GET", "/api/state", headers=r.auth)
        assert resp.status == 503 and resp.header("Retry-After") == "5"
        assert resp.header("Content-Security-Policy") and resp.json() == {"error": "too many connections"}
    finally:
        for s in held:
            s.close()
    wait_for(lambda: r.request("GET", "/api/state", headers=r.auth).status == 200, what="cap released")
    stop_remote(r)


def test_at_the_cap_the_oldest_connection_without_headers_is_evicted(tmp_path):
    limits = dataclasses.replace(TEST_LIMITS, max_connections_per_ip=3)
    r = start_remote(tmp_path, limits=limits)
    idle = [socket.create_connection(("127.0.0.1", r.port)) for _ in range(3)]
    try:
        wait_for(lambda: r.server.http_stats.accepted >= 3, what="idle sockets accepted")
        assert r.request("GET", "/api/state", headers=r.auth).status == 200
        assert r.server.http_stats.evicted >= 1 and r.server.http_stats.refused == 0
        assert _closed(idle[0], wait_s=5)  # the oldest one went
    finally:
        for s in idle:
            s.close()
        stop_remote(r)


def test_h21_too_many_event_streams_is_503_and_the_slot_comes_back(remote):
    streams = [remote.open_stream("/api/events", remote.auth) for _ in range(TEST_LIMITS.max_event_clients)]
    assert [s.status for s in streams] == [200] * TEST_LIMITS.max_event_clients
    extra = remote.request("GET", "/api/events", headers=remote.auth)
    assert extra.status == 503 and extra.header("Retry-After") == "5"
    for s in streams:
        s.close()
    wait_for(lambda: remote.server.event_clients == 0, what="closed streams detached")
    with remote.open_stream("/api/events", remote.auth) as again:
        assert again.status == 200


def test_h22_a_reader_that_never_reads_is_dropped_and_slows_nobody(remote):
    slow = socket.create_connection(("127.0.0.1", remote.port))
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    slow.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{remote.port}\r\n"
                 f"Authorization: Bearer {remote.server.token}\r\n\r\n".encode())
    wait_for(lambda: remote.server.event_clients == 1, what="slow client attached")
    with remote.open_stream("/api/events", remote.auth) as fast:
        wait_for(lambda: remote.server.event_clients == 2, what="fast client attached")
        received = fast.events()
        pad = "x" * 8000
        for batch in range(100):  # 12 MB in all: far more than the slow socket's buffers hold
            for i in range(16):
                last = remote.bus.emit(EventType.AGENT_DONE, f"c{batch}", tool="get_time", data={"pad": pad})
            # the fast reader gets every event of the batch, whatever the slow one does
            seqs = [next(received)["_id"] for _ in range(16)]
            assert seqs[-1] == last.seq and seqs == list(range(last.seq - 15, last.seq + 1))
    wait_for(lambda: remote.server._ctx.events.overflows >= 1, what="the slow client overflowed")
    wait_for(lambda: remote.server.event_clients == 0, timeout_s=10, what="the slow client dropped")
    slow.close()


def test_h23_disconnected_event_clients_unregister(remote):
    for _ in range(30):
        s = socket.create_connection(("127.0.0.1", remote.port))
        s.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{remote.port}\r\n"
                  f"Authorization: Bearer {remote.server.token}\r\n\r\n".encode())
        s.recv(64)
        s.close()
    wait_for(lambda: remote.server.event_clients == 0, timeout_s=10, what="every dead client unregistered")


def test_h24_screen_viewer_cap_one_capture_thread_and_stop_at_zero(remote):
    viewers = [remote.open_stream("/api/screen", remote.auth) for _ in range(TEST_LIMITS.max_screen_viewers)]
    try:
        for v in viewers:
            assert v.status == 200 and v.headers["content-type"] == "multipart/x-mixed-replace; boundary=frame"
            assert next(v.jpegs())[:2] == b"\xff\xd8"
        extra = remote.request("GET", "/api/screen", headers=remote.auth)
        assert extra.status == 503 and extra.header("Retry-After") == "5"
        assert [t.name for t in threading.enumerate()].count("remote-capture") == 1
        assert remote.screen.opened == 1 and remote.server.viewers == 2
    finally:
        for v in viewers:
            v.close()
    wait_for(lambda: remote.server.viewers == 0 and not remote.server._ctx.screen.capturing, what="capture stopped")

    def counts() -> list[int]:
        return [e.data["viewers"] for e in list(remote.seen) if e.type == EventType.REMOTE_VIEWERS]

    # the bus delivers to subscribers on their own threads: the last event may still be on its way
    wait_for(lambda: counts()[-1:] == [0], what="the REMOTE_VIEWERS event for zero viewers")
    assert counts()[:2] == [1, 2]


# -- D. static files, errors, leaks ----------------------------------------------------------


@pytest.mark.parametrize("path", [
    "/static/../app.py", "/static/..%2f..%2fconfig.json", "/static/%2e%2e/%2e%2e/memory.json",
    "/static/..\\..\\memory.json", "/static/C:/Windows/win.ini", "/static/\\\\203.0.113.7\\share\\x",
    "/static/../server.py", "/static/%2e%2e/server.py", "/static//etc/passwd",
    "/static/NUL", "/static/x/CON", "/static/aux.txt",
])
def test_h25_h26_no_path_traversal_or_device_names(remote, path):
    assert remote.request("GET", path, timeout=3).status == 404


def test_static_page_files_are_served(remote):
    js = remote.request("GET", "/static/app.js")
    assert js.status == 200 and b"textContent" in js.body and b"innerHTML =" not in js.body
    assert remote.request("GET", "/static/app.css").status == 200


def test_h27_no_debugger_and_no_tracebacks(tmp_path):
    r = start_remote(tmp_path)
    r.server._ctx.state = lambda: 1 / 0
    try:
        assert r.server.app.debug is False
        for path in ("/console", "/?__debugger__=yes&cmd=resource&f=style.css", "/api/state?__debugger__=yes"):
            assert r.request("GET", path, headers=r.auth).status == 404
        crash = r.request("GET", "/api/state", headers=r.auth)
        assert crash.status == 500 and crash.json() == {"error": "internal"}
        assert b"Traceback" not in crash.body and b"ZeroDivision" not in crash.body and b".py" not in crash.body
        assert r.request("GET", "/api/state", headers=r.auth).status == 500  # and it is still serving
    finally:
        stop_remote(r)


def test_h29_nothing_is_cached(remote):
    for path in ("/api/state", "/", "/api/events", "/api/screen"):
        resp = remote.request("GET", path, headers=remote.auth)
        assert resp.header("Cache-Control") == "no-store" and resp.header("Pragma") == "no-cache", path


@pytest.mark.parametrize("method, path", [("GET", "/api/command"), ("PUT", "/api/command"), ("TRACE", "/"),
                                          ("DELETE", "/api/state")])
def test_h30_wrong_methods_are_405_with_allow(remote, method, path):
    resp = remote.request(method, path, headers=remote.auth)
    assert resp.status == 405 and resp.header("Allow")


def test_h31_huge_or_too_many_headers_are_431_and_the_server_lives(remote):
    big = remote.request("GET", "/api/state", headers={"Authorization": "Bearer " + "a" * 70000})
    assert big.status == 431
    many = remote.request("GET", "/api/state", headers={f"X-H{i}": "1" for i in range(150)})
    assert many.status == 431
    assert remote.request("GET", "/api/state", headers=remote.auth).status == 200


def test_r03_a_failing_check_refuses(remote, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(remote.server._ctx.guard, "authenticate", broken)
    resp = remote.request("POST", "/api/command", body={"text": "open notepad"}, headers=remote.auth)
    assert resp.status == 500 and remote.submit.calls == []


def test_state_reports_the_remote_and_the_callers_state(remote):
    remote.server._ctx.state = lambda: {"planner": "offline", "agents": []}
    info = remote.request("GET", "/api/state", headers=remote.auth).json()
    assert info["planner"] == "offline" and info["remote"]["viewers"] == 0 and info["remote"]["via"] == "token"


def test_stop_and_start_again(remote):
    first = remote.server.address
    with remote.open_stream("/api/events", remote.auth) as stream:
        assert stream.status == 200
        remote.server.stop()
        assert not remote.server.running
        wait_for(lambda: remote.server.event_clients == 0, what="streams ended by stop")
    remote.server.start()
    assert remote.server.running and remote.server.address != "" and first.startswith("http://127.0.0.1:")
    assert remote.request("GET", "/api/state", headers=remote.auth).status == 200


def test_a_taken_port_is_an_oserror_not_an_exit(remote, tmp_path):
    # Werkzeug itself would print and sys.exit(1): the assistant must survive a busy port
    server = RemoteServer(Settings(remote_port=remote.port, remote_bind="127.0.0.1"), remote.bus, remote.submit)
    workers = sum(t.name.startswith("remote-worker-") for t in threading.enumerate())
    with pytest.raises(OSError):
        server.start()
    assert not server.running
    assert sum(t.name.startswith("remote-worker-") for t in threading.enumerate()) == workers  # none left behind


def test_fixed_token_from_settings(tmp_path):
    bus = EventBus()
    server = RemoteServer(Settings(remote_port=0, remote_bind="127.0.0.1", remote_token="scripted-token-0123456789"),
                          bus, lambda text, source="": None)
    assert server.token == "scripted-token-0123456789"
    bus.close()
    r = start_remote(tmp_path, token="scripted-token-0123456789")
    try:
        assert r.server.token == "scripted-token-0123456789"
        assert r.request("GET", "/api/state", headers={"Authorization": "Bearer scripted-token-0123456789"}).status == 200
        r.server.forget_phones()
        assert r.server.token == "scripted-token-0123456789"  # a fixed token survives "forget phones"
    finally:
        stop_remote(r)
