"""A phone command through the real Assistant (offline planner, simulated desktop), watched over SSE;
and the real screen through mss under Xvfb."""

from __future__ import annotations

import io

import pytest
from helpers import wait_for
from PIL import Image
from remote_kit import TEST_LIMITS, Stream, request

from anovax.app import build_assistant
from anovax.desktop import SimulatedDesktop
from anovax.events import EventType
from anovax.memory import Memory
from anovax.remote import MssScreen, RemoteServer
from anovax.remote.state import assistant_state
from anovax.settings import Settings


@pytest.fixture
def phone(tmp_path):
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None, remote_port=0,
                        remote_bind="127.0.0.1")
    desktop = SimulatedDesktop()
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=desktop)
    server = RemoteServer(settings, assistant.bus, assistant.submit, state=assistant_state(assistant),
                          limits=TEST_LIMITS)
    server.start()
    yield server, assistant, desktop
    server.stop()
    assistant.close()


def command_events(stream: Stream, text: str) -> list[dict]:
    """The SSE events of the command whose COMMAND_RECEIVED carries ``text``, up to its COMMAND_DONE."""
    command_id, events = None, []
    for event in stream.events():
        if event.get("type") == "COMMAND_RECEIVED" and (event.get("data") or {}).get("text") == text:
            command_id = event["command_id"]
        if command_id is not None and event.get("command_id") == command_id:
            events.append(event)
            if event["type"] == "COMMAND_DONE":
                return events
    raise AssertionError(f"the stream ended before {text!r} was done")


def test_a_phone_command_runs_and_its_events_arrive_over_sse(phone):
    server, assistant, desktop = phone
    auth = {"Authorization": f"Bearer {server.token}"}
    with Stream.open(server.port, "/api/events", auth) as stream:
        assert stream.status == 200
        resp = request(server.port, "POST", "/api/command", body={"text": "open notepad"}, headers=auth)
        assert resp.status == 202 and resp.json()["status"] == "queued"
        events = command_events(stream, "open notepad")
    types = [e["type"] for e in events]
    for expected in ("COMMAND_RECEIVED", "PLAN_READY", "AGENT_SPAWNED", "AGENT_STARTED", "AGENT_DONE", "COMMAND_DONE"):
        assert expected in types, types
    spawned = next(e for e in events if e["type"] == "AGENT_SPAWNED")
    assert spawned["tool"] == "open_app" and spawned["params"] == {"name": "notepad"}
    assert [e["_id"] for e in events] == sorted(e["_id"] for e in events)  # SSE ids are the bus's seq
    assert events[-1]["data"]["status"] == "done"
    assert [a.kind for a in desktop.actions][:1] == ["launch"]


def test_an_authenticated_phone_command_still_meets_safety_check(phone):
    server, assistant, desktop = phone
    auth = {"Authorization": f"Bearer {server.token}"}
    text = "open a terminal and run rm -rf ~"
    with Stream.open(server.port, "/api/events", auth) as stream:
        assert request(server.port, "POST", "/api/command", body={"text": text}, headers=auth).status == 202
        events = command_events(stream, text)
    assert "SAFETY_REFUSED" in [e["type"] for e in events]
    assert not [e for e in events if e["type"].startswith("AGENT_")]
    assert events[-1]["data"]["status"] == "refused"
    assert [a.kind for a in desktop.actions if a.kind != "speak"] == []  # nothing touched the desktop


def test_replay_from_last_event_id_after_a_reconnect(phone):
    server, assistant, _ = phone
    auth = {"Authorization": f"Bearer {server.token}"}
    assistant.on_speech("what time is it", source="phone")
    ring = assistant.bus.recent(0)
    middle = ring[len(ring) // 2].seq
    with Stream.open(server.port, "/api/events", {**auth, "Last-Event-ID": str(middle)}) as stream:
        ids = []
        for event in stream.events():
            ids.append(event["_id"])
            if event["_id"] == ring[-1].seq:
                break
    assert ids == [e.seq for e in ring if e.seq > middle]


def test_state_shows_the_planner_agents_and_locks(phone):
    server, _, _ = phone
    info = request(server.port, "GET", "/api/state", headers={"Authorization": f"Bearer {server.token}"}).json()
    assert info["planner"] == "offline" and info["agents"] == [] and "kb_mouse" in str(info["locks"])
    assert info["pool"]["max_workers"] >= 1 and info["remote"]["paired_phones"] == 0


def test_the_real_screen_through_mss_under_xvfb(xvfb, tmp_path):
    from anovax.events import EventBus

    bus = EventBus()
    settings = Settings(memory_path=tmp_path / "m.json", log_path=None, remote_port=0, remote_bind="127.0.0.1",
                        remote_width=640)
    server = RemoteServer(settings, bus, lambda text, source="": None, frames=MssScreen(display=xvfb.display),
                          limits=TEST_LIMITS)
    server.start()
    try:
        with Stream.open(server.port, "/api/screen", {"Authorization": f"Bearer {server.token}"}) as stream:
            assert stream.status == 200
            jpeg = next(stream.jpegs())
            image = Image.open(io.BytesIO(jpeg))
            # 1280x800 scaled down to the configured 640 px width
            assert image.format == "JPEG" and image.size == (640, 400)
            assert server.viewers == 1
        wait_for(lambda: server.viewers == 0, what="viewer gone")
        assert server._ctx.screen.error is None
    finally:
        server.stop()
        bus.close()


def test_a_phone_stop_ends_the_running_command_at_once(tmp_path):
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None, remote_port=0,
                        remote_bind="127.0.0.1")
    desktop = SimulatedDesktop(delays={"type": 30.0})  # typing that would take half a minute
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=desktop)
    server = RemoteServer(settings, assistant.bus, assistant.submit, state=assistant_state(assistant),
                          limits=TEST_LIMITS)
    server.start()
    try:
        auth = {"Authorization": f"Bearer {server.token}"}
        with Stream.open(server.port, "/api/events", auth) as stream:
            assert request(server.port, "POST", "/api/command", body={"text": "type hello world"},
                           headers=auth).status == 202
            # the typing agent at work (under load "busy" came while it was still planning, and a stop
            # then ended the command before any agent, which is right but not this test's case)
            wait_for(lambda: any(e.type is EventType.AGENT_STARTED for e in assistant.bus.recent(0)), 30.0,
                     "the typing agent to start")
            stop = request(server.port, "POST", "/api/command", body={"text": "Stop"}, headers=auth)
            assert stop.status == 200 and stop.json()["message"] == "Stopping."
            events = command_events(stream, "type hello world")
        assert events[-1]["data"]["status"] == "stopped"
        failed = [e for e in events if e["type"] == "AGENT_FAILED"]
        assert failed and failed[0]["data"]["code"] == "stopped"
    finally:
        server.stop()
        assistant.close()
