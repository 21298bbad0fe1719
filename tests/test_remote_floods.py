"""The floods that broke the first production remote: 2 x 32 sockets that have finished their
headers (a slow body, an Expect that waits, a pipeline nobody reads) must not deny the paired phone.

Each runs for about 12 s from 127.0.0.2 and 127.0.0.3 while the phone, from 127.0.0.1, sends a
command every 1.5 s on a fresh connection; each command only has to be accepted (202). The old
server evicted only connections still sending headers, and let 32 per address: these filled
its 64 and the phone got 503. Timing is in benchmarks/bench_remote_attacks.py.
"""

from __future__ import annotations

import logging
import time

import pytest
from helpers import wait_for
from remote_attacks import can_bind
from remote_floods import Flood
from test_remote_attacks import command, phone  # noqa: F401 - the fixture

ATTACKERS = ("127.0.0.2", "127.0.0.3")


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["expect", "body", "chunked", "pipeline"])
def test_sockets_past_their_headers_from_two_addresses_do_not_deny_the_phone(phone, mode, caplog):  # noqa: F811
    if not all(can_bind(ip) for ip in ATTACKERS):
        pytest.skip("127.0.0.2/127.0.0.3 cannot be used as source addresses here")
    caplog.set_level(logging.WARNING, logger="waitress")
    assistant, server, cookie = phone
    floods = [Flood(server.port, ip, mode, sockets=32).start() for ip in ATTACKERS]
    try:
        wait_for(lambda: sum(f.connects for f in floods) >= 64, timeout_s=15, what="64 attacking sockets open")
        statuses = []
        stop_at = time.monotonic() + 12.0
        while time.monotonic() < stop_at or len(statuses) < 6:  # ~12 s, and 6 commands however slow
            statuses.append(command(server, cookie, f"what time is it {len(statuses)}", timeout=20.0))
            time.sleep(1.5)
        assert all(f.alive for f in floods)
    finally:
        for f in floods:
            f.stop()
    assert statuses == [202] * len(statuses), (mode, statuses)
    if mode == "expect":  # refused at once: never asked for a body it will not take
        seen = {s for f in floods for s in f.statuses}
        assert 413 in seen and 100 not in seen, seen
    # the console gets at most a line or two about queued requests, not one per request
    assert sum("Task queue depth" in r.getMessage() for r in caplog.records) <= 2


@pytest.mark.slow
def test_slow_bodies_from_five_addresses_fill_the_total_and_the_phone_still_gets_in(phone):  # noqa: F811
    # 5 x 16 is over the total of 64 even at the per-address cap: a newcomer must evict a slow body
    sources = [f"127.0.0.{n}" for n in range(2, 7)]
    if not all(can_bind(ip) for ip in sources):
        pytest.skip("127.0.0.2-6 cannot be used as source addresses here")
    assistant, server, cookie = phone
    floods = [Flood(server.port, ip, "body", sockets=16).start() for ip in sources]
    try:
        wait_for(lambda: sum(f.connects for f in floods) >= 80, timeout_s=15, what="80 slow bodies opened")
        statuses = []
        stop_at = time.monotonic() + 12.0
        while time.monotonic() < stop_at or len(statuses) < 6:  # ~12 s, and 6 commands however slow
            statuses.append(command(server, cookie, f"what time is it {len(statuses)}", timeout=20.0))
            time.sleep(1.5)
    finally:
        for f in floods:
            f.stop()
    assert statuses == [202] * len(statuses), statuses
    assert server.http_stats.evicted > 0, server.http_stats
