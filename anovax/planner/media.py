"""Requests to play something: a YouTube search, or a plain "I can't" for playback controls,
games and the user's own library (none of which the offline planner can reach)."""

from __future__ import annotations

import re

from anovax.plan import Step
from anovax.planner.pieces import JOKE_LEAD, Piece, unknown
from anovax.planner.text import lower_words, query
from anovax.planner.topics import domain

_SERVICE_SUFFIX = re.compile(r"\s+(?:on|from|in|using|with)\s+(?P<s>spotify|pandora|iheart ?radio|deezer|tidal|apple music|soundcloud)\b", re.I)
_GAME = re.compile(
    r"\b(?:games?|chess|poker|checkers|tic tac toe|trivia|puzzles?|quiz|sudoku|hangman|solitaire|scrabble|monopoly|cards)\b"
    r"|\bwith me\b",
    re.I,
)
_PLAYBACK_CONTROL = re.compile(
    r"\b(?:pause|stop|skip|next|previous|rewind|fast forward|forward|shuffle|shuffling|repeat|loop|back one|go back|louder|quieter|volume)\b", re.I
)
_LEAD_MEDIA_WORDS = re.compile(
    r"^(?:(?:please|can you|could you|would you|i want to|i'd like to|i would like to|i need to|i wanna|let me|let's|lets|"
    r"i'd like|i would like|i want|i need|i'd love|i would love|"
    r"play|playing|start|resume|continue|continue playing|put on|turn on|switch on|listen to|hear|tune in to|tune into|tune to|"
    r"turn to|queue|queue up|open|go to|get|find|me|us|some|a little|a bit of|my|for me)\s+)+",
    re.I,
)
#: "i'd love to hear", "we feel like listening to": a wish to hear, whatever words lead up to it
_WANT_TO_HEAR = re.compile(
    r"^(?:[a-z']+ ){0,5}?(?:hear|hearing|listen to|listening to|tune in to|tune into)\s+(?=\S)"
    r"|^(?:change|switch|set|turn|tune|move)(?: over)?(?: the)?(?: radio| station| channel| dial)?(?: over)? to\s+(?=\S)",
    re.I,
)
_LEFT_OFF = re.compile(r"\s*\b(?:from )?where (?:i|we) (?:left off|stopped|paused)(?: (?:it|last|yesterday|last night))?\b", re.I)
_TRAIL_MEDIA_WORDS = re.compile(r"(?:\s+(?:please|for me|now|right now|next|again|on|for us))+$", re.I)
#: generic words: a request made only of these names no particular thing to play
_GENERIC_MEDIA = frozenset(
    """music song songs tune tunes track tracks album albums playlist playlists play list radio station stations podcast podcasts
    audiobook audiobooks audio book books book novel novels chapter chapters episode episodes channel my the a an some something favorite favourite last
    recent recently added played used current latest new this that it from of in on to list library""".split()
)
#: the words of a request to play that names only the out-of-scope thing itself ("play the kitchen
#: lights", "put on my alarm", "play it louder"); any other word makes it a title ("play light my
#: fire", "play you've got mail", "play wake me up when september ends", "play alarm sounds")
_THING_ONLY = frozenset("""the a an my our your all some of on off in at up down it this that these those
    light lights lamp lamps bulb bulbs lighting heating heater fan vacuum kettle coffee thermostat tv television
    alarm alarms timer timers reminder reminders email emails e-mail mail messages message voicemail voicemails inbox
    calendar agenda schedule list lists feed twitter facebook instagram louder quieter softer volume loud quiet mute
    kitchen bedroom living room bathroom hall hallway office garage house home front back door porch garden lounge
    dining study main upstairs downstairs ceiling floor desk wemo plug plugs socket sockets smart switch switches
    blinds curtains lock locks sprinkler sprinklers roomba cleaner hoover air con conditioner conditioning ac purifier
    dishwasher washer dryer oven microwave fridge speaker speakers sonos hue nest ring doorbell camera cameras""".split())
#: the user's own recordings and files: nothing a YouTube search finds
_OWN_FILES = re.compile(
    r"\b(?:my|our|my \w+'s|(?:the|a) \w+ (?:my|our) \w+ (?:sent|made|recorded)) (?:\w+ ){0,2}(?:recordings?|voice ?memos?|memos?|"
    r"voice ?notes?|voice ?messages?|voicemails?|downloads?|files?|videos?|home videos?|photos?|pictures?|journal|lectures?|"
    r"demos?|interviews?)\b|\b(?:recording|video|clip|footage) of my\b|\b(?:i|we) (?:recorded|filmed|downloaded|saved|made|took|"
    r"wrote|shot)\b|\bon my (?:desktop|computer|laptop|drive)\b|\bmy (?:own )?(?:podcast|song|track|demo) (?:episode )?(?:about|called)\b"
    r"|\b(?:audio|video|sound|mp3|wav) files?\b|\bvoice (?:messages?|notes?|memos?)\b")
#: another device or room to play on ("on my sonos", "in the kitchen"): this computer is the only player
_ELSEWHERE = re.compile(
    r"\s+(?:on|in|through|to|via) (?:my |the |our )?(?:sonos|tv|television|chromecast|echo|alexa|google home|"
    r"(?:kitchen |bedroom |living room |bathroom |office |garden )?speakers?|kitchen|bedroom|living room|bathroom|"
    r"garden|car|phone)$")
#: out-of-scope topics that win over a play request ("play my alarm", "play it louder")
_MEDIA_DECLINES = frozenset({"music_taste", "volume", "alarm", "calendar", "email", "lists", "lights", "smart_home", "social"})


#: controls that step to another item ("skip to the next podcast"): with a kind named, more of that kind
_STEP_CONTROL = re.compile(r"\b(?:next|skip|skip to|previous|forward|go back|back one)\b", re.I)
#: kinds whose next item is a thing of its own to look for (an episode), not the player's next track
_EPISODIC = frozenset({"podcasts", "audiobooks"})
#: words of a control request that name nothing to play ("shuffle all the songs")
_CONTROL_ONLY = frozenset("by of the all entire whole with without no not and up mode on off it them this that these those".split())


#: "the next episode of serial": a step to another item of a show that is named
_ITEM_OF = re.compile(r"\b(?:episode|chapter|part|season)s?\s+(?:\w+\s+)?(?:of|from)\s+(?P<x>.+)$"
                      # said in fragments: "next episode this american life"
                      r"|\b(?:next|latest|newest|new|last) (?:episode|chapter)\s+(?!(?:of|from|on|in|please|now|for|to)\b)(?P<y>.+)$")


def _named_in_control(lead: str) -> str | None:
    """What a control request names to play ("shuffle songs by coldplay" -> "songs by coldplay",
    "the next episode of serial" -> "serial"), or None when it names only kinds ("shuffle my
    music") or is neither a shuffle nor a step within a named show ("skip the intro")."""
    item = _ITEM_OF.search(lead)
    if item and _STEP_CONTROL.search(lead):
        show = re.sub(r"^(?:my|our)\s+", "", item.group("x") or item.group("y")).strip()
        return show if [w for w in show.split() if w not in _GENERIC_MEDIA] else None
    if not re.search(r"\bshuffl", lead):
        return None
    rest = re.sub(r"\s+", " ", _PLAYBACK_CONTROL.sub(" ", lead)).strip()
    rest = re.sub(r"^(?:(?:and|of|with|to|the|play|playing)\s+)+", "", rest)
    if not [w for w in rest.split() if w not in _GENERIC_MEDIA and w not in _CONTROL_ONLY]:
        return None
    return rest


#: controls that stop or change what is playing: never answered with a search
_STOP_CONTROL = re.compile(r"\b(?:pause|stop|louder|quieter|volume|mute|rewind)\b", re.I)
#: kinds of thing to play, as a search for "something of that kind" says them
_KINDS = (
    (re.compile(r"\baudio ?books?\b|\bbooks?\b|\bchapters?\b|\bnovels?\b"), "audiobooks"),
    (re.compile(r"\bpodcasts?\b|\bepisodes?\b"), "podcasts"),
    (re.compile(r"\bradio\b|\bstations?\b"), "live radio"),
    (re.compile(r"\b(?:music|songs?|tracks?|tunes?|playlists?|play list|albums?)\b"), "music"),
)


def media_kind(low: str) -> str | None:
    """The kind of thing a request to play names ("audiobooks", "podcasts", "live radio",
    "music"), or None."""
    for pattern, kind in _KINDS:
        if pattern.search(low):
            return kind
    return None


def youtube(q: str, say: str | None = None) -> Piece:
    """A YouTube search for ``q`` (cut to a query), or unknown if nothing is left to search for."""
    q = query(q)
    if not q:
        return unknown()
    return Piece("act", say or f"Searching YouTube for {q}.", [Step("youtube_search", {"query": q})])


#: a loudness said after what to play ("at volume five", "on full blast", "quietly")
_LOUDNESS = re.compile(r"\s+(?:(?:at|on|with) (?:a |the )?(?:(?:low|high|full|max|maximum|medium|quiet|loud|soft|normal) )?"
                       r"(?:volume|blast|level)(?: (?:\w+|\d+))?|loud|loudly|quietly|really loud|very loud)$")


#: where a request to play names its thing by what follows: "songs like blinding lights", "the
#: next chapter of the hunger games", "a podcast called call her daddy", "the album named lights"
_NAMED_AFTER = re.compile(
    r"\b(?:(?:songs?|music|tracks?|tunes?|stuff|something|anything|artists?|bands?) (?:like|similar to)"
    r"|(?:episodes?|chapters?|parts?|seasons?|volumes?|books?) (?:\w+ )?(?:of|from)"
    r"|(?:called|named|titled|entitled))\s+(?=\S)"
)
#: a song asked about or asked for by its words anywhere in a request ("what's the song that goes hey
#: jude", "find me the song with the lyrics ...")
_LYRIC_ANYWHERE = re.compile(
    r"\b(?:song|track|tune|one) (?:that|which|where) (?:goes|says|sings|has the (?:words?|lyrics?)|they sing)\s+(?P<x>.{3,120})$"
    r"|\b(?:song|track|tune) with the (?:words?|lyrics?)\s+(?P<y>.{3,120})$")


def lyric_search(low: str) -> Piece | None:
    """A YouTube search for a song known by its words, or None."""
    m = _LYRIC_ANYWHERE.search(low)
    if not m:
        return None
    words = m.group("x") or m.group("y")
    return youtube(f"{words} song", f"Searching YouTube for the song that goes {query(words)}.")


def outside_title(low: str) -> str:
    """``low`` without the title a request to play names after "songs like", "the episode of",
    "called"...: words in a title ("blinding lights", "call her daddy", "the hunger games") are
    no request for the lights, a call or a game."""
    m = _NAMED_AFTER.search(low)
    return low[: m.start()].strip() if m else low


def media(spoken: str, *, explicit_play: bool, service: str | None = None) -> Piece:
    """A YouTube search for something to play, or a plain 'I can't' for playback controls and games."""
    text = spoken.strip()
    m = _SERVICE_SUFFIX.search(text)
    if m:
        service = service or m.group("s").lower()
        text = (text[: m.start()] + text[m.end():]).strip()
    low = lower_words(text)
    loudness = _LOUDNESS.search(low)
    if loudness and loudness.start() > 0:  # "play adele at volume five": the volume is no player's to set
        found = media(low[: loudness.start()], explicit_play=explicit_play, service=service)
        q = str(found.steps[0].params["query"]) if found.steps and found.steps[0].tool == "youtube_search" else ""
        if q and q not in ("it", "this", "that", "them", "this song", "that song"):
            return youtube(q, f"I can't set the volume offline, so I'm just searching YouTube for {q}.")
    if _OWN_FILES.search(low):  # "play the video i recorded yesterday": nothing on YouTube is it
        kind = media_kind(low)
        if kind:  # "play my music files": something of that kind is still a search away, said so
            return youtube(kind, f"I can't play your own files offline, so I'm searching YouTube for {kind}.")
        return Piece("decline", "I can't play your own recordings or files offline; name a song, artist, station or "
                                "show and I'll search YouTube for it.")
    elsewhere = _ELSEWHERE.search(low)
    if elsewhere and elsewhere.start() > 0:  # "play jazz on the kitchen speaker": here is the only place it can play
        found = media(low[: elsewhere.start()], explicit_play=explicit_play, service=service)
        if found.steps and found.steps[0].tool == "youtube_search":
            q = str(found.steps[0].params["query"])
            return youtube(q, f"I can only play things here, on this computer, so I'm searching YouTube for {q}.")
        return found
    resume = bool(re.match(r"^(?:\w+ )?(?:resume|continue)\b", low)) or bool(_LEFT_OFF.search(low))
    lead = _LEFT_OFF.sub("", _LEAD_MEDIA_WORDS.sub("", _WANT_TO_HEAR.sub("", low))).strip()
    lead_no_next = re.sub(r"\s+next(?: up)?$", "", lead)
    q = _TRAIL_MEDIA_WORDS.sub("", lead).strip()
    lyric = lyric_search(q)  # "play that song that goes i will always love you": its words are the search
    if lyric is not None:
        return lyric
    framed = outside_title(low)  # the request's own words, not a title's
    if _GAME.search(framed) and not re.search(r"\b(?:radio|podcast|soundtrack|music|song|songs|theme|commentary)\b", low):
        return Piece("decline", "I can't play games offline.")
    titled = SONG_BY.match(q) and not re.match(r"(?:shuffl\w*|skip|next|previous|rewind|repeat|loop|fast forward)\b", q)
    if (_PLAYBACK_CONTROL.search(lead_no_next) or lead_no_next in {"next", "previous"}) and not titled:
        # ("play pause by pitbull" names a song: its artist says so; "shuffle songs by x" is a shuffle)
        stop = _STOP_CONTROL.search(low)
        named = _named_in_control(lead)
        if named and not stop:  # "shuffle songs by coldplay": what to play is said
            named = re.sub(r"^(?:(?:my|our|all)\s+)+", "", named)
            if re.search(r"\bchapters?\b", lead) and not re.search(r"\baudio ?books?\b", named):
                named += " audiobook"  # "the next chapter of dune": a book's chapter is read aloud
            whose = "reach your own library" if re.search(r"\bmy\b", low) else "control playback"
            return youtube(named, f"I can't {whose} offline, so I'm searching YouTube for {query(named)}.")
        kind = media_kind(low) if not stop else None
        if kind and not explicit_play and not (_STEP_CONTROL.search(low) and kind in _EPISODIC):
            kind = None  # "skip to the next song" wants the player it hears, not a second one
        if kind:  # "play the next episode", "skip to the next podcast": no player to step, but more of that kind
            return youtube(kind, f"I can't control playback offline, so I'm searching YouTube for {kind}.")
        return Piece("decline", "I can't control playback offline; I can only search YouTube for something new to play.")
    topic = domain(framed)
    # "put on the lights" is the lights; "play blinding lights by the weeknd" is a song, named
    # with its artist
    if topic and topic[0] in _MEDIA_DECLINES and not SONG_BY.match(q) and (
            topic[0] == "music_taste" or set(re.split(r"\s+(?:and|then|&)\s+", q)[0].split()) <= _THING_ONLY):
        return Piece("decline", topic[1])
    words = [w for w in q.split() if w not in _GENERIC_MEDIA]
    if not words:
        if resume or re.search(r"\bmy\b", low) or not (explicit_play or q):
            kind = media_kind(low)
            if kind:  # "play my audiobook": something of that kind is still a search away
                return youtube(kind, f"I can't reach your own library or resume where you left off offline, "
                                     f"so I'm searching YouTube for {kind}.")
            return Piece(
                "decline",
                "I can't reach your own music library or resume where you left off offline; "
                "tell me a song, artist, station or show and I'll search YouTube for it.",
            )
        q = q or "music"
    q = re.sub(r"^(?:my|some)\s+", "", q)
    say = None
    if service:
        say = f"I can't control {service.title()}, so I'm searching YouTube for {query(q)}."
    return youtube(q, say)


#: "on youtube, ..." / "... using youtube": the whole request is about YouTube
_YOUTUBE_SCOPE = re.compile(
    r"^(?:(?:on|in|using|via|through|with|over on|from) youtube|youtube)\s*[,:;-]?\s+(?P<rest>.+)$"
    r"|^(?P<head>.+?)\s*,?\s+(?:using|via|through|with|on|in|from) youtube(?:\s+(?:please|for me|now))?[.!?]?$",
    re.I,
)


def youtube_scope(request: str) -> str | None:
    """The rest of a request said to be for YouTube ("on youtube, search for chess openings"
    -> "search for chess openings"), or None when it does not say so."""
    m = _YOUTUBE_SCOPE.match(request.strip())
    if not m:
        return None
    rest = (m.group("rest") or m.group("head") or "").strip(" ,;:")
    return rest or None


def on_youtube(piece: Piece, clause: str) -> Piece:
    """``piece`` with its web searches made YouTube searches; a clause nothing understood becomes
    a YouTube search for its words (the user said where to look)."""
    if piece.kind == "unknown" or (piece.kind == "chat" and piece.say.startswith(JOKE_LEAD)):
        # "youtube funny dogs": funny videos to find, not a joke to tell
        return youtube(_LEAD_MEDIA_WORDS.sub("", lower_words(clause)) or clause)
    if not any(step.tool == "web_search" for step in piece.steps):
        return piece
    queries = [str(step.params.get("query", "")) for step in piece.steps if step.tool == "web_search"]
    others = [step for step in piece.steps if step.tool != "web_search"]
    found = youtube(queries[0])
    if found.kind == "unknown":
        return piece
    return Piece("act", found.say, [*others, *found.steps], app=piece.app, clause=piece.clause)


#: "after this song, play x" / "next play x": a wish to queue, which offline is a search for x
_QUEUE_LEAD = re.compile(
    r"^(?:(?:after|when) (?:this|the current|the) (?:song|track|one|episode|tune)(?: (?:is over|ends|finishes|is done|is finished))?"
    r"|next(?: up)?|then|afterwards)[,\s]+(?=(?:play|queue|put on)\b)",
    re.I,
)


def without_queue_lead(clause: str) -> str:
    """"after this song play thriller" -> "play thriller" (there is no queue to put it in)."""
    return _QUEUE_LEAD.sub("", clause, count=1)


def audiobook(spoken: str) -> Piece:
    """A YouTube search for an audiobook of what ``spoken`` names ("a story" -> "story audiobook")."""
    q = re.sub(r"^(?:(?:a|an|the|my|some|me|us)\s+)+", "", lower_words(spoken)).strip()
    if not re.search(r"\baudio ?books?\b", q):
        q = f"{q} audiobook"
    return youtube(q)


#: "make a playlist of eminem songs": offline there is no playlist to keep, but its songs are a search away
_MAKE_PLAYLIST = re.compile(
    r"^(?:(?:find|go|search) and )?(?:make|create|build|put together|compile|generate|start)(?: me| us)?"
    r" (?:a |an |my |some )?(?:new )?play ?list (?:of|with|for|from|full of|featuring|containing) (?P<x>.{2,120})$"
)
_PLAYLIST_FILLER = re.compile(r"^(?:(?:all|the|of|my|some|every|each)\s+)*(?:(?:songs?|tracks?|music|hits)\s+(?:of|by|from)\s+)?")


def playlist_of(clause: str) -> Piece | None:
    """A YouTube search for the playlist a request would make ("make a playlist of all songs of
    eminem" -> "eminem playlist"), said honestly; None when the clause makes no playlist of anything."""
    m = _MAKE_PLAYLIST.match(lower_words(clause).rstrip(" .!?"))
    if not m:
        return None
    x = _TRAIL_MEDIA_WORDS.sub("", _PLAYLIST_FILLER.sub("", m.group("x"))).strip()
    if not x or not [w for w in x.split() if w not in _GENERIC_MEDIA]:
        return None
    q = query(f"{x} playlist")
    return youtube(q, f"I can't keep playlists offline, so I'm searching YouTube for {q}.")


#: something to play said by its mood or its sound ("something upbeat", "rain sounds", "music to study to")
_MOOD = re.compile(
    r"^(?:(?:some|something|anything|a bit of|a little)\s+)?(?:(?:relaxing|calming|soothing|peaceful|gentle|ambient|nature|"
    r"rain|rainfall|ocean|sea|forest|jungle|bird|sleep|sleepy|white|brown|pink|thunderstorm|thunder|fireplace|wave|"
    r"meditation|spa|study|focus)\s+)+(?:sounds?|noise|music|waves|songs|tunes)$"
    r"|^(?:something|anything|some music|music|songs|tunes|a song|some songs)\s+(?:to (?:dance|sleep|study|relax|work out|chill|"
    r"run|cook|focus|wake up|sing along) (?:to|with)|(?:that'?s |that is )?(?:upbeat|relaxing|calm|chill|happy|sad|mellow|"
    r"energetic|romantic|uplifting|cheerful|soothing|catchy|groovy|danceable)|for (?:a party|parties|studying|sleeping|sleep|"
    r"the gym|working out|running|dinner|a road trip|relaxing|focus|kids|children|a wedding))$"
    r"|^(?:(?:some|a few)\s+)?(?:lullab(?:y|ies)|nursery rhymes|asmr)(?:\s+(?:for .{1,30}))?$"
)
#: a station said by its name ("bbc radio four", "kiss fm"), not a question about it
_STATION = re.compile(r"^(?:[a-z0-9&']+\s+){0,3}(?:radio(?:\s+[a-z0-9]+){0,2}|fm|[0-9.]+\s*(?:fm|am))$")


#: something to play named by what it is ("the lion king soundtrack", "80s hits", "a ted talk about
#: happiness", "a bedtime story", "the latest episode of radiolab", "npr news podcast")
_MEDIA_THING = re.compile(
    r"^(?:(?:a|an|the|some)\s+)?[a-z0-9' &.-]{1,40}?\s+(?:soundtrack|ost|hits|greatest hits|theme song|theme tune|"
    r"mixtape|remix|acoustic version|podcasts?|audio ?books?)$"
    r"|^(?:the\s+)?(?:top|greatest|biggest|best)\s+(?:\d+\s+)?(?:hits|songs|tracks)\s+(?:of|from)\s+.{1,40}$"
    r"|^(?:a\s+|some\s+)?ted talks?(?:\s+(?:about|on)\s+.{1,60})?$"
    r"|^(?:a\s+|some\s+)?(?:bedtime|sleep|children's|kids|short|ghost)\s+stor(?:y|ies)(?:\s+for\s+.{1,30})?$"
    r"|^(?:a\s+|some\s+)?stor(?:y|ies) for (?:kids|children|bedtime|my kids|the kids)$"
    r"|^(?:the\s+)?(?:latest|newest|new|last|most recent|first)\s+(?:episode|season|chapter)s?\s+of\s+.{1,60}$"
)


#: "some taylor swift", "a little bit of bob marley": a name said as something to have some of
_SOME_NAME = re.compile(r"^(?:some|a bit of|a little bit of|a little|a dose of)\s+(?P<x>[a-z][a-z'&.-]*(?:\s+[a-z][a-z'&.-]*){0,2})$")
#: what people ask for some of that is not to be played: such a request is not understood, as before
_NOT_TO_PLAY = frozenset("""help water coffee tea food milk sugar salt bread pizza wine beer juice snacks ice money cash time space
    room light lights heat air quiet peace silence privacy sleep rest advice ideas idea examples example information info
    tips news weather company fun exercise work more of it this that them things stuff rain sun sunshine paper
    medicine pills love attention""".split())


#: a question word first: the clause asks about something, it names nothing to play
_ASKED = re.compile(r"^(?:what|what's|whats|who|who's|whos|when|where|why|which|how|is|are|was|were|does|do|did|can|could|will)\b")


def mood_or_station(low: str) -> Piece | None:
    """A YouTube search for a mood, a sound, a station or a thing to play said alone ("something
    upbeat", "white noise", "bbc radio four", "hamilton soundtrack"), or None."""
    if _ASKED.match(low):  # "who invented the radio" asks about it
        return None
    if _MEDIA_THING.match(low) and not re.search(r"\b(?:my|our)\b", low):
        return youtube(re.sub(r"^(?:a|an|some)\s+", "", low))
    if _STATION.match(low):
        return media(low, explicit_play=True)
    some = _SOME_NAME.match(low)
    if some and not set(some.group("x").split()) & _NOT_TO_PLAY and not domain(low):
        return youtube(some.group("x"))  # "some taylor swift", "a bit of bob marley": a name to play
    if not _MOOD.match(low):
        return None
    rest = re.sub(r"^(?:some|something|anything|a bit of|a little)\s+", "", low)
    if rest.startswith(("to ", "for ")):  # "something to dance to" -> "music to dance to"
        rest = "music " + rest
    elif not re.search(r"\b(?:sounds?|noise|music|waves|songs|tunes|lullab\w+|rhymes|asmr)\b", rest):
        rest += " music"  # "something upbeat" -> "upbeat music"
    return youtube(rest)


#: "thriller by michael jackson": a title and who made it, which is something to play unless a
#: book, a film or a picture is named
SONG_BY = re.compile(
    r"^(?:(?:find|get|give|fetch|i want|i'd like|i need)\s+(?:me\s+|us\s+)?)?"
    r"(?!.*\b(?:near|close|stand|drop|stop|come|pass|go|swing|walk|drive) by\b)"
    r"(?!.*\b(?:books?|novels?|poems?|paintings?|pictures?|photos?|papers?|articles?|essays?|study|report|speech|movies?|"
    r"films?|documentary|documentaries|recipes?|dishes|design|buildings?|statues?|plays?|quotes?|sculptures?)\b)"
    r"(?P<x>[a-z0-9'&.-]+(?:\s+[a-z0-9'&.-]+){0,5}\s+by\s+(?!the way\b|car\b|bus\b|train\b|plane\b|air\b|"
    r"tomorrow\b|today\b|tonight\b|then\b|now\b|\d)[a-z][a-z0-9'&.-]*(?:\s+[a-z0-9'&.-]+){0,3})$"
)
