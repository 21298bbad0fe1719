"""Who gets past the front door of the phone remote, before any route runs.

Every request passes, in order: the debugger URLs (404), the Host allowlist (421), the
cross-site check on ``Origin``/``Sec-Fetch-Site`` (403, pages excepted), then the credentials.
A banned address without a valid credential gets 403: JSON for ``/api``, a short page saying
so for a browser. ``/api/*`` needs a credential (401); only a wrong token or ticket counts
towards a ban (auth.py says why). Writes must be ``application/json`` (415).
"""

from __future__ import annotations

from flask import Response, g, request

from anovax.remote.auth import Identity, host_ok, origin_ok
from anovax.remote.wsgi_task import TRUST_KEY
from anovax.remote.server import SESSION_COOKIE, STREAM_PATHS, RemoteContext, ctx, error


def gatekeeper() -> Response | None:
    c = ctx()
    if "__debugger__" in request.args:
        return error(404, "not found")
    if not host_ok(request.headers.get("Host"), c.hosts):
        return error(421, "misdirected request")
    ip = request.remote_addr or "?"  # the peer; X-Forwarded-For is never trusted
    page = request.method in ("GET", "HEAD") and (request.path == "/" or request.path.startswith("/static/"))
    if not page and not origin_ok(request.headers.get("Origin"), request.headers.get("Sec-Fetch-Site"), c.hosts):
        return error(403, "cross-site request refused")
    if request.path == "/pair":
        return None  # the pairing code is the credential: the route checks it, the ban and the count
    identity = _identify(c)
    api = request.path.startswith("/api/")
    if identity is None and c.guard.banned(ip):
        return locked_out(api)  # a valid credential is served even from here: bans stop guessers, not owners
    if not api:
        return None
    if identity is None:
        if _offered_wrong(c):  # a missing credential is never a failure (a page's <img>, an unpaired phone)
            count_failure(c, ip)
        response = error(401, "unauthorized", **{"WWW-Authenticate": 'Bearer realm="anovax"'})
        if request.cookies.get(SESSION_COOKIE) is not None:
            # a session from before a restart: forget it, so the phone's page asks to pair again
            response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="Strict")
        return response
    g.identity = identity
    trust = request.environ.get(TRUST_KEY)
    if callable(trust):
        trust()  # a paired phone's connection is not evicted to make room for others
    if request.routing_exception is not None:
        return None  # Flask answers it next: 404, or 405 with Allow
    if request.method not in ("GET", "HEAD") and request.mimetype != "application/json":
        return error(415, "send application/json")
    return None


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:].strip() if header[:7].lower() == "bearer " else None


def _ticket() -> str | None:
    return request.args.get("ticket") if request.method == "GET" and request.path in STREAM_PATHS else None


def _identify(c: RemoteContext) -> Identity | None:
    return c.guard.authenticate(bearer=_bearer(), session=request.cookies.get(SESSION_COOKIE), ticket=_ticket(),
                                path=request.path)


def _offered_wrong(c: RemoteContext) -> bool:
    """Whether the refused request offered a token or a ticket: a guess. A stale session cookie is
    not one (sessions end with the process; 256 random bits are not guessed)."""
    return bool(request.headers.get("Authorization", "").strip()) or bool(_ticket())


def count_failure(c: RemoteContext, ip: str) -> None:
    ban = c.guard.fail(ip)
    if ban is not None and c.on_ban is not None:
        c.on_ban(ip, ban.failures)


LOCKED_OUT_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>AnovaX remote: locked out</title></head>
<body><h1>Locked out</h1>
<p>Too many wrong pairing codes or tokens came from this address, so AnovaX stopped answering it for a while.</p>
<p>On the desktop, press <b>Unban phones</b> in the orb's phone panel or type <code>:unban</code> in the
console, then open a fresh pairing link.</p></body></html>
"""


def locked_out(api: bool) -> Response:
    """403 for a banned address without a valid credential: JSON for the API, a page a person can read otherwise."""
    if api:
        return error(403, "forbidden")
    return Response(LOCKED_OUT_PAGE, status=403, mimetype="text/html")
