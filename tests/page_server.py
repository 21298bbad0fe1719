"""A loopback page server for browser tests: ``/search?q=…`` and ``/video?q=…`` answer an HTML
page whose <title> holds the query, so a browser's window title shows which search it opened;
``/page/<name>`` is a site's page titled by its name (``title_for("Page", name)``)."""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


def title_for(kind: str, query: str) -> str:
    """The <title> a request gets: what a test looks for in the window title."""
    return f"{kind} results for {query}"


@dataclass
class PageServer:
    """A running server: ``search_url`` / ``video_url`` are templates for ANOVAX_SEARCH_URL/VIDEO_URL."""

    port: int
    #: (path, query) of every page served, in order
    served: list[tuple[str, str]] = field(default_factory=list)

    @property
    def search_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/search?q={{query}}"

    @property
    def video_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/video?q={{query}}"


@contextmanager
def page_server(same_title: str | None = None) -> Iterator[PageServer]:
    """``same_title``: every page gets this <title> (a browser with no network shows one error page
    title for every search)."""
    state = PageServer(0)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            parts = urlsplit(self.path)
            query = parse_qs(parts.query).get("q", [""])[0]
            if parts.path.startswith("/page/"):  # a site's own page (open_website): titled by its name
                query, kind = parts.path.removeprefix("/page/"), "Page"
            elif parts.path in ("/search", "/video"):
                kind = "Search" if parts.path == "/search" else "Video"
            else:
                self.send_error(404)
                return
            state.served.append((parts.path, query))
            title = same_title if same_title is not None else title_for(kind, query)
            body = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
                    f"</title></head><body><h1>{html.escape(query)}</h1></body></html>").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:  # quiet: pytest shows failures, not access logs
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, name="page-server", daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
