"""Who may use the phone remote: pairing, tokens, sessions, stream tickets, bans, Host and Origin checks.

Credentials, all compared with ``hmac.compare_digest``:

* the **token** (random per start, or ``ANOVAX_REMOTE_TOKEN``) in ``Authorization: Bearer``
  only, never in a URL: for scripts;
* a **session** in an ``HttpOnly; SameSite=Strict`` cookie, handed out once per **pairing
  code**; the code travels in the QR link and is spent by its first use;
* a **stream ticket** (single use, 60 s, one path) in ``?ticket=`` for clients that can
  neither set headers nor keep cookies on an ``EventSource`` or ``<img>``.

Bans stop guessing, not owners. Only a *wrong* token, stream ticket or pairing code counts
against the peer's IP address (never a forwarded-for header); a missing one never does (a web
page's ``<img>`` tags, the phone's own unpaired page), nor does a session cookie this process does
not know (the paired phone after a restart: 256 random bits are not guessed). Past the threshold
the address is banned until the ban expires or the desktop lifts it (the orb's "Unban phones",
the console's ``:unban``); a request that carries a valid credential is still served from a
banned address, so a hostile page on the phone's network cannot lock the phone out. Bans are
kept in the state folder (bans.py) and survive a restart.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum

from anovax.remote.bans import BanStore, StoredBan

#: longer credentials are rejected before any comparison (and a header that long is an attack)
MAX_CREDENTIAL_CHARS = 256


@dataclass(frozen=True)
class AuthPolicy:
    """Thresholds of the guard; seconds throughout."""

    #: wrong or missing credentials from one address within ``failure_window_s`` before a ban
    max_failures: int = 10
    failure_window_s: float = 600.0
    ban_s: float = 3600.0
    #: a pairing code shown on the desktop is good for this long, and for one use
    pairing_ttl_s: float = 600.0
    ticket_ttl_s: float = 60.0
    #: paired phones kept at once; the oldest is forgotten first
    max_sessions: int = 8
    #: addresses with failures remembered at once (a flood of spoofed sources cannot grow memory)
    max_tracked: int = 4096


@dataclass(frozen=True)
class Ban:
    """A locked-out address: ``remaining_s`` until it may try again on its own."""

    ip: str
    failures: int
    remaining_s: float


class Via(Enum):
    """How a request proved itself."""

    TOKEN = "token"
    SESSION = "session"
    TICKET = "ticket"


@dataclass(frozen=True)
class Identity:
    """A request that passed: how, and under which credential generation (revocation ends streams)."""

    via: Via
    generation: int


def _same(secret: str, offered: str | None) -> bool:
    if not offered or len(offered) > MAX_CREDENTIAL_CHARS:
        return False
    return hmac.compare_digest(secret.encode(), offered.encode("utf-8", "replace"))


class Guard:
    """Holds every credential and counter; thread-safe (request threads share it)."""

    def __init__(self, token: str | None = None, policy: AuthPolicy | None = None,
                 clock: Callable[[], float] = time.monotonic, *, store: BanStore | None = None,
                 wall: Callable[[], float] = time.time) -> None:
        self.policy = policy or AuthPolicy()
        self._clock = clock
        self._wall = wall
        self._store = store
        self._save_lock = threading.Lock()
        self._fixed = bool(token)
        self._token = token or secrets.token_urlsafe(32)
        self._lock = threading.Lock()
        self._generation = 0
        self._sessions: dict[str, float] = {}  # session → paired at (insertion order = age)
        self._pairing: tuple[str, float] | None = None  # code, expires at
        self._tickets: dict[str, tuple[str, float]] = {}  # ticket → path, expires at
        self._failures: dict[str, deque[float]] = {}
        self._bans: dict[str, tuple[float, int]] = {}  # ip → until, failures
        if store is not None:
            now, wall_now = clock(), wall()
            for ban in store.load():
                if ban.until > wall_now:
                    self._bans[ban.ip] = (now + min(ban.until - wall_now, self.policy.ban_s), ban.failures)

    # -- credentials ----------------------------------------------------------------------

    @property
    def token(self) -> str:
        with self._lock:
            return self._token

    @property
    def generation(self) -> int:
        with self._lock:
            return self._generation

    @property
    def sessions(self) -> int:
        with self._lock:
            return len(self._sessions)

    def pairing_code(self) -> str:
        """The current one-time code, or a fresh one when it was used or has expired."""
        with self._lock:
            if self._pairing is None or self._pairing[1] <= self._clock():
                self._pairing = (secrets.token_urlsafe(16), self._clock() + self.policy.pairing_ttl_s)
            return self._pairing[0]

    def new_pairing(self) -> str:
        with self._lock:
            self._pairing = None
        return self.pairing_code()

    def pair(self, code: str | None) -> str | None:
        """Spend the pairing code: a new session for the cookie, or None (the caller counts a failure)."""
        with self._lock:
            current = self._pairing
            if current is None or current[1] <= self._clock() or not _same(current[0], code):
                return None
            self._pairing = None  # one use: a photo of the QR code is worthless afterwards
            session = secrets.token_urlsafe(32)
            self._sessions[session] = self._clock()
            while len(self._sessions) > self.policy.max_sessions:
                del self._sessions[next(iter(self._sessions))]
            return session

    def forget(self, session: str | None) -> None:
        with self._lock:
            for known in list(self._sessions):
                if _same(known, session):
                    del self._sessions[known]

    def knows(self, session: str | None) -> bool:
        """Whether ``session`` is still paired (an unpaired or evicted phone's stream ends)."""
        with self._lock:
            return session is not None and any([_same(known, session) for known in self._sessions])

    def issue_ticket(self, path: str) -> str:
        ticket = secrets.token_urlsafe(24)
        with self._lock:
            now = self._clock()
            self._tickets = {t: v for t, v in self._tickets.items() if v[1] > now}
            self._tickets[ticket] = (path, now + self.policy.ticket_ttl_s)
        return ticket

    def revoke_all(self) -> None:
        """"Forget phones": every session and ticket ends, a random token is replaced, open streams close."""
        with self._lock:
            self._sessions.clear()
            self._tickets.clear()
            self._pairing = None
            if not self._fixed:
                self._token = secrets.token_urlsafe(32)
            self._generation += 1

    def authenticate(self, *, bearer: str | None, session: str | None, ticket: str | None,
                     path: str) -> Identity | None:
        """The identity the credentials prove, or None; tickets are spent here."""
        with self._lock:
            generation = self._generation
            if _same(self._token, bearer):
                return Identity(Via.TOKEN, generation)
            # every stored session is compared, so the time taken does not say which matched
            if session is not None and any([_same(known, session) for known in self._sessions]):
                return Identity(Via.SESSION, generation)
            if ticket is not None:
                now = self._clock()
                for known, (ticket_path, expires) in list(self._tickets.items()):
                    if _same(known, ticket):
                        del self._tickets[known]
                        if expires > now and ticket_path == path:
                            return Identity(Via.TICKET, generation)
            return None

    # -- failures and bans ----------------------------------------------------------------

    def banned(self, ip: str) -> bool:
        with self._lock:
            ban = self._bans.get(ip)
            if ban is None:
                return False
            if ban[0] <= self._clock():
                del self._bans[ip]
                return False
            return True

    def fail(self, ip: str) -> Ban | None:
        """Count one failed attempt; the Ban when this one crossed the threshold."""
        with self._lock:
            now = self._clock()
            window = self._failures.get(ip)
            if window is None:
                if len(self._failures) >= self.policy.max_tracked:
                    self._prune(now)
                window = self._failures.setdefault(ip, deque())
            window.append(now)
            while window and window[0] <= now - self.policy.failure_window_s:
                window.popleft()
            if len(window) < self.policy.max_failures or ip in self._bans:
                return None
            count = len(window)
            del self._failures[ip]
            self._bans[ip] = (now + self.policy.ban_s, count)
        self._persist()
        return Ban(ip, count, self.policy.ban_s)

    def failures(self, ip: str) -> int:
        """Failed attempts from ``ip`` still inside the window (0 once banned: the ban holds the count)."""
        with self._lock:
            horizon = self._clock() - self.policy.failure_window_s
            return sum(1 for t in self._failures.get(ip, ()) if t > horizon)

    def bans(self) -> list[Ban]:
        with self._lock:
            now = self._clock()
            return [Ban(ip, n, round(until - now, 1)) for ip, (until, n) in sorted(self._bans.items())
                    if until > now]

    def unban(self, ip: str | None = None) -> int:
        """Lift the ban on ``ip`` (all bans when None); how many were lifted."""
        with self._lock:
            targets = list(self._bans) if ip is None else [ip] if ip in self._bans else []
            for target in targets:
                del self._bans[target]
                self._failures.pop(target, None)
        if targets:
            self._persist()
        return len(targets)

    def _persist(self) -> None:
        """Write the current bans (wall-clock ends) to the store; the save lock keeps writes in order."""
        if self._store is None:
            return
        with self._save_lock:
            with self._lock:
                now, wall_now = self._clock(), self._wall()
                bans = [StoredBan(ip, wall_now + (until - now), n) for ip, (until, n) in self._bans.items()
                        if until > now]
            self._store.save(bans)

    def _prune(self, now: float) -> None:
        horizon = now - self.policy.failure_window_s
        for ip in [ip for ip, w in self._failures.items() if not w or w[-1] <= horizon]:
            del self._failures[ip]
        while len(self._failures) >= self.policy.max_tracked:
            del self._failures[next(iter(self._failures))]


# -- where requests may come from ----------------------------------------------------------


def allowed_hosts(names: Iterable[str], port: int) -> frozenset[str]:
    """``Host`` header values to accept: each name with the port (and bare on port 80), lower case."""
    out: set[str] = set()
    for name in names:
        name = name.strip().lower()
        if not name:
            continue
        if ":" in name and not name.startswith("["):
            name = f"[{name}]"  # an IPv6 literal
        out.add(f"{name}:{port}")
        if port == 80:
            out.add(name)
    return frozenset(out)


def host_ok(host: str | None, hosts: frozenset[str]) -> bool:
    """DNS rebinding guard: the request must name this server, even on loopback."""
    return bool(host) and host.strip().lower() in hosts


def origin_ok(origin: str | None, fetch_site: str | None, hosts: frozenset[str]) -> bool:
    """CSRF guard: refuse anything a browser says came from another site (or another port)."""
    if fetch_site is not None and fetch_site.strip().lower() not in ("same-origin", "none"):
        return False
    if origin is None:
        return True  # not a browser's cross-origin request (curl, scripts); credentials still needed
    origin = origin.strip().lower()
    return origin.startswith("http://") and origin[len("http://"):] in hosts
