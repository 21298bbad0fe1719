"""What ``GET /api/state`` reports about the assistant: planner, listening state, agents, pool and locks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from anovax.events import EventType
from anovax.port import AssistantPort

_VOICE_STATE = getattr(EventType, "VOICE_STATE", None)


def assistant_state(assistant: AssistantPort) -> Callable[[], dict[str, Any]]:
    """A ``state()`` callable for RemoteServer, reading the Assistant each time it is asked."""

    def state() -> dict[str, Any]:
        stats = assistant.state()
        listening = None
        if _VOICE_STATE is not None:
            # the newest voice event in the ring says whether the microphone listens, sleeps or is off
            for event in reversed(assistant.bus.recent(0)):
                if event.type == _VOICE_STATE:
                    listening = dict(event.data or {})
                    break
        return {
            "planner": stats["planner"],
            "listening": listening,
            "agents": stats.get("agents", []),
            "pool": stats.get("pool", {"max_workers": None}),
            "locks": stats.get("locks", {}),
        }

    return state
