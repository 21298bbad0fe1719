"""What a request to the phone remote may look like, and how the server itself refuses one.

The numbers the server enforces (``ServerLimits``, filled from server.py's ``Limits``), its
counters (``ServerStats``), waitress's request parser with caps on the request line, the number
of header lines and the size of a declared chunk, and the server's own error pages: JSON like
the app's, with the app's security headers, followed by a lingering close (wsgi.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from waitress.parser import HTTPRequestParser, ParsingError, TransferEncodingNotImplemented
from waitress.task import ErrorTask
from waitress.utilities import Error, RequestEntityTooLarge, RequestHeaderFieldsTooLarge

#: more header lines than this is an attack (Python's http.server refuses 100 too)
MAX_HEADER_LINES = 100
MAX_REQUEST_LINE = 8 * 1024
MAX_HEADER_BYTES = 32 * 1024
#: a Content-Length longer than this is no body a phone sends: 400, before waitress's int() meets
#: Python's 4300-digit limit (a ValueError waitress does not catch: no answer, a console traceback)
MAX_LENGTH_DIGITS = 18


@dataclass(frozen=True)
class ServerLimits:
    """What the server enforces itself; ``Limits`` in server.py is where the numbers are set."""

    threads: int
    max_body_bytes: int
    header_timeout_s: float
    min_upload_bytes_per_s: int
    read_timeout_s: float
    max_connections: int
    max_connections_per_ip: int
    linger_s: float
    linger_bytes: int
    #: requests a connection may send before reading the answers to earlier ones; past it the
    #: connection is answered so far, then closed (browsers do not pipeline at all)
    max_pipelined: int = 8

    def body_deadline_s(self, length: int | None) -> float:
        """How long a body may take once the headers are in: slower than this is not a phone."""
        size = min(length or self.max_body_bytes, self.max_body_bytes)  # never more time than the cap's
        return self.header_timeout_s + size / max(1, self.min_upload_bytes_per_s)


@dataclass
class ServerStats:
    """Counters since start, written only by the event loop (read them for tests and the bench)."""

    accepted: int = 0
    refused: int = 0
    evicted: int = 0
    expired: int = 0
    #: request bytes taken from sockets, and bytes only drained while lingering before a close
    bytes_read: int = 0
    bytes_drained: int = 0


class UriTooLong(Error):
    code = 414
    reason = "URI Too Long"


def json_error(headers: Iterable[tuple[str, str]], message: str) -> tuple[bytes, list[tuple[str, str]]]:
    body = json.dumps({"error": message}).encode()
    return body, [("Content-Type", "application/json"), *headers]


class RequestParser(HTTPRequestParser):
    """waitress's parser with caps on the request line and the number of header lines."""

    _checked = False

    def parse_header(self, header_plus: bytes) -> None:
        """waitress's, with every malformed framing header a 400.

        A Content-Length that is not one plain decimal number (negative, ``+2``, ``0x10``,
        conflicting duplicates, thousands of digits) and a transfer coding other than ``chunked``
        (waitress: 501) are the client's fault; a 5xx would say the server failed."""
        raw = _header_value(header_plus, b"content-length")
        if raw is not None and len(raw) > MAX_LENGTH_DIGITS:
            raise ParsingError("Content-Length is invalid")
        try:
            super().parse_header(header_plus)
        except TransferEncodingNotImplemented as exc:
            raise ParsingError("Transfer-Encoding not supported") from exc
        except ValueError as exc:  # an int() past the digit limit, however the header got there
            raise ParsingError("Content-Length is invalid") from exc

    def received(self, data: bytes) -> int:
        consumed = super().received(data)
        body = self.body_rcv
        if (self.chunked and self.error is None and body is not None
                and len(body) + body.chunk_remainder >= self.adj.max_request_body_size):
            # a chunk declared larger than the cap is refused now, not after reading up to it
            self.error, self.completed = RequestEntityTooLarge("chunk over the body cap"), True
        if self.headers_finished and not self._checked and self.error is None and not self.empty:
            self._checked = True
            if len(getattr(self, "request_uri", "")) > MAX_REQUEST_LINE:
                self.error, self.completed = UriTooLong("request line too long"), True
            elif len(self.headers) > MAX_HEADER_LINES:
                self.error, self.completed = RequestHeaderFieldsTooLarge("too many header lines"), True
        return consumed


def _header_value(header_plus: bytes, name: bytes) -> bytes | None:
    """All values of header ``name`` joined (as waitress joins duplicates), None when absent."""
    values = [line.split(b":", 1)[1].strip(b" \t") for line in header_plus.split(b"\r\n")[1:]
              if b":" in line and line.split(b":", 1)[0].strip().lower() == name]
    return b", ".join(values) if values else None


class ErrorPage(ErrorTask):
    """The server's own answers, shaped like the app's: JSON, security headers, then a lingering close."""

    def execute(self) -> None:
        error = self.request.error
        self.status = f"{error.code} {error.reason}"
        body, headers = json_error(self.channel.server.extra_headers, error.reason.lower())
        self.response_headers.extend(headers)
        self.set_close_on_finish()
        self.channel.linger_on_close = True  # the client may still be sending what we refused
        self.content_length = len(body)
        self.write(body)
