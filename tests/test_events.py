"""The event bus, the JSONL log and the registry-derived agent map."""

from __future__ import annotations

import io
import json

import pytest
from helpers import wait_for

from anovax.agents import ChildAgent, TypingAgent
from anovax.eventlog import JsonLines, JsonlLog
from anovax.events import Event, EventBus, EventType
from anovax.tools import TOOLS, ToolSpec


def test_events_are_numbered_kept_in_a_ring_and_replayable():
    bus = EventBus(ring_size=5)
    for i in range(8):
        bus.emit(EventType.AGENT_STARTED, "c1", agent_id=f"a{i}")
    recent = bus.recent()
    assert [e.seq for e in recent] == [4, 5, 6, 7, 8]
    assert [e.agent_id for e in bus.recent(after_seq=6)] == ["a6", "a7"]
    bus.close()


def test_event_serialises_to_plain_json():
    event = Event(EventType.AGENT_FAILED, "c1", ts=1.5, agent_id="c1.1", tool="open_app", params={"name": "x"},
                  error="nope", data={"code": "tool_failed"}, seq=3)
    assert json.loads(json.dumps(event.to_dict())) == {
        "seq": 3, "type": "AGENT_FAILED", "ts": 1.5, "command_id": "c1", "agent_id": "c1.1", "tool": "open_app",
        "params": {"name": "x"}, "error": "nope", "data": {"code": "tool_failed"}}


def test_every_subscriber_gets_every_event_in_order():
    bus = EventBus()
    a, b = [], []
    bus.subscribe("a", a.append)
    bus.subscribe("b", b.append)
    for i in range(100):
        bus.emit(EventType.AGENT_DONE, "c1", agent_id=str(i))
    assert bus.flush()
    assert [e.seq for e in a] == [e.seq for e in b] == list(range(1, 101))
    bus.close()


def test_jsonl_log_rotates_by_size(tmp_path):
    path = tmp_path / "state" / "events.jsonl"
    log = JsonlLog(path, max_bytes=2000, backups=2)
    for i in range(100):
        log(Event(EventType.AGENT_DONE, "c1", agent_id=f"agent-{i}", seq=i))
    log.close()
    files = sorted(p.name for p in path.parent.iterdir())
    assert files == ["events.jsonl", "events.jsonl.1", "events.jsonl.2"]
    for p in path.parent.iterdir():
        assert p.stat().st_size <= 2200
        for line in p.read_text().splitlines():
            assert json.loads(line)["type"] == "AGENT_DONE"


def test_json_lines_subscriber_writes_one_object_per_line():
    out = io.StringIO()
    bus = EventBus()
    bus.subscribe("stdout", JsonLines(out))
    bus.emit(EventType.COMMAND_RECEIVED, "c1", data={"text": "hi"})
    bus.emit(EventType.COMMAND_DONE, "c1")
    wait_for(lambda: out.getvalue().count("\n") == 2, what="two lines")
    assert [json.loads(line)["type"] for line in out.getvalue().splitlines()] == ["COMMAND_RECEIVED", "COMMAND_DONE"]
    bus.close()


def test_dispatch_map_is_derived_from_the_registry():
    assert all(issubclass(spec.agent, ChildAgent) for spec in TOOLS)
    assert TOOLS["press_keys"].agent is TOOLS["type_text"].agent is TypingAgent
    with pytest.raises(TypeError, match="ChildAgent"):
        ToolSpec(name="set_volume", description="x", agent="VolumeAgent")
