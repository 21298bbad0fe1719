"""The port to a language model: one call that returns JSON text.

Both the planner (one plan per command) and the recovery loop (one ReAct turn
at a time) talk to a model through this interface, so Gemini, a local Ollama
model and the tests' scripted model are interchangeable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class JsonModel(Protocol):
    """A model that answers a system prompt and a user prompt with JSON text matching ``schema``.

    Raises ``anovax.errors.PlannerUnavailable`` for network, quota, timeout and server
    faults (after at most the adapter's own bounded retry); returns the raw text otherwise,
    which the caller parses strictly.
    """

    #: shown in logs and the UI, e.g. "gemini:gemini-2.5-flash"
    name: str

    def generate_json(self, system: str, prompt: str, schema: Mapping[str, Any], *, timeout_s: float) -> str: ...
