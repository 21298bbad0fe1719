"""The phone remote's parts without HTTP: the guard, the streams, the encoder and the settings."""

from __future__ import annotations

import io
import threading

import pytest
from helpers import FakeClock, wait_for
from PIL import Image

from anovax.errors import ConfigError
from anovax.events import EventBus, EventType
from anovax.remote import AuthPolicy, Frame, Guard, SyntheticScreen
from anovax.remote.auth import Via, allowed_hosts, host_ok, origin_ok
from anovax.remote.capture import JpegEncoder
from anovax.remote.streams import EventFanout, ScreenBroadcaster
from anovax.settings import SETTINGS_DOC, Settings, load_settings

# -- the guard -------------------------------------------------------------------------------


def test_pairing_code_is_one_time_and_expires():
    clock = FakeClock()
    guard = Guard(policy=AuthPolicy(pairing_ttl_s=60), clock=clock)
    code = guard.pairing_code()
    assert guard.pairing_code() == code  # stable while it is shown
    assert guard.pair("wrong") is None and guard.pairing_code() == code  # a wrong guess does not spend it
    session = guard.pair(code)
    assert session and guard.pair(code) is None
    assert guard.authenticate(bearer=None, session=session, ticket=None, path="/api/state").via is Via.SESSION
    late = guard.pairing_code()
    clock.advance(61)
    assert guard.pair(late) is None and guard.pairing_code() != late


def test_sessions_are_capped_oldest_first_and_can_be_forgotten():
    guard = Guard(policy=AuthPolicy(max_sessions=2))
    sessions = [guard.pair(guard.new_pairing()) for _ in range(3)]
    ok = [guard.authenticate(bearer=None, session=s, ticket=None, path="/") is not None for s in sessions]
    assert ok == [False, True, True]
    guard.forget(sessions[2])
    assert guard.authenticate(bearer=None, session=sessions[2], ticket=None, path="/") is None


def test_tickets_are_single_use_per_path_and_short_lived():
    clock = FakeClock()
    guard = Guard(clock=clock)
    t = guard.issue_ticket("/api/events")
    assert guard.authenticate(bearer=None, session=None, ticket=t, path="/api/screen") is None  # spent, wrong path
    t = guard.issue_ticket("/api/events")
    assert guard.authenticate(bearer=None, session=None, ticket=t, path="/api/events").via is Via.TICKET
    assert guard.authenticate(bearer=None, session=None, ticket=t, path="/api/events") is None
    t = guard.issue_ticket("/api/events")
    clock.advance(guard.policy.ticket_ttl_s + 1)
    assert guard.authenticate(bearer=None, session=None, ticket=t, path="/api/events") is None


def test_failures_outside_the_window_do_not_add_up():
    clock = FakeClock()
    guard = Guard(policy=AuthPolicy(max_failures=3, failure_window_s=10), clock=clock)
    guard.fail("10.0.0.5")
    guard.fail("10.0.0.5")
    clock.advance(11)
    assert guard.fail("10.0.0.5") is None and guard.failures("10.0.0.5") == 1
    guard.fail("10.0.0.5")
    ban = guard.fail("10.0.0.5")
    assert ban is not None and ban.ip == "10.0.0.5" and guard.banned("10.0.0.5")
    assert not guard.banned("10.0.0.6")
    assert [b.ip for b in guard.bans()] == ["10.0.0.5"]


def test_failure_tracking_is_bounded():
    guard = Guard(policy=AuthPolicy(max_tracked=50))
    for i in range(500):
        guard.fail(f"10.0.{i // 250}.{i % 250}")
    assert len(guard._failures) <= 50


def test_revocation_bumps_the_generation_and_rotates_a_random_token():
    guard = Guard()
    token, generation = guard.token, guard.generation
    guard.revoke_all()
    assert guard.token != token and guard.generation == generation + 1
    assert guard.authenticate(bearer=token, session=None, ticket=None, path="/") is None


def test_non_ascii_and_overlong_credentials_fail_cleanly():
    guard = Guard("a-fixed-token-for-scripts")
    for offered in ("ünïcode", "a" * 10_000, "", None):
        assert guard.authenticate(bearer=offered, session=offered, ticket=offered, path="/api/events") is None


def test_host_and_origin_checks():
    hosts = allowed_hosts(["127.0.0.1", "localhost", "::1", "192.168.1.20", "Desk.local"], 8765)
    for ok in ("127.0.0.1:8765", "LOCALHOST:8765", "[::1]:8765", "192.168.1.20:8765", "desk.local:8765"):
        assert host_ok(ok, hosts), ok
    for bad in ("127.0.0.1", "127.0.0.1:80", "evil.example:8765", "", None, "192.168.1.20:8765.evil"):
        assert not host_ok(bad, hosts), bad
    assert "web:80" not in hosts and "web" in allowed_hosts(["web"], 80)
    assert origin_ok(None, None, hosts) and origin_ok("http://192.168.1.20:8765", "same-origin", hosts)
    assert origin_ok(None, "none", hosts)
    for origin, site in (("https://evil.example", None), ("null", None), ("http://192.168.1.20:9999", None),
                         ("https://192.168.1.20:8765", None), (None, "cross-site"), (None, "same-site")):
        assert not origin_ok(origin, site, hosts), (origin, site)


# -- the screen broadcaster ------------------------------------------------------------------


class StaticScreen:
    """The same frame every time, counting grabs."""

    def __init__(self) -> None:
        self.grabs = 0
        self.threads: set[str] = set()

    def __call__(self):
        self.threads.add(threading.current_thread().name)
        return self

    def grab(self) -> Frame:
        self.grabs += 1
        self.threads.add(threading.current_thread().name)
        return Frame(b"\x10\x20\x30\x00" * (64 * 48), 64, 48)

    def close(self) -> None:
        self.threads.add(threading.current_thread().name)


def test_capture_runs_only_while_someone_watches_in_its_own_thread():
    counts = []
    source = SyntheticScreen(64, 48)
    screen = ScreenBroadcaster(source, width=64, max_fps=30, max_viewers=2, on_viewers=counts.append)
    assert not screen.capturing and source.opened == 0
    assert screen.attach() and screen.attach() and not screen.attach()  # capped at 2
    first = screen.next_frame(0, 5.0)
    second = screen.next_frame(first.seq, 5.0)
    assert second.seq > first.seq and second.jpeg != first.jpeg  # a changing screen is re-sent
    screen.detach()
    screen.detach()
    wait_for(lambda: not screen.capturing, what="capture stopped at zero viewers")
    assert counts == [1, 2, 1, 0] and source.opened == 1
    screen.close()


def test_unchanged_frames_are_not_re_encoded_or_re_sent():
    source = StaticScreen()
    screen = ScreenBroadcaster(source, width=64, max_fps=30, max_viewers=1, resend_s=3600)
    screen.attach()
    first = screen.next_frame(0, 5.0)
    wait_for(lambda: source.grabs >= 5, what="several grabs")
    assert screen.next_frame(first.seq, 0.05) is None and screen.encoded == 1 and screen.unchanged >= 4
    screen.detach()
    wait_for(lambda: not screen.capturing, what="capture stopped")
    assert source.threads == {"remote-capture"}  # opened, used and closed by the capture thread only
    screen.close()


def test_a_broken_source_ends_the_stream_with_a_reason():
    def no_display():
        raise OSError("cannot open display")

    screen = ScreenBroadcaster(no_display, width=64, max_fps=30, max_viewers=1)
    screen.attach()
    wait_for(lambda: not screen.capturing, what="capture gave up")
    assert "cannot open display" in screen.error and screen.next_frame(0, 0.01) is None
    screen.detach()


# -- the event fan-out -----------------------------------------------------------------------


def test_fanout_never_blocks_the_bus_and_drops_only_the_slow_client():
    bus = EventBus()
    fanout = EventFanout(bus, max_clients=2, queue_size=10)
    slow, fast = fanout.attach(), fanout.attach()
    assert fanout.attach() is None  # capped
    got = []
    for i in range(30):
        bus.emit(EventType.AGENT_DONE, f"c{i}")
        bus.flush()
        got.append(fast.queue.get_nowait().command_id)
    assert got == [f"c{i}" for i in range(30)]
    assert slow.overflowed.is_set() and not fast.overflowed.is_set() and fanout.overflows == 1
    fanout.detach(slow)
    assert fanout.clients == 1
    bus.close()


# -- the encoder ------------------------------------------------------------------------------


@pytest.mark.parametrize("prefer", ["auto", "pillow"])
def test_encoder_scales_down_never_up(prefer):
    wide = Frame(bytes(i % 251 for i in range(200 * 100 * 4)), 200, 100)
    for width, expected in ((100, (100, 50)), (400, (200, 100))):
        jpeg = JpegEncoder(width, prefer=prefer).encode(wide)
        assert Image.open(io.BytesIO(jpeg)).size == expected


# -- settings ---------------------------------------------------------------------------------


def test_remote_settings_from_the_environment():
    s = load_settings(env={"ANOVAX_REMOTE": "1", "ANOVAX_REMOTE_PORT": "9000", "ANOVAX_REMOTE_BIND": "0.0.0.0",
                           "ANOVAX_REMOTE_TOKEN": "a-token-of-20-chars!", "ANOVAX_REMOTE_WIDTH": "960",
                           "ANOVAX_REMOTE_FPS": "10"})
    assert (s.remote, s.remote_port, s.remote_bind, s.remote_width, s.remote_fps) == (True, 9000, "0.0.0.0", 960, 10.0)
    assert "a-token-of-20-chars!" not in repr(s)
    d = Settings()
    assert (d.remote, d.remote_port, d.remote_bind, d.remote_token, d.remote_width) == (False, 8765, "", "", 1280)


@pytest.mark.parametrize("env, fragment", [
    ({"ANOVAX_REMOTE": "maybe"}, "ANOVAX_REMOTE must be 0 or 1"),
    ({"ANOVAX_REMOTE_PORT": "99999"}, "ANOVAX_REMOTE_PORT"),
    ({"ANOVAX_REMOTE_PORT": "http"}, "ANOVAX_REMOTE_PORT"),
    ({"ANOVAX_REMOTE_BIND": "my-laptop"}, "ANOVAX_REMOTE_BIND"),
    ({"ANOVAX_REMOTE_TOKEN": "short"}, "ANOVAX_REMOTE_TOKEN"),
    ({"ANOVAX_REMOTE_WIDTH": "20"}, "ANOVAX_REMOTE_WIDTH"),
    ({"ANOVAX_REMOTE_FPS": "nan"}, "ANOVAX_REMOTE_FPS"),
])
def test_bad_remote_settings_are_config_errors(env, fragment):
    with pytest.raises(ConfigError, match=fragment):
        load_settings(env=env)


def test_remote_token_never_comes_from_a_file(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('remote_token = "a-token-of-20-chars!"')
    with pytest.raises(ConfigError, match="secrets are read from the environment only"):
        load_settings(env={}, config_file=cfg)
    cfg.write_text('remote = "1"\nremote_port = "8800"')
    s = load_settings(env={}, config_file=cfg)
    assert s.remote and s.remote_port == 8800


def test_remote_settings_are_documented():
    documented = {var for setting in SETTINGS_DOC for var in setting.env}
    assert {"ANOVAX_REMOTE", "ANOVAX_REMOTE_PORT", "ANOVAX_REMOTE_BIND", "ANOVAX_REMOTE_TOKEN",
            "ANOVAX_REMOTE_WIDTH", "ANOVAX_REMOTE_FPS"} <= documented
