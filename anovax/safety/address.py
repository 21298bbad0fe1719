"""Web addresses a plan opens (``Sink.ADDRESS``, ``open_website``): default-deny on what was said.

An address is a door to anywhere, and every part of it can carry data out: the path and query
("example.com/?q=<a remembered fact>"), the letter case of the path, even the host
("<fact>.attacker.example" reaches the attacker's name server). So an address opens unasked only
when no plan chose any of it:

- it is a known site (``anovax.sites.KNOWN``: "open wikipedia"): its name, its fixed address, or
  its front page over https ("youtube.com"), or
- the person's request holds the same address as one of its words, typed or spoken ("open
  example.com slash docs", "wikipedia dot org", "bücher.de" for its punycode): the same host (a
  leading "www." aside), port and path, its letter case and percent-encoding included (one
  trailing slash aside). A scheme the request typed must match; otherwise only https, or http to
  localhost or an IP address. Words are compared whole, so "evil.com#example.com" names evil.com,
  and nothing is folded (accents, "ß", look-alikes): "bücher.de" never names bucher.de.

Anything else is asked about, showing the whole address the browser gets ("Open news.example/today
in the browser? You didn't name that address.", "http://" shown when it is not https). Refused
instead: a host in other letters (a look-alike the request did not hold), one carrying a
remembered fact, one too long to show in a question, and any in a recovery turn, in a plan that
also stores facts or beside a second such address. A sub-plan's goal is a model's words, so every
address there that is not a known site's is asked about. In the browser's address bar a plain
address still opens as before (``gui.py``), but one carrying a remembered fact is refused there too
(``carries_fact``).

The content rules come first (``issue``): an address ``sites.parse`` refuses (not http(s), a user
name before the host, spaces, an IPv6 zone...) is refused, and so is one holding a secret or a
dangerous scheme anywhere in it, also once its query is decoded and its host read in capitals.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus, urlsplit

from anovax import sites
from anovax.plan import Plan
from anovax.safety import web
from anovax.safety.context import Context
from anovax.safety.scan import Issue, secret_issue
from anovax.safety.verdict import Rule, Verdict
from anovax.toolspec import Sink

_UNNAMED_REASON = "I won't open a web address you didn't name."
_LONG_REASON = "I won't open a long web address you didn't name."
_FACT_REASON = "I won't send what I remember about you to a web address you didn't name."
_LOOKALIKE_REASON = "I won't open that web address: it has letters outside plain ASCII in its host."
#: the longest address a question shows whole (a question is one short sentence)
SHOWN_MAX = 100
#: fact words too short or too common to say a fact was sent
_FACT_WORD = re.compile(r"[^\W_]{4,}")


def issue(value: str) -> Issue | None:
    """Problems in the address itself, whoever asked for it."""
    address = sites.resolve(value)
    if isinstance(address, str):
        rule = (Rule.URL_SCHEME if "http" in address else Rule.CONFUSABLE if "ASCII" in address
                else Rule.BAD_PARAMS)
        return Issue(rule, f"I won't open that web address: it {address}.", detail=f"address {address}")
    if web.scheme_problem(address.rest, query=True) or web.unc_problem(value):
        return Issue(Rule.URL_SCHEME, detail="a dangerous scheme inside the address")
    # a card in "?c=4111+1111+…", a key id in a host read as lower case ("akia….evil.example")
    for text in dict.fromkeys((value, unquote_plus(value), " ".join(address.host.upper().split(".")))):
        found = secret_issue(text)
        if found:
            return found
    return None


def _said(text: str) -> list[tuple[sites.Address, bool]]:
    """Every word of the request that is a web address, and whether it was typed with a scheme."""
    found = []
    for word in sites.spoken(text).split():
        word = sites.unwrap(word)
        if "." not in word and ":" not in word:
            continue
        address = sites.parse(word, idna=True)
        if isinstance(address, sites.Address):
            found.append((address, bool(re.match(r"(?i)https?://", word))))
    return found


def named(address: sites.Address, text: str) -> bool:
    """Whether the request ``text`` holds ``address`` as one of its words (module docstring)."""
    for said, typed in _said(text):
        scheme_ok = said.scheme == address.scheme if typed else address.scheme == "https" or sites.local_host(address.host)
        if (scheme_ok and sites.bare_host(said.host) == sites.bare_host(address.host) and said.port == address.port
                and _path(said.rest) == _path(address.rest)):
            return True
    return False


def _path(rest: str) -> str:
    # exact, letter case and percent-encoding included: which letters a plan capitalises or
    # encodes would be bits it chose
    return rest[:-1] if rest.endswith("/") else rest


def carries_fact(address: sites.Address, ctx: Context) -> bool:
    """Whether a remembered fact's word is one of the address's words (host labels, path, query)."""
    words = {w.casefold() for w in _FACT_WORD.findall(unquote_plus(f"{address.host} {address.rest}"))}
    return any(w.casefold() in words for _key, value in ctx.memory for w in _FACT_WORD.findall(value))


def shown(address: sites.Address) -> str:
    """How a question shows the address: whole, with its scheme when it is not https."""
    return ("http://" if address.scheme == "http" else "") + (address.shown or address.netloc)


def unvouched(address: sites.Address, value: str, ctx: Context, step: int) -> Verdict | None:
    """None when the request (or the known sites) vouch for ``address``; else a refusal, or the
    question to ask (``Verdict.needs_yes``) where someone can be asked. ``value``: as written."""
    if sites.vouched(address) or (ctx.depth == 0 and named(address, ctx.user_text)):
        return None
    if not _host_of(value).isascii() and sites.known(value) is None:  # "еxample.com" the request did not hold
        return Verdict.refuse(Rule.CONFUSABLE, _LOOKALIKE_REASON, step=step, detail="open_website: look-alike host")
    if carries_fact(address, ctx):
        return Verdict.refuse(Rule.PERSONAL_DATA, _FACT_REASON, step=step, detail="web address: a remembered fact")
    if len(shown(address)) > SHOWN_MAX:
        return Verdict.refuse(Rule.UNASKED, _LONG_REASON, step=step, detail="web address: too long to ask")
    if ctx.recovering:
        return Verdict.refuse(Rule.UNASKED, _UNNAMED_REASON, step=step, detail="web address: recovery turn")
    return Verdict.confirm(Rule.UNASKED, f"Open {shown(address)} in the browser? You didn't name that address.",
                           step=step, target=address.host, action="open a web address you didn't name",
                           detail="web address the request does not hold")


def _host_of(value: str) -> str:
    try:
        return urlsplit(value if "://" in value else "https://" + value).hostname or ""
    except ValueError:
        return ""


def check(plan: Plan, ctx: Context) -> Verdict | None:
    held: Verdict | None = None
    for index, step in enumerate(plan.steps):
        for sink, value in ctx.registry[step.tool].texts(step.params):
            if sink is not Sink.ADDRESS:
                continue
            address = sites.resolve(value)
            if isinstance(address, str):
                continue  # content.py refused it
            verdict = unvouched(address, value, ctx, index)
            if verdict is None:
                continue
            if not verdict.needs_yes:
                return verdict
            if plan.remember or held is not None:  # one question, about one thing
                return Verdict.refuse(Rule.UNASKED, _UNNAMED_REASON, step=index,
                                      detail="open_website: an address the request does not hold")
            held = verdict
    return held
