"""Opening things: an app the alias table knows, a website, a music service, or an unknown
name that looks like an app (or the reason it is not one)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from anovax import sites
from anovax.plan import Step
from anovax.planner import lexicon as lx
from anovax.planner import topics
from anovax.planner.cues import names_a_topic
from anovax.planner.media import audiobook, media
from anovax.planner.pieces import Piece
from anovax.planner.refusals import SHELL_LIKE
from anovax.planner.text import SPACES, lower_words

_ARTICLES = re.compile(r"^(?:the|my|a|an|some|me|us|up)\s+", re.I)
_APP_TAIL = re.compile(r"\s+(?:app|application|program|programme|window|for me|please|now|up|again)$", re.I)


#: a book named after the word for it ("book the hobbit", "the novel of dune", "audiobook called x")
_BOOK = re.compile(r"^(?:audio ?book|book|novel|story)(?: (?:of|called|named|titled|entitled))?\s+(?P<t>(?!(?:a|an|me|us|for|to|in|at|on)\b)(?!.*\b(?:i|i'm|i've|i'd|we|my|our|you|your)\b)\S.*)$")

#: "the book ...": the noun ("book ticket" is the verb)
_A_BOOK = re.compile(r"\b(?:the|a|an|my|this|that|our)\s+(?:audio ?book|book|novel|story)\b")

#: how the reply to an app name nothing on this computer opens begins (the voice trust check reads
#: it: "open the" misheard from "open the terminal" names no app, so it is no request)
UNKNOWN_APP = "I don't know an app called"

def canonical_app(name: str | None) -> str | None:
    """The canonical name of a spoken app name (unknown names lower-cased as they are)."""
    if not name:
        return None
    low = lower_words(str(name))
    return lx.APP_ALIASES.get(low, low or None)


def display(app: str) -> str:
    """How a reply names an app."""
    return lx.APP_DISPLAY.get(app, app[:1].upper() + app[1:])


#: an address typed with its scheme: opened, or declined with the reason ("a user name before its host")
_SCHEME = re.compile(r"https?://", re.I)
#: "example.com in a new tab", "youtube in the browser": where it opens, not part of the address
_BROWSER_TAIL = re.compile(r"\s+in (?:a |the |another )?(?:new |separate |different |other )?(?:tabs?|windows?|browser|firefox|chrome|"
                           r"chromium|safari|edge)$",
                           re.I)
#: "a new tab with reddit", "a new window for example.com": where it opens, not part of the address
_BROWSER_HEAD = re.compile(r"^(?:a |the |another )?new (?:browser )?(?:tab|window) (?:with|to|for|on|at|showing) +(?=\S)", re.I)
#: "in incognito", "in a private window": a private window cannot be asked for, and opening a
#: normal one instead would keep in the history what the person wanted kept out of it (the
#: assembler declines the whole request: "… in incognito and search for divorce lawyers")
PRIVATE_WINDOW = re.compile(r"\b(?:in|with|using|into) (?:an? |the )?(?:incognito|inprivate|private (?:window|tab|mode|"
                            r"browsing|browser))\b", re.I)
PRIVATE_WINDOWS = ("I can't open private windows, so I didn't do any of that. Say it again without asking for a "
                   "private window to do it in a normal one.")
#: the first words of requests to go somewhere ("go to", "visit", "navigate to")
_PLACE_VERBS = frozenset({"go", "visit", "browse", "navigate"})
#: "the youtube website", "the bbc site"
_SITE_SUFFIX = re.compile(r"\s+(?:web ?site|site|home ?page)$")
#: an address with another or a mistyped scheme ("htps://", "https//", "http:/", "file:///")
_OTHER_SCHEME = re.compile(r"(?i)^(?:[a-z][a-z0-9+.-]{1,15}:/|https?//)")
#: "the website wikipedia.org", "the site example.com": the words name what follows
_SITE_WORDS = re.compile(r"^(?:the |a )?(?:web ?site|site|web ?page|page|url|address) +(?=\S+\.\S)", re.I)


def open_app(app: str, *, shown: str | None = None) -> Piece:
    """Open ``app``; the reply names it ``shown``, or as ``display`` says."""
    return Piece("act", f"Opening {shown or display(app)}.", [Step("open_app", {"name": app})], app=app)


def open_site(said: str) -> Piece:
    """Open the site named ``said`` ("wikipedia", "example.com/docs", "https://…"): a known
    site's fixed address, else the address as said (the gate vouches for it because the request
    holds it), or why it cannot be opened."""
    address = sites.resolve(said)
    if isinstance(address, str):
        return Piece("decline", f"I can't open that address: it {address}.", about_site=True)
    # as said: "bücher.de", not its punycode
    shown = sites.shown(said) if said in lx.WEBSITES else re.sub(r"(?i)^https?://", "", said).rstrip("/")
    return Piece("act", f"Opening {shown} in the browser.", [Step("open_website", {"address": address.url})])


def _site_piece(site: str) -> Piece:
    piece = open_site(site)
    if site == "youtube":  # "open youtube and play …": the play clause replaces the opening
        piece.media_opener = "YouTube"
    return piece


def open_spoken(raw: str, verb: str, *, known_only: bool = False,
                exists: Callable[[str], bool] | None = None) -> Piece | None:
    """open_app for a name the alias table does not know, or a reason not to.

    ``known_only`` (verbs like "go to", "pull up") opens only apps and sites we know: "go to
    sleep" is not an app. ``exists`` vouches for a name no table knows ("start the dishwasher" is
    declined, not launched blindly). None means the clause is not an open request after all."""
    headless = _BROWSER_HEAD.sub("", raw.strip())
    if headless != raw.strip():  # "a new tab with reddit": a site, or no open request ("a new tab for notes")
        piece = open_spoken(headless, verb, known_only=True, exists=exists)
        if piece is not None and ([s.tool for s in piece.steps] == ["open_website"] or piece.about_site):
            return piece
        return Piece("decline", "I can open a website in a new tab: say which, for example 'open a new tab with "
                                "wikipedia'.", about_site=True)
    if PRIVATE_WINDOW.search(raw):
        return Piece("decline", PRIVATE_WINDOWS, about_site=True)
    # "open https://example.com/docs.", "go to example dot com slash docs", "open localhost:8000": the
    # address as the gate reads the request (sites.spoken, sites.unwrap), not "https example.com"
    said = _BROWSER_TAIL.sub("", _SITE_WORDS.sub("", sites.spoken(raw).strip()))
    name = _SITE_SUFFIX.sub("", _ARTICLES.sub("", said.lower())).strip()
    if name in lx.WEBSITES and (name != said.lower() or name not in lx.USER_APPS):
        # "the youtube website", "youtube in a new tab"; a bare "github" is the user's own app first
        return _site_piece(name)
    if (_SITE_SUFFIX.search(said.lower()) and name and " " not in name and "." not in name
            and not _SITE_SUFFIX.search(" " + name)):
        # "the bbc website": a guessed address could be anyone's; the person knows it
        return Piece("decline", f"I don't know the address of the {name} website: say it, for example "
                                f"'open {name}.com'.", about_site=True)
    word = sites.unwrap(said)
    if word and not any(ch.isspace() for ch in word) and ("." in word or ":" in word):
        if _SCHEME.match(word) or sites.site_word(word):
            return open_site(word)
        if _OTHER_SCHEME.match(word):  # "htps://…", "https//…", "file:///…": say what it opens instead
            return Piece("decline", "I can only open web addresses that start with http:// or https://.",
                         about_site=True)
    several = _several(raw, verb, known_only, exists)
    if several is not None:
        return several
    low = lower_words(raw)
    while True:  # "the notepad app please": peel articles and tails until nothing changes
        new = _APP_TAIL.sub("", _ARTICLES.sub("", low)).strip()
        if new == low:
            break
        low = new
    if not low:
        return None
    # "the website wikipedia.org", "the site example.com": the words name what follows
    low = re.sub(r"^(?:web ?site|site|web ?page|page|url|address)\s+(?=\S+\.\S)", "", low)
    if low in lx.USER_APPS:
        return open_app(low)
    if low in lx.APP_ALIASES:
        return open_app(lx.APP_ALIASES[low])
    if re.search(r"\b(?:timer|countdown|reminder|alarm)s?\b", low):
        return None  # "start a pasta timer for 2 minutes" is a timer, not an app called that
    if low in lx.WEBSITES or sites.site_word(low):  # "the example.com app": the address as written
        return _site_piece(low)
    service = next((s for s in lx.MUSIC_SERVICES if low == s or low.startswith(s + " ")), None)
    if service:
        rest = low[len(service):].strip()
        if rest:
            return media(rest, explicit_play=True, service=service)
        piece = open_app(service, shown=service.title())
        piece.media_opener = service.title()
        return piece
    if topics.JOKE_CUE.search(low):
        return None
    book = _BOOK.match(low) if _A_BOOK.search(lower_words(raw)) else None
    if book:  # "start the book the hobbit": a book to hear, which offline is an audiobook search
        return audiobook(book.group("t"))
    topic = topics.domain(low)
    if topic and topic[0] != "playback":
        return Piece("decline", topic[1])
    if topics.MEDIA_CUE.search(low) or re.search(r"\b(?:chapter|audio ?book|reading)\b", low):
        return media(raw, explicit_play=True)
    if known_only:
        # "go to youtub": a name one slip from one we know gets the hint, anything else is no site
        # (only after verbs that name a place: "give me code" is no misspelt "vscode")
        hint = _did_you_mean(low) if verb in _PLACE_VERBS and lx.APP_NAME_RE.match(low) and " " not in low else ""
        return Piece("decline", f"{UNKNOWN_APP} {low} and no site by that name, so I didn't open anything.{hint}",
                     about_site=True) if hint else None
    if verb in {"run", "execute"} or SHELL_LIKE.search(raw):
        return Piece("refuse", "Sorry, I don't run commands or programs by name offline; I can only open apps I know.")
    if len(low.split()) > lx.MAX_APP_WORDS or topics.QUESTION_START.match(low):
        return None
    name = re.sub(r"[^\w .+()-]+", " ", low)
    name = SPACES.sub(" ", name).strip()[:64]
    if not name or not lx.APP_NAME_RE.match(name):
        return None
    if exists is not None and not exists(name):
        return Piece("decline", f"{UNKNOWN_APP} {name}, so I can't open it.{_did_you_mean(name)}")
    return open_app(name)


#: "I want to ...", "let's ...": a wish before the verb
_WISH = r"(?:i (?:want|need) to|i wanna|i'd like to|i would like to|let's|lets|let us)"
#: verbs that only ever take a site ("show me the news" is no site, and reads as before)
_VISIT = re.compile(rf"^(?:please\s+)?(?:(?:{_WISH}\s+(?:go to|go on|visit|check out|head (?:over )?to))|visit|take me to|"
                    r"head (?:over )?to|go over to|bring me to|surf to|show me|(?:open )?(?:a |another )?new (?:browser )?tab "
                    r"(?:with|to|for|on))\s+(?=\S)", re.I)
#: of those, the verbs that name where to go and nothing else ("show me" also shows the time)
_ONLY_GOING = re.compile(rf"^(?:please\s+)?(?:{_WISH}\s+)?(?:visit|take me to|head (?:over )?to|go over to|go to|bring me to|"
                         r"surf to)\s+(?=\S)", re.I)


def going_to(clause: str) -> str | None:
    """What a request to go somewhere names, when it names no site we know ("head over to bbc
    news" -> "bbc news"), to be read on its own; None for any other words."""
    m = _ONLY_GOING.match(clause.strip())
    rest = clause.strip()[m.end():] if m else None
    # "take me to where i live": the person's own place, never a web search of it
    return rest if rest and not re.search(r"\b(?:i|my|me|mine|we|our|home)\b", rest.lower()) else None


def visit(clause: str, exists: Callable[[str], bool] | None = None) -> Piece | None:
    """"visit wikipedia", "take me to example.com", "head to the bbc website": the site, or why it
    cannot be opened; None for any other words. Not a grammar template: the offline recogniser's
    vocabulary is built from those, and these verbs are for typed requests."""
    m = _VISIT.match(clause.strip())
    if not m:
        return None
    piece = open_spoken(clause.strip()[m.end():], "visit", known_only=True, exists=exists)
    if piece is None:
        return None
    if piece.kind == "act" and piece.steps and all(s.tool == "open_website" for s in piece.steps):
        return piece
    return piece if piece.about_site else None


#: words that join or qualify names rather than being part of one ("firefox but not notepad")
_QUALIFIED = re.compile(r"\b(?:and|then|but|except|without|or|unless|instead|with|that|which|whatever|playing)\b")
#: "both notepad and the calculator", "notepad and the calculator too": words around a list
_BOTH = re.compile(r"^(?:both|all of)\s+|\s+(?:too|as well|both)$", re.I)
#: "youtube and reddit", "notepad, the calculator and wikipedia", "youtube then notepad": names in a list
_LIST = re.compile(r"\s*,\s*(?:and\s+)?(?:then\s+)?|\s+(?:and\s+then|and|then|&)\s+", re.I)
#: the steps of a clause that opens something (a topic said after it does not swallow it)
OPENERS = frozenset({"open_app", "open_website"})


def _several(raw: str, verb: str, known_only: bool, exists: Callable[[str], bool] | None) -> Piece | None:
    """One piece opening each of a list of names, when every one of them is an app or a site we
    can vouch for ("open youtube and reddit"); None otherwise, so "pen and paper" stays one name.
    A name no table knows counts only where the computer can be asked whether it has it."""
    whole = lower_words(raw)
    if whole in lx.USER_APPS or whole in lx.APP_ALIASES or whole in lx.WEBSITES:
        return None  # one name with "and" in it
    # "both notepad and the calculator", "notepad and the calculator too"
    parts = [part for part in _LIST.split(_BOTH.sub("", raw.strip())) if part.strip()]
    if not 2 <= len(parts) <= 4:
        return None
    pieces = [open_spoken(part, verb, known_only=known_only or exists is None, exists=exists) for part in parts]
    opens = [p is not None and p.kind == "act" and bool(p.steps) and all(s.tool in OPENERS for s in p.steps)
             for p in pieces]
    if any(opens) and not all(opens) and exists is not None:
        # "open youtube and redit": a list of names, one of them unknown; say which, open none
        unknown = [_ARTICLES.sub("", lower_words(part)) for part, ok in zip(parts, opens) if not ok]
        # "open youtube and the weather": one topic asked about last, no app named (the clause is split
        # instead); anything else unknown is named and nothing opens
        topic_last = len(unknown) == 1 and not opens[-1] and names_a_topic(unknown[0])
        if not topic_last and all(lx.APP_NAME_RE.match(name) for name in unknown):
            hints = "".join(_did_you_mean(name) for name in unknown)
            return Piece("decline", f"{UNKNOWN_APP} {' or '.join(unknown)}, so I didn't open anything.{hints}")
    if not all(opens):
        return None
    return Piece("act", " ".join(p.say for p in pieces if p is not None),
                 [step for p in pieces if p is not None for step in p.steps])


def _did_you_mean(name: str) -> str:
    """" If you meant google, say 'open google'." for a name one slip away from an app or site we
    know: never opened on a guess, and no question a bare "yes" could answer."""
    # (a slip keeps the first letter: "go to hell" is no misspelt "shell")
    known = [n for n in (*lx.USER_APPS, *lx.APP_ALIASES, *lx.WEBSITES) if n[:1] == name[:1]]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
    return f" If you meant {close[0]}, say 'open {close[0]}'." if close else ""


#: words that name no app: "close the window", "switch to it" (which window is meant is unknown)
_NO_APP = frozenset({"window", "windows", "it", "this", "that", "them", "this window", "that window", "app", "apps",
                     "everything", "all", "all windows", "the window", "program", "application",
                     # "quit now" names no app called "now"
                     "now", "right now", "please", "already", "immediately",
                     # "exit full screen" leaves a mode; it closes no app called "full screen"
                     "full screen", "fullscreen", "full screen mode", "fullscreen mode"})
#: words that point back at the app the request has just named ("open firefox, then minimise it")
PRONOUNS = frozenset({"it", "this", "that", "this window", "that window", "the window", "its window"})


#: words that name a tab or a position, not an app: "close the browser tab", "switch to the next window"
_NOT_AN_APP = re.compile(r"\b(?:tabs?|next|previous|other|last|current|active|this|that|every|all)\b")


#: "switch to pacific time", "switch to utc": a clock setting, never a window
_CLOCK_WORDS = re.compile(r"\b(?:time|utc|gmt|clock|daylight)\b")

#: a radio frequency ("98.7", "101.5 fm") is a station, never an app
_FREQUENCY = re.compile(r"^(?:station |channel )?[\d.]+(?: ?(?:fm|am|mhz|khz))?$")


def _common_site(low: str) -> bool:
    """An address on a common top-level domain ("example.com"): a window's name is no site, and a
    dotted app id ("org.gnome.nautilus", "obs.studio") is a window's name."""
    return bool(sites.site_word(low)) and low.rsplit(".", 1)[-1] in sites.TLDS


def window_app(raw: str) -> str | None:
    """The canonical app a window tool names in ``raw`` ("the notepad window" -> "notepad"), or None
    when the words do not name an app (a site, a topic, a question, "it")."""
    low = lower_words(raw)
    while True:
        new = _APP_TAIL.sub("", _ARTICLES.sub("", low)).strip()
        if new == low:
            break
        low = new
    if not low or low in _NO_APP or _NOT_AN_APP.search(low) or _FREQUENCY.match(low):
        return None
    if low in lx.USER_APPS:
        return low
    if low in lx.APP_ALIASES:
        return lx.APP_ALIASES[low]
    if _LIST.search(low) or _QUALIFIED.search(low):
        # "notepad and the weather", "firefox but not notepad", "it without saving": no app's name
        return None
    if (len(low.split()) > lx.MAX_APP_WORDS or topics.QUESTION_START.match(low) or topics.domain(low)
            or topics.MEDIA_CUE.search(low) or topics.DATE_PHRASE.search(low) or _CLOCK_WORDS.search(low) or low in lx.WEBSITES or _common_site(low)
            or SHELL_LIKE.search(raw) or not lx.APP_NAME_RE.match(low)):
        return None
    return low


def window_apps(raw: str) -> list[str] | None:
    """The apps a window tool names as a list ("close notepad and the calculator"), each one we
    know by name; None when ``raw`` is no such list."""
    parts = [part for part in _LIST.split(_BOTH.sub("", raw.strip())) if part.strip()]
    if not 2 <= len(parts) <= 4:
        return None
    apps = [window_app(part) for part in parts]
    known = [app for app in apps if app is not None and (app in lx.USER_APPS or app in lx.APP_ALIASES.values())]
    return known if len(known) == len(parts) and len(set(known)) == len(known) else None
