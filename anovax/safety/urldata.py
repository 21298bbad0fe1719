"""Data carried in a web address typed into a browser's address bar: a search, or a leak?

An address bar sends its query string to whichever host the address names. Default-deny: query
data goes only to a host AnovaX can vouch for as a search engine, a video, map, reference or shop
site (``google.com/search?q=weather+berlin``, ``youtube.com/watch?v=dQw4w9WgXcQ``), where it is
read the way a search is (the hosts of the user's own search settings count too: the runtime
passes them, a plan cannot), or anywhere when the user said the values themselves. Even then, what
the user never handed over must not leave in it: a remembered fact (the home address, an email),
text typed earlier in this session (notes, a letter), personal shapes (email addresses, phone
numbers), secrets or secret-named parameters (``p=``, ``token=``), encoded blobs, or more than a
search's worth of text. Credentials in the address itself (``https://user:pw@host``) never pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote_plus

from anovax.safety import web
from anovax.safety.canon import plain
from anovax.safety.scan import secret_issue
from anovax.safety.stored import skeleton

#: a search's worth of words: SLURP's longest query is ~90 characters
MAX_QUERY_DATA = 120
#: the shortest remembered value or typed line compared (shorter ones are too common to mean a leak)
MIN_COMPARED = 4
_PAIRS = re.compile(r"[?&#;]([^=&#\s?]{0,64})=([^&#\s]*)")
#: parameters that name a credential or a session: their value is a secret whatever it looks like
_SECRET_PARAMS = re.compile(r"(?:p|pw|pwd|pass|passwd|password|passwort|pin|token|secret|key|apikey|api_key|auth|"
                            r"session|sessionid|sid|cookie|cred|creds|credentials?)", re.I)
#: where query data is expected: search engines, video, maps, reference and shops (brand names
#: match any country domain: google.de, amazon.co.uk)
_VOUCHED_BRANDS = frozenset("google bing yahoo amazon ebay".split())
_VOUCHED_DOMAINS = frozenset(
    """duckduckgo.com youtube.com youtu.be wikipedia.org wiktionary.org openstreetmap.org maps.apple.com
    ecosia.org startpage.com search.brave.com qwant.com github.com stackoverflow.com imdb.com
    vimeo.com twitch.tv spotify.com""".split()
)
_ALNUM_ONLY = re.compile(r"[\W_]+")
_HOST = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?([^/?#:\s]+)", re.I)
#: encoded data, not words: a long run with no space (an 11-character video id is fine)
_BLOB = re.compile(r"[A-Za-z0-9+/=_%-]{32,}")
_EMAIL = re.compile(r"[\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{2,}")
_PHONE = re.compile(r"\+?\d[\d ()./-]{6,}\d")


def _pairs(address: str) -> list[tuple[str, str]]:
    return [(name, unquote_plus(value)) for name, value in _PAIRS.findall(plain(address)[:4000]) if value]


def _said(values: list[str], said: str) -> bool:
    """Every value is in what the user said, compared on letters and digits only (a spoken
    "dQw4w9WgXcQ" matches the typed one)."""
    heard = _ALNUM_ONLY.sub("", plain(said).casefold())
    return bool(heard) and all(_ALNUM_ONLY.sub("", plain(value).casefold()) in heard for value in values)


def vouched_host(address: str, search_hosts: Iterable[str] = ()) -> bool:
    """A search engine, a video, map, reference or shop site (see ``_VOUCHED_DOMAINS``), or exactly
    the host of one of the user's own search settings (``search_hosts``, from the runtime: a plan
    cannot add one)."""
    found = _HOST.match(plain(address).strip())
    labels = found.group(1).casefold().rstrip(".").split(".") if found else []
    host = ".".join(labels)
    if host and host in search_hosts:
        return True
    if len(labels) < 2:
        return False
    if any(".".join(labels[i:]) in _VOUCHED_DOMAINS for i in range(len(labels) - 1)):
        return True
    brand = labels[-3] if len(labels) >= 3 and labels[-2] in ("co", "com") else labels[-2]
    return brand in _VOUCHED_BRANDS


def problem(address: str, said: str, memory: Iterable[str], typed_before: str,
            search_hosts: Iterable[str] = ()) -> str | None:
    """Why the query data of ``address`` must not be sent, or None."""
    if web.credentials_in_url(address):
        return "a user name or password in a web address"
    pairs = _pairs(address)
    if not pairs:
        return None
    values = [value for _, value in pairs]
    joined = " ".join(values)
    if secret_issue(joined):
        return "a secret in a web address"  # never, even when the user dictated it
    if _said(values, said):
        return None  # values the user dictated ("blog.example/?p=123") are theirs to send
    if any(_SECRET_PARAMS.fullmatch(name) for name, _ in pairs):
        return "a secret in a web address"
    if not vouched_host(address, search_hosts):
        return "data in a web address"
    if any(_BLOB.search(value) for value in values):
        return "encoded data in a web address"
    if len(joined) > MAX_QUERY_DATA:
        return "data in a web address"
    if _EMAIL.search(joined) or _PHONE.search(joined):
        return "personal data in a web address"
    sent = skeleton(joined)
    for fact in memory:
        fact_skeleton = skeleton(fact)
        if len(fact_skeleton) >= MIN_COMPARED and (fact_skeleton in sent or (len(sent) >= MIN_COMPARED * 2 and sent in fact_skeleton)):
            return "a remembered fact in a web address"
    for line in typed_before.splitlines():
        line_skeleton = skeleton(line)
        if len(line_skeleton) >= MIN_COMPARED * 2 and (
                line_skeleton in sent or (len(sent) >= MIN_COMPARED * 2 and sent in line_skeleton)):
            return "text typed earlier in a web address"
    return None
