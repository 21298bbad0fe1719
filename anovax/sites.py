"""Web addresses a plan may open (``open_website``): what one is, and the sites known by name.

A search (``web_search``) only ever puts words into the user's own search address; an address a
plan names is a door to anywhere, so it is read strictly here and judged by the safety gate
(``anovax.safety.address``): http or https only, a host made of letters, digits, dots and hyphens
(``resolve`` turns a host in other letters into its punycode, ``xn--``, only when the browser reads
it the same way), no user name or password before the host ("https://paypal.com@evil.example"
opens evil.example), no spaces or control characters. A bare "example.com/docs" gets https,
"localhost:8000" and an IPv4 address http.

The known sites are the names people say ("open wikipedia"): each maps to one fixed address,
which the gate vouches for because no plan wrote it.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import urlsplit

#: an address longer than this is not one a person said or typed
MAX_ADDRESS_CHARS = 300

#: the sites people open by name, and the one address each opens
KNOWN: dict[str, str] = {
    "youtube": "https://www.youtube.com/",
    "google": "https://www.google.com/",
    "gmail": "https://mail.google.com/",
    "wikipedia": "https://www.wikipedia.org/",
    "amazon": "https://www.amazon.com/",
    "netflix": "https://www.netflix.com/",
    "reddit": "https://www.reddit.com/",
    "github": "https://github.com/",
    "facebook": "https://www.facebook.com/",
    "twitter": "https://x.com/",
    "instagram": "https://www.instagram.com/",
    "linkedin": "https://www.linkedin.com/",
    "bing": "https://www.bing.com/",
    "yahoo": "https://www.yahoo.com/",
    "ebay": "https://www.ebay.com/",
    "maps": "https://www.google.com/maps",
    "google maps": "https://www.google.com/maps",
}

#: how a reply names a known site whose name is not simply capitalised
_SHOWN = {"youtube": "YouTube", "github": "GitHub", "linkedin": "LinkedIn", "ebay": "eBay", "gmail": "Gmail",
          "maps": "Google Maps", "google maps": "Google Maps", "twitter": "X (Twitter)"}

#: top-level domains joined across spoken "dot" and speech-to-text spacing ("example dot com",
#: "example. com"); whether a typed name is a site is ``looks_like_site``'s (``FILE_ENDINGS``)
TLDS = frozenset("""com org net edu gov mil int io dev app ai co uk de fr info tv me us ca au nl es it eu ch be
    at se no dk fi pl jp in ru br mx ly gg xyz online site shop store blog news tech page biz cloud""".split())
#: top-level domains that are also short English words: never joined across a space ("I am at
#: home. It is late" names no site "home.it")
_WORD_TLDS = frozenset("co it me no at be in us".split())
#: top-level domains that are everyday nouns: not taken from "dot" in speech ("polka dot shop")
_NOUN_TLDS = frozenset("online site shop store blog news tech page biz cloud app".split())
#: what may wrap an address in a sentence: quotes and brackets before, those and a full stop or
#: comma after, and a possessive ("example.com's docs")
_WRAP_BEFORE = "\"'([{<«“‘"
_WRAP_AFTER = "\"')]}>»”’.,;:!?"
_POSSESSIVE = re.compile(r"['’]s$")
#: a word before "dot" that names no site ("the dot com bubble", "a dot org domain")
_NOT_A_NAME = frozenset("the a an this that these those my your its our their his her some any no".split())
#: spoken punctuation in an address, each bounded so a scan stays linear
_WWW = re.compile(r"(?i)(?<!\S)w w w(?!\S)")
_SPOKEN = (
    (re.compile(r"(?i) (?:forward )?slash "), "/"),
    (re.compile(r"(?i) (?:dash|hyphen) "), "-"),
    (re.compile(r"(?i) underscore "), "_"),
    (re.compile(r"(?i) colon "), ":"),
    # speech-to-text spacing around a real TLD, lower case only: "example. com", "example .org"
    (re.compile(rf"(?<=\w) ?\. ?(?=(?:{'|'.join(sorted(TLDS - _WORD_TLDS))})(?!\w|\.\w))"), "."),
)
#: "docs dot python dot org": a run of names joined by "dot" that ends in a real TLD
_DOTS = re.compile(rf"(?i)(?<!\S)([\w-]{{1,63}}(?: dot [\w-]{{1,63}}){{0,4}}) dot ({'|'.join(sorted(TLDS - _NOUN_TLDS))})(?!\w|\.\w)")
#: an IP address read out: "192 dot 168 dot 1 dot 1"
_SPOKEN_IP = re.compile(r"(?<!\S)(\d{1,3}) dot (\d{1,3}) dot (\d{1,3}) dot (\d{1,3})(?!\w|\.\w)")

#: an address without a scheme that names localhost or an IPv4 address
_LOCAL = re.compile(r"(?i)(?:localhost|\d{1,3}(?:\.\d{1,3}){3})(?![\w.-])")

#: a DNS label: letters, digits and inner hyphens
_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
#: a top-level domain is letters (or punycode)
_TLD = re.compile(r"[a-z]{2,63}|xn--[a-z0-9-]{1,59}")


@dataclass(frozen=True)
class Address:
    """An address checked by ``parse``: lower-case host, the rest as given."""

    scheme: str
    host: str
    port: int | None
    #: path, query and fragment as written ("" for the site's front page)
    rest: str

    @property
    def netloc(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host  # an IPv6 host keeps its brackets
        return host + (f":{self.port}" if self.port is not None else "")

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.netloc}{self.rest or '/'}"

    @property
    def shown(self) -> str:
        """How a reply or a question names it: host (and port) and path, no scheme, no trailing /."""
        return f"{self.netloc}{self.rest}".rstrip("/")

    @property
    def front_page(self) -> bool:
        return self.rest in ("", "/")


def _host_problem(host: str) -> str | None:
    if not host:
        return "names no site"
    if not host.isascii():
        return "has letters outside plain ASCII in its host"
    if "%" in host:  # an IPv6 zone ("fe80::1%eth0") or an encoded host: nothing a person types
        return "is not a web address"
    if local_host(host):
        return None
    labels = host.rstrip(".").split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels) or not _TLD.fullmatch(labels[-1]):
        return "is not a web address"
    return None


def parse(value: str, *, idna: bool = False) -> Address | str:
    """``value`` as an Address, or why it is not one a plan may open (a short phrase). Without a
    scheme it gets https, or http for localhost and an IPv4 address.
    ``idna``: a host in other letters ("bücher.de", as a person types it) becomes its punycode
    form (``xn--bcher-kva.de``) instead of a refusal."""
    if not isinstance(value, str) or not value.strip():
        return "is empty"
    text = value.strip()
    if len(text) > MAX_ADDRESS_CHARS:
        return f"is longer than {MAX_ADDRESS_CHARS} characters"
    if any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F or ch == "\\" for ch in text):
        return "contains spaces, backslashes or control characters"
    if not re.match(r"(?i)https?://", text):
        if re.match(r"[a-z][a-z0-9+.-]*:(?!\d)", text, re.I):
            return "is not an http or https address"
        # a site gets https; a server on this computer or the LAN ("localhost:8000") speaks http
        text = ("http://" if _LOCAL.match(text) else "https://") + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return "is not a web address"
    if "@" in parts.netloc:
        return "has a user name before its host"
    host = (parts.hostname or "").lower()
    if idna and not host.isascii():
        try:
            encoded = host.encode("idna").decode("ascii")
            # Python's IDNA 2003 maps some letters ("ß" to "ss") where browsers keep them: such a
            # host names another site than the one typed
            same = encoded.encode("ascii").decode("idna") == host
        except UnicodeError:
            return "has a host that is not a name"
        if not same:
            return "has a host that is not a name"
        host = encoded
    problem = _host_problem(host)
    if problem:
        return problem
    rest = text[len(parts.scheme) + 3 + len(parts.netloc):]
    return Address(parts.scheme.lower(), host, port, rest)


def spoken(text: str) -> str:
    """``text`` with an address's spoken punctuation written ("wikipedia dot org slash wiki" ->
    "wikipedia.org/wiki"); NFKC only, so accents stay letters."""
    said = _WWW.sub("www", " ".join(unicodedata.normalize("NFKC", text).split()))
    said = _SPOKEN_IP.sub(lambda m: ".".join(m.groups()), said)
    said = _DOTS.sub(lambda m: m.group(0) if m.group(1).split()[0].lower() in _NOT_A_NAME
                     else m.group(1).replace(" dot ", ".") + "." + m.group(2), said)
    for pattern, mark in _SPOKEN:
        said = pattern.sub(mark, said)
    return said


def unwrap(word: str) -> str:
    """One word of a sentence without what wraps it ("(example.com).", "example.com's")."""
    word = word.lstrip(_WRAP_BEFORE).rstrip(_WRAP_AFTER)
    return _POSSESSIVE.sub("", word).rstrip(_WRAP_AFTER)


#: endings that name a file, not a site ("open notes.txt", "open setup.py", "open node.js"),
#: though some are country domains too: a person opening such a site types its https://
FILE_ENDINGS = frozenset("""txt py js ts md pdf doc docx odt xls xlsx ods ppt pptx csv json xml yml yaml toml ini cfg
    conf log sh bat exe msi dmg deb rpm zip tar gz tgz bz2 xz rar png jpg jpeg gif svg webp bmp mp3 mp4 wav ogg flac
    mkv avi mov html htm css c h cpp java rb go rs php pl lua swift kt sql db bak tmp iso img app""".split())


def looks_like_site(address: Address, typed: str) -> bool:
    """Whether ``typed`` (one word) is meant as a web address, not a file or a word: a scheme, a
    host that is an IP address or localhost, or a name whose last label is a top-level domain
    ("last.fm", "пример.рф") and no file's ending."""
    if re.match(r"(?i)https?://", typed) or local_host(address.host):
        return True
    return address.host.rsplit(".", 1)[-1] not in FILE_ENDINGS


def site_word(word: str) -> Address | None:
    """``word`` (one word, as a person types it) as the address it is meant as, or None: a file's
    name ("notes.txt"), a plain word or what cannot be opened is no site."""
    if not word or any(ch.isspace() for ch in word) or not ("." in word or ":" in word):
        return None
    address = parse(word, idna=True)
    return address if isinstance(address, Address) and looks_like_site(address, word) else None


def local_host(host: str) -> bool:
    """Whether ``host`` is this machine or the local network's kind of name: localhost or an IP
    address. Servers there are mostly plain http, so http is no downgrade, and such a word is
    an address, never a file's name."""
    try:
        return host == "localhost" or ipaddress.ip_address(host) is not None
    except ValueError:
        return False


def resolve(value: str) -> Address | str:
    """A plan's or a person's address: a known site's name ("wikipedia"), else the address as
    ``parse`` reads it, a host in other letters as its punycode."""
    return known(value) or parse(value, idna=True)


def known(name: str) -> Address | None:
    """The fixed address of a site named in words ("wikipedia", "google maps"), or None."""
    url = KNOWN.get(" ".join(name.lower().split()))
    if url is None:
        return None
    address = parse(url)
    return address if isinstance(address, Address) else None


def shown(name: str) -> str:
    """How a reply names the known site ``name`` ("YouTube")."""
    key = " ".join(name.lower().split())
    return _SHOWN.get(key, key.title())


def bare_host(host: str) -> str:
    """``host`` without a leading "www." (when a name is left after it)."""
    labels = host.split(".")
    return ".".join(labels[1:]) if labels[0] == "www" and len(labels) > 2 else host


_KNOWN_HOSTS = frozenset(bare_host(url.split("/")[2]) for url in KNOWN.values())


def vouched(address: Address) -> bool:
    """Whether no plan chose any of ``address``: one of the known sites' fixed addresses, or a
    known site's front page over https ("youtube.com" for "open youtube")."""
    if any(address.url in (url, url + "/") for url in KNOWN.values()):
        return True
    return (address.scheme == "https" and address.port is None and address.front_page
            and bare_host(address.host) in _KNOWN_HOSTS)
