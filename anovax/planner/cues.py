"""The fallback for a clause the command grammar did not read: topic cues, tried in order.

Out-of-scope topics are declined plainly, information topics and other questions become a web
search whose reply says the assistant cannot answer offline, media requests a YouTube search,
and anything else is "unknown" (quoted back by the assembler). Text that only looks like a
question ("tell me the timepe first line": no question word, a mistyped command word) is
unknown too, never searched. The order is the point: see the comments in ``cues``.
"""

from __future__ import annotations

import re

from anovax.planner import lexicon as lx
from anovax.planner import topics
from anovax.planner.clock import time_fragment
from anovax.planner.media import SONG_BY, audiobook, lyric_search, media, mood_or_station, outside_title
from anovax.planner.pieces import Piece, RequestState, unknown, web
from anovax.planner.joined import declined
from anovax.planner.recall import asked_fact
from anovax.planner.refusals import refusal_for
from anovax.planner.text import SPACES, lower_words, query
from anovax.planner.grammar import command_words
from anovax.planner.vocab import garbled_words

#: replies for web searches the planner chose itself (the user did not say "search"): each says
#: plainly that the assistant cannot answer offline and what it is doing instead
_SAY_SEARCH = {
    "answer": "I can't answer that myself offline, so I'm searching the web for {q}.",
    "weather": "I can't check the weather myself offline, so I'm searching the web for {q}.",
    "news": "I can't read the news myself offline, so I'm searching the web for {q}.",
    "prices": "I can't get live prices offline, so I'm searching the web for {q}.",
    "define": "I can't look up words myself offline, so I'm searching the web for {q}.",
    "maths": "I can't work that out myself offline, so I'm searching the web for {q}.",
    "recipe": "I can't look up recipes myself offline, so I'm searching the web for {q}.",
    "translate": "I can't translate offline, so I'm searching the web for {q}.",
    "directions": "I can't give directions offline, so I'm searching the web for {q}.",
    "recommend": "I can't make recommendations myself offline, so I'm searching the web for {q}.",
    "datetime": "I can only tell today's date and the local time offline, so I can't answer that myself: I'm searching the web for {q}.",
}
_PERSONAL_SAY = "I can't see your personal information offline, so I can't answer that."

#: cues strong enough to beat the out-of-scope topics ("facebook stock" is not social media,
#: "what does tweet mean" is not a request to tweet)
_STRONG_CUES = (
    (topics.STOCK_CUE, "prices"),
    (re.compile(r"\bwhat does .{1,40} (?:mean|stand for)\b|^(?:define|definition of)\b"), "define"),
)
#: information cues checked after the out-of-scope topics and the weather, in this order
_SEARCH_CUES = (
    (topics.NEWS_CUE, "news"),
    # "catch me up on the world cup": the news about it
    (re.compile(r"^(?:any(?:thing)?|something) (?:new|happening|going on) (?:in|with|about|on) [a-z]"), "news"),
    (re.compile(r"\b(?:current events|catch (?:me |us )?up (?:on|with)|update me (?:on|about|with)|brief me (?:on|about)|"
                r"fill me in (?:on|about))\b"), "news"),
    # "gold price today", "petrol prices": what something costs now
    (re.compile(r"^(?:the |current |today'?s |latest )?[a-z][a-z' ]{1,30}? (?:prices?|costs?)(?: (?:today|now|right now|"
                r"this (?:week|month)|at the moment))?$|\bhow much (?:is|are|does|do) (?:a |an |the )?[a-z]"), "prices"),
    (re.compile(r"^translate\b|\btranslat(?:e|ion) (?:of|for)\b"), "translate"),
    # "name the planets", "list five rivers in africa": a question said as an order
    (re.compile(r"^(?:name|list|enumerate) (?:all |some |a few |the \w+ |\d+ |two |three |four |five |ten )?(?:of )?"
                r"(?:the )?[a-z]+s\b"), "answer"),
    (topics.CURRENCY_CUE, "prices"),
    (topics.DEFINE_CUE, "define"),
    (topics.MATHS_CUE, "maths"),
    (topics.RECIPE_CUE, "recipe"),
)
#: a clause that asks in so many words: a question word or an auxiliary first ("tell me the x"
#: and "give me x" only ask when the rest makes sense, see ``_garbled``)
_ASKS = re.compile(
    r"^(?:what|what's|whats|who|who's|whos|whom|whose|where|where's|when|when's|why|which|how|how's|hows|"
    r"is|are|was|were|has|have|had|does|do|did|can|could|will|would|should|shall|"
    r"tell me (?:about|what|who|where|when|why|how|if|whether)|find out|i (?:want|need|would like|'d like) to know)\b"
)
_QUESTION_LEAD = re.compile(
    r"^(?:(?:can|could|would|will) you\s+)?(?:please\s+)?(?:tell me|let me know|find out|i want to know|i need to know|i'd like to know|"
    r"do you know|give me|show me|search for|look up|find me|find|know|i (?:wonder|was wondering|am wondering|'m wondering)|wonder|"
    r"(?:search |look up |check )?(?:on |in )?wikipedia(?: for| about)?|(?:any|got any|have you any|no) idea|curious|"
    r"(?:i'd|i would) love to know)\s+",
    re.I,
)


#: words that ask for something to be played (with a media word: a podcast, a station, a song)
_MEDIA_REQUEST = re.compile(
    r"^(?:(?:can|could|would|will) you |please |i (?:want|need|would like|'d like) (?:you )?to )?"
    r"(?:play|put on|listen to|hear|tune in(?:to| to)?|tune to|find me|get me|give me|start|turn on|switch on|queue up|stream)\b"
)
#: "could you find the x podcast episode on y": something to listen to, found (not a station: "find
#: the nearest radio shack" is a place)
_FIND_MEDIA = re.compile(
    r"^(?:(?:can|could|would|will) you |please )*find (?:me )?(?:the |a |an |some |that |this )?"
    r"(?:[\w'-]+ ){0,6}(?:podcasts?|episodes?|audio ?books?|albums?|songs?|playlists?|tracks?)\b"
)
#: "read me a story", "read the book dune": a wish for an audiobook
_READ_BOOK = re.compile(
    r"^(?:read|narrate|continue reading|start reading|keep reading)(?: (?:me|us|to me|to us))? "
    r"(?P<x>(?:.* )?(?:book|novel|story|stories|audio ?books?|chapter)\b.*)$"
)
#: "read me the hobbit", "read harry potter to me": a title to be read (checked after news and weather)
_READ_TITLE = re.compile(
    r"^read (?:(?:me|us|to me|to us) (?P<x>.+)|(?P<y>.+?) (?:to|for) (?:me|us|my \w+|our \w+|the (?:kids|children|boys|girls)|him|her|them))$"
    # "read pride and prejudice", "can you read the girl with the dragon tattoo": a title said alone
    r"|^read (?P<z>(?!(?:me|us|to|it|out|aloud|up|about|on|through|along|from|back|again)\b)[a-z][a-z' &.-]*(?: [a-z0-9' &.-]+){0,8})$"
)
#: "read it", "read this aloud", "read out what's on the screen": reading out, with no book named
_READ_ALOUD = re.compile(r"^read(?: (?:it|this|that|aloud|out loud|out|back|everything|what)\b.*)?$")
_CANNOT_READ = ("I can't read documents, messages or what's on the screen aloud offline; "
                "name a book and I'll search YouTube for an audiobook of it.")
#: what is read from the screen or the user's own things, never a book
_NOT_A_TITLE = re.compile(
    r"\b(?:this|that|it|these|those|screen|page|text|selection|selected|clipboard|document|file|aloud|out loud|back|"
    r"my|your|what|news|headlines|weather|forecast|email|e-mail|message|messages|mail|notifications?|list|results?|"
    r"lyrics|article|time|date|menu|instructions|recipe|something|anything|line|lines|paragraph|sentence|word|words|"
    r"label|title|error|tab|window|notes?|post|posts|tweets?|reviews?|comments?|texts?|sms|inbox|reply|replies|"
    r"calendar|schedule|agenda|events?|reminders?|alarms?|contacts?|status|label|sign|map|results|score|scores|"
    r"first|last|next|previous|top|bottom|whole|all|everything|more|less|slowly|faster|slower|louder|again|"
    # documents and messages, and what the user wrote, saved or was reading: never a book to search for
    r"pdf|docs?|contract|terms|conditions|essay|report|letter|form|receipt|invoice|statement|agreement|lease|policy|"
    r"manual|whatsapp|chat|thread|transcript|subtitles?|captions?|prescription|biopsy|diagnosis|webpage|website|"
    r"site|code|script|resume|cv|draft|i|i'm|i've|we|we're|he|she|they|mum|mom|dad|wrote|saved|writing|typed)\b"
)
#: a genre said alone ("some indie", "death metal now"): a request to play it
_BARE_GENRE = re.compile(
    r"(?:(?:(?:can|could|may) (?:i|we) (?:get|have|hear)|give me|get me|i want|i need|i feel like|i'm in the mood for|"
    r"how about|let's have|some|a bit of|a little|more|play|me|us)\s+)*(?P<g>(?:" + "|".join(re.escape(g) for g in sorted(lx.GENRES, key=len, reverse=True))
    + r")(?:\s+(?:music|songs|tunes|tracks|radio|playlist|beats|mix))?|music|tunes|songs)(?:\s+(?:now|please|again|next))*"
)


#: news about a topic ("news about the email leak", "alerts on any new topic on politics")
_NEWS_ABOUT = re.compile(r"\b(?:news|headlines|stories|updates?|alerts?) (?:about|on|regarding|concerning|of|from)\b"
                         r"|\bnew (?:topics?|stories|headlines) (?:on|about)\b")
#: a question inside a longer request: a question word and a verb ("... an explanation of why the
#: sky is blue", "give me details on how vaccines work")
_EMBEDDED_QUESTION = re.compile(
    r"\b(?:who|why|how|what|when|where|which)\s+(?:[a-z]+\s+){0,2}?(?:is|are|was|were|did|does|do|can|could|will|would|has|"
    r"have|had|killed|invented|wrote|discovered|made|won|built|works?|happened|started|began|ended|died|lived)\b"
)

#: playback words that name what to play next ("shuffle beyonce", "next chapter harry potter")
_SHUFFLE_OR_CHAPTER = re.compile(r"^shuffle \S|\bchapters?\b")

#: "barack obama on wikipedia": a look-up said at the end
_ON_WIKIPEDIA = re.compile(r"\b(?:on|in|from) wikipedia$")


def search_instead(q: str, topic: str) -> Piece:
    """A web search the user did not ask for, with the reply for ``topic`` (a _SAY_SEARCH key)."""
    return web(q, _SAY_SEARCH[topic].format(q=q))


def about_me() -> Piece:
    """The reply to a question about the assistant itself."""
    return Piece("decline", "I'm an offline assistant, so I can't chat about that, but " + lx.CAPABILITIES)


def unsearchable(low: str) -> Piece | None:
    """The reply to a question about the assistant or about the user's own data (a web search
    cannot answer either, and would leak the latter), or None for any other question."""
    if topics.ABOUT_ME.search(low):
        return about_me()
    if topics.PERSONAL_Q.search(low):
        return Piece("decline", _PERSONAL_SAY)
    return None


#: something funny to watch rather than a joke to hear
_TO_WATCH = re.compile(r"\b(?:videos?|clips?|youtube|movies?|films?|shows?|memes?|gifs?|tiktoks?)\b")


#: what a part of a request asks about when it only names a topic to look up
_TOPIC_CUES = (topics.WEATHER_CUE, topics.NEWS_CUE, topics.STOCK_CUE, topics.MATHS_CUE, topics.DATETIME_CUE)
_TOPIC_WORDS_MAX = 6
#: a join inside a part: it holds more than one topic or request
_JOINED = re.compile(r"[,;.!?&:]|\b(?:and|then|also|after that)\b|[^\w\s'+*/=%$£€-]")
_ABOUT_THE_PERSON = re.compile(r"\b(?:i|i'm|me|my|mine|we|our|us)\b")
#: how a part that only names a topic begins: an article, a question word, a sum's verb
_TOPIC_STARTS = frozenset({"the", "a", "an", "today's", "todays", "tomorrow's", "tomorrows", "this", "latest", "any",
                           "what", "what's", "whats", "how", "how's", "is", "will", "calculate", "compute", "convert"})


def names_a_topic(part: str) -> bool:
    """Does ``part`` only name a topic to look up ("the weather", "calculate 5 plus 5"), so that
    it is no app's name in "open youtube and the weather"? Never words about the person ("5 plus
    my pin 1234") or a request ("buy stocks", "delete the news", "hack the weather")."""
    low = lower_words(part)
    if _JOINED.search(low) or _ABOUT_THE_PERSON.search(low):
        return False  # "the news then kill everyone", "the news about me": more than a topic
    first = low.split(" ", 1)[0]
    if not (first in _TOPIC_STARTS or first[:1].isdigit() or any(cue.match(low) for cue in _TOPIC_CUES)):
        return False  # "kill the news anchor", "buy stocks": a verb asks for something done
    return (len(low.split()) <= _TOPIC_WORDS_MAX and any(cue.search(low) for cue in _TOPIC_CUES)
            and not topics.PERSONAL_Q.search(low) and not refusal_for(part) and declined(part) is None)


def topic_search(part: str, state: RequestState) -> Piece | None:
    """The search for a part of a request that only names a topic to look up ("the weather" in
    "open youtube and the weather"), or None."""
    if not names_a_topic(part):
        return None
    piece = cues(part, state)
    return piece if not piece.guess and [s.tool for s in piece.steps] == ["web_search"] else None


#: a request to act on a window: what it names is a window or nothing, never a topic to look up
_WINDOW_VERB = re.compile(r"^(?:close|quit|exit|minimi[sz]e|maximi[sz]e|restore|unminimi[sz]e)\b")


def cues(clause: str, state: RequestState) -> Piece:
    """What a clause the grammar did not read amounts to, by its topic cues."""
    piece = _by_topic(clause, state)
    if piece.steps and _WINDOW_VERB.match(lower_words(clause)):  # "close the app playing music" is no search
        return unknown()
    return piece


def _by_topic(clause: str, state: RequestState) -> Piece:
    low = lower_words(clause)
    if not low:
        return unknown()
    remembered = asked_fact(clause, state)  # "what car do I drive", with the car remembered
    if remembered is not None:
        return remembered
    if topics.JOKE_CUE.search(low) and not re.search(r"\b(?:radio|station|podcast|channel)\b", low):
        if _TO_WATCH.search(low) and not re.search(r"\bjokes?\b", low):
            # "funny dog videos": something to watch, not a joke to tell. Not searched either: the
            # words go out as they are, and nothing here screens what may be asked to watch
            return unknown()
        return state.jokes.tell()
    q = query(_strip_question_lead(clause))
    lyric = lyric_search(low)  # "what's the song that goes hey jude": its words are the search
    if lyric is not None:
        return lyric
    if ((_MEDIA_REQUEST.search(low) and topics.MEDIA_CUE.search(low) or _FIND_MEDIA.search(low))
            and not topics.domain(outside_title(low))):
        # "tune in to bbc radio two", "could you find me a podcast on history": a request to
        # play something wins over the news or a question it mentions
        return media(clause, explicit_play=True)
    for cue, topic in _STRONG_CUES:
        if cue.search(low):
            return search_instead(q, topic)
    if _NEWS_ABOUT.search(low) and not topics.PERSONAL_Q.search(low):
        # "follow news about the email scandal": the words after "news about" are the topic, not
        # a request to read e-mail
        return search_instead(q, "news")
    local = _here(low)
    if local is not None:
        return local
    # personal and out-of-scope topics before any search, so they never reach a search engine
    out_of_scope = topics.domain(low)
    if out_of_scope and out_of_scope[0] == "playback" and (topics.MEDIA_CUE.search(low) or _SHUFFLE_OR_CHAPTER.search(low)):
        # "skip to the next podcast", "shuffle songs by coldplay": media() declines what it
        # cannot do (pause, rewind) and searches for what a step or a shuffle names
        return media(clause, explicit_play=False)
    if out_of_scope:
        return Piece("decline", out_of_scope[1])
    clock = time_fragment(low)  # "current time berlin", "tokyo time now"
    if clock is not None:
        return clock
    genre = _BARE_GENRE.fullmatch(low)
    if genre:
        return media(genre.group("g"), explicit_play=True)
    mood = mood_or_station(low)
    if mood is not None:
        return mood
    song = SONG_BY.match(low)
    if song and not topics.QUESTION_START.match(low):  # "find thriller by michael jackson"
        return media(song.group("x"), explicit_play=True)
    book = _READ_BOOK.match(low)
    if book:  # "read me a story": an audiobook is the nearest thing offline
        return audiobook(book.group("x"))
    if topics.WEATHER_CUE.search(low):
        wq = _weather_query(low)
        return web(wq, _SAY_SEARCH["weather"].format(q=wq if wq.startswith("weather") or _WEATHER_FIGURE.match(wq) else "the weather"))
    for cue, topic in _SEARCH_CUES:
        if cue.search(low):
            return search_instead(q, topic)
    if topics.RECOMMEND_CUE.search(low) and not topics.PERSONAL_Q.search(low):
        return search_instead(q, "recommend")
    titled = _READ_TITLE.match(low)
    title = (titled.group("x") or titled.group("y") or titled.group("z")) if titled else ""
    if title and not _NOT_A_TITLE.search(title):
        return audiobook(title)  # "read me the hobbit": a book said by its title
    if title or _READ_ALOUD.match(low):  # "read the selected text", "read the pdf", "read this aloud"
        return Piece("decline", _CANNOT_READ)
    question = bool(topics.QUESTION_START.search(low) or _ON_WIKIPEDIA.search(low)) or clause.rstrip().endswith("?")
    if topics.MEDIA_CUE.search(low) and not question:
        return media(clause, explicit_play=False)
    if topics.DIRECTIONS_CUE.search(low):
        return search_instead(q, "directions")
    if question or topics.DATE_PHRASE.search(low):
        about_you_or_me = unsearchable(low)
        if about_you_or_me:
            return about_you_or_me
        if topics.DATETIME_CUE.search(low):
            return _guess(search_instead(q, "datetime"))
        if question and q and not _garbled(low, clause):
            return _guess(search_instead(q, "answer"))
    embedded = _EMBEDDED_QUESTION.search(low)
    if embedded and not _garbled(low, clause) and not topics.PERSONAL_Q.search(low):
        # "provide me with the best explanation of who killed kennedy": the question inside
        return _guess(search_instead(query(low[embedded.start():]), "answer"))
    return unknown()


def _guess(piece: Piece) -> Piece:
    piece.guess = True
    return piece


def _garbled(low: str, clause: str) -> bool:
    """A request that only looks like a question ("tell me the timepe first line"): no question
    word, no question mark, and a mistyped command word. Not understood, never searched."""
    if _ASKS.match(low) or clause.rstrip().endswith("?"):
        return False
    return bool(garbled_words(low, command_words()))


def _strip_question_lead(clause: str) -> str:
    """ "can you tell me who won" -> "who won" (the clause itself if nothing is left)."""
    q = _QUESTION_LEAD.sub("", clause.strip())
    return q or clause


#: "where I am", "my location": the place a search engine works out for itself
_WHERE_I_AM = re.compile(r"\s*\b(?:(?:right )?(?:where|wherever) (?:i am|i'm|we are|we're)(?: (?:at|now|right now|currently))?|"
                         r"(?:at|in|for|around) my (?:current )?(?:location|area|city|town|place)|my (?:current )?location|"
                         r"(?:in|for) (?:here|this area|this city|this town)|around here|here|(?:am i|i am|i'm) in$)\b")
_TIME_ZONE = re.compile(r"\b(?:time ?zone|local time)\b")


def _here(low: str) -> Piece | None:
    """The weather or the time zone where the user is: a search the engine answers for where
    the browser is ("weather near me"); the user's location never goes into the query."""
    if not _WHERE_I_AM.search(low) or not (topics.WEATHER_CUE.search(low) or _TIME_ZONE.search(low)):
        return None
    rest = SPACES.sub(" ", _WHERE_I_AM.sub(" ", low)).strip()
    if topics.domain(rest) or topics.PERSONAL_Q.search(rest):
        return None  # something else personal is asked too
    if _TIME_ZONE.search(low) and not topics.WEATHER_CUE.search(low):
        return search_instead("my time zone", "datetime")
    wq = _weather_query(rest)
    wq = wq if wq.startswith("weather") else "weather"
    if " in " in wq:  # a place is named as well: that place
        return web(wq, _SAY_SEARCH["weather"].format(q=wq))
    return web(f"{wq} near me", _SAY_SEARCH["weather"].format(q=f"the {wq} near you"))


#: when the weather is for, taken out before a place said bare is looked for
_WHEN_WORDS = re.compile(r"\b(?:today|tonight|tomorrow|this (?:week|weekend|morning|afternoon|evening)|next week|now|"
                         r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|morning|afternoon|evening|please)\b")
#: a place said bare before or after the word "weather" / "forecast": one to three plain words
_PLACE_WORDS = r"(?!(?:the|my|a|what|whats|what's|how|is|will|today|tomorrow|like|check|tell|give|show|me|get|local|current)\b)[a-z]+(?: [a-z]+){0,2}"
_NOT_A_PLACE = frozenset("""weather forecast report update updates outlook conditions radar warning warnings alert alerts
    map maps temperature temperatures hourly daily weekly outside here there forecasts live app channel news
    read tell give show check get say find see know what's whats the me us out""".split())
_BARE_PLACE = re.compile(rf"\s*(?:(?:weather|forecast|weather forecast)\s+(?P<a>{_PLACE_WORDS})|(?P<b>{_PLACE_WORDS})\s+"
                         rf"(?:weather|forecast|weather forecast))\s*")


#: a weather figure of its own ("uv index", "pollen count"), kept as said in the search
_WEATHER_FIGURE = re.compile(r"\b(?:uv index|pollen(?: count| levels?)?|humidity|air quality|wind speed|"
                             r"dew point|heat index|wind chill|chance of (?:rain|snow))\b")


def _weather_query(low: str) -> str:
    """A weather search from the clause: "weather [in <place>] [<when>]"."""
    place = re.search(r"\b(?:in|at|for|near)\s+((?!the\b|this\b|next\b|my\b|a\b)[a-z][a-z .'-]{1,30}?)(?=\s+(?:today|tomorrow|tonight|this|next|now|on|at|in|right|over|during)\b|$)", low)
    when = re.search(r"\b(today|tonight|tomorrow(?: morning| afternoon| evening| night)?|this (?:week|weekend|morning|afternoon|evening)|next week|(?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b", low)
    # "what's the uv index today": a weather figure said by name is what to search, not the weather
    figure = _WEATHER_FIGURE.search(low)
    parts = [figure.group(0) if figure else "weather"]
    if place and place.group(1) not in {"shorts", "layers"}:  # "wear shorts", "in layers": clothes, not places
        parts.append("in " + place.group(1).strip())
    else:
        bare = _BARE_PLACE.fullmatch(_WHEN_WORDS.sub(" ", low).strip())
        named = (bare.group("a") or bare.group("b")) if bare else ""
        if named and not set(named.split()) & _NOT_A_PLACE:  # in fragments: "weather tomorrow london"
            parts.append("in " + named)
    if when:
        parts.append(when.group(1))
    if len(parts) == 1 and not figure:
        return "weather today" if re.search(r"\b(?:weather|forecast)\b", low) else " ".join(low.split()[:12])
    return " ".join(parts)
