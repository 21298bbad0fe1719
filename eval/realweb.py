"""The web side of the real-app suite: a loopback page server whose search and video pages'
titles hold the query (so a browser window's title shows which search it shows), and the
browser command AnovaX is given: real Chromium through a small wrapper.

The wrapper exists only for the suite: as root Chromium refuses to start without
``--no-sandbox`` (the product never passes it), and each run gets a fresh profile, else a second
Chromium hands its URL to the first one. The wrapper is named ``chromium`` so that Python's
``webbrowser`` treats it as the Chromium it is (a background browser with remote calls).
"""

from __future__ import annotations

import html
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

#: the pages that answer a query, and what their titles say: "AnovaX test <page>: <query>"
PAGES = ("search", "video")
CHROMIUM = "/usr/bin/chromium"


def page_title(page: str, query: str) -> str:
    return f"AnovaX test {page}: {query}"


class PageServer:
    """``/search?q=...`` and ``/video?q=...`` answer a page titled with the query; every query
    asked is kept, as "<page>: <query>"."""

    def __init__(self) -> None:
        queries = self.queries = []  # type: list[str]

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                url = urlsplit(self.path)
                page, query = url.path.strip("/"), parse_qs(url.query).get("q", [""])[0]
                if page in PAGES:
                    queries.append(f"{page}: {query}")
                title = html.escape(page_title(page, query) if page in PAGES else "AnovaX test page")
                body = f"<!doctype html><title>{title}</title><h1>{title}</h1>".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_args: object) -> None:  # quiet: the suite prints its own lines
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, name="page-server", daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


def browser_wrapper(folder: Path, profile: Path, pids: Path) -> Path:
    """Write ``folder/chromium``: real Chromium with ``profile`` as its profile, each pid it
    started appended to ``pids`` (so the run can end it), ``--no-sandbox`` only when root."""
    folder.mkdir(parents=True, exist_ok=True)
    flags = ["--no-first-run", "--no-default-browser-check", "--disable-gpu", "--password-store=basic",
             f"--user-data-dir={profile}"]
    if os.geteuid() == 0:
        flags.insert(0, "--no-sandbox")
    script = folder / "chromium"
    # exec: the pid written is Chromium's own; its output (pages of D-Bus noise without a
    # session bus) goes to a file next to the pids
    script.write_text("#!/bin/sh\n"
                      f'echo $$ >> "{pids}"\n'
                      f'exec {CHROMIUM} {" ".join(flags)} "$@" >> "{pids}.log" 2>&1\n', encoding="utf-8")
    script.chmod(0o755)
    return script


def started_pids(pids: Path) -> list[int]:
    try:
        return [int(line) for line in pids.read_text(encoding="utf-8").split() if line.isdigit()]
    except FileNotFoundError:
        return []
