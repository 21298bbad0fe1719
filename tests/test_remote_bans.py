"""Bans of the phone remote: kept across restarts in the state folder, lifted from the console and the orb."""

from __future__ import annotations

import json

from helpers import FakeClock
from remote_kit import phone_remote, start_remote, stop_remote

from anovax.console_controls import console_control
from anovax.orb.controls import OrbControls
from anovax.remote import AuthPolicy, Guard
from anovax.remote.bans import BanStore, StoredBan
from anovax.settings import load_settings

POLICY = AuthPolicy(max_failures=2, ban_s=600)
GUESS = {"Authorization": "Bearer guess"}


def ban_me(r) -> None:
    for _ in range(POLICY.max_failures):
        assert r.request("GET", "/api/state", headers=GUESS).status == 401
    assert [b.ip for b in r.server.bans()] == ["127.0.0.1"]


def test_a_ban_survives_a_restart_and_the_owner_still_gets_in(tmp_path):
    path = tmp_path / "state" / "remote_bans.json"
    r = start_remote(tmp_path, policy=POLICY, bans_path=path)
    try:
        ban_me(r)
    finally:
        stop_remote(r)
    stored = json.loads(path.read_text())
    assert set(stored) == {"127.0.0.1"} and stored["127.0.0.1"]["failures"] == 2
    assert [p.name for p in path.parent.iterdir()] == ["remote_bans.json"]  # no temporary file left behind

    again = start_remote(tmp_path, policy=POLICY, bans_path=path)  # a new process would read the same file
    try:
        [ban] = again.server.bans()
        assert ban.ip == "127.0.0.1" and 590 < ban.remaining_s <= 600
        assert again.request("GET", "/api/state").status == 403
        assert again.request("GET", "/").status == 403
        assert again.request("GET", "/api/state", headers=again.auth).status == 200  # a valid token is served
    finally:
        stop_remote(again)


def test_an_expired_or_broken_ban_file_bans_nobody(tmp_path):
    path = tmp_path / "remote_bans.json"
    clock, wall = FakeClock(), FakeClock(start=1_000_000.0)
    BanStore(path).save([StoredBan("10.0.0.1", 1_000_100.0, 10), StoredBan("10.0.0.2", 999_000.0, 10)])
    guard = Guard(policy=POLICY, clock=clock, store=BanStore(path), wall=wall)
    assert [(b.ip, b.remaining_s) for b in guard.bans()] == [("10.0.0.1", 100.0)]
    for junk in ("{not json", "[1, 2]", '{"10.0.0.3": {"until": "soon"}}', '{"10.0.0.4": 5}'):
        path.write_text(junk)
        assert Guard(policy=POLICY, store=BanStore(path)).bans() == []


def test_console_unban_lifts_the_ban_on_disk_too(tmp_path):
    path = tmp_path / "remote_bans.json"
    r = start_remote(tmp_path, policy=POLICY, bans_path=path)
    try:
        ban_me(r)
        assert console_control(":unban", r.server) == "Lifted 1 ban: every address may try again."
        assert r.server.bans() == [] and json.loads(path.read_text()) == {}
        assert r.request("GET", "/api/state").status == 401  # asked for credentials again, not locked out
        assert console_control(":unban", r.server) == "No address was banned."
    finally:
        stop_remote(r)


def test_the_orbs_unban_button_lifts_the_ban_on_disk_too(tmp_path):
    with phone_remote(tmp_path) as (assistant, server, _):
        path = tmp_path / "remote_bans.json"
        server._ctx.guard = Guard(policy=POLICY, store=BanStore(path))
        for _ in range(POLICY.max_failures):
            server._ctx.guard.fail("192.0.2.7")
        assert json.loads(path.read_text()).keys() == {"192.0.2.7"}
        controls = OrbControls.for_assistant(assistant, remote=server)
        assert controls.remote_unban is not None
        assert controls.remote_unban() == 1  # what the orb's "Unban phones" button runs
        assert server.bans() == [] and json.loads(path.read_text()) == {}


def test_the_assistant_keeps_bans_in_its_state_folder(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("")
    settings = load_settings({"XDG_STATE_HOME": str(tmp_path / "state"), "HOME": str(tmp_path)}, config_file=config)
    assert settings.remote_bans_path == tmp_path / "state" / "anovax" / "remote_bans.json"
