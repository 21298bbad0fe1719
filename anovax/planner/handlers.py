"""One handler per grammar intent: the match in, a Piece out (None rejects the match, and the
next-best match or the topic cues decide).

``HANDLERS`` maps every intent name in ``grammar.yaml`` to its handler. Intents whose answer
never depends on the words are one line each in ``_FIXED``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from anovax.plan import Step
from anovax.planner import lexicon as lx
from anovax.planner import recall, topics
from anovax.planner.apps import PRONOUNS, display, open_app, open_spoken, window_app, window_apps
from anovax.planner.clock import time_in
from anovax.planner.cues import about_me, search_instead, unsearchable
from anovax.planner.examples import abilities, listing
from anovax.planner.grammar import load_grammar, matches, slot
from anovax.planner.keyboard import key_press, key_say, typing, wait_seconds
from anovax.planner.media import media, youtube
from anovax.planner.pieces import Jokes, Piece, RequestState, web
from anovax.planner.text import lower_words, query
from anovax.planner.timers import HANDLERS as TIMER_HANDLERS
from anovax.tools import TOOLS
from anovax.toolspec import Sink

#: (clause, hassil result, request state) -> a Piece, or None to reject the match
Handler = Callable[[str, Any, RequestState], Piece | None]

#: intent -> (kind, reply, tools run without parameters)
_FIXED: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "time": ("info", "Here's the time.", ("get_time",)),
    "date": ("info", "Here's today's date.", ("get_date",)),
    "time_and_date": ("info", "Here's the time and the date.", ("get_time", "get_date")),
    "screenshot": ("info", "Taking a screenshot.", ("screenshot",)),
    "compliment": ("chat", "That's kind of you, thank you!", ()),
    # the show-desktop keys differ by desktop (cmd+d duplicates a file on macOS): one app at a time
    "minimize_everything": ("decline", "I can't minimise every window at once. Say 'minimise' and an app, "
                            "for example 'minimise the browser', or 'what's open' to hear which apps are.", ()),
    "sing": ("decline", "I can't sing, but tell me a song and I'll search YouTube for it.", ()),
    "greet": ("chat", "Hello! What can I do for you?", ()),
    "how_are_you": ("chat", "I'm doing well, thanks for asking!", ()),
    "thanks": ("chat", "You're welcome!", ()),
    "identity": ("chat", "I'm AnovaX, your desktop voice assistant. Even offline, " + lx.CAPABILITIES, ()),
    "goodbye": ("chat", "Okay.", ()),
}
#: verbs that open only apps and sites we know ("go to sleep", "pull up a recipe")
_KNOWN_ONLY = re.compile(r"^(?:go to|switch to|bring up|pull up|load|boot up|fire up|browse to|navigate to|"
                         r"i need|i want|give me|get me|bring me)\b")


#: "go to the calculator" (or, misheard, "go the calculator"): the one already open, as "switch
#: to" (a second copy was launched); "go open the calculator" opens one
_GO_TO = re.compile(r"^(?:please\s+)?(?:(?:now|then)\s+)?go\b(?!\s+(?:and\s+)?(?:open|launch|start|run)\b)")


def _fixed(kind: str, say: str, tools: tuple[str, ...]) -> Handler:
    # a fresh Piece each time: the assembler may rewrite a piece's reply
    return lambda clause, r, state: Piece(kind, say, [Step(t) for t in tools])


def _help(clause: str, r: Any, state: RequestState) -> Piece:
    return Piece("chat", help_text())


@lru_cache(maxsize=1)
def help_text() -> str:
    """"What can I say": example phrases per ability, sampled from the grammar (once per process)."""
    return listing(abilities(load_grammar(), heard_as))


def heard_as(sentence: str, intent: str) -> bool:
    """Does the grammar hear ``sentence`` as ``intent``, and does its handler act on it?"""
    state = RequestState(current_app=None, jokes=Jokes())
    for name, result in matches(sentence, load_grammar()):
        piece = HANDLERS[name](sentence, result, state)
        if piece is not None:
            return name == intent and piece.kind not in ("unknown", "decline", "refuse")
    return False


def _time_in_place(clause: str, r: Any, state: RequestState) -> Piece | None:
    return time_in(slot(r, "place", clause))


def _app_of(ent: Any, clause: str) -> str:
    """The app a matched ``{known_app}`` names: the user's own app called by those words first
    (an [apps] "notes" = obsidian was opened as Notepad; "my editor" lost its "my" to the
    template's article), else the alias table's."""
    said, low = lower_words(str(ent.text or "")), f" {lower_words(clause)} "
    mine = [name for name in lx.USER_APPS if said in name.lower() and f" {name.lower()} " in low]
    return max(mine, key=len) if mine else str(ent.value)


def _open_app(clause: str, r: Any, state: RequestState) -> Piece | None:
    ent = r.entities.get("known_app")
    low = lower_words(clause)
    if ent is not None:
        app = _app_of(ent, clause)
        if _GO_TO.match(low):  # a place to be, not a copy to start: the open window, else a new one
            return _window_tool("switch_to_app")(clause, r, state) or open_app(app)
        return open_app(app)
    verb = low.split(" ", 1)[0]
    return open_spoken(slot(r, "app", clause), verb, known_only=bool(_KNOWN_ONLY.match(low)), exists=state.app_exists)


def _type_text(clause: str, r: Any, state: RequestState) -> Piece | None:
    verb = clause.split(None, 1)[0].lower()
    verb = "dictate" if verb == "take" else verb  # "take dictation: ..." types what follows, as said
    return typing(slot(r, "text", clause), verb, state)


def _press_keys(clause: str, r: Any, state: RequestState) -> Piece | None:
    return key_press(slot(r, "keys", clause))


def _hotkey(clause: str, r: Any, state: RequestState) -> Piece:
    keys = str(r.entities["hotkey"].value)
    return Piece("act", key_say(keys), [Step("press_keys", {"keys": keys})])


def _hotkey_in_app(clause: str, r: Any, state: RequestState) -> Piece:
    keys = str(r.entities["hotkey"].value)
    app = str(r.entities["known_app"].value)
    step = Step("press_keys", {"keys": keys})
    if app == state.current_app:
        return Piece("act", key_say(keys), [step])
    opened = open_app(app)
    return Piece("act", f"{opened.say} {key_say(keys)}", [*opened.steps, step], app=app)


def _wait(clause: str, r: Any, state: RequestState) -> Piece | None:
    span = slot(r, "span", clause) if "span" in r.entities else "a second"
    seconds = wait_seconds(span)
    if seconds is None:
        return None
    # say so only when the wait was cut down, not when the user asked for five seconds
    say = "I can only wait up to 5 seconds at a time." if seconds >= 5.0 and "5" not in span and "five" not in span else ""
    return Piece("act", say, [Step("wait", {"seconds": seconds})])


#: "wikipedia for alan turing" (after "search"): a site to search on, and what for
_ON_SITE = re.compile(r"^(?:on |in )?(?P<site>[a-z][\w.' -]{1,24}?) for (?P<q>\S.*)$", re.I)
#: "search amazon for ...": the site comes right after the verb ("search for target for beginners" is a query)
_SEARCH_SITE_FIRST = re.compile(r"^(?:search|look up|google)\s+(?!for\b)", re.I)
#: shops people search on by name ("search amazon for headphones")
_SHOPS = frozenset({"amazon", "ebay", "etsy", "walmart", "ikea", "aliexpress"})


def _web_search(clause: str, r: Any, state: RequestState) -> Piece | None:
    q = query(slot(r, "query", clause))
    if not q:
        return None
    site = _ON_SITE.match(q) if _SEARCH_SITE_FIRST.match(lower_words(clause)) else None
    if site and (site.group("site").lower() in lx.WEBSITES or site.group("site").lower() in _SHOPS):
        # "search wikipedia for alan turing": the site narrows the search, it is not searched for
        q = f"{site.group('q')} on {site.group('site')}"
    personal = topics.domain(lower_words(q), personal_only=True)
    # a list is the user's only when it is said to be ("search my shopping list"); "search for python
    # list examples" is a topic. E-mail, the calendar and the rest are always the user's.
    if personal and (personal[0] != "lists" or _OWN.search(lower_words(q))):
        return Piece("decline", personal[1])
    if _PLAYABLE.search(lower_words(q)) and not explicit_web(clause):
        return youtube(q)  # "look for a podcast about space": what is played is found on YouTube
    return web(q, f"Searching the web for {q}.")


#: words that make a list the user's own
_OWN = re.compile(r"\b(?:my|our|mine|me)\b")


#: a search whose object is something to play ("a podcast about space", "the song yesterday",
#: "freakonomics podcast") rather than something to read about
_PLAYABLE = re.compile(
    r"^(?:(?:a|an|the|some|any|new|good|latest|popular|best|top|great|funny|relaxing|\w+ing)\s+)*"
    r"(?:(?:podcasts?|audio ?books?|radio stations?|songs?|tracks?|playlists?|episodes?)\b(?! (?:lyrics|reviews?|charts?|sales|history|awards?|meaning|rankings?|writing|festivals?|and)\b)"
    r"|(?:albums?|music) by\b)"
    r"|^[\w' ]{1,40}? (?:podcasts?|audio ?books?)$"
)


def explicit_web(clause: str) -> bool:
    """Did the user say where to search ("google ...", "on the web", "on the internet")?"""
    return bool(re.search(r"^(?:google|bing)\b|\b(?:the web|the internet|online|google|bing|wikipedia)\b", lower_words(clause)))


def _info_request(clause: str, r: Any, state: RequestState) -> Piece | None:
    q = query(slot(r, "query", clause))
    if not q:
        return None
    low = lower_words(q)
    out_of_scope = topics.domain(low)
    if out_of_scope:
        return Piece("decline", out_of_scope[1])
    if re.fullmatch(r"(?:you|yourself)", low):  # "tell me about you"
        return about_me()
    return unsearchable(low) or search_instead(q, "answer")


def _youtube_search(clause: str, r: Any, state: RequestState) -> Piece | None:
    # "watch cat videos on youtube": the site is where to look, not what to look for
    q = query(re.sub(r"\s+(?:on|from|in|using|via) youtube$", "", slot(r, "query", clause), flags=re.I))
    if not q:
        return None
    return youtube(q)


def _play(clause: str, r: Any, state: RequestState) -> Piece | None:
    if "query" not in r.entities:
        return youtube("music")
    return media(slot(r, "query", clause), explicit_play=True)


def _joke(clause: str, r: Any, state: RequestState) -> Piece:
    return state.jokes.tell()


#: switch phrases that take only an app we know by name ("bring up the weather" is a search)
_KNOWN_ONLY_WINDOW = re.compile(r"^(?:bring|show|focus|take|return)\b", re.I)


def _window_tool(tool: str) -> Handler:
    """A window tool: the app through the lexicon ("the notepad window" -> notepad); words that
    name no app reject the match. "switch to <a site>" still opens the site, as before."""
    spec = TOOLS[tool]

    def handle(clause: str, r: Any, state: RequestState) -> Piece | None:
        ent = r.entities.get("known_app")
        raw = _app_of(ent, clause) if ent is not None else slot(r, "name", clause)
        several = window_apps(raw) if ent is None else None
        if several and tool == "switch_to_app":
            return Piece("decline", f"Only one app can be in front: say 'switch to {display(several[-1])}'.")
        if several:  # "close notepad and the calculator": each of them
            says = [spec.offline_say.format(name=display(app)) for app in several]
            return Piece("act" if all(says) else "answer", " ".join(filter(None, says)),
                         [Step(tool, {"name": app}) for app in several])
        app = window_app(raw) if ent is None else raw
        if app is None and tool != "switch_to_app" and state.current_app and lower_words(raw) in PRONOUNS:
            app = state.current_app  # "open firefox, then minimise it": the app just named
        if tool == "switch_to_app" and ent is None and (app is None or _KNOWN_ONLY_WINDOW.match(clause)):
            # "switch to youtube" opens the site as it always did; "bring up the weather" is no app
            piece = open_spoken(raw, "switch", known_only=True)
            if piece is not None and piece.steps and piece.steps[0].tool != "open_app":
                return piece
            if app is None or not (app in lx.USER_APPS or app in lx.APP_ALIASES.values()):
                return None
        if app is None:
            return None
        say = spec.offline_say.format(name=display(app))
        # no announcement declared (close_app): the agent's sentence is the whole reply
        return Piece("act" if say else "answer", say, [Step(tool, {"name": app})],
                     app=app if tool == "switch_to_app" else None)

    return handle


def _declared(tool: str) -> Handler:
    """A tool heard through its own phrases: each text param from the slot of the same name
    (a handler below replaces this where the words need reading, e.g. a duration)."""
    spec = TOOLS[tool]

    def handle(clause: str, r: Any, state: RequestState) -> Piece | None:
        params: dict[str, Any] = {}
        for p in spec.params:
            value = query(slot(r, p.name, clause)) if p.type == "string" else None
            if not value or p.problem(value):
                return None
            params[p.name] = value
        # no reply of its own: the agent's sentence is the answer ("Your favourite colour is green.")
        kind = "answer" if not spec.offline_say else "info" if spec.read_only else "act"
        return Piece(kind, spec.offline_say.format(**params), [Step(tool, params)])

    return handle


#: "a screenshot of notepad": the window it names
_OF_WINDOW = re.compile(r"\b(?:screenshot|screen shot|screen grab|screengrab|screen capture|snapshot) (?:of|showing) "
                        r"(?:the |my |this |that )?(?P<app>[\w .+-]{2,40}?)(?: window| app)?[.!?]*$", re.I)


def whole_screen(said: str, piece: Piece) -> Piece:
    """``piece``, its reply saying the screenshot is of the whole screen when ``said`` asked for
    one window's ("a screenshot of notepad"): the tool takes the whole screen."""
    m = _OF_WINDOW.search(lower_words(said))
    name = m.group("app") if m and [s.tool for s in piece.steps] == ["screenshot"] else ""
    app = lx.APP_ALIASES.get(name) or (name if name in lx.USER_APPS else None)  # an app's name, not "the page"
    if app is None:
        return piece
    return Piece(piece.kind, f"Taking a screenshot of the whole screen: I can't capture only {display(app)}.",
                 piece.steps)


HANDLERS: dict[str, Handler] = {
    **{intent: _fixed(*answer) for intent, answer in _FIXED.items()},
    "help": _help,
    "time_in_place": _time_in_place,
    "open_app": _open_app,
    "type_text": _type_text,
    "press_keys": _press_keys,
    "hotkey": _hotkey,
    "hotkey_in_app": _hotkey_in_app,
    "wait": _wait,
    "web_search": _web_search,
    "info_request": _info_request,
    "youtube_search": _youtube_search,
    "play": _play,
    "joke": _joke,
    "recall": recall.recall,
    "forget": recall.forget,
    **TIMER_HANDLERS,
    # a tool whose one param is an app name: the name is read through the lexicon
    **{spec.name: _window_tool(spec.name) for spec in TOOLS.with_phrases()
       if [p.sink for p in spec.params] in ([Sink.APP], [Sink.WINDOW])},
}
# tools heard through their own phrases; an entry above (a handler that reads the words) wins
for _spec in TOOLS.with_phrases():
    HANDLERS.setdefault(_spec.name, _declared(_spec.name))
