"""Turn whatever the ``google-genai`` SDK raises into ``PlannerUnavailable`` with a stable ``code``.

Measured with google-genai 3.6.1 (HTTP through ``httpx2``):

    HTTP 4xx                  google.genai.errors.ClientError (code, details = JSON body, response)
    HTTP 5xx                  google.genai.errors.ServerError
    read/connect timeout      httpx2.ReadTimeout / ConnectTimeout   (httpx2.TimeoutException)
    connection refused        httpx2.ConnectError                    (httpx2.NetworkError)
    server hangs up           httpx2.RemoteProtocolError             (httpx2.TransportError)
    200 with a non-JSON body  json.JSONDecodeError

Older SDKs use ``httpx`` instead of ``httpx2``; both are recognised by class name and module,
so this module imports neither (importing it stays cheap).

Codes: ``timeout``, ``rate_limited``, ``server_error``, ``client_error``, ``connection``, ``empty``.
"""

from __future__ import annotations

import json
import re
import time
from email.utils import parsedate_to_datetime
from typing import Any

from anovax.errors import PlannerUnavailable

__all__ = ["CODES", "retry_delay_s", "to_unavailable"]

CODES = frozenset({"timeout", "rate_limited", "server_error", "client_error", "connection", "empty"})

_HTTP_MODULES = ("httpx2", "httpx")
_DURATION = re.compile(r"^\s*(\d+(?:\.\d*)?)s\s*$")


def _http_exception_kind(exc: BaseException) -> str | None:
    """'timeout' or 'connection' for an httpx/httpx2 transport error, else None."""
    for cls in type(exc).__mro__:
        module = cls.__module__.split(".", 1)[0]
        if module not in _HTTP_MODULES:
            continue
        if cls.__name__ == "TimeoutException":
            return "timeout"
        if cls.__name__ in ("TransportError", "NetworkError", "ConnectError", "RemoteProtocolError"):
            return "connection"
    return None


def _api_error_code(exc: BaseException) -> int | None:
    """The HTTP status of a google.genai.errors.APIError, else None (no import of the SDK)."""
    for cls in type(exc).__mro__:
        if cls.__name__ == "APIError" and cls.__module__.startswith("google.genai"):
            code = getattr(exc, "code", None)
            return code if isinstance(code, int) else 0
    return None


def _short(text: Any, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def to_unavailable(exc: BaseException) -> PlannerUnavailable:
    """The PlannerUnavailable to raise for ``exc`` (short message, machine ``code``)."""
    if isinstance(exc, PlannerUnavailable):
        return exc
    status = _api_error_code(exc)
    if status is not None:
        message = _short(getattr(exc, "message", None) or getattr(exc, "status", None) or "")
        if status == 429:
            return PlannerUnavailable(f"Gemini rate limit reached (HTTP 429). {message}".strip(), code="rate_limited")
        if status in (408, 504):
            return PlannerUnavailable(f"Gemini timed out (HTTP {status}).", code="timeout")
        if 400 <= status < 500:
            return PlannerUnavailable(f"Gemini refused the request (HTTP {status}). {message}".strip(),
                                      code="client_error")
        return PlannerUnavailable(f"Gemini server error (HTTP {status}). {message}".strip(), code="server_error")
    kind = _http_exception_kind(exc)
    if kind == "timeout":
        return PlannerUnavailable(f"Gemini did not answer in time ({type(exc).__name__}).", code="timeout")
    if kind == "connection":
        return PlannerUnavailable(f"Could not reach Gemini ({type(exc).__name__}: {_short(exc, 80)}).",
                                  code="connection")
    if isinstance(exc, TimeoutError):
        return PlannerUnavailable("Gemini did not answer in time.", code="timeout")
    if isinstance(exc, (ConnectionError, OSError)):
        return PlannerUnavailable(f"Could not reach Gemini ({type(exc).__name__}).", code="connection")
    if isinstance(exc, (json.JSONDecodeError, UnicodeDecodeError)):
        return PlannerUnavailable("Gemini sent a response that is not JSON.", code="server_error")
    if exc.__class__.__name__ == "ValidationError":  # pydantic: a JSON body of the wrong shape
        return PlannerUnavailable("Gemini sent a response of an unexpected shape.", code="server_error")
    # our own side: a bad argument, an SDK misuse, a closed client
    return PlannerUnavailable(f"The Gemini client failed ({type(exc).__name__}: {_short(exc, 80)}).",
                              code="client_error")


def _parse_retry_after(value: str) -> float | None:
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:  # an HTTP date
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def retry_delay_s(exc: BaseException) -> float | None:
    """The wait the server asked for on a 429: the larger of the ``Retry-After`` header and
    ``google.rpc.RetryInfo.retryDelay`` in the error body; None when it gave neither."""
    delays: list[float] = []
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is not None:
        try:
            header = headers.get("retry-after")
        except Exception:  # noqa: BLE001 - a replay/aiohttp response with odd headers
            header = None
        if header:
            parsed = _parse_retry_after(str(header))
            if parsed is not None:
                delays.append(parsed)
    details = getattr(exc, "details", None)
    if isinstance(details, dict):
        error = details.get("error", details)
        items = error.get("details") if isinstance(error, dict) else None
        for item in items if isinstance(items, list) else ():
            if isinstance(item, dict) and str(item.get("@type", "")).endswith("google.rpc.RetryInfo"):
                match = _DURATION.match(str(item.get("retryDelay", "")))
                if match:
                    delays.append(float(match.group(1)))
    return max(delays) if delays else None
