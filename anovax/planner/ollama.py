"""A local model through Ollama: the same prompts, schema, safety and fallback, no word leaves the machine.

Uses the official ``ollama`` client (``POST /api/chat`` with ``format`` set to
the JSON schema). Faults become ``PlannerUnavailable`` so the planner falls back
to the offline planner exactly as it does for Gemini.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from anovax.errors import PlannerUnavailable

DEFAULT_HOST = "http://127.0.0.1:11434"


class OllamaModel:
    """``JsonModel`` over a local Ollama server."""

    def __init__(self, model: str, *, host: str = DEFAULT_HOST, timeout_s: float = 30.0) -> None:
        self.name = f"ollama:{model}"
        self._model = model
        self._host = host
        self._timeout_s = timeout_s
        self._client: Any = None

    def _get_client(self) -> Any:
        if self._client is None:
            try:
                import ollama
            except ImportError as exc:
                raise PlannerUnavailable("The ollama client is not installed.", code="client_missing") from exc
            self._client = ollama.Client(host=self._host, timeout=self._timeout_s)
        return self._client

    def generate_json(self, system: str, prompt: str, schema: Mapping[str, Any], *, timeout_s: float) -> str:
        import httpx
        import ollama

        client = self._get_client()
        try:
            reply = client.chat(
                model=self._model,
                messages=[{"role": "system", "content": system}, {"role": "user", "content": prompt}],
                format=json.loads(json.dumps(schema)),
                options={"temperature": 0},
                stream=False,
            )
        except ollama.ResponseError as exc:
            code = "rate_limited" if exc.status_code == 429 else (
                "server_error" if exc.status_code >= 500 else "client_error")
            raise PlannerUnavailable(f"The local model answered with an error ({exc.status_code}).", code=code) from exc
        except httpx.TimeoutException as exc:
            raise PlannerUnavailable("The local model took too long to answer.", code="timeout") from exc
        except (ConnectionError, httpx.TransportError) as exc:
            raise PlannerUnavailable(f"Ollama is not reachable at {self._host}.", code="connection") from exc
        text = (reply.message.content or "").strip() if reply.message else ""
        if not text:
            raise PlannerUnavailable("The local model returned an empty answer.", code="empty")
        return text
