"""What one clause amounts to (a Piece), what a request carries between clauses, and the
constructors for the two pieces every stage builds: a web search and "not understood".

Dependency-light on purpose: the handlers, the cues and the assembler all speak in Pieces.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
import threading
from dataclasses import dataclass, field

from anovax.plan import Step
from anovax.planner import lexicon as lx
from anovax.planner.text import query


@dataclass
class Piece:
    """The outcome of one clause."""

    #: act (desktop action), info (read-only), answer (its steps' agents say the whole reply, as a
    #: recalled fact), chat (no steps), decline (out of scope), refuse (unsafe: the whole request
    #: gets zero steps), unknown (not understood)
    kind: str
    say: str
    steps: list[Step] = field(default_factory=list)
    #: the app this clause opened (later "type ... in it" clauses go there)
    app: str | None = None
    #: set on "open <music service>" and "open youtube", which a following play clause replaces
    media_opener: str | None = None
    #: the clause as the user said it (a plan over LIMITS.max_steps hands the rest on as a sub-goal)
    clause: str = ""
    #: the topic cues' last resort (a question searched as it stands): the fuzzy matcher may do better
    guess: bool = False
    #: read by the fuzzy matcher, not a template (a split into parts the templates read wins)
    fuzzy: bool = False
    #: a decline about a web address (it cannot be opened, or its address is unknown): "visit …"
    #: keeps it, where any other decline means the words named no site
    about_site: bool = False


#: how a told joke's reply begins
JOKE_LEAD = "Here's one: "


class Jokes:
    """The planner's joke rotation: each call tells the next joke (thread-safe)."""

    def __init__(self) -> None:
        self._count = itertools.count()
        self._lock = threading.Lock()

    def tell(self) -> Piece:
        with self._lock:
            n = next(self._count)
        return Piece("chat", JOKE_LEAD + lx.JOKES[n % len(lx.JOKES)])


@dataclass
class RequestState:
    """What the clauses of one request share."""

    #: the app typing goes to: the session's, then whatever this request opened last
    current_app: str | None
    #: the planner's rotation, so "tell me a joke" twice gives two jokes
    jokes: Jokes
    #: the names of the remembered facts (from the planner context): "what is my address" is
    #: a fact to recall when one is stored under that name, else a question the cues decline
    facts: tuple[str, ...] = ()
    #: can this computer open an app by this name? (None: any name that looks like an app)
    app_exists: Callable[[str], bool] | None = None


def unknown() -> Piece:
    """A clause the planner could not read (the assembler says so once for the whole request)."""
    return Piece("unknown", "")


def web(q: str, say: str) -> Piece:
    """A web search for ``q`` (cut to a query), or unknown if nothing is left to search for."""
    q = query(q)
    if not q:
        return unknown()
    return Piece("info", say, [Step("web_search", {"query": q})])
