"""A loopback fake Ollama server: ``POST /api/chat`` answered from a script; unused replies fail the test."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class OllamaReply:
    content: str = ""
    status: int = 200
    error: str = ""


@dataclass
class FakeOllama:
    replies: list[OllamaReply] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)

    def script(self, *replies: OllamaReply) -> FakeOllama:
        self.replies.extend(replies)
        return self

    def start(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path != "/api/chat" or not fake.replies:
                    fake.unexpected.append(self.path)
                    self._send(404, {"error": "unexpected request"})
                    return
                fake.requests.append(json.loads(body or b"{}"))
                reply = fake.replies.pop(0)
                if reply.status != 200:
                    self._send(reply.status, {"error": reply.error or "failed"})
                    return
                self._send(200, {"model": fake.requests[-1].get("model"), "created_at": "2026-11-29T00:00:00Z",
                                 "message": {"role": "assistant", "content": reply.content}, "done": True,
                                 "done_reason": "stop"})

            def _send(self, status: int, obj: Any) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-ollama", daemon=True)
        self._thread.start()

    @property
    def host(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        problems = [f"{len(self.replies)} scripted replies unused"] if self.replies else []
        problems += [f"unexpected request {p}" for p in self.unexpected]
        assert not problems, "; ".join(problems)


@pytest.fixture
def fake_ollama():
    fake = FakeOllama()
    fake.start()
    yield fake
    fake.close()
