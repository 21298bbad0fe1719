"""Issue 20's attacks on the phone remote, over loopback with the real assistant behind it.

A web page's credential-less image requests must not lock out the paired phone; 2 x 32 slow
sockets from two other addresses must not deny it; a huge credential-less upload is answered
and closed without its body being read. Timing is measured in benchmarks/bench_remote.py; here
each phone command only has to be accepted (202), with generous socket timeouts.
"""

from __future__ import annotations

import dataclasses
import time

import pytest
from helpers import logged_events, wait_for
from remote_attacks import Trickler, can_bind, credentialless_gets, upload
from remote_kit import TEST_LIMITS, phone_remote, request

from anovax.remote import Limits, SyntheticScreen

#: the caps of a real remote (64 connections, 32 per address), and a rate limit the test's commands stay under
ATTACK_LIMITS = dataclasses.replace(TEST_LIMITS, max_connections=Limits.max_connections,
                                    max_connections_per_ip=Limits.max_connections_per_ip,
                                    header_timeout_s=Limits.header_timeout_s, commands_per_minute=60)


def pair(server) -> dict[str, str]:
    path = server.pairing_url.split(str(server.port), 1)[1]
    resp = request(server.port, "GET", path)
    assert resp.status == 303, resp.body
    return {"Cookie": resp.header("Set-Cookie").split(";", 1)[0]}


def command(server, cookie: dict[str, str], text: str, timeout: float = 10.0) -> int:
    return request(server.port, "POST", "/api/command", body={"text": text}, headers=cookie, timeout=timeout).status


@pytest.fixture
def phone(tmp_path):
    with phone_remote(tmp_path, limits=ATTACK_LIMITS, frames=SyntheticScreen(320, 180)) as (assistant, server, _):
        yield assistant, server, pair(server)


def test_a_web_pages_image_requests_do_not_lock_out_the_phone(phone):
    assistant, server, cookie = phone
    # what 12 <img src="http://desk:port/api/state?n"> send: no Origin, no Sec-Fetch-*, no credential
    assert credentialless_gets(server.port, 12) == [401] * 12
    assert server.bans() == [] and server._ctx.guard.failures("127.0.0.1") == 0
    assert command(server, cookie, "what time is it") == 202
    wait_for(lambda: any(e.type.value == "COMMAND_DONE" for e in assistant.bus.recent(0)), timeout_s=20,
             what="the phone's command done by the assistant")


@pytest.mark.slow
def test_slow_sockets_from_two_addresses_do_not_deny_the_phone(phone):
    if not (can_bind("127.0.0.2") and can_bind("127.0.0.3")):
        pytest.skip("127.0.0.2/127.0.0.3 cannot be used as source addresses here")
    assistant, server, cookie = phone
    attackers = [Trickler(server.port, ip, sockets=32, gap_s=5.0).start() for ip in ("127.0.0.2", "127.0.0.3")]
    try:
        wait_for(lambda: sum(a.connects for a in attackers) >= 64, timeout_s=10, what="64 slow sockets open")
        statuses = []
        stop_at = time.monotonic() + 12.0
        while time.monotonic() < stop_at:  # a command every 1.5 s while they trickle
            statuses.append(command(server, cookie, f"what time is it {len(statuses)}"))
            time.sleep(1.5)
        # the attack really held the server's slots: sockets were cut by deadlines or evicted
        stats = server.http_stats
        assert stats is not None and stats.expired + stats.evicted > 0, stats
        assert all(a.alive for a in attackers)
    finally:
        for a in attackers:
            a.stop()
    assert len(statuses) >= 8 and statuses == [202] * len(statuses), statuses


def test_a_huge_credentialless_upload_is_answered_and_closed_unread(phone):
    assistant, server, _ = phone
    before = server.http_stats.bytes_read
    result = upload(server.port, 300_000_000)
    assert result.status == 413 and b'"request entity too large"' in result.body
    assert result.closed  # the server closed it (after a short linger), not the client giving up
    stats = server.http_stats
    # the headers and at most one receive buffer's worth: the 300 MB body is never read
    assert stats.bytes_read - before < 64 * 1024, stats
    assert stats.bytes_drained <= ATTACK_LIMITS.linger_bytes
    # a client can only push what the socket buffers hold (a few MB), not 300 MB
    assert result.sent_bytes < 32 * 1024 * 1024, result.sent_bytes
    assert not [e for e in assistant.bus.recent(0) if e.type.value == "COMMAND_RECEIVED"]
    assert result.seconds < 10  # closed by the server's bounded linger, not by the client's patience


def test_a_phone_command_with_lone_surrogates_reaches_the_event_log_and_json_output(tmp_path):
    import io
    import json

    from anovax.eventlog import JsonLines, JsonlLog

    with phone_remote(tmp_path, limits=ATTACK_LIMITS, frames=SyntheticScreen(320, 180)) as (assistant, server, _):
        cookie = pair(server)
        log_path = tmp_path / "events.jsonl"
        assistant.bus.subscribe("test-jsonl", JsonlLog(log_path))
        ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")  # --json to a terminal that is not UTF-8
        assistant.bus.subscribe("test-json", JsonLines(ascii_out))
        body = b'{"text": "what time is it \\ud800 \\udcff caf\\u00e9 \\ud83d\\ude00 \\u2028"}'
        resp = request(server.port, "POST", "/api/command", body=body,
                       headers={**cookie, "Content-Type": "application/json"})
        assert resp.status == 202
        command_id = resp.json()["command_id"]

        def logged() -> list[dict]:
            return logged_events(log_path)

        wait_for(lambda: any(e["type"] == "COMMAND_DONE" and e["command_id"] == command_id for e in logged()),
                 timeout_s=20, what="the command's events in events.jsonl")
        received = [e for e in logged() if e["type"] == "COMMAND_RECEIVED" and e["command_id"] == command_id]
        assert received and "\ufffd \ufffd café \U0001F600" in json.dumps(received[0], ensure_ascii=False)

        def printed() -> list[dict]:
            ascii_out.flush()
            return [json.loads(line) for line in ascii_out.buffer.getvalue().decode("ascii").splitlines()]

        wait_for(lambda: any(e["type"] == "COMMAND_DONE" and e["command_id"] == command_id for e in printed()),
                 timeout_s=10, what="the command in --json output")
        assert any(e["type"] == "COMMAND_RECEIVED" and e["command_id"] == command_id for e in printed())
