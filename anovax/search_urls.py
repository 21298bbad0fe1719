"""The addresses a search and a video search open: the user's setting, never the plan's.

A template is an http(s) address with ``{query}`` where the URL-encoded query goes
(``https://duckduckgo.com/?q={query}``). Only the query comes from a plan, and it is always
encoded into the template, never opened as an address itself; ``{query}`` may not stand in the
host, so a plan can never pick where its words go. The hosts of the templates are the user's own
choice: the safety gate vouches for them as search engines (``hosts``), like the built-in list.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote_plus, urlsplit

DEFAULT_SEARCH_URL = "https://www.google.com/search?q={query}"
DEFAULT_VIDEO_URL = "https://www.youtube.com/results?search_query={query}"
#: where the query goes in a template
SLOT = "{query}"
#: a template longer than this is not a search address
MAX_TEMPLATE_CHARS = 500


def template_problem(value: str) -> str | None:
    """Why ``value`` is not a usable template ("must start with http:// or https://"), or None."""
    if len(value) > MAX_TEMPLATE_CHARS:
        return f"is longer than {MAX_TEMPLATE_CHARS} characters"
    if any(ch.isspace() or ord(ch) < 0x20 for ch in value):
        return "contains spaces or control characters"
    try:
        parts = urlsplit(value)
    except ValueError:
        return "is not a web address"
    if parts.scheme.lower() not in ("http", "https"):
        return "must start with http:// or https://"
    if not parts.hostname or "{" in parts.netloc or "}" in parts.netloc:
        return "must name a host (and {query} may not stand in it)"
    if SLOT not in value:
        return "must contain {query} where the search words go"
    return None


def fill(template: str, query: str) -> str:
    """``template`` with the URL-encoded ``query`` in every ``{query}``."""
    return template.replace(SLOT, quote_plus(query))


@dataclass(frozen=True)
class SearchUrls:
    """The two templates, checked (``template_problem``) when the settings are read."""

    #: web_search
    search: str = DEFAULT_SEARCH_URL
    #: youtube_search (a video site)
    video: str = DEFAULT_VIDEO_URL

    def hosts(self) -> tuple[str, ...]:
        """The hosts the user chose, lower case: vouched for query data by the safety gate."""
        return tuple(dict.fromkeys(h for h in (urlsplit(t).hostname for t in (self.search, self.video)) if h))
